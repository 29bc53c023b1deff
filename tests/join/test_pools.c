/*
 * test_pools.c - pools of N (join/pools.c, join/pools_model.c) from a
 * hand-made kernel view with round figures: a semaphore 16 threads queue
 * for, whose capacity is 4 by Little's law; the lock table's name and
 * every thread's use of it renamed a pool of 4; a mutex and a CPU-bound
 * pool told apart; the model's figures at the points it is exact.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "join/join.h"

#define TGID		100u
#define SEM		0x1000ull
#define MUTEX		0x2000ull
#define THREADS		16
#define MS		1000000.0
#define WINDOW_NS	1000000000ull	/* 1 s */

static struct lock_name names[] = {
	{ .tgid = TGID, .addr = SEM, .size = 32, .name = "sem (semaphore used as a lock)",
	  .kind = LK_SEMAPHORE, .is_lock = true, .turns = true },
	{ .tgid = TGID, .addr = MUTEX, .size = 40, .name = "mu (mutex)", .kind = LK_MUTEX,
	  .is_lock = true },
};

/* 4000 items given back while a thread waited, 500 of them seen whole at
 * 1 ms each (0.9 ms asleep, 0.1 ms on CPU), the whole second queued:
 * 4000 x 1 ms / 1 s = 4 items busy. */
static struct kv_pool pool_objs[] = {
	{ .key = { TGID, 0, SEM }, .val = {
		.queued_ns = WINDOW_NS, .waiting_ns = 12 * WINDOW_NS, .releases = 4000,
		.queued_releases = 4000,
		.woken = 4000, .opened = 4000, .retries = 3500, .holds = 500,
		.hold_ns = 500 * 1000000ull, .hold_oncpu_ns = 500 * 100000ull,
		.hold_sys_ns = 500 * 20000ull, .hold_blocked_ns = 500 * 900000ull,
		.max_holding = 4 } },
	/* a mutex: not a pool's kind, whatever its figures */
	{ .key = { TGID, 0, MUTEX }, .val = {
		.queued_ns = WINDOW_NS, .releases = 9000, .queued_releases = 9000, .holds = 900,
		.hold_ns = 900 * 1000000ull, .max_holding = 9 } },
};

static struct thread_row rows[THREADS];
static struct lock_total locks[2];

static void model(struct joined_run *m, struct kview *kv)
{
	memset(kv, 0, sizeof(*kv));
	kv->pools = pool_objs;
	kv->npools = 2;
	kv->pools_ran = true;
	memset(m, 0, sizeof(*m));
	m->kv = kv;
	m->names = names;
	m->nnames = 2;
	m->wall_ns = WINDOW_NS;
	m->ncpus = 2;
	memset(locks, 0, sizeof(locks));
	snprintf(locks[0].name, sizeof(locks[0].name), "%s", names[0].name);
	locks[0].is_lock = true;
	locks[0].waits = 4100;
	locks[0].wait_ns = 12 * WINDOW_NS;
	locks[0].threads = THREADS;
	snprintf(locks[1].name, sizeof(locks[1].name), "%s", names[1].name);
	locks[1].threads = 2;
	m->locks = locks;
	m->nlocks = 2;
	memset(rows, 0, sizeof(rows));
	for (int i = 0; i < THREADS; i++) {
		struct thread_row *r = &rows[i];

		r->tid = (pid_t)(TGID + 1 + i);
		r->has_kernel = true;
		r->start_ns = 0;
		r->end_ns = WINDOW_NS;
		/* 250 items each: 250 ms on CPU (the holds' 0.1 ms and 0.9 ms
		 * more outside), 225 ms asleep in the holds */
		r->k.oncpu_ns = 250000000ull;
		r->k.blocked_ns = 225000000ull;
		snprintf(r->locks[0].name, sizeof(r->locks[0].name), "%s", names[0].name);
		r->nlocks = 1;
	}
	m->rows = rows;
	m->nrows = THREADS;
}

static void test_semaphore_of_four(void **state)
{
	struct joined_run m;
	struct kview kv;
	const struct pool_row *p;

	(void)state;
	model(&m, &kv);
	assert_int_equal(pools_build(&m, &kv), 0);
	assert_int_equal(m.npools, 1);		/* the mutex is not one */
	p = &m.pools[0];
	assert_float_equal(p->capacity_est, 4.0, 1e-9);
	assert_int_equal(p->capacity, 4);
	assert_int_equal(p->how, PC_LITTLE);
	assert_string_equal(p->name, "sem (semaphore, a pool of 4)");
	assert_string_equal(locks[0].name, p->name);
	assert_string_equal(rows[7].locks[0].name, p->name);
	assert_string_equal(locks[1].name, "mu (mutex)");
	assert_float_equal(p->hold_ns, 1 * MS, 1e-6);
	assert_float_equal(p->state_ns[HS_BLOCKED], 0.9 * MS, 1e-6);
	assert_float_equal(p->state_ns[HS_SYSCALL], 0.02 * MS, 1e-6);
	assert_float_equal(p->state_ns[HS_USER], 0.08 * MS, 1e-6);
	assert_float_equal(p->waiters_mean, 12.0, 1e-9);
	assert_float_equal(p->holders_mean, 4.0, 1e-9);
	/* per item: 16 x 475 ms of work / 4000 = 1.9 ms, less the hold's 1 ms */
	assert_float_equal(p->outside_ns, 0.9 * MS, 1e-3);
	assert_float_equal(p->cpu_ns, 1.0 * MS, 1e-3);
	assert_true(p->nwhatif >= 6);
	free(m.pools);
}

