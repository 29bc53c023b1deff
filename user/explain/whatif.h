/*
 * whatif.h - a model of the file-handle pools, fitted to one measured run
 * of fcp or fcp-fixed, that predicts the wall time of fc, fcp and
 * fcp-fixed at other file counts, pool sizes, thread counts and CPU
 * counts. The model, and why it has this shape, is in whatif.c.
 */
#ifndef FCTRACE_WHATIF_H
#define FCTRACE_WHATIF_H

#include <stdbool.h>
#include <stdio.h>
#include "join/join.h"

enum whatif_kind {
	WHATIF_FC,		/* open + pread + close, no lock */
	WHATIF_POOL,		/* fcp: a miss's stat, open and close inside the lock */
	WHATIF_POOL_FIXED,	/* fcp-fixed: the same syscalls outside it */
};

/* which parameters the fitted run measured (the rest are assumed) */
#define WHATIF_HAVE_MISS	1u	/* ops that missed were timed */
#define WHATIF_HAVE_SYSCALLS	2u	/* the kernel timed open, close and stat */
#define WHATIF_HAVE_CONTENTION	4u	/* a contended run with the scheduler's view */
#define WHATIF_HAVE_IDLE	8u	/* a run whose lock was held across syscalls */
#define WHATIF_HAVE_SOLO	16u	/* one thread alone was measured (hit and fc) */

struct whatif_cell {
	enum whatif_kind kind;
	unsigned pool, files, threads, ncpus;
};

/* The what-ifs asked of a fitted run, answered once when it is fitted
 * (whatif_from_model), so that the reporters print them and fit nothing:
 * a pool as big as the file set, the other pool, fc, 2 threads (1 when it
 * ran with 2), 1 CPU (2 when it ran on 1), and where fc overtakes fcp. */
#define WHATIF_CASES_MAX	5
struct whatif_case {
	const char *what;	/* JSON id: "pool_fits_files", "fcp_fixed", "one_cpu" ... */
	struct whatif_cell cell;
	double wall_ns;		/* predicted, with the fitted run's ops per thread */
};

struct whatif_answers {
	double fitted_wall_ns;	/* the model's wall for the fitted run itself */
	struct whatif_case cases[WHATIF_CASES_MAX];	/* those it can predict */
	int ncases;
	/* the file count where fc overtakes fcp, on the run's CPUs and on 1;
	 * -1: at none up to WL_MAX_FILES, or not predictable */
	int crossover_files, crossover_files_one_cpu;
};

struct whatif_params {
	/* what one op costs uncontended: medians of the run's own clocks */
	double hit_ns;		/* an op whose get hit, get to put */
	double miss_ns;		/* an op whose get missed */
	double entry_ns;	/* a syscall's way in and out, outside the kernel's timing */
	double open_ns, close_ns, stat_ns;	/* each: the kernel's median + entry_ns */
	/* what one op costs with one thread alone, measured beside the run
	 * (session/solo.h; 0: not measured): cells with one thread, and fc */
	double solo_hit_ns, solo_miss_ns, solo_fc_ns;
	/* how long the lock was held, as measured (contention included) */
	double hold_hit_ns;	/* by a get that hit */
	double hold_miss_ns;	/* by a get that missed */
	double hold_put_ns;	/* by a put */
	/* contention, solved from the run's kernel view (whatif.c) */
	double wait_cpu_ns;	/* CPU a futex wait costs: sleep, wake-up, switches */
	double wait_rate;	/* futex waits per acquisition per unit of lock
				 * utilisation, per other CPU */
	double idle_share;	/* of the time a holder spends outside the lock, the
				 * share the lock stays idle while waiters sleep */
	unsigned have;		/* WHATIF_HAVE_* */
	/* the fitted run, as measured */
	enum whatif_kind kind;
	const char *workload;
	unsigned pool, files, threads, ncpus;
	double ops_per_thread;
	double wall_ns, miss_ratio;
	double hold_per_op, cpu_per_op, waits_per_op, acquires_per_op;
	struct whatif_answers answers;	/* what the model says of the what-ifs */
};

/* The kind of a workload by name; -1 for one the model does not know. */
int whatif_kind_of(const char *workload);
const char *whatif_kind_name(enum whatif_kind k);
/* Fit to a measured run of fcp or fcp-fixed, and answer its what-ifs
 * (p->answers): 0, or -1 (another workload, no ops, or a run saved
 * without its op costs). */
int whatif_from_model(const struct joined_run *m, struct whatif_params *p);
/* The fitted run's own settings as a cell. */
struct whatif_cell whatif_fitted_cell(const struct whatif_params *p);

/* Predicted wall time per op (all threads together), and for a run of
 * ops_per_thread ops in each thread; 0 when c cannot be predicted (fc
 * without the kernel's open and close times, no threads). */
double whatif_op_ns(const struct whatif_params *p, const struct whatif_cell *c);
double whatif_wall_ns(const struct whatif_params *p, const struct whatif_cell *c,
		      double ops_per_thread);
/* The most files the crossover is looked for at: as many as a workload
 * may be run with (--files, WL_MAX_FILES; session checks they agree). */
#define WHATIF_MAX_FILES	100000
/* Smallest file count (1..WHATIF_MAX_FILES) at which fcp with `pool` channels
 * is predicted slower than fc, or -1 (never, or fc not predictable). */
int whatif_crossover_files(const struct whatif_params *p, unsigned pool, unsigned threads,
			   unsigned ncpus);

/* miss ratio of a pool of `pool` channels under uniform access to `files` */
double whatif_miss_ratio(unsigned pool, unsigned files);
/* Time in stat/open/close made inside the lock, from the kernel's syscall
 * table: their total time x min(1, in_lock / their count), in_lock being
 * the workload's syscalls_in_lock summed. -1 without the syscall table. */
double whatif_lock_syscall_ns(const struct joined_run *m, double in_lock);


#endif /* FCTRACE_WHATIF_H */
