/*
 * test_roles.c - the threads' roles (explain/roles.c) over hand-built
 * joined runs of programs fctrace did not write: a saturated event loop
 * with idle helpers is cause #1 by its own figures, a joining main
 * thread and idle workers are shown but never causes, and the shares
 * leave them out; the competing process is named. A count the Why gives
 * is the table's, whichever threads the shares are of.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "acctutil.h"
#include "base/sysnames.h"
#include "explain/held.h"
#include "explain/roles.h"
#include "explain/words.h"
#include "report/report.h"
#include "report/why.h"
#include "diagutil.h"

#define MAXT	6
#define WALL	5000000000ull	/* every thread's window: 5 s */
#define EPS	1e-9

struct fx {
	struct subject_timings res;	/* the rows' own timings: none but windows */
	struct thread_timings ts[MAXT];
	struct thread_row rows[MAXT];
	struct lock_total locks[4];
	struct lock_name names[4];
	struct kview kv;
	struct joined_run m;
	struct diagnosis d;
};

static struct fx *fx_new(const char *prog, unsigned n)
{
	struct fx *x = calloc(1, sizeof(*x));

	x->res.nthreads = n;
	x->res.threads = x->ts;
	x->res.wall_ns = WALL;
	x->m = (struct joined_run){ .subject = prog, .timings = &x->res, .kv = &x->kv, .groups = PG_FULL, .ncpus = 2,
				   .wall_ns = WALL, .rows = x->rows, .nrows = n, .locks = x->locks,
				   .names = x->names };
	for (unsigned i = 0; i < n; i++) {
		x->ts[i] = (struct thread_timings){ .tid = 100 + (pid_t)i, .end_ns = WALL };
		x->rows[i].own = &x->ts[i];
		x->rows[i].tid = 100 + (pid_t)i;
		x->rows[i].end_ns = WALL;
		x->rows[i].has_kernel = true;
		snprintf(x->rows[i].k.comm, sizeof(x->rows[i].k.comm), "%s", prog);
	}
	return x;
}

/* Row i's account as shares of its window. */
static void fx_acct(struct fx *x, unsigned i, double user, double sys, double lock,
		    double other, double blocked, double runq)
{
	uint64_t *a = x->rows[i].acct_ns;

	a[ACCT_CPU_USER] = (uint64_t)llround(user * WALL);
	a[ACCT_CPU_SYS] = (uint64_t)llround(sys * WALL);
	a[ACCT_LOCK_NAMED] = (uint64_t)llround(lock * WALL);
	a[ACCT_FUTEX_OTHER] = (uint64_t)llround(other * WALL);
	a[ACCT_BLOCKED] = (uint64_t)llround(blocked * WALL);
	a[ACCT_RUNQ] = (uint64_t)llround(runq * WALL);
}

/* Row i waited on a named word of a kind (an event unless is_lock). */
static void fx_use(struct fx *x, unsigned i, const char *name, enum lock_kind kind, bool is_lock,
		   double share)
{
	struct lock_use *u = &x->rows[i].locks[x->rows[i].nlocks++];

	snprintf(u->name, sizeof(u->name), "%s", name);
	u->kind = kind;
	u->is_lock = is_lock;
	u->waits = 10;
	u->wait_ns = (uint64_t)llround(share * WALL);
	u->max_ns = u->wait_ns;
}

static void fx_calls(struct fx *x, unsigned i, const char *call, uint64_t n, double blocked)
{
	int nr = syscall_nr(call);

	assert_true(nr >= 0);
	au_nr(&x->rows[i].k, nr)->count = n;
	au_nr(&x->rows[i].k, nr)->blocked_ns = (uint64_t)llround(blocked * WALL);
	x->rows[i].idle_ns = join_idle_ns(&x->rows[i]);
}

/* What join_run sums: the rows', and the words' from the rows. */
static void fx_total(struct fx *x)
{
	struct joined_run *m = &x->m;

	m->nlocks = 0;
	for (unsigned i = 0; i < m->nrows; i++) {
		for (int j = 0; j < x->rows[i].nlocks; j++) {
			const struct lock_use *u = &x->rows[i].locks[j];
			struct lock_total *t = join_lock_total(m, u->name, false, u->is_lock);

			t->kind = u->kind;

			t->waits += u->waits;
			t->wait_ns += u->wait_ns;
			t->threads++;
		}
	}
	m->event_wait_ns = 0;
	for (int j = 0; j < m->nlocks; j++)
		if (!m->locks[j].is_lock)
			m->event_wait_ns += m->locks[j].wait_ns;
	join_sum_rows(m);
}

