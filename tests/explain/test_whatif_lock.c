/*
 * test_whatif_lock.c - explain/whatif_lock.c against answers worked by
 * hand (no root): a lock whose holders spend most of it in syscalls,
 * moved out of it, with the threads, then the CPUs, then the lock itself
 * setting the wall; and the refusals.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <cmocka.h>
#include "acctutil.h"
#include "explain/whatif_lock.h"

#define NT	4
#define S	1e9

struct fx {
	struct thread_row rows[NT];
	struct lock_total lock;
	struct joined_run m;
};

/*
 * 4 threads on 4 CPUs, a 1 s window. The lock was held 0.5 s: 0.4 s in
 * syscalls, 0.1 s in user space. Its waiters waited 1.2 s: 0.8 s behind
 * syscalls, 0.2 s behind user work, 0.2 s of hand-off. The threads ran
 * cpu_s seconds on CPU in all, futex_s of it in futex calls.
 */
static void fx_init(struct fx *x, double cpu_s, double futex_s)
{
	memset(x, 0, sizeof(*x));
	for (int i = 0; i < NT; i++) {
		x->rows[i].has_kernel = true;
		x->rows[i].end_ns = (uint64_t)S;	/* each thread's window: 1 s */
		x->rows[i].locks[0] = (struct lock_use){ .name = "table_lock", .is_lock = true,
							 .wait_ns = (uint64_t)(1.2 * S / NT) };
		x->rows[i].nlocks = 1;
		x->rows[i].k.oncpu_ns = (uint64_t)(cpu_s * S / NT);
		au_nr(&x->rows[i].k, __NR_futex)->total_ns = (uint64_t)(futex_s * S / NT);
	}
	snprintf(x->lock.name, sizeof(x->lock.name), "table_lock");
	x->lock.waits = 1000;
	x->lock.holders = (struct lock_holders){ .measured = true, .held_ns = 0.5 * S,
		.state_ns = { [HS_SYSCALL] = 0.4 * S, [HS_USER] = 0.1 * S },
		.waited_ns = { [HS_SYSCALL] = 0.8 * S, [HS_USER] = 0.2 * S },
		.waiter_ns = 1.2 * S };
	x->m = (struct joined_run){ .rows = x->rows, .nrows = NT, .ncpus = 4, .wall_ns = 1e9 };
}

/*
 * Held 0.1 s after the move, the waits scale by f = (0.1 / W') / 0.5 and
 * the waiters' time left is (1.2 - 0.8) f s; each thread's own time is
 * its 1 s less its 0.3 s of waits (none queued), so the threads' bound is
 * W' = (4 x 0.7 + 0.4 f) / 4 = 0.7 + 0.02 / W', whose root is
 * (0.7 + sqrt(0.57)) / 2 = 0.72749 s. The CPUs need 2 s / 4 = 0.5 s.
 */
static void test_threads_bound(void **state)
{
	struct fx x;
	struct lock_whatif w;
	double expect = (0.7 + sqrt(0.57)) / 2;

	fx_init(&x, 2.0, 0);
	assert_int_equal(whatif_lock(&x.m, &x.lock, LC_SYSCALLS_OUTSIDE, &w), 0);
	assert_float_equal(w.predicted_wall_ns / S, expect, 1e-6);
	assert_float_equal(w.held_after_ns / S, 0.1, 1e-9);
	assert_float_equal(w.waits_after, 1000 * (0.1 / expect) / 0.5, 1e-3);
	assert_int_equal(w.bound_by, LB_THREADS);
	assert_int_equal(w.change, LC_SYSCALLS_OUTSIDE);
	assert_float_equal(w.measured_wall_ns, 1e9, 1e-9);
}

/* 3.6 s of CPU on 4 CPUs: 0.9 s, more than the threads' 0.727 s. Futex
 * calls that took 0.4 s of it shrink with the waits: at W' = 0.9 the
 * waits keep f = 0.2222, so 3.6 - 0.4 (1 - f) = 3.2889 s, 0.8222 s on 4
 * CPUs - then f, and the CPU time, follow the new wall to their fixed
 * point, where W' = (3.6 - 0.4 (1 - 0.2 / W')) / 4 = 0.8 + 0.02 / W'. */
static void test_cpu_bound(void **state)
{
	struct fx x;
	struct lock_whatif w;

	fx_init(&x, 3.6, 0);
	assert_int_equal(whatif_lock(&x.m, &x.lock, LC_SYSCALLS_OUTSIDE, &w), 0);
	assert_float_equal(w.predicted_wall_ns / S, 0.9, 1e-9);
	assert_int_equal(w.bound_by, LB_CPUS);
	fx_init(&x, 3.6, 0.4);
	assert_int_equal(whatif_lock(&x.m, &x.lock, LC_SYSCALLS_OUTSIDE, &w), 0);
	assert_float_equal(w.predicted_wall_ns / S, (0.8 + sqrt(0.64 + 0.08)) / 2, 1e-6);
	assert_int_equal(w.bound_by, LB_CPUS);
}

/* A cache's misses gone (whatif_lock_calls_gone), CPU-bound as above
 * with no futex time: all of the holders' 0.4 s of syscalls gone, and
 * 0.4 s of CPU with them: (3.6 - 0.4) / 4 = 0.8 s. Half of
 * them (0.2 s): (3.6 - 0.2) / 4 = 0.85 s, the lock held 0.3 s. Moving
 * them out instead keeps their CPU: 0.9 s. Nothing to take, or more
 * than all, is no prediction. */
