/*
 * session.c - one measured run, whatever its subject (driver.h): probes,
 * the subject, maps, join, explain.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <json-c/json.h>
#include "base/clock.h"
#include "jvm/jvm.h"
#include "trace/loader.h"
#include "session/driver.h"
#include "base/signals.h"
#include "trace/tlrec.h"

void session_timeline_opts(const struct trace_opts *o, struct session *s,
			   struct tracer_opts *topts)
{
	if (!o->tl_window_ms)
		return;
	topts->tl_start_ns = (uint64_t)o->tl_start_ms * 1000000ull;
	topts->tl_len_ns = (uint64_t)o->tl_window_ms * 1000000ull;
	topts->tl_bytes = tlrec_ring_bytes(o->tl_window_ms, (int)sysconf(_SC_NPROCESSORS_ONLN));
	topts->tl_out = &s->tl_events;
}

/* The locks the timeline names: the subject's own, or another program's
 * futex words that lockname.c named as locks. */
static int timeline_locks(const struct session *s, struct tl_lock *out, int max)
{
	const struct own_lock *own = s->timings.locks;
	int n = 0;

	for (int i = 0; i < s->timings.nlocks && n < max; i++, n++) {
		out[n] = (struct tl_lock){ .addr = own[i].addr, .size = own[i].size };
		snprintf(out[n].name, sizeof(out[n].name), "%s", own[i].name);
	}
	for (int i = 0; i < s->nnames && n < max; i++) {
		if (!s->names[i].is_lock)
			continue;
		out[n] = (struct tl_lock){ .addr = s->names[i].addr, .size = s->names[i].size };
		snprintf(out[n].name, sizeof(out[n].name), "%s", s->names[i].name);
		n++;
	}
	return n;
}

/* Each thread's account's life: its lane is drawn only there. */
static struct tl_life *timeline_lives(const struct kview *kv)
{
	struct tl_life *l = calloc(kv->nthreads ? kv->nthreads : 1, sizeof(*l));

	for (int i = 0; l && i < kv->nthreads; i++)
		l[i] = (struct tl_life){ .tid = kv->threads[i].tid,
			.begin_ns = kv->threads[i].begin_ns, .end_ns = kv->threads[i].end_ns };
	return l;
}

/* Intervals from the records, if a timeline was recorded. */
static int build_timeline(struct session *s)
{
	struct tl_lock locks[TL_MAX_LOCKS];
	struct tl_input in = { .begin_ns = s->kv.tl.begin_ns, .end_ns = s->kv.tl.end_ns,
			       .locks = locks, .nlives = s->kv.nthreads };
	struct tl_life *lives;
	int err;

	if (!s->traced || !s->kv.tl.on || s->timeline)
		return 0;
	in.nlocks = timeline_locks(s, locks, TL_MAX_LOCKS);
	in.lives = lives = timeline_lives(&s->kv);
	s->timeline = calloc(1, sizeof(*s->timeline));
	err = !lives || !s->timeline ||
	      timeline_build(s->timeline, s->tl_events.ev, s->tl_events.n, &in);
	free(lives);
	if (err) {
		free(s->timeline);
		s->timeline = NULL;
		fprintf(stderr, "fctrace: no memory for the timeline\n");
		return 1;
	}
	s->timeline->dropped = s->kv.tl.dropped;
	return 0;
}

int session_explain(struct session *s)
{
	struct run_attachments att = {
		.subject = s->subject, .names = s->names, .nnames = s->nnames,
		.subject_pid = s->target.mode != TGT_NONE ? s->target.pid : 0,
		.timings = s->timings.threads ? &s->timings : NULL,	/* a workload's */
		.window_start_ns = s->target.window_start_ns, .window_end_ns = s->target.window_end_ns,
		/* an attached process's CPUs, not fctrace's */
		.cpus_of = s->target.mode == TGT_ATTACH && !s->target.exited ? s->target.pid : 0,
		.jvm = s->jvm, .jvm_monitors = s->jvm_monitors, .jvm_flag = s->jvm_flag,
		.jvm_structs = s->jvm_structs, .stacks = &s->stacks,
	};

	if (build_timeline(s))
		return 1;
	if (join_run(&s->joined, s->traced ? &s->kv : NULL, s->kv.groups, &att))
		return 1;
	s->started_unix_ns = wallclock_of_ns(s->joined.start_ns);
	explain_run(&s->joined, &s->diag);
	return 0;
}

/* The one conversion of the command line's tracing settings (struct
 * trace_opts, which the parser fills) into the loader's: the driver's
 * prepare has set what the target adds (tgid, follow, stacks' callback). */
static void tracer_opts_from(const struct trace_opts *o, struct session *s,
			     struct tracer_opts *topts)
{
	topts->groups = o->probes;
	topts->verbose = o->verbose;
	topts->time_every = o->time_every;
	topts->cpu_stacks = o->cpu_stacks;
	topts->sleep_stacks = o->sleep_stacks;
	topts->max_threads = o->max_threads;
	topts->budget = o->budget_pct / 100;
	session_timeline_opts(o, s, topts);
}

static int prepare_tracer(const struct trace_opts *o, struct session *s,
			  struct tracer_opts *topts, struct tracer **t)
{
	uint64_t t0 = monotonic_ns();

	tracer_opts_from(o, s, topts);
	if (tracer_prepare(t, topts, &s->kv))
		return 1;
	s->prepare_ns = monotonic_ns() - t0;
	return 0;
}

int session_drive(const struct session_driver *d, void *ctx, const struct trace_opts *o,
		  struct session *s)
{
	struct tracer_opts topts = { 0 };
	struct tracer *t = NULL;
	unsigned continued = signals_continued();
	int rc;

	memset(s, 0, sizeof(*s));
	if ((rc = d->prepare(ctx, s, &topts)))
		goto out;
	if (!o->no_bpf && (rc = prepare_tracer(o, s, &topts, &t)))
		goto out;
	if ((rc = d->run(ctx, s, t)))
		goto out;
	if (t && tracer_read(t, &s->kv) == 0)
		s->traced = true;
	if (!(rc = d->read(ctx, s, t)))
		rc = session_explain(s);
out:
	if (t)
		tracer_finish(t);
	d->finish(ctx, s);
	if (signals_caught())
		s->interrupted = true;
	s->stopped = signals_continued() - continued;
	return rc;
}

void session_free(struct session *s)
{
	if (s->jvm) {
		jvm_view_free(s->jvm);
		free(s->jvm);
		s->jvm = NULL;
	}
	free(s->names);
	s->names = NULL;
	stacks_free(&s->stacks);
	if (s->timeline)
		timeline_free(s->timeline);
	free(s->timeline);
	s->timeline = NULL;
	tl_events_free(&s->tl_events);
	json_object_put(s->saved_timeline);
	s->saved_timeline = NULL;
	join_free(&s->joined);
	kview_free(&s->kv);
	subject_timings_free(&s->timings);
}