static void fx_free(struct fx *x)
{
	free(x->m.locks);
	free(x);
}

/* The rows the Why gave role, a bit for each row's index. */
static unsigned rows_in_role(const struct diagnosis *d, enum thread_role role)
{
	unsigned rows = 0;

	for (unsigned i = 0; i < d->nroles && i < 32; i++)
		if (d->role[i] == role)
			rows |= 1u << i;
	return rows;
}

static void show(struct fx *x)
{
	if (getenv("EXPLAIN_SHOW"))
		why_print(stderr, &x->d);
}

/*
 * One event loop on CPU 74 % of its window (48 % of it in syscalls, a
 * read and a write per request), runnable 5 %, asleep in epoll_wait 21 %;
 * four helper threads asleep on condition variables all run.
 */
static struct fx *fx_server(void)
{
	struct fx *x = fx_new("redis-server", 5);

	x->m.locks = NULL;
	fx_acct(x, 0, 0.26, 0.48, 0, 0, 0.21, 0.05);
	fx_calls(x, 0, "read", 275000, 0);
	fx_calls(x, 0, "write", 275000, 0);
	fx_calls(x, 0, "epoll_wait", 12000, 0.21);
	for (unsigned i = 1; i < 5; i++) {
		fx_acct(x, i, 0, 0.001, 0, 0.999, 0, 0);
		fx_use(x, i, "condvar @ bioProcessBackgroundJobs+0x1a", LK_CONDVAR, false, 0.999);
	}
	fx_total(x);
	return x;
}

static void test_saturated_event_loop(void **state)
{
	struct fx *x = fx_server();
	struct diag_cause *c = &x->d.causes[0];
	struct thread_roles r;

	(void)state;
	assert_int_equal(roles_find(&x->m, &r), 0);
	assert_int_equal(r.role[0], ROLE_SATURATED);
	for (int i = 1; i < 5; i++)
		assert_int_equal(r.role[i], ROLE_IDLE);
	assert_int_equal(r.ndrop, 4);
	roles_free(&r);

	assert_true(explain_run(&x->m, &x->d) >= 1);
	assert_string_equal(c->cause, "saturated_thread");
	/* of the one working thread's time: on CPU 74 % (its runnable 5 % is
	 * the run queue's cause) */
	assert_float_equal(c->share, 0.74, EPS);
	assert_true(fig_is(c, "tid", 100));
	assert_true(fig_is(c, "oncpu_share", 0.74));
	assert_true(fig_is(c, "kernel_share", 0.48 / 0.74));
	assert_true(fig_is(c, "runq_share", 0.05));
	assert_true(fig_is(c, "saturated_threads", 1));
	assert_true(fig_is(c, "calls", 275000 + 275000 + 12000));
	assert_true(fig_is(c, "top_call_count", 275000));
	assert_true(fig_is(c, "calls_paired", 1));	/* read and write one to one */
	assert_true(fig_is(c, "threads_waiting", 4));
	/* the idle helpers are no cause */
	assert_false(cause_of(&x->d, "event_wait"));
	assert_true(why_fig_is(&x->d, "working_threads", 1));
	assert_true(why_fig_is(&x->d, "working_wall_ns", 5e9));
	assert_true(why_fig_is(&x->d, "threads_left_out", 4));
	assert_true(why_fig_is(&x->d, "threads_idle", 4));
	assert_int_equal(x->d.nroles, 5);
	assert_int_equal(rows_in_role(&x->d, ROLE_IDLE), 0x1e);	/* 101 to 104 */
	assert_true(why_fig_is(&x->d, "threads", 5));
	assert_true(why_fig_is(&x->d, "cpus", 2));
	assert_true(why_fig_is(&x->d, "fix_cause", 1));	/* the saturated thread's */
	show(x);
	fx_free(x);
}

/*
 * The same server with a client beside it on the 2 CPUs: the samples
 * (FCT_CPUCLOCK_HZ per CPU over fctrace's 5 s window) name it, in the
 * saturated thread's evidence and in the run-queue cause's title.
 */
