/*
 * session.h - one measured run, start to finish:
 *   load+attach the probes -> run the workload (window open while the
 *   threads run) -> read the maps -> join -> explain.
 * run, compare and sweep are all made of sessions.
 */
#ifndef FCTRACE_SESSION_H
#define FCTRACE_SESSION_H

#include <stdbool.h>
#include "workload.h"
#include "explain/explain.h"
#include "join/join.h"
#include "join/stacks.h"
#include "trace/loader.h"
#include "session/target.h"
#include "join/timeline.h"

/* --budget's default: the file stream stops past 5 % (the command line's;
 * a trace_opts made in code has none unless it says) */
#define TRACE_DEFAULT_BUDGET_PCT	5.0

/* How a session traces: what session_run needs of the command line. */
struct trace_opts {
	bool no_bpf;
	unsigned probes;		/* PG_MASK bits */
	unsigned time_every;		/* 0: the default */
	unsigned max_threads;		/* thread slots wanted; 0: from the target */
	double budget_pct;		/* other programs: fctrace's cost at most this %
					 * of the traced CPU (selfcost.h); 0: none */
	bool verbose;
	unsigned tl_window_ms;		/* --timeline: its window; 0: no timeline */
	unsigned tl_start_ms;		/* after the measured window opens */
	bool cpu_stacks;		/* --cpu-stacks: on-CPU stacks (other programs) */
	bool sleep_stacks;		/* sleeps' stacks in syscalls (a flame graph is
					 * written: --folded, --pprof, --html, --json) */
};

struct json_object;

struct session {
	struct wl_config cfg;		/* a workload's settings (zero for a program) */
	const char *subject;		/* the workload's or the program's name */
	struct subject_timings timings;	/* what the subject timed of itself (the
					 * workload driver's; arrays owned) */
	bool interrupted;		/* stopped by a signal: partial */
	struct kview kv;
	bool traced;			/* the kernel view is in kv */
	struct joined_run joined;
	struct diagnosis diag;
	uint64_t prepare_ns;		/* load + attach */
	struct target_info target;	/* mode TGT_NONE for fctrace's own workloads */
	struct lock_name *names;	/* other programs' futex words, named */
	int nnames;
	struct stack_set stacks;	/* the flame graphs' weighted stacks (stacks.h) */
	struct jvm_view *jvm;		/* a JVM target: what HotSpot's probes saw */
	bool jvm_monitors;		/* its monitor probes fired (the flag was on) */
	int jvm_structs;		/* 0: the JVM's field offsets were read (the Java
					 * holders code ran), else -errno why not */
	int jvm_flag;			/* enum jvm_flag: DTraceMonitorProbes as read
					 * while the JVM lived (JVM_FLAG_UNKNOWN: never) */
	unsigned stopped;		/* SIGCONTs during the run: it was stopped */
	uint64_t started_unix_ns;	/* the window's start by the wall clock (ns since
					 * the epoch; 0: a run saved before it was kept) */
	struct tl_events tl_events;	/* --timeline: the records, as they came */
	struct timeline *timeline;	/* and built (NULL without --timeline) */
	struct json_object *saved_timeline;	/* a saved run's "timeline" (load_run.c) */
	char saved_workload[64];	/* a saved run's workload, as its file names it
					 * (load_run.c): maybe one this fctrace lacks */
};

/* Run cfg traced as t says. Returns 0, 2 for bad input, 1 for a failure
 * (message printed); a run stopped by a signal returns 0 with
 * s->interrupted set (the caller turns it into 130/143). */
int session_run(const struct trace_opts *t, const struct wl_config *cfg,
		struct session *s);
/* Trace a program fctrace did not write (session_target.c); the same
 * returns, and s->target says how the program ended. */
int session_run_target(const struct trace_opts *t, const struct target_opts *to,
		       struct session *s);
void session_free(struct session *s);

/* The tracer's timeline settings for o (all 0 without --timeline);
 * records go to s->tl_events. */
void session_timeline_opts(const struct trace_opts *o, struct session *s,
			   struct tracer_opts *topts);
/* Build the joined model and the diagnosis of a session whose kernel
 * view (if traced) and the subject's own timings are filled in; 0 or 1. */
int session_explain(struct session *s);
/* What fctrace's workload timed of itself, as the join's attachment: a
 * copy of res's, of a run with settings cfg (its arrays malloc'd); 0 or
 * -1 out of memory. */
int session_workload_timings(struct subject_timings *out, const struct wl_result *res,
			     const struct wl_config *cfg);
void subject_timings_free(struct subject_timings *t);
/* A workload's settings as far as the rules read them. */
struct subject_config session_workload_config(const struct wl_config *c);

#endif
