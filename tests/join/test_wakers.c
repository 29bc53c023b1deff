/*
 * test_wakers.c - each lock's wakers (join/wakers.c) from a hand-made
 * kernel view: who woke its waiters, after which call, only wakes of the
 * words its waiters slept on with its op counted, and the figures kept
 * when the locks are summed again; the sleeps a sibling ended by the
 * waker's call; the wait-for graph.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <cmocka.h>
#include "join/join.h"

#define TGID	100u
#define WORD	0x1000ull	/* the condvar's __g_signals: its waiters' word */
#define REFS	0x1008ull	/* its __g_refs: a signaller waits there, op 0 */

static struct fct_thread threads[] = {
	{ .tid = 101, .tgid = TGID, .comm = "flusher" },
	{ .tid = 102, .tgid = TGID, .comm = "writer-0" },
	{ .tid = 103, .tgid = TGID, .comm = "writer-1" },
};

static struct kv_futex futex[] = {
	{ .key = { 102, 9, WORD }, .val = { .waits = 40 } },
	{ .key = { 103, 9, WORD }, .val = { .waits = 30 } },
	{ .key = { 101, 0, REFS }, .val = { .waits = 2 } },	/* another op: not its wakes */
};

static struct kv_wake_after after[] = {
	/* the flusher between its wakes: 59 spans, 100 ms: 70 asleep (its
	 * fdatasync), 20 on CPU of which 15 in syscalls, 10 preempted */
	{ .key = { 101, SYS_fdatasync + 1, WORD }, .val = { .wakes = 60, .woken = 66,
		.cycles = 59, .span_ns = 100000000, .oncpu_ns = 20000000, .sys_ns = 15000000,
		.runq_ns = 10000000, .blocked_ns = 70000000 } },
	{ .key = { 102, SYS_write + 1, WORD }, .val = { .wakes = 3, .woken = 3 } },
	{ .key = { 103, 0, WORD }, .val = { .wakes = 1, .woken = 1 } },
	{ .key = { 102, SYS_write + 1, REFS }, .val = { .wakes = 2, .woken = 2 } },
	{ .key = { 101, SYS_write + 1, 0x9000 }, .val = { .wakes = 7, .woken = 7 } },
};

static struct lock_name names[] = {
	{ .tgid = TGID, .addr = WORD, .size = 48, .name = "commit (condvar)", .kind = LK_CONDVAR },
};

static void model(struct joined_run *m, struct kview *kv, struct lock_total *locks)
{
	memset(kv, 0, sizeof(*kv));
	kv->threads = threads;
	kv->nthreads = 3;
	kv->futex = futex;
	kv->nfutex = 3;
	kv->wake_after = after;
	kv->nwake_after = 5;
	memset(m, 0, sizeof(*m));
	m->kv = kv;
	m->names = names;
	m->nnames = 1;
	memset(locks, 0, 2 * sizeof(*locks));
	snprintf(locks[0].name, sizeof(locks[0].name), "commit (condvar)");
	locks[0].wait_ns = 2000000000;
	snprintf(locks[1].name, sizeof(locks[1].name), "spinlock @ x");
	locks[1].kernel = true;
	m->locks = locks;
	m->nlocks = 2;
}

static void test_by_thread_and_call(void **state)
{
	struct joined_run m;
	struct kview kv;
	struct lock_total locks[2];
	const struct lock_wakers *w = &locks[0].wakers;

	(void)state;
	model(&m, &kv, locks);
	wakers_join(&m);
	/* the __g_refs wakes (another op) and the unnamed word's are not its */
	assert_int_equal(w->wakes, 64);
	assert_int_equal(w->nthreads, 3);
	assert_int_equal(w->threads[0].tid, 101);
	assert_string_equal(w->threads[0].comm, "flusher");
	assert_int_equal(w->threads[0].wakes, 60);
	assert_int_equal(w->threads[1].tid, 102);
	assert_int_equal(w->threads[1].wakes, 3);
	assert_int_equal(w->more_threads, 0);
	assert_int_equal(w->nafter, 3);
	assert_string_equal(w->after[0].call, "fdatasync");
	assert_int_equal(w->after[0].wakes, 60);
	assert_string_equal(w->after[1].call, "write");
	assert_string_equal(w->after[2].call, "");	/* no call before it */
	assert_int_equal(w->cls, WC_DURABLE);		/* 60 of 64 after fdatasync */
	/* the waiters' 2 s charged as the flusher spent its spans */
	assert_int_equal(w->cycles, 59);
	assert_float_equal(w->span_ns, 100000000, 0);
	assert_float_equal(w->between_ns[HS_BLOCKED], 70000000, 0);
	assert_float_equal(w->while_waited_ns[HS_BLOCKED], 1400000000, 0);
	assert_float_equal(w->while_waited_ns[HS_SYSCALL], 300000000, 0);
	assert_float_equal(w->while_waited_ns[HS_USER], 100000000, 0);
	assert_float_equal(w->while_waited_ns[HS_PREEMPTED], 200000000, 0);
	assert_float_equal(w->while_waited_ns[HS_WAITING], 0, 0);
	assert_int_equal(locks[1].wakers.wakes, 0);	/* a kernel lock: none */
}

