/*
 * diagutil.h - a run's diagnosis (explain.h) read by the tests: a cause
 * by its id, the first cause that is the program's own rather than the
 * CPUs', and, where the wording itself is what is tested, the words of a
 * title or of a cause's evidence.
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
/* Does hay hold needle? When not, both are printed. */
bool has_text(const char *hay, const char *needle);
/* Does one of c's evidence sentences hold needle? When not (or c is
 * NULL), needle is printed. */
bool any_evidence(const struct diag_cause *c, const char *needle);

#endif
