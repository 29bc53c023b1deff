/*
 * test_bpf_target.c - programs fctrace did not write (tests/target_prog),
 * through session_run_target as root, against what the program does:
 * a static mutex held 200 ms while one thread waits is a 200 ms wait on
 * "session_table_lock"; a heap mutex is named by its call site, get_fd;
 * a condvar wait is an event, not a lock; threads by name; exact pread64
 * counts per thread; a forked child only with --follow; attach takes
 * over a thread already asleep on the lock, and sees a thread created
 * after it; a condvar three threads pass round is a lock taken in turns,
 * one a producer signals is an event.
 */
#include <signal.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "bpfutil.h"
#include "diagutil.h"
#include "explain/held.h"
#include "explain/roles.h"
#include "session/session.h"

#define HOLD_MS		200
#define PREADS		1000	/* target_prog's pread64 calls per reader thread */

static void full_trace(struct trace_opts *t)
{
	memset(t, 0, sizeof(*t));
	t->probes = PG_FULL;
}

static const struct thread_row *row_named(const struct joined_run *m, const char *comm)
{
	for (unsigned i = 0; i < m->nrows; i++)
		if (!strcmp(m->rows[i].k.comm, comm))
			return &m->rows[i];
	return NULL;
}

/* A lock's waits as a share of the threads' wall time, as the Why
 * counts its lock figure. */
/* The first row of the joined run the Why gave role, or NULL. */
static const struct thread_row *first_in_role(const struct session *s, enum thread_role role)
{
	assert_int_equal(s->diag.nroles, s->joined.nrows);
	for (unsigned i = 0; i < s->diag.nroles; i++)
		if (s->diag.role[i] == role)
			return &s->joined.rows[i];
	return NULL;
}

static double fig_share(const struct session *s, const struct lock_total *l)
{
	return (double)l->wait_ns / (double)s->joined.thread_wall_total_ns;
}

static int run_target(char **argv, bool follow, struct session *s)
{
	struct trace_opts t;
	struct target_opts to = { .mode = TGT_EXEC, .argv = argv, .follow = follow };

	full_trace(&t);
	return session_run_target(&t, &to, s);
}

/* Run argv to its end, which must be a clean exit. */
static void run_clean(char **argv, struct session *s)
{
	assert_int_equal(run_target(argv, false, s), 0);
	assert_int_equal(target_exit_status(&s->target), 0);
}

/* A wait of a lock held HOLD_MS: that long, give or take the wake-up. */
static void assert_held_wait(uint64_t ns)
{
	assert_in_range(ns, HOLD_MS * 900000ull, HOLD_MS * 1500000ull);
}

static void test_locks_named_and_timed(void **state)
{
	char ms[16], *argv[] = { (char *)target_prog(), "hold", ms, NULL };
	const struct lock_total *st, *heap, *cond;
	struct session s;

	BPF_TEST_REQUIRE();
	snprintf(ms, sizeof(ms), "%d", HOLD_MS);
	assert_int_equal(run_target(argv, false, &s), 0);
	assert_true(s.target.exited);
	assert_int_equal(target_exit_status(&s.target), 0);
	assert_int_equal(s.joined.nrows, 6);	/* main, 3 waiters, 2 readers */

	st = lock_starting(&s.joined, "session_table_lock (mutex)");
	assert_non_null(st);
	assert_true(st->is_lock);
	assert_int_equal(st->waits, 1);
	assert_held_wait(st->wait_ns);

	heap = lock_starting(&s.joined, "mutex @ get_fd+");
	assert_non_null(heap);
	assert_non_null(strstr(heap->name, "target_prog.c:"));
	assert_true(heap->is_lock);
	assert_held_wait(heap->wait_ns);

	cond = lock_starting(&s.joined, "cond (condvar)");
	assert_non_null(cond);
	assert_false(cond->is_lock);
	assert_held_wait(cond->wait_ns);

	/* the waiter's account: its lock wait is its window, near enough */
	assert_non_null(row_named(&s.joined, "waiter-static"));
	assert_held_wait(row_named(&s.joined, "waiter-static")->acct_ns[ACCT_LOCK_NAMED]);
	assert_held_wait(row_named(&s.joined, "waiter-cond")->acct_ns[ACCT_FUTEX_OTHER]);
	/* main sleeps holding both mutexes after their waiters fell asleep
	 * on them: gates, their waiters parked and left out of the shares,
	 * and named as such rather than as contention or "lock waits < 1 %" */
	assert_non_null(strstr(s.diag.headline, "Why target_prog took"));
	assert_true(held_is_gate(&st->holders));
	assert_true(held_is_gate(&heap->holders));
	assert_int_equal(s.diag.role[row_named(&s.joined, "waiter-static") - s.joined.rows],
			 ROLE_PARKED);
	assert_int_equal(s.diag.role[row_named(&s.joined, "waiter-heap") - s.joined.rows],
			 ROLE_PARKED);
	assert_null(cause_of(&s.diag, "user_lock_contention"));
	assert_true(why_fig_is(&s.diag, "threads_parked", 2));
	assert_false(why_has_fig(&s.diag, "lock_share"));
	/* waiter-cond did nothing but wait to be signalled: shown, no cause */
	assert_null(cause_of(&s.diag, "event_wait"));
	assert_true(s.diag.threads[0]);
	assert_ptr_equal(first_in_role(&s, ROLE_IDLE), row_named(&s.joined, "waiter-cond"));
	/* only its re-take of cond_mu after the signal is a lock wait */
	assert_true(row_named(&s.joined, "waiter-cond")->acct_ns[ACCT_LOCK_NAMED] <
		    HOLD_MS * 100000ull);
	session_free(&s);
}

