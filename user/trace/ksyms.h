/*
 * ksyms.h - kernel symbols from /proc/kallsyms, to name the function
 * that contended on a kernel lock.
 */
#ifndef FCTRACE_KSYMS_H
#define FCTRACE_KSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ksyms;

/* Load /proc/kallsyms (or path, for tests); NULL on failure. */
struct ksyms *ksyms_load(const char *path);
void ksyms_free(struct ksyms *ks);

/* The function containing addr, or NULL; *off the offset into it. */
const char *ksyms_find(const struct ksyms *ks, uint64_t addr, uint64_t *off);

/* Is this a lock, contention or tracing function (not a caller)? */
bool ksym_is_locking(const char *name);

/* Name the first frame of a kernel stack that is not a locking
 * function ("ext4_file_read_iter+0x4f") into buf; "?" if none. */
void ksyms_caller(const struct ksyms *ks, const uint64_t *ips, int n,
		  char *buf, size_t len);

#endif /* FCTRACE_KSYMS_H */
