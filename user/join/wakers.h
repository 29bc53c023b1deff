/*
 * wakers.h - who ended each lock's and event's waits: the threads whose
 * futex wakes woke its waiters, and the call each of them finished last
 * before the wake (bpf/syscalls.bpf.c's wake_after map) - a flusher's
 * fdatasync before it signals the writers, a reply's sendto, nothing but
 * futex calls for a lock handed from one holder to the next.
 */
#ifndef FCTRACE_JOIN_WAKERS_H
#define FCTRACE_JOIN_WAKERS_H

#include <stdint.h>
#include <sys/types.h>
#include "fctrace.h"

#define WAKERS_MAX	4	/* threads and calls kept, the most wakes first */

struct waker_thread {
	pid_t tid;
	char comm[FCT_COMM_LEN];
	uint64_t wakes;
};

struct waker_call {
	char call[24];		/* the syscall's name; "": none since the window opened */
	uint64_t wakes;
};

struct lock_wakers {
	uint64_t wakes;		/* futex calls that woke a waiter, every waker's */
	struct waker_thread threads[WAKERS_MAX];
	int nthreads;
	unsigned more_threads;	/* wakers past those kept */
	struct waker_call after[WAKERS_MAX];
	int nafter;
};

struct joined_run;
struct lock_total;

/* Each lock of m (other programs' named words) gets its wakers from the
 * kernel view m->kv; nothing without one. */
void wakers_join(struct joined_run *m);
/* The wakers of the locks in old[0..n) given back to m's locks of the
 * same name (m's locks rebuilt from its rows). */
void wakers_keep(struct joined_run *m, const struct lock_total *old, int n);

#endif