static void test_exact_counts_and_names(void **state)
{
	char *argv[] = { (char *)target_prog(), "hold", "10", NULL };
	const char *names[] = { "target_prog", "waiter-static", "waiter-heap", "waiter-cond",
				"reader-0", "reader-1" };
	struct session s;

	BPF_TEST_REQUIRE();
	assert_int_equal(run_target(argv, false, &s), 0);
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		assert_non_null(row_named(&s.joined, names[i]));
	for (int r = 0; r < 2; r++) {
		const struct thread_row *row = row_named(&s.joined, r ? "reader-1" : "reader-0");

		assert_int_equal(acct_nr(&row->k, __NR_pread64)->count, PREADS);
		assert_int_equal(acct_nr(&row->k, __NR_openat)->count, 1);
		assert_int_equal(acct_nr(&row->k, __NR_close)->count, 1);
		assert_int_equal(acct_nr(&row->k, 17)->count, PREADS);	/* x86-64 pread64 */
		assert_true(row->k.how & FCT_HOW_FORK);
		assert_true(row->k.how & FCT_HOW_EXITED);
	}
	assert_true(row_named(&s.joined, "target_prog")->k.how & FCT_HOW_EXEC);
	for (unsigned i = 0; i < s.joined.nrows; i++)
		assert_in_range(s.joined.rows[i].accounted_ratio, 0.999, 1.001);
	session_free(&s);
}

/* The child's 300 preads are seen with --follow, and only then. */
static uint64_t preads_of_others(const struct session *s, pid_t parent)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < s->joined.nrows; i++)
		if (s->joined.rows[i].k.tgid != (uint32_t)parent)
			n += acct_nr(&s->joined.rows[i].k, __NR_pread64)->count;
	return n;
}

static void test_follow_forks(void **state)
{
	char *argv[] = { (char *)target_prog(), "fork", "300", NULL };
	struct session s;

	BPF_TEST_REQUIRE();
	assert_int_equal(run_target(argv, true, &s), 0);
	assert_int_equal(s.joined.nrows, 2);
	assert_int_equal(preads_of_others(&s, s.target.pid), 300);
	session_free(&s);
	assert_int_equal(run_target(argv, false, &s), 0);
	assert_int_equal(s.joined.nrows, 1);
	assert_int_equal(preads_of_others(&s, s.target.pid), 0);
	session_free(&s);
}

/* target_prog serve: holds the lock with a waiter asleep on it, says
 * "ready", and goes on at a line on its stdin. */
static void serve_start(struct gated *sv)
{
	const char *args[] = { "serve", "200", NULL };

	gated_start(sv, args);
}

/* A static object past the file-backed pages (its .bss outgrows them) is
 * named by its symbol all the same, not by the call site. */
static void test_bss_lock_named(void **state)
{
	char ms[16], *argv[] = { (char *)target_prog(), "bss", ms, NULL };
	const struct lock_total *l;
	struct session s;

	BPF_TEST_REQUIRE();
	snprintf(ms, sizeof(ms), "%d", HOLD_MS);
	run_clean(argv, &s);
	l = lock_starting(&s.joined, "big_store+0x400000 (mutex)");
	assert_non_null(l);
	assert_int_equal(l->waits, 1);
	assert_held_wait(l->wait_ns);
	session_free(&s);
}

