/*
 * explfx.c - the explain tests' hand-built joined run (explfx.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <cmocka.h>
#include "report/why.h"
#include "explfx.h"

/* what the workload driver says of its pool (session_workload.c) */
static enum pool_shape shape_of(const char *workload)
{
	return !strcmp(workload, "fcp") ? POOL_MISS_IN_LOCK :
	       !strcmp(workload, "fcp-fixed") ? POOL_MISS_OUTSIDE_LOCK : POOL_SHAPE_UNKNOWN;
}

struct fx *fx_new(const char *workload, unsigned nthreads, bool kernel)
{
	struct fx *x = calloc(1, sizeof(*x));

	x->res.cfg = (struct subject_config){ .files = 100, .pool = 50, .cache_size = 64 << 20,
					      .pool_shape = shape_of(workload) };
	x->res.nthreads = nthreads;
	x->res.threads = x->ts;
	x->res.locks = x->own_locks;
	x->res.wall_ns = WALL;
	x->m = (struct joined_run){ .subject = workload, .timings = &x->res,
				   .kv = kernel ? &x->kv : NULL,
				   .groups = kernel ? PG_FULL : 0, .ncpus = 2, .wall_ns = WALL,
				   .rows = x->rows, .nrows = nthreads, .locks = x->locks };
	for (unsigned i = 0; i < nthreads; i++) {
		x->ts[i] = (struct thread_timings){ .tid = 100 + (pid_t)i, .index = i,
						    .ops = 100000, .end_ns = WALL };
		x->rows[i].own = &x->ts[i];
		x->rows[i].tid = row_own(&x->rows[i])->tid;
		x->rows[i].index = i;
		x->rows[i].end_ns = WALL;
		x->rows[i].timed = true;
		x->rows[i].has_kernel = kernel;
	}
	return x;
}

/* Every thread's account, as shares of its wall time (the rest is user CPU). */
void fx_account(struct fx *x, double sys, double lock, double blocked, double runq)
{
	double user = 1 - sys - lock - blocked - runq;

	for (unsigned i = 0; i < x->m.nrows; i++) {
		uint64_t *a = x->rows[i].acct_ns;

		a[ACCT_CPU_USER] = (uint64_t)llround(user * WALL);
		a[ACCT_CPU_SYS] = (uint64_t)llround(sys * WALL);
		a[ACCT_LOCK_NAMED] = (uint64_t)llround(lock * WALL);
		a[ACCT_BLOCKED] = (uint64_t)llround(blocked * WALL);
		a[ACCT_RUNQ] = (uint64_t)llround(runq * WALL);
	}
}

/* The run-wide sums join_run keeps. */
void fx_total(struct fx *x)
{
	struct joined_run *m = &x->m;

	m->ops = 0;
	m->thread_wall_total_ns = 0;
	m->pagecache_hits = m->pagecache_misses = 0;
	memset(m->acct_total_ns, 0, sizeof(m->acct_total_ns));
	for (unsigned i = 0; i < m->nrows; i++) {
		struct thread_row *r = &x->rows[i];

		m->ops += row_own(r)->ops;
		m->thread_wall_total_ns += r->end_ns - r->start_ns;
		for (int b = 0; b < ACCT_N; b++)
			m->acct_total_ns[b] += r->has_kernel ? r->acct_ns[b] : 0;
		m->pagecache_hits += r->pagecache_hits;
		m->pagecache_misses += r->pagecache_misses;
	}
}

/* The run's calls of syscall nr, in its table by number and its row. */
void fx_sc(struct fx *x, unsigned nr, uint64_t count, uint64_t mean_ns)
{
	x->m.nr_total[nr] = (struct sc_stats){ .count = count, .total_ns = count * mean_ns,
					       .min_ns = mean_ns / 4, .max_ns = mean_ns * 10 };
	x->m.sc_total[sc_row_of(nr)] = x->m.nr_total[nr];
}

void fx_lock(struct fx *x, const char *name, bool kernel, uint64_t waits, uint64_t ns)
{
	struct lock_total *t = &x->locks[x->m.nlocks++];

	*t = (struct lock_total){ .kernel = kernel, .waits = waits, .wait_ns = ns,
				  .max_ns = ns / waits * 20, .threads = x->m.nrows };
	snprintf(t->name, sizeof(t->name), "%s", name);
}

void fx_desc(struct fx *x, const char *name)
{
	snprintf(x->own_locks[x->res.nlocks++].name, sizeof(x->own_locks[0].name), "%s", name);
}

