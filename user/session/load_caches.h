/*
 * load_caches.h - a saved run's `caches` read back into the joined run
 * (report/caches_json.c writes them).
 */
#ifndef FCTRACE_LOAD_CACHES_H
#define FCTRACE_LOAD_CACHES_H

#include "base/jsonread.h"
#include "join/join.h"

/* 0 (none when absent or null: runs saved before it, or without the
 * handles group), or -1 with the problem in r; m->caches is malloc'd */
int load_caches(struct jr *r, struct json_object *doc, struct joined_run *m);

#endif