/* The wait-for graph's roots on the chain: every wait ends in the inner
 * thread's sleep (the outer threads wait on outer_lock for a holder that
 * waits on inner_lock), so it keeps most of the edges' time, and what
 * the threads keep sums to the edges' time. */
static void check_wait_roots(const struct wait_graph *g)
{
	double edges = g->more_wait_ns, kept = 0;

	for (int i = 0; i < g->nedges; i++)
		edges += g->edges[i].wait_ns;
	for (int i = 0; i < g->nroots; i++)
		kept += g->roots[i].ended_ns;
	print_message("  wait roots: %s keeps %.1f of %.1f ms\n", g->nroots ? g->roots[0].comm : "-",
		      g->nroots ? g->roots[0].ended_ns / 1e6 : 0, edges / 1e6);
	assert_true(g->nroots >= 1);
	assert_string_equal(g->roots[0].comm, "inner");
	assert_true(g->roots[0].ended_ns > 0.75 * edges);
	assert_true(kept > 0.999 * edges && kept < 1.001 * edges);
}

/* A lock chain (target_prog chain): outer_lock's holders wait for
 * inner_lock, which its own holder keeps 2 ms at a time: outer_lock's
 * held time is mostly "waiting for another lock", and that lock is
 * named; the chain's root is inner_lock's holder's sleep. */
static void test_lock_chain_named(void **state)
{
	char *argv[] = { (char *)target_prog(), "chain", "100", NULL };
	const struct lock_holders *h;
	const struct lock_total *l;
	struct session s;

	BPF_TEST_REQUIRE();
	run_clean(argv, &s);
	l = lock_starting(&s.joined, "outer_lock");
	assert_non_null(l);
	h = &l->holders;
	assert_true(h->measured);
	print_message("  outer_lock held %.1f ms, waiting %.1f ms; first in chain: %s, %llu waits\n",
		      h->held_ns / 1e6, h->state_ns[HS_WAITING] / 1e6,
		      h->nchain ? h->chain[0].lock : "-",
		      h->nchain ? (unsigned long long)h->chain[0].count : 0ull);
	assert_true(h->state_ns[HS_WAITING] * 2 > h->held_ns);
	assert_true(h->nchain >= 1);
	assert_non_null(strstr(h->chain[0].lock, "inner_lock"));
	/* 200 holds of outer_lock, each takes inner_lock once */
	assert_in_range(h->chain[0].count, 1, 400);
	/* the chain to its root: outer_lock, then inner_lock, whose holder
	 * sleeps in clock_nanosleep holding it (its 2 ms); inner_lock's own
	 * root is that sleep */
	print_message("  root: %d links, %s %.0f %%, state %s, call %d\n", l->root.nlinks,
		      l->root.nlinks > 1 ? l->root.link[1] : "-", 100 * l->root.share[1],
		      hold_state_name(l->root.state), l->root.nr);
	assert_int_equal(l->root.nlinks, 2);
	assert_string_equal(l->root.link[0], l->name);
	assert_non_null(strstr(l->root.link[1], "inner_lock"));
	assert_int_equal(l->root.state, HS_BLOCKED);
	assert_int_equal(l->root.nr, __NR_clock_nanosleep);
	assert_false(l->root.cycle);
	l = lock_starting(&s.joined, "inner_lock");
	assert_non_null(l);
	assert_int_equal(l->root.nlinks, 1);
	assert_int_equal(l->root.state, HS_BLOCKED);
	assert_int_equal(l->root.nr, __NR_clock_nanosleep);
	check_wait_roots(&s.joined.graph);
	session_free(&s);
}

static void test_attach_adopts_and_sees_new_threads(void **state)
{
	struct gated sv;
	struct trace_opts t;
	struct target_opts to = { .mode = TGT_ATTACH, .on_window = gated_go, .window_arg = &sv };
	const struct thread_row *waiter, *late;
	struct session s;

	BPF_TEST_REQUIRE();
	serve_start(&sv);
	to.pid = sv.pid;
	full_trace(&t);
	assert_int_equal(session_run_target(&t, &to, &s), 0);
	assert_true(s.target.exited);	/* it ended: the attach ended with it */
	waiter = row_named(&s.joined, "waiter-static");
	late = row_named(&s.joined, "late");
	assert_non_null(waiter);
	assert_non_null(late);
	assert_true(waiter->k.how & FCT_HOW_ATTACH);
	assert_true(waiter->k.how & FCT_HOW_IN_FUTEX);	/* asleep on the lock at attach */
	assert_held_wait(waiter->acct_ns[ACCT_LOCK_NAMED]);
	/* by its symbol; its kind ("mutex") only when a stack was sampled: the
	 * wait began before the attach, so its start was not seen */
	assert_non_null(lock_starting(&s.joined, "session_table_lock ("));
	assert_true(late->k.how & FCT_HOW_FORK);
	assert_int_equal(acct_nr(&late->k, __NR_pread64)->count, PREADS);
	gated_end(&sv);
	session_free(&s);
}

