/*
 * test_pools_jvm.c - a JVM's pools whose waiters sleep each on a word of
 * their own (join/pools_jvm.c), from a hand-made joined run with round
 * figures: 16 threads queue in Object.wait for a pool of 4 that they
 * give back to each other; the capacity is the threads not queued; a
 * group woken by another thread (a work queue), a lock's park and a
 * group with no queue are no pool; the model's what-ifs drop the waits'
 * CPU when the waits go.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <sys/syscall.h>
#include "acctutil.h"
#include "join/join.h"
#include "trace/kview.h"

#define TGID		100u
#define THREADS		16
#define MS		1000000.0
#define WINDOW_NS	1000000000ull	/* 1 s */
#define WAITS		250u		/* each thread's, an item each */
#define GROUP		"Object.wait on Pool @ Pool.take(Pool.java:12)"
#define MONITOR		"monitor Pool @ Pool.give(Pool.java:20)"

static struct thread_row rows[THREADS];
static struct lock_total locks[2];
static struct kv_futex futex[2 * THREADS];

/* Each thread, over the 1 s window: 700 ms in the group's waits and 50 ms
 * in the monitor's, all asleep; 200 ms on CPU (20 ms of it in syscalls,
 * 10 ms of that in futex calls), 50 ms runnable. Not queued: 250 ms a
 * thread, so 16 x 250 ms / 1 s = 4 items held. Each sleeps on a word of
 * its own and wakes the next thread's. */
static void model(struct joined_run *m, struct kview *kv, enum lock_kind kind, const char *name)
{
	memset(kv, 0, sizeof(*kv));
	memset(m, 0, sizeof(*m));
	memset(rows, 0, sizeof(rows));
	memset(locks, 0, sizeof(locks));
	m->kv = kv;
	m->wall_ns = WINDOW_NS;
	m->ncpus = 2;
	snprintf(locks[0].name, sizeof(locks[0].name), "%s", name);
	locks[0].kind = kind;
	locks[0].waits = THREADS * WAITS;
	locks[0].wait_ns = THREADS * 700 * (uint64_t)MS;
	locks[0].threads = THREADS;
	snprintf(locks[1].name, sizeof(locks[1].name), "%s", MONITOR);
	locks[1].kind = LK_MONITOR;
	locks[1].is_lock = true;
	m->locks = locks;
	m->nlocks = 2;
	for (int i = 0; i < THREADS; i++) {
		struct thread_row *r = &rows[i];

		r->tid = (pid_t)(TGID + 1 + i);
		r->has_kernel = true;
		r->end_ns = WINDOW_NS;
		r->k.tid = (uint32_t)r->tid;
		r->k.tgid = TGID;
		r->k.oncpu_ns = 200 * (uint64_t)MS;
		r->k.sys_on_est_ns = 20 * (uint64_t)MS;
		r->k.runq_total_ns = 50 * (uint64_t)MS;
		r->k.offcpu_ns = 750 * (uint64_t)MS;
		r->k.futex_off_ns = 750 * (uint64_t)MS;
		r->k.futex_on_ns = 4 * (uint64_t)MS;
		au_nr(&r->k, __NR_futex)->total_ns = 760 * (uint64_t)MS;	/* 6 ms of wakes */
		snprintf(r->locks[0].name, sizeof(r->locks[0].name), "%s", name);
		r->locks[0].waits = WAITS;
		r->locks[0].wait_ns = 700 * (uint64_t)MS;
		snprintf(r->locks[1].name, sizeof(r->locks[1].name), "%s", MONITOR);
		r->locks[1].is_lock = true;
		r->locks[1].wait_ns = 50 * (uint64_t)MS;
		r->nlocks = 2;
		futex[2 * i] = (struct kv_futex){ .key = { (uint32_t)r->tid, 0, 0x5000 + 64ull * i },
						  .val = { .waits = WAITS } };
		futex[2 * i + 1] = (struct kv_futex){
			.key = { (uint32_t)r->tid, FCT_FUTEX_OP_WAKE,
				 0x5000 + 64ull * ((i + 1) % THREADS) },
			.val = { .wakes = WAITS, .woken = WAITS } };
	}
	kv->futex = futex;
	kv->nfutex = 2 * THREADS;
	m->rows = rows;
	m->nrows = THREADS;
}

