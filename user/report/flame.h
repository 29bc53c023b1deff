/*
 * flame.h - the flame graphs' files: --folded (collapsed stacks, one line
 * per stack, "thread;root;...;leaf value", as flamegraph.pl, inferno and
 * speedscope read them) and --pprof (gzipped profile.proto), both from a
 * run's weighted stacks (join/stacks.h), and the HTML report's flame
 * graph (report_html_flame.c). Values are nanoseconds.
 */
#ifndef FCTRACE_FLAME_H
#define FCTRACE_FLAME_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "join/stacks.h"

struct flame_opts {
	bool no_thread;		/* --no-thread-frame: no thread name as the root frame */
	uint64_t duration_ns;	/* the measured window (pprof's duration) */
};

/* Write path through the safe output path (outfile.h): 0, or -1 after
 * one line on stderr. */
int flame_folded_write(const struct stack_set *ss, const struct flame_opts *o, const char *path);
int flame_pprof_write(const struct stack_set *ss, const struct flame_opts *o, const char *path);

/* One stack's folded line, without its value, into f: frames' ';' and
 * control characters replaced, so that a line stays one stack. */
void flame_folded_line(FILE *f, const struct stack_set *ss, const struct sstack *s, bool no_thread);

struct json_object;
/* The run's "stacks" section, or NULL when it has none. */
struct json_object *flame_stacks_json(const struct stack_set *ss);
/* The ids of the wait stacks of the lock the lock table names lock. */
struct json_object *flame_stack_ids_json(const struct stack_set *ss, const char *lock);

#endif
