/*
 * solo.c - one thread alone, three short runs (solo.h). Each is a whole
 * wl_run of its own, in its own data directory, so the measured run's
 * pool and files are not touched: its first opens stay its own.
 */
#include <string.h>
#include "base/hist.h"
#include "session/solo.h"

/* sampled ops below which a median is not taken */
#define SOLO_MIN_SAMPLES	32

static uint64_t median(const uint64_t *hist)
{
	uint64_t n = 0;

	for (unsigned b = 0; b < WL_HIST_SLOTS; b++)
		n += hist[b];
	return n < SOLO_MIN_SAMPLES ? 0 : (uint64_t)(hist_quantile(hist, WL_HIST_SLOTS, 0.5) + 0.5);
}

/* One thread of cfg changed as asked; its thread's stats, or false. */
static bool run_alone(const struct wl_config *base, const char *workload, unsigned pool,
		      uint64_t ops, struct wl_thread_stats *st)
{
	struct wl_config cfg = *base;
	struct wl_result res;
	bool ok;

	cfg.workload = workload;
	cfg.pool = pool;
	cfg.threads = 1;
	cfg.ops = ops;
	cfg.cache = WL_CACHE_WARM;	/* the costs of a hit in the page cache */
	cfg.pressure = 0;
	ok = wl_run(&cfg, NULL, NULL, &res) == 0 && res.nthreads == 1 && !res.interrupted;
	if (ok)
		*st = res.threads[0];
	wl_result_free(&res);
	return ok;
}

bool solo_wanted(const struct wl_config *cfg)
{
	return !strcmp(cfg->workload, "fcp") || !strcmp(cfg->workload, "fcp-fixed");
}

void solo_measure(const struct wl_config *cfg, struct wl_solo *out)
{
	struct wl_thread_stats st;

	memset(out, 0, sizeof(*out));
	if (run_alone(cfg, cfg->workload, cfg->pool, SOLO_HIT_OPS, &st))
		out->hit_ns = median(st.op_hit_hist);
	/* one channel: every get of another file than the last misses */
	if (!cfg->shared_file && cfg->files > 1 &&
	    run_alone(cfg, cfg->workload, 1, SOLO_MISS_OPS, &st))
		out->miss_ns = median(st.op_miss_hist);
	if (run_alone(cfg, "fc", cfg->pool, SOLO_FC_OPS, &st))
		out->fc_ns = median(st.lat_hist);
}
