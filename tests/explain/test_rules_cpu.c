/*
 * test_rules_cpu.c - the CPU rules over hand-built joined runs
 * (explfx.h): more threads than CPUs, other processes taking them, and
 * shares over the samples' window.
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
#include "explfx.h"

static void test_cpu_oversubscription(void **state)
{
	struct fx *x = fx_new("fc", NT, true);

	fx_account(x, 0.10, 0.0, 0.0, 0.70);
	fx_total(x);
	assert_int_equal(explain_run(&x->m, &x->d), 1);
	assert_string_equal(x->d.causes[0].cause, "cpu_oversubscription");
	assert_float_equal(x->d.causes[0].share, 0.70, EPS);
	assert_true(fig_is(&x->d.causes[0], "threads", 8));
	assert_true(fig_is(&x->d.causes[0], "cpus", 2));
	assert_true(fig_is(&x->d.causes[0], "runq_ns", 0.70 * NT * WALL));
	assert_false(has_fig(&x->d.causes[0], "others_cpu_share"));
	/* the fix is the machine's cause's own (one thread per CPU) */
	assert_true(why_fig_is(&x->d, "fix_cause", 1));
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
	assert_true(fig_is(&x->d.causes[0], "others_cpu_share", 0.6));
	assert_true(fig_is(&x->d.causes[0], "cpus", 2));
	assert_true(fig_is(&x->d.causes[0], "other_work_share", 0.6));
	assert_true(fig_is(&x->d.causes[0], "other_work_ns", 2.4e9));
	assert_true(fig_is(&x->d.causes[0], "by_samples", 0));
	assert_true(why_fig_is(&x->d, "fix_cause", 1));

	x->kv.cpu.busy_ns = WALL;		/* others 0.2 WALL: 10 % of the CPUs */
	x->kv.cpu.idle_ns = WALL;
	explain_run(&x->m, &x->d);
	assert_string_equal(x->d.causes[0].cause, "cpu_oversubscription");
	assert_true(fig_is(&x->d.causes[0], "other_work_share", 0.1));
	assert_true(fig_is(&x->d.causes[0], "other_work_ns", 4e8));
	assert_false(has_fig(&x->d.causes[0], "others_cpu_share"));	/* not in the title */
	assert_true(fig_is(&x->d.causes[0], "by_samples", 0));	/* the kernel's /proc/stat */
	/* half the CPUs idle beside the queue: said to be bursts */
	assert_true(fig_is(&x->d.causes[0], "idle_share", 0.5));

	/* the sampler's count wins over the ticks: 2 s of others in the 4 s
	 * of CPU the sampler covered (tracer_start to tracer_stop, 2 CPUs) */
	x->kv.machine_sampled = true;
	x->kv.machine = (struct fct_machine){ .other = 2 * FCT_CPUCLOCK_HZ, .idle = 0 };
	x->kv.machine_ns = WALL;
	x->kv.machine_cpus = 2;
	explain_run(&x->m, &x->d);
	assert_string_equal(x->d.causes[0].cause, "cpu_competition");
	assert_true(fig_is(&x->d.causes[0], "by_samples", 1));
	assert_true(fig_is(&x->d.causes[0], "idle_share", 0));
	assert_true(fig_is(&x->d.causes[0], "others_cpu_share", 0.5));
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
	assert_false(has_fig(c, "others_cpu_share"));
	/* 25 and 1100 of the samples 700 ms on 2 CPUs could hold */
	assert_true(fig_is(c, "other_work_share", 25 / (0.7 * 2 * FCT_CPUCLOCK_HZ)));
	assert_true(fig_is(c, "tracer_share", 1100 / (0.7 * 2 * FCT_CPUCLOCK_HZ)));
	assert_true(fig_is(c, "cpus", 2));

	/* without the window (a run saved before it was kept): the samples
	 * alone are the denominator, still never above 100 % */
	x->kv.machine_ns = 0;
	x->kv.machine = (struct fct_machine){ .other = 1125, .idle = 0 };
	explain_run(&x->m, &x->d);
	assert_true(fig_is(&x->d.causes[0], "other_work_share", 1));
	assert_true(fig_is(&x->d.causes[0], "others_cpu_share", 1));
	show(x);
	free(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_oversubscription),
		cmocka_unit_test(test_cpu_competition),
		cmocka_unit_test(test_cpu_taken_by_others),
		cmocka_unit_test(test_cpu_shares_over_samples_window),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
