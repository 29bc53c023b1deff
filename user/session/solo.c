/*
 * solo.c - one thread alone, three short runs (solo.h). Each is a whole
 * wl_run of its own, in its own data directory, so the measured run's
 * pool and files are not touched: its first opens stay its own.
 */
#include <math.h>
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

/* A thread's wall per op: what the model's walls are made of (the loop
 * and the odd slow op included, which a median leaves out). */
static double wall_per_op(const struct wl_thread_stats *st)
{
	return st->ops && st->end_ns > st->start_ns ?
	       (double)(st->end_ns - st->start_ns) / (double)st->ops : 0;
}

/* v within a factor of two of a median (which is there) */
static bool near(double v, uint64_t median_ns)
{
	return median_ns && v > 0.5 * (double)median_ns && v < 2.0 * (double)median_ns;
}

/*
 * A hit's and a miss's cost from the two pool runs' walls: a hits + b
 * misses took wa, c hits + d misses took wb; solved for the two costs.
 * The first run mostly hits, the second mostly misses, so the system is
 * well apart from singular; when it is not, or a cost comes out far from
 * its sampled ops' median, the medians.
 */
static void solve_hit_miss(const struct wl_thread_stats *a, const struct wl_thread_stats *b,
			   struct wl_solo *out)
{
	double wa = wall_per_op(a) * (double)a->ops, wb = wall_per_op(b) * (double)b->ops;
	double ha = (double)a->hits, ma = (double)a->misses, hb = (double)b->hits;
	double mb = (double)b->misses, det = ha * mb - ma * hb, hit, miss;

	out->hit_ns = median(a->op_hit_hist);
	out->miss_ns = median(b->op_miss_hist);
	if (fabs(det) < 0.25 * ha * mb)
		return;
	hit = (wa * mb - ma * wb) / det;
	miss = (ha * wb - hb * wa) / det;
	/* a run that a stall of the machine landed in solves to nonsense: the
	 * walls are taken only near what the sampled ops say */
	if (near(hit, out->hit_ns) && near(miss, out->miss_ns) && miss > hit) {
		out->hit_ns = (uint64_t)(hit + 0.5);
		out->miss_ns = (uint64_t)(miss + 0.5);
	}
}

/* One round: the three runs, one after another. */
static void solo_round(const struct wl_config *cfg, struct wl_solo *out)
{
	struct wl_thread_stats hits, misses;
	bool have_hits;

	memset(out, 0, sizeof(*out));
	have_hits = run_alone(cfg, cfg->workload, cfg->pool, SOLO_HIT_OPS, &hits);
	if (have_hits)
		out->hit_ns = median(hits.op_hit_hist);
	/* one channel: every get of another file than the last misses */
	if (have_hits && !cfg->shared_file && cfg->files > 1 &&
	    run_alone(cfg, cfg->workload, 1, SOLO_MISS_OPS, &misses))
		solve_hit_miss(&hits, &misses, out);
	if (run_alone(cfg, "fc", cfg->pool, SOLO_FC_OPS, &hits))
		out->fc_ns = (uint64_t)(wall_per_op(&hits) + 0.5);
}

/* The middle of up to SOLO_ROUNDS values, the zeros (not measured) left
 * out; 0 when all are. */
static uint64_t middle(uint64_t *v, int n)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		if (v[i])
			v[k++] = v[i];
	for (int i = 1; i < k; i++)
		for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			uint64_t t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return k ? v[k / 2] : 0;
}

/* A stall of the machine landing in one short run moved every one-thread
 * prediction with it: three rounds, and each figure their middle. */
void solo_measure(const struct wl_config *cfg, struct wl_solo *out)
{
	uint64_t hit[SOLO_ROUNDS], miss[SOLO_ROUNDS], fc[SOLO_ROUNDS];

	for (int r = 0; r < SOLO_ROUNDS; r++) {
		struct wl_solo one;

		solo_round(cfg, &one);
		hit[r] = one.hit_ns;
		miss[r] = one.miss_ns;
		fc[r] = one.fc_ns;
	}
	out->hit_ns = middle(hit, SOLO_ROUNDS);
	out->miss_ns = middle(miss, SOLO_ROUNDS);
	out->fc_ns = middle(fc, SOLO_ROUNDS);
}
