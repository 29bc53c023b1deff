/*
 * test_explain.c - the explain rules over hand-built joined models: each
 * cause ranked first with its share computed right, no false cause for a
 * healthy run, the timing-only fallback, the text and the JSON.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <cmocka.h>
#include <json-c/json.h>
#include "report/why.h"
#include "diagutil.h"

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

/* what the workload driver says of its pool (session_workload.c) */
static enum pool_shape shape_of(const char *workload)
{
	return !strcmp(workload, "fcp") ? POOL_MISS_IN_LOCK :
	       !strcmp(workload, "fcp-fixed") ? POOL_MISS_OUTSIDE_LOCK : POOL_SHAPE_UNKNOWN;
}

static struct fx *fx_new(const char *workload, unsigned nthreads, bool kernel)
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
static void fx_account(struct fx *x, double sys, double lock, double blocked, double runq)
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
static void fx_total(struct fx *x)
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
static void fx_sc(struct fx *x, unsigned nr, uint64_t count, uint64_t mean_ns)
{
	x->m.nr_total[nr] = (struct sc_stats){ .count = count, .total_ns = count * mean_ns,
					       .min_ns = mean_ns / 4, .max_ns = mean_ns * 10 };
	x->m.sc_total[sc_row_of(nr)] = x->m.nr_total[nr];
}

static void fx_lock(struct fx *x, const char *name, bool kernel, uint64_t waits, uint64_t ns)
{
	struct lock_total *t = &x->locks[x->m.nlocks++];

	*t = (struct lock_total){ .kernel = kernel, .waits = waits, .wait_ns = ns,
				  .max_ns = ns / waits * 20, .threads = x->m.nrows };
	snprintf(t->name, sizeof(t->name), "%s", name);
}

static void fx_desc(struct fx *x, const char *name)
{
	snprintf(x->own_locks[x->res.nlocks++].name, sizeof(x->own_locks[0].name), "%s", name);
}

/*
 * fcp, 100 files, pool 50, 8 threads on 2 CPUs: half the gets miss, each
 * miss makes stat + open + close inside the lock.
 */
static void fx_pool_clocks(struct fx *x, uint64_t user_wait)
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

static struct fx *fx_pool_kernel(void)
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
static void show(struct fx *x)
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

static void test_pool_serialisation_kernel(void **state)
{
	struct fx *x = fx_pool_kernel();
	struct diagnosis *d = &x->d;

	assert_int_equal(explain_run(&x->m, d), 2);
	assert_string_equal(d->causes[0].cause, "pool_lock_serialisation");
	assert_float_equal(d->causes[0].share, 0.60, EPS);
	assert_float_equal(d->causes[0].confidence, 0.9, EPS);
	assert_string_equal(d->causes[1].cause, "cpu_oversubscription");
	assert_float_equal(d->causes[1].share, 0.14, EPS);
	assert_true(d->causes[0].nevidence >= 5);
	assert_true(any_evidence(&d->causes[0], "1 - 50/100 = 50.0 %"));
	assert_true(any_evidence(&d->causes[0], "3.0 syscalls"));
	/* 1.6 s of syscalls in 1.6 s of holding: 4 µs per miss, hits nearly free */
	assert_true(any_evidence(&d->causes[0], "(stat 1.00 µs, open 2.00 µs, close 800 ns mean)"));
	assert_true(any_evidence(&d->causes[0], "80.0 % busy"));
	assert_true(any_evidence(&d->causes[0], "futex fcp.pool"));
	assert_true(any_evidence(&d->causes[0], "an estimated"));
	assert_true(any_evidence(&d->causes[0], "wait lasted 8.67 µs, 9 x the 1.00 µs"));
	assert_true(has_text(d->fix, "fcp-fixed"));
	assert_true(has_text(d->beyond, "page cache 100 % hits"));
	assert_true(has_text(d->beyond, "kernel locks < 1 %"));
	assert_true(has_text(d->beyond, "2 CPUs for 8 threads"));
	assert_true(has_text(d->headline, "Why fcp takes 2.00 s here (100 files, pool 50, "
			     "8 threads, 2 CPUs)"));
	show(x);
	free(x);
}

/* No kernel view: the same pool diagnosed from the threads' own clocks. */
static void test_pool_serialisation_timing_only(void **state)
{
	struct fx *x = fx_new("fcp", NT, false);
	struct diagnosis *d = &x->d;

	fx_pool_clocks(x, 1200000000);
	fx_total(x);
	assert_int_equal(explain_run(&x->m, d), 1);
	assert_string_equal(d->causes[0].cause, "pool_lock_serialisation");
	assert_float_equal(d->causes[0].share, 0.60, EPS);
	assert_true(d->causes[0].confidence < 0.9);
	assert_true(any_evidence(&d->causes[0], "by their own clocks"));
	assert_true(any_evidence(&d->causes[0], "by the workload's count"));
	assert_true(has_text(d->headline, "timing only"));
	assert_true(has_text(d->beyond, "measured without the kernel view"));
	show(x);
	free(x);
}

/* The fixed pool: contention without syscalls inside is a different cause. */
static void test_pool_contention_without_syscalls(void **state)
{
	struct fx *x = fx_new("fcp-fixed", NT, false);

	fx_pool_clocks(x, 200000000);
	for (unsigned i = 0; i < NT; i++)
		x->ts[i].syscalls_in_lock = 0;
	fx_total(x);
	assert_int_equal(explain_run(&x->m, &x->d), 1);
	assert_string_equal(x->d.causes[0].cause, "pool_lock_contention");
	assert_float_equal(x->d.causes[0].share, 0.1, EPS);
	assert_null(strstr(x->d.fix, "fcp-fixed"));
	show(x);
	free(x);
}

/* Half the threads sleep until another process writes to them, the other
 * half write and never wait: no process both wakes and waits, so the Why
 * says the wait is one way, not "the 0 processes that wake each other". */
static void test_sibling_wait_one_way(void **state)
{
	struct fx *x = fx_new("prog", NT, true);
	const struct diag_cause *c;

	fx_account(x, 0.1, 0, 0.5, 0);
	for (unsigned i = 0; i < NT; i++) {
		struct thread_row *r = &x->rows[i];

		r->k.tid = r->k.tgid = (uint32_t)r->tid;
		snprintf(r->k.comm, sizeof(r->k.comm), "prog");
		r->timed = false;
		if (i < NT / 2) {
			r->k.sib_waits[FCT_WAKE_WRITE] = 100;
			r->k.sib_wait_ns[FCT_WAKE_WRITE] = WALL / 2;
		} else {
			r->k.sib_wakes[FCT_WAKE_WRITE] = 100;
		}
	}
	x->m.subject = NULL;
	fx_total(x);
	assert_true(explain_run(&x->m, &x->d) >= 1);
	c = cause_of(&x->d, "sibling_wait");
	assert_non_null(c);
	assert_true(has_text(c->title, "of thread time waiting for another prog process, 400 waits"));
	assert_null(strstr(c->title, "0 processes"));
	assert_true(any_evidence(c, "No process both woke others and waited for them"));
	free(x);
}

/* Every file fits: the rare cold misses are not the lock's problem. */
static void test_pool_rare_misses(void **state)
{
	struct fx *x = fx_new("fcp", 2, false);

	fx_pool_clocks(x, 200000000);
	x->res.cfg.files = 40;
	for (unsigned i = 0; i < 2; i++) {
		x->ts[i].hits = 99980;
		x->ts[i].misses = 20;
		x->ts[i].syscalls_in_lock = 40;
	}
	fx_total(x);
	assert_int_equal(explain_run(&x->m, &x->d), 1);
	assert_string_equal(x->d.causes[0].cause, "pool_lock_contention");
	assert_float_equal(x->d.causes[0].share, 0.10, EPS);
	assert_true(any_evidence(&x->d.causes[0], "so all fit"));
	assert_true(has_text(x->d.fix, "O(1)"));
	show(x);
	free(x);
}

static struct fx *fx_cache(int nlocks)
{
	struct fx *x = fx_new("bcache", NT, true);
	char name[32];

	x->res.totals = (struct subject_totals){ .has_cache = true };
	for (int l = 0; l < nlocks; l++) {
		snprintf(name, sizeof(name), nlocks > 1 ? "bcache.shard%d" : "bcache.lru", l);
		fx_desc(x, name);
	}
	for (unsigned i = 0; i < NT; i++) {
		struct thread_timings *u = &x->ts[i];

		u->hits = 270000;
		u->misses = 30000;
		u->lock_acquires = 330000;
		u->lock_contended = 200000;
		u->lock_hold_ns = 100000000;
		u->lock_wait_ns = 700000000;
		u->miss_read_ns = 20000000;
	}
	fx_account(x, 0.05, 0.30, 0.0, 0.03);
	fx_total(x);
	fx_lock(x, nlocks > 1 ? "bcache.shard3" : "bcache.lru", false, 900000,
		(uint64_t)(0.30 * NT * WALL));
	return x;
}