static void test_competitor_named(void **state)
{
	struct fx *x = fx_server();
	struct kv_other others[2] = { { .tgid = 4242, .comm = "redis-benchmark" },
				      { .tgid = 17, .comm = "kworker/0:1" } };
	double cap = 2.0 * 5 * FCT_CPUCLOCK_HZ;

	(void)state;
	others[0].samples = (uint64_t)llround(0.62 * cap);
	others[1].samples = (uint64_t)llround(0.02 * cap);
	x->kv.machine_sampled = true;
	x->kv.machine_ns = WALL;
	x->kv.machine_cpus = 2;
	x->kv.machine.other = others[0].samples + others[1].samples;
	x->kv.machine.idle = (uint64_t)llround(0.05 * cap);
	x->kv.others = others;
	x->kv.nothers = 2;
	assert_true(explain_run(&x->m, &x->d) >= 3);
	assert_string_equal(x->d.causes[0].cause, "saturated_thread");
	assert_true(fig_is(&x->d.causes[0], "top_other_pid", 4242));
	assert_true(fig_is(&x->d.causes[0], "top_other_share", llround(0.62 * cap) / cap));
	assert_true(fig_is(&x->d.causes[0], "others_named", 2));	/* and kworker/0:1 */
	assert_string_equal(x->d.causes[2].cause, "cpu_competition");
	assert_true(fig_is(&x->d.causes[2], "top_other_pid", 4242));
	assert_true(fig_is(&x->d.causes[2], "top_other_share", llround(0.62 * cap) / cap));
	show(x);
	x->kv.others = NULL;
	fx_free(x);
}

/*
 * Redis with an I/O thread: the event loop holds a mutex to park the I/O
 * thread, and keeps it across epoll_wait (1.2 s of the 4 s held). The
 * I/O thread parked on it is no cause; half-parked, the lock is a gate.
 */
static struct fx *fx_gate(double parked)
{
	struct fx *x = fx_server();
	struct lock_holders *h;

	x->m.nrows = 2;
	x->res.nthreads = 2;
	memset(&x->rows[1], 0, sizeof(x->rows[1]));
	x->ts[1] = (struct thread_timings){ .tid = 101, .end_ns = WALL };
	x->rows[1].own = &x->ts[1];
	x->rows[1].tid = 101;
	x->rows[1].end_ns = WALL;
	x->rows[1].has_kernel = true;
	snprintf(x->rows[1].k.comm, sizeof(x->rows[1].k.comm), "io_thd_1");
	fx_acct(x, 1, 1 - parked, 0, parked, 0, 0, 0);
	fx_use(x, 1, "mutex @ IOThreadMain+0x147", LK_MUTEX, true, parked);
	free(x->m.locks);
	x->m.locks = NULL;
	fx_total(x);
	h = &x->m.locks[0].holders;
	h->measured = true;
	h->held_ns = 4e9;
	h->state_ns[HS_SYSCALL] = 2.0e9;
	h->state_ns[HS_BLOCKED] = 1.2e9;
	h->state_ns[HS_USER] = 0.8e9;
	h->nnr = 3;
	h->nr[0] = (struct hold_nr){ .nr = (uint16_t)syscall_nr("read"), .count = 200000, .ns = 1e9 };
	h->nr[1] = (struct hold_nr){ .nr = (uint16_t)syscall_nr("write"), .count = 200000, .ns = 1e9 };
	h->nr[2] = (struct hold_nr){ .nr = (uint16_t)syscall_nr("epoll_wait"), .count = 9000,
				     .ns = 1.2e9 };
	h->waiter_ns = (double)x->m.locks[0].wait_ns;
	return x;
}

static void test_gate_parks_its_waiters(void **state)
{
	struct fx *x = fx_gate(0.95);
	struct thread_roles r;

	(void)state;
	assert_true(held_is_gate(&x->m.locks[0].holders));
	assert_int_equal(roles_find(&x->m, &r), 0);
	assert_int_equal(r.role[1], ROLE_PARKED);
	roles_free(&r);
	assert_true(explain_run(&x->m, &x->d) >= 1);
	assert_string_equal(x->d.causes[0].cause, "saturated_thread");
	assert_false(cause_of(&x->d, "user_lock_contention"));
	assert_true(x->d.threads[0]);
	assert_int_equal(x->d.nroles, 2);
	assert_int_equal(rows_in_role(&x->d, ROLE_PARKED), 0x2);	/* io_thd_1 101 */
	show(x);
	fx_free(x);

	/* parked half its window, the I/O thread works: the gate is a cause,
	 * said to be a gate, with no advice to shorten it */
	x = fx_gate(0.5);
	assert_true(explain_run(&x->m, &x->d) >= 1);
	assert_false(cause_of(&x->d, "user_lock_contention"));
	assert_true(cause_of(&x->d, "lock_gate"));
	for (int i = 0; i < x->d.n; i++)
		if (!strcmp(x->d.causes[i].cause, "lock_gate")) {
			/* held 4 s, parked 30 % of it asleep outside (1.20 s) */
			assert_true(fig_is(&x->d.causes[i], "parked_share", 0.3));
			assert_true(fig_is(&x->d.causes[i], "parked_ns", 1.2e9));
		}
	show(x);
	fx_free(x);
}

