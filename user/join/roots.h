/*
 * roots.h - a lock's wait chain to its root: while its waiters waited,
 * what its holders were doing; when that was mostly waiting for another
 * lock, what that lock's holders were doing, and so on, to the first
 * lock whose holders mostly did something else - a call, a sleep, being
 * preempted, user work. That something is the root: shortening it
 * shortens every hold along the chain. From the holders' measurements
 * alone (holders.h), so a saved run finds the same roots.
 */
#ifndef FCTRACE_JOIN_ROOTS_H
#define FCTRACE_JOIN_ROOTS_H

#include <stdbool.h>
#include "join/holders.h"

#define ROOT_LINKS_MAX	4

struct lock_root {
	int nlinks;		/* locks in the chain, this one first; 0: not measured */
	char link[ROOT_LINKS_MAX][160];
	/* of each link's waiters' time, the share spent while its holders
	 * waited for the next link (the last: behind the root's state) */
	double share[ROOT_LINKS_MAX];
	enum hold_state state;	/* what the last link's holders did most */
	int nr;			/* in syscall or asleep: their call with the most time,
				 * -1 when none is known */
	bool cycle;		/* the chain came back to a lock already in it */
};

struct joined_run;

/* Every lock of m whose holders were measured gets its root. */
void roots_join(struct joined_run *m);

#endif
