/*
 * wakers_ev.c - who ended a lock's or event's waits, in the evidence
 * (join/wakers.h): the waking threads and the call each finished last
 * before it woke them, with what that call cost the waker.
 */
#include <stdio.h>
#include <string.h>
#include "base/sysnames.h"
#include "explain/rules_int.h"
#include "explain/words.h"

/* The waker's own time in syscall `call` over its window: calls, ns. */
static bool waker_call_time(const struct joined_run *m, pid_t tid, const char *call,
			    double *count, double *ns)
{
	int nr = syscall_nr(call);

	*count = *ns = 0;
	if (nr < 0 || nr >= FCT_NR_MAX)
		return false;
	for (unsigned i = 0; i < m->nrows; i++)
		if (m->rows[i].tid == tid && m->rows[i].has_kernel) {
			*count = (double)acct_nr(&m->rows[i].k, nr)->count;
			*ns = (double)acct_nr(&m->rows[i].k, nr)->total_ns;
			return *count > 0;
		}
	return false;
}

/* Wakes spread over many threads (a group commit's leader changes from
 * one commit to the next): the call's figures are the program's. */
static void ev_many_wakers(struct diag_cause *c, const struct facts *f,
			   const struct lock_wakers *w, const char *call)
{
	int nr = syscall_nr(call);
	const struct sc_stats *s;

	if (nr < 0 || nr >= FCT_NR_MAX || !(s = &f->whole->nr_total[nr])->count)
		return;
	cause_fig(c, "waker_threads", (double)w->nthreads + w->more_threads);
	cause_fig(c, "program_calls", (double)s->count);
	cause_fig(c, "program_call_ns", (double)s->total_ns);
	cause_fig(c, "program_call_asleep_ns", (double)s->blocked_ns);
	evidence_add(c, "The waits end when one of their wakers' %s returns (%u threads woke "
		     "them, each in turn): the program made %s %s calls, %s in all (%s each on "
		     "average, %s of it asleep) - what happens there bounds them.", call,
		     (unsigned)w->nthreads + w->more_threads, fig_cnt((double)s->count), call,
		     fig_ns((double)s->total_ns), fig_ns(fig_ratio((double)s->total_ns,
		     (double)s->count)), fig_ns((double)s->blocked_ns));
}

/* "fdatasync 91 %, sendto 6 %" of the wakes */
static void calls_words(const struct lock_wakers *w, char *buf, size_t n)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < w->nafter && len < n; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s%s %s", i ? ", " : "",
					w->after[i].call[0] ? w->after[i].call : "no call before",
					fig_pct(fig_ratio((double)w->after[i].wakes,
							  (double)w->wakes)));
}

/* "While they waited, their wakers were asleep 58 % (I/O, sleeps), ..."
 * from what the wakers did between their wakes (wakers.h while_waited),
 * when one thread does most of the waking. */
static void ev_while_waited(struct diag_cause *c, const struct lock_wakers *w)
{
	static const char *const words[HS_N] = {
		[HS_SYSCALL] = "on CPU in syscalls", [HS_BLOCKED] = "asleep (I/O, fsync, sleeps)",
		[HS_PREEMPTED] = "preempted", [HS_USER] = "on CPU in user space",
		[HS_WAITING] = "waiting on other locks themselves",
	};
	char key[sizeof(c->figs[0].key)];
	double all = 0;
	int top = 0;

	for (int s = 0; s < HS_N; s++) {
		all += w->while_waited_ns[s];
		if (w->while_waited_ns[s] > w->while_waited_ns[top])
			top = s;
	}
	/* a span between a waker's wakes is the waits' only when one thread
	 * does most of the waking (a flusher); wakers in turn (MariaDB's
	 * group commit leaders) span everything they did between turns */
	if (all <= 0 || !w->cycles || !w->nthreads || w->threads[0].wakes * 2 < w->wakes)
		return;
	/* the one said first, first */
	cause_fig(c, held_state_key(key, sizeof(key), "wakers", top), w->while_waited_ns[top] / all);
	for (int s = 0; s < HS_N; s++)
		if (s != top && w->while_waited_ns[s] > 0)
			cause_fig(c, held_state_key(key, sizeof(key), "wakers", s),
				  w->while_waited_ns[s] / all);
	evidence_add(c, "While they waited, their wakers were %s %s of the time (of their %s "
		     "between one wake and the next, over %s such spans): %s of the waits; on CPU "
		     "in user space %s, in syscalls %s, asleep %s, preempted %s, waiting on other "
		     "locks %s.", words[top], fig_pct(w->while_waited_ns[top] / all),
		     fig_ns(w->span_ns), fig_cnt((double)w->cycles), fig_ns(w->while_waited_ns[top]),
		     fig_pct(w->while_waited_ns[HS_USER] / all),
		     fig_pct(w->while_waited_ns[HS_SYSCALL] / all),
		     fig_pct(w->while_waited_ns[HS_BLOCKED] / all),
		     fig_pct(w->while_waited_ns[HS_PREEMPTED] / all),
		     fig_pct(w->while_waited_ns[HS_WAITING] / all));
}

