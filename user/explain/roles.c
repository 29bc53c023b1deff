/*
 * roles.c - each thread's role, from its account (roles.h).
 *
 * A thread's waits for others are its futex waits that are no lock
 * (ACCT_FUTEX_OTHER: joins, condition variables, semaphores, barriers)
 * and its sleeps in calls that wait for time, input or a child. A main
 * thread in pthread_join sleeps on the joined thread's tid word, which
 * the kernel clears and wakes when that thread exits: its word is of kind
 * LK_JOIN (lockname.c, from the C library's frames or the wakes).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/sysnames.h"
#include "explain/held.h"
#include "explain/roles.h"
#include "explain/words.h"

/* Its timed sleeps on futex words (a JVM's Thread.sleep): a sleep in a
 * timer, as nanosleep is, not a wait for others. */
static double timed_sleeps(const struct thread_row *row)
{
	double ns = 0;

	for (int i = 0; i < row->nlocks; i++)
		if (wait_class_of(row->locks[i].kind, row->locks[i].is_lock) == WAIT_TIME)
			ns += (double)row->locks[i].wait_ns;
	return ns;
}

/* Most of its event waits on joins: waits for threads to end. */
static bool joins(const struct thread_row *row)
{
	uint64_t join = 0, all = 0;

	for (int i = 0; i < row->nlocks; i++) {
		const struct lock_use *u = &row->locks[i];

		if (u->is_lock)
			continue;
		all += u->wait_ns;
		if (wait_class_of(u->kind, u->is_lock) == WAIT_EXIT)
			join += u->wait_ns;
	}
	return all && join * 2 > all;
}

/* A set of the run's user words: the gates (held.h: locks whose holders
 * mostly slept in one call), or the events a durability point ends.
 * Found once, not per row: a server's 10 000 threads each against its
 * 10 000 futex words would be 10^8 name compares. */
struct words {
	const struct lock_total **lock;
	int n;
};

static bool is_gate(const struct lock_total *l)
{
	return l->is_lock && held_is_gate(&l->holders);
}

/* A condvar or semaphore whose waits end when another thread's fsync or
 * fdatasync returns (wakers.h): its waiters wait for their own work to
 * become durable (a commit), not for work to come in - not idle. */
static bool awaits_durable(const struct lock_total *l)
{
	return !l->is_lock && l->wakers.cls == WC_DURABLE;
}

static int words_find(const struct joined_run *m, bool (*is)(const struct lock_total *),
		      struct words *g)
{
	g->n = 0;
	g->lock = malloc(sizeof(*g->lock) * (size_t)(m->nlocks > 0 ? m->nlocks : 1));
	if (!g->lock)
		return -1;
	for (int j = 0; j < m->nlocks; j++)
		if (!m->locks[j].kernel && is(&m->locks[j]))
			g->lock[g->n++] = &m->locks[j];
	return 0;
}

/* The row's waits on the words of g. */
static double waits_on(const struct words *g, const struct thread_row *row)
{
	double ns = 0;

	for (int i = 0; g->n && i < row->nlocks; i++)
		for (int j = 0; j < g->n; j++)
			if (row->locks[i].is_lock == g->lock[j]->is_lock &&
			    !strcmp(g->lock[j]->name, row->locks[i].name))
				ns += (double)row->locks[i].wait_ns;
	return ns;
}

/* The row's waits in a pool's queue (pools.h): a thread queued for one
 * of N items waits for a resource, not for others' work - it works. */
static double pool_waits(const struct joined_run *m, const struct thread_row *row)
{
	double ns = 0;

	for (int i = 0; m->npools && i < row->nlocks; i++)
		for (int j = 0; !row->locks[i].is_lock && j < m->npools; j++)
			if (!strcmp(m->pools[j].name, row->locks[i].name))
				ns += (double)row->locks[i].wait_ns;
	return ns;
}

