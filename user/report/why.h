/* why.h - the diagnosis (explain/) as the "Why" section and as JSON. */
#ifndef FCTRACE_WHY_H
#define FCTRACE_WHY_H

#include <stdio.h>
#include "explain/explain.h"

#define WHY_WIDTH 92	/* columns of wrapped text */

/* The "Why" section: headline, causes with their evidence, what is not the
 * problem, the what-if model for pool runs, the fix. */
void why_print(FILE *f, const struct diagnosis *d);
/* Print text word-wrapped at WHY_WIDTH columns: the first line after lead, the
 * rest indented by as many columns as lead takes. */
void why_wrap(FILE *f, const char *lead, const char *text);
/* The what-if model's lines (whatif_print), word-wrapped at WHY_WIDTH columns. */
void why_print_model(FILE *f, const struct whatif_params *p);

/* The array diagnosis[]: {cause, share, title, evidence[], confidence} per
 * cause. Caller owns it (json_object_put). */
struct json_object *why_causes_json(const struct diagnosis *d);
/* {headline, fix, beyond}: the rest of the diagnosis, for reporters that want it. */
struct json_object *why_summary_json(const struct diagnosis *d);

#endif
