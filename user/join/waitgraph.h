/*
 * waitgraph.h - the run's wait-for graph: each thread's waits on a lock or
 * event charged to the threads that ended them (wakers.h), in proportion
 * to their wakes. An edge "A waited 3.2 s for B on X" is what wPerf
 * follows to a program's knot; the JSON's `wait_graph` keeps the largest.
 * Derived from the rows' waits and the locks' wakers, so a saved run's is
 * built again on load.
 */
#ifndef FCTRACE_WAITGRAPH_H
#define FCTRACE_WAITGRAPH_H

#include <stdint.h>
#include <sys/types.h>
#include "fctrace.h"

#define WAIT_EDGES_MAX	256	/* kept, the most time first */

struct wait_edge {
	pid_t waiter, waker;		/* threads */
	char waiter_comm[FCT_COMM_LEN], waker_comm[FCT_COMM_LEN];
	char via[160];			/* the lock's or event's name */
	int cls;			/* its wait class (lock_kind.h's enum wait_class) */
	double wait_ns;			/* the waiter's time on it, the waker's share */
	double waker_waiting;		/* the share of it the waker itself waited on
					 * others (the lock's holders' or wakers' span,
					 * when measured), or -1: not known */
};

/* Where waits end, wPerf's way: a wait charged to its waker is passed on
 * along the waker's own waits in the share of it the waker itself waited
 * (measured on the lock when its holders or its wakers' spans were, else
 * the share of the waker's wall it waited); what stays is the waits that
 * ended in the waker's own work. A root is a thread much time stays at. */
#define WAIT_ROOTS_MAX	8
#define WAIT_DEPTH_MAX	8	/* hops followed; what is left then stays */

struct wait_root {
	pid_t tid;
	char comm[FCT_COMM_LEN];
	double ended_ns;		/* others' waits that end in its own work */
	double direct_ns;		/* of the waits charged to it directly */
	double waited_share;		/* the share of its wall it waited on others */
	double cpu_share, blocked_share, runq_share;	/* its account, of its wall */
};

struct wait_graph {
	struct wait_edge *edges;	/* NULL: not built (no wakers joined) */
	int nedges;
	unsigned more_edges;		/* past WAIT_EDGES_MAX */
	double more_wait_ns;		/* their time */
	double unjoined_ns;		/* waits whose lock had no waker seen, or its
					 * wakers past those a lock keeps */
	struct wait_root roots[WAIT_ROOTS_MAX];	/* the most time ended first */
	int nroots;
};

struct joined_run;

/* m->graph from m's rows and locks' wakers; 0, or -1 out of memory. */
int wait_graph_build(struct joined_run *m);
void wait_graph_free(struct wait_graph *g);

#endif
