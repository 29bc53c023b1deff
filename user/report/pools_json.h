/*
 * pools_json.h - the JSON's `pools`: each pool of N found in the traced
 * programs, its capacity, queue, holds and what-ifs (join/pools.h);
 * session/load_pools.c reads it back.
 */
#ifndef FCTRACE_POOLS_JSON_H
#define FCTRACE_POOLS_JSON_H

#include <json-c/json.h>
#include "join/join.h"

/* `pools`: [] when the pools were measured and none queued, null when
 * they were not measured (fctrace's own workloads, no syscalls probe) */
void pools_json(struct json_object *doc, const struct joined_run *m);

#endif