static void test_cache_lock_contention(void **state)
{
	struct fx *x = fx_cache(1);

	assert_int_equal(explain_run(&x->m, &x->d), 1);
	assert_string_equal(x->d.causes[0].cause, "cache_lock_contention");
	assert_float_equal(x->d.causes[0].share, 0.30, EPS);
	assert_true(any_evidence(&x->d.causes[0], "hit ratio 90.0 %"));
	assert_true(has_text(x->d.fix, "bcache-sharded"));
	assert_true(has_text(x->d.beyond, "run queue 3.0 %"));
	show(x);
	free(x);
}

/* Too few cores ranks first, but the fix is the code's. */
static void test_fix_from_code_cause(void **state)
{
	struct fx *x = fx_cache(1);

	fx_account(x, 0.05, 0.30, 0.0, 0.45);
	fx_total(x);
	assert_int_equal(explain_run(&x->m, &x->d), 2);
	assert_string_equal(x->d.causes[0].cause, "cpu_oversubscription");
	assert_float_equal(x->d.causes[0].share, 0.45, EPS);
	assert_string_equal(x->d.causes[1].cause, "cache_lock_contention");
	assert_true(has_text(x->d.fix, "bcache-sharded"));
	show(x);
	free(x);
}

static void test_sharded_cache_fix(void **state)
{
	struct fx *x = fx_cache(16);

	explain_run(&x->m, &x->d);
	assert_string_equal(x->d.causes[0].cause, "cache_lock_contention");
	assert_true(has_text(x->d.fix, "Already 16 locks"));
	show(x);
	free(x);
}

/* A concurrent map: 30 k acquisitions for 300 k lookups per thread, so
 * the hits took none; the explanation must not blame the hit path. */
static void test_lockfree_hits_fix(void **state)
{
	struct fx *x = fx_cache(16);

	for (unsigned i = 0; i < NT; i++)
		x->ts[i].lock_acquires = 30000;
	explain_run(&x->m, &x->d);
	assert_string_equal(x->d.causes[0].cause, "cache_lock_contention");
	assert_true(any_evidence(&x->d.causes[0], "Hits take no lock, inserts do"));
	assert_true(has_text(x->d.fix, "Hits already take no lock"));
	assert_false(has_text(x->d.fix, "bcache-chm"));
	show(x);
	free(x);
}

/* fc under page-cache pressure: reads wait for the disk. */
static void test_page_cache_misses(void **state)
{
	struct fx *x = fx_new("fc", 2, true);

	x->res.cfg.pressure = 5000;
	x->res.pressure_pages_dropped = 70000;
	fx_account(x, 0.30, 0.0, 0.40, 0.02);
	for (unsigned i = 0; i < 2; i++) {
		/* a page being read from disk is waited for uninterruptibly */
		x->rows[i].k.blocked_io_ns = (uint64_t)(0.40 * WALL);
		x->rows[i].k.pages_asked = 300000;
		x->rows[i].pagecache_misses = 100000;
		x->rows[i].pagecache_hits = 200000;
	}
	fx_total(x);
	fx_sc(x, __NR_pread64, 200000, 8000);
	assert_int_equal(explain_run(&x->m, &x->d), 1);
	assert_string_equal(x->d.causes[0].cause, "page_cache_misses");
	assert_float_equal(x->d.causes[0].share, 0.40, EPS);
	assert_true(any_evidence(&x->d.causes[0], "600.0 k pages and 200.0 k were not there"));
	assert_true(any_evidence(&x->d.causes[0], "dropped 70.0 k pages"));
	assert_true(has_text(x->d.headline, "cache pressure"));
	show(x);
	free(x);
}

/* Issue 38: another program's page-cache misses get the same share (its
 * uninterruptible sleep) and the same measured pread64 figures. */
static void test_page_cache_misses_any_program(void **state)
{
	struct fx *x = fx_new("reader", 2, true);
	struct lock_name none = { .name = "" };

	(void)state;
	x->m.names = &none;	/* named by lockname.c: a program fctrace did not write */
	x->res.cfg.files = 0;
	fx_account(x, 0.30, 0.0, 0.40, 0.02);
	for (unsigned i = 0; i < 2; i++) {
		x->rows[i].k.blocked_io_ns = (uint64_t)(0.40 * WALL);
		x->rows[i].k.pages_asked = 300000;
		x->rows[i].pagecache_misses = 100000;
	}
	fx_total(x);
	fx_sc(x, __NR_pread64, 200000, 8000);
	assert_true(explain_run(&x->m, &x->d) >= 1);
	assert_string_equal(x->d.causes[0].cause, "page_cache_misses");
	assert_float_equal(x->d.causes[0].share, 0.40, EPS);
	assert_true(any_evidence(&x->d.causes[0], "600.0 k pages and 200.0 k were not there"));
	assert_true(any_evidence(&x->d.causes[0], "pread64 took 8.00 µs on average over 200.0 k "
				 "calls"));
	show(x);
	free(x);
}

/* A program's positional reads as a block cache's misses (caches.h):
 * postgres re-reads 150 k of its 200 k reads at 4 µs each, 0.6 s of the
 * 4 s of thread time; the knob is named and the size is the working set. */
static struct fx *fx_blocks(double rereads)
{
	struct fx *x = fx_new("reader", 2, true);
	static struct lock_name none = { .name = "" };
	static struct cache_entry c;

	x->m.names = &none;
	x->res.cfg.files = 0;
	fx_account(x, 0.30, 0.0, 0.0, 0.0);
	fx_total(x);
	c = (struct cache_entry){ .kind = CACHE_BLOCKS, .pid = 42, .comm = "postgres",
				  .object = "base/5/16397", .accesses = 200000, .misses = 200000,
				  .ws_items = 12800, .ws_bytes = 12800ull * 8192, .fix_items = 12000,
				  .fix_bytes = 12000ull * 8192, .hit_ratio_fix = 0.99,
				  .sample_rate = 1, .direct = 0, .rereads = rereads,
				  .miss_each_ns = 4000, .misses_at_fix = 2000 };
	x->m.caches = &c;
	x->m.ncaches = 1;
	return x;
}

static void test_block_cache_too_small(void **state)
{
	struct fx *x = fx_blocks(150000);
	const struct diag_cause *c;

	(void)state;
	explain_run(&x->m, &x->d);
	c = cause_of(&x->d, "block_cache_too_small");
	assert_non_null(c);
	assert_float_equal(c->share, 0.6e9 / (2.0 * WALL), 1e-6);
	assert_true(has_text(c->title, "postgres re-read 150.0 k blocks of 8192 bytes"));
	assert_true(has_text(c->title, "working set of 100 MiB"));
	assert_true(any_evidence(c, "not seen from outside"));
	assert_true(has_text(x->d.fix, "shared_buffers = 101MB"));
	show(x);
	free(x);
}

/* Threads that wait for a block another thread is reading (or for the
 * lock that reader holds) pay for the miss too: the waits whose waker
 * had just finished a pread64 join the re-reads' cost, in the re-reads'
 * share of the reads. Half of a lock's 4 s of waits ended so: 2 s, of
 * which 150 k / 200 k are the re-reads'. */
static void test_block_cache_counts_the_waits_it_ends(void **state)
{
	struct fx *x = fx_blocks(150000);
	struct lock_total *l;
	const struct diag_cause *c;

	(void)state;
	fx_lock(x, "lock @ buf_page_get", false, 1000, 4000000000ull);
	l = &x->locks[x->m.nlocks - 1];
	l->is_lock = true;
	l->wakers.wakes = 1000;
	l->wakers.nafter = 2;
	l->wakers.after[0] = (struct waker_call){ .call = "pread64", .wakes = 500 };
	l->wakers.after[1] = (struct waker_call){ .call = "recvfrom", .wakes = 500 };
	explain_run(&x->m, &x->d);
	c = cause_of(&x->d, "block_cache_too_small");
	assert_non_null(c);
	assert_float_equal(c->share, (0.6e9 + 1.5e9) / (2.0 * WALL), 1e-6);
	assert_true(any_evidence(c, "the re-reads cost 600.0 ms of thread time"));
	assert_true(any_evidence(c, "Other threads waited for the reads as well: 1.50 s of lock "
			     "and event waits ended"));
	free(x);
}

/* One count per figure: the lock waits the block cache's cause counts
 * (their waker had just read a block it had read before) leave the
 * lock's share, and the lock's evidence says where they went. */
