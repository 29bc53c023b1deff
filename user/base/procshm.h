/*
 * procshm.h - the memory a process shares with others for writing: the
 * largest writable shared mapping it has (/proc/PID/maps), by identity.
 * Processes forked from one parent that keep their cache in such a
 * mapping (PostgreSQL's shared_buffers: MAP_SHARED | MAP_ANONYMOUS,
 * inherited by every backend) have one cache between them, so their
 * reads are one cache's miss stream.
 */
#ifndef FCTRACE_PROCSHM_H
#define FCTRACE_PROCSHM_H

#include <stdint.h>
#include <sys/types.h>

/* smaller shared mappings are not a cache's (a JVM's perf data, 32 KiB) */
#define PROCSHM_MIN_BYTES	(1ull << 20)

/* The identity (device and inode, never 0) of pid's largest writable
 * shared mapping of at least PROCSHM_MIN_BYTES and its size in *bytes;
 * 0 when it has none or its maps cannot be read. */
uint64_t proc_shared_pool(pid_t pid, uint64_t *bytes);

#endif
