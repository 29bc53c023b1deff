/*
 * test_bpf_held.c - the holder's side of a lock through the whole
 * pipeline (probes -> join -> explain), as root:
 *   fcp     fctrace's own pool measured from outside, as any program's
 *           lock is, against the workload's exact counters: the syscalls
 *           made holding the pool lock within 10 % of its
 *           syscalls_in_lock, the time held 0.70 - 1.10 of its
 *           lock_hold_ns (see below), and the pool's Why made by the
 *           generic chain;
 *   whatif  holdprog (a program that times its own holds) with its
 *           syscalls inside the lock: the "syscalls outside" what-if
 *           predicts the wall of the same program with --fixed, which
 *           makes them outside it, within 25 %.
 * Fails (not skips) in CI when a probe cannot load.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bpfutil.h"
#include "diagutil.h"
#include "explain/words.h"
#include "holdutil.h"
#include "cli/commands.h"
#include "session/session.h"
#include "testutil.h"

static const struct lock_total *lock_named(const struct joined_run *m, const char *name)
{
	for (int i = 0; i < m->nlocks; i++)
		if (!m->locks[i].kernel && !strcmp(m->locks[i].name, name))
			return &m->locks[i];
	return NULL;
}

/*
 * The workload times a hold from a clock read taken before its trylock
 * (an uncontended acquire costs no clock read of its own) to one taken
 * before its unlock; the owner field covers from the trylock's
 * compare-and-swap to the unlock. The swap, on a cache line the other
 * CPU took, costs 140-200 ns here, 320 k times at fcp/60/8: the
 * workload's figure runs 14-22 % above the owner field's, as measured.
 * The syscalls inside are exact on both sides but for the first holds,
 * made before the word was first waited on and watched.
 */
static void test_fcp_generic_against_own_counters(void **state)
{
	const struct diag_cause *c;
	struct options o;
	struct trace_opts t;
	struct session s;
	const struct lock_total *l;
	double own_hold = 0, own_sc = 0, ratio;
	char *dir;

	BPF_TEST_REQUIRE();
	memset(&o, 0, sizeof(o));
	wl_config_defaults(&o.wl);
	o.wl.workload = "fcp";
	o.wl.files = 60;
	o.wl.threads = 8;
	o.wl.ops = 20000;
	o.wl.dir = dir = test_dir_make();
	o.trace.probes = PG_FULL;
	o.probe_set = "full";
	t = o.trace;
	assert_int_equal(session_run(&t, &o.wl, &s), 0);
	l = lock_named(&s.joined, "fcp.pool");
	assert_non_null(l);
	assert_true(l->holders.measured);
	for (unsigned i = 0; i < s.joined.nrows; i++) {
		own_hold += (double)row_own(&s.joined.rows[i])->lock_hold_ns;
		own_sc += (double)row_own(&s.joined.rows[i])->syscalls_in_lock;
	}
	ratio = (double)l->holders.syscalls / own_sc;
	print_message("  in-lock syscalls: generic %llu, own %.0f (%.3f); held %.1f ms, own %.1f "
		      "ms (%.3f)\n", (unsigned long long)l->holders.syscalls, own_sc, ratio,
		      l->holders.held_ns / 1e6, own_hold / 1e6, l->holders.held_ns / own_hold);
	assert_true(ratio > 0.9 && ratio <= 1.0);
	/* the workload's figure runs above (its clock read before the swap):
	 * 0.75 - 0.86 of it over ten runs here, so the bound is one-sided */
	assert_true(l->holders.held_ns / own_hold >= 0.70 && l->holders.held_ns / own_hold <= 1.10);
	/* the first cause in the code: on a busy machine the CPUs' share (the
	 * machine's, not the program's) may rank above it */
	c = first_code_cause(&s.diag);
	assert_non_null(c);
	assert_ptr_equal(cause_of(&s.diag, "pool_lock_serialisation"), c);
	/* told through the holders' chain: serialised by the syscalls its
	 * holders make, a tenth of the time held at least */
	assert_true(figs_get(c->figs, c->nfigs, "holders_syscall_share") >= 0.1);
	session_free(&s);
	test_dir_remove(dir);
}

