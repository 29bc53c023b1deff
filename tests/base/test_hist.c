/*
 * test_hist.c - the log-linear histogram layout (bpf/histlog.h) and the
 * percentiles read from it (user/base/hist.c), against known samples whose
 * exact percentiles are computed here by sorting.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "histlog.h"
#include "base/hist.h"
#include "fctrace.h"	/* FCT_HIST_SLOTS */
#include "workload.h"	/* WL_HIST_SLOTS */

/* Slots of a few values, worked out by hand from the layout's formula. */
static void test_known_slots(void **state)
{
	assert_int_equal(fct_hist_slot(0, WL_HIST_SLOTS), 0);
	assert_int_equal(fct_hist_slot(7, WL_HIST_SLOTS), 7);
	assert_int_equal(fct_hist_slot(15, WL_HIST_SLOTS), 15);
	assert_int_equal(fct_hist_slot(16, WL_HIST_SLOTS), 16);
	assert_int_equal(fct_hist_slot(17, WL_HIST_SLOTS), 16);
	assert_int_equal(fct_hist_slot(18, WL_HIST_SLOTS), 17);
	/* 1000 = 2^9 * 1.953: k = 9, (1000 >> 6) & 7 = 7, slot 7 * 8 + 7 */
	assert_int_equal(fct_hist_slot(1000, WL_HIST_SLOTS), 63);
	assert_int_equal(hist_slot_lower(63), 960);
	assert_int_equal(hist_slot_width(63), 64);
	/* the ranges: the BPF histograms to 2^32 ns, the workloads' to 2^40 */
	assert_int_equal(FCT_HIST_SLOTS, 240);
	assert_int_equal(fct_hist_slot((1ull << 32) - 1, FCT_HIST_SLOTS), FCT_HIST_SLOTS - 1);
	assert_int_equal(fct_hist_slot(1ull << 32, FCT_HIST_SLOTS), FCT_HIST_SLOTS - 1);
	assert_int_equal(fct_hist_slot((1ull << 40) - 1, WL_HIST_SLOTS), WL_HIST_SLOTS - 1);
	assert_int_equal(fct_hist_slot(UINT64_MAX, WL_HIST_SLOTS), WL_HIST_SLOTS - 1);
}

/* Every value lands in the slot whose range holds it, slots never go
 * back, and no slot past the exact ones is wider than 1/8 of its lower
 * edge. Checked on every value to 2^16 and on each power's edges above. */
static void check_value(uint64_t v, unsigned *prev)
{
	unsigned s = fct_hist_slot(v, WL_HIST_SLOTS);
	uint64_t lo = hist_slot_lower(s), w = hist_slot_width(s);

	assert_true(lo <= v && v - lo < w);
	assert_true(s >= *prev);
	if (s >= 2 * FCT_HIST_SUB)
		assert_true(w * FCT_HIST_SUB <= lo);
	*prev = s;
}

