/*
 * test_holders.c - the holders' partition of one watched word: a
 * preemption on a charged syscall's way back is the syscall's, and the
 * paths the kernel samples did not see move from the user samples by the
 * shortest exit-to-entry spans measured, never past them; the exact spans
 * between calls are the calls', and their time past the paths' bound (and
 * the preemptions in them) splits by the samples inside them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "join/holders.h"

#define SAMPLE	(1e9 / FCT_CPUCLOCK_HZ)
#define NR_OPEN	2
#define NR_CLOSE 3

static struct fct_hold_lock k;

/* 1000 opens holding it, 1 ms between their tracepoints; 1 kernel and
 * 4 user samples; spans of 2.5 us after each open */
static void setup_word(void)
{
	memset(&k, 0, sizeof(k));
	k.uaddr = 0x1000;
	k.sc_count = 1000;
	k.sc.ns = 1000000;
	k.samples_kernel.ns = 1;
	k.samples_user.ns = 4;
	k.nr[NR_OPEN].count = 1000;
	k.nr[NR_OPEN].ns = 1000000;
	k.nr[NR_OPEN].gap_min_ns = 2500;
	k.gaps = 999;
}

static void test_spans_move_late_samples(void **state)
{
	struct lock_holders h = { 0 };
	double unseen = 1000 * 2500.0 - SAMPLE;	/* the paths less the kernel sample */

	setup_word();
	assert_float_equal(holders_edge_share(&k), unseen / (4 * SAMPLE), 1e-9);
	holders_add(&h, &k, false);
	assert_float_equal(h.state_ns[HS_SYSCALL], 1000000 + SAMPLE + unseen, 1e-3);
	assert_float_equal(h.state_ns[HS_USER], 4 * SAMPLE - unseen, 1e-3);
	assert_float_equal(h.held_ns, 1000000 + 5 * SAMPLE, 1e-3);
}

static void test_no_span_no_move(void **state)
{
	setup_word();
	k.gaps = 0;
	k.nr[NR_OPEN].gap_min_ns = 0;
	assert_float_equal(holders_edge_share(&k), 0, 0);
	/* a shortest span longer than any path is user work between calls */
	setup_word();
	k.nr[NR_OPEN].gap_min_ns = 50000;
	assert_float_equal(holders_edge_share(&k), 0, 0);
	/* the kernel samples saw more than the spans' least: nothing moves */
	setup_word();
	k.samples_kernel.ns = 3;
	assert_float_equal(holders_edge_share(&k), 0, 0);
}

/* A number with no span of its own takes the shortest of any; the move
 * never takes more than the user samples. */
static void test_unspanned_calls_and_cap(void **state)
{
	setup_word();
	k.sc_count = 2000;
	k.nr[NR_CLOSE].count = 1000;
	k.samples_kernel.ns = 0;
	k.samples_user.ns = 10;
	assert_float_equal(holders_edge_share(&k), 2000 * 2500.0 / (10 * SAMPLE), 1e-9);
	k.samples_user.ns = 1;
	assert_float_equal(holders_edge_share(&k), 1, 0);
}

static void test_return_preemption_is_the_syscalls(void **state)
{
	struct lock_holders h = { 0 };

	setup_word();
	k.gaps = 0;
	k.sc_edge.ns = 70000;
	holders_add(&h, &k, false);
	assert_float_equal(h.state_ns[HS_SYSCALL], 1000000 + SAMPLE + 70000, 1e-3);
	assert_float_equal(h.state_ns[HS_PREEMPTED], 0, 0);
}

/* spans 0.5 ms within their bound, 0.1 ms past it and 40 us preempted in
 * them; 2 of their 10 samples in user mode */
static void test_spans_are_the_calls(void **state)
{
	struct lock_holders h = { 0 };

	setup_word();
	k.gaps = 0;
	k.span.ns = 500000;
	k.span_user.ns = 100000;
	k.span_preempted.ns = 40000;
	k.span_samples = 10;
	k.span_samples_user = 2;
	assert_float_equal(holders_span_user_share(&k), 0.2, 1e-12);
	holders_add(&h, &k, false);
	assert_float_equal(h.state_ns[HS_SYSCALL],
			   1000000 + SAMPLE + 500000 + 0.8 * 100000 + 0.8 * 40000, 1e-3);
	assert_float_equal(h.state_ns[HS_USER], 4 * SAMPLE + 0.2 * 100000, 1e-3);
	assert_float_equal(h.state_ns[HS_PREEMPTED], 0.2 * 40000, 1e-3);
	assert_float_equal(h.held_ns, 1000000 + 5 * SAMPLE + 640000, 1e-3);
}

/* No sample inside the spans: nothing says their time past the bound was
 * the paths' - user work, and runnable in user space. */
static void test_unsampled_spans_past_bound_are_user(void **state)
{
	struct lock_holders h = { 0 };

	setup_word();
	k.gaps = 0;
	k.span.ns = 500000;
	k.span_user.ns = 100000;
	k.span_preempted.ns = 40000;
	holders_add(&h, &k, false);
	assert_float_equal(h.state_ns[HS_SYSCALL], 1000000 + SAMPLE + 500000, 1e-3);
	assert_float_equal(h.state_ns[HS_USER], 4 * SAMPLE + 100000, 1e-3);
	assert_float_equal(h.state_ns[HS_PREEMPTED], 40000, 1e-3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spans_move_late_samples),
		cmocka_unit_test(test_no_span_no_move),
		cmocka_unit_test(test_unspanned_calls_and_cap),
		cmocka_unit_test(test_return_preemption_is_the_syscalls),
		cmocka_unit_test(test_spans_are_the_calls),
		cmocka_unit_test(test_unsampled_spans_past_bound_are_user),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
