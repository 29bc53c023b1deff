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
#include "join/holders.h"

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

/* What ended the waits, by the call most wakes followed (half or more of
 * them; else mixed). */
enum wake_class {
	WC_NONE,		/* no wake joined */
	WC_MIXED,		/* no call before half the wakes */
	WC_HANDOFF,		/* no call before them: a lock passed on, futex to futex */
	WC_DURABLE,		/* fsync, fdatasync, sync_file_range: a durability point */
	WC_INPUT,		/* read, recv*, accept*: work handed over as it came in */
	WC_OUTPUT,		/* write, send*: after the waker wrote (a reply, a log) */
	WC_POLL,		/* epoll_wait, poll, select: an event loop's turn */
	WC_TIMER,		/* nanosleep, clock_nanosleep: a periodic thread */
	WC_OTHER,		/* another call */
	WC_N
};

struct lock_wakers {
	uint64_t wakes;		/* futex calls that woke a waiter, every waker's */
	enum wake_class cls;	/* what ended them (wake_class_name) */
	struct waker_thread threads[WAKERS_MAX];
	int nthreads;
	unsigned more_threads;	/* wakers past those kept */
	struct waker_call after[WAKERS_MAX];
	int nafter;
	/* what the wakers did between their wakes of its words, summed over
	 * them (syscall, blocked, preempted, user, waiting: holders.h's
	 * states), over spans of `span_ns` in all, `cycles` of them; and the
	 * waiters' time charged to those states in the same proportions:
	 * while they waited, what ended their waits was doing this */
	uint64_t cycles;
	double span_ns;
	double between_ns[HS_N];
	double while_waited_ns[HS_N];
};

struct joined_run;
struct lock_total;

/* The class of a call's name ("" for none), and a class's name. */
enum wake_class wake_class_of(const char *call);
const char *wake_class_name(enum wake_class c);
extern const char *const wake_class_names[WC_N];

/* Each lock of m (other programs' named words) gets its wakers from the
 * kernel view m->kv; nothing without one. */
void wakers_join(struct joined_run *m);
/* The wakers of the locks in old[0..n) given back to m's locks of the
 * same name (m's locks rebuilt from its rows). */
void wakers_keep(struct joined_run *m, const struct lock_total *old, int n);

/* Sleeps another traced process ended with a kill or a write (a latch,
 * or a request from another program: FCT_WAKE_*), by the call the waker
 * finished just before (the signals it sends aside): a backend's kill
 * after its commit's fdatasync. */
struct sib_call {
	char call[24];		/* "": none since the window opened */
	uint64_t wakes;
	uint64_t wait_ns;	/* the sleeps they ended */
};

struct sib_wakers {
	enum fct_wake_by by;	/* its place in joined_run's sib[] */
	uint64_t wakes, wait_ns;
	enum wake_class cls;	/* of the call most wakes followed (half or more) */
	struct sib_call after[WAKERS_MAX];
	int nafter;
};

/* One thread's sleeps another process's thread ended, by the kind of
 * wake and the waker's call before it: an edge of the wait-for graph
 * between processes (waitgraph.h). */
#define SIB_EDGES_MAX	64	/* kept, the most time first */
struct sib_edge {
	pid_t waiter, waker;
	char waiter_comm[FCT_COMM_LEN], waker_comm[FCT_COMM_LEN];
	enum fct_wake_by by;
	char call[24];		/* the waker's call before the wake; "": none */
	uint64_t wakes;
	uint64_t wait_ns;	/* asleep, up to the wake-up */
};

/* The JSON's words for FCT_WAKE_*: "signal", "write", "request". */
extern const char *const sib_kind_names[FCT_WAKE_N];
/* m->sib[] and m->sib_edges from the kernel view's sib_after entries,
 * when it has any (m->sib_measured). */
void sib_wakers_join(struct joined_run *m);

#endif
