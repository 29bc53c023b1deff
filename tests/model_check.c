/*
 * model_check.c - the what-if model against saved runs: fit it to one
 * (`fctrace run --json` of fcp or fcp-fixed), predict each of the others
 * from its settings and CPUs, and print the errors. `fctrace sweep
 * --predict` does the same live; this re-scores saved runs without
 * running them again (make model-check runs the FileChannelPool
 * benchmark's matrix).
 *
 *   model_check FIT.json RUN.json...
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "session/load_run.h"
#include "report/whatif_print.h"

static int load(const char *path, struct session *s)
{
	char why[256];

	if (!load_run_file(path, s, why, sizeof(why)))
		return 0;
	fprintf(stderr, "model_check: %s: %s\n", path, why);
	session_free(s);
	return -1;
}

int main(int argc, char **argv)
{
	struct whatif_params p;
	struct session fit;
	double sum = 0, max = 0;
	unsigned n = 0, w15 = 0, w30 = 0;

	if (argc < 3 || load(argv[1], &fit) || whatif_from_model(&fit.joined, &p)) {
		fprintf(stderr, "usage: model_check FIT.json RUN.json... (FIT: a run of fcp or fcp-fixed)\n");
		return 2;
	}
	for (int i = 2; i < argc; i++) {
		struct session s;
		const struct wl_config *c;
		struct whatif_cell cell;
		double pred, err;
		int kind;

		if (load(argv[i], &s))
			continue;
		c = &s.res.cfg;
		kind = whatif_kind_of(c->workload);
		cell = (struct whatif_cell){ (enum whatif_kind)kind, c->pool, c->files,
					     s.joined.nrows, s.joined.ncpus };
		pred = kind < 0 ? 0 : whatif_wall_ns(&p, &cell, (double)s.joined.ops / s.joined.nrows);
		if (pred > 0) {
			err = ((double)s.joined.wall_ns - pred) / pred;
			printf("%-10s %4u files %2u threads %u CPU %8.0f ms, model %8.0f ms %+6.1f %%\n",
			       c->workload, c->files, cell.threads, cell.ncpus, s.joined.wall_ns / 1e6,
			       pred / 1e6, 100 * err);
			sum += fabs(err);
			max = fmax(max, fabs(err));
			w15 += fabs(err) <= 0.15;
			w30 += fabs(err) <= 0.30;
			n++;
		}
		session_free(&s);
	}
	printf("%u runs: mean absolute error %.1f %%, max %.1f %%, %u within 15 %%, %u within 30 %%\n",
	       n, n ? 100 * sum / n : 0, 100 * max, w15, w30);
	whatif_print(stdout, &p);
	session_free(&fit);
	return 0;
}
