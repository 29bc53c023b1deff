/*
 * timeline.h - a window of thread state edges (struct fct_tl_event, as the
 * BPF hooks record them with --timeline) turned into intervals, one state
 * each, per thread, and the wakes between threads. Pure: no BPF, no I/O;
 * tests feed it made-up records (tests/join/test_timeline.c).
 */
#ifndef FCTRACE_TIMELINE_H
#define FCTRACE_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "fctrace.h"

enum tl_state {
	TL_USER,		/* on CPU, in user space */
	TL_SYSCALL,		/* on CPU, inside syscall nr */
	TL_LOCK,		/* asleep in a futex wait on a named lock's word */
	TL_FUTEX,		/* asleep in another futex wait */
	TL_RUNNABLE,		/* preempted, or woken: waiting for a CPU */
	TL_BLOCKED,		/* asleep outside futex waits */
	TL_NSTATES,
};

/* A lock the run names: futex words in [addr, addr + size). */
#define TL_MAX_LOCKS	256
struct tl_lock {
	uint64_t addr, size;
	char name[160];
};

struct tl_interval {
	uint64_t start_ns, end_ns;
	uint32_t tid;
	enum tl_state state;
	uint16_t nr;		/* TL_SYSCALL: the call; else FCT_TL_NO_SC */
	uint64_t word;		/* TL_LOCK, TL_FUTEX: the futex word */
	int lock;		/* TL_LOCK: index in the locks; else -1 */
	uint32_t woken_by;	/* a sleep a wakeup ended: the waker's tid (0: unknown) */
};

/* One thread woke another (a sleep ended). */
struct tl_wake {
	uint64_t ts;
	uint32_t waker, wakee;	/* waker 0: unknown */
	int lock;		/* the wakee slept on this lock; else -1 */
	bool handoff;		/* the waker was in a futex call on the wakee's
				 * word: a lock holder releasing it */
};

struct tl_thread {
	uint32_t tid;
	uint64_t state_ns[TL_NSTATES];	/* inside the window */
	uint64_t lock_sleeps;		/* TL_LOCK intervals */
};

struct timeline {
	uint64_t begin_ns, end_ns;	/* the window */
	uint64_t events;		/* records received */
	uint64_t dropped;		/* records the ring buffer had no room for */
	struct tl_thread *threads;	/* by tid, ascending */
	int nthreads;
	struct tl_interval *iv;		/* per thread in time order, threads in order */
	size_t niv;
	struct tl_wake *wakes;		/* in time order */
	size_t nwakes;
	struct tl_lock *locks;
	int nlocks;
};

/* When a thread's account began and ended: a lane is drawn only there
 * (a thread that began after the window opened has no state before). */
struct tl_life {
	uint32_t tid;
	uint64_t begin_ns, end_ns;	/* end 0: still alive */
};

/* What the records are read with: the window [begin, end] (widened to
 * take in any record outside it), the named locks and the threads'
 * lives (lives NULL: every lane spans the window). */
struct tl_input {
	uint64_t begin_ns, end_ns;
	const struct tl_lock *locks;
	int nlocks;
	const struct tl_life *lives;
	int nlives;
};

/* Build tl from n records. tl->dropped is the caller's. 0 or -ENOMEM
 * (tl then empty). */
int timeline_build(struct timeline *tl, const struct fct_tl_event *ev, size_t n,
		   const struct tl_input *in);
void timeline_free(struct timeline *tl);

/* "user", "syscall", "lock wait", "futex wait", "runnable", "blocked" */
const char *tl_state_name(enum tl_state s);
/* thread tid's entry, or NULL */
const struct tl_thread *timeline_thread(const struct timeline *tl, uint32_t tid);

#endif
