/*
 * session_workload.c - the workload driver: fctrace's own workload as a
 * session's subject. Its workers open the counting window when they start
 * and close it when the last one ends (the workload's hooks), and their
 * own timings are the rows. A pool's run is preceded, just before the
 * window, by short one-thread runs that cost its ops alone
 * (session/solo.h).
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "session/driver.h"
#include "session/solo.h"
#include "trace/loader.h"

struct workload_ctx {
	const struct wl_config *cfg;
	struct tracer *t;		/* NULL: untraced */
	struct wl_solo solo;		/* one thread alone (solo.h) */
};

/* The workers are made and wait at the gate: the calibration runs first,
 * with the probes attached but not yet counting (its syscalls take the
 * hooks' slow path as the run's do; only the programs' own work after
 * their first check is not paid), so that none of its threads, files or
 * pages is in the window. */
static int window_open(void *arg, const struct wl_thread_stats *threads, unsigned n)
{
	struct workload_ctx *w = arg;

	if (solo_wanted(w->cfg))
		solo_measure(w->cfg, &w->solo);
	tracer_start(w->t);
	return 0;
}

static void window_close(void *arg)
{
	struct workload_ctx *w = arg;

	tracer_stop(w->t);
}

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
	struct workload_ctx *w = ctx;
	struct wl_hooks hooks = { .window_open = window_open, .window_close = window_close,
				  .arg = w };
	int rc;

	w->t = t;
	memset(&w->solo, 0, sizeof(w->solo));
	if (!t && solo_wanted(w->cfg))
		solo_measure(w->cfg, &w->solo);
	rc = wl_run(&s->cfg, NULL, t ? &hooks : NULL, &s->res);
	s->res.solo = w->solo;	/* wl_run cleared res */

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
	struct workload_ctx w = { .cfg = cfg };

	return session_drive(&workload_driver, &w, o, s);
}