static void test_lock_leaves_waits_to_block_cache(void **state)
{
	double lock_alone, blocks_alone, lock_share, blocks_share;
	const struct diag_cause *c;
	struct lock_total *l;
	struct fx *x;

	(void)state;
	for (int after_reads = 0; after_reads < 2; after_reads++) {
		x = fx_blocks(150000);
		fx_account(x, 0.0, 0.50, 0.0, 0.0);
		fx_total(x);
		fx_lock(x, "lock @ mariadbd+0xde29af", false, 40000, (uint64_t)(0.50 * 2 * WALL));
		l = &x->locks[0];
		l->is_lock = true;
		l->wakers.wakes = 1000;
		l->wakers.nafter = 1;
		l->wakers.after[0].wakes = 400;
		snprintf(l->wakers.after[0].call, sizeof(l->wakers.after[0].call), "%s",
			 after_reads ? "pread64" : "recvfrom");
		explain_run(&x->m, &x->d);
		c = cause_of(&x->d, "user_lock_contention");
		assert_non_null(c);
		lock_share = c->share;
		assert_true(!after_reads == !any_evidence(c, "they are counted with the block "
							  "cache's re-reads, not in this share"));
		c = cause_of(&x->d, "block_cache_too_small");
		assert_non_null(c);
		blocks_share = c->share;
		if (!after_reads) {
			lock_alone = lock_share;
			blocks_alone = blocks_share;
		}
		free(x);
	}
	/* what one cause gave up, the other took: 40 % of the waits ended
	 * after a read, in the re-reads' share of the reads */
	assert_true(lock_share < lock_alone - 0.05);
	assert_float_equal(lock_alone - lock_share, blocks_share - blocks_alone, 1e-6);
}

/* A lock first (its fix a change of code), the buffer pool's re-reads
 * second (a setting): the fix names both, the setting by its number. */
static void test_setting_fix_beside_code_fix(void **state)
{
	struct fx *x = fx_blocks(150000);
	int blocks = -1;

	(void)state;
	snprintf(x->m.caches[0].comm, sizeof(x->m.caches[0].comm), "mariadbd");
	fx_account(x, 0.0, 0.50, 0.0, 0.0);
	fx_total(x);
	fx_lock(x, "lock @ mariadbd+0xde29af", false, 40000, (uint64_t)(0.50 * 2 * WALL));
	x->locks[0].is_lock = true;
	explain_run(&x->m, &x->d);
	assert_string_equal(x->d.causes[0].cause, "user_lock_contention");
	for (int i = 0; i < x->d.n; i++)
		if (!strcmp(x->d.causes[i].cause, "block_cache_too_small"))
			blocks = i;
	assert_true(blocks > 0);
	assert_true(has_text(x->d.fix, "for less time"));
	assert_true(has_text(x->d.fix, blocks == 1 ? "Then, for 2, a setting: Set "
			     "innodb_buffer_pool_size=" : "Then, for 3, a setting: Set "
			     "innodb_buffer_pool_size="));
	/* a fix that is a setting itself stands alone */
	free(x);
	x = fx_blocks(150000);
	snprintf(x->m.caches[0].comm, sizeof(x->m.caches[0].comm), "mariadbd");
	explain_run(&x->m, &x->d);
	assert_string_equal(x->d.causes[0].cause, "block_cache_too_small");
	assert_null(strstr(x->d.fix, "Then, for"));
	free(x);
}

/* InnoDB keeps 1536 pages free whatever the pool's size: the size to
 * set is the working set and those pages (MariaDB 10.11: a pool of its
 * 41 MiB working set still read 0.72 pages a transaction, 66 MiB none;
 * docs/caches.md). Here 100 MiB of 8 KiB pages and 12 MiB of margin. */
static void test_block_cache_innodb_margin(void **state)
{
	struct fx *x = fx_blocks(150000);

	(void)state;
	snprintf(x->m.caches[0].comm, sizeof(x->m.caches[0].comm), "mariadbd");
	explain_run(&x->m, &x->d);
	assert_non_null(cause_of(&x->d, "block_cache_too_small"));
	assert_true(has_text(x->d.fix, "Set innodb_buffer_pool_size=113M (its working set, 100 "
			     "MiB, and 12 MiB for the 1536 pages of 8192 bytes InnoDB keeps free "
			     "(innodb_lru_scan_depth);"));
	show(x);
	free(x);
}

/* A handle cache after a costlier block stream in caches[] (it came
 * first by its misses' time): still found. nginx keeps 51 of its 100
 * files open, 100 k uses, 50 k opens at 8 us each: 0.4 s of the 4 s of
 * thread time; the block entry's re-reads are few (no finding). */
static void test_handle_cache_after_blocks(void **state)
{
	struct fx *x = fx_blocks(5000);
	static struct cache_entry two[2];
	const struct diag_cause *c;

	(void)state;
	two[0] = x->m.caches[0];
	two[0].saved_ns = 1e9;
	two[1] = (struct cache_entry){ .kind = CACHE_HANDLES, .pid = 43, .comm = "nginx",
				       .object = "html/ (100 files)", .accesses = 100000,
				       .misses = 50000, .ws_items = 100, .ws_bytes = 409600,
				       .size_known = true, .size_items = 51, .hit_ratio_now = 0.5,
				       .fix_items = 100, .hit_ratio_fix = 0.999, .sample_rate = 1,
				       .miss_each_ns = 8000, .miss_ns = 4e8, .misses_at_fix = 100,
				       .saved_ns = 3.992e8 };
	x->m.caches = two;
	x->m.ncaches = 2;
	explain_run(&x->m, &x->d);
	c = cause_of(&x->d, "cache_too_small");
	assert_non_null(c);
	assert_true(has_text(c->title, "nginx keeps 51 of its 100 files (hit ratio 50.0 %)"));
	assert_true(has_text(x->d.fix, "open_file_cache max=100"));
	assert_null(cause_of(&x->d, "block_cache_too_small"));
	show(x);
	free(x);
}

/* New connections to two peers (caches.h CACHE_CONNS): 2 000 to a
 * database at 0.5 ms each (1 s of the 4 s of thread time) and 400 to a
 * cache server at 0.25 ms; the cause weighs both, the title and the Fix
 * name the costlier first and its pool's size, the other beside it, and
 * the sleeps' rule leaves their time out; pgbench's knob when it is
 * pgbench. */
static struct fx *fx_conns(const char *comm)
{
	struct fx *x = fx_new("client", 2, true);
	static struct lock_name none = { .name = "" };
	static struct cache_entry c[2];

	x->m.names = &none;
	x->res.cfg.files = 0;
	fx_account(x, 0.10, 0.0, 0.0, 0.0);
	fx_total(x);
	c[0] = (struct cache_entry){ .kind = CACHE_CONNS, .pid = 42, .accesses = 2000,
				     .misses = 2000, .ws_items = 8, .fix_items = 8,
				     .hit_ratio_fix = 0.996, .sample_rate = 1,
				     .miss_each_ns = 500000, .miss_ns = 1e9, .misses_at_fix = 8,
				     .saved_ns = 0.996e9, .has_conn = true,
				     .conn = { .peer = "127.0.0.1:5432", .setups = 2000,
					       .closes = 2000, .connect_each_ns = 20000,
					       .setup_each_ns = 480000, .lived_each_ns = 900000 } };
	c[1] = c[0];
	c[1].accesses = c[1].misses = 400;
	c[1].ws_items = c[1].fix_items = 2;
	c[1].miss_each_ns = 250000;
	c[1].miss_ns = 1e8;
	c[1].misses_at_fix = 2;
	c[1].saved_ns = 0.995e8;
	snprintf(c[1].conn.peer, sizeof(c[1].conn.peer), "unix:/run/cache.sock");
	for (int i = 0; i < 2; i++) {
		char peer[sizeof(c[i].conn.peer)];

		memcpy(peer, c[i].conn.peer, sizeof(peer));
		snprintf(c[i].comm, sizeof(c[i].comm), "%s", comm);
		snprintf(c[i].object, sizeof(c[i].object), "connections to %s", peer);
	}
	x->m.caches = c;
	x->m.ncaches = 2;
	return x;
}

static void test_connections_not_kept(void **state)
{
	struct fx *x = fx_conns("client");
	const struct diag_cause *c;

	(void)state;
	explain_run(&x->m, &x->d);
	c = cause_of(&x->d, "connections_not_kept");
	assert_non_null(c);
	assert_float_equal(c->share, 1.1e9 / (2.0 * WALL), 1e-6);
	assert_true(has_text(c->title, "client opened 2000 to 127.0.0.1:5432, at most 8 at once; "
			     "a pool of 8 kept connections would serve 99.6 % of them"));
	assert_true(any_evidence(c, "from connect to the peer's first reply"));
	assert_true(any_evidence(c, "400 to unix:/run/cache.sock"));
	assert_true(has_text(x->d.fix, "Keep 8 connections to 127.0.0.1:5432 open"));
	assert_true(has_text(x->d.fix, "keep 2 to unix:/run/cache.sock likewise"));
	show(x);
	free(x);
}

static void test_connections_knob(void **state)
{
	struct fx *x = fx_conns("pgbench");

	(void)state;
	explain_run(&x->m, &x->d);
	assert_non_null(cause_of(&x->d, "connections_not_kept"));
	assert_true(has_text(x->d.fix, "Run pgbench without -C: each of its clients (8 at once "
			     "here) then keeps its connection"));
	free(x);
}

/* A proxy's pool of 4 connections for 32 clients (pools_proxy.c): the
 * title gives the clients' wait, the fix pgbouncer's setting; where the
 * bound at twice the connections equals the bound at four times (the
 * CPUs'), the fix says more gain little and to try twice as many. */
