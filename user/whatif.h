/*
 * whatif.h - a small queueing model of a pool behind one lock, fitted to
 * one measured run, that predicts other pool sizes, file counts and
 * thread counts, and where plain open+pread+close (fc) overtakes it.
 * The model and its assumptions are spelled out in whatif.c.
 */
#ifndef FCTRACE_WHATIF_H
#define FCTRACE_WHATIF_H

#include <stdbool.h>
#include <stdio.h>
#include "model.h"

struct whatif_params {
	double t_miss_ns;	/* time inside the lock for an op whose get missed */
	double t_hit_ns;	/* time inside the lock for an op whose get hit */
	double t_outside_ns;	/* wall time per op outside the lock (read, user work) */
	double t_outside_cpu_ns;	/* the CPU part of it; 0 = all of it */
	double t_fc_ns;		/* one fc op (open+pread+close) on one CPU; 0 = unknown */
	unsigned ncpus;
	unsigned pool, files, threads;	/* the measured settings */
	double ops_per_thread;
	/* where the figures came from, for the printout */
	double measured_wall_ns;	/* 0 when not from a run */
	double measured_miss_ratio;
	const char *split_note;	/* how t_miss/t_hit were split when the kernel's
				 * syscall times did not; NULL when they did */
	const char *fc_source;	/* "an fc run", "the syscall table", NULL */
};

/* Fill from a measured pool run; -1 if m is not a pool workload (or empty). */
int whatif_from_model(const struct run_model *m, struct whatif_params *p);
/* Take t_fc_ns from an fc run at the same settings; -1 if it has no ops. */
int whatif_set_fc(struct whatif_params *p, const struct run_model *fc);

/* Time in stat/open/close made inside the lock, from the kernel's syscall
 * table: their total time x min(1, in_lock / their count), in_lock being
 * the workload's syscalls_in_lock summed. -1 without the syscall table. */
double whatif_lock_syscall_ns(const struct run_model *m, double in_lock);

/* miss ratio of a pool of `pool` channels under uniform access to `files` */
double whatif_miss_ratio(unsigned pool, unsigned files);
double whatif_predict_wall_ns(const struct whatif_params *p, unsigned pool,
			      unsigned files, unsigned threads);
double whatif_predict_fc_wall_ns(const struct whatif_params *p, unsigned files,
				 unsigned threads);
/* Smallest file count (1..WL_MAX_FILES) where the pool is predicted slower
 * than fc at p->pool channels, or -1 (no fc cost, or never). */
int whatif_crossover_files(const struct whatif_params *p, unsigned threads);

/* "Model: serial time per op = ..., predicts X for N ops (measured Y, +Z %).
 *  Crossover with fc: predicted at N files for T threads." */
void whatif_print(FILE *f, const struct whatif_params *p);

#endif /* FCTRACE_WHATIF_H */
