/* sweep.h - a matrix of runs (workload x files x threads) and what it shows. */
#ifndef FCTRACE_SWEEP_H
#define FCTRACE_SWEEP_H

#include <stdio.h>
#include "options.h"
#include "session.h"
#include "whatif.h"

/* What one cell keeps after its session is freed. */
struct sweep_cell {
	const char *workload;
	unsigned files, threads, pool;
	uint64_t wall_ns, ops;
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
	double fc_op_ns;		/* fc cells: cost of one op, for the model */
	bool traced, interrupted;
	bool has_pool;			/* pool is a setting of this workload */
};

struct sweep {
	struct sweep_cell *cells;
	unsigned n;
	unsigned total;			/* cells in the matrix, run or not */
	bool interrupted;		/* stopped by a signal: cells missing or cut */
	const struct options *o;
};

void sweep_cell_from(struct sweep_cell *c, const struct session *s);
/* The cell of workload wl at files and threads, or NULL if none ran. */
const struct sweep_cell *sweep_cell_at(const struct sweep *sw, const char *wl,
				       unsigned files, unsigned threads);
int sweep_run(const struct options *o, struct sweep *sw);
void sweep_print_table(FILE *f, const struct sweep *sw);
void sweep_print_findings(FILE *f, const struct sweep *sw);
int sweep_write_csv(const struct sweep *sw, const char *path);
struct json_object *sweep_json(const struct sweep *sw);
/* --predict: calibrate the what-if model on each pool workload's cells
 * and fill predicted_wall_ns for every cell of that workload. */
void sweep_predict(struct sweep *sw);
void sweep_print_predictions(FILE *f, const struct sweep *sw);
void sweep_free(struct sweep *sw);

#endif