static struct fx *fx_proxy(double wall_8, double wall_16)
{
	struct fx *x = fx_new("pgbouncer", 2, true);
	static struct lock_name none = { .name = "" };
	static struct pool_row p;

	x->m.names = &none;
	x->res.cfg.files = 0;
	fx_account(x, 0.10, 0.0, 0.0, 0.0);
	fx_total(x);
	p = (struct pool_row){ .name = "pgbouncer's connections to unix:/tmp/pg/.s.PGSQL.5432",
			       .peer = "unix:/tmp/pg/.s.PGSQL.5432",
			       .kind = LK_CONNECTIONS, .tgid = 42, .threads = 32, .capacity = 4,
			       .how = PC_COUNTED, .waits = 40000, .wait_ns = 200000000000ull,
			       .releases = 40000, .holds = 40000, .hold_ns = 400000,
			       .holders_mean = 2.4, .waiters_mean = 25, .window_ns = 8e9,
			       .queued_ns = 2000000000ull, .nwhatif = 2,
			       .whatif = { { 8, 32, wall_8 }, { 16, 32, wall_16 } } };
	x->m.pools = &p;
	x->m.npools = 1;
	/* the proxy's name comes from its threads' accounts */
	x->rows[0].tid = 42;
	x->rows[0].k.tgid = 42;
	snprintf(x->rows[0].k.comm, sizeof(x->rows[0].k.comm), "pgbouncer");
	return x;
}

static void test_proxy_pool(void **state)
{
	struct fx *x = fx_proxy(5e9, 5e9);
	const struct diag_cause *c;

	(void)state;
	explain_run(&x->m, &x->d);
	c = cause_of(&x->d, "pool_too_small");
	assert_non_null(c);
	assert_float_equal(c->share, 200e9 / (32 * 8e9), 1e-6);
	assert_true(has_text(c->title, "waiting in pgbouncer for one of its 4 connections to "
			     "unix:/tmp/pg/.s.PGSQL.5432: 32 clients, 25.0 waiting on average"));
	assert_true(any_evidence(c, "had a request in flight only 60.0 % of the time"));
	assert_true(any_evidence(c, "8 connections: 5.00 s; 16 connections: 5.00 s"));
	assert_true(has_text(x->d.fix, "more would gain little: with 8 the same work takes at "
			     "least 5.00 s instead of 8.00 s"));
	assert_true(has_text(x->d.fix, "default_pool_size = 8 in pgbouncer.ini"));
	show(x);
	free(x);
	/* not bounded at twice: toward the clients */
	x = fx_proxy(4e9, 2.5e9);
	explain_run(&x->m, &x->d);
	assert_true(has_text(x->d.fix, "Give pgbouncer more than its 4 connections"));
	assert_true(has_text(x->d.fix, "default_pool_size = 32"));
	free(x);
}

/* A start-up's few connections are no pool's misses. */
static void test_connections_few(void **state)
{
	struct fx *x = fx_conns("client");

	(void)state;
	x->m.caches[0].accesses = x->m.caches[0].misses = 10;
	x->m.caches[1].accesses = x->m.caches[1].misses = 10;
	explain_run(&x->m, &x->d);
	assert_null(cause_of(&x->d, "connections_not_kept"));
	free(x);
}

/* Re-reads under a tenth of the reads are not a cache too small. */
static void test_block_cache_few_rereads(void **state)
{
	struct fx *x = fx_blocks(10000);

	(void)state;
	explain_run(&x->m, &x->d);
	assert_null(cause_of(&x->d, "block_cache_too_small"));
	free(x);
}

/* Re-reads that cost under the floor are said among what is not the
 * problem: 150 k at 0.5 µs, 75 ms of 4 s. */
static void test_block_cache_below_floor(void **state)
{
	struct fx *x = fx_blocks(150000);

	(void)state;
	x->m.caches[0].miss_each_ns = 500;
	explain_run(&x->m, &x->d);
	assert_null(cause_of(&x->d, "block_cache_too_small"));
	assert_true(has_text(x->d.beyond, "postgres's block re-reads 1.9 % (75.0 % of its reads, "
			     "working set 100 MiB)"));
	free(x);
}

/* The same postgres, its reads O_DIRECT: the 2 threads asleep on the disk
 * 40 % of their time (1.6 s). The re-reads' 0.6 s is the block cache's
 * cause; disk_reads keeps the other 1.0 s; together, the sleep once. */
static struct fx *fx_direct_blocks(double rereads)
{
	struct fx *x = fx_blocks(rereads);

	x->m.caches[0].direct = x->m.caches[0].accesses;
	fx_account(x, 0.30, 0.0, 0.40, 0.0);
	for (unsigned i = 0; i < 2; i++) {
		x->rows[i].k.blocked_io_ns = (uint64_t)(0.40 * WALL);
		x->rows[i].k.pages_direct = 200000;
		x->rows[i].disk = (struct disk_thread_row){ .reads = 100000,
			.read_bytes = 100000ull * 8192, .read_ns = (uint64_t)(0.35 * WALL) };
	}
	fx_total(x);
	explain_run(&x->m, &x->d);
	show(x);
	return x;
}

static void test_disk_reads_beside_block_cache(void **state)
{
	struct fx *x = fx_direct_blocks(150000);
	const struct diag_cause *b = cause_of(&x->d, "block_cache_too_small");
	const struct diag_cause *d = cause_of(&x->d, "disk_reads");

	(void)state;
	assert_non_null(b);
	assert_non_null(d);
	assert_float_equal(b->share, 0.6e9 / (2.0 * WALL), 1e-6);
	assert_float_equal(d->share, 1.0e9 / (2.0 * WALL), 1e-6);
	assert_true(has_text(d->title, "besides the re-reads"));
	assert_true(any_evidence(d, "Of the 1.60 s asleep on these reads, 600.0 ms were re-reads"));
	assert_false(has_text(x->d.beyond, "the disk served"));
	free(x);
}

/* Without re-reads worth a cause, disk_reads has the whole sleep. */
static void test_disk_reads_alone(void **state)
{
	struct fx *x = fx_direct_blocks(1000);
	const struct diag_cause *d = cause_of(&x->d, "disk_reads");

	(void)state;
	assert_null(cause_of(&x->d, "block_cache_too_small"));
	assert_non_null(d);
	assert_float_equal(d->share, 0.40, 1e-6);
	assert_false(has_text(d->title, "besides"));
	assert_true(any_evidence(d, "pread64 read 400.0 k pages from files open O_DIRECT"));
	free(x);
}

static void test_cpu_oversubscription(void **state)
{
	struct fx *x = fx_new("fc", NT, true);

	fx_account(x, 0.10, 0.0, 0.0, 0.70);
	fx_total(x);
	assert_int_equal(explain_run(&x->m, &x->d), 1);
	assert_string_equal(x->d.causes[0].cause, "cpu_oversubscription");
	assert_float_equal(x->d.causes[0].share, 0.70, EPS);
	assert_true(any_evidence(&x->d.causes[0], "8 threads on 2 CPUs: at most 2 run at once"));
	assert_true(has_text(x->d.fix, "at most 2 threads"));
	show(x);
	free(x);
}

static void test_cpu_competition(void **state)
{
	struct fx *x = fx_new("fc", 2, true);

	fx_account(x, 0.10, 0.0, 0.0, 0.20);
	fx_total(x);
	explain_run(&x->m, &x->d);
	assert_string_equal(x->d.causes[0].cause, "cpu_competition");
	assert_float_equal(x->d.causes[0].share, 0.20, EPS);
	show(x);
	free(x);
}

/* 8 threads on 2 CPUs, but the kernel's counters say other processes had
 * most of the CPUs: the queue is the competition, said with the figures;
 * with the CPUs the program's own, it stays oversubscription. */
