/*
 * subset.h - a joined run with some of its threads left out of the
 * totals: the explain stage ranks causes over the threads that work,
 * not over those that only waited for them (explain/roles.c).
 */
#ifndef FCTRACE_SUBSET_H
#define FCTRACE_SUBSET_H

#include <stdbool.h>
#include "join/join.h"

/* A copy of m whose run-wide totals leave out the rows drop[] marks (set
 * aside in the copy): the rows' sums again, the user words' totals again
 * from the rows kept (each word's wake-ups and holders as m has them),
 * the kernel lock sites as m has them. Returns 0, or -1 out of memory.
 * Free with join_subset_free (m is not touched). */
int join_subset(const struct joined_run *m, const bool *drop, struct joined_run *out);
void join_subset_free(struct joined_run *out);

#endif /* FCTRACE_SUBSET_H */
