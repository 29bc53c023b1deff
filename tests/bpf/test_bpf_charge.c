/*
 * test_bpf_charge.c - the time account's helpers, fct_charge and
 * fct_uncharge_after (common.bpf.h), run in the kernel with
 * BPF_PROG_TEST_RUN as BPF selftests do: a test-only program
 * (tests/bpf/account_test.bpf.c) applies a few steps to an account in a
 * map, and every booked field is checked exactly. Nothing is attached;
 * loading the program needs root.
 */
#include <string.h>
#include <bpf/bpf.h>
#include "bpfutil.h"
#include "account_test.h"
#include "slot.h"
#include "account_test.skel.h"

struct charge_fixture {
	struct account_test *skel;
	struct fct_slot t;		/* in before a run, out after it */
};

static int setup(void **state)
{
	static struct charge_fixture f;

	memset(&f, 0, sizeof(f));
	*state = &f;
	if (bpf_test_unavailable())
		return 0;		/* each test skips (or fails) with the reason */
	f.skel = account_test__open_and_load();
	return f.skel ? 0 : -1;
}

static int teardown(void **state)
{
	struct charge_fixture *f = *state;

	account_test__destroy(f->skel);
	return 0;
}

/* Put f->t in the map, run the steps in the kernel, read f->t back. */
static void run_steps(struct charge_fixture *f, const struct acct_test_step *steps, int n)
{
	struct acct_test_ctx ctx = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = &ctx, .ctx_size_in = sizeof(ctx));
	int map = bpf_map__fd(f->skel->maps.acct);
	__u32 k = 0;

	assert_true(n <= ACCT_TEST_STEPS);
	memcpy(ctx.step, steps, (size_t)n * sizeof(*steps));
	assert_int_equal(bpf_map_update_elem(map, &k, &f->t, BPF_ANY), 0);
	assert_int_equal(bpf_prog_test_run_opts(bpf_program__fd(f->skel->progs.fct_test_account),
						&opts), 0);
	assert_int_equal(opts.retval, 0);
	assert_int_equal(bpf_map_lookup_elem(map, &k, &f->t), 0);
}

#define CHARGE(at)		{ .op = ACCT_CHARGE, .ns = (at) }
#define UNCHARGE_AFTER(end)	{ .op = ACCT_UNCHARGE_AFTER, .ns = (end) }
#define STATE(s, fx)		{ .op = ACCT_STATE, .state = (s), .futex = (fx) }

/* Every state, in and out of a futex wait, books to its own fields. */
static void test_charge_books_each_state(void **state)
{
	struct charge_fixture *f = *state;
	const struct acct_test_step steps[] = {
		CHARGE(1100),				/* running: 100 */
		STATE(FCT_ST_RUNNABLE, 0), CHARGE(1300),	/* run queue: 200 */
		STATE(FCT_ST_BLOCKED, 0), CHARGE(1700),	/* asleep: 400 */
		STATE(FCT_ST_BLOCKED, 1), CHARGE(2500),	/* asleep in a futex wait: 800 */
	};
	const struct acct_test_step more[] = {
		STATE(FCT_ST_RUNNABLE, 1), CHARGE(2510),	/* runnable in a futex wait: 10 */
		STATE(FCT_ST_RUNNING, 1), CHARGE(2530),	/* on CPU in a futex wait: 20 */
	};
	struct fct_slot *t = &f->t;

	BPF_TEST_REQUIRE();
	*t = (struct fct_slot){ .st_since_ns = 1000, .st_state = FCT_ST_RUNNING };
	run_steps(f, steps, 7);
	run_steps(f, more, 4);
	assert_int_equal(t->a.oncpu_ns, 100 + 20);
	assert_int_equal(t->a.runq_ns, 200);
	assert_int_equal(t->a.runq_total_ns, 200 + 10);
	assert_int_equal(t->a.blocked_ns, 400);
	assert_int_equal(t->a.offcpu_ns, 400 + 800);
	assert_int_equal(t->a.futex_off_ns, 800 + 10);
	assert_int_equal(t->a.futex_on_ns, 0);	/* the syscall exit books that, not a charge */
	assert_int_equal(t->st_since_ns, 2530);
	/* the [K] fields tile the interval */
	assert_int_equal(t->a.oncpu_ns + t->a.runq_ns + t->a.blocked_ns + t->a.futex_off_ns, 2530 - 1000);
	/* the last two charges, newest first */
	assert_int_equal(t->last_from[0], 2510);
	assert_int_equal(t->last_len[0], 20);
	assert_int_equal(t->last_code[0], FCT_ST_RUNNING | FCT_C_FUTEX);
	assert_int_equal(t->last_from[1], 2500);
	assert_int_equal(t->last_len[1], 10);
	assert_int_equal(t->last_code[1], FCT_ST_RUNNABLE | FCT_C_FUTEX);
}

