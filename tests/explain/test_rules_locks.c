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
