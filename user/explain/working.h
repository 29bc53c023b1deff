/*
 * working.h - the joined run as the rules see it: its threads that work,
 * without those that only waited for them (explain/roles.c). A view made
 * from the joined run alone, in the explain stage: no join is run again.
 */
#ifndef FCTRACE_WORKING_H
#define FCTRACE_WORKING_H

#include <stdbool.h>
#include "join/join.h"

/* A copy of m whose run-wide totals leave out the rows drop[] marks (set
 * aside in the copy): the rows' sums again, and each user word's per-row
 * figures (waits, time, threads) again from the rows kept, the rest of it
 * (kind, wake-ups, holders, sites) as m has it; a word only dropped rows
 * waited on is left out. The kernel lock sites stay as m has them.
 * Returns 0, or -1 out of memory. Free with working_free (m is not
 * touched). */
int working_view(const struct joined_run *m, const bool *drop, struct joined_run *out);
void working_free(struct joined_run *out);

#endif /* FCTRACE_WORKING_H */
