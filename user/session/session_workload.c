/*
 * session_workload.c - the workload driver: fctrace's own workload as a
 * session's subject. Its workers open the counting window when they start
 * and close it when the last one ends (the workload's hooks); their own
 * timings go to the join as the subject's attachment (join/subject.h), in
 * the join's words: below session nothing knows the workload library.
 * A pool's run is preceded, just before the window, by short one-thread
 * runs that cost its ops alone (session/solo.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "session/driver.h"
#include "session/solo.h"
#include "explain/whatif.h"
#include "trace/loader.h"

_Static_assert(WHATIF_MAX_FILES == WL_MAX_FILES,
	       "the what-if crossover is looked for over every file count a run may have");

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
	s->subject = s->cfg.workload;
	topts->tgid = getpid();
	topts->target = TT_SELF;
	return 0;
}

static int wl_run_traced(void *ctx, struct session *s, struct tracer *t)
{
	struct workload_ctx *w = ctx;
	struct wl_hooks hooks = { .window_open = window_open, .window_close = window_close,
				  .arg = w };
	struct wl_result res;
	int rc;

	w->t = t;
	memset(&w->solo, 0, sizeof(w->solo));
	if (!t && solo_wanted(w->cfg))
		solo_measure(w->cfg, &w->solo);
	rc = wl_run(&s->cfg, NULL, t ? &hooks : NULL, &res);
	res.solo = w->solo;	/* wl_run cleared res */
	s->interrupted = res.interrupted;
	/* -EIO, -EILSEQ: the stats are filled in, and the caller reports them */
	if (rc != -EINVAL && session_workload_timings(&s->timings, &res, &s->cfg)) {
		fprintf(stderr, "fctrace: out of memory for the workers' timings\n");
		rc = -ENOMEM;
	}
	wl_result_free(&res);
	if (rc == -EINVAL)
		return 2;
	return rc ? 1 : 0;
}

/* the workers' timings were taken as they ended (wl_run_traced) */
static int wl_read(void *ctx, struct session *s, struct tracer *t)
{
	return 0;
}

static void wl_finish(void *ctx, struct session *s)
{
}

/* ---- the workers' timings in the join's words ------------------------- */

static void thread_timings_of(struct thread_timings *t, const struct wl_thread_stats *u)
{
	*t = (struct thread_timings){
		.tid = u->tid, .index = u->index, .ops = u->ops,
		.start_ns = u->start_ns, .end_ns = u->end_ns,
		.lock_wait_ns = u->lock_wait_ns, .lock_hold_ns = u->lock_hold_ns,
		.lock_acquires = u->lock_acquires, .lock_contended = u->lock_contended,
		.read_ns = u->read_ns, .lookup_ns = u->lookup_ns, .miss_read_ns = u->miss_read_ns,
		.hits = u->hits, .misses = u->misses, .evictions = u->evictions,
		.syscalls_in_lock = u->syscalls_in_lock, .bytes_read = u->bytes_read,
		.verify_errors = u->verify_errors, .lat_timed = u->lat_timed,
		.lat_min_ns = u->lat_min_ns, .lat_max_ns = u->lat_max_ns,
		.lat_total_ns = u->lat_total_ns, .op_errors = u->op_errors,
		.hold_hit_ns = u->hold_hit_ns, .hold_miss_ns = u->hold_miss_ns,
		.hold_put_ns = u->hold_put_ns,
	};
	_Static_assert(OWN_HIST_SLOTS == WL_HIST_SLOTS, "one histogram layout");
	memcpy(t->lat_hist, u->lat_hist, sizeof(t->lat_hist));
	memcpy(t->op_hit_hist, u->op_hit_hist, sizeof(t->op_hit_hist));
	memcpy(t->op_miss_hist, u->op_miss_hist, sizeof(t->op_miss_hist));
	memcpy(t->read_hist, u->read_hist, sizeof(t->read_hist));
}

static enum pool_shape pool_shape_of(const char *workload)
{
	const struct workload *w = workload ? wl_find(workload) : NULL;

	switch (w ? w->pool_shape : WL_NO_POOL) {
	case WL_POOL_MISS_IN_LOCK:
		return POOL_MISS_IN_LOCK;
	case WL_POOL_MISS_OUTSIDE_LOCK:
		return POOL_MISS_OUTSIDE_LOCK;
	default:
		return POOL_SHAPE_UNKNOWN;
	}
}

struct subject_config session_workload_config(const struct wl_config *c)
{
	return (struct subject_config){
		.files = c->files, .shared_file = c->shared_file, .pool = c->pool,
		.pool_shape = pool_shape_of(c->workload),
		.cache_size = c->cache_size, .cold_cache = c->cache == WL_CACHE_COLD,
		.pressure = c->pressure,
	};
}

static struct subject_totals totals_of(const struct wl_totals *w)
{
	return (struct subject_totals){
		.has_pool = w->has_pool, .has_cache = w->has_cache, .hits = w->hits,
		.misses = w->misses, .evictions = w->evictions, .max_open = w->max_open,
		.over_capacity = w->over_capacity, .cache_bytes = w->cache_bytes,
		.cache_blocks = w->cache_blocks,
	};
}

int session_workload_timings(struct subject_timings *out, const struct wl_result *res,
			     const struct wl_config *cfg)
{
	memset(out, 0, sizeof(*out));
	out->threads = calloc(res->nthreads ? res->nthreads : 1, sizeof(*out->threads));
	out->locks = calloc(res->nlocks > 0 ? (size_t)res->nlocks : 1, sizeof(*out->locks));
	if (!out->threads || !out->locks) {
		subject_timings_free(out);
		return -1;
	}
	for (unsigned i = 0; i < res->nthreads; i++)
		thread_timings_of(&out->threads[i], &res->threads[i]);
	for (int i = 0; i < res->nlocks; i++) {
		snprintf(out->locks[i].name, sizeof(out->locks[i].name), "%s", res->locks[i].name);
		out->locks[i].addr = res->locks[i].addr;
		out->locks[i].size = res->locks[i].size;
		out->locks[i].kind = res->locks[i].kind;
	}
	out->nthreads = res->nthreads;
	out->nlocks = res->nlocks;
	out->cfg = session_workload_config(cfg);
	out->wall_ns = res->wall_ns;
	out->start_ns = res->start_ns;
	out->end_ns = res->end_ns;
	out->totals = totals_of(&res->totals);
	out->cold_pages_resident = res->cold_pages_resident;
	out->pressure_pages_dropped = res->pressure_pages_dropped;
	out->solo = (struct solo_costs){ res->solo.hit_ns, res->solo.miss_ns, res->solo.fc_ns };
	return 0;
}

void subject_timings_free(struct subject_timings *t)
{
	free(t->threads);
	free(t->locks);
	t->threads = NULL;
	t->locks = NULL;
	t->nthreads = 0;
	t->nlocks = 0;
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
