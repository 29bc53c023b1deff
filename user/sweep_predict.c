/*
 * sweep_predict.c - --predict: fit the what-if model to one cell of each
 * pool workload (the one with the most files and threads, where misses
 * and contention are largest), predict every other cell of it, and
 * report how far each prediction was from the measurement.
 */
#include <math.h>
#include <string.h>
#include "explain.h"
#include "sweep.h"

static struct sweep_cell *fit_cell(struct sweep *sw, const char *wl)
{
	struct sweep_cell *best = NULL;

	for (unsigned i = 0; i < sw->n; i++) {
		struct sweep_cell *c = &sw->cells[i];

		if (strcmp(c->workload, wl) || !c->has_wi)
			continue;
		if (!best || c->files > best->files ||
		    (c->files == best->files && c->threads > best->threads))
			best = c;
	}
	return best;
}

/* fc's cost per op from its single-thread cell, the cleanest measurement. */
static double fc_cost(const struct sweep *sw)
{
	double best = 0;
	unsigned threads = ~0u;

	for (unsigned i = 0; i < sw->n; i++)
		if (sw->cells[i].fc_op_ns > 0 && sw->cells[i].threads < threads) {
			best = sw->cells[i].fc_op_ns;
			threads = sw->cells[i].threads;
		}
	return best;
}

void sweep_predict(struct sweep *sw)
{
	double fc = fc_cost(sw);

	for (unsigned i = 0; i < sw->n; i++) {
		struct sweep_cell *c = &sw->cells[i], *fit = fit_cell(sw, c->workload);

		if (!fit)
			continue;
		if (fc > 0) {
			fit->wi.t_fc_ns = fc;
			fit->wi.fc_source = "an fc run";
		}
		c->predicted_wall_ns = whatif_predict_wall_ns(&fit->wi, c->pool, c->files, c->threads);
	}
}

static void print_one(FILE *f, const struct sweep_cell *c, double *abs_err, unsigned *n)
{
	double err = (c->wall_ns - c->predicted_wall_ns) / c->predicted_wall_ns;

	fprintf(f, "  %-15s %6u %7u %11.0f %11.0f %+8.0f %%\n", c->workload, c->files,
		c->threads, c->wall_ns / 1e6, c->predicted_wall_ns / 1e6, 100 * err);
	*abs_err += fabs(err);
	(*n)++;
}

void sweep_print_predictions(FILE *f, const struct sweep *sw)
{
	const struct sweep_cell *last_fit = NULL;
	double abs_err = 0;
	unsigned n = 0;

	fprintf(f, "\nWhat-if model, fitted to one cell per pool workload, against the "
		"measurements\n  %-15s %6s %7s %11s %11s %10s\n", "workload", "files",
		"threads", "measured ms", "model ms", "error");
	for (unsigned i = 0; i < sw->n; i++)
		if (sw->cells[i].predicted_wall_ns > 0)
			print_one(f, &sw->cells[i], &abs_err, &n);
	if (!n) {
		fprintf(f, "  (nothing to predict: the model needs a pool workload's cell with "
			"operations measured)\n");
		return;
	}
	fprintf(f, "  mean absolute error %.0f %% over %u cells\n", 100 * abs_err / n, n);
	for (unsigned i = 0; i < sw->n; i++) {
		const struct sweep_cell *fit = fit_cell((struct sweep *)sw, sw->cells[i].workload);

		if (fit && fit != last_fit) {
			fprintf(f, "\nFitted to %s at %u files, %u threads:\n", fit->workload,
				fit->files, fit->threads);
			explain_print_model(f, &fit->wi);
			last_fit = fit;
		}
	}
}