/* target_prog tree: its children already asleep in read(); *kids gets
 * their pids, from its "ready PID..." line. */
#define TREE_KIDS	3

static void tree_start(struct gated *sv, int *kids)
{
	char n[8];
	const char *args[] = { "tree", n, NULL };

	snprintf(n, sizeof(n), "%d", TREE_KIDS);
	gated_start(sv, args);
	assert_int_equal(sscanf(sv->ready, "ready %d %d %d", &kids[0], &kids[1], &kids[2]),
			 TREE_KIDS);
}

static uint64_t preads_named(const struct session *s, const char *comm)
{
	const struct thread_row *r = row_named(&s->joined, comm);

	return r ? acct_nr(&r->k, __NR_pread64)->count : UINT64_MAX;
}

/* attach --follow to a parent whose children and grandchild already
 * run: every one is taken over, and each one's preads counted exactly. */
static void test_attach_follow_takes_in_running_children(void **state)
{
	struct gated sv;
	struct trace_opts t;
	struct target_opts to = { .mode = TGT_ATTACH, .follow = true, .on_window = gated_go,
				  .window_arg = &sv };
	struct session s;
	int kids[TREE_KIDS];

	BPF_TEST_REQUIRE();
	tree_start(&sv, kids);
	to.pid = sv.pid;
	full_trace(&t);
	assert_int_equal(session_run_target(&t, &to, &s), 0);
	assert_true(s.target.exited);
	assert_int_equal(s.joined.nrows, TREE_KIDS + 2);
	assert_int_equal(preads_named(&s, "child-0"), 100);
	assert_int_equal(preads_named(&s, "child-1"), 200);
	assert_int_equal(preads_named(&s, "child-2"), 300);
	assert_int_equal(preads_named(&s, "grandchild"), 50);
	assert_true(row_named(&s.joined, "grandchild")->k.how & FCT_HOW_ATTACH);
	gated_end(&sv);
	session_free(&s);
}

/* attach -p A,B: the processes listed, and none other. */
static void test_attach_list(void **state)
{
	struct gated sv;
	struct trace_opts t;
	struct target_opts to = { .mode = TGT_ATTACH, .on_window = gated_go, .window_arg = &sv };
	struct session s;
	int kids[TREE_KIDS];

	BPF_TEST_REQUIRE();
	tree_start(&sv, kids);
	to.pids[0] = sv.pid;
	to.pids[1] = kids[1];
	to.pids[2] = kids[2];
	to.pid = sv.pid;
	to.npids = 3;
	full_trace(&t);
	assert_int_equal(session_run_target(&t, &to, &s), 0);
	assert_int_equal(s.joined.nrows, 3);
	assert_int_equal(preads_named(&s, "child-1"), 200);
	assert_int_equal(preads_named(&s, "child-2"), 300);
	assert_int_equal(preads_named(&s, "child-0"), UINT64_MAX);	/* not listed */
	gated_end(&sv);
	session_free(&s);
}

/* Two processes that wake each other through a latch N times: each
 * sleep is booked to the sibling, by the way it was woken, and each
 * waker's wakes counted, exactly. */
#define LATCH_ROUNDS	100

/* The same sleeps as edges between the two threads, each way: a waited
 * for b's writes, b for a's kills, LATCH_ROUNDS wakes each; and in the
 * wait-for graph. */
static void check_latch_edges(const struct joined_run *m, pid_t a, pid_t b)
{
	bool a_for_b = false, b_for_a = false;

	assert_int_equal(m->nsib_edges, 2);
	for (int i = 0; i < m->nsib_edges; i++) {
		const struct sib_edge *e = &m->sib_edges[i];

		assert_int_equal(e->wakes, LATCH_ROUNDS);
		assert_string_equal(e->call, "close");
		a_for_b |= e->waiter == a && e->waker == b && e->by == FCT_WAKE_WRITE;
		b_for_a |= e->waiter == b && e->waker == a && e->by == FCT_WAKE_SIGNAL;
	}
	assert_true(a_for_b && b_for_a);
	assert_int_equal(m->graph.nedges, 2);
	for (int i = 0; i < m->graph.nedges; i++)
		assert_true(!strcmp(m->graph.edges[i].via, "write after close") ||
			    !strcmp(m->graph.edges[i].via, "signal after close"));
}