/* Summed again from the rows (join_retotal), the wakers stay. */
static void test_kept_by_name(void **state)
{
	struct joined_run m;
	struct kview kv;
	struct lock_total locks[2], again[2];

	(void)state;
	model(&m, &kv, locks);
	wakers_join(&m);
	memset(again, 0, sizeof(again));
	snprintf(again[0].name, sizeof(again[0].name), "spinlock @ x");
	again[0].kernel = true;
	snprintf(again[1].name, sizeof(again[1].name), "commit (condvar)");
	m.locks = again;
	m.nlocks = 2;
	wakers_keep(&m, locks, 2);
	assert_int_equal(again[1].wakers.wakes, 64);
	assert_string_equal(again[1].wakers.after[0].call, "fdatasync");
	assert_int_equal(again[0].wakers.wakes, 0);
}

/* No kernel view (a saved run's totals): nothing joined, nothing lost. */
static void test_no_view(void **state)
{
	struct joined_run m;
	struct kview kv;
	struct lock_total locks[2];

	(void)state;
	model(&m, &kv, locks);
	kv.nwake_after = 0;
	wakers_join(&m);
	assert_int_equal(locks[0].wakers.wakes, 0);
	m.kv = NULL;
	wakers_join(&m);
	assert_int_equal(locks[0].wakers.nthreads, 0);
}

/* The classes of the calls, and none past half. */
static void test_classes(void **state)
{
	(void)state;
	assert_int_equal(wake_class_of("fdatasync"), WC_DURABLE);
	assert_int_equal(wake_class_of("recvfrom"), WC_INPUT);
	assert_int_equal(wake_class_of("sendto"), WC_OUTPUT);
	assert_int_equal(wake_class_of("epoll_wait"), WC_POLL);
	assert_int_equal(wake_class_of("clock_nanosleep"), WC_TIMER);
	assert_int_equal(wake_class_of(""), WC_HANDOFF);
	assert_int_equal(wake_class_of("mprotect"), WC_OTHER);
	assert_string_equal(wake_class_name(WC_DURABLE), "durable");
	assert_string_equal(wake_class_name(WC_N), "none");
}

/* A lock whose wakes no call has half of is mixed. */
static void test_mixed(void **state)
{
	struct joined_run m;
	struct kview kv;
	struct lock_total locks[2];

	(void)state;
	model(&m, &kv, locks);
	after[0].val.wakes = 2;		/* fdatasync 2, write 2, none 1 */
	after[1].val.wakes = 2;
	wakers_join(&m);
	after[0].val.wakes = 60;
	after[1].val.wakes = 3;
	assert_int_equal(locks[0].wakers.wakes, 5);
	assert_int_equal(locks[0].wakers.cls, WC_MIXED);
}

/* Processes forked from one parent share a semaphore at one address
 * (PostgreSQL's: a backend sleeps on its own; the one that releases an
 * LWLock after its fdatasync posts the waiter's): a wake by another
 * process of the same program joins the semaphore's lock; by another
 * program's, or of a word that is no semaphore, it does not. */