static enum thread_role role_of(const struct joined_run *m, const struct words *g,
				const struct words *durable, const struct thread_row *row)
{
	double wall = (double)(row->end_ns - row->start_ns);
	double gated = waits_on(g, row), other = (double)row->acct_ns[ACCT_FUTEX_OTHER];
	double queued = fmin(pool_waits(m, row) + waits_on(durable, row), other);
	double slept = fmin(timed_sleeps(row), other - queued);
	double events = other + gated - queued - slept;
	double calls = (double)row->idle_ns + slept;
	double busy = (double)(row->acct_ns[ACCT_CPU_USER] + row->acct_ns[ACCT_CPU_SYS] +
			       row->acct_ns[ACCT_RUNQ]);

	if (!row->has_kernel || row->aside || wall <= 0)
		return ROLE_WORKS;
	if (events + calls >= ROLE_WAITING_SHARE * wall)
		return gated * 2 > events + calls ? ROLE_PARKED : joins(row) ? ROLE_JOINS :
		       events >= calls ? ROLE_IDLE : ROLE_SLEEPS;
	/* a thread that lived a moment of the run (a process made for a
	 * connection) is busy for that moment, no bottleneck of the run */
	if (wall * 2 < (double)m->wall_ns)
		return ROLE_WORKS;
	return busy >= ROLE_SATURATED_SHARE * wall ? ROLE_SATURATED : ROLE_WORKS;
}

int roles_find(const struct joined_run *m, struct thread_roles *r)
{
	unsigned counted = 0;
	struct words g = { 0 }, durable = { 0 };

	memset(r, 0, sizeof(*r));
	r->role = calloc(m->nrows ? m->nrows : 1, sizeof(*r->role));
	r->drop = calloc(m->nrows ? m->nrows : 1, sizeof(*r->drop));
	if (!r->role || !r->drop || words_find(m, is_gate, &g) ||
	    words_find(m, awaits_durable, &durable)) {
		free(g.lock);
		roles_free(r);
		return -1;
	}
	r->nrows = m->nrows;
	/* the roles need the scheduler's account of each thread */
	for (unsigned i = 0; i < m->nrows && (m->groups & PG_MASK(PG_SCHED)); i++) {
		r->role[i] = role_of(m, &g, &durable, &m->rows[i]);
		r->count[r->role[i]]++;
		r->drop[i] = role_waits(r->role[i]);
		r->ndrop += r->drop[i];
		counted += !m->rows[i].aside;
	}
	free(g.lock);
	free(durable.lock);
	if (r->ndrop >= counted) {	/* all waited: nothing else to rank them against */
		memset(r->drop, 0, m->nrows * sizeof(*r->drop));
		r->ndrop = 0;
	}
	return 0;
}

void roles_free(struct thread_roles *r)
{
	free(r->role);
	free(r->drop);
	memset(r, 0, sizeof(*r));
}

bool role_waits(enum thread_role role)
{
	return role == ROLE_JOINS || role == ROLE_IDLE || role == ROLE_SLEEPS ||
	       role == ROLE_PARKED;
}

const char *role_name(enum thread_role role)
{
	static const char *const names[ROLE_N] = { "works", "saturated", "joins", "idle", "sleeps",
						     "parked" };

	return (unsigned)role < ROLE_N ? names[role] : "works";
}

/* "2 idle (waiting to be signalled: 102, 103)", and its count into d's
 * figures as "threads_<role>" */
static void list_role(const struct joined_run *m, const struct thread_roles *r,
		      enum thread_role role, const char *words, struct diagnosis *d, bool *first)
{
	char *buf = d->threads, key[sizeof(d->figs[0].key)];
	size_t n = sizeof(d->threads);
	unsigned shown = 0;

	if (!r->count[role])
		return;
	snprintf(key, sizeof(key), "threads_%s", role_name(role));
	why_fig(d, key, r->count[role]);
	words_append(buf, n, "%s%u %s (", *first ? "" : ", ", r->count[role], words);
	*first = false;
	for (unsigned i = 0; i < r->nrows; i++) {
		if (r->role[i] != role)
			continue;
		if (shown++ == 4) {
			words_append(buf, n, ", ...");
			break;
		}
		words_append(buf, n, "%s%s %d", shown > 1 ? ", " : "",
		       m->rows[i].k.comm[0] ? m->rows[i].k.comm : "?", (int)m->rows[i].tid);
	}
	words_append(buf, n, ")");
}

