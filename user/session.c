/*
 * session.c - one measured run: probes, workload, maps, join, explain.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <json-c/json.h>
#include "jvm.h"
#include "loader.h"
#include "session.h"
#include "signals.h"
#include "tlrec.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The counting window is open exactly while the workers run. */
static int window_open(void *arg, const struct wl_thread_stats *threads, unsigned n)
{
	tracer_start(arg);
	return 0;
}

static void window_close(void *arg)
{
	tracer_stop(arg);
}

int session_check_privileges(const struct options *o)
{
	const char *why;

	if (o->no_bpf)
		return 0;
	why = tracer_unavailable_reason();
	if (!why)
		return 0;
	fprintf(stderr, "fctrace: the kernel view needs %s; run it with sudo, "
		"or add --no-bpf for the threads' own timings only\n", why);
	return 1;
}

struct trace_opts session_trace_opts(const struct options *o)
{
	struct trace_opts t = {
		.no_bpf = o->no_bpf, .probes = o->probes, .time_every = o->time_every,
		.verbose = o->verbose, .tl_window_ms = o->timeline ? o->tl_window_ms : 0,
		.tl_start_ms = o->tl_start_ms,
	};
	return t;
}

static int prepare(const struct trace_opts *o, struct session *s, struct tracer **t)
{
	struct tracer_opts topts = {
		.groups = o->probes, .tgid = getpid(), .verbose = o->verbose,
		.time_every = o->time_every, .target = TT_SELF,
	};
	uint64_t t0 = now_ns();

	session_timeline_opts(o, s, &topts);
	if (tracer_prepare(t, &topts, &s->kv))
		return 1;
	s->prepare_ns = now_ns() - t0;
	return 0;
}

static int run_workload(const struct wl_config *cfg, struct tracer *t,
			struct session *s)
{
	struct wl_hooks hooks = { .window_open = window_open, .window_close = window_close,
				  .arg = t };
	int rc = wl_run(cfg, NULL, t ? &hooks : NULL, &s->res);

	if (rc == -EINVAL)
		return 2;
	return rc ? 1 : 0;
}

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

/* The locks the timeline names: the workload's, or another program's
 * futex words that lockname.c named as locks. */
static int timeline_locks(const struct session *s, struct tl_lock *out, int max)
{
	int n = 0;

	for (int i = 0; i < s->res.nlocks && n < max; i++, n++) {
		out[n] = (struct tl_lock){ .addr = s->res.locks[i].addr, .size = s->res.locks[i].size };
		snprintf(out[n].name, sizeof(out[n].name), "%s", s->res.locks[i].name);
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
	if (build_timeline(s))
		return 1;
	if (model_build_named(&s->model, &s->res, s->traced ? &s->kv : NULL, s->kv.groups,
			      s->names, s->nnames))
		return 1;
	if (s->target.mode == TGT_ATTACH && !s->target.exited)	/* its CPUs, not ours */
		s->model.ncpus = model_usable_cpus(s->target.pid);
	model_add_jvm(&s->model, s->jvm, s->jvm_monitors);
	explain_run(&s->model, &s->diag);
	return 0;
}

int session_run(const struct trace_opts *o, const struct wl_config *cfg,
		struct session *s)
{
	struct tracer *t = NULL;
	unsigned continued = signals_continued();
	int rc;

	memset(s, 0, sizeof(*s));
	s->cfg = *cfg;
	if (!o->no_bpf && (rc = prepare(o, s, &t)))
		goto out;
	rc = run_workload(cfg, t, s);
	if (rc)
		goto out;
	if (t && tracer_read(t, &s->kv) == 0)
		s->traced = true;
	rc = session_explain(s);
out:
	if (t)
		tracer_finish(t);
	if (signals_caught())
		s->res.interrupted = true;
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
	if (s->timeline)
		timeline_free(s->timeline);
	free(s->timeline);
	s->timeline = NULL;
	tl_events_free(&s->tl_events);
	json_object_put(s->saved_timeline);
	s->saved_timeline = NULL;
	model_free(&s->model);
	kview_free(&s->kv);
	wl_result_free(&s->res);
}