void ev_word_wakers(struct diag_cause *c, const struct facts *f, const struct lock_total *l)
{
	const struct lock_wakers *w = &l->wakers;
	const struct waker_thread *t = &w->threads[0];
	const struct waker_call *top = &w->after[0];
	double count, ns;
	char calls[200];

	if (!w->wakes || !w->nthreads || !w->nafter)
		return;
	calls_words(w, calls, sizeof(calls));
	cause_fig(c, "wakes", (double)w->wakes);
	cause_fig(c, "waker_tid", t->tid);
	cause_fig(c, "waker_wake_share", fig_ratio((double)t->wakes, (double)w->wakes));
	cause_fig(c, "after_call_share", fig_ratio((double)top->wakes, (double)w->wakes));
	evidence_add(c, "Who ended these waits: %s wakes of its waiters, %s of them by %s %d%s; "
		     "the call each waker finished just before waking them: %s.",
		     fig_cnt((double)w->wakes), fig_pct(fig_ratio((double)t->wakes, (double)w->wakes)),
		     t->comm[0] ? t->comm : "thread", (int)t->tid,
		     w->nthreads > 1 || w->more_threads ? " (and other threads)" : "", calls);
	if (!top->call[0] || top->wakes * 2 < w->wakes) {
		ev_while_waited(c, w);
		return;
	}
	if (t->wakes * 2 >= w->wakes && waker_call_time(f->whole, t->tid, top->call, &count, &ns)) {
		cause_fig(c, "waker_calls", count);
		cause_fig(c, "waker_call_ns", ns);
		evidence_add(c, "The waits end when %s's %s returns: that thread made %s %s calls, "
			     "%s in all (%s each on average) - what it does there bounds them.",
			     t->comm[0] ? t->comm : "the waker", top->call, fig_cnt(count), top->call,
			     fig_ns(ns), fig_ns(fig_ratio(ns, count)));
	} else {
		ev_many_wakers(c, f, w, top->call);
	}
	ev_while_waited(c, w);	/* after the call that ends them: the root first */
}

/* The syscall thread tid slept in the longest (its row's, exact), and
 * that sleep; -1 when none. */
static int slept_most(const struct joined_run *m, pid_t tid, double *ns)
{
	int best = -1;

	*ns = 0;
	for (unsigned i = 0; i < m->nrows; i++) {
		const struct thread_row *r = &m->rows[i];

		if (r->tid != tid || !r->has_kernel)
			continue;
		for (int n = 0; n < FCT_NR_MAX; n++)
			if ((double)acct_nr(&r->k, n)->blocked_ns > *ns)
				*ns = (double)acct_nr(&r->k, n)->blocked_ns, best = n;
	}
	return best;
}

#define ROOTS_SAID	3

void ev_roots(struct diag_cause *c, const struct joined_run *m)
{
	const struct wait_graph *g = &m->graph;
	char list[600] = "", call[32];
	double ns;
	int nr;

	if (g->nroots) {	/* the first root's: where most waits end */
		cause_fig(c, "root_tid", g->roots[0].tid);
		cause_fig(c, "root_ended_ns", g->roots[0].ended_ns);
		cause_fig(c, "root_cpu_share", g->roots[0].cpu_share);
		cause_fig(c, "root_blocked_share", g->roots[0].blocked_share);
	}
	for (int i = 0; i < g->nroots && i < ROOTS_SAID; i++) {
		const struct wait_root *r = &g->roots[i];

		words_append(list, sizeof(list), "%s%s %d, %s (waited %s of its time, on CPU %s, "
			     "asleep %s", i ? "; " : "", r->comm, (int)r->tid, fig_ns(r->ended_ns),
			     fig_pct(r->waited_share), fig_pct(r->cpu_share),
			     fig_pct(r->blocked_share));
		if ((nr = slept_most(m, r->tid, &ns)) >= 0 && ns > 0)
			words_append(list, sizeof(list), " mostly in %s",
				     syscall_name((unsigned)nr, call, sizeof(call)));
		words_append(list, sizeof(list), ", runnable %s)", fig_pct(r->runq_share));
	}
	if (list[0])
		evidence_add(c, "Followed waker by waker through the wakers' own waits, the waits end "
			     "in: %s.", list);
}