static void test_cpu_taken_by_others(void **state)
{
	struct fx *x = fx_new("fc", NT, true);

	fx_account(x, 0.10, 0.0, 0.0, 0.70);
	for (unsigned i = 0; i < NT; i++)
		x->rows[i].k.oncpu_ns = WALL / 10;		/* 0.8 WALL in all, 2.4 WALL others */
	fx_total(x);
	x->kv.cpu = (struct cpustat){ .valid = true, .busy_ns = 2 * WALL, .idle_ns = 0 };
	explain_run(&x->m, &x->d);
	assert_string_equal(x->d.causes[0].cause, "cpu_competition");
	assert_true(has_text(x->d.causes[0].title, "other processes took 60.0 % of the 2 CPUs"));
	assert_true(any_evidence(&x->d.causes[0], "other threads and processes took 60.0 % of them "
				 "(2.40 s)"));
	assert_true(has_text(x->d.fix, "quieter machine"));

	x->kv.cpu.busy_ns = WALL;		/* others 0.2 WALL: 10 % of the CPUs */
	x->kv.cpu.idle_ns = WALL;
	explain_run(&x->m, &x->d);
	assert_string_equal(x->d.causes[0].cause, "cpu_oversubscription");
	assert_true(any_evidence(&x->d.causes[0], "took 10.0 % of them (400.0 ms)"));
	assert_true(any_evidence(&x->d.causes[0], "(the kernel's /proc/stat over fctrace's window)"));
	/* half the CPUs idle beside the queue: said to be bursts */
	assert_true(any_evidence(&x->d.causes[0], "The CPUs were idle 50.0 % of the time"));

	/* the sampler's count wins over the ticks: 2 s of others in the 4 s
	 * of CPU the sampler covered (tracer_start to tracer_stop, 2 CPUs) */
	x->kv.machine_sampled = true;
	x->kv.machine = (struct fct_machine){ .other = 2 * FCT_CPUCLOCK_HZ, .idle = 0 };
	x->kv.machine_ns = WALL;
	x->kv.machine_cpus = 2;
	explain_run(&x->m, &x->d);
	assert_string_equal(x->d.causes[0].cause, "cpu_competition");
	assert_true(any_evidence(&x->d.causes[0], "(cpu-clock samples over fctrace's window)"));
	assert_false(any_evidence(&x->d.causes[0], "were idle 0.0 % of the time all"));
	assert_false(any_evidence(&x->d.causes[0], "The CPUs were idle"));
	assert_true(has_text(x->d.causes[0].title, "other processes took 50.0 % of the 2 CPUs"));
	show(x);
	free(x);
}

/*
 * Issue 33: 201 short threads, an idle machine. The samples cover
 * fctrace's whole window (700 ms on 2 CPUs, its own symbolisation
 * included), the program's is 39 ms: over that, "other processes took
 * 1446.6 % of the 2 CPUs". Over the samples' own window, fctrace's
 * samples apart, other work is 1.8 %: the queue is the threads'.
 */
static void test_cpu_shares_over_samples_window(void **state)
{
	struct fx *x = fx_new("many", NT, true);
	const struct diag_cause *c;
	uint64_t wall = 39000000;

	fx_account(x, 0.10, 0.0, 0.0, 0.70);
	for (unsigned i = 0; i < NT; i++) {
		x->rows[i].end_ns = wall;
		x->rows[i].k.oncpu_ns = wall / 40;
		for (int b = 0; b < ACCT_N; b++)	/* the same shares of the shorter wall */
			x->rows[i].acct_ns[b] = (uint64_t)((double)x->rows[i].acct_ns[b] * (double)wall / (double)WALL);
	}
	fx_total(x);
	x->m.wall_ns = wall;
	x->kv.machine_sampled = true;
	x->kv.machine = (struct fct_machine){ .other = 25, .idle = 200, .tracer = 1100 };
	x->kv.machine_ns = 700000000;
	x->kv.machine_cpus = 2;
	explain_run(&x->m, &x->d);
	c = &x->d.causes[0];
	assert_string_equal(c->cause, "cpu_oversubscription");
	assert_false(has_text(c->title, "other processes took"));
	assert_true(any_evidence(c, "took 1.8 % of them"));
	assert_true(any_evidence(c, "fctrace itself 78.8 %"));
	assert_true(has_text(x->d.fix, "at most 2 threads"));

	/* without the window (a run saved before it was kept): the samples
	 * alone are the denominator, still never above 100 % */
	x->kv.machine_ns = 0;
	x->kv.machine = (struct fct_machine){ .other = 1125, .idle = 0 };
	explain_run(&x->m, &x->d);
	assert_true(any_evidence(&x->d.causes[0], "took 100.0 % of them"));
	assert_true(has_text(x->d.causes[0].title, "other processes took 100.0 % of the 2 CPUs"));
	show(x);
	free(x);
}

/* Issue 33: 977 of 2001 threads not held, a full futex table: the causes
 * built on them say so first and lose confidence; others keep theirs. */
static void test_losses_lower_confidence(void **state)
{
	struct fx *x = fx_new("fc", NT, true);
	double conf;

	fx_account(x, 0.10, 0.0, 0.0, 0.70);
	fx_total(x);
	explain_run(&x->m, &x->d);
	conf = x->d.causes[0].confidence;

	x->kv.nthreads = 1024;
	x->kv.lost.slot_full = 977;
	losses_find(&x->kv, &x->m.losses);
	assert_int_equal(x->m.losses.n, 1);
	assert_string_equal(x->m.losses.l[0].says, "977 of 2001 threads not accounted: the thread "
			    "table held 1024 at once (--max-threads raises it), and every "
			    "per-thread figure, total and cause is of the 1024 it held");
	assert_true(loss_touches(&x->m.losses.l[0], "threads"));
	explain_run(&x->m, &x->d);
	assert_true(has_text(x->d.causes[0].evidence[0], "Lost: 977 of 2001 threads"));
	assert_float_equal(x->d.causes[0].confidence, conf * 1024 / 2001, 1e-6);
	assert_true(has_text(x->d.headline, "977 more threads not accounted"));

	/* a full futex table touches the lock causes, not the run queue */
	x->kv.lost.slot_full = 0;
	x->kv.lost.futex_map_full = 125000;
	losses_find(&x->kv, &x->m.losses);
	assert_int_equal(x->m.losses.n, 1);
	assert_true(loss_touches_cause(&x->m.losses.l[0], "user_lock_contention"));
	assert_false(loss_touches_cause(&x->m.losses.l[0], "cpu_oversubscription"));
	explain_run(&x->m, &x->d);
	assert_float_equal(x->d.causes[0].confidence, conf, 1e-9);
	assert_false(any_evidence(&x->d.causes[0], "Lost:"));

	/* runs the kernel skipped: named by the program that skipped most,
	 * kept as a share of the runs counted, touching that program's figures */
	x->kv.lost.futex_map_full = 0;
	x->kv.nprobes = 2;
	x->kv.probes[0] = (struct probe_status){ .name = "tp_btf/block_rq_complete",
						 .group = PG_DISK, .skipped = 6, .runs = 994 };
	x->kv.probes[1] = (struct probe_status){ .name = "tp_btf/sched_switch",
						 .group = PG_SCHED, .runs = 5000 };
	x->kv.lost.hooks_skipped = 6;
	losses_find(&x->kv, &x->m.losses);
	assert_int_equal(x->m.losses.n, 1);
	assert_string_equal(x->m.losses.l[0].id, "hooks_skipped");
	assert_true(has_text(x->m.losses.l[0].says, "6 runs of fctrace's programs skipped by the "
			     "kernel, 6 of them of tp_btf/block_rq_complete: an interrupt"));
	assert_float_equal(x->m.losses.l[0].kept, 5994.0 / 6000, 1e-9);
	assert_true(loss_touches(&x->m.losses.l[0], "disk"));
	assert_false(loss_touches(&x->m.losses.l[0], "locks"));
	free(x);
}

/* A cause under the confidence floor is not ranked: out of the numbered
 * list, on the "Also seen" line with its confidence and evidence, and
 * marked "ranked": false in the JSON, yet still in the causes array. */
static void test_confidence_floor(void **state)
{
	static struct diagnosis d;
	struct json_object *a, *c;
	char *text = NULL;
	size_t len = 0;
	FILE *mem;

	memset(&d, 0, sizeof(d));
	snprintf(d.headline, sizeof(d.headline), "Why x took 1.00 s here");
	/* the larger share first, as rank() hands them over, but at 5 % */
	d.causes[0] = (struct diag_cause){ .cause = "user_lock_contention", .share = 0.40,
					   .confidence = 0.05, .title = "lwlock site",
					   .evidence = { "one wait of 2 ms" }, .nevidence = 1 };
	d.causes[1] = (struct diag_cause){ .cause = "durable_writes", .share = 0.30,
					   .confidence = 0.80, .title = "fdatasync",
					   .nevidence = 0 };
	d.n = 2;
	assert_int_equal(explain_floor(&d), 1);
	assert_string_equal(d.causes[0].cause, "durable_writes");	/* ranked first */
	assert_true(d.causes[0].ranked);
	assert_false(d.causes[1].ranked);
	assert_true(has_text(d.also, "Also seen (under the 10.0 % confidence floor, not ranked): "
			     "lwlock site (confidence 5.0 %: one wait of 2 ms)."));

	a = why_causes_json(&d);
	assert_int_equal(json_object_array_length(a), 2);	/* kept in the array */
	c = json_object_array_get_idx(a, 1);
	assert_string_equal(json_object_get_string(json_object_object_get(c, "cause")),
			    "user_lock_contention");
	assert_false(json_object_get_boolean(json_object_object_get(c, "ranked")));
	assert_true(json_object_get_boolean(json_object_object_get(json_object_array_get_idx(a, 0),
								   "ranked")));
	json_object_put(a);

	assert_non_null(mem = open_memstream(&text, &len));
	why_print(mem, &d);
	fclose(mem);
	assert_non_null(strstr(text, "1. fdatasync"));
	assert_null(strstr(text, "2. "));		/* the 5 % cause is not numbered */
	assert_non_null(strstr(text, "\nAlso seen "));
	free(text);

	/* none reaches the floor: the largest share still leads */
	d.causes[0].confidence = 0.02;
	assert_int_equal(explain_floor(&d), 1);
	assert_true(d.causes[0].ranked);
	assert_false(d.causes[1].ranked);
}

