/*
 * load_wakers.h - a saved lock's `wakers` back into its struct lock_wakers
 * (report/wakers_json.c writes it).
 */
#ifndef FCTRACE_LOAD_WAKERS_H
#define FCTRACE_LOAD_WAKERS_H

#include <json-c/json.h>
#include "base/jsonread.h"
#include "join/wakers.h"

/* lock's "wakers": absent (saved before it) or null leaves w zeroed; 0 or -1 */
int load_wakers(struct jr *r, struct json_object *lock, struct lock_wakers *w);
/* The run's "sibling_wakers" into m->sib[] (absent: saved before it, or
 * null: not measured, leave m->sib_measured false); 0 or -1 */
struct joined_run;
int load_sib_wakers(struct jr *r, struct json_object *doc, struct joined_run *m);

#endif
