/*
 * wakers_json.h - a lock's `wakers` in the JSON (who ended its waits and
 * the call before each wake; join/wakers.h); session/load_wakers.c reads
 * them back.
 */
#ifndef FCTRACE_WAKERS_JSON_H
#define FCTRACE_WAKERS_JSON_H

#include <json-c/json.h>
#include "join/wakers.h"

/* null when no wake of its waiters was joined to a waker */
struct json_object *wakers_json(const struct lock_wakers *w);

#endif