/*
 * A main thread in pthread_join all run, two workers that read (asleep
 * 60 % in the kernel) and compute: the join is no cause, the shares are
 * of the workers' time.
 */
static void test_joining_main_thread(void **state)
{
	struct fx *x = fx_new("rg", 3);
	struct thread_roles r;

	(void)state;
	x->m.locks = NULL;
	fx_acct(x, 0, 0.001, 0.001, 0, 0.998, 0, 0);
	fx_use(x, 0, "join @ main+0x4d", LK_JOIN, false, 0.998);
	for (unsigned i = 1; i < 3; i++) {
		fx_acct(x, i, 0.30, 0.10, 0, 0, 0.60, 0);
		x->rows[i].k.blocked_io_ns = (uint64_t)(0.6 * WALL);
	}
	fx_total(x);
	assert_int_equal(roles_find(&x->m, &r), 0);
	assert_int_equal(r.role[0], ROLE_JOINS);
	assert_int_equal(r.role[1], ROLE_WORKS);
	roles_free(&r);
	assert_true(explain_run(&x->m, &x->d) >= 1);
	assert_false(cause_of(&x->d, "event_wait"));
	assert_string_equal(x->d.causes[0].cause, "blocked_other");
	/* of the two workers' time, not of three threads' */
	assert_float_equal(x->d.causes[0].share, 0.60, EPS);
	assert_true(why_fig_is(&x->d, "working_threads", 2));
	assert_true(why_fig_is(&x->d, "working_wall_ns", 10e9));
	assert_true(why_fig_is(&x->d, "threads_joins", 1));
	assert_int_equal(x->d.nroles, 3);
	assert_int_equal(rows_in_role(&x->d, ROLE_JOINS), 0x1);	/* rg 100 */
	show(x);
	fx_free(x);
}

/* Workers that wait for work a third of their run are workers: their
 * waits are the cause "event_wait", not a lock, and nobody is left out. */
static void test_workers_waiting_for_work(void **state)
{
	struct fx *x = fx_new("git", 4);

	(void)state;
	x->m.locks = NULL;
	for (unsigned i = 0; i < 4; i++) {
		fx_acct(x, i, 0.50, 0.17, 0, 0.33, 0, 0);
		fx_use(x, i, "cond_add (condvar)", LK_CONDVAR, false, 0.33);
	}
	fx_total(x);
	assert_true(explain_run(&x->m, &x->d) >= 1);
	assert_string_equal(x->d.causes[0].cause, "event_wait");
	assert_true(has_text(x->d.causes[0].title, "waiting to be signalled (cond_add (condvar)): "
			     "not a lock"));
	assert_int_equal(x->d.threads[0], '\0');	/* all alike: no Threads line */
	assert_true(isnan(figs_get(x->d.figs, x->d.nfigs, "threads_left_out")));
	show(x);
	fx_free(x);
}

/* A main thread that joins 40 % of its window and works the rest: its
 * join is no cause either (rg's main thread). */
static void test_join_never_a_cause(void **state)
{
	struct fx *x = fx_new("rg", 2);

	(void)state;
	x->m.locks = NULL;
	fx_acct(x, 0, 0.30, 0.30, 0, 0.40, 0, 0);
	fx_use(x, 0, "join @ rg+0x2ce72c", LK_JOIN, false, 0.40);
	fx_acct(x, 1, 0.40, 0.40, 0, 0, 0.20, 0);
	fx_total(x);
	assert_true(explain_run(&x->m, &x->d) >= 1);
	assert_false(cause_of(&x->d, "event_wait"));
	fx_free(x);
}

/* Every thread idle: none is left out (nothing else to rank them by). */
static void test_all_idle_kept(void **state)
{
	struct fx *x = fx_new("idle", 2);
	struct thread_roles r;

	(void)state;
	x->m.locks = NULL;
	for (unsigned i = 0; i < 2; i++) {
		fx_acct(x, i, 0, 0.01, 0, 0, 0.99, 0);
		fx_calls(x, i, "nanosleep", 10, 0.99);
	}
	fx_total(x);
	assert_int_equal(roles_find(&x->m, &r), 0);
	assert_int_equal(r.role[0], ROLE_SLEEPS);
	assert_int_equal(r.ndrop, 0);
	roles_free(&r);
	assert_true(explain_run(&x->m, &x->d) >= 1);
	assert_float_equal(x->d.causes[0].share, 0.99, EPS);
	fx_free(x);
}

