/*
 * test_whatif.c - the pool model (user/explain/whatif.c) on synthetic inputs
 * whose answers are worked out by hand: an uncontended lock, a lock
 * that serialises everything, CPU-bound contention, one CPU, the
 * crossover with fc, and a hand-built run that the fit must give back.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <cmocka.h>
#include <json-c/json.h>
#include "base/hist.h"
#include "report/whatif_print.h"

/* A hit 2 µs, a miss 10 µs; open 1 µs, close 0.5 µs, stat 1 µs; only a
 * miss holds the lock, for 8 µs. */
static struct whatif_params params(void)
{
	return (struct whatif_params){
		.hit_ns = 2000, .miss_ns = 10000, .open_ns = 1000, .close_ns = 500,
		.hold_miss_ns = 8000,
		.stat_ns = 1000, .idle_share = 1, .kind = WHATIF_POOL, .workload = "fcp",
		.pool = 50, .files = 100, .threads = 8, .ncpus = 2, .ops_per_thread = 1000,
		.have = WHATIF_HAVE_MISS | WHATIF_HAVE_SYSCALLS,
	};
}

static double op_ns(const struct whatif_params *p, enum whatif_kind k, unsigned files,
		    unsigned threads, unsigned ncpus)
{
	struct whatif_cell c = { k, 50, files, threads, ncpus };

	return whatif_op_ns(p, &c);
}

static void assert_near(double got, double want)
{
	if (fabs(got - want) > 1e-4 * fabs(want))
		fail_msg("got %.6f, want %.6f", got, want);
}

static void test_miss_ratio(void **state)
{
	assert_true(whatif_miss_ratio(50, 10) == 0);
	assert_true(whatif_miss_ratio(50, 50) == 0);
	assert_true(whatif_miss_ratio(50, 100) == 0.5);
	assert_true(whatif_miss_ratio(10, 100) == 0.9);
}

/* One thread: an op alone, whatever the kind. 100 files: m = 0.5,
 * 0.5 x 2000 + 0.5 x 10000 = 6000; fc = 2000 + 1000 + 500. */
static void test_one_thread(void **state)
{
	struct whatif_params p = params();

	assert_true(op_ns(&p, WHATIF_POOL, 100, 1, 2) == 6000);
	assert_true(op_ns(&p, WHATIF_POOL_FIXED, 100, 1, 2) == 6000);
	assert_true(op_ns(&p, WHATIF_POOL, 10, 1, 2) == 2000);
	assert_true(op_ns(&p, WHATIF_FC, 100, 1, 2) == 3500);
	assert_true(op_ns(&p, WHATIF_POOL, 100, 0, 2) == 0);
}

/*
 * A lock that serialises: fcp at 100 files holds it 0.5 x 8000 = 4000 per
 * op of 6000, and with g = 1 it is idle whenever its holder is outside
 * it: max(6000 / 2, 4000 + 1 x 1 x 2000) = 6000, one op at a time however
 * many threads. With g = 0 the CPUs bound it instead: 6000 / 2.
 */
static void test_saturated_lock(void **state)
{
	struct whatif_params p = params();
	struct whatif_cell c = { WHATIF_POOL, 50, 100, 8, 2 };

	assert_near(op_ns(&p, WHATIF_POOL, 100, 8, 2), 6000);
	assert_near(whatif_wall_ns(&p, &c, 1000), 8 * 1000 * 6000.0);
	p.idle_share = 0;
	assert_near(op_ns(&p, WHATIF_POOL, 100, 8, 2), 4000);
	/* fcp-fixed holds nothing across syscalls: the CPUs bound it */
	p.idle_share = 1;
	assert_near(op_ns(&p, WHATIF_POOL_FIXED, 100, 8, 2), 3000);
}

/*
 * CPU-bound contention, fcp-fixed at 10 files (m = 0, 2 acquisitions of
 * 250 each): h = 500. 8 threads on 2 CPUs keep both busy, so one thread
 * runs beside the holder and finds the lock taken for h of its C:
 * waits = 0.5 x (500 / C) x 2 x 1, and C = 2000 + waits x 10000, so
 * C^2 - 2000 C - 5e6 = 0 and wall = C / 2. With 2 threads on 2 CPUs a
 * woken waiter retries at once: waits x 1 / (1 - U), U = 500 / (C / 2),
 * and (C - 2000)(C - 1000) = 5e6.
 */
