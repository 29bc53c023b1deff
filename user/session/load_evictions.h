/*
 * load_evictions.h - a saved run's page-cache removals read back
 * (`pagecache_evictions`, `pagecache_rereads`: report/evictions_json.c).
 */
#ifndef FCTRACE_LOAD_EVICTIONS_H
#define FCTRACE_LOAD_EVICTIONS_H

#include "base/jsonread.h"
#include "join/evictions.h"

/* 0 (e->on false when absent or null: runs saved before them, or
 * without pc-evict), or -1 with the problem in r */
int load_evictions(struct jr *r, struct json_object *doc, struct pc_evictions *e);

#endif