static void test_shared_semaphore(void **state)
{
	static struct fct_thread procs[] = {
		{ .tid = 200, .tgid = 200, .comm = "postgres" },	/* waits on SEM */
		{ .tid = 300, .tgid = 300, .comm = "postgres" },	/* wakes it */
		{ .tid = 400, .tgid = 400, .comm = "other" },		/* wakes it too */
	};
	static struct kv_futex waits[] = { { .key = { 200, 9, 0x7000 }, .val = { .waits = 50 } } };
	static struct kv_wake_after wakes[] = {
		{ .key = { 300, SYS_fdatasync + 1, 0x7000 }, .val = { .wakes = 40, .woken = 40 } },
		{ .key = { 400, SYS_write + 1, 0x7000 }, .val = { .wakes = 5, .woken = 5 } },
	};
	static struct lock_name sem[] = { { .tgid = 200, .addr = 0x7000, .size = 32,
		.name = "semaphore used as a lock @ PGSemaphoreLock+0x21", .kind = LK_SEMAPHORE,
		.is_lock = true } };
	struct joined_run m;
	struct kview kv;
	struct lock_total locks[1];

	(void)state;
	memset(&kv, 0, sizeof(kv));
	kv.threads = procs;
	kv.nthreads = 3;
	kv.futex = waits;
	kv.nfutex = 1;
	kv.wake_after = wakes;
	kv.nwake_after = 2;
	memset(&m, 0, sizeof(m));
	m.kv = &kv;
	m.names = sem;
	m.nnames = 1;
	memset(locks, 0, sizeof(locks));
	snprintf(locks[0].name, sizeof(locks[0].name), "%s", sem[0].name);
	locks[0].kind = LK_SEMAPHORE;
	locks[0].is_lock = true;
	m.locks = locks;
	m.nlocks = 1;
	wakers_join(&m);
	assert_int_equal(locks[0].wakers.wakes, 40);
	assert_int_equal(locks[0].wakers.nthreads, 1);
	assert_int_equal(locks[0].wakers.threads[0].tid, 300);
	assert_string_equal(locks[0].wakers.after[0].call, "fdatasync");
	assert_int_equal(locks[0].wakers.cls, WC_DURABLE);
	/* a condvar at the same address is no shared semaphore: not joined */
	sem[0].kind = LK_CONDVAR;
	locks[0].kind = LK_CONDVAR;
	wakers_join(&m);
	assert_int_equal(locks[0].wakers.wakes, 0);
}

/* Sleeps ended by a sibling's kill or write, by the waker's call before
 * them: summed by call over the wakers, the most first, at most
 * WAKERS_MAX (the smallest gives way), the class of the leading call. */
static void test_sibling_wakers(void **state)
{
	static struct kv_sib_after sib[] = {
		{ .key = { 300, SYS_fdatasync + 1, FCT_WAKE_SIGNAL }, .val = { 60, 6000 } },
		{ .key = { 301, SYS_fdatasync + 1, FCT_WAKE_SIGNAL }, .val = { 40, 4000 } },
		{ .key = { 300, SYS_recvfrom + 1, FCT_WAKE_SIGNAL }, .val = { 30, 300 } },
		{ .key = { 300, SYS_read + 1, FCT_WAKE_SIGNAL }, .val = { 5, 50 } },
		{ .key = { 300, SYS_lseek + 1, FCT_WAKE_SIGNAL }, .val = { 3, 30 } },
		{ .key = { 300, 0, FCT_WAKE_SIGNAL }, .val = { 4, 40 } },	/* no call yet */
		{ .key = { 301, SYS_close + 1, FCT_WAKE_WRITE }, .val = { 7, 70 } },
	};
	struct joined_run m;
	struct kview kv;
	const struct sib_wakers *w;

	(void)state;
	memset(&kv, 0, sizeof(kv));
	memset(&m, 0, sizeof(m));
	m.kv = &kv;
	sib_wakers_join(&m);
	assert_false(m.sib_measured);		/* none: not measured */
	kv.sib_after = sib;
	kv.nsib_after = 7;
	sib_wakers_join(&m);
	assert_true(m.sib_measured);
	w = &m.sib[FCT_WAKE_SIGNAL];
	assert_int_equal(w->wakes, 142);
	assert_int_equal(w->wait_ns, 10420);
	assert_int_equal(w->nafter, WAKERS_MAX);
	assert_string_equal(w->after[0].call, "fdatasync");
	assert_int_equal(w->after[0].wakes, 100);
	assert_int_equal(w->after[0].wait_ns, 10000);
	assert_string_equal(w->after[1].call, "recvfrom");
	assert_string_equal(w->after[2].call, "read");
	assert_string_equal(w->after[3].call, "");	/* lseek's 3 gave way to 4 */
	assert_int_equal(w->cls, WC_DURABLE);		/* 100 of 142 */
	assert_int_equal(m.sib[FCT_WAKE_WRITE].wakes, 7);
	assert_string_equal(m.sib[FCT_WAKE_WRITE].after[0].call, "close");
	assert_int_equal(m.sib[FCT_WAKE_REQUEST].wakes, 0);
	assert_int_equal(m.sib[FCT_WAKE_REQUEST].cls, WC_NONE);
}

