/*
 * test_rules_caches.c - the rules of caches and pools past their size
 * over hand-built joined runs (explfx.h): a block cache's re-reads, a
 * handle cache, connections not kept, a proxy's pool, reads past the page
 * cache, and who evicted the pages read again.
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
#include "acctutil.h"
#include "diagutil.h"
#include "explfx.h"

/* c's fix changes the known setting name (knobs.h), to value. */
static bool knob_is(const struct diag_cause *c, const char *name, double value)
{
	if (!c || strcmp(c->knob, name)) {
		print_error("%s's knob is '%s', want '%s'\n", c ? c->cause : "(no cause)",
			    c ? c->knob : "", name);
		return false;
	}
	return fig_is(c, "fix_value", value);
}

/* A program's positional reads as a block cache's misses (caches.h):
 * postgres re-reads 150 k of its 200 k reads at 4 µs each, 0.6 s of the
 * 4 s of thread time; the knob is named and the size is the working set. */
static struct fx *fx_blocks(double rereads)
{
	struct fx *x = fx_new("reader", 2, true);
	static struct lock_name none = { .name = "" };
	static struct cache_entry c;

	x->m.names = &none;
	x->res.cfg.files = 0;
	fx_account(x, 0.30, 0.0, 0.0, 0.0);
	fx_total(x);
	c = (struct cache_entry){ .kind = CACHE_BLOCKS, .pid = 42, .comm = "postgres",
				  .object = "base/5/16397", .accesses = 200000, .misses = 200000,
				  .ws_items = 12800, .ws_bytes = 12800ull * 8192, .fix_items = 12000,
				  .fix_bytes = 12000ull * 8192, .hit_ratio_fix = 0.99,
				  .sample_rate = 1, .direct = 0, .rereads = rereads,
				  .miss_each_ns = 4000, .misses_at_fix = 2000 };
	x->m.caches = &c;
	x->m.ncaches = 1;
	return x;
}

static void test_block_cache_too_small(void **state)
{
	struct fx *x = fx_blocks(150000);
	const struct diag_cause *c;

	(void)state;
	explain_run(&x->m, &x->d);
	c = cause_of(&x->d, "block_cache_too_small");
	assert_non_null(c);
	assert_float_equal(c->share, 0.6e9 / (2.0 * WALL), 1e-6);
	assert_true(fig_is(c, "pid", 42));
	assert_true(fig_is(c, "rereads", 150000));
	assert_true(fig_is(c, "block_bytes", 8192));
	assert_true(fig_is(c, "accesses", 200000));
	assert_true(fig_is(c, "working_set_items", 12800));
	assert_true(fig_is(c, "working_set_bytes", 12800.0 * 8192));
	assert_true(fig_is(c, "fix_more_bytes", 12000.0 * 8192));
	assert_true(fig_is(c, "hit_ratio_fix", 0.99));
	assert_true(fig_is(c, "misses_at_fix", 2000));
	assert_true(fig_is(c, "miss_each_ns", 4000));
	assert_true(fig_is(c, "reread_own_ns", 0.6e9));
	assert_false(has_fig(c, "reread_waits_ns"));	/* no waits ended by the reads */
	assert_false(has_fig(c, "held_items"));		/* what it holds is not seen */
	assert_false(has_fig(c, "direct"));
	assert_false(has_fig(c, "procs"));
	/* 100 MiB of working set, rounded up, in postgres's own setting */
	assert_true(knob_is(c, "shared_buffers", 101));
	assert_false(has_fig(c, "fix_mib"));
	show(x);
	free(x);
}

/* Threads that wait for a block another thread is reading (or for the
 * lock that reader holds) pay for the miss too: the waits whose waker
 * had just finished a pread64 join the re-reads' cost, in the re-reads'
 * share of the reads. Half of a lock's 4 s of waits ended so: 2 s, of
 * which 150 k / 200 k are the re-reads'. */
static void test_block_cache_counts_the_waits_it_ends(void **state)
{
	struct fx *x = fx_blocks(150000);
	struct lock_total *l;
	const struct diag_cause *c;

	(void)state;
	fx_lock(x, "lock @ buf_page_get", false, 1000, 4000000000ull);
	l = &x->locks[x->m.nlocks - 1];
	l->is_lock = true;
	l->wakers.wakes = 1000;
	l->wakers.nafter = 2;
	l->wakers.after[0] = (struct waker_call){ .call = "pread64", .wakes = 500 };
	l->wakers.after[1] = (struct waker_call){ .call = "recvfrom", .wakes = 500 };
	explain_run(&x->m, &x->d);
	c = cause_of(&x->d, "block_cache_too_small");
	assert_non_null(c);
	assert_float_equal(c->share, (0.6e9 + 1.5e9) / (2.0 * WALL), 1e-6);
	assert_true(fig_is(c, "reread_own_ns", 0.6e9));
	assert_true(fig_is(c, "reread_waits_ns", 1.5e9));
	free(x);
}

