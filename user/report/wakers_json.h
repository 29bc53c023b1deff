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
/* The run's "sibling_wakers": each kind of sleep ended by a sibling's kill
 * or write, by the waker's call before it; null when not measured. */
struct joined_run;
void sib_wakers_json(struct json_object *doc, const struct joined_run *m);
/* The run's "wait_graph" (join/waitgraph.h): derived, not read back (a
 * saved run's is built again); null when no wait was joined to a waker. */
void wait_graph_json(struct json_object *doc, const struct joined_run *m);

#endif
