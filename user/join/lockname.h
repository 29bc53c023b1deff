/*
 * lockname.h - names for the futex words of a program fctrace did not
 * write. A word inside a static or global object is named by its symbol
 * ("session_table_lock", "libfoo.so.1:cache_mu"); any other (heap, shared
 * memory) by the call site its sampled waits were made from, the first
 * frame outside the C library ("mutex @ get_fd+0x4a (store.c:34)"). The
 * C library's own frames tell a lock (mutex, rwlock) from a wait for an
 * event (condvar, semaphore, barrier, join).
 */
#ifndef FCTRACE_LOCKNAME_H
#define FCTRACE_LOCKNAME_H

#include <sys/types.h>
#include "trace/kview.h"
#include "join/join.h"

struct lockname;

struct lockname *lockname_new(void);
void lockname_free(struct lockname *ln);

/* A sampled wait's stack, as it arrives (a tracer_ustack_fn): unwound
 * at once, while the process's memory map can still be read. */
void lockname_on_ustack(void *ln, const struct fct_ustack *e, size_t len);
/* Save the target's memory map now (call while it lives). */
void lockname_snapshot(struct lockname *ln, pid_t tgid);
/* The same unless the last was read less than a second ago: for the
 * libraries a long-running target loads later (a server's maps of 270
 * lines read every poll turn were a third of fctrace's own CPU beside
 * MariaDB). */
void lockname_refresh(struct lockname *ln, pid_t tgid);

/* Work on names stops at this CLOCK_MONOTONIC time (base/clock.h monotonic_ns):
 * a fetch of debug information (--debuginfod) gives up, and
 * lockname_build names the words left by their address only. */
void lockname_deadline(struct lockname *ln, uint64_t deadline_ns);
/* Words lockname_build left named by their address: out of time. */
uint64_t lockname_unnamed(const struct lockname *ln);
/* The objects the names needed that were not symbolised, and why
 * (usym_unsymbolised): into buf, "" when none. */
void lockname_unsymbolised(const struct lockname *ln, char *buf, size_t len);

/* A symbol larger than this is an object holding locks, not a lock: its
 * words are named symbol+offset. glibc's types on x86-64: sem_t 32,
 * pthread_mutex_t 40, pthread_cond_t 48, pthread_rwlock_t 56 bytes. A
 * word belongs to the object it lies in, by that object's extent: two
 * condvars side by side are two objects. */
#define LOCKNAME_MAX_LOCK_SIZE	56

/* An event (condvar, semaphore) is taken in turns, a lock, when more
 * than half of at least this many wake-ups came from its own waiters,
 * and three or more threads waited on it. */
#define LOCKNAME_TURNS_MIN_WAKES	16

/* Name every futex word of kv; *out is malloc'ed (free it). Returns the
 * count, or -1. */
int lockname_build(struct lockname *ln, const struct kview *kv, struct lock_name **out);

/* The whole stacks of the samples received (waitstacks.h), kept by ln. */
struct waitstacks *lockname_waitstacks(struct lockname *ln);

/* Stacks received, stacks unwound to a call site. */
void lockname_stats(const struct lockname *ln, uint64_t *received, uint64_t *unwound);

#endif /* FCTRACE_LOCKNAME_H */