/* One count per figure: the lock waits the block cache's cause counts
 * (their waker had just read a block it had read before) leave the
 * lock's share, and the lock's evidence says where they went. */
static void test_lock_leaves_waits_to_block_cache(void **state)
{
	double lock_alone, blocks_alone, lock_share, blocks_share;
	const struct diag_cause *c;
	struct lock_total *l;
	struct fx *x;

	(void)state;
	for (int after_reads = 0; after_reads < 2; after_reads++) {
		x = fx_blocks(150000);
		fx_account(x, 0.0, 0.50, 0.0, 0.0);
		fx_total(x);
		fx_lock(x, "lock @ mariadbd+0xde29af", false, 40000, (uint64_t)(0.50 * 2 * WALL));
		l = &x->locks[0];
		l->is_lock = true;
		l->wakers.wakes = 1000;
		l->wakers.nafter = 1;
		l->wakers.after[0].wakes = 400;
		snprintf(l->wakers.after[0].call, sizeof(l->wakers.after[0].call), "%s",
			 after_reads ? "pread64" : "recvfrom");
		explain_run(&x->m, &x->d);
		c = cause_of(&x->d, "user_lock_contention");
		assert_non_null(c);
		lock_share = c->share;
		c = cause_of(&x->d, "block_cache_too_small");
		assert_non_null(c);
		blocks_share = c->share;
		/* the waits it took: 40 % of the lock's, in the re-reads' share */
		if (after_reads)
			assert_true(fig_is(c, "reread_waits_ns", 0.4 * 0.50 * 2 * WALL * 0.75));
		else
			assert_false(has_fig(c, "reread_waits_ns"));
		if (!after_reads) {
			lock_alone = lock_share;
			blocks_alone = blocks_share;
		}
		free(x);
	}
	/* what one cause gave up, the other took: 40 % of the waits ended
	 * after a read, in the re-reads' share of the reads */
	assert_true(lock_share < lock_alone - 0.05);
	assert_float_equal(lock_alone - lock_share, blocks_share - blocks_alone, 1e-6);
}

/* A lock first (its fix a change of code), the buffer pool's re-reads
 * second (a setting): the fix names both, the setting by its number. */
static void test_setting_fix_beside_code_fix(void **state)
{
	struct fx *x = fx_blocks(150000);
	int blocks = -1;

	(void)state;
	snprintf(x->m.caches[0].comm, sizeof(x->m.caches[0].comm), "mariadbd");
	fx_account(x, 0.0, 0.50, 0.0, 0.0);
	fx_total(x);
	fx_lock(x, "lock @ mariadbd+0xde29af", false, 40000, (uint64_t)(0.50 * 2 * WALL));
	x->locks[0].is_lock = true;
	explain_run(&x->m, &x->d);
	assert_ptr_equal(cause_of(&x->d, "user_lock_contention"), &x->d.causes[0]);
	for (int i = 0; i < x->d.n; i++)
		if (cause_of(&x->d, "block_cache_too_small") == &x->d.causes[i])
			blocks = i;
	assert_true(blocks > 0);
	assert_true(knob_is(&x->d.causes[blocks], "innodb_buffer_pool_size", 113));
	assert_int_equal(x->d.causes[0].knob[0], 0);	/* the lock's fix is code */
	/* the words are the point: the Fix line joins the setting after the code */
	assert_true(has_text(x->d.fix, blocks == 1 ? "Then, for 2, a setting: Set "
			     "innodb_buffer_pool_size=" : "Then, for 3, a setting: Set "
			     "innodb_buffer_pool_size="));
	/* a fix that is a setting itself stands alone */
	free(x);
	x = fx_blocks(150000);
	snprintf(x->m.caches[0].comm, sizeof(x->m.caches[0].comm), "mariadbd");
	explain_run(&x->m, &x->d);
	assert_ptr_equal(cause_of(&x->d, "block_cache_too_small"), &x->d.causes[0]);
	assert_null(strstr(x->d.fix, "Then, for"));
	free(x);
}

/* InnoDB keeps 1536 pages free whatever the pool's size: the size to
 * set is the working set and those pages (MariaDB 10.11: a pool of its
 * 41 MiB working set still read 0.72 pages a transaction, 66 MiB none;
 * docs/caches.md). Here 100 MiB of 8 KiB pages and 12 MiB of margin. */
static void test_block_cache_innodb_margin(void **state)
{
	struct fx *x = fx_blocks(150000);
	const struct diag_cause *c;

	(void)state;
	snprintf(x->m.caches[0].comm, sizeof(x->m.caches[0].comm), "mariadbd");
	explain_run(&x->m, &x->d);
	c = cause_of(&x->d, "block_cache_too_small");
	assert_true(fig_is(c, "working_set_bytes", 100.0 * 1024 * 1024));
	assert_true(fig_is(c, "margin_items", 1536));
	assert_true(fig_is(c, "block_bytes", 8192));
	/* 100 MiB and 1536 x 8 KiB = 12 MiB, rounded up */
	assert_true(knob_is(c, "innodb_buffer_pool_size", 113));
	show(x);
	free(x);
}

