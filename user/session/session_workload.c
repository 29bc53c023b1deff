/*
 * session_workload.c - the workload driver: fctrace's own workload as a
 * session's subject. Its workers open the counting window when they start
 * and close it when the last one ends (the workload's hooks), and their
 * own timings are the rows.
 */
#include <errno.h>
#include <unistd.h>
#include "session/driver.h"
#include "trace/loader.h"

static int window_open(void *arg, const struct wl_thread_stats *threads, unsigned n)
{
	tracer_start(arg);
	return 0;
}

static void window_close(void *arg)
{
	tracer_stop(arg);
}

struct workload_ctx {
	const struct wl_config *cfg;
};

static int wl_prepare(void *ctx, struct session *s, struct tracer_opts *topts)
{
	const struct workload_ctx *w = ctx;

	s->cfg = *w->cfg;
	topts->tgid = getpid();
	topts->target = TT_SELF;
	return 0;
}

static int wl_run_traced(void *ctx, struct session *s, struct tracer *t)
{
	struct wl_hooks hooks = { .window_open = window_open, .window_close = window_close,
				  .arg = t };
	int rc = wl_run(&s->cfg, NULL, t ? &hooks : NULL, &s->res);

	if (rc == -EINVAL)
		return 2;
	return rc ? 1 : 0;
}

/* the workers filled s->res themselves */
static int wl_read(void *ctx, struct session *s, struct tracer *t)
{
	return 0;
}

static void wl_finish(void *ctx, struct session *s)
{
}

static const struct session_driver workload_driver = {
	.what = "workload", .prepare = wl_prepare, .run = wl_run_traced,
	.read = wl_read, .finish = wl_finish,
};

int session_run(const struct trace_opts *o, const struct wl_config *cfg, struct session *s)
{
	struct workload_ctx w = { cfg };

	return session_drive(&workload_driver, &w, o, s);
}