static void test_latch_between_processes(void **state)
{
	char n[16], *argv[] = { (char *)target_prog(), "latch", n, NULL };
	const struct thread_row *a, *b;
	struct session s;
	double root;

	BPF_TEST_REQUIRE();
	snprintf(n, sizeof(n), "%d", LATCH_ROUNDS);
	assert_int_equal(run_target(argv, true, &s), 0);
	a = row_named(&s.joined, "latch-a");
	b = row_named(&s.joined, "latch-b");
	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(b->k.sib_waits[FCT_WAKE_SIGNAL], LATCH_ROUNDS);	/* a's kill */
	assert_int_equal(b->k.sib_waits[FCT_WAKE_WRITE], 0);
	assert_int_equal(a->k.sib_wakes[FCT_WAKE_SIGNAL], LATCH_ROUNDS);
	assert_int_equal(a->k.sib_waits[FCT_WAKE_WRITE], LATCH_ROUNDS);	/* b's write */
	assert_int_equal(a->k.sib_waits[FCT_WAKE_SIGNAL], 0);
	assert_int_equal(b->k.sib_wakes[FCT_WAKE_WRITE], LATCH_ROUNDS);
	assert_true(a->k.sib_wait_ns[FCT_WAKE_WRITE] > 0);
	assert_true(a->k.sib_wait_ns[FCT_WAKE_WRITE] <= a->k.blocked_ns);
	assert_true(b->k.sib_wait_ns[FCT_WAKE_SIGNAL] <= b->k.blocked_ns);
	/* what each waker finished just before its kill or write: the close of
	 * the /proc status file it read to see the other asleep, every time */
	assert_true(s.joined.sib_measured);
	for (int by = FCT_WAKE_SIGNAL; by <= FCT_WAKE_WRITE; by++) {
		const struct sib_wakers *w = &s.joined.sib[by];

		print_message("  %s: %llu wakes, first after %s (%llu)\n", sib_kind_names[by],
			      (unsigned long long)w->wakes, w->nafter ? w->after[0].call : "-",
			      w->nafter ? (unsigned long long)w->after[0].wakes : 0ull);
		assert_int_equal(w->wakes, LATCH_ROUNDS);
		assert_int_equal(w->nafter, 1);
		assert_string_equal(w->after[0].call, "close");
		assert_int_equal(w->after[0].wakes, LATCH_ROUNDS);
	}
	assert_int_equal(s.joined.sib[FCT_WAKE_REQUEST].wakes, 0);
	check_latch_edges(&s.joined, a->tid, b->tid);
	/* the Why names the latch, with the count, as a wait for a sibling */
	assert_non_null(cause_of(&s.diag, "sibling_wait"));
	assert_true(fig_is(cause_of(&s.diag, "sibling_wait"), "waits", 2 * LATCH_ROUNDS));
	/* and where the waits end: a latch process, asleep in epoll_wait (a
	 * call's name: words) */
	root = fig_of(cause_of(&s.diag, "sibling_wait"), "root_tid");
	assert_true(root == a->tid || root == b->tid);
	assert_true(any_evidence(cause_of(&s.diag, "sibling_wait"), "mostly in epoll_wait"));
	session_free(&s);
}

/* A shell's echo writes REQUESTS lines into a pipe that cat reads, one
 * every 20 ms: each write ends cat's sleep in read, and the writer runs
 * another program (dash, not cat): a request handed over, not a latch.
 * Exact counts on both sides; no sibling_wait cause, and the sleeps'
 * cause says where the requests came from. */
#define REQUESTS	40

static void test_request_from_another_program(void **state)
{
	char script[160], *argv[] = { "/bin/sh", "-c", script, NULL };
	const struct thread_row *cat, *by = NULL;
	struct session s;

	BPF_TEST_REQUIRE();
	snprintf(script, sizeof(script), "{ sleep 0.3; i=0; while [ $i -lt %d ]; do echo x; "
		 "sleep 0.02; i=$((i+1)); done; } | cat > /dev/null", REQUESTS);
	assert_int_equal(run_target(argv, true, &s), 0);
	cat = row_named(&s.joined, "cat");
	assert_non_null(cat);
	assert_int_equal(cat->k.sib_waits[FCT_WAKE_REQUEST], REQUESTS);
	assert_int_equal(cat->k.sib_waits[FCT_WAKE_WRITE], 0);
	assert_true(cat->k.sib_wait_ns[FCT_WAKE_REQUEST] <= cat->k.blocked_ns);
	for (unsigned i = 0; i < s.joined.nrows; i++)
		if (s.joined.rows[i].k.sib_wakes[FCT_WAKE_REQUEST])
			by = &s.joined.rows[i];
	assert_non_null(by);
	assert_string_equal(by->k.comm, "sh");
	assert_int_equal(by->k.sib_wakes[FCT_WAKE_REQUEST], REQUESTS);
	assert_null(cause_of(&s.diag, "sibling_wait"));
	session_free(&s);
}

