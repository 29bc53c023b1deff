/*
 * roots_json.h - a lock's `root` in the JSON (its wait chain to what its
 * holders were doing: join/roots.h). Derived from the holders, so a saved
 * run finds it again and the loader does not read it back.
 */
#ifndef FCTRACE_ROOTS_JSON_H
#define FCTRACE_ROOTS_JSON_H

#include <json-c/json.h>
#include "join/roots.h"

/* null when the lock's holders were not measured */
struct json_object *root_json(const struct lock_root *r);

#endif
