/*
 * jvm_mem.h - a running JVM's libjvm.so globals, read from its memory:
 * a symbol of the very file the process maps (its fd, as jvm_open_libjvm
 * gives it: never a path the target names) at its load address, read
 * through /proc/PID/mem. For DTraceMonitorProbes (jvm_flag.c) and the
 * vmStructs table (jvm_structs.c).
 */
#ifndef FCTRACE_JVM_MEM_H
#define FCTRACE_JVM_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct jvm_mem {
	int elf_fd;		/* libjvm.so (not owned) */
	int mem_fd;		/* /proc/PID/mem */
	uint64_t start, off;	/* its lowest mapping: address and file offset */
};

/* 0, or -ENOENT when pid maps no such file, -errno of the open. */
int jvm_mem_open(struct jvm_mem *m, pid_t pid, int libjvm_fd);
/* The address in the process of data symbol name (.dynsym or .symtab). */
bool jvm_mem_symbol(const struct jvm_mem *m, const char *name, uint64_t *addr);
/* n bytes at addr: all of them, or false. */
bool jvm_mem_read(const struct jvm_mem *m, uint64_t addr, void *buf, size_t n);
void jvm_mem_close(struct jvm_mem *m);

#endif