static const char *holdprog(void)
{
	const char *env = getenv("FCTRACE_HOLDPROG");

	return env ? env : ".output/tests/holdprog";
}

static void run_holdprog(char **argv, struct session *s)
{
	struct trace_opts t = { .probes = PG_FULL };
	struct target_opts to = { .mode = TGT_EXEC, .argv = argv };

	assert_int_equal(session_run_target(&t, &to, s), 0);
	assert_true(s->target.exited);
	assert_int_equal(target_exit_status(&s->target), 0);
}

#define ROUNDS	2	/* the run and its variant, interleaved: the what-if on their means */

/*
 * The what-if of change c of each run of `changed` against the measured
 * wall of `variant`, the program that makes that change, over ROUNDS
 * interleaved pairs (one pair's difference can be the machine's noise:
 * a --fixed run slower than the locked one at load 5). Returns the error
 * of the means; -1e9 when the variant cannot run here (exit status 3).
 */
static double whatif_against(char **changed, char **variant, enum lock_change c, const char *what)
{
	struct trace_opts t = { .probes = PG_FULL };
	struct target_opts to = { .mode = TGT_EXEC, .argv = variant };
	double predicted = 0, measured = 0, before = 0, err, lo = 1e18, hi = 0;
	const struct lock_whatif *w;
	struct session s;

	for (int round = 0; round < ROUNDS; round++) {
		run_holdprog(changed, &s);
		w = hold_whatif_of(&s.diag, c);
		assert_non_null(w);
		assert_true(w->held_after_ns < w->held_ns);
		predicted += w->predicted_wall_ns / ROUNDS;
		before += (double)s.joined.wall_ns / ROUNDS;
		session_free(&s);
		assert_int_equal(session_run_target(&t, &to, &s), 0);
		if (target_exit_status(&s.target) == 3) {
			session_free(&s);
			return -1e9;
		}
		assert_int_equal(target_exit_status(&s.target), 0);
		measured += (double)s.joined.wall_ns / ROUNDS;
		lo = fmin(lo, (double)s.joined.wall_ns);
		hi = fmax(hi, (double)s.joined.wall_ns);
		session_free(&s);
	}
	err = (predicted - measured) / measured;
	print_message("  %.1f ms; predicted %s %.1f ms, measured %.1f ms (means of %d; measured "
		      "%.1f to %.1f ms): %+.1f %%\n", before / 1e6, what, predicted / 1e6,
		      measured / 1e6, ROUNDS, lo / 1e6, hi / 1e6, 100 * err);
	/* the runs measured are the truth, and on a busy machine they differ
	 * among themselves (564 and 1016 ms once): within 25 % of them */
	if (predicted >= 0.75 * lo && predicted <= 1.25 * hi)
		return 0;
	return err;
}

static void test_whatif_syscalls_outside(void **state)
{
	char *locked[] = { (char *)holdprog(), "--ops", "20000", "--hold-ns", "1000", NULL };
	char *fixed[] = { (char *)holdprog(), "--ops", "20000", "--hold-ns", "1000", "--fixed",
			  NULL };

	BPF_TEST_REQUIRE();
	assert_true(fabs(whatif_against(locked, fixed, LC_SYSCALLS_OUTSIDE,
					"with the syscalls outside (--fixed)")) <= 0.25);
}

static void test_whatif_no_preemption(void **state)
{
	char *locked[] = { (char *)holdprog(), "--ops", "40", "--preempt", "--hold-us", "3000",
			   NULL };
	char *fifo[] = { (char *)holdprog(), "--ops", "40", "--preempt", "--hold-us", "3000",
			 "--fifo", NULL };
	double err;

	BPF_TEST_REQUIRE();
	err = whatif_against(locked, fifo, LC_NO_PREEMPTION,
			     "with its holders never preempted (--fifo)");
	if (err == -1e9) {
		print_message("skip: SCHED_FIFO refused here (no real-time CPU time)\n");
		skip();
	}
	assert_true(fabs(err) <= 0.25);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fcp_generic_against_own_counters),
		cmocka_unit_test(test_whatif_syscalls_outside),
		cmocka_unit_test(test_whatif_no_preemption),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
