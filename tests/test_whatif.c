/*
 * test_whatif.c - the pool model: hand-computed predictions (exact
 * arithmetic), the crossover with fc, and the parameters read off a
 * hand-built run.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "whatif.h"

/* t_miss 4 µs, t_hit 0.5 µs, 1.5 µs outside, fc 4 µs, 2 CPUs, pool 50. */
static struct whatif_params params(void)
{
	return (struct whatif_params){
		.t_miss_ns = 4000, .t_hit_ns = 500, .t_outside_ns = 1500, .t_fc_ns = 4000,
		.ncpus = 2, .pool = 50, .files = 100, .threads = 8, .ops_per_thread = 1000,
	};
}

static void test_miss_ratio(void **state)
{
	assert_true(whatif_miss_ratio(50, 10) == 0);
	assert_true(whatif_miss_ratio(50, 50) == 0);
	assert_true(whatif_miss_ratio(50, 100) == 0.5);
	assert_true(whatif_miss_ratio(10, 100) == 0.9);
	assert_true(whatif_miss_ratio(50, 200) == 0.75);
}

/*
 * 100 files: m = 0.5, S = 0.5 x 4000 + 0.5 x 500 = 2250, S + P = 3750.
 * Per op: max(3750 / 8, 3750 / 2, 2250) = 2250, the lock: 8 x 1000 x 2250.
 */
static void test_lock_bound(void **state)
{
	struct whatif_params p = params();

	assert_true(whatif_predict_wall_ns(&p, 50, 100, 8) == 18000000.0);
	/* a pool of 10: m = 0.9, S = 3650, per op max(5150 / 2, 3650) = 3650 */
	assert_true(whatif_predict_wall_ns(&p, 10, 100, 8) == 29200000.0);
}

/* 50 files fit: S = 500, S + P = 2000; 8 threads on 2 CPUs: 2000 / 2 per op. */
static void test_cpu_bound(void **state)
{
	struct whatif_params p = params();

	assert_true(whatif_predict_wall_ns(&p, 50, 50, 8) == 8000000.0);
	assert_true(whatif_predict_wall_ns(&p, 50, 10, 8) == 8000000.0);
	/* the CPU part alone sets the CPU cap: (500 + 500) / 2 = 500 = S */
	p.t_outside_cpu_ns = 500;
	assert_true(whatif_predict_wall_ns(&p, 50, 50, 8) == 4000000.0);
}

/* One thread never waits: per op S + P = 2000. */
static void test_thread_bound(void **state)
{
	struct whatif_params p = params();

	assert_true(whatif_predict_wall_ns(&p, 50, 50, 1) == 2000000.0);
	assert_true(whatif_predict_wall_ns(&p, 50, 100, 1) == 3750000.0);
	assert_true(whatif_predict_wall_ns(&p, 50, 100, 0) == 0);
}

/* fc: t_fc / min(T, K) per op. */
static void test_fc(void **state)
{
	struct whatif_params p = params();

	assert_true(whatif_predict_fc_wall_ns(&p, 100, 8) == 16000000.0);
	assert_true(whatif_predict_fc_wall_ns(&p, 100, 1) == 4000000.0);
	assert_true(whatif_predict_fc_wall_ns(&p, 100, 2) == 4000000.0);
}

/*
 * 8 threads: fc takes 2000 per op. The pool's S reaches it when
 * 500 + 3500 m > 2000, m > 3/7, N > 87.5: 88 files.
 * 1 thread: fc 4000 per op, the pool S + 1500 > 4000 when m > 4/7,
 * N > 116.7: 117 files.
 */
static void test_crossover(void **state)
{
	struct whatif_params p = params();

	assert_int_equal(whatif_crossover_files(&p, 8), 88);
	assert_true(whatif_predict_wall_ns(&p, 50, 87, 8) <= whatif_predict_fc_wall_ns(&p, 87, 8));
	assert_int_equal(whatif_crossover_files(&p, 1), 117);
	p.t_fc_ns = 0;
	assert_int_equal(whatif_crossover_files(&p, 8), -1);
	p.t_fc_ns = 1e9;
	assert_int_equal(whatif_crossover_files(&p, 8), -1);
	p.t_fc_ns = 100;	/* fc faster even when every file fits */
	assert_int_equal(whatif_crossover_files(&p, 8), 1);
}

/* Two threads, 1000 ops each, half of them misses with 3 syscalls inside. */
struct fx {
	struct wl_result res;
	struct thread_row rows[2];
	struct kview kv;
	struct run_model m;
};

static struct fx *fx_pool(bool kernel)
{
	struct fx *x = calloc(1, sizeof(*x));

