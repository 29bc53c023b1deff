/* sweep_print.h - a sweep's table, findings, predictions, CSV and JSON. */
#ifndef FCTRACE_SWEEP_PRINT_H
#define FCTRACE_SWEEP_PRINT_H

#include <stdio.h>
#include "session/sweep.h"

void sweep_print_table(FILE *f, const struct sweep *sw);
void sweep_print_findings(FILE *f, const struct sweep *sw);
/* --predict: each cell's measured and predicted wall, the errors, the model */
void sweep_print_predictions(FILE *f, const struct sweep *sw);
int sweep_write_csv(const struct sweep *sw, const char *path);
struct json_object *sweep_json(const struct sweep *sw);
struct json_object *sweep_fit_json(const struct sweep *sw);	/* NULL: no fit */

#endif
