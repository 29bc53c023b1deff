/*
 * session.c - one measured run: probes, workload, maps, join, explain.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "jvm.h"
#include "loader.h"
#include "session.h"
#include "signals.h"

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
		.verbose = o->verbose,
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

int session_explain(struct session *s)
{
	if (model_build_named(&s->model, &s->res, s->traced ? &s->kv : NULL, s->kv.groups,
			      s->names, s->nnames))
		return 1;
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
	model_free(&s->model);
	kview_free(&s->kv);
	wl_result_free(&s->res);
}
