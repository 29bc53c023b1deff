/*
 * test_pools_peer.c - the peer's side of a proxy's pool (join/
 * pools_peer.c) from hand-made rows with round figures: the peer's
 * threads' accounts laid over the exchanges' time, the rest its wait on
 * the proxy; work past the exchanges scaled to them; no peer, no figure.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <sys/syscall.h>
#include "acctutil.h"
#include "join/join.h"
#include "join/pools_peer.h"

#define MS	1000000.0
#define PEER	200

static struct thread_row rows[3];

/* Two threads of the peer (pid 200), 1 s each: 100 ms on CPU in user
 * space, 50 in syscalls, 30 runnable, 20 in futex waits, 400 asleep
 * outside futexes of which 380 in polls and 10 in recvfrom (idle) and 10
 * on I/O; and a thread of another process, which is not the peer's. */
static void model(struct joined_run *m)
{
	memset(m, 0, sizeof(*m));
	memset(rows, 0, sizeof(rows));
	for (int i = 0; i < 3; i++) {
		struct thread_row *r = &rows[i];

		r->tid = (pid_t)(PEER + i);
		r->has_kernel = true;
		r->k.tgid = i < 2 ? PEER : 300;
		r->start_ns = 0;
		r->end_ns = 1000 * MS;
		r->acct_ns[ACCT_CPU_USER] = 100 * MS;
		r->acct_ns[ACCT_CPU_SYS] = 50 * MS;
		r->acct_ns[ACCT_RUNQ] = 30 * MS;
		r->acct_ns[ACCT_LOCK_NAMED] = 15 * MS;
		r->acct_ns[ACCT_FUTEX_OTHER] = 5 * MS;
		r->acct_ns[ACCT_BLOCKED] = 400 * MS;
		r->idle_ns = 380 * MS;
		au_nr(&r->k, SYS_recvfrom)->blocked_ns = 10 * MS;
	}
	m->rows = rows;
	m->nrows = 3;
}

static void test_sums(void **state)
{
	struct joined_run m;
	struct peer_sums s;
	pid_t peer = PEER;

	(void)state;
	model(&m);
	peer_sums_of(&s, &m, &peer, 1);
	assert_int_equal(s.threads, 2);
	assert_float_equal(s.part_ns[HS_USER], 200 * MS, 1);
	assert_float_equal(s.part_ns[HS_SYSCALL], 100 * MS, 1);
	assert_float_equal(s.part_ns[HS_PREEMPTED], 60 * MS, 1);
	assert_float_equal(s.part_ns[HS_WAITING], 40 * MS, 1);
	assert_float_equal(s.part_ns[HS_BLOCKED], 20 * MS, 1);	/* 400 - 380 - 10 */
	assert_float_equal(s.idle_ns, 780 * MS, 1);
	assert_float_equal(s.wall_ns, 2000 * MS, 1);
}

/* 1000 exchanges of 0.5 ms: the peer's 420 ms of work in them, and the
 * rest, 80 ms, its wait on the proxy: of the mean hold, 0.2 ms in user
 * space, 0.1 in syscalls, 0.06 runnable, 0.02 blocked, 0.04 in lock
 * waits and 0.08 waiting on the proxy. */
static void test_hold(void **state)
{
	struct joined_run m;
	struct peer_sums s;
	struct pool_row p = { 0 };
	pid_t peer = PEER;

	(void)state;
	model(&m);
	peer_sums_of(&s, &m, &peer, 1);
	pool_peer_hold(&p, &s, 500 * MS, 1000);
	assert_float_equal(p.state_ns[HS_USER], 200000, 1e-6);
	assert_float_equal(p.state_ns[HS_SYSCALL], 100000, 1e-6);
	assert_float_equal(p.state_ns[HS_PREEMPTED], 60000, 1e-6);
	assert_float_equal(p.state_ns[HS_BLOCKED], 20000, 1e-6);
	assert_float_equal(p.state_ns[HS_WAITING], 40000, 1e-6);
	assert_float_equal(p.peer_wait_ns, 80000, 1e-6);
	assert_float_equal(p.peer_work_share, 0.84, 1e-9);
	assert_float_equal(p.peer_idle_share, 0.39, 1e-9);
	assert_int_equal(p.peer_threads, 2);
}

/* 300 ms of exchanges for 420 ms of work (it served others too): the
 * parts scaled to the hold, nothing left for a wait on the proxy. */
static void test_hold_scaled(void **state)
{
	struct joined_run m;
	struct peer_sums s;
	struct pool_row p = { 0 };
	pid_t peer = PEER;
	double sum = 0;

	(void)state;
	model(&m);
	peer_sums_of(&s, &m, &peer, 1);
	pool_peer_hold(&p, &s, 300 * MS, 1000);
	for (int k = 0; k < HS_N; k++)
		sum += p.state_ns[k];
	assert_float_equal(sum, 300000, 1e-6);
	assert_float_equal(p.state_ns[HS_USER], 200000 * 300.0 / 420, 1e-6);
	assert_float_equal(p.peer_wait_ns, 0, 1e-6);
	assert_float_equal(p.peer_work_share, 1.4, 1e-9);
}

/* No thread of the peer's, no exchange, no time: nothing is made up. */
static void test_nothing(void **state)
{
	struct joined_run m;
	struct peer_sums s;
	struct pool_row p = { 0 }, zero = { 0 };
	pid_t other = 999, peer = PEER;

	(void)state;
	model(&m);
	peer_sums_of(&s, &m, &other, 1);
	assert_int_equal(s.threads, 0);
	pool_peer_hold(&p, &s, 500 * MS, 1000);
	assert_memory_equal(&p, &zero, sizeof(p));
	peer_sums_of(&s, &m, &peer, 1);
	pool_peer_hold(&p, &s, 500 * MS, 0);
	pool_peer_hold(&p, &s, 0, 1000);
	pool_peer_hold(&p, &s, -1, 1000);
	assert_memory_equal(&p, &zero, sizeof(p));
	peer_sums_of(&s, &m, NULL, 0);
	assert_int_equal(s.threads, 0);
}

/* Accounts past their window (a row whose span is shorter than its
 * sleep): the idle share stays a share. */
static void test_idle_past_window(void **state)
{
	struct joined_run m;
	struct peer_sums s;
	struct pool_row p = { 0 };
	pid_t peer = PEER;

	(void)state;
	model(&m);
	rows[0].end_ns = rows[1].end_ns = 100 * MS;
	peer_sums_of(&s, &m, &peer, 1);
	pool_peer_hold(&p, &s, 500 * MS, 1000);
	assert_float_equal(p.peer_idle_share, 1, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sums),
		cmocka_unit_test(test_hold),
		cmocka_unit_test(test_hold_scaled),
		cmocka_unit_test(test_nothing),
		cmocka_unit_test(test_idle_past_window),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
