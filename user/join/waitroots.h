/*
 * waitroots.h - where the wait-for graph's waits end (waitgraph.h's
 * roots): each edge's time passed on along its waker's own waits.
 */
#ifndef FCTRACE_WAITROOTS_H
#define FCTRACE_WAITROOTS_H

#include <stddef.h>
#include "join/waitgraph.h"

struct joined_run;

/* g->roots from all n edges e and m's rows' walls and accounts; 0, or -1
 * out of memory. */
int wait_roots_find(struct wait_graph *g, const struct wait_edge *e, size_t n,
		    const struct joined_run *m);

#endif
