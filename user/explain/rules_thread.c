/*
 * rules_thread.c - a thread that is a cause in itself: on CPU or runnable
 * most of its window (roles.h), while the program's other threads wait
 * or work less. The program goes as fast as that thread: a single event
 * loop, a single writer. Its figures are its own, not averaged over
 * threads that idle.
 */
#include <stdio.h>
#include <string.h>
#include "base/sysnames.h"
#include "explain/rules_int.h"
#include "explain/words.h"

static double row_wall(const struct thread_row *r)
{
	return (double)(r->end_ns - r->start_ns);
}

static double row_on(const struct thread_row *r)
{
	return (double)(r->acct_ns[ACCT_CPU_USER] + r->acct_ns[ACCT_CPU_SYS]);
}

/* The saturated row with the most time on CPU, or -1. */
static int top_saturated(const struct facts *f)
{
	int best = -1;

	for (unsigned i = 0; i < f->whole->nrows; i++)
		if (f->roles->role[i] == ROLE_SATURATED &&
		    (best < 0 || row_on(&f->whole->rows[i]) > row_on(&f->whole->rows[best])))
			best = (int)i;
	return best;
}

/*
 * The top saturated thread stands apart from the threads that are not
 * saturated: they were on CPU less than half its share of their window.
 * Threads that share one kind of work alike (a pool of workers, some just
 * over the saturated mark and some just under) have no one thread the
 * others wait on.
 */
static bool stands_apart(const struct facts *f, int top)
{
	double on = fig_ratio(row_on(&f->whole->rows[top]), row_wall(&f->whole->rows[top]));

	for (unsigned i = 0; i < f->whole->nrows; i++) {
		const struct thread_row *r = &f->whole->rows[i];

		if (r->aside || !r->has_kernel || f->roles->role[i] == ROLE_SATURATED)
			continue;
		if (fig_ratio(row_on(r), row_wall(r)) * 2 > on)
			return false;
	}
	return true;
}

/* The row's calls by number, most made first: up to 3. */
static int top_calls(const struct thread_row *r, int *nr, int max)
{
	int n = 0;

	for (int k = 0; k < max; k++) {
		int best = -1;

		for (int s = 0; s < FCT_NR_MAX; s++) {
			bool taken = false;

			for (int j = 0; j < n; j++)
				taken |= nr[j] == s;
			if (!taken && acct_nr(&r->k, s)->count &&
			    (best < 0 || acct_nr(&r->k, s)->count > acct_nr(&r->k, best)->count))
				best = s;
		}
		if (best < 0)
			break;
		nr[n++] = best;
	}
	return n;
}

/* "Its calls: 275 k read, 275 k write, 1.2 k epoll_wait (110 k/s); read
 * and write one to one." */
static void ev_calls(struct diag_cause *c, const struct thread_row *r)
{
	char buf[320] = "", name[24];
	int nr[3], n = top_calls(r, nr, 3);
	double all = 0;

	if (!n)
		return;
	for (int s = 0; s < FCT_NR_MAX; s++)
		all += (double)acct_nr(&r->k, s)->count;
	for (int i = 0; i < n; i++) {
		size_t len = strlen(buf);

		snprintf(buf + len, sizeof(buf) - len, "%s%s %s", i ? ", " : "",
			 fig_cnt((double)acct_nr(&r->k, nr[i])->count), syscall_name((unsigned)nr[i], name,
									    sizeof(name)));
	}
	cause_fig(c, "calls", all);
	cause_fig(c, "top_call_count", (double)acct_nr(&r->k, nr[0])->count);
	evidence_add(c, "Its calls, most made first: %s; %s calls in all, %s per second of its "
		     "window.", buf, fig_cnt(all), fig_cnt(fig_ratio(all, row_wall(r) / 1e9)));
	if (n >= 2 && acct_nr(&r->k, nr[1])->count * 50 >= acct_nr(&r->k, nr[0])->count * 49) {
		char a[24], b[24];

		cause_fig(c, "calls_paired", 1);
		evidence_add(c, "%s and %s came one to one: one pair per request served, so each "
			     "request costs this thread two calls.",
			     syscall_name((unsigned)nr[0], a, sizeof(a)),
			     syscall_name((unsigned)nr[1], b, sizeof(b)));
	}
}

