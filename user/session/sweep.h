/* sweep.h - a matrix of runs (workload x files x threads) and what it shows. */
#ifndef FCTRACE_SWEEP_H
#define FCTRACE_SWEEP_H

#include <stdio.h>
#include "base/numlist.h"
#include "session/session.h"
#include "explain/whatif.h"

/* --repeat: at most this many rounds of the matrix */
#define SWEEP_MAX_REPEAT	10

/* What one cell keeps after its session is freed. */
struct sweep_cell {
	const char *workload;
	unsigned files, threads, pool;
	unsigned ncpus;			/* the CPUs the run could use */
	uint64_t wall_ns, ops;		/* wall_ns: the mean over its runs */
	uint64_t run_wall_ns[SWEEP_MAX_REPEAT];	/* each round's (--repeat) */
	unsigned runs;
	double hit_ratio;		/* pool/cache; -1 when the workload has none */
	double lock_share;		/* workload-lock wait / thread wall time */
	double runq_share, blocked_share, sys_share, user_share;
	double syscalls_in_lock_per_op;
	double accounted_ratio;		/* mean over threads, 0 untraced */
	uint64_t openat, close, stat;	/* kernel counts, 0 untraced */
	char top_cause[32];
	double predicted_wall_ns;	/* --predict, 0 when none */
	struct whatif_params wi;	/* fitted to this cell (pool workloads) */
	bool has_wi;
	bool traced, interrupted;
	bool has_pool;			/* pool is a setting of this workload */
};

/* The matrix: every workload x files x threads, each cell at wl's other
 * settings, traced as trace says. */
struct sweep_settings {
	struct trace_opts trace;
	struct wl_config wl;
	const char *const *workloads;
	unsigned nworkloads;
	struct numlist files, threads;
	bool quiet;			/* no progress line */
	unsigned repeat;		/* rounds of the whole matrix, >= 1 */
};

/* --predict: the model, fitted to one cell or to a saved run (--fit) */
struct sweep_fit {
	struct whatif_params wi;
	char from[160];			/* "fcp, 60 files, 8 threads" or the file */
	bool ok;
	double mean_abs_err, max_abs_err;
	unsigned predicted, within15, within30;
	/* --repeat: how far the runs of one cell are apart, (max - min) /
	 * mean, over the cells predicted: the floor for any model */
	double noise_mean, noise_max;
	unsigned noise_cells;
};

struct sweep {
	struct sweep_cell *cells;
	unsigned n;
	unsigned total;			/* cells in the matrix, run or not */
	bool interrupted;		/* stopped by a signal: cells missing or cut */
	struct sweep_settings set;	/* what it ran */
	struct sweep_fit fit;
};

void sweep_cell_from(struct sweep_cell *c, const struct session *s);
/* The cell of workload wl at files and threads, or NULL if none ran. */
const struct sweep_cell *sweep_cell_at(const struct sweep *sw, const char *wl,
				       unsigned files, unsigned threads);
int sweep_run(const struct sweep_settings *set, struct sweep *sw);
/* --fit FILE: the model fitted to a saved run, before the sweep runs:
 * 0, or -1 with a one-line message on stderr. No path: fit->ok false. */
int sweep_load_fit(struct sweep_fit *fit, const char *path);
/* --predict: fit the what-if model to one run - sw->fit when loaded, else
 * the sweep's most telling pool cell - and fill every cell's
 * predicted_wall_ns and the errors. */
void sweep_predict(struct sweep *sw);
/* --repeat: how far a cell's runs are apart, (max - min) / mean; -1 with
 * one run. */
double sweep_cell_noise(const struct sweep_cell *c);
void sweep_free(struct sweep *sw);

#endif