static void test_contention(void **state)
{
	struct whatif_params p = params();

	p.hold_hit_ns = p.hold_put_ns = 250;
	p.wait_rate = 0.5;
	p.wait_cpu_ns = 10000;
	assert_near(op_ns(&p, WHATIF_POOL_FIXED, 10, 8, 2), (2000 + sqrt(2.4e7)) / 4);
	assert_near(op_ns(&p, WHATIF_POOL_FIXED, 10, 2, 2), (3000 + sqrt(2.1e7)) / 4);
	/* fc takes no lock: the CPUs share its ops */
	assert_near(op_ns(&p, WHATIF_FC, 10, 8, 2), 3500.0 / 2);
	assert_near(op_ns(&p, WHATIF_FC, 10, 2, 4), 3500.0 / 2);
}

/* One CPU: no other CPU to contend from, no hand-over, no convoy - the
 * threads take turns and an op costs what it costs alone. */
static void test_one_cpu(void **state)
{
	struct whatif_params p = params();

	p.hold_hit_ns = p.hold_put_ns = 250;
	p.wait_rate = 0.5;
	p.wait_cpu_ns = 10000;
	assert_near(op_ns(&p, WHATIF_POOL, 100, 8, 1), 6000);
	assert_near(op_ns(&p, WHATIF_POOL_FIXED, 10, 8, 1), 2000);
	assert_near(op_ns(&p, WHATIF_FC, 100, 8, 1), 3500);
}

/*
 * One thread, one CPU: fc 3500; fcp 2000 + 8000 m > 3500 when m > 3/16,
 * 1 - 50/N > 0.1875, N > 61.5: 62 files. 8 threads on 2 CPUs: fc 3500 / 2;
 * with g = 1 fcp runs one op at a time once it misses at all: at 51 files
 * 2000 + 8000 / 51 = 2157 > 1750, at 50 it runs 2000 / 2 on both CPUs.
 */
static void test_crossover(void **state)
{
	struct whatif_params p = params();

	assert_int_equal(whatif_crossover_files(&p, 50, 1, 1), 62);
	assert_true(op_ns(&p, WHATIF_POOL, 61, 1, 1) <= op_ns(&p, WHATIF_FC, 61, 1, 1));
	assert_int_equal(whatif_crossover_files(&p, 50, 8, 2), 51);
	p.open_ns = 0;		/* fc cannot be costed */
	assert_int_equal(whatif_crossover_files(&p, 50, 1, 1), -1);
	p = params();
	p.open_ns = 1e9;	/* fc never wins */
	assert_int_equal(whatif_crossover_files(&p, 50, 1, 1), -1);
}

/* A hand-built run: fcp, 100 files, 8 threads on 2 CPUs, 1000 ops each. */
struct fx {
	struct subject_timings res;	/* what the pool timed of itself */
	struct thread_row rows[8];
	struct thread_timings ts[8];	/* the rows' own */
	struct lock_total lock;
	struct kview kv;
	struct joined_run m;
};

static void fx_sc(struct fx *x, unsigned nr, uint64_t ns)
{
	struct sc_stats *st = &x->m.nr_total[nr];

	st->count = st->timed = 1000;
	st->max_ns = ns;
	st->hist[fct_hist_slot(ns, FCT_HIST_SLOTS)] = 1000;
}

static double median(uint64_t ns)
{
	uint32_t h[FCT_HIST_SLOTS] = { 0 };

	h[fct_hist_slot(ns, FCT_HIST_SLOTS)] = 1;
	return hist32_quantile(h, FCT_HIST_SLOTS, 0.5);
}

/*
 * Per op: held 4400 (a hit's get 200, a miss's 8200, a put 200: 0.5 x 200
 * + 0.5 x 8200 + 200), 8000 on CPU (6000 alone: 2000 for 0.1
 * waits, W = 20000), wall 7000.
 */
static struct fx *fx_run(void)
{
	struct fx *x = calloc(1, sizeof(*x));

