/*
 * sibedges.h - the sleeps another process ended (wakers.h's struct
 * sib_edge), one edge per waiter, waker, kind and call: what the wait-for
 * graph joins processes by.
 */
#ifndef FCTRACE_SIBEDGES_H
#define FCTRACE_SIBEDGES_H

struct joined_run;

/* m->sib_edges from the kernel view's sib_after entries, the most time
 * first, at most SIB_EDGES_MAX (named while join_run has the view
 * indexed); 0, or -1 out of memory. */
int sib_edges_join(struct joined_run *m);

#endif
