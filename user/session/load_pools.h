/*
 * load_pools.h - a saved run's `pools` back into its joined run.
 */
#ifndef FCTRACE_LOAD_POOLS_H
#define FCTRACE_LOAD_POOLS_H

#include <json-c/json.h>
#include "base/jsonread.h"
#include "join/join.h"

/* m->pools from doc's `pools` (absent or null: none); 0, or -1 with the
 * problem in r. */
int load_pools(struct jr *r, struct json_object *doc, struct joined_run *m);

#endif