/* A handle cache after a costlier block stream in caches[] (it came
 * first by its misses' time): still found. nginx keeps 51 of its 100
 * files open, 100 k uses, 50 k opens at 8 us each: 0.4 s of the 4 s of
 * thread time; the block entry's re-reads are few (no finding). */
static void test_handle_cache_after_blocks(void **state)
{
	struct fx *x = fx_blocks(5000);
	static struct cache_entry two[2];
	const struct diag_cause *c;

	(void)state;
	two[0] = x->m.caches[0];
	two[0].saved_ns = 1e9;
	two[1] = (struct cache_entry){ .kind = CACHE_HANDLES, .pid = 43, .comm = "nginx",
				       .object = "html/ (100 files)", .accesses = 100000,
				       .misses = 50000, .ws_items = 100, .ws_bytes = 409600,
				       .size_known = true, .size_items = 51, .hit_ratio_now = 0.5,
				       .fix_items = 100, .hit_ratio_fix = 0.999, .sample_rate = 1,
				       .miss_each_ns = 8000, .miss_ns = 4e8, .misses_at_fix = 100,
				       .saved_ns = 3.992e8 };
	x->m.caches = two;
	x->m.ncaches = 2;
	explain_run(&x->m, &x->d);
	c = cause_of(&x->d, "cache_too_small");
	assert_non_null(c);
	assert_true(fig_is(c, "pid", 43));
	assert_true(fig_is(c, "size_now_items", 51));
	assert_true(fig_is(c, "working_set_items", 100));
	assert_true(fig_is(c, "working_set_bytes", 409600));
	assert_true(fig_is(c, "hit_ratio_now", 0.5));
	assert_true(fig_is(c, "accesses", 100000));
	assert_true(fig_is(c, "misses", 50000));
	assert_true(fig_is(c, "fix_items", 100));
	assert_true(fig_is(c, "hit_ratio_fix", 0.999));
	assert_true(fig_is(c, "misses_at_fix", 100));
	assert_true(fig_is(c, "miss_each_ns", 8000));
	assert_true(fig_is(c, "miss_calls_ns", 4e8));
	assert_false(has_fig(c, "lock_waits_ns"));	/* made under no lock */
	assert_true(knob_is(c, "open_file_cache max", 100));
	assert_null(cause_of(&x->d, "block_cache_too_small"));
	show(x);
	free(x);
}

/* New connections to two peers (caches.h CACHE_CONNS): 2 000 to a
 * database at 0.5 ms each (1 s of the 4 s of thread time) and 400 to a
 * cache server at 0.25 ms; the cause weighs both, the title and the Fix
 * name the costlier first and its pool's size, the other beside it, and
 * the sleeps' rule leaves their time out; pgbench's knob when it is
 * pgbench. */
static struct fx *fx_conns(const char *comm)
{
	struct fx *x = fx_new("client", 2, true);
	static struct lock_name none = { .name = "" };
	static struct cache_entry c[2];

	x->m.names = &none;
	x->res.cfg.files = 0;
	fx_account(x, 0.10, 0.0, 0.0, 0.0);
	fx_total(x);
	c[0] = (struct cache_entry){ .kind = CACHE_CONNS, .pid = 42, .accesses = 2000,
				     .misses = 2000, .ws_items = 8, .fix_items = 8,
				     .hit_ratio_fix = 0.996, .sample_rate = 1,
				     .miss_each_ns = 500000, .miss_ns = 1e9, .misses_at_fix = 8,
				     .saved_ns = 0.996e9, .has_conn = true,
				     .conn = { .peer = "127.0.0.1:5432", .setups = 2000,
					       .closes = 2000, .connect_each_ns = 20000,
					       .setup_each_ns = 480000, .lived_each_ns = 900000 } };
	c[1] = c[0];
	c[1].accesses = c[1].misses = 400;
	c[1].ws_items = c[1].fix_items = 2;
	c[1].miss_each_ns = 250000;
	c[1].miss_ns = 1e8;
	c[1].misses_at_fix = 2;
	c[1].saved_ns = 0.995e8;
	snprintf(c[1].conn.peer, sizeof(c[1].conn.peer), "unix:/run/cache.sock");
	for (int i = 0; i < 2; i++) {
		char peer[sizeof(c[i].conn.peer)];

		memcpy(peer, c[i].conn.peer, sizeof(peer));
		snprintf(c[i].comm, sizeof(c[i].comm), "%s", comm);
		snprintf(c[i].object, sizeof(c[i].object), "connections to %s", peer);
	}
	x->m.caches = c;
	x->m.ncaches = 2;
	return x;
}

