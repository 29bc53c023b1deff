/* whatif_print.h - the fitted what-if model in words and in JSON. */
#ifndef FCTRACE_WHATIF_PRINT_H
#define FCTRACE_WHATIF_PRINT_H

#include <stdio.h>
#include "explain/whatif.h"

/* The fitted parameters, how well they reproduce the run, and what-ifs:
 * a pool as big as the file set, the other pool, fc, 2 threads, 1 CPU,
 * and the file count where fc overtakes fcp. */
void whatif_print(FILE *f, const struct whatif_params *p);
struct json_object;
struct json_object *whatif_json(const struct whatif_params *p);

#endif