	x->res.cfg = (struct subject_config){ .files = 100, .pool = 50,
					      .pool_shape = POOL_MISS_IN_LOCK };
	x->res.totals.has_pool = true;
	x->lock = (struct lock_total){ .name = "fcp.pool", .is_lock = true, .waits = 800 };
	x->m = (struct joined_run){ .subject = "fcp", .timings = &x->res, .kv = &x->kv, .groups = PG_FULL, .ncpus = 2,
				   .wall_ns = 56000000, .rows = x->rows, .nrows = 8, .ops = 8000,
				   .locks = &x->lock, .nlocks = 1, .op_hit_p50_ns = 2000,
				   .op_miss_p50_ns = 10000, .read_p50_ns = 2500,
				   .hold_hit_ns = 200, .hold_miss_ns = 8200, .hold_put_ns = 200 };
	x->m.acct_total_ns[ACCT_CPU_USER] = 8000ull * 3000;
	x->m.acct_total_ns[ACCT_CPU_SYS] = 8000ull * 5000;
	for (int i = 0; i < 8; i++) {
		x->ts[i] = (struct thread_timings){ .ops = 1000, .hits = 500, .misses = 500,
			.lock_acquires = 2000, .lock_hold_ns = 1000ull * 4400 };
		x->rows[i].own = &x->ts[i];
	}
	fx_sc(x, __NR_pread64, 1000);
	fx_sc(x, __NR_openat, 900);
	fx_sc(x, __NR_close, 400);
	fx_sc(x, __NR_newfstatat, 800);
	return x;
}

static void test_fit(void **state)
{
	struct fx *x = fx_run();
	struct whatif_params p;
	double entry = 2500 - median(1000);

	assert_int_equal(whatif_from_model(&x->m, &p), 0);
	assert_int_equal(p.have, WHATIF_HAVE_MISS | WHATIF_HAVE_SYSCALLS | WHATIF_HAVE_CONTENTION |
				 WHATIF_HAVE_IDLE);
	assert_true(p.hit_ns == 2000 && p.miss_ns == 10000);
	assert_near(p.entry_ns, entry);
	assert_near(p.open_ns, median(900) + entry);
	assert_near(p.close_ns, median(400) + entry);
	assert_near(p.stat_ns, median(800) + entry);
	assert_true(p.hold_hit_ns == 200 && p.hold_miss_ns == 8200 && p.hold_put_ns == 200);
	assert_near(p.wait_cpu_ns, 20000);
	/* on CPU 8000 of every 7000 ns: 8/7 threads at a time, 1/7 beside the holder */
	assert_near(p.wait_rate, 0.1 / (4400.0 / 8000 * 2 * (8.0 / 7 - 1)));
	assert_near(p.idle_share, 2600 / (4000.0 / 4400 * 3600));
	free(x);
}

/* The fit gives the run back: its own settings predict its wall time. */
static void test_fit_reproduces_run(void **state)
{
	struct fx *x = fx_run();
	struct whatif_params p;
	struct whatif_cell self;

	assert_int_equal(whatif_from_model(&x->m, &p), 0);
	self = whatif_fitted_cell(&p);
	assert_near(whatif_wall_ns(&p, &self, p.ops_per_thread), 56000000);
	free(x);
}

/* What a run could not show is not invented: one CPU leaves contention
 * unmeasured (and its convoy at the worst case); too few misses make a
 * miss a hit plus its syscalls. */
static void test_fit_unmeasured(void **state)
{
	struct fx *x = fx_run();
	struct whatif_params p;

	x->m.ncpus = 1;
	for (int i = 0; i < 8; i++)
		x->ts[i].misses = 1;
	assert_int_equal(whatif_from_model(&x->m, &p), 0);
	assert_false(p.have & (WHATIF_HAVE_CONTENTION | WHATIF_HAVE_MISS));
	assert_true(p.wait_cpu_ns == 0 && p.wait_rate == 0 && p.idle_share == 1);
	assert_near(p.miss_ns, 2000 + p.stat_ns + p.open_ns + p.close_ns);
	/* no closes timed either (a pool that never evicted): neither a miss
	 * nor fc can be costed, and what would need them is not predicted */
	memset(&x->m.nr_total[__NR_close], 0, sizeof(x->m.nr_total[__NR_close]));
	assert_int_equal(whatif_from_model(&x->m, &p), 0);
	assert_false(p.have & WHATIF_HAVE_SYSCALLS);
	assert_true(p.miss_ns == 0 && p.open_ns == 0);
	assert_true(op_ns(&p, WHATIF_POOL, 100, 1, 1) == 0);
	assert_true(op_ns(&p, WHATIF_FC, 10, 1, 1) == 0);
	assert_true(op_ns(&p, WHATIF_POOL, 10, 1, 1) == 2000);
	assert_int_equal(whatif_crossover_files(&p, 50, 1, 1), -1);
	free(x);
}