/* `run -- timeout 15 rg`: the one process traced slept in rt_sigsuspend
 * while its child worked: said, with --follow; `run -- env python3`: the
 * headline names python3, what the main thread ran after exec. */
static void test_wrappers(void **state)
{
	struct fx *x = fx_new("timeout", 1);

	(void)state;
	x->m.locks = NULL;
	x->rows[0].k.tgid = 100;
	fx_acct(x, 0, 0, 0.001, 0, 0, 0.999, 0);
	fx_calls(x, 0, "rt_sigsuspend", 1, 0.999);
	fx_total(x);
	assert_true(explain_run(&x->m, &x->d) >= 1);
	assert_true(why_fig_is(&x->d, "child_wait_share", 0.999));	/* said, with --follow */
	assert_true(has_text(x->d.headline, "Why timeout took"));
	assert_true(why_fig_is(&x->d, "processes", 1));
	/* a second process traced: followed, no hint */
	x->m.nrows = 2;
	x->rows[1] = x->rows[0];
	x->rows[1].tid = 200;
	x->rows[1].k.tgid = 200;
	fx_total(x);
	assert_true(explain_run(&x->m, &x->d) >= 1);
	assert_true(isnan(figs_get(x->d.figs, x->d.nfigs, "child_wait_share")));
	/* the title names both, not the first alone (attach -p A,B) */
	assert_true(has_text(x->d.headline, "Why timeout (100) and timeout (200) took"));
	assert_true(why_fig_is(&x->d, "processes", 2));
	fx_free(x);

	x = fx_new("env", 1);
	x->m.locks = NULL;
	x->rows[0].k.tgid = 100;
	snprintf(x->rows[0].k.comm, sizeof(x->rows[0].k.comm), "python3");
	fx_acct(x, 0, 0.9, 0.1, 0, 0, 0, 0);
	fx_total(x);
	assert_true(explain_run(&x->m, &x->d) >= 1);
	assert_true(has_text(x->d.headline, "Why python3 took"));
	fx_free(x);
}

/* attach -p A,B,...: the title names every process traced, the
 * subject's (the process started or attached to, else the first of its
 * name) first; past three, it and how many others. */
static void test_title_names_every_process(void **state)
{
	static const char *const comms[] = { "pgbouncer", "postgres", "postgres", "postgres" };
	struct fx *x = fx_new("postgres", 4);

	(void)state;
	x->m.locks = NULL;
	for (unsigned i = 0; i < 4; i++) {
		x->rows[i].k.tgid = (uint32_t)x->rows[i].tid;	/* each its own process */
		snprintf(x->rows[i].k.comm, sizeof(x->rows[i].k.comm), "%s", comms[i]);
		fx_acct(x, i, 0.9, 0.1, 0, 0, 0, 0);
	}
	x->m.nrows = 2;
	fx_total(x);
	assert_true(explain_run(&x->m, &x->d) >= 1);
	assert_true(has_text(x->d.headline, "Why postgres (101) and pgbouncer (100) took"));
	x->m.nrows = 3;
	fx_total(x);
	assert_true(explain_run(&x->m, &x->d) >= 1);
	assert_true(has_text(x->d.headline,
			     "Why postgres (101), pgbouncer (100) and postgres (102) took"));
	x->m.nrows = 4;
	fx_total(x);
	assert_true(explain_run(&x->m, &x->d) >= 1);
	assert_true(has_text(x->d.headline, "Why postgres (101) and 3 others took"));
	assert_true(why_fig_is(&x->d, "processes", 4));
	/* attach -p POSTMASTER --follow: its backends' pids may be lower
	 * (pids wrap), and the root it attached to still comes first */
	x->m.subject_pid = 103;
	assert_true(explain_run(&x->m, &x->d) >= 1);
	assert_true(has_text(x->d.headline, "Why postgres (103) and 3 others took"));
	fx_free(x);
}

/*
 * MariaDB's log flushes: two workers asleep half their windows in
 * fdatasync (621 calls each), and a thread asleep in its timer that
 * flushed 90 times too: left out of the shares, its calls are still in
 * the table's 1 332; the Why names the same 1 332 and says who made
 * them.
 */