static void test_connections_not_kept(void **state)
{
	struct fx *x = fx_conns("client");
	const struct diag_cause *c;

	(void)state;
	explain_run(&x->m, &x->d);
	c = cause_of(&x->d, "connections_not_kept");
	assert_non_null(c);
	assert_float_equal(c->share, 1.1e9 / (2.0 * WALL), 1e-6);
	/* the costlier peer's figures (the database's 2000, not the 400) */
	assert_true(fig_is(c, "pid", 42));
	assert_true(fig_is(c, "connections", 2000));
	assert_true(fig_is(c, "at_once", 8));
	assert_true(fig_is(c, "fix_items", 8));
	assert_true(fig_is(c, "hit_ratio_fix", 0.996));
	assert_true(fig_is(c, "peers", 2));
	assert_true(fig_is(c, "closes", 2000));
	assert_true(fig_is(c, "lived_each_ns", 900000));
	assert_true(fig_is(c, "setup_each_ns", 480000));	/* connect to first reply */
	assert_true(fig_is(c, "connect_each_ns", 20000));
	assert_true(fig_is(c, "miss_each_ns", 500000));
	assert_true(fig_is(c, "peer_ns", 1e9));
	assert_true(fig_is(c, "misses_at_fix", 8));
	assert_true(fig_is(c, "saved_ns", 0.996e9 + 0.995e8));
	assert_int_equal(c->knob[0], 0);	/* no known program: the fix is words */
	/* the other peer is named by its address, in the Fix's words */
	assert_true(has_text(x->d.fix, "keep 2 to unix:/run/cache.sock likewise"));
	show(x);
	free(x);
}

static void test_connections_knob(void **state)
{
	struct fx *x = fx_conns("pgbench");

	(void)state;
	explain_run(&x->m, &x->d);
	assert_true(knob_is(cause_of(&x->d, "connections_not_kept"), "pgbench -C", 8));
	free(x);
}

/* A proxy's pool of 4 connections for 32 clients (pools_proxy.c): the
 * title gives the clients' wait, the fix pgbouncer's setting; where the
 * bound at twice the connections equals the bound at four times (the
 * CPUs'), the fix says more gain little and to try twice as many. */
static struct fx *fx_proxy(double wall_8, double wall_16)
{
	struct fx *x = fx_new("pgbouncer", 2, true);
	static struct lock_name none = { .name = "" };
	static struct pool_row p;

	x->m.names = &none;
	x->res.cfg.files = 0;
	fx_account(x, 0.10, 0.0, 0.0, 0.0);
	fx_total(x);
	p = (struct pool_row){ .name = "pgbouncer's connections to unix:/tmp/pg/.s.PGSQL.5432",
			       .peer = "unix:/tmp/pg/.s.PGSQL.5432",
			       .kind = LK_CONNECTIONS, .tgid = 42, .threads = 32, .capacity = 4,
			       .how = PC_COUNTED, .waits = 40000, .wait_ns = 200000000000ull,
			       .releases = 40000, .holds = 40000, .hold_ns = 400000,
			       .holders_mean = 2.4, .waiters_mean = 25, .window_ns = 8e9,
			       .queued_ns = 2000000000ull, .nwhatif = 2,
			       .whatif = { { 8, 32, wall_8 }, { 16, 32, wall_16 } } };
	x->m.pools = &p;
	x->m.npools = 1;
	/* the proxy's name comes from its threads' accounts */
	x->rows[0].tid = 42;
	x->rows[0].k.tgid = 42;
	snprintf(x->rows[0].k.comm, sizeof(x->rows[0].k.comm), "pgbouncer");
	return x;
}

static void test_proxy_pool(void **state)
{
	struct fx *x = fx_proxy(5e9, 5e9);
	const struct diag_cause *c;

	(void)state;
	explain_run(&x->m, &x->d);
	c = cause_of(&x->d, "pool_too_small");
	assert_non_null(c);
	assert_float_equal(c->share, 200e9 / (32 * 8e9), 1e-6);
	assert_true(fig_is(c, "pid", 42));
	assert_true(fig_is(c, "capacity", 4));
	assert_true(fig_is(c, "clients", 32));
	assert_true(fig_is(c, "waiters", 25));
	assert_true(fig_is(c, "requests", 40000));
	assert_true(fig_is(c, "wait_each_ns", 200e9 / 40000));
	assert_true(fig_is(c, "held_ns", 400000));
	assert_true(fig_is(c, "all_busy_share", 0.25));
	/* a request in flight on 2.4 of the 4 connections: 60 % of the time */
	assert_true(fig_is(c, "holders", 2.4));
	/* more would gain little: 8 bounds the same work at 5 s, as 16 does */
	assert_true(fig_is(c, "window_ns", 8e9));
	assert_true(fig_is(c, "fix_items", 8));
	assert_true(fig_is(c, "fix_wall_ns", 5e9));
	assert_true(knob_is(c, "default_pool_size", 8));
	/* the peer not traced: said, and none of its figures made */
	assert_true(fig_is(c, "peer_processes", 0));
	assert_false(has_fig(c, "peer_oncpu_share"));
	assert_false(has_fig(c, "peer_wait_share"));
	show(x);
	free(x);
	/* not bounded at twice: toward the clients */
	x = fx_proxy(4e9, 2.5e9);
	explain_run(&x->m, &x->d);
	c = cause_of(&x->d, "pool_too_small");
	assert_true(fig_is(c, "fix_items", 32));
	assert_false(has_fig(c, "fix_wall_ns"));
	assert_true(knob_is(c, "default_pool_size", 32));
	free(x);
}