void roles_words(const struct joined_run *m, const struct thread_roles *r, struct diagnosis *d)
{
	char *buf = d->threads;
	size_t n = sizeof(d->threads);
	double wall = 0;
	unsigned kept = 0;
	bool first = true;

	buf[0] = '\0';
	for (unsigned i = 0; i < r->nrows; i++)
		if (!r->drop[i] && !m->rows[i].aside) {
			wall += (double)(m->rows[i].end_ns - m->rows[i].start_ns);
			kept++;
		}
	if (!r->ndrop && (!r->count[ROLE_SATURATED] || r->count[ROLE_SATURATED] == kept))
		return;	/* all alike */
	why_fig(d, "working_threads", kept);
	why_fig(d, "working_wall_ns", wall);
	why_fig(d, "threads_left_out", r->ndrop);
	snprintf(buf, n, "Threads: shares are of the %u working thread%s time (%s)", kept,
		 kept == 1 ? "'s" : "s'", fig_ns(wall));
	if (r->ndrop)
		words_append(buf, n, "; left out, %u that only waited for others: ", r->ndrop);
	else
		words_append(buf, n, "; ");
	list_role(m, r, ROLE_JOINS, "waiting for threads to end", d, &first);
	list_role(m, r, ROLE_IDLE, "idle until signalled", d, &first);
	list_role(m, r, ROLE_SLEEPS, "asleep in timers, polls or child waits", d, &first);
	list_role(m, r, ROLE_PARKED, "parked on a gate, a lock held by a thread asleep outside it",
		  d, &first);
	if (r->count[ROLE_SATURATED]) {
		words_append(buf, n, "%s", first ? "" : "; ");
		first = true;
		list_role(m, r, ROLE_SATURATED, "saturated, on CPU or runnable most of the window",
			  d, &first);
	}
	words_append(buf, n, ".");
}

/* ---- a process that only waited for its children ------------------------- */

static const char *const child_calls[] = { "wait4", "waitid", "rt_sigsuspend", "pause" };

/* The row's sleep in calls that wait for a child or a signal, and the
 * call with most of it. */
static uint64_t child_wait_ns(const struct thread_row *row, const char **call)
{
	uint64_t ns = 0, best = 0;

	for (size_t i = 0; i < sizeof(child_calls) / sizeof(child_calls[0]); i++) {
		int nr = syscall_nr(child_calls[i]);

		if (nr < 0 || nr >= FCT_NR_MAX)
			continue;
		ns += acct_nr(&row->k, nr)->blocked_ns;
		if (acct_nr(&row->k, nr)->blocked_ns > best) {
			best = acct_nr(&row->k, nr)->blocked_ns;
			*call = child_calls[i];
		}
	}
	return ns;
}

void roles_follow_hint(const struct joined_run *m, const struct thread_roles *r,
		       struct diagnosis *d)
{
	char *buf = d->threads;
	size_t n = sizeof(d->threads);
	uint64_t waited = 0, wall = 0;
	const char *call = "wait4";

	for (unsigned i = 0; i < r->nrows; i++) {
		const struct thread_row *row = &m->rows[i];

		/* a second process traced: --follow was given */
		if (row->has_kernel && row->k.tgid != m->rows[0].k.tgid)
			return;
		if (r->role[i] != ROLE_SLEEPS)
			return;
		waited += child_wait_ns(row, &call);
		wall += row->end_ns - row->start_ns;
	}
	if (!r->nrows || waited * 2 < wall)
		return;
	why_fig(d, "child_wait_share", fig_ratio((double)waited, (double)wall));
	words_append(buf, n, "%sThe traced process only waited for a child (%s, %s of its time): the "
	       "work was done by processes it started, which were not traced; run again with "
	       "--follow to trace them.", buf[0] ? " " : "", call,
	       fig_pct(fig_ratio((double)waited, (double)wall)));
}