static void title_and_fix(struct finding *o, const struct thread_row *r, unsigned nsat)
{
	double wall = row_wall(r), on = row_on(r), sys = (double)r->acct_ns[ACCT_CPU_SYS];
	const char *comm = r->k.comm[0] ? r->k.comm : "?";

	cause_fig(&o->c, "tid", (double)r->tid);
	cause_fig(&o->c, "oncpu_share", fig_ratio(on, wall));
	cause_fig(&o->c, "kernel_share", fig_ratio(sys, on));
	cause_fig(&o->c, "runq_share", fig_ratio((double)r->acct_ns[ACCT_RUNQ], wall));
	cause_fig(&o->c, "saturated_threads", nsat);
	cause_fig(&o->c, "window_ns", wall);
	set_title(o, "%s (tid %d) on CPU %s of its window, %s of that in the kernel; runnable %s%s",
		  comm, (int)r->tid, fig_pct(fig_ratio(on, wall)), fig_pct(fig_ratio(sys, on)),
		  fig_pct_small(fig_ratio((double)r->acct_ns[ACCT_RUNQ], wall)),
		  nsat > 1 ? " (and other saturated threads)" : "");
	if (sys * 2 >= on)
		set_fix(o, "The program goes as fast as %s (tid %d): most of its CPU went to "
			"syscalls, so fewer, larger calls (batch the requests, or serve several per "
			"call) gain most; or spread its work over more threads.", comm,
			(int)r->tid);
	else
		set_fix(o, "The program goes as fast as %s (tid %d): most of its CPU was its own "
			"code, so profile that thread (perf record -t %d) and make it do less; or "
			"spread its work over more threads.", comm, (int)r->tid, (int)r->tid);
}

/* What the threads left out waited for: the lock or event the saturated
 * thread r woke most waits of, with who ended them and the call before
 * (a flusher's fdatasync): the waiting threads' time, joined to it. */
static void ev_left_out(struct diag_cause *c, const struct facts *f, const struct thread_row *r)
{
	const struct lock_total *best = NULL;

	for (int i = 0; i < f->whole->nlocks; i++) {
		const struct lock_total *l = &f->whole->locks[i];

		if (!l->kernel && l->wakers.nthreads && l->wakers.threads[0].tid == r->tid &&
		    (!best || l->wait_ns > best->wait_ns))
			best = l;
	}
	if (!best)
		return;
	cause_fig(c, "left_out_wait_ns", (double)best->wait_ns);
	cause_fig(c, "left_out_waits", (double)best->waits);
	evidence_add(c, "The waiting threads waited %s on %s (%s waits), which %s (tid %d) woke.",
		     fig_ns((double)best->wait_ns), best->name, fig_cnt((double)best->waits),
		     r->k.comm[0] ? r->k.comm : "?", (int)r->tid);
	ev_word_wakers(c, f, best);
}

bool rule_saturated(const struct facts *f, struct finding *o)
{
	int top = f->roles ? top_saturated(f) : -1;
	unsigned nsat = f->roles ? f->roles->count[ROLE_SATURATED] : 0;
	const struct thread_row *r;
	double busy = 0;

	/* every thread saturated, or others as busy: no one thread is what
	 * the others wait on */
	if (!f->sched || top < 0 || nsat >= f->whole->nrows - f->whole->aside_rows ||
	    !stands_apart(f, top))
		return false;
	/* its share is its time on CPU: the time it was runnable and did not
	 * run is the run queue's, the machine's (rule_runq ranks it) */
	for (unsigned i = 0; i < f->whole->nrows; i++)
		if (f->roles->role[i] == ROLE_SATURATED)
			busy += row_on(&f->whole->rows[i]);
	if (fig_ratio(busy, f->kwall) < EXPLAIN_MIN_SHARE)
		return false;
	r = &f->whole->rows[top];
	found(o, "saturated_thread", fig_ratio(busy, f->kwall), 0.8, 0);
	title_and_fix(o, r, nsat);
	evidence_add(&o->c, "%s (tid %d) was on CPU %s of its %s window: %s in user space, %s in "
		     "syscalls; runnable, waiting for a CPU, %s.", r->k.comm[0] ? r->k.comm : "?",
		     (int)r->tid, fig_ns(row_on(r)), fig_ns(row_wall(r)),
		     fig_ns((double)r->acct_ns[ACCT_CPU_USER]), fig_ns((double)r->acct_ns[ACCT_CPU_SYS]),
		     fig_ns((double)r->acct_ns[ACCT_RUNQ]));
	ev_calls(&o->c, r);
	/* the threads in all are the Why's figure "threads" */
	cause_fig(&o->c, "threads_waiting", f->roles->ndrop);
	evidence_add(&o->c, "Of the program's %u threads, %u %s saturated and %u only waited for "
		     "others: this share (%s, on CPU) is of the working threads' time, the waiting "
		     "ones left out.", f->whole->nrows - f->whole->aside_rows, nsat,
		     nsat == 1 ? "was" : "were", f->roles->ndrop, fig_pct(o->c.share));
	if (f->roles->ndrop)
		ev_left_out(&o->c, f, r);
	ev_competitors(&o->c, f);
	return true;
}