static void test_kernel_lock_contention(void **state)
{
	struct fx *x = fx_new("fc", 2, true);

	fx_account(x, 0.60, 0.0, 0.02, 0.01);
	fx_total(x);
	fx_lock(x, "spinlock @ lockref_get_not_dead", true, 500000, (uint64_t)(0.25 * 2 * WALL));
	fx_lock(x, "mutex @ do_open", true, 1000, (uint64_t)(0.01 * 2 * WALL));
	assert_int_equal(explain_run(&x->m, &x->d), 1);
	assert_string_equal(x->d.causes[0].cause, "kernel_lock_contention");
	assert_float_equal(x->d.causes[0].share, 0.26, EPS);
	assert_true(has_text(x->d.causes[0].title, "spinlock @ lockref_get_not_dead"));
	assert_true(any_evidence(&x->d.causes[0], "mutex @ do_open"));
	show(x);
	free(x);
}

/* On CPU 97 %, everything else under the threshold: no false cause. */
static void test_healthy_kernel(void **state)
{
	struct fx *x = fx_new("fc", 2, true);

	fx_account(x, 0.30, 0.01, 0.01, 0.01);
	fx_total(x);
	assert_int_equal(explain_run(&x->m, &x->d), 1);
	assert_string_equal(x->d.causes[0].cause, "healthy");
	assert_float_equal(x->d.causes[0].share, 0.97, EPS);
	assert_true(has_text(x->d.causes[0].title, "No bottleneck beyond the CPU: 97.0 %"));
	assert_true(has_text(x->d.beyond, "run queue 1.0 %"));
	show(x);
	free(x);
}

static void test_healthy_timing_only(void **state)
{
	struct fx *x = fx_new("fc", 2, false);

	fx_total(x);
	assert_int_equal(explain_run(&x->m, &x->d), 1);
	assert_string_equal(x->d.causes[0].cause, "healthy");
	assert_true(x->d.causes[0].confidence <= 0.5);
	show(x);
	free(x);
}

/* Interrupted before any op ended: nothing to explain, not "healthy". */
static void test_zero_ops_not_healthy(void **state)
{
	struct fx *x = fx_new("fcp", 2, true);

	fx_account(x, 0.01, 0.01, 0.01, 0.01);
	for (unsigned i = 0; i < x->m.nrows; i++)
		x->ts[i].ops = 0;
	fx_total(x);
	assert_int_equal(explain_run(&x->m, &x->d), -1);
	assert_int_equal(x->d.n, 0);
	free(x);
}

/* 4.9 % is not a cause, 5 % is. */
static void test_threshold(void **state)
{
	struct fx *x = fx_new("fc", 2, true);

	fx_account(x, 0.10, 0.0, 0.0, 0.049);
	fx_total(x);
	explain_run(&x->m, &x->d);
	assert_string_equal(x->d.causes[0].cause, "healthy");
	fx_account(x, 0.10, 0.0, 0.0, 0.05);
	fx_total(x);
	explain_run(&x->m, &x->d);
	assert_string_equal(x->d.causes[0].cause, "cpu_competition");
	show(x);
	free(x);
}

static void test_empty_model(void **state)
{
	struct fx *x = fx_new("fc", 0, false);

	assert_int_equal(explain_run(&x->m, &x->d), -1);
	assert_int_equal(x->d.n, 0);
	free(x);
}

static void test_json_keys(void **state)
{
	static const char *const keys[] = { "cause", "share", "title", "evidence", "confidence" };
	struct fx *x = fx_pool_kernel();
	struct json_object *a, *o, *v;

	explain_run(&x->m, &x->d);
	a = why_causes_json(&x->d);
	assert_true(json_object_is_type(a, json_type_array));
	assert_int_equal(json_object_array_length(a), x->d.n);
	for (int i = 0; i < x->d.n; i++) {
		o = json_object_array_get_idx(a, i);
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			assert_true(json_object_object_get_ex(o, keys[k], &v));
	}
	o = json_object_array_get_idx(a, 0);
	json_object_object_get_ex(o, "evidence", &v);
	assert_int_equal(json_object_array_length(v), x->d.causes[0].nevidence);
	json_object_object_get_ex(o, "share", &v);
	assert_float_equal(json_object_get_double(v), 0.60, EPS);
	json_object_put(a);
	a = why_summary_json(&x->d);
	assert_true(json_object_object_get_ex(a, "fix", &v));
	json_object_put(a);
	free(x);
}

