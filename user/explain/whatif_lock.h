/*
 * whatif_lock.h - what-ifs on one lock of any program, from what its
 * holders did (join/holders.h) and the run's threads and CPUs: "if the
 * syscalls made inside L were made outside it" and "if L's holders were
 * never preempted". whatif_lock.c argues the model.
 */
#ifndef FCTRACE_WHATIF_LOCK_H
#define FCTRACE_WHATIF_LOCK_H

#include "join/join.h"

enum lock_change { LC_SYSCALLS_OUTSIDE, LC_NO_PREEMPTION, LC_N };

#define WHATIF_LOCK_MAX	4

/* What sets the predicted wall (whatif_lock.c's four bounds). */
enum lock_bound { LB_THREADS, LB_CPUS, LB_HOLDS, LB_THREAD, LB_N };

struct lock_whatif {
	char lock[160];
	enum lock_change change;
	double measured_wall_ns;
	double predicted_wall_ns;
	double held_ns, held_after_ns;		/* the lock's busy time, then */
	double waits, waits_after;		/* futex waits on it */
	double wait_ns, wait_after_ns;		/* the waiters' time */
	enum lock_bound bound_by;		/* what sets the predicted wall, */
	const char *bound;			/* and in words */
};

/* "syscalls_outside", "no_preemption" (the JSON's change) */
const char *lock_change_name(enum lock_change c);
/* The prediction for change c on lock l: 0, or -1 when the run does not
 * say enough (no holders measured, nothing to move, no kernel account). */
int whatif_lock(const struct joined_run *m, const struct lock_total *l, enum lock_change c,
		struct lock_whatif *out);
/* The prediction if a part (0..1] of what L's holders spent in syscalls
 * were not made at all - a cache's misses that a bigger cache would hit:
 * that part of the holds and of the waits behind it leaves the lock, and
 * gone_ns of the threads' own time on CPU goes with it. out->change says
 * syscalls_outside (the same model, the calls gone besides). */
int whatif_lock_calls_gone(const struct joined_run *m, const struct lock_total *l, double part,
			   double gone_ns, struct lock_whatif *out);

#endif