static void test_latch_pool_of_four(void **state)
{
	struct joined_run m;
	struct kview kv;
	const struct pool_row *p;

	(void)state;
	model(&m, &kv, LK_OBJECT_WAIT, GROUP);
	assert_int_equal(pools_add_jvm(&m), 0);
	assert_int_equal(m.npools, 1);
	p = &m.pools[0];
	assert_string_equal(p->name, GROUP);
	assert_int_equal(p->kind, LK_OBJECT_WAIT);
	assert_int_equal(p->how, PC_NOT_QUEUED);
	assert_float_equal(p->capacity_est, 4.0, 1e-9);
	/* its 50 ms runnable in futex waits, all of them the queue's: 3.2 */
	assert_float_equal(p->capacity_low, 3.2, 1e-9);
	assert_int_equal(p->capacity, 4);
	assert_int_equal(p->threads, THREADS);
	assert_int_equal(p->tgid, TGID);
	assert_int_equal(p->waits, THREADS * WAITS);
	assert_int_equal(p->holds, 0);		/* none seen whole */
	/* Little: 4 items over 4000 given back in 1 s: 1 ms each */
	assert_float_equal(p->hold_ns, 1 * MS, 1e-6);
	assert_float_equal(p->state_ns[HS_USER], 16 * 180 * MS / 4000, 1e-6);
	assert_float_equal(p->state_ns[HS_SYSCALL], 16 * 20 * MS / 4000, 1e-6);
	assert_float_equal(p->state_ns[HS_PREEMPTED], 16 * 50 * MS / 4000, 1e-6);
	assert_float_equal(p->state_ns[HS_BLOCKED], 0, 1e-9);
	assert_float_equal(p->waiters_mean, 12.0, 1e-9);
	assert_float_equal(p->cpu_ns, 16 * 200 * MS / 4000, 1e-6);
	/* on CPU in futex calls: 4 ms inside the waits, 6 ms of wakes */
	assert_float_equal(p->queue_cpu_ns, 16 * 10 * MS / 4000, 1e-6);
	assert_true(p->nwhatif >= 6);
	free(m.pools);
}

/* The model puts 16 threads on 4 items at the CPUs' bound (0.8 ms of CPU
 * an item, 2 CPUs: 2500 a second, below the holds' 4000); with as many
 * threads as items no take waits, and the 40 us of futex CPU an item goes:
 * 0.76 ms an item, 1 s x 0.76 / 0.8 = 950 ms. More items leave every take
 * waiting at 16 threads and 8: the same 1 s. */
static void test_whatif_waits_cost_cpu(void **state)
{
	struct joined_run m;
	struct kview kv;
	const struct pool_row *p;
	bool four = false, eight = false;

	(void)state;
	model(&m, &kv, LK_OBJECT_WAIT, GROUP);
	assert_int_equal(pools_add_jvm(&m), 0);
	p = &m.pools[0];
	assert_true(pool_cpu_bound(p));
	for (int i = 0; i < p->nwhatif; i++) {
		const struct pool_whatif *w = &p->whatif[i];

		if (w->capacity == 4 && w->threads == 4) {
			four = true;
			assert_float_equal(w->wall_ns, 950 * MS, 1e-3 * MS);
		}
		if (w->capacity == 8 && w->threads == THREADS) {
			eight = true;
			assert_float_equal(w->wall_ns, 1000 * MS, 1e-3 * MS);
		}
	}
	assert_true(four && eight);
	free(m.pools);
}

/* A thread that seldom found the pool empty (2 waits) still gives items
 * back - it wakes the others - and is one of the group; one that waited
 * once and woke no one (a main thread) is not. */
static void test_members(void **state)
{
	struct joined_run m;
	struct kview kv;

	(void)state;
	model(&m, &kv, LK_OBJECT_WAIT, GROUP);
	rows[0].locks[0].waits = 2;
	rows[15].locks[0].waits = 1;
	futex[2 * 15 + 1].key.tid = 999;	/* its wakes were another's */
	assert_int_equal(pools_add_jvm(&m), 0);
	assert_int_equal(m.npools, 1);
	assert_int_equal(m.pools[0].threads, THREADS - 1);
	free(m.pools);
}

