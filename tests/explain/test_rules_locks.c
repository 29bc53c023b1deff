/*
 * test_rules_locks.c - locks' holders over hand-built joined runs
 * (explfx.h): what the holders do while others wait, chains of locks,
 * the same lock whoever names it, monitors whose holders were not measured.
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
	assert_ptr_equal(cause_of(&x->d, "pool_lock_serialisation"), c);
	/* the title: 60 % of thread time waiting, its holders 60 % in syscalls */
	assert_float_equal(c->share, 0.6, EPS);
	assert_true(fig_is(c, "holders_syscall_share", 0.6));
	/* the pool's own line: half the gets miss, as 1 - 50/100 predicts */
	assert_true(fig_is(c, "miss_ratio", 0.5));
	assert_true(fig_is(c, "predicted_miss_ratio", 0.5));
	assert_true(fig_is(c, "files", 100));
	/* held 1.6 s of the 2 s window: busy 80 %, a cap of 1.25 x */
	assert_true(fig_is(c, "held_ns", 1.6e9));
	assert_true(fig_is(c, "busy_share", 0.8));
	assert_true(fig_is(c, "holders_syscalls", 1.2e6));
	assert_true(fig_is(c, "holders_preempted_share", 0.3));
	assert_true(fig_is(c, "holders_user_share", 0.1));
	assert_false(has_fig(c, "holders_blocked_share"));	/* none: not said */
	/* the waiters' 9.6 s: 4 s behind syscalls, 2 s behind preemptions,
	 * 0.6 s behind user work, the 3 s left hand-off */
	assert_true(fig_is(c, "waiters_wait_ns", 9.6e9));
	assert_true(fig_is(c, "behind_syscall_share", 4 / 9.6));
	assert_true(fig_is(c, "behind_preempted_share", 2 / 9.6));
	assert_true(fig_is(c, "behind_user_share", 0.6 / 9.6));
	assert_true(fig_is(c, "handoff_share", 3 / 9.6));
	assert_int_equal(x->d.nlock_whatifs, 2);
	assert_int_equal(x->d.lock_whatifs[0].change, LC_SYSCALLS_OUTSIDE);
	assert_int_equal(x->d.lock_whatifs[1].change, LC_NO_PREEMPTION);
	assert_true(x->d.lock_whatifs[0].predicted_wall_ns < WALL);
	assert_true(has_text(x->d.fix, "fcp-fixed"));	/* the fixed variant, by name */
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
	assert_ptr_equal(cause_of(&x->d, "pool_lock_contention"), &x->d.causes[0]);
	assert_true(fig_is(&x->d.causes[0], "holders_syscall_share", 0.6));
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
	assert_ptr_equal(cause_of(&x->d, "user_lock_contention"), c);
	assert_true(fig_is(c, "holders_syscall_share", 0.6));
	assert_true(fig_is(c, "busy_share", 0.8));
	assert_true(fig_is(c, "waits", 400000));
	assert_true(fig_is(c, "wait_ns", 0.6 * NT * WALL));
	/* the fix names the calls and the lock as the program did */
	assert_true(has_text(x->d.fix, "Make the syscalls (openat, newfstatat, close) before or "
			     "after holding session_table_lock"));
	/* nothing of a pool: no pool's cause, no pool's figures */
	assert_null(cause_of(&x->d, "pool_lock_serialisation"));
	assert_null(cause_of(&x->d, "pool_lock_contention"));
	assert_false(has_fig(c, "miss_ratio"));
	assert_false(has_fig(c, "files"));
	show(x);
	/* no holders probes: said, and the old fix */
	x->m.groups &= ~PG_MASK(PG_HOLDERS);
	x->locks[0].holders.measured = false;
	assert_true(explain_run(&x->m, &x->d) >= 1);
	assert_false(has_fig(c, "held_ns"));
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
	assert_ptr_equal(cause_of(&x->d, "user_lock_contention"), c);
	assert_true(fig_is(c, "holders_blocked_share", 0.75));
	assert_true(fig_is(c, "disk_ios", 5000));
	assert_true(fig_is(c, "disk_in_flight_share", 0.625));
	assert_true(fig_is(c, "disk_waited_share", 0.5));
	show(x);
	/* measured, no request: disk_ios 0, the sleep said not the disk's */
	h->disk_ios = 0;
	h->disk_ns = h->disk_waited_ns = 0;
	assert_true(explain_run(&x->m, &x->d) >= 1);
	assert_true(fig_is(c, "disk_ios", 0));
	assert_false(has_fig(c, "disk_in_flight_share"));
	assert_false(has_fig(c, "disk_waited_share"));
	h->disk_measured = false;
	assert_true(explain_run(&x->m, &x->d) >= 1);
	assert_false(has_fig(c, "disk_ios"));
	assert_true(fig_is(c, "holders_blocked_share", 0.75));
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
	assert_ptr_equal(cause_of(&mine->d, "user_lock_contention"), a);
	assert_ptr_equal(cause_of(&theirs->d, "user_lock_contention"), b);
	assert_float_equal(b->share, a->share, EPS);
	assert_float_equal(b->confidence, a->confidence, EPS);
	/* every figure the same, by key */
	assert_int_equal(b->nfigs, a->nfigs);
	for (int i = 0; i < a->nfigs; i++)
		assert_true(fig_is(b, a->figs[i].key, a->figs[i].value));
	assert_true(fig_is(a, "waits", 400000));
	assert_true(fig_is(a, "waiter_threads", NT));
	assert_false(has_fig(a, "acquires"));
	/* the program's own hold clocks: extra evidence, and a fix from them */
	for (unsigned i = 0; i < NT; i++) {
		mine->ts[i].lock_acquires = 50000;
		mine->ts[i].lock_hold_ns = 200000000;
	}
	fx_total(mine);
	assert_true(explain_run(&mine->m, &mine->d) >= 1);
	assert_true(fig_is(a, "acquires", 400000));
	assert_true(fig_is(a, "hold_mean_ns", 4000));	/* and the fix: hold it for less */
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
	/* held 1.5 s of 1.6 s waiting for other locks, 1.2 s for inner_lock */
	assert_true(fig_is(c, "holders_waiting_share", 1.5 / 1.6));
	assert_true(fig_is(c, "inner_lock_share", 1.2 / 1.6));
	assert_true(fig_is(c, "behind_waiting_share", 8 / 9.6));
	/* the fix names both locks as the program did */
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
	assert_false(has_fig(&x->d.causes[0], "held_ns"));
	assert_true(any_evidence(&x->d.causes[0], "not measured: the JVM's field offsets"));
	x->m.jvm_holders.why = JH_RAN;
	assert_true(explain_run(&x->m, &x->d) >= 1);
	assert_true(any_evidence(&x->d.causes[0], "none of its blocking enters was seen"));
	free(x);
}

/* ---- who removed the pages (pc-evict) ------------------------------------- */

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pool_held_chain),
		cmocka_unit_test(test_pool_held_first_opens_only),
		cmocka_unit_test(test_other_lock_held),
		cmocka_unit_test(test_lock_held_disk),
		cmocka_unit_test(test_same_lock_whoever),
		cmocka_unit_test(test_lock_chain),
		cmocka_unit_test(test_monitor_holders_unmeasured),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