static void test_slots_hold_their_values(void **state)
{
	unsigned prev = 0;

	for (uint64_t v = 0; v < (1u << 16); v++)
		check_value(v, &prev);
	for (unsigned k = 16; k < 40; k++) {
		check_value((1ull << k) - 1, &prev);
		check_value(1ull << k, &prev);
		check_value((1ull << k) + (1ull << (k - 4)), &prev);
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The nearest-rank percentile of n sorted values. */
static uint64_t exact_percentile(const uint64_t *sorted, unsigned n, double p)
{
	unsigned rank = (unsigned)(p * n + 0.999999);

	return sorted[rank ? rank - 1 : 0];
}

/* p50 and p99 of n values from the histogram against the exact ones:
 * within half a slot, 1/16 of the value (the brief asks 10 %). */
static void check_percentiles(uint64_t *v, unsigned n)
{
	static uint64_t hist[WL_HIST_SLOTS];
	static uint32_t hist32[FCT_HIST_SLOTS];
	const double ps[] = { 0.5, 0.9, 0.99 };
	uint64_t max = 0;

	for (unsigned i = 0; i < WL_HIST_SLOTS; i++)
		hist[i] = 0;
	for (unsigned i = 0; i < FCT_HIST_SLOTS; i++)
		hist32[i] = 0;
	for (unsigned i = 0; i < n; i++) {
		hist[fct_hist_slot(v[i], WL_HIST_SLOTS)]++;
		hist32[fct_hist_slot(v[i], FCT_HIST_SLOTS)]++;
		max = v[i] > max ? v[i] : max;
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	for (unsigned i = 0; i < sizeof(ps) / sizeof(*ps); i++) {
		uint64_t x = exact_percentile(v, n, ps[i]);
		uint64_t got = hist_percentile(hist, WL_HIST_SLOTS, ps[i], max);
		uint64_t got32 = hist32_percentile(hist32, FCT_HIST_SLOTS, ps[i], max);
		uint64_t err = got > x ? got - x : x - got;

		print_message("p%g: exact %llu, from the histogram %llu\n", ps[i] * 100,
			      (unsigned long long)x, (unsigned long long)got);
		assert_true(err * 16 <= x);
		assert_int_equal(got32, got);
	}
}

/* 1000 values evenly spaced, 1 us to 38 us: p99 is the 990th, 37.6 us;
 * the old log2 histogram read it as 65.5 us (the bucket's upper edge). */
static void test_percentiles_linear(void **state)
{
	uint64_t v[1000];

	for (unsigned i = 0; i < 1000; i++)
		v[i] = 1000 + 37 * (uint64_t)((i * 617) % 1000);	/* shuffled */
	check_percentiles(v, 1000);
}

/* 1000 values growing 1 % each, 1 us to 21 ms: a long tail. */
static void test_percentiles_geometric(void **state)
{
	uint64_t v[1000];
	double x = 1000;

	for (unsigned i = 0; i < 1000; i++, x *= 1.01)
		v[i] = (uint64_t)x;
	check_percentiles(v, 1000);
}

/* All values equal, just above a power of two: the worst case of the
 * log2 upper edge (2x); here the maximum caps it, and without a maximum
 * the midpoint is within 1/16. */
static void test_percentile_just_above_power(void **state)
{
	uint64_t hist[WL_HIST_SLOTS] = { 0 };
	uint64_t got;

	hist[fct_hist_slot(1025, WL_HIST_SLOTS)] = 1000;
	assert_int_equal(hist_percentile(hist, WL_HIST_SLOTS, 0.99, 1025), 1025);
	got = hist_percentile(hist, WL_HIST_SLOTS, 0.99, 0);
	assert_true(got >= 1025 && (got - 1025) * 16 <= 1025);
}

/* The last slot holds everything above the range: it answers max. */
static void test_last_slot_answers_max(void **state)
{
	uint32_t hist[FCT_HIST_SLOTS] = { 0 };

	hist[fct_hist_slot(10ull << 32, FCT_HIST_SLOTS)] = 3;
	assert_int_equal(hist32_percentile(hist, FCT_HIST_SLOTS, 0.99, 10ull << 32), 10ull << 32);
	assert_int_equal(hist32_percentile(hist, FCT_HIST_SLOTS, 0.5, 0),
			 hist_slot_lower(FCT_HIST_SLOTS - 1) + (hist_slot_width(FCT_HIST_SLOTS - 1) - 1) / 2);
	assert_int_equal(hist32_percentile((uint32_t[4]){ 0 }, 4, 0.5, 9), 0);	/* empty */
}

/* A chart's per-power bars add up to the histogram. */
static void test_fold_log2(void **state)
{
	uint64_t hist[WL_HIST_SLOTS] = { 0 }, pow2[40];
	const uint64_t vals[] = { 0, 1, 2, 3, 1000, 1023, 1024, 1ull << 45 };

	for (unsigned i = 0; i < sizeof(vals) / sizeof(*vals); i++)
		hist[fct_hist_slot(vals[i], WL_HIST_SLOTS)]++;
	hist_fold_log2(hist, WL_HIST_SLOTS, pow2, 40);
	assert_int_equal(pow2[0], 2);	/* 0 and 1 */
	assert_int_equal(pow2[1], 2);	/* 2 and 3 */
	assert_int_equal(pow2[9], 2);	/* 1000, 1023 */
	assert_int_equal(pow2[10], 1);
	assert_int_equal(pow2[39], 1);	/* 2^45 in the last */
}

/*
 * Interpolated quantiles: 100 values in the slot [8192, 9216) and 100 in
 * [9216, 10240). The median is the last value of the first slot: its top
 * edge, 9216; the 75th percentile half-way through the second, 9728.
 * Nearest rank would answer 8703 and 9727 - a slot's width apart, where
 * the interpolated values move smoothly.
 */
static void test_quantile_interpolates(void **state)
{
	uint64_t h[WL_HIST_SLOTS] = { 0 };
	uint32_t h32[FCT_HIST_SLOTS] = { 0 };
	unsigned a = fct_hist_slot(8192, WL_HIST_SLOTS), b = fct_hist_slot(9216, WL_HIST_SLOTS);

	assert_int_equal(hist_slot_width(a), 1024);
	h[a] = h[b] = 100;
	h32[a] = h32[b] = 100;
	assert_true(hist_quantile(h, WL_HIST_SLOTS, 0.5) == 9216);
	assert_true(hist_quantile(h, WL_HIST_SLOTS, 0.75) == 9728);
	assert_true(hist_quantile(h, WL_HIST_SLOTS, 0.25) == 8704);
	assert_true(hist32_quantile(h32, FCT_HIST_SLOTS, 0.75) == 9728);
	memset(h, 0, sizeof(h));
	assert_true(hist_quantile(h, WL_HIST_SLOTS, 0.5) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_slots),
		cmocka_unit_test(test_slots_hold_their_values),
		cmocka_unit_test(test_percentiles_linear),
		cmocka_unit_test(test_percentiles_geometric),
		cmocka_unit_test(test_percentile_just_above_power),
		cmocka_unit_test(test_last_slot_answers_max),
		cmocka_unit_test(test_fold_log2),
		cmocka_unit_test(test_quantile_interpolates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