static void test_calls_gone(void **state)
{
	struct fx x;
	struct lock_whatif w;

	(void)state;
	fx_init(&x, 3.6, 0);
	assert_int_equal(whatif_lock_calls_gone(&x.m, &x.lock, 1, 0.4 * S, &w), 0);
	assert_float_equal(w.predicted_wall_ns / S, 0.8, 1e-9);
	assert_float_equal(w.held_after_ns / S, 0.1, 1e-9);
	assert_int_equal(w.bound_by, LB_CPUS);
	assert_int_equal(whatif_lock_calls_gone(&x.m, &x.lock, 0.5, 0.2 * S, &w), 0);
	assert_float_equal(w.predicted_wall_ns / S, 0.85, 1e-9);
	assert_float_equal(w.held_after_ns / S, 0.3, 1e-9);
	assert_int_equal(whatif_lock(&x.m, &x.lock, LC_SYSCALLS_OUTSIDE, &w), 0);
	assert_float_equal(w.predicted_wall_ns / S, 0.9, 1e-9);
	assert_int_equal(whatif_lock_calls_gone(&x.m, &x.lock, 0, 0.1 * S, &w), -1);
	assert_int_equal(whatif_lock_calls_gone(&x.m, &x.lock, 1.5, 0.1 * S, &w), -1);
}

/* Other processes took 2 of the 4 CPUs over the window (cpu-clock
 * samples): the program keeps the other 2, and the same 3.6 s of CPU
 * (0.4 s of syscalls moved, no futex time) need 3.6 / 2 = 1.8 s. */
static void test_cpu_bound_busy_machine(void **state)
{
	struct kview kv;
	struct fx x;
	struct lock_whatif w;

	memset(&kv, 0, sizeof(kv));
	kv.machine_sampled = true;
	kv.machine_ns = 2 * (uint64_t)S;	/* fctrace's window: 2 s */
	kv.machine.other = 2 * 2 * FCT_CPUCLOCK_HZ;	/* 2 CPUs' worth over 2 s */
	fx_init(&x, 3.6, 0);
	x.m.kv = &kv;
	assert_int_equal(whatif_lock(&x.m, &x.lock, LC_SYSCALLS_OUTSIDE, &w), 0);
	assert_float_equal(w.predicted_wall_ns / S, 1.8, 1e-6);
	assert_int_equal(w.bound_by, LB_CPUS);
	kv.machine.other = 10 * 2 * FCT_CPUCLOCK_HZ;	/* more than there was: a floor */
	assert_int_equal(whatif_lock(&x.m, &x.lock, LC_SYSCALLS_OUTSIDE, &w), 0);
	assert_float_equal(w.predicted_wall_ns / S, 3.6 / 0.2, 1e-6);
}

/* A lock held 0.9 s whose holders were preempted 0.2 s of it: without
 * the preemption, 0.7 s of holds one at a time is the bound when the
 * threads' own time falls below it. */
static void test_lock_bound(void **state)
{
	struct fx x;
	struct lock_whatif w;

	fx_init(&x, 0.4, 0);
	x.lock.holders.held_ns = 0.9 * S;
	x.lock.holders.state_ns[HS_SYSCALL] = 0;
	x.lock.holders.state_ns[HS_USER] = 0.7 * S;
	x.lock.holders.state_ns[HS_PREEMPTED] = 0.2 * S;
	x.lock.holders.waited_ns[HS_SYSCALL] = 0;
	x.lock.holders.waited_ns[HS_PREEMPTED] = 0.8 * S;
	x.lock.holders.waiter_ns = 3.6 * S;
	assert_int_equal(whatif_lock(&x.m, &x.lock, LC_NO_PREEMPTION, &w), 0);
	assert_true(w.predicted_wall_ns >= 0.7 * S);
	assert_float_equal(w.held_after_ns / S, 0.7, 1e-9);
	assert_int_equal(w.change, LC_NO_PREEMPTION);
}

/* Nothing measured, nothing to move, no kernel account: no prediction. */
static void test_refusals(void **state)
{
	struct fx x;
	struct lock_whatif w;

	fx_init(&x, 2.0, 0);
	assert_int_equal(whatif_lock(&x.m, &x.lock, LC_NO_PREEMPTION, &w), -1);
	x.lock.holders.measured = false;
	assert_int_equal(whatif_lock(&x.m, &x.lock, LC_SYSCALLS_OUTSIDE, &w), -1);
	fx_init(&x, 2.0, 0);
	for (int i = 0; i < NT; i++)
		x.rows[i].has_kernel = false;
	assert_int_equal(whatif_lock(&x.m, &x.lock, LC_SYSCALLS_OUTSIDE, &w), -1);
	fx_init(&x, 2.0, 0);		/* nobody waited on it */
	for (int i = 0; i < NT; i++)
		x.rows[i].nlocks = 0;
	assert_int_equal(whatif_lock(&x.m, &x.lock, LC_SYSCALLS_OUTSIDE, &w), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_threads_bound),
		cmocka_unit_test(test_cpu_bound),
		cmocka_unit_test(test_calls_gone),
		cmocka_unit_test(test_cpu_bound_busy_machine),
		cmocka_unit_test(test_lock_bound),
		cmocka_unit_test(test_refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