/* Threads runnable most of their window: the capacity is not read from
 * the holds, and only fewer threads are predicted. */
static void test_cpu_bound(void **state)
{
	struct joined_run m;
	struct kview kv;
	const struct pool_row *p;

	(void)state;
	model(&m, &kv);
	for (int i = 0; i < THREADS; i++)
		rows[i].k.runq_total_ns = WINDOW_NS / 2;
	assert_int_equal(pools_build(&m, &kv), 0);
	assert_int_equal(m.npools, 1);
	p = &m.pools[0];
	assert_int_equal(p->how, PC_CPU_BOUND);
	assert_int_equal(p->capacity, 0);
	assert_string_equal(p->name, "sem (semaphore, a pool)");
	for (int i = 0; i < p->nwhatif; i++)
		assert_int_equal(p->whatif[i].capacity, 0);
	assert_int_equal(pool_capacity_enough(p), 0);
	free(m.pools);
}

/* A lock on a busy machine: woken threads without a CPU yet count as
 * open holds (five at once), but items given back x hold / queued time
 * is 0.2: one item, not a pool (MariaDB's InnoDB locks under sysbench). */
static void test_busy_lock(void **state)
{
	struct joined_run m;
	struct kview kv;
	struct kv_pool lock = pool_objs[0];

	(void)state;
	model(&m, &kv);
	for (int i = 0; i < THREADS; i++)
		rows[i].k.runq_total_ns = WINDOW_NS / 2;
	lock.val.releases = lock.val.queued_releases = 200;
	lock.val.max_holding = 5;
	kv.pools = &lock;
	kv.npools = 1;
	assert_int_equal(pools_build(&m, &kv), 0);
	assert_int_equal(m.npools, 0);
	free(m.pools);
}

/* A baton three threads pass round on a condvar, on a busy machine:
 * Little's law reads 1.8, past the floor of a quiet run's pool but not a
 * clear several: not a pool (target_prog turns). */
static void test_busy_baton(void **state)
{
	struct joined_run m;
	struct kview kv;
	struct kv_pool baton = pool_objs[0];

	(void)state;
	model(&m, &kv);
	for (int i = 0; i < THREADS; i++)
		rows[i].k.runq_total_ns = WINDOW_NS / 3;
	baton.val.releases = baton.val.queued_releases = 1800;
	baton.val.woken = 1800;	/* one each: it is the estimate that tells */
	kv.pools = &baton;
	kv.npools = 1;
	assert_int_equal(pools_build(&m, &kv), 0);
	assert_int_equal(m.npools, 0);
	free(m.pools);
}

/* The same baton on a quiet machine, Little's law reading 1.8 (above a
 * pool's floor, target_prog turns did): each release wakes both other
 * threads (a broadcast), a turn passed round, not an item given back. */
static void test_broadcast_baton(void **state)
{
	struct joined_run m;
	struct kview kv;
	struct kv_pool baton = pool_objs[0];

	(void)state;
	model(&m, &kv);
	baton.val.releases = baton.val.queued_releases = 1800;
	baton.val.woken = 3600;
	kv.pools = &baton;
	kv.npools = 1;
	assert_int_equal(pools_build(&m, &kv), 0);
	assert_int_equal(m.npools, 0);
	free(m.pools);
	/* and three threads whose estimate reaches 4: no pool for so few */
	model(&m, &kv);
	locks[0].threads = 3;
	assert_int_equal(pools_build(&m, &kv), 0);
	assert_int_equal(m.npools, 0);
	free(m.pools);
}

/* Too few holds seen whole: no pool. */
static void test_too_few_holds(void **state)
{
	struct joined_run m;
	struct kview kv;
	struct kv_pool few = pool_objs[0];

	(void)state;
	model(&m, &kv);
	few.val.holds = POOL_MIN_HOLDS - 1;
	kv.pools = &few;
	kv.npools = 1;
	assert_int_equal(pools_build(&m, &kv), 0);
	assert_int_equal(m.npools, 0);
	free(m.pools);
}

/* The model where it is exact: no queue when threads <= items (each
 * thread cycles hold + outside), n / h when nothing is done outside, the
 * CPUs' bound. */
static void test_model(void **state)
{
	(void)state;
	assert_float_equal(pool_rate(4, 2, 1 * MS, 1 * MS, 0, 2), 2 / (2 * MS), 1e-12);
	assert_float_equal(pool_rate(4, 16, 1 * MS, 0, 0, 2), 4 / (1 * MS), 1e-3 / MS);
	assert_float_equal(pool_rate(4, 16, 1 * MS, 0, 1 * MS, 2), 2 / (1 * MS), 1e-12);
	assert_float_equal(pool_rate(1, 1, 1 * MS, 1 * MS, 0, 0), 1 / (2 * MS), 1e-12);
	/* more items, more throughput, up to the threads */
	assert_true(pool_rate(8, 16, MS, MS, 0, 0) > pool_rate(4, 16, MS, MS, 0, 0));
	assert_float_equal(pool_rate(16, 16, MS, MS, 0, 0), pool_rate(32, 16, MS, MS, 0, 0), 1e-9);
	assert_float_equal(pool_rate(0, 16, MS, MS, 0, 0), 0, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_semaphore_of_four),
		cmocka_unit_test(test_cpu_bound),
		cmocka_unit_test(test_busy_lock),
		cmocka_unit_test(test_busy_baton),
		cmocka_unit_test(test_broadcast_baton),
		cmocka_unit_test(test_too_few_holds),
		cmocka_unit_test(test_model),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