/*
 * fcp, 100 files, pool 50, 8 threads on 2 CPUs: half the gets miss, each
 * miss makes stat + open + close inside the lock.
 */
void fx_pool_clocks(struct fx *x, uint64_t user_wait)
{
	x->res.totals = (struct subject_totals){ .has_pool = true, .hits = 400000, .misses = 400000,
					    .evictions = 400000 - 50 };
	fx_desc(x, "fcp.pool");
	for (unsigned i = 0; i < x->m.nrows; i++) {
		struct thread_timings *u = &x->ts[i];

		u->hits = u->misses = 50000;
		u->lock_acquires = 200000;
		u->lock_contended = 150000;
		u->syscalls_in_lock = 150000;
		u->lock_hold_ns = 200000000;	/* 1.6 s of an 2 s run in all: 80 % busy */
		u->lock_wait_ns = user_wait;
		u->read_ns = 50000000;
	}
}

struct fx *fx_pool_kernel(void)
{
	struct fx *x = fx_new("fcp", NT, true);

	fx_pool_clocks(x, 1300000000);
	fx_account(x, 0.15, 0.60, 0.01, 0.14);
	for (unsigned i = 0; i < NT; i++) {
		x->rows[i].k.pages_asked = 300000;
		x->rows[i].pagecache_hits = 300000;
	}
	fx_total(x);
	fx_sc(x, __NR_newfstatat, 400000, 1000);
	fx_sc(x, __NR_openat, 400000, 2000);
	fx_sc(x, __NR_close, 400000, 800);
	fx_sc(x, __NR_pread64, 800000, 600);
	fx_lock(x, "fcp.pool", false, 400000, (uint64_t)(0.60 * NT * WALL));
	fx_lock(x, "spinlock @ lockref_get", true, 1000, 1000000);
	/* the workers' op medians and holds, which fit the what-if model */
	x->m.op_hit_p50_ns = 2000;
	x->m.op_miss_p50_ns = 8000;
	x->m.read_p50_ns = 1500;
	x->m.hold_hit_ns = 200;
	x->m.hold_miss_ns = 5000;
	x->m.hold_put_ns = 100;
	return x;
}

/* Nothing was cut short; EXPLAIN_SHOW=1 prints the diagnosis to read it. */
void show(struct fx *x)
{
	const struct diagnosis *d = &x->d;

	for (int i = 0; i < d->n; i++) {
		assert_true(strlen(d->causes[i].title) < sizeof(d->causes[i].title) - 1);
		for (int e = 0; e < d->causes[i].nevidence; e++)
			assert_true(strlen(d->causes[i].evidence[e]) <
				    sizeof(d->causes[i].evidence[e]) - 1);
	}
	assert_true(strlen(d->fix) < sizeof(d->fix) - 1);
	assert_true(strlen(d->beyond) < sizeof(d->beyond) - 1);
	if (getenv("EXPLAIN_SHOW"))
		why_print(stderr, &x->d);
}

/* Each thread's share of the waits on lock l, in its row (what the
 * lock what-ifs read). */
void fx_row_waits(struct fx *x, const struct lock_total *l)
{
	for (unsigned i = 0; i < x->m.nrows; i++) {
		struct thread_row *r = &x->rows[i];

		r->locks[0] = (struct lock_use){ .is_lock = true, .waits = l->waits / x->m.nrows,
						 .wait_ns = l->wait_ns / x->m.nrows };
		snprintf(r->locks[0].name, sizeof(r->locks[0].name), "%s", l->name);
		r->nlocks = 1;
	}
}

/* The holders probes' figures for fcp.pool: held 1.6 s of the 2 s (80 %
 * busy), 60 % of it in syscalls, 30 % preempted, 10 % in user space; of
 * the waiters' 9.6 s, 4 s behind syscalls, 2 s behind preemptions,
 * 0.6 s behind user work: 3 s of hand-off. */
void fx_holders(struct lock_total *l)
{
	l->holders = (struct lock_holders){ .measured = true, .words = 1, .held_ns = 1.6e9,
		.state_ns = { [HS_SYSCALL] = 0.96e9, [HS_PREEMPTED] = 0.48e9, [HS_USER] = 0.16e9 },
		.waited_ns = { [HS_SYSCALL] = 4e9, [HS_PREEMPTED] = 2e9, [HS_USER] = 0.6e9 },
		.waiter_ns = (double)l->wait_ns, .samples = 160, .syscalls = 1200000,
		.nnr = 3, .nr = { { 257, 400000, 0.4e9 }, { 262, 400000, 0.3e9 },
				  { 3, 400000, 0.2e9 } } };
}

