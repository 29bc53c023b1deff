/*
 * jvm_structs.h - HotSpot field offsets from a running JVM's vmStructs
 * table, for the Java holders code (bpf/jvmhold.bpf.c).
 */
#ifndef FCTRACE_JVM_STRUCTS_H
#define FCTRACE_JVM_STRUCTS_H

#include <sys/types.h>
#include "fctrace.h"

/* ObjectMonitor::_owner, JavaThread::_osthread, OSThread::_thread_id of
 * JVM pid (libjvm_fd: the libjvm.so it maps, jvm_open_libjvm's): 0 and
 * out->ready set; -ENOENT when the table or a field is missing (not a
 * HotSpot, or its static constructors have not run yet), -errno. */
int jvm_structs_read(pid_t pid, int libjvm_fd, struct fct_jvm_structs *out);

#endif