/* The peer traced (pools_peer.c): a request's 400 us hold of a
 * connection is 100 us on CPU (40 in syscalls), 160 runnable, 20
 * blocked, 20 in lock waits, 100 waiting on the proxy; idle 30 %. */
static void test_proxy_peer(void **state)
{
	struct fx *x = fx_proxy(5e9, 5e9);
	struct pool_row *p = x->m.pools;
	const struct diag_cause *c;

	(void)state;
	p->peer_processes = 4;
	p->peer_threads = 4;
	p->peer_connections = 4;
	p->state_ns[HS_USER] = 60000;
	p->state_ns[HS_SYSCALL] = 40000;
	p->state_ns[HS_PREEMPTED] = 160000;
	p->state_ns[HS_BLOCKED] = 20000;
	p->state_ns[HS_WAITING] = 20000;
	p->peer_wait_ns = 100000;
	p->peer_work_share = 0.75;
	p->peer_idle_share = 0.3;
	explain_run(&x->m, &x->d);
	c = cause_of(&x->d, "pool_too_small");
	assert_non_null(c);
	assert_true(fig_is(c, "peer_processes", 4));
	assert_true(fig_is(c, "peer_oncpu_share", 0.25));
	assert_true(fig_is(c, "peer_runq_share", 0.4));
	assert_true(fig_is(c, "peer_blocked_share", 0.05));
	assert_true(fig_is(c, "peer_locks_share", 0.05));
	assert_true(fig_is(c, "peer_wait_share", 0.25));
	assert_true(fig_is(c, "peer_idle_share", 0.3));
	/* runnable longer than on CPU: the CPUs bound it */
	assert_non_null(strstr(c->evidence[c->nevidence - 3], "waited for a CPU longer"));
	/* the fix still made: the figures fit the cause's room */
	assert_true(fig_is(c, "fix_items", 8));
	show(x);
	free(x);
	/* 2 of its 4 connections' peers traced: not said by halves */
	x = fx_proxy(5e9, 5e9);
	x->m.pools->peer_connections = 2;
	explain_run(&x->m, &x->d);
	c = cause_of(&x->d, "pool_too_small");
	assert_true(fig_is(c, "peer_processes", 0));
	assert_false(has_fig(c, "peer_oncpu_share"));
	assert_non_null(strstr(c->evidence[c->nevidence - 2], "only 2 of them"));
	free(x);
}

/* A start-up's few connections are no pool's misses. */
static void test_connections_few(void **state)
{
	struct fx *x = fx_conns("client");

	(void)state;
	x->m.caches[0].accesses = x->m.caches[0].misses = 10;
	x->m.caches[1].accesses = x->m.caches[1].misses = 10;
	explain_run(&x->m, &x->d);
	assert_null(cause_of(&x->d, "connections_not_kept"));
	free(x);
}

/* Re-reads under a tenth of the reads are not a cache too small. */
static void test_block_cache_few_rereads(void **state)
{
	struct fx *x = fx_blocks(10000);

	(void)state;
	explain_run(&x->m, &x->d);
	assert_null(cause_of(&x->d, "block_cache_too_small"));
	free(x);
}

/* Re-reads that cost under the floor are said among what is not the
 * problem: 150 k at 0.5 µs, 75 ms of 4 s. */
static void test_block_cache_below_floor(void **state)
{
	struct fx *x = fx_blocks(150000);

	(void)state;
	x->m.caches[0].miss_each_ns = 500;
	explain_run(&x->m, &x->d);
	assert_null(cause_of(&x->d, "block_cache_too_small"));
	assert_true(has_text(x->d.beyond, "postgres's block re-reads 1.9 % (75.0 % of its reads, "
			     "working set 100 MiB)"));
	free(x);
}

/* The same postgres, its reads O_DIRECT: the 2 threads asleep on the disk
 * 40 % of their time (1.6 s). The re-reads' 0.6 s is the block cache's
 * cause; disk_reads keeps the other 1.0 s; together, the sleep once. */
static struct fx *fx_direct_blocks(double rereads)
{
	struct fx *x = fx_blocks(rereads);

	x->m.caches[0].direct = x->m.caches[0].accesses;
	fx_account(x, 0.30, 0.0, 0.40, 0.0);
	for (unsigned i = 0; i < 2; i++) {
		x->rows[i].k.blocked_io_ns = (uint64_t)(0.40 * WALL);
		x->rows[i].k.pages_direct = 200000;
		x->rows[i].disk = (struct disk_thread_row){ .reads = 100000,
			.read_bytes = 100000ull * 8192, .read_ns = (uint64_t)(0.35 * WALL) };
	}
	fx_total(x);
	explain_run(&x->m, &x->d);
	show(x);
	return x;
}

