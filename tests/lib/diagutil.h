/*
 * diagutil.h - a run's diagnosis (explain.h) read by the tests: a cause
 * by its id, the first cause that is the program's own rather than the
 * CPUs', a cause's or the Why's figures by key (what the words say, as
 * numbers), and, where the wording itself is what is tested, the words of
 * a title or of a cause's evidence.
 */
#ifndef FCTRACE_TEST_DIAGUTIL_H
#define FCTRACE_TEST_DIAGUTIL_H

#include <stdbool.h>
#include "explain/explain.h"

/* The cause of d with this id, or NULL. */
const struct diag_cause *cause_of(const struct diagnosis *d, const char *id);
/* The first cause of d that is neither cpu_oversubscription nor
 * cpu_competition, or NULL. */
const struct diag_cause *first_code_cause(const struct diagnosis *d);
/* Is the figure key of c (of the Why's lines: why_fig_is) want, to one
 * part in a million? When not, or absent, what it is gets printed. A
 * figure asserted this way pins the number the words say, not the words. */
bool fig_is(const struct diag_cause *c, const char *key, double want);
bool why_fig_is(const struct diagnosis *d, const char *key, double want);
/* c's figure key, NAN when c is NULL or has none. */
double fig_of(const struct diag_cause *c, const char *key);
/* Is c's (the Why's) figure key there at all? */
bool has_fig(const struct diag_cause *c, const char *key);
bool why_has_fig(const struct diagnosis *d, const char *key);
/* Does hay hold needle? When not, both are printed. */
bool has_text(const char *hay, const char *needle);
/* Does one of c's evidence sentences hold needle? When not (or c is
 * NULL), needle is printed. */
bool any_evidence(const struct diag_cause *c, const char *needle);

#endif