/* The wait-for graph: a waiter's time on a lock split over its wakers by
 * their wakes, the most first; a lock with no waker seen is unjoined. */
static void test_wait_graph(void **state)
{
	static struct thread_row rows[2];
	struct lock_total locks[2];
	struct joined_run m;

	(void)state;
	memset(&m, 0, sizeof(m));
	memset(rows, 0, sizeof(rows));
	memset(locks, 0, sizeof(locks));
	snprintf(locks[0].name, sizeof(locks[0].name), "commit (condvar)");
	locks[0].wakers.wakes = 4;
	locks[0].wakers.nthreads = 2;
	locks[0].wakers.threads[0] = (struct waker_thread){ .tid = 10, .comm = "flusher", .wakes = 3 };
	locks[0].wakers.threads[1] = (struct waker_thread){ .tid = 11, .comm = "helper", .wakes = 1 };
	snprintf(locks[1].name, sizeof(locks[1].name), "quiet (mutex)");
	locks[1].kind = LK_MUTEX;
	locks[1].is_lock = true;
	for (int i = 0; i < 2; i++) {
		rows[i].tid = 20 + i;
		rows[i].has_kernel = true;
		snprintf(rows[i].k.comm, sizeof(rows[i].k.comm), "writer-%d", i);
		snprintf(rows[i].locks[0].name, sizeof(rows[i].locks[0].name), "commit (condvar)");
		rows[i].locks[0].wait_ns = 800 * (uint64_t)(i + 1);
		snprintf(rows[i].locks[1].name, sizeof(rows[i].locks[1].name), "quiet (mutex)");
		rows[i].locks[1].wait_ns = 50;
		rows[i].nlocks = 2;
	}
	m.rows = rows;
	m.nrows = 2;
	m.locks = locks;
	m.nlocks = 2;
	assert_int_equal(wait_graph_build(&m), 0);
	assert_int_equal(m.graph.nedges, 4);
	assert_int_equal(m.graph.edges[0].waiter, 21);		/* 1600 x 3/4 */
	assert_int_equal(m.graph.edges[0].waker, 10);
	assert_string_equal(m.graph.edges[0].waker_comm, "flusher");
	assert_string_equal(m.graph.edges[0].waiter_comm, "writer-1");
	assert_string_equal(m.graph.edges[0].via, "commit (condvar)");
	assert_int_equal(m.graph.edges[0].cls, WAIT_EVENT);
	assert_float_equal(m.graph.edges[0].wait_ns, 1200, 1e-9);
	assert_float_equal(m.graph.edges[1].wait_ns, 600, 1e-9);	/* writer-0, flusher */
	assert_float_equal(m.graph.edges[2].wait_ns, 400, 1e-9);	/* writer-1, helper */
	assert_float_equal(m.graph.edges[3].wait_ns, 200, 1e-9);
	assert_float_equal(m.graph.unjoined_ns, 100, 1e-9);	/* the mutex: no waker seen */
	assert_int_equal(m.graph.more_edges, 0);
	wait_graph_free(&m.graph);
	assert_null(m.graph.edges);
}

/* One thread row for the roots' tests: tid, its wall 1000 ns, its waits
 * on one lock. */
static void root_row(struct thread_row *r, pid_t tid, const char *lock, uint64_t wait_ns)
{
	memset(r, 0, sizeof(*r));
	r->tid = tid;
	r->has_kernel = true;
	r->end_ns = 1000;
	if (lock) {
		snprintf(r->locks[0].name, sizeof(r->locks[0].name), "%s", lock);
		r->locks[0].wait_ns = wait_ns;
		r->nlocks = 1;
	}
}