/* Threads runnable 30 % of their time: a runnable one may hold an item or
 * wait to take it, and the threads not queued are no bound to trust - the
 * capacity is not read (as a futex object's is not), the pool stays, and
 * only fewer threads are predicted. */
static void test_cpu_bound(void **state)
{
	struct joined_run m;
	struct kview kv;
	const struct pool_row *p;

	(void)state;
	model(&m, &kv, LK_OBJECT_WAIT, GROUP);
	for (int i = 0; i < THREADS; i++)
		rows[i].k.runq_total_ns = 300 * (uint64_t)MS;
	assert_int_equal(pools_add_jvm(&m), 0);
	assert_int_equal(m.npools, 1);
	p = &m.pools[0];
	assert_int_equal(p->how, PC_CPU_BOUND);
	assert_int_equal(p->capacity, 0);
	assert_float_equal(p->capacity_est, 4.0, 1e-9);
	for (int i = 0; i < p->nwhatif; i++)
		assert_int_equal(p->whatif[i].capacity, 0);
	free(m.pools);
}

/* Waits ended by a thread outside the group (a producer): a work queue's
 * waiters, not a pool's. */
static void test_woken_by_another(void **state)
{
	struct joined_run m;
	struct kview kv;

	(void)state;
	model(&m, &kv, LK_OBJECT_WAIT, GROUP);
	for (int i = 0; i < THREADS; i++)
		futex[2 * i + 1].key.tid = 999;
	assert_int_equal(pools_add_jvm(&m), 0);
	assert_int_equal(m.npools, 0);
	free(m.pools);
}

/* A park on a ReentrantLock is a lock's queue; a monitor's contended
 * enter is a lock: neither is a pool, whatever the figures. */
static void test_locks_are_not_pools(void **state)
{
	struct joined_run m;
	struct kview kv;

	(void)state;
	model(&m, &kv, LK_PARK,
	      "park java.util.concurrent.locks.ReentrantLock$NonfairSync @ Pool.take(Pool.java:9)");
	assert_int_equal(pools_add_jvm(&m), 0);
	assert_int_equal(m.npools, 0);
	model(&m, &kv, LK_MONITOR, GROUP);
	locks[0].is_lock = true;
	assert_int_equal(pools_add_jvm(&m), 0);
	assert_int_equal(m.npools, 0);
	/* the same park on a Semaphore is one */
	model(&m, &kv, LK_PARK,
	      "park java.util.concurrent.Semaphore$NonfairSync @ Pool.take(Pool.java:9)");
	assert_int_equal(pools_add_jvm(&m), 0);
	assert_int_equal(m.npools, 1);
	free(m.pools);
}

/* Threads that are seldom queued (no waiter on average) or mostly not
 * (as many items as threads, nearly): no pool. */
static void test_no_queue(void **state)
{
	struct joined_run m;
	struct kview kv;

	(void)state;
	model(&m, &kv, LK_OBJECT_WAIT, GROUP);
	locks[0].wait_ns = 500 * (uint64_t)MS;
	assert_int_equal(pools_add_jvm(&m), 0);
	assert_int_equal(m.npools, 0);
	model(&m, &kv, LK_OBJECT_WAIT, GROUP);
	for (int i = 0; i < THREADS; i++) {	/* 15.84 not queued of 16 */
		rows[i].locks[0].wait_ns = 10 * (uint64_t)MS;
		rows[i].locks[1].wait_ns = 0;
		rows[i].k.offcpu_ns = rows[i].k.futex_off_ns = 10 * (uint64_t)MS;
	}
	assert_int_equal(pools_add_jvm(&m), 0);
	assert_int_equal(m.npools, 0);
	free(m.pools);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_latch_pool_of_four),
		cmocka_unit_test(test_whatif_waits_cost_cpu),
		cmocka_unit_test(test_members),
		cmocka_unit_test(test_cpu_bound),
		cmocka_unit_test(test_woken_by_another),
		cmocka_unit_test(test_locks_are_not_pools),
		cmocka_unit_test(test_no_queue),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