/* The text: headline, causes, "not the problem", the model, the fix. */
static void test_print(void **state)
{
	struct fx *x = fx_pool_kernel();
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	explain_run(&x->m, &x->d);
	why_print(f, &x->d);
	fclose(f);
	assert_true(has_text(text, "Why fcp takes 2.00 s here"));
	assert_true(has_text(text, "[pool_lock_serialisation: 60.0 % of thread time"));
	assert_true(has_text(text, "Not the problem:"));
	assert_true(has_text(text, "Model (whatif.c), fitted to this run: an op that did not wait cost"));
	assert_true(has_text(text, "fcp-fixed: ~"));
	assert_true(has_text(text, "Fix: "));
	for (char *line = text; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
		assert_true(strcspn(line, "\n") <= 100);
	free(text);
	free(x);
}

/* The holders probes' figures for fcp.pool: held 1.6 s of the 2 s (80 %
 * busy), 60 % of it in syscalls, 30 % preempted, 10 % in user space; of
 * the waiters' 9.6 s, 4 s behind syscalls, 2 s behind preemptions,
 * 0.6 s behind user work: 3 s of hand-off. */
/* Each thread's share of the waits on lock l, in its row (what the
 * lock what-ifs read). */
static void fx_row_waits(struct fx *x, const struct lock_total *l)
{
	for (unsigned i = 0; i < x->m.nrows; i++) {
		struct thread_row *r = &x->rows[i];

		r->locks[0] = (struct lock_use){ .is_lock = true, .waits = l->waits / x->m.nrows,
						 .wait_ns = l->wait_ns / x->m.nrows };
		snprintf(r->locks[0].name, sizeof(r->locks[0].name), "%s", l->name);
		r->nlocks = 1;
	}
}

static void fx_holders(struct lock_total *l)
{
	l->holders = (struct lock_holders){ .measured = true, .words = 1, .held_ns = 1.6e9,
		.state_ns = { [HS_SYSCALL] = 0.96e9, [HS_PREEMPTED] = 0.48e9, [HS_USER] = 0.16e9 },
		.waited_ns = { [HS_SYSCALL] = 4e9, [HS_PREEMPTED] = 2e9, [HS_USER] = 0.6e9 },
		.waiter_ns = (double)l->wait_ns, .samples = 160, .syscalls = 1200000,
		.nnr = 3, .nr = { { 257, 400000, 0.4e9 }, { 262, 400000, 0.3e9 },
				  { 3, 400000, 0.2e9 } } };
}

/* The pool's Why through the generic chain: measured from outside, the
 * pool's own line added. */
static void test_pool_held_chain(void **state)
{
	struct fx *x = fx_pool_kernel();
	struct diag_cause *c = &x->d.causes[0];

	x->m.groups |= PG_MASK(PG_HOLDERS);
	x->locks[0].is_lock = true;
	fx_holders(&x->locks[0]);
	fx_row_waits(x, &x->locks[0]);
	assert_int_equal(explain_run(&x->m, &x->d), 2);
	assert_string_equal(c->cause, "pool_lock_serialisation");
	assert_true(has_text(c->title, "60.0 % of thread time waiting for the pool lock, whose "
			     "holders spend 60.0 % of the time held in syscalls (openat, "
			     "newfstatat, close)"));
	assert_true(any_evidence(c, "1 - 50/100 = 50.0 %"));	/* the pool's own line */
	assert_true(any_evidence(c, "held 1.60 s of the 2.00 s window (80.0 % busy)"));
	assert_true(any_evidence(c, "in syscalls 60.0 % of the time (1.20 M calls: openat "
				 "400.0 k, newfstatat 400.0 k, close 400.0 k), preempted "
				 "(runnable, not running) 30.0 %, on CPU in user space 10.0 %"));
	assert_true(any_evidence(c, "caps the program at 1.2 x"));
	assert_true(any_evidence(c, "41.7 % while the holder was in syscalls, 20.8 % while the "
				 "holder was preempted, 6.2 % while the holder was on CPU in "
				 "user space, and 31.2 % in hand-off"));
	assert_true(any_evidence(c, "What if (whatif_lock.c): with its syscalls made outside it"));
	assert_true(any_evidence(c, "with its holders never preempted holding it"));
	assert_int_equal(x->d.nlock_whatifs, 2);
	assert_true(x->d.lock_whatifs[0].predicted_wall_ns < WALL);
	assert_true(has_text(x->d.fix, "fcp-fixed"));
	show(x);
	free(x);
}

/* Files within the pool: its first opens are made holding the lock (here
 * most of a short held time), and never again (no evictions): contention,
 * not serialisation by syscalls. */
static void test_pool_held_first_opens_only(void **state)
{
	struct fx *x = fx_pool_kernel();

	x->m.groups |= PG_MASK(PG_HOLDERS);
	x->locks[0].is_lock = true;
	fx_holders(&x->locks[0]);
	x->res.totals.misses = 60;
	x->res.totals.evictions = 0;
	fx_row_waits(x, &x->locks[0]);
	assert_int_equal(explain_run(&x->m, &x->d), 2);
	assert_string_equal(x->d.causes[0].cause, "pool_lock_contention");
	free(x);
}

/* Another program's lock: the same chain, and a fix for any program. */
/* Another program's session store: one named lock, waited for 60 % of
 * thread time, its holders measured (fx_holders). */
static struct fx *fx_sessstore(void)
{
	struct fx *x = fx_new("sessstore", NT, true);
	static struct lock_name name = { .name = "session_table_lock", .is_lock = true };

	x->m.names = &name;
	x->m.nnames = 1;
	x->m.groups |= PG_MASK(PG_HOLDERS);
	fx_account(x, 0.15, 0.60, 0.01, 0.14);
	fx_total(x);
	fx_lock(x, "session_table_lock", false, 400000, (uint64_t)(0.60 * NT * WALL));
	x->locks[0].is_lock = true;
	fx_holders(&x->locks[0]);
	return x;
}

static void test_other_lock_held(void **state)
{
	struct fx *x = fx_sessstore();
	struct diag_cause *c = &x->d.causes[0];

	assert_true(explain_run(&x->m, &x->d) >= 1);
	assert_string_equal(c->cause, "user_lock_contention");
	assert_true(has_text(c->title, "session_table_lock, whose holders spend 60.0 %"));
	assert_true(any_evidence(c, "80.0 % busy"));
	assert_true(has_text(x->d.fix, "Make the syscalls (openat, newfstatat, close) before or "
			     "after holding session_table_lock"));
	for (int i = 0; i < x->d.n; i++)
		for (int e = 0; e < x->d.causes[i].nevidence; e++)
			assert_null(strstr(x->d.causes[i].evidence[e], "pool"));
	show(x);
	/* no holders probes: said, and the old fix */
	x->m.groups &= ~PG_MASK(PG_HOLDERS);
	x->locks[0].holders.measured = false;
	assert_true(explain_run(&x->m, &x->d) >= 1);
	assert_true(any_evidence(c, "not measured: the holders probes did not run"));
	free(x);
}

/* Holders that sleep on their own disk reads (the disk group joined to
 * the charged syscalls): said beside the states, the waiters' time then,
 * and the fix points at the disk; without the disk group nothing is said
 * of it, and with it and no request the sleep is said not to be the
 * disk's. */
static void test_lock_held_disk(void **state)
{
	struct fx *x = fx_sessstore();
	struct diag_cause *c = &x->d.causes[0];
	struct lock_holders *h = &x->locks[0].holders;

	/* 1.2 s of the 1.6 s held asleep, 1.0 s of it with a read in flight */
	h->state_ns[HS_SYSCALL] = 0.2e9;
	h->state_ns[HS_BLOCKED] = 1.2e9;
	h->state_ns[HS_PREEMPTED] = 0.04e9;
	h->disk_measured = true;
	h->disk_ios = 5000;
	h->disk_ns = 1.0e9;
	h->disk_waited_ns = 0.5 * h->waiter_ns;
	assert_true(explain_run(&x->m, &x->d) >= 1);
	assert_string_equal(c->cause, "user_lock_contention");
	assert_true(any_evidence(c, "A disk request its holder had submitted was in flight 62.5 % "
				 "of the time session_table_lock was held (5000 requests, 1.00 s), "
				 "and 50.0 % of its waiters' time passed then."));
	assert_true(has_text(x->d.fix, "Its holders wait for the disk holding session_table_lock "
			     "(5000 requests in flight 62.5 % of the time held)"));
	show(x);
	h->disk_ios = 0;
	h->disk_ns = h->disk_waited_ns = 0;
	assert_true(explain_run(&x->m, &x->d) >= 1);
	assert_false(any_evidence(c, "disk request its holder"));
	assert_true(any_evidence(c, "asleep (not on the disk"));
	h->disk_measured = false;
	assert_true(explain_run(&x->m, &x->d) >= 1);
	assert_true(any_evidence(c, "asleep (I/O, a page-cache miss"));
	free(x);
}

/*
 * Issue 38: the same futex contention is one cause with the same figures
 * whoever wrote the program. A lock word a program named for itself
 * (its lock ranges handed in) and the same word another program's was
 * named by (lockname.c) give the same id, share, confidence and word
 * evidence; the program's own hold clocks, when handed in, add evidence.
 */
static struct fx *fx_same_lock(bool own_names)
{
	static struct lock_name name = { .name = "table_lock", .kind = LK_MUTEX, .is_lock = true };
	struct fx *x = fx_new(own_names ? "mine" : "theirs", NT, true);

	if (own_names) {
		fx_desc(x, "table_lock");
	} else {
		x->m.names = &name;
		x->m.nnames = 1;
	}
	fx_account(x, 0.15, 0.60, 0.01, 0.14);
	fx_total(x);
	fx_lock(x, "table_lock", false, 400000, (uint64_t)(0.60 * NT * WALL));
	x->locks[0].is_lock = true;
	x->locks[0].kind = LK_MUTEX;
	return x;
}

static void test_same_lock_whoever(void **state)
{
	struct fx *mine = fx_same_lock(true), *theirs = fx_same_lock(false);
	const struct diag_cause *a = &mine->d.causes[0], *b = &theirs->d.causes[0];

	(void)state;
	assert_true(explain_run(&mine->m, &mine->d) >= 1);
	assert_true(explain_run(&theirs->m, &theirs->d) >= 1);
	assert_string_equal(a->cause, "user_lock_contention");
	assert_string_equal(b->cause, a->cause);
	assert_float_equal(b->share, a->share, EPS);
	assert_float_equal(b->confidence, a->confidence, EPS);
	assert_string_equal(b->title, a->title);
	assert_string_equal(b->evidence[0], a->evidence[0]);
	assert_true(any_evidence(a, "table_lock: 400.0 k waits by 8 threads"));
	assert_string_equal(mine->d.fix, theirs->d.fix);
	/* the program's own hold clocks: extra evidence, and a fix from them */
	for (unsigned i = 0; i < NT; i++) {
		mine->ts[i].lock_acquires = 50000;
		mine->ts[i].lock_hold_ns = 200000000;
	}
	fx_total(mine);
	assert_true(explain_run(&mine->m, &mine->d) >= 1);
	assert_true(any_evidence(a, "By the program's own clocks it was taken 400.0 k times and "
				 "held 4.00 µs each"));
	assert_true(has_text(mine->d.fix, "Hold the lock for less than 4.00 µs at a time"));
	show(mine);
	free(mine);
	free(theirs);
}

/* A lock whose holders mostly wait for another lock: the chain's lock is
 * named in the title and the fix. */
static void test_lock_chain(void **state)
{
	struct fx *x = fx_new("chain", NT, true);
	struct lock_name name = { .name = "outer_lock (mutex)", .is_lock = true };
	struct diag_cause *c = &x->d.causes[0];
	struct lock_holders *h;

	x->m.names = &name;
	x->m.nnames = 1;
	x->m.groups |= PG_MASK(PG_HOLDERS);
	fx_account(x, 0.15, 0.60, 0.01, 0.14);
	fx_total(x);
	fx_lock(x, "outer_lock (mutex)", false, 4000, (uint64_t)(0.60 * NT * WALL));
	x->locks[0].is_lock = true;
	h = &x->locks[0].holders;
	*h = (struct lock_holders){ .measured = true, .words = 1, .held_ns = 1.6e9,
		.state_ns = { [HS_WAITING] = 1.5e9, [HS_USER] = 0.1e9 },
		.waited_ns = { [HS_WAITING] = 8e9 }, .waiter_ns = (double)x->locks[0].wait_ns,
		.syscalls = 4000, .nnr = 1, .nr = { { 202, 4000, 1.5e9 } }, .nchain = 2,
		.chain = { { .lock = "inner_lock (mutex)", .is_lock = true, .count = 3000,
			     .ns = 1.2e9 },
			   { .lock = "monitor Other", .is_lock = true, .count = 1000,
			     .ns = 0.3e9 } } };
	assert_true(explain_run(&x->m, &x->d) >= 1);
	show(x);
	assert_true(has_text(c->title, "waiting for another lock (mostly inner_lock (mutex))"));
	assert_true(has_text(x->d.fix, "Holders of outer_lock (mutex) wait for inner_lock (mutex)"));
	free(x);
}

/* A Java monitor whose holders were not measured: the reason the session
 * found, or that none of its blocking enters was watched. */
static void test_monitor_holders_unmeasured(void **state)
{
	struct fx *x = fx_new("jvm", NT, true);
	const char *name = "monitor Store$Table @ Store.get(Store.java:12)";
	struct lock_name ln = { .is_lock = true };

	snprintf(ln.name, sizeof(ln.name), "%s", name);
	x->m.names = &ln;	/* another program's run */
	x->m.nnames = 1;
	x->m.groups |= PG_MASK(PG_HOLDERS);
	fx_account(x, 0.15, 0.60, 0.01, 0.14);
	fx_total(x);
	fx_lock(x, name, false, 4000, (uint64_t)(0.60 * NT * WALL));
	x->locks[0].is_lock = true;
	x->locks[0].kind = LK_MONITOR;
	x->m.jvm_holders = (struct jvm_holders_off){ .why = JH_NO_VMSTRUCTS, .err = -ENOENT };
	assert_true(explain_run(&x->m, &x->d) >= 1);
	show(x);
	assert_true(any_evidence(&x->d.causes[0], "not measured: the JVM's field offsets"));
	x->m.jvm_holders.why = JH_RAN;
	assert_true(explain_run(&x->m, &x->d) >= 1);
	assert_true(any_evidence(&x->d.causes[0], "none of its blocking enters was seen"));
	free(x);
}

/* ---- who removed the pages (pc-evict) ------------------------------------- */

/* A program fctrace did not write, 2 threads asleep on disk reads 40 %
 * of the time: 200 k pages missed, `reread` of them removed before by
 * the one remover r (none when r is NULL). */
static struct fx *fx_evicted(const struct pc_eviction *r, uint64_t reread)
{
	static const struct lock_name none[1];
	struct fx *x = fx_new("fc", 2, true);
	struct pc_evictions *e = &x->m.evictions;

	x->m.names = none;	/* another program's run */
	fx_account(x, 0.10, 0.0, 0.40, 0.02);
	for (unsigned i = 0; i < 2; i++) {
		x->rows[i].pagecache_misses = 100000;
		x->rows[i].k.blocked_io_ns = (uint64_t)(0.40 * WALL);
	}
	fx_total(x);
	x->m.nr_total[221].count = 50000;	/* fadvise64 */
	e->on = true;
	e->reread_pages = reread;
	e->first_pages = 200000 - reread;
	e->avail_kb[0] = e->avail_kb[1] = 3 << 20;
	if (r) {
		e->e[0] = e->by_comm[0] = *r;
		e->n = e->n_by_comm = 1;
	}
	assert_true(explain_run(&x->m, &x->d) >= 1);
	assert_string_equal(x->d.causes[0].cause, "page_cache_misses");
	show(x);
	return x;
}

static bool diag_says(const struct diagnosis *d, const char *needle)
{
	char all[8192] = "";

	for (int i = 0; i < d->n; i++)
		for (int j = 0; j < d->causes[i].nevidence; j++)
			strncat(all, d->causes[i].evidence[j], sizeof(all) - strlen(all) - 1);
	strncat(all, d->fix, sizeof(all) - strlen(all) - 1);
	return strstr(all, needle) != NULL;
}

static void test_pc_own_fadvise(void **state)
{
	const struct pc_eviction r = { .comm = "fio", .pid = 4242, .how = FCT_EV_FADVISE,
		.nr = 221, .target = true, .traced = true, .pages = 200000, .reread_pages = 196000,
		.npids = 8 };
	struct fx *x = fx_evicted(&r, 196000);

	assert_true(any_evidence(&x->d.causes[0], "fio dropped its own pages: 50.0 k fadvise64 "
				 "calls removed 200.0 k pages"));
	assert_true(any_evidence(&x->d.causes[0], "196.0 k (98.0 %) had been in the page cache"));
	assert_true(has_text(x->d.fix, "Stop fio dropping its own page cache"));
	assert_false(diag_says(&x->d, "pressure"));
	free(x);
}

static void test_pc_other_process(void **state)
{
	const struct pc_eviction r = { .comm = "cache-dropper", .pid = 812,
		.how = FCT_EV_FADVISE, .nr = 221, .pages = 150000, .reread_pages = 140000,
		.npids = 1 };
	struct fx *x = fx_evicted(&r, 140000);

	assert_true(any_evidence(&x->d.causes[0], "cache-dropper (pid 812), another process, "
				 "removed 150.0 k pages"));
	assert_true(has_text(x->d.fix, "Stop cache-dropper (pid 812) removing these files"));
	assert_false(diag_says(&x->d, "pressure"));
	free(x);
}

static void test_pc_kswapd(void **state)
{
	const struct pc_eviction r = { .comm = "kswapd0", .pid = 90, .how = FCT_EV_RECLAIM,
		.nr = FCT_EV_NO_NR, .kswapd = true, .kthread = true, .pages = 180000,
		.reread_pages = 170000, .npids = 1 };
	struct fx *x = fx_evicted(&r, 170000);

	assert_true(any_evidence(&x->d.causes[0], "kswapd reclaimed 180.0 k pages of these files "
				 "under memory pressure"));
	assert_true(any_evidence(&x->d.causes[0], "3072 MiB available at the window's start"));
	assert_true(has_text(x->d.fix, "Give the program's files room in memory"));
	free(x);
}

static void test_pc_drop_caches(void **state)
{
	const struct pc_eviction r = { .comm = "sh", .pid = 77, .how = FCT_EV_DROP_CACHES,
		.nr = 1, .pages = 120000, .reread_pages = 110000, .npids = 1 };
	struct fx *x = fx_evicted(&r, 110000);

	assert_true(any_evidence(&x->d.causes[0], "sh (pid 77) wrote to /proc/sys/vm/drop_caches"));
	assert_true(has_text(x->d.fix, "Do not write to /proc/sys/vm/drop_caches"));
	free(x);
}

static void test_pc_first_reads(void **state)
{
	struct fx *x = fx_evicted(NULL, 0);

	assert_true(any_evidence(&x->d.causes[0], "200.0 k (100.0 %) were first reads"));
	assert_true(has_text(x->d.fix, "First reads: the files were not in the page cache yet"));
	assert_false(diag_says(&x->d, "pressure"));
	free(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pool_serialisation_kernel),
		cmocka_unit_test(test_pool_serialisation_timing_only),
		cmocka_unit_test(test_pool_contention_without_syscalls),
		cmocka_unit_test(test_pool_rare_misses),
		cmocka_unit_test(test_sibling_wait_one_way),
		cmocka_unit_test(test_cache_lock_contention),
		cmocka_unit_test(test_fix_from_code_cause),
		cmocka_unit_test(test_sharded_cache_fix),
		cmocka_unit_test(test_lockfree_hits_fix),
		cmocka_unit_test(test_page_cache_misses),
		cmocka_unit_test(test_page_cache_misses_any_program),
		cmocka_unit_test(test_block_cache_too_small),
		cmocka_unit_test(test_block_cache_counts_the_waits_it_ends),
		cmocka_unit_test(test_setting_fix_beside_code_fix),
		cmocka_unit_test(test_lock_leaves_waits_to_block_cache),
		cmocka_unit_test(test_connections_not_kept),
		cmocka_unit_test(test_lock_held_disk),
		cmocka_unit_test(test_connections_knob),
		cmocka_unit_test(test_proxy_pool),
		cmocka_unit_test(test_connections_few),
		cmocka_unit_test(test_handle_cache_after_blocks),
		cmocka_unit_test(test_block_cache_innodb_margin),
		cmocka_unit_test(test_disk_reads_beside_block_cache),
		cmocka_unit_test(test_disk_reads_alone),
		cmocka_unit_test(test_block_cache_few_rereads),
		cmocka_unit_test(test_block_cache_below_floor),
		cmocka_unit_test(test_cpu_oversubscription),
		cmocka_unit_test(test_cpu_competition),
		cmocka_unit_test(test_cpu_taken_by_others),
		cmocka_unit_test(test_cpu_shares_over_samples_window),
		cmocka_unit_test(test_losses_lower_confidence),
		cmocka_unit_test(test_confidence_floor),
		cmocka_unit_test(test_kernel_lock_contention),
		cmocka_unit_test(test_healthy_kernel),
		cmocka_unit_test(test_healthy_timing_only),
		cmocka_unit_test(test_zero_ops_not_healthy),
		cmocka_unit_test(test_threshold),
		cmocka_unit_test(test_empty_model),
		cmocka_unit_test(test_json_keys),
		cmocka_unit_test(test_print),
		cmocka_unit_test(test_pool_held_chain),
		cmocka_unit_test(test_pool_held_first_opens_only),
		cmocka_unit_test(test_other_lock_held),
		cmocka_unit_test(test_lock_chain),
		cmocka_unit_test(test_monitor_holders_unmeasured),
		cmocka_unit_test(test_same_lock_whoever),
		cmocka_unit_test(test_pc_own_fadvise),
		cmocka_unit_test(test_pc_other_process),
		cmocka_unit_test(test_pc_kswapd),
		cmocka_unit_test(test_pc_drop_caches),
		cmocka_unit_test(test_pc_first_reads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