static void root_lock(struct lock_total *l, const char *name, pid_t waker, const char *comm)
{
	memset(l, 0, sizeof(*l));
	snprintf(l->name, sizeof(l->name), "%s", name);
	l->wakers.wakes = 1;
	l->wakers.nthreads = 1;
	l->wakers.threads[0] = (struct waker_thread){ .tid = waker, .wakes = 1 };
	snprintf(l->wakers.threads[0].comm, sizeof(l->wakers.threads[0].comm), "%s", comm);
}

/* Where the waits end: a waits 600 for b (x's other waker is a itself,
 * which a's waits are not split to), b waits half its wall for
 * c, which waits for nobody (on CPU 30 %, asleep 70 %). b passes half of
 * a's 600 on to c: c 500 + 300, b 300; then a cycle, d and e each waiting
 * all their wall for the other: what passes round is kept at the last
 * hop, and every thread's kept time sums to the edges'. */
static void test_wait_roots(void **state)
{
	static struct thread_row rows[5];
	struct lock_total locks[4];
	struct joined_run m = { .rows = rows, .nrows = 3, .locks = locks, .nlocks = 2 };
	const struct wait_root *r;
	double sum = 0;

	(void)state;
	root_row(&rows[0], 1, "x (mutex)", 600);
	root_row(&rows[1], 2, "y (condvar)", 500);
	root_row(&rows[2], 3, NULL, 0);
	rows[2].acct_ns[ACCT_CPU_USER] = 200;
	rows[2].acct_ns[ACCT_CPU_SYS] = 100;
	rows[2].acct_ns[ACCT_BLOCKED] = 700;
	root_lock(&locks[0], "x (mutex)", 2, "b");
	/* a also woke x's waiters 3 times: not its own, its waits are b's */
	locks[0].wakers.threads[1] = (struct waker_thread){ .tid = 1, .comm = "a", .wakes = 3 };
	locks[0].wakers.nthreads = 2;
	locks[0].wakers.wakes = 4;
	root_lock(&locks[1], "y (condvar)", 3, "c");
	assert_int_equal(wait_graph_build(&m), 0);
	assert_int_equal(m.graph.nedges, 2);
	assert_float_equal(m.graph.edges[0].wait_ns, 600, 1e-9);
	assert_int_equal(m.graph.edges[0].waker, 2);
	assert_int_equal(m.graph.nroots, 2);
	r = &m.graph.roots[0];
	assert_int_equal(r->tid, 3);
	assert_string_equal(r->comm, "c");
	assert_float_equal(r->ended_ns, 800, 1e-9);
	assert_float_equal(r->direct_ns, 500, 1e-9);
	assert_float_equal(r->waited_share, 0, 1e-12);
	assert_float_equal(r->cpu_share, 0.3, 1e-12);
	assert_float_equal(r->blocked_share, 0.7, 1e-12);
	r = &m.graph.roots[1];
	assert_int_equal(r->tid, 2);
	assert_float_equal(r->ended_ns, 300, 1e-9);
	assert_float_equal(r->waited_share, 0.5, 1e-12);
	wait_graph_free(&m.graph);

	root_row(&rows[3], 4, "z (condvar)", 1000);
	root_row(&rows[4], 5, "w (condvar)", 1000);
	root_lock(&locks[2], "z (condvar)", 5, "e");
	root_lock(&locks[3], "w (condvar)", 4, "d");
	m.nrows = 5;
	m.nlocks = 4;
	assert_int_equal(wait_graph_build(&m), 0);
	assert_int_equal(m.graph.nroots, 4);
	for (int i = 0; i < m.graph.nroots; i++)
		sum += m.graph.roots[i].ended_ns;
	assert_float_equal(sum, 600 + 500 + 1000 + 1000, 1e-6);
	wait_graph_free(&m.graph);
	assert_int_equal(m.graph.nroots, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_by_thread_and_call),
		cmocka_unit_test(test_kept_by_name),
		cmocka_unit_test(test_no_view),
		cmocka_unit_test(test_classes),
		cmocka_unit_test(test_mixed),
		cmocka_unit_test(test_shared_semaphore),
		cmocka_unit_test(test_sibling_wakers),
		cmocka_unit_test(test_wait_graph),
		cmocka_unit_test(test_wait_roots),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