/* One thread alone, measured beside the run: one-thread cells and fc are
 * costed at it, the contended cells as before, and the fit still gives the
 * run back. A calibration that could not miss scales the run's miss as its
 * hit was. */
static void test_fit_solo(void **state)
{
	struct fx *x = fx_run();
	struct whatif_params p, before;
	struct whatif_cell self;

	assert_int_equal(whatif_from_model(&x->m, &before), 0);
	x->res.solo = (struct solo_costs){ .hit_ns = 1000, .miss_ns = 6000, .fc_ns = 4000 };
	assert_int_equal(whatif_from_model(&x->m, &p), 0);
	assert_true(p.have & WHATIF_HAVE_SOLO);
	assert_near(op_ns(&p, WHATIF_POOL, 100, 1, 2), 0.5 * 1000 + 0.5 * 6000);
	assert_near(op_ns(&p, WHATIF_POOL, 10, 1, 2), 1000);
	assert_near(op_ns(&p, WHATIF_FC, 10, 1, 2), 4000);
	assert_near(op_ns(&p, WHATIF_FC, 10, 8, 2), 4000 / 2.0);
	assert_near(op_ns(&p, WHATIF_POOL, 100, 8, 2), op_ns(&before, WHATIF_POOL, 100, 8, 2));
	self = whatif_fitted_cell(&p);
	assert_near(whatif_wall_ns(&p, &self, p.ops_per_thread), 56000000);
	x->res.solo.miss_ns = 0;
	assert_int_equal(whatif_from_model(&x->m, &p), 0);
	assert_near(p.solo_miss_ns, 10000 * 1000 / 2000.0);
	x->res.solo.fc_ns = 0;		/* half a calibration: not used */
	assert_int_equal(whatif_from_model(&x->m, &p), 0);
	assert_false(p.have & WHATIF_HAVE_SOLO);
	assert_near(op_ns(&p, WHATIF_POOL, 10, 1, 2), 2000);
	free(x);
}

static void test_not_fitted(void **state)
{
	struct fx *x = fx_run();
	struct whatif_params p;

	x->res.cfg.pool_shape = POOL_SHAPE_UNKNOWN;	/* fc, or a program that did not say */
	assert_int_equal(whatif_from_model(&x->m, &p), -1);
	x->res.cfg.pool_shape = POOL_MISS_IN_LOCK;
	x->m.op_hit_p50_ns = 0;		/* saved before op costs were */
	assert_int_equal(whatif_from_model(&x->m, &p), -1);
	x->m.op_hit_p50_ns = 2000;
	x->m.nrows = 0;
	assert_int_equal(whatif_from_model(&x->m, &p), -1);
	free(x);
}

static void test_print_and_json(void **state)
{
	struct fx *x = fx_run();
	struct whatif_params p;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct json_object *o, *cases;

	assert_int_equal(whatif_from_model(&x->m, &p), 0);
	whatif_print(f, &p);
	fclose(f);
	assert_non_null(strstr(text, "a pool of 100, one channel per file"));
	assert_non_null(strstr(text, "fcp-fixed: ~"));
	assert_non_null(strstr(text, "1 CPU: ~"));
	assert_non_null(strstr(text, "fc overtakes fcp"));
	o = whatif_json(&p);
	assert_true(json_object_object_get_ex(o, "what_if", &cases));
	assert_int_equal(json_object_array_length(cases), 5);
	json_object_put(o);
	free(text);
	free(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_miss_ratio),
		cmocka_unit_test(test_one_thread),
		cmocka_unit_test(test_saturated_lock),
		cmocka_unit_test(test_contention),
		cmocka_unit_test(test_one_cpu),
		cmocka_unit_test(test_crossover),
		cmocka_unit_test(test_fit),
		cmocka_unit_test(test_fit_reproduces_run),
		cmocka_unit_test(test_fit_unmeasured),
		cmocka_unit_test(test_fit_solo),
		cmocka_unit_test(test_not_fitted),
		cmocka_unit_test(test_print_and_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
