/*
 * cost_print.h - fctrace's measured cost to the traced program
 * (trace/selfcost.h), in the table's words and in the JSON's `overhead`.
 */
#ifndef FCTRACE_COST_PRINT_H
#define FCTRACE_COST_PRINT_H

#include <stdio.h>
#include "trace/kview.h"

struct json_object;

/* "Cost: ..." lines; nothing when the cost was not measured. */
void cost_print(FILE *f, const struct kview *kv);
/* The `overhead` object, or NULL (JSON null) when not measured. */
struct json_object *cost_json(const struct kview *kv);

#endif /* FCTRACE_COST_PRINT_H */
