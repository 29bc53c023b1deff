/*
 * roles.h - what each thread did for the run, read off its own account:
 * a thread that only waited for others (joined them, idled on a
 * condition variable or semaphore until given work, slept in a timer or
 * a poll all along) is shown but is no cause, and the shares that rank
 * causes leave it out; a thread on CPU or runnable most of its window is
 * saturated: the program goes as fast as it does (rules_thread.c).
 */
#ifndef FCTRACE_ROLES_H
#define FCTRACE_ROLES_H

#include <stdbool.h>
#include <stddef.h>
#include "join/join.h"

struct diagnosis;

/* Asleep waiting for other threads or for time this share of its window:
 * the thread only waited. */
#define ROLE_WAITING_SHARE	0.9
/* On CPU or runnable this share of its window: saturated. */
#define ROLE_SATURATED_SHARE	0.5

enum thread_role {
	ROLE_WORKS,		/* did some of the work */
	ROLE_SATURATED,		/* on CPU or runnable most of its window */
	ROLE_JOINS,		/* waited for threads to end (pthread_join) */
	ROLE_IDLE,		/* waited to be signalled (condvar, semaphore): for work;
				 * a wait in a pool's queue or for another thread's
				 * fsync (a commit made durable) is work, not idle */
	ROLE_SLEEPS,		/* slept in timers, polls, signal or child waits */
	ROLE_PARKED,		/* waited on a gate: a lock held by a thread asleep
				 * outside it (held.h), parked on purpose */
	ROLE_N,
};

struct thread_roles {
	enum thread_role *role;	/* one per row of the model */
	bool *drop;		/* and whether it is left out of the shares */
	unsigned nrows, ndrop;
	unsigned count[ROLE_N];
};

/* The roles of m's rows (rows set aside stay ROLE_WORKS, not dropped);
 * when every thread only waited, none is dropped. 0, or -1 out of memory. */
int roles_find(const struct joined_run *m, struct thread_roles *r);
void roles_free(struct thread_roles *r);
bool role_waits(enum thread_role role);
const char *role_name(enum thread_role role);	/* JSON-stable: "joins", ... */
/* Which threads the shares are of, and those left out, into d->threads
 * with the figures it states (d's): "Shares are of the 1 working
 * thread's time (5.00 s); left out, 4 threads that only waited for
 * others: ..." */
void roles_words(const struct joined_run *m, const struct thread_roles *r, struct diagnosis *d);
/* When the traced process (one, not followed) only waited for a child,
 * the sentence that says so and names --follow, appended to d->threads. */
void roles_follow_hint(const struct joined_run *m, const struct thread_roles *r,
		       struct diagnosis *d);

#endif /* FCTRACE_ROLES_H */
