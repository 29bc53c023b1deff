/*
 * sweep_predict.c - --predict: fit the what-if model (explain/whatif.c) to ONE
 * run and predict every cell of the sweep from it - fc, fcp and fcp-fixed
 * alike, at each cell's files, threads, pool and CPUs - then report how
 * far each prediction was from the measurement. The run is a saved one
 * (--fit FILE: e.g. a 2-CPU run, to predict a sweep made under taskset)
 * or the sweep's own most telling cell.
 */
#include <json-c/json.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "explain/explain.h"
#include "session/load_run.h"
#include "session/sweep.h"

/*
 * The cell that shows the model the most: a pool run that both hits and
 * misses (so both op costs are timed) with the most threads (contention
 * measured), and of those the fewest files (the most hits beside the
 * misses). fcp before fcp-fixed: only fcp shows the convoy.
 */
static bool better_fit(const struct sweep_cell *c, const struct sweep_cell *best)
{
	bool miss = c->files > c->pool, best_miss = best->files > best->pool;
	int kind = whatif_kind_of(c->workload), best_kind = whatif_kind_of(best->workload);

	if (miss != best_miss)
		return miss;
	if (kind != best_kind)
		return kind == WHATIF_POOL;
	if (c->threads != best->threads)
		return c->threads > best->threads;
	return c->files < best->files;
}

static const struct sweep_cell *fit_cell(const struct sweep *sw)
{
	const struct sweep_cell *best = NULL;

	for (unsigned i = 0; i < sw->n; i++) {
		const struct sweep_cell *c = &sw->cells[i];

		if (c->has_wi && (!best || better_fit(c, best)))
			best = c;
	}
	return best;
}

/* --fit FILE: a run saved with `fctrace run --json` of fcp or fcp-fixed. */
static int fit_from_file(struct sweep_fit *fit, const char *path)
{
	struct session s;
	char why[256];
	int rc = load_run_file(path, &s, why, sizeof(why));

	if (!rc && !s.diag.has_whatif) {
		snprintf(why, sizeof(why), "not a run of fcp or fcp-fixed saved by this fctrace "
			 "(the model needs its op_costs)");
		rc = -1;
	}
	if (rc)
		fprintf(stderr, "fctrace: --fit %s: %s\n", path, why);
	else {
		fit->wi = s.diag.whatif;
		snprintf(fit->from, sizeof(fit->from), "%s", path);
		fit->ok = true;
	}
	session_free(&s);
	return rc;
}

int sweep_load_fit(struct sweep_fit *fit, const char *path)
{
	memset(fit, 0, sizeof(*fit));
	return path ? fit_from_file(fit, path) : 0;
}

/* How far the runs of one cell are apart: (max - min) / mean; with two,
 * their difference over their mean. */
double sweep_cell_noise(const struct sweep_cell *c)
{
	uint64_t lo = UINT64_MAX, hi = 0;

	if (c->runs < 2 || !c->wall_ns)
		return -1;
	for (unsigned i = 0; i < c->runs; i++) {
		lo = c->run_wall_ns[i] < lo ? c->run_wall_ns[i] : lo;
		hi = c->run_wall_ns[i] > hi ? c->run_wall_ns[i] : hi;
	}
	return (double)(hi - lo) / (double)c->wall_ns;
}

static void score_noise(struct sweep_fit *fit, const struct sweep_cell *c)
{
	double noise = sweep_cell_noise(c);

	if (noise < 0)
		return;
	fit->noise_mean += noise;
	fit->noise_max = fmax(fit->noise_max, noise);
	fit->noise_cells++;
}

static void score(struct sweep_fit *fit, const struct sweep_cell *c)
{
	double err = fabs(c->wall_ns - c->predicted_wall_ns) / c->predicted_wall_ns;

	score_noise(fit, c);
	fit->mean_abs_err += err;
	fit->max_abs_err = fmax(fit->max_abs_err, err);
	fit->within15 += err <= 0.15;
	fit->within30 += err <= 0.30;
	fit->predicted++;
}

void sweep_predict(struct sweep *sw)
{
	struct sweep_fit *fit = &sw->fit;

	if (!fit->ok) {
		const struct sweep_cell *c = fit_cell(sw);

		if (!c)
			return;
		fit->wi = c->wi;
		snprintf(fit->from, sizeof(fit->from), "%s, %u files, %u threads, %u CPU%s",
			 c->workload, c->files, c->threads, c->ncpus, c->ncpus == 1 ? "" : "s");
		fit->ok = true;
	}
	for (unsigned i = 0; i < sw->n; i++) {
		struct sweep_cell *c = &sw->cells[i];
		int kind = whatif_kind_of(c->workload);
		struct whatif_cell wc = { (enum whatif_kind)kind, c->pool, c->files, c->threads,
					  c->ncpus };

		if (kind < 0 || !c->threads || !c->ops || c->interrupted)
			continue;
		c->predicted_wall_ns = whatif_wall_ns(&fit->wi, &wc, (double)c->ops / c->threads);
		if (c->predicted_wall_ns > 0)
			score(fit, c);
	}
	if (fit->predicted)
		fit->mean_abs_err /= fit->predicted;
	if (fit->noise_cells)
		fit->noise_mean /= fit->noise_cells;
}