	x->res.cfg = (struct wl_config){ .workload = "fcp", .files = 100, .pool = 50, .threads = 2 };
	x->res.totals.has_pool = true;
	x->m = (struct run_model){ .res = &x->res, .kv = kernel ? &x->kv : NULL,
				   .groups = kernel ? PG_FULL : 0, .ncpus = 2, .wall_ns = 5000000,
				   .rows = x->rows, .nrows = 2, .ops = 2000,
				   .thread_wall_total_ns = 10000000 };
	for (int i = 0; i < 2; i++) {
		x->rows[i].has_kernel = kernel;
		x->rows[i].user = (struct wl_thread_stats){
			.ops = 1000, .hits = 500, .misses = 500, .syscalls_in_lock = 1500,
			.lock_acquires = 2000, .lock_hold_ns = 2500000, .lock_wait_ns = 1000000,
			.end_ns = 5000000 };
	}
	return x;
}

static void fx_sc(struct fx *x, enum fct_sc s, uint64_t count, uint64_t total)
{
	x->m.sc_total[s] = (struct fct_sc_stats){ .count = count, .total_ns = total };
}

/*
 * Syscalls inside the lock: 1 + 2 + 1 ms = 4 ms of the 5 ms held.
 * t_hit = 1 ms / 2000 ops = 500, t_miss = 500 + 4 ms / 1000 misses = 4500,
 * outside = (10 - 2 wait - 5 held) ms / 2000 = 1500,
 * fc = open 2000 + close 1000 + 1500 outside = 4500.
 */
static void test_from_model_kernel(void **state)
{
	struct fx *x = fx_pool(true);
	struct whatif_params p;

	fx_sc(x, FCT_SC_NEWFSTATAT, 1000, 1000000);
	fx_sc(x, FCT_SC_OPENAT, 1000, 2000000);
	fx_sc(x, FCT_SC_CLOSE, 1000, 1000000);
	assert_int_equal(whatif_from_model(&x->m, &p), 0);
	assert_true(p.t_hit_ns == 500);
	assert_true(p.t_miss_ns == 4500);
	assert_true(p.t_outside_ns == 1500);
	assert_true(p.t_fc_ns == 4500);
	assert_null(p.split_note);
	assert_int_equal(p.pool, 50);
	assert_int_equal(p.files, 100);
	assert_int_equal(p.threads, 2);
	assert_int_equal(p.ncpus, 2);
	assert_true(p.ops_per_thread == 1000);
	assert_true(p.measured_miss_ratio == 0.5);
	assert_true(p.measured_wall_ns == 5000000);
	free(x);
}

/* Timing only: a miss is taken to hold all of it; no fc estimate. */
static void test_from_model_timing_only(void **state)
{
	struct fx *x = fx_pool(false);
	struct whatif_params p;

	assert_int_equal(whatif_from_model(&x->m, &p), 0);
	assert_true(p.t_hit_ns == 0);
	assert_true(p.t_miss_ns == 5000);
	assert_true(p.t_fc_ns == 0);
	assert_non_null(p.split_note);
	assert_int_equal(whatif_crossover_files(&p, 2), -1);
	free(x);
}

static void test_not_a_pool(void **state)
{
	struct fx *x = fx_pool(false);
	struct whatif_params p;

	x->res.totals.has_pool = false;
	assert_int_equal(whatif_from_model(&x->m, &p), -1);
	x->res.totals.has_pool = true;
	x->m.nrows = 0;
	assert_int_equal(whatif_from_model(&x->m, &p), -1);
	free(x);
}

/* An fc run: 8 threads on 2 CPUs, 16 ms for 8000 ops: 4 µs per op per CPU. */
static void test_set_fc(void **state)
{
	struct whatif_params p = params();
	struct run_model fc = { .ncpus = 2, .nrows = 8, .ops = 8000, .wall_ns = 16000000 };

	p.t_fc_ns = 0;
	assert_int_equal(whatif_set_fc(&p, &fc), 0);
	assert_true(p.t_fc_ns == 4000);
	assert_string_equal(p.fc_source, "an fc run");
	fc.ops = 0;
	assert_int_equal(whatif_set_fc(&p, &fc), -1);
}

static void test_print(void **state)
{
	struct whatif_params p = params();
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	p.measured_wall_ns = 22500000;
	p.fc_source = "an fc run";
	whatif_print(f, &p);
	fclose(f);
	assert_non_null(strstr(text, "Model: serial time per op = 0.50 x 4.00 µs (miss) + "
			       "0.50 x 500 ns (hit) = 2.25 µs"));
	assert_non_null(strstr(text, "predicts 18.0 ms for 8000 ops"));
	assert_non_null(strstr(text, "(measured 22.5 ms, +25 %)"));
	assert_non_null(strstr(text, "predicted at 88 files for 8 threads"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_miss_ratio),
		cmocka_unit_test(test_lock_bound),
		cmocka_unit_test(test_cpu_bound),
		cmocka_unit_test(test_thread_bound),
		cmocka_unit_test(test_fc),
		cmocka_unit_test(test_crossover),
		cmocka_unit_test(test_from_model_kernel),
		cmocka_unit_test(test_from_model_timing_only),
		cmocka_unit_test(test_not_a_pool),
		cmocka_unit_test(test_set_fc),
		cmocka_unit_test(test_print),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