static bool diag_says(const struct diagnosis *d, const char *text);

/* A server of a process a connection (target_prog forkserver: 40
 * connections, each served by a "conn" process that spins 20 ms): the
 * Why counts the 40 processes made and ended and their CPU; a program
 * that forks as much but accepts nothing (forker) is not said to churn. */
static void test_process_churn(void **state)
{
	char *serve[] = { (char *)target_prog(), "forkserver", "40", "20", NULL };
	char *forks[] = { (char *)target_prog(), "forker", "40", "20", NULL };
	const struct diag_cause *c;
	struct session s;

	BPF_TEST_REQUIRE();
	assert_int_equal(run_target(serve, true, &s), 0);
	assert_int_equal(s.joined.nr_total[__NR_accept4].count, 40);
	c = cause_of(&s.diag, "process_churn");
	assert_non_null(c);
	assert_true(fig_is(c, "processes", 40));
	assert_true(fig_is(c, "accepts", 40));
	assert_true(c->share > 0);
	session_free(&s);
	assert_int_equal(run_target(forks, true, &s), 0);
	assert_null(cause_of(&s.diag, "process_churn"));
	session_free(&s);
}

/* Three processes take one process-shared semaphore as a lock: it is a
 * lock in the table and in the Why alike, not an event. */
static void test_semaphore_as_lock(void **state)
{
	char *argv[] = { (char *)target_prog(), "semlock", "30", NULL };
	const struct lock_total *l;
	const struct diag_cause *c;
	struct session s;

	BPF_TEST_REQUIRE();
	assert_int_equal(run_target(argv, true, &s), 0);
	assert_int_equal(s.joined.nrows, 3);
	l = lock_starting(&s.joined, "semaphore used as a lock @ semlock_section+");
	assert_non_null(l);
	assert_true(l->is_lock);
	assert_true(l->waits > 0);
	c = cause_of(&s.diag, "user_lock_contention");
	if (!c)
		fail_msg("no user_lock_contention cause");
	assert_in_range((uint64_t)(c->share * 1e6), (uint64_t)(fig_share(&s, l) * 1e6) - 1,
			(uint64_t)(fig_share(&s, l) * 1e6) + 1);
	session_free(&s);
}

/* Does any cause of d say text, in its title or its evidence? */
static bool diag_says(const struct diagnosis *d, const char *text)
{
	for (int i = 0; i < d->n; i++) {
		if (strstr(d->causes[i].title, text))
			return true;
		for (int e = 0; e < d->causes[i].nevidence; e++)
			if (strstr(d->causes[i].evidence[e], text))
				return true;
	}
	return false;
}

/* A writer that fdatasyncs N times: each call counted, and the Why
 * names them with their count when they slept (not on tmpfs). */
static void test_durable_writes_named(void **state)
{
	char *argv[] = { (char *)target_prog(), "fsync", "200", NULL };
	const struct thread_row *r;
	struct session s;

	BPF_TEST_REQUIRE();
	run_clean(argv, &s);
	r = row_named(&s.joined, "target_prog");
	assert_non_null(r);
	assert_int_equal(acct_nr(&r->k, SYS_fdatasync)->count, 200);
	assert_int_equal(acct_nr(&r->k, SYS_write)->count, 200);
	if (acct_nr(&r->k, SYS_fdatasync)->blocked_ns > 0)
		assert_true(diag_says(&s.diag, "200 fdatasync calls"));
	session_free(&s);
}

/* A group commit: the writers' waits on gc_commit end with the flusher's
 * broadcast, which only it makes, each right after its fdatasync; the
 * flusher's on gc_work with a writer's signal, right after its write.
 * The wakers' count is the lock's (one figure), and the Why says what
 * ends the waits. */
/* What the wakers did between their wakes of gc_commit (the flusher's
 * broadcasts, and now and then a writer's): one span a wake after each
 * waker's first; the states add up to the spans, and the writers' waits,
 * charged in the same proportions, to their time; asleep (the flusher's
 * fdatasync) the largest share but the run queue's. */