static void test_disk_reads_beside_block_cache(void **state)
{
	struct fx *x = fx_direct_blocks(150000);
	const struct diag_cause *b = cause_of(&x->d, "block_cache_too_small");
	const struct diag_cause *d = cause_of(&x->d, "disk_reads");

	(void)state;
	assert_non_null(b);
	assert_non_null(d);
	assert_float_equal(b->share, 0.6e9 / (2.0 * WALL), 1e-6);
	assert_float_equal(d->share, 1.0e9 / (2.0 * WALL), 1e-6);
	/* of the 1.6 s asleep, the re-reads' 0.6 s are the block cache's */
	assert_true(fig_is(d, "asleep_ns", 1.6e9));
	assert_true(fig_is(d, "reread_ns", 0.6e9));
	assert_true(fig_is(d, "rereads", 150000));
	assert_true(fig_is(d, "direct_pages", 400000));
	assert_true(fig_is(d, "disk_reads", 200000));
	assert_true(fig_is(d, "read_each_bytes", 8192));
	assert_false(has_text(x->d.beyond, "the disk served"));
	free(x);
}

/* Without re-reads worth a cause, disk_reads has the whole sleep. */
static void test_disk_reads_alone(void **state)
{
	struct fx *x = fx_direct_blocks(1000);
	const struct diag_cause *d = cause_of(&x->d, "disk_reads");

	(void)state;
	assert_null(cause_of(&x->d, "block_cache_too_small"));
	assert_non_null(d);
	assert_float_equal(d->share, 0.40, 1e-6);
	assert_false(has_fig(d, "reread_ns"));		/* no re-reads beside */
	assert_true(fig_is(d, "direct_pages", 400000));
	free(x);
}

/* A program fctrace did not write, 2 threads asleep on disk reads 40 %
 * of the time: 200 k pages missed, `reread` of them removed before by
 * the one remover r (none when r is NULL). */
static struct fx *fx_evicted(const struct pc_eviction *r, uint64_t reread)
{
	static const struct lock_name none[1];
	struct fx *x = fx_new("fc", 2, true);
	struct pc_evictions *e = &x->m.evictions;

	x->m.names = none;	/* another program's run */
	fx_account(x, 0.10, 0.0, 0.40, 0.02);
	for (unsigned i = 0; i < 2; i++) {
		x->rows[i].pagecache_misses = 100000;
		x->rows[i].k.blocked_io_ns = (uint64_t)(0.40 * WALL);
	}
	fx_total(x);
	x->m.nr_total[221].count = 50000;	/* fadvise64 */
	e->on = true;
	e->reread_pages = reread;
	e->first_pages = 200000 - reread;
	e->avail_kb[0] = e->avail_kb[1] = 3 << 20;
	if (r) {
		e->e[0] = e->by_comm[0] = *r;
		e->n = e->n_by_comm = 1;
	}
	assert_true(explain_run(&x->m, &x->d) >= 1);
	assert_ptr_equal(cause_of(&x->d, "page_cache_misses"), &x->d.causes[0]);
	show(x);
	return x;
}

/* No remover under memory pressure: neither reclaim nor fctrace's
 * --pressure evictor removed a page read again. */
static bool no_pressure(const struct diag_cause *c)
{
	return !has_fig(c, "reread_reclaim_pages") && !has_fig(c, "reread_evictor_pages") &&
	       !has_fig(c, "reclaim_reread_pages");
}

static void test_pc_own_fadvise(void **state)
{
	const struct pc_eviction r = { .comm = "fio", .pid = 4242, .how = FCT_EV_FADVISE,
		.nr = 221, .target = true, .traced = true, .pages = 200000, .reread_pages = 196000,
		.npids = 8 };
	struct fx *x = fx_evicted(&r, 196000);

	const struct diag_cause *c = &x->d.causes[0];

	assert_true(fig_is(c, "reread_pages", 196000));
	assert_true(fig_is(c, "first_pages", 4000));
	assert_true(fig_is(c, "reread_own_pages", 196000));	/* it dropped its own */
	assert_true(fig_is(c, "remover_pid", 4242));
	assert_true(fig_is(c, "remover_pages", 200000));
	assert_true(fig_is(c, "remover_calls", 50000));
	/* the fix: stop fio, for its 196 k re-reads */
	assert_true(fig_is(c, "fix_pid", 4242));
	assert_true(fig_is(c, "fix_pages", 196000));
	assert_true(no_pressure(c));
	free(x);
}

