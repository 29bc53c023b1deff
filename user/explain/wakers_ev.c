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
			*count = (double)m->rows[i].k.nr[nr].count;
			*ns = (double)m->rows[i].k.nr[nr].total_ns;
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
	evidence_add(c, "Who ended these waits: %s wakes of its waiters, %s of them by %s %d%s; "
		     "the call each waker finished just before waking them: %s.",
		     fig_cnt((double)w->wakes), fig_pct(fig_ratio((double)t->wakes, (double)w->wakes)),
		     t->comm[0] ? t->comm : "thread", (int)t->tid,
		     w->nthreads > 1 || w->more_threads ? " (and other threads)" : "", calls);
	if (!top->call[0] || top->wakes * 2 < w->wakes)
		return;
	if (t->wakes * 2 >= w->wakes && waker_call_time(f->whole, t->tid, top->call, &count, &ns))
		evidence_add(c, "The waits end when %s's %s returns: that thread made %s %s calls, "
			     "%s in all (%s each on average) - what it does there bounds them.",
			     t->comm[0] ? t->comm : "the waker", top->call, fig_cnt(count), top->call,
			     fig_ns(ns), fig_ns(fig_ratio(ns, count)));
	else
		ev_many_wakers(c, f, w, top->call);
}