static void check_while_waited(const struct lock_total *commit, const struct joined_run *m)
{
	const struct lock_wakers *w = &commit->wakers;
	double between = 0, charged = 0;

	assert_true(w->cycles > 0 && w->cycles < w->wakes);
	/* each waker's spans lie inside the run, one after another (by the
	 * condvar, not by its two group words, whose spans would overlap) */
	assert_true(w->span_ns <= (double)m->wall_ns * (w->nthreads + w->more_threads));
	for (int k = 0; k < HS_N; k++) {
		between += w->between_ns[k];
		charged += w->while_waited_ns[k];
	}
	assert_true(fabs(between - w->span_ns) <= HS_N + w->span_ns * 1e-9);
	assert_true(fabs(charged - (double)commit->wait_ns) <= HS_N);
	/* the run queue's share is the machine's load (a busy one preempts the
	 * flusher more than its fdatasync sleeps): left out of the order */
	assert_true(w->while_waited_ns[HS_BLOCKED] > 0);
	for (int k = 0; k < HS_N; k++)
		if (k != HS_PREEMPTED)
			assert_true(w->while_waited_ns[HS_BLOCKED] >= w->while_waited_ns[k]);
}

static void test_group_commit_wakers(void **state)
{
	char *argv[] = { (char *)target_prog(), "groupcommit", "200", NULL };
	const struct lock_total *commit, *work;
	const struct thread_row *flusher;
	struct session s;

	BPF_TEST_REQUIRE();
	run_clean(argv, &s);
	flusher = row_named(&s.joined, "flusher");
	commit = lock_starting(&s.joined, "gc_commit (condvar)");
	work = lock_starting(&s.joined, "gc_work (condvar)");
	assert_non_null(flusher);
	assert_non_null(commit);
	assert_non_null(work);
	assert_true(commit->wakers.wakes > 0);
	assert_int_equal(commit->wakers.wakes, commit->wakes);
	assert_int_equal(commit->wakers.threads[0].tid, flusher->tid);
	assert_string_equal(commit->wakers.after[0].call, "fdatasync");
	/* the flusher's broadcasts all; a waiter's own wake of a waiter
	 * (glibc's condvar hands a stolen signal on) would be the rest */
	assert_true(commit->wakers.after[0].wakes * 100 >= commit->wakers.wakes * 95);
	assert_true(commit->wakers.after[0].wakes <= acct_nr(&flusher->k, SYS_fdatasync)->count);
	assert_int_equal(work->wakers.wakes, work->wakes);
	assert_string_equal(work->wakers.after[0].call, "write");
	assert_int_equal(commit->wakers.cls, WC_DURABLE);
	assert_int_equal(work->wakers.cls, WC_OUTPUT);
	if (!diag_says(&s.diag, "The waits end when flusher's fdatasync returns")) {
		for (int i = 0; i < s.diag.n; i++) {	/* what the Why said instead */
			print_message("  cause %s: %s\n", s.diag.causes[i].cause,
				      s.diag.causes[i].title);
			for (int e = 0; e < s.diag.causes[i].nevidence; e++)
				print_message("    %s\n", s.diag.causes[i].evidence[e]);
		}
		fail_msg("the Why does not say the waits end when the flusher's fdatasync returns");
	}
	check_while_waited(commit, &s.joined);
	/* the Why names the root first: the flusher's call, not the condvar */
	if (cause_of(&s.diag, "event_wait"))
		assert_non_null(strstr(cause_of(&s.diag, "event_wait")->title,
				       "waiting for another thread's fdatasync"));
	session_free(&s);
}

/* Every wait of a condvar the turn threads pass round is woken by one
 * of them; the producer that signals the consumer never waits on its
 * condvar. */