static void test_pc_other_process(void **state)
{
	const struct pc_eviction r = { .comm = "cache-dropper", .pid = 812,
		.how = FCT_EV_FADVISE, .nr = 221, .pages = 150000, .reread_pages = 140000,
		.npids = 1 };
	struct fx *x = fx_evicted(&r, 140000);

	const struct diag_cause *c = &x->d.causes[0];

	assert_true(fig_is(c, "reread_other_pages", 140000));	/* another process */
	assert_false(has_fig(c, "reread_own_pages"));
	assert_true(fig_is(c, "remover_pid", 812));
	assert_true(fig_is(c, "remover_pages", 150000));
	assert_false(has_fig(c, "remover_calls"));	/* not the traced program's calls */
	assert_true(fig_is(c, "fix_pid", 812));
	assert_true(fig_is(c, "fix_pages", 140000));
	assert_true(no_pressure(c));
	free(x);
}

static void test_pc_kswapd(void **state)
{
	const struct pc_eviction r = { .comm = "kswapd0", .pid = 90, .how = FCT_EV_RECLAIM,
		.nr = FCT_EV_NO_NR, .kswapd = true, .kthread = true, .pages = 180000,
		.reread_pages = 170000, .npids = 1 };
	struct fx *x = fx_evicted(&r, 170000);

	const struct diag_cause *c = &x->d.causes[0];

	assert_true(fig_is(c, "reread_reclaim_pages", 170000));
	assert_true(fig_is(c, "remover_pages", 180000));
	assert_true(fig_is(c, "avail_start_bytes", 3072.0 * 1024 * 1024));
	assert_true(fig_is(c, "avail_end_bytes", 3072.0 * 1024 * 1024));
	/* room in memory, no process to stop, no reclaim distance to size it */
	assert_true(fig_is(c, "fix_pages", 170000));
	assert_false(has_fig(c, "fix_pid"));
	assert_false(has_fig(c, "keep_most_bytes"));
	free(x);
}

static void test_pc_drop_caches(void **state)
{
	const struct pc_eviction r = { .comm = "sh", .pid = 77, .how = FCT_EV_DROP_CACHES,
		.nr = 1, .pages = 120000, .reread_pages = 110000, .npids = 1 };
	struct fx *x = fx_evicted(&r, 110000);

	const struct diag_cause *c = &x->d.causes[0];

	assert_true(fig_is(c, "reread_drop_pages", 110000));	/* drop_caches */
	assert_true(fig_is(c, "remover_pid", 77));
	assert_true(fig_is(c, "fix_pid", 77));
	assert_true(fig_is(c, "fix_pages", 110000));
	free(x);
}

static void test_pc_first_reads(void **state)
{
	struct fx *x = fx_evicted(NULL, 0);

	const struct diag_cause *c = &x->d.causes[0];

	assert_true(fig_is(c, "first_pages", 200000));
	assert_true(fig_is(c, "reread_pages", 0));
	/* the fix is the first reads': nothing removed them */
	assert_true(fig_is(c, "fix_pages", 200000));
	assert_false(has_fig(c, "fix_pid"));
	assert_false(has_fig(c, "remover_pid"));
	assert_true(no_pressure(c));
	free(x);
}

/* ---- a process made for each connection --------------------------------- */

#define CHURNED		30
#define CHURN_WALL	10000000000ull	/* the run's window: 10 s */
#define CHURN_LIFE	100000000ull	/* each churned process: 100 ms */

/* A run of a server that forks a process for each of 30 connections: the
 * postmaster, idle in epoll_wait; with a worker (its CPU 2 s, its run
 * queue 2 s, asleep in read 6 s); and 30 processes that each lived 100 ms:
 * 20 ms user, 10 ms sys, 50 ms runnable, 20 ms asleep. */
struct churn_fx {
	struct thread_row rows[CHURNED + 2];
	struct kview kv;
	struct joined_run m;
	struct diagnosis d;
};

static void churn_row(struct thread_row *r, uint32_t tid, uint64_t begin, uint64_t life)
{
	r->tid = (pid_t)tid;
	r->k.tid = r->k.tgid = tid;
	r->has_kernel = true;
	r->start_ns = r->k.begin_ns = begin;
	r->end_ns = r->k.end_ns = begin + life;
	snprintf(r->k.comm, sizeof(r->k.comm), "postgres");
}

static struct churn_fx *churn_fx(bool worker)
{
	struct churn_fx *x = calloc(1, sizeof(*x));
	struct thread_row *r = x->rows;
	unsigned n = 0;

