/*
 * explfx.h - a joined run built by hand for the explain tests: eight
 * threads of 2 s each, their accounts, syscalls and locks, and the
 * built-in pool's own clocks, as join_run would have made them.
 */
#ifndef FCTRACE_TEST_EXPLFX_H
#define FCTRACE_TEST_EXPLFX_H

#include <stdbool.h>
#include <stdint.h>
#include "explain/explain.h"

#define NT	8		/* threads in every fixture */
#define WALL	2000000000ull	/* each thread's wall time: 2 s */
#define EPS	1e-9

/* One run, joined by hand: what join_run would have produced. */
struct fx {
	struct subject_timings res;	/* what the workload timed of itself */
	struct own_lock own_locks[64];	/* as many as a workload may name */
	struct thread_timings ts[NT];
	struct thread_row rows[NT];
	struct lock_total locks[8];
	struct kview kv;
	struct joined_run m;
	struct diagnosis d;
};

/* A run of the workload (or program) named, nthreads rows, with or without
 * the kernel's view; free() it. */
struct fx *fx_new(const char *workload, unsigned nthreads, bool kernel);
/* Every thread's account, as shares of its wall time (the rest is user CPU). */
void fx_account(struct fx *x, double sys, double lock, double blocked, double runq);
/* The run-wide sums join_run keeps. */
void fx_total(struct fx *x);
/* The run's calls of syscall nr, in its table by number and its row. */
void fx_sc(struct fx *x, unsigned nr, uint64_t count, uint64_t mean_ns);
/* A lock of the run's table, waited on by every row. */
void fx_lock(struct fx *x, const char *name, bool kernel, uint64_t waits, uint64_t ns);
/* A lock the workload names of itself. */
void fx_desc(struct fx *x, const char *name);
/* fcp, 100 files, pool 50, 8 threads on 2 CPUs: the workload's own clocks. */
void fx_pool_clocks(struct fx *x, uint64_t user_wait);
/* The same with the kernel's view, its syscalls, locks and model figures. */
struct fx *fx_pool_kernel(void);
/* Nothing was cut short; EXPLAIN_SHOW=1 prints the diagnosis to read it. */
void show(struct fx *x);
/* The rows' waits on l. */
void fx_row_waits(struct fx *x, const struct lock_total *l);
/* l's holders measured. */
void fx_holders(struct lock_total *l);

#endif