static void test_turns_and_events(void **state)
{
	char *argv[] = { (char *)target_prog(), "turns", "500", NULL };
	int batons = 0, queues = 0;
	struct session s;

	BPF_TEST_REQUIRE();
	run_clean(argv, &s);
	for (int i = 0; i < s.joined.nlocks; i++) {
		const struct lock_total *l = &s.joined.locks[i];

		if (l->kernel || !strstr(l->name, "(condvar"))
			continue;
		if (!strncmp(l->name, "baton+", 6) && l->wakes) {
			batons++;
			assert_true(l->turns);
			assert_true(l->is_lock);
			assert_int_equal(l->wakes_by_waiters, l->wakes);
			if (!strstr(l->name, "(condvar taken in turns)"))
				fail_msg("the baton is named %s", l->name);
		} else if (!strncmp(l->name, "queue+", 6)) {
			queues++;
			assert_false(l->turns);
			assert_false(l->is_lock);
			assert_int_equal(l->wakes_by_waiters, 0);
			assert_int_equal(l->threads, 1);
		}
	}
	assert_true(batons >= 1);
	assert_true(queues >= 1);
	for (int t = 0; t < 3; t++) {
		char name[16];
		const struct thread_row *r;

		snprintf(name, sizeof(name), "turn-%d", t);
		assert_non_null(r = row_named(&s.joined, name));
		assert_true(r->acct_ns[ACCT_LOCK_NAMED] > 0);	/* its turn waits */
	}
	session_free(&s);
}

/*
 * One producer, four workers, two static condvars side by side (git
 * grep's shape): the workers wait for work on cond_add, which only the
 * producer wakes, and the producer waits on cond_result, which the
 * workers wake. Each word belongs to its own condvar (48 bytes), not to
 * the one beside it: neither is taken in turns, both are events; and
 * the workers are said to wait for work, not for a lock.
 */
static void test_work_queue_condvars_are_events(void **state)
{
	char *argv[] = { (char *)target_prog(), "workq", "4000", NULL };
	const struct lock_total *add;
	struct session s;

	BPF_TEST_REQUIRE();
	run_clean(argv, &s);
	add = lock_starting(&s.joined, "cond_add (condvar)");
	assert_non_null(add);
	assert_false(add->turns);
	assert_false(add->is_lock);
	/* a waiter that stole a signal hands it on (glibc), a few at most */
	if (add->wakes_by_waiters * 10 > add->wakes)
		fail_msg("cond_add: %llu of %llu wakes by its waiters",
			 (unsigned long long)add->wakes_by_waiters, (unsigned long long)add->wakes);
	assert_true(add->threads >= 3);
	for (int i = 0; i < s.joined.nlocks; i++) {
		const struct lock_total *l = &s.joined.locks[i];

		if (l->turns)
			fail_msg("%s: a work queue's condvar said to be taken in turns", l->name);
		/* no lock for the Why's user_lock_contention to name */
		if (!strncmp(l->name, "cond_", 5))
			assert_false(l->is_lock);
	}
	session_free(&s);
}

/* Debian's CPython, which nobody here wrote: its GIL is a mutex and a condvar in
 * _PyRuntime; four threads pass it round, so the condvar is a lock taken
 * in turns, named by symbol and offset. */
static void test_python_gil_taken_in_turns(void **state)
{
	char *argv[] = { "/usr/bin/python3", "tests/gil.py", "4", "20000", NULL };
	const struct lock_total *gil = NULL;
	struct session s;

	BPF_TEST_REQUIRE();
	run_clean(argv, &s);
	for (int i = 0; i < s.joined.nlocks; i++) {
		const struct lock_total *l = &s.joined.locks[i];

		if (strstr(l->name, "_PyRuntime+") && l->kind == LK_CONDVAR && l->turns &&
		    (!gil || l->wakes > gil->wakes))
			gil = &s.joined.locks[i];
	}
	if (!gil)
		fail_msg("no _PyRuntime condvar taken in turns among %d locks (first: %s)",
			 s.joined.nlocks, s.joined.nlocks ? s.joined.locks[0].name : "-");
	assert_true(gil->is_lock && gil->turns);
	assert_true(gil->threads >= 3);
	assert_true(gil->wakes_by_waiters * 2 > gil->wakes);
	session_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_locks_named_and_timed),
		cmocka_unit_test(test_exact_counts_and_names),
		cmocka_unit_test(test_follow_forks),
		cmocka_unit_test(test_bss_lock_named),
		cmocka_unit_test(test_lock_chain_named),
		cmocka_unit_test(test_attach_adopts_and_sees_new_threads),
		cmocka_unit_test(test_attach_follow_takes_in_running_children),
		cmocka_unit_test(test_attach_list),
		cmocka_unit_test(test_latch_between_processes),
		cmocka_unit_test(test_request_from_another_program),
		cmocka_unit_test(test_durable_writes_named),
		cmocka_unit_test(test_semaphore_as_lock),
		cmocka_unit_test(test_group_commit_wakers),
		cmocka_unit_test(test_turns_and_events),
		cmocka_unit_test(test_work_queue_condvars_are_events),
		cmocka_unit_test(test_python_gil_taken_in_turns),
		cmocka_unit_test(test_process_churn),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
