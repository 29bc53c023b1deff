/*
 * caches_json.h - the JSON's `caches`: each cache a program kept, its
 * working set, hit ratio now and at every size, and the size that fixes
 * it (join/caches.h); session/load_caches.c reads it back.
 */
#ifndef FCTRACE_CACHES_JSON_H
#define FCTRACE_CACHES_JSON_H

#include <json-c/json.h>
#include "join/join.h"

/* `caches`: [] when the handles were traced and no cache missed, null
 * when they were not traced */
void caches_json(struct json_object *doc, const struct joined_run *m);

#endif