	assert_non_null(x);
	churn_row(&r[n], 1000, 0, CHURN_WALL);		/* the postmaster */
	au_nr(&r[n].k, __NR_epoll_wait)->count = 100;
	au_nr(&r[n].k, __NR_epoll_wait)->blocked_ns = CHURN_WALL;
	r[n].acct_ns[ACCT_BLOCKED] = CHURN_WALL;
	r[n].idle_ns = join_idle_ns(&r[n]);
	n++;
	if (worker) {
		churn_row(&r[n], 1001, 0, CHURN_WALL);
		r[n].acct_ns[ACCT_CPU_USER] = 2000000000;
		r[n].acct_ns[ACCT_RUNQ] = 2000000000;
		r[n].acct_ns[ACCT_BLOCKED] = 6000000000;
		n++;
	}
	for (unsigned i = 0; i < CHURNED; i++, n++) {
		churn_row(&r[n], 2000 + i, 200000000ull * (i + 1), CHURN_LIFE);
		r[n].k.how = FCT_HOW_FORK | FCT_HOW_EXITED;
		r[n].k.oncpu_ns = 30000000;
		r[n].acct_ns[ACCT_CPU_USER] = 20000000;
		r[n].acct_ns[ACCT_CPU_SYS] = 10000000;
		r[n].acct_ns[ACCT_RUNQ] = 50000000;
		r[n].acct_ns[ACCT_BLOCKED] = 20000000;
	}
	x->m = (struct joined_run){ .subject = "postgres", .kv = &x->kv, .groups = PG_FULL,
				   .ncpus = 2, .wall_ns = CHURN_WALL, .rows = x->rows, .nrows = n };
	x->m.nr_total[__NR_accept4].count = CHURNED;
	for (unsigned i = 0; i < n; i++) {
		x->m.thread_wall_total_ns += r[i].end_ns - r[i].start_ns;
		for (int b = 0; b < ACCT_N; b++)
			x->m.acct_total_ns[b] += r[i].acct_ns[b];
	}
	return x;
}

/* The churned processes' whole time is the cause's, and neither the run
 * queue's nor the sleeps' (counted once): with the worker, 3 s of the 13 s
 * the working threads lived (the postmaster only waited: left out); the
 * run queue keeps the worker's 2 s, the sleeps its 6 s. */
static void test_process_churn_counted_once(void **state)
{
	struct churn_fx *x = churn_fx(true);
	const struct diag_cause *c;

	(void)state;
	explain_run(&x->m, &x->d);
	c = cause_of(&x->d, "process_churn");
	assert_non_null(c);
	assert_float_equal(c->share, 3.0 / 13, 1e-9);
	assert_true(fig_is(c, "processes", CHURNED));
	assert_true(fig_is(c, "accepts", CHURNED));
	assert_true(fig_is(c, "life_each_ns", CHURN_LIFE));
	assert_true(fig_is(c, "cpu_ns", CHURNED * 30e6));
	assert_true(fig_is(c, "runq_ns", CHURNED * 50e6));
	assert_true(fig_is(c, "asleep_ns", CHURNED * 20e6));
	assert_true(fig_is(c, "cpus_share", CHURNED * 30e6 / (2.0 * CHURN_WALL)));
	assert_float_equal(cause_of(&x->d, "cpu_oversubscription")->share, 2.0 / 13, 1e-9);
	assert_float_equal(cause_of(&x->d, "blocked_other")->share, 6.0 / 13, 1e-9);
	assert_true(fig_is(cause_of(&x->d, "blocked_other"), "apart_ns", CHURNED * 20e6));
	/* a process that lived 100 ms of the 10 s is no saturated thread */
	assert_false(why_has_fig(&x->d, "threads_saturated"));
	free(x);
}

/* Without the worker the churn is all the working threads' time: first,
 * and its fix the one given. */
static void test_process_churn_first(void **state)
{
	struct churn_fx *x = churn_fx(false);

	(void)state;
	explain_run(&x->m, &x->d);
	assert_string_equal(x->d.causes[0].cause, "process_churn");
	assert_float_equal(x->d.causes[0].share, 1.0, 1e-9);
	assert_null(cause_of(&x->d, "cpu_oversubscription"));
	assert_null(cause_of(&x->d, "blocked_other"));
	assert_true(why_fig_is(&x->d, "fix_cause", 1));
	free(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_block_cache_too_small),
		cmocka_unit_test(test_block_cache_counts_the_waits_it_ends),
		cmocka_unit_test(test_lock_leaves_waits_to_block_cache),
		cmocka_unit_test(test_setting_fix_beside_code_fix),
		cmocka_unit_test(test_block_cache_innodb_margin),
		cmocka_unit_test(test_handle_cache_after_blocks),
		cmocka_unit_test(test_connections_not_kept),
		cmocka_unit_test(test_connections_knob),
		cmocka_unit_test(test_proxy_pool),
		cmocka_unit_test(test_proxy_peer),
		cmocka_unit_test(test_connections_few),
		cmocka_unit_test(test_block_cache_few_rereads),
		cmocka_unit_test(test_block_cache_below_floor),
		cmocka_unit_test(test_disk_reads_beside_block_cache),
		cmocka_unit_test(test_disk_reads_alone),
		cmocka_unit_test(test_pc_own_fadvise),
		cmocka_unit_test(test_pc_other_process),
		cmocka_unit_test(test_pc_kswapd),
		cmocka_unit_test(test_pc_drop_caches),
		cmocka_unit_test(test_pc_first_reads),
		cmocka_unit_test(test_process_churn_counted_once),
		cmocka_unit_test(test_process_churn_first),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