/* A clock that did not move (or an event out of order) books nothing. */
static void test_charge_ignores_time_going_back(void **state)
{
	struct charge_fixture *f = *state;
	const struct acct_test_step steps[] = { CHARGE(5000), CHARGE(4000), CHARGE(5000) };
	struct fct_slot *t = &f->t;

	BPF_TEST_REQUIRE();
	*t = (struct fct_slot){ .st_since_ns = 5000, .st_state = FCT_ST_RUNNING,
				  .last_len = { 7, 9 } };
	run_steps(f, steps, 3);
	assert_int_equal(t->a.oncpu_ns, 0);
	assert_int_equal(t->st_since_ns, 5000);
	assert_int_equal(t->last_len[0], 7);
	assert_int_equal(t->last_len[1], 9);
}

/* The end mark takes back what the last two charges counted after end:
 * part of the older one, all of the newer one. */
static void test_uncharge_after_takes_back_the_overshoot(void **state)
{
	struct charge_fixture *f = *state;
	const struct acct_test_step steps[] = {
		CHARGE(1500),				/* running 1000..1500 */
		STATE(FCT_ST_BLOCKED, 0), CHARGE(2500),	/* asleep 1500..2500 */
		UNCHARGE_AFTER(1200),
	};
	struct fct_slot *t = &f->t;

	BPF_TEST_REQUIRE();
	*t = (struct fct_slot){ .st_since_ns = 1000, .st_state = FCT_ST_RUNNING };
	run_steps(f, steps, 5);
	assert_int_equal(t->a.oncpu_ns, 200);
	assert_int_equal(t->a.blocked_ns, 0);
	assert_int_equal(t->a.offcpu_ns, 0);
	assert_int_equal(t->a.oncpu_ns + t->a.blocked_ns, 1200 - 1000);
}

/* Inside a futex wait the overshoot comes back out of the futex fields;
 * an end after both charges takes nothing. */
static void test_uncharge_after_futex_and_nothing_past_end(void **state)
{
	struct charge_fixture *f = *state;
	const struct acct_test_step steps[] = {
		STATE(FCT_ST_RUNNABLE, 1), CHARGE(1300),	/* runnable in a futex wait */
		STATE(FCT_ST_RUNNING, 0), CHARGE(1400),
		UNCHARGE_AFTER(1400),				/* nothing after 1400 */
		UNCHARGE_AFTER(1250),				/* 50 + 100 */
	};
	struct fct_slot *t = &f->t;

	BPF_TEST_REQUIRE();
	*t = (struct fct_slot){ .st_since_ns = 1000 };
	run_steps(f, steps, 6);
	assert_int_equal(t->a.runq_total_ns, 250);
	assert_int_equal(t->a.futex_off_ns, 250);
	assert_int_equal(t->a.runq_ns, 0);
	assert_int_equal(t->a.oncpu_ns, 0);
	assert_int_equal(t->a.futex_off_ns + t->a.oncpu_ns, 1250 - 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_charge_books_each_state),
		cmocka_unit_test(test_charge_ignores_time_going_back),
		cmocka_unit_test(test_uncharge_after_takes_back_the_overshoot),
		cmocka_unit_test(test_uncharge_after_futex_and_nothing_past_end),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