static void test_durable_count_is_the_tables(void **state)
{
	struct fx *x = fx_new("mariadbd", 3);
	struct session *s = calloc(1, sizeof(*s));
	char *out = calloc(1, 1 << 16), *why, *row;
	unsigned long count = 0;
	FILE *f;

	(void)state;
	assert_non_null(s);
	x->m.locks = NULL;
	x->m.probe_set = "full";
	for (unsigned i = 0; i < 2; i++) {
		fx_acct(x, i, 0.30, 0.20, 0, 0, 0.50, 0);
		fx_calls(x, i, "fdatasync", 621, 0.50);
		x->rows[i].k.blocked_io_ns = (uint64_t)(0.50 * WALL);
	}
	fx_acct(x, 2, 0, 0.001, 0, 0, 0.999, 0);
	fx_calls(x, 2, "nanosleep", 50, 0.98);
	fx_calls(x, 2, "fdatasync", 90, 0.019);
	x->rows[2].k.blocked_io_ns = (uint64_t)(0.019 * WALL);
	fx_total(x);
	assert_int_equal(x->m.nr_total[syscall_nr("fdatasync")].count, 1332);
	assert_true(explain_run(&x->m, &x->d) >= 1);
	assert_int_equal(x->d.nroles, 3);
	assert_int_equal(rows_in_role(&x->d, ROLE_WORKS) | rows_in_role(&x->d, ROLE_SATURATED), 0x3);
	s->subject = "mariadbd";
	s->traced = true;
	s->target.mode = TGT_ATTACH;
	s->joined = x->m;
	s->diag = x->d;
	f = fmemopen(out, (1 << 16) - 1, "w");
	assert_non_null(f);
	report_table(f, s);
	fclose(f);
	if (getenv("EXPLAIN_SHOW"))
		fputs(out, stderr);
	/* the table's row by number, then the Why's title: one count */
	assert_non_null(row = strstr(out, "\nfdatasync "));
	assert_int_equal(sscanf(row, " fdatasync %lu ", &count), 1);
	assert_int_equal(count, 1332);
	assert_non_null(why = strstr(out, "Why "));
	assert_string_equal(x->d.causes[0].cause, "durable_writes");
	assert_true(fig_is(&x->d.causes[0], "fdatasync_calls", 1332));
	/* of them, 90 (95.0 ms asleep) by threads that otherwise only waited */
	assert_true(fig_is(&x->d.causes[0], "left_out_calls", 90));
	assert_true(fig_is(&x->d.causes[0], "left_out_asleep_ns", 95e6));
	assert_true(has_text(why, "1332 fdatasync calls"));	/* the words say it too */
	free(out);
	free(s);
	fx_free(x);
}

/* Four committers asleep on a condvar the flusher signals after each
 * fdatasync (its wakers' class durable): they wait for their own work to
 * become durable, not for work to come in - working, in the shares. */
static void test_commit_waiters_work(void **state)
{
	struct fx *x = fx_server();
	struct thread_roles r;

	(void)state;
	for (int j = 0; j < x->m.nlocks; j++)
		x->m.locks[j].wakers.cls = WC_DURABLE;
	assert_int_equal(roles_find(&x->m, &r), 0);
	for (unsigned i = 1; i < 5; i++)
		assert_int_equal(r.role[i], ROLE_WORKS);
	assert_int_equal(r.ndrop, 0);
	roles_free(&r);
	/* the same wakes after a read (work handed in): idle, left out */
	for (int j = 0; j < x->m.nlocks; j++)
		x->m.locks[j].wakers.cls = WC_INPUT;
	assert_int_equal(roles_find(&x->m, &r), 0);
	assert_int_equal(r.role[1], ROLE_IDLE);
	assert_int_equal(r.ndrop, 4);
	roles_free(&r);
	fx_free(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_saturated_event_loop),
		cmocka_unit_test(test_commit_waiters_work),
		cmocka_unit_test(test_title_names_every_process),
		cmocka_unit_test(test_competitor_named),
		cmocka_unit_test(test_gate_parks_its_waiters),
		cmocka_unit_test(test_joining_main_thread),
		cmocka_unit_test(test_workers_waiting_for_work),
		cmocka_unit_test(test_join_never_a_cause),
		cmocka_unit_test(test_all_idle_kept),
		cmocka_unit_test(test_wrappers),
		cmocka_unit_test(test_durable_count_is_the_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
