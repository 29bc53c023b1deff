/* compare.h - two workloads at the same settings, explained term by term. */
#ifndef FCTRACE_COMPARE_H
#define FCTRACE_COMPARE_H

#include <stdio.h>
#include "session/session.h"

void compare_print(FILE *f, const struct session *a, const struct session *b);
struct json_object *compare_json(const struct session *a, const struct session *b);
/* What `fctrace compare --json` writes: both runs, the terms, and
 * whether a signal cut the second run short. */
struct json_object *compare_document(const struct session *a, const struct session *b);

#endif
