/*
 * load_stacks.h - a saved run's flame graph stacks (its "stacks" section,
 * optional) into a stack set; part of load_run.
 */
#ifndef FCTRACE_LOAD_STACKS_H
#define FCTRACE_LOAD_STACKS_H

#include "base/jsonread.h"
#include "join/stacks.h"

/* 0 (no section: nothing read), or -1 with the problem in r. */
int load_stacks(struct jr *r, struct json_object *doc, struct stack_set *ss);

#endif
