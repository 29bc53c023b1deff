/*
 * rules_proc.c - the rules for a program made of processes: a sleep that
 * another traced process ended with a signal or a write (a latch, as
 * PostgreSQL's backends wait for each other) is a wait for that process,
 * not a wait for input (wakers.bpf.c measures it).
 */
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include "base/sysnames.h"
#include "explain/rules_int.h"
#include "explain/words.h"

static bool counted(const struct thread_row *r)
{
	return r->has_kernel && !r->aside;
}

/* A sibling's kill or write (a latch); a request from another program is
 * input, which the sleeps' rule tells (FCT_WAKE_REQUEST). */
static bool latch_kind(int b)
{
	return b != FCT_WAKE_REQUEST;
}

double sibling_wait_ns(const struct facts *f)
{
	double ns = 0;

	if (!f->sched)
		return 0;
	for (unsigned i = 0; i < f->m->nrows; i++)
		if (counted(&f->m->rows[i]))
			for (int b = 0; b < FCT_WAKE_N; b++)
				ns += latch_kind(b) ? (double)f->m->rows[i].k.sib_wait_ns[b] : 0;
	return ns;
}

static double sum_waits(const struct facts *f, int by, bool ns)
{
	double v = 0;

	for (unsigned i = 0; i < f->m->nrows; i++)
		if (counted(&f->m->rows[i]))
			v += (double)(ns ? f->m->rows[i].k.sib_wait_ns[by]
					 : f->m->rows[i].k.sib_waits[by]);
	return v;
}

/* The traced processes' common name ("postgres"), or NULL. */
static const char *common_comm(const struct facts *f)
{
	const char *c = NULL;

	for (unsigned i = 0; i < f->m->nrows; i++) {
		const struct thread_row *r = &f->m->rows[i];

		if (!counted(r) || !r->k.comm[0])
			continue;
		if (c && strcmp(c, r->k.comm))
			return NULL;
		c = r->k.comm;
	}
	return c;
}

/* How many processes ended others' sleeps, and the ones that did most. */
struct waker { uint32_t tgid; double wakes; };

static int wakers(const struct facts *f, struct waker *w, int max)
{
	int n = 0, j;

	for (unsigned i = 0; i < f->m->nrows; i++) {
		const struct thread_row *r = &f->m->rows[i];
		double k = (double)(r->k.sib_wakes[FCT_WAKE_SIGNAL] + r->k.sib_wakes[FCT_WAKE_WRITE]);

		if (!counted(r) || k <= 0)
			continue;
		for (j = 0; j < n && w[j].tgid != r->k.tgid; j++)
			;
		if (j == n && n == max)
			continue;
		if (j == n)
			w[n++] = (struct waker){ r->k.tgid, 0 };
		w[j].wakes += k;
	}
	for (int a = 1; a < n; a++)	/* most wakes first */
		for (int b = a; b > 0 && w[b].wakes > w[b - 1].wakes; b--) {
			struct waker t = w[b];

			w[b] = w[b - 1];
			w[b - 1] = t;
		}
	return n;
}

static void ev_wakers(struct diag_cause *c, const struct facts *f)
{
	struct waker w[256];
	char list[160] = "";
	size_t len = 0;
	int n = wakers(f, w, 256);

	for (int i = 0; i < n && i < 5 && len < sizeof(list); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%u (%s wake%s)",
					i ? ", " : "", w[i].tgid, fig_cnt(w[i].wakes),
					fig_plural(w[i].wakes));
	if (n) {
		cause_fig(c, "waking_processes", n);
		cause_fig(c, "pid", w[0].tgid);	/* the one that woke most */
		evidence_add(c, "%d process%s ended these sleeps; most: pid %s%s.", n,
			     n == 1 ? "" : "es", list, n > 5 ? " ..." : "");
	}
}

/* The signals sent, and how many of them ended a sibling's sleep. */
static void ev_kills(struct diag_cause *c, const struct facts *f)
{
	static const int nrs[] = { SYS_kill, SYS_tkill, SYS_tgkill, SYS_rt_sigqueueinfo,
				   SYS_rt_tgsigqueueinfo };
	double sent = 0, woke = sum_waits(f, FCT_WAKE_SIGNAL, false);

	if (!f->sc)
		return;
	for (size_t i = 0; i < sizeof(nrs) / sizeof(*nrs); i++)
		sent += (double)f->m->nr_total[nrs[i] & (FCT_NR_MAX - 1)].count;
	if (sent > 0)
		cause_fig(c, "kills", sent);
	if (sent > woke)
		evidence_add(c, "The traced processes made %s kill/tgkill calls: %s of them woke a "
			     "sibling asleep (a latch set); the others found it awake, or "
			     "signalled a process not traced.", fig_cnt(sent), fig_cnt(woke));
	else if (sent > 0)
		evidence_add(c, "Each of the traced processes' %s kill/tgkill calls woke a sibling "
			     "asleep (a latch set).", fig_cnt(sent));
}

/* The threads that ended a sibling's sleep and spent at least
 * EXPLAIN_MIN_SHARE of their own time in sleeps a sibling ended: their
 * wall time, their sibling waits, and how many processes. */
struct party { double wall, ns; unsigned nproc; };

static bool in_party(const struct thread_row *r)
{
	uint64_t ns = 0, wakes = 0;

	for (int b = 0; b < FCT_WAKE_N; b++) {
		if (!latch_kind(b))
			continue;
		ns += r->k.sib_wait_ns[b];
		wakes += r->k.sib_wakes[b];
	}
	/* a helper woken now and then is not one of them */
	return counted(r) && wakes && (double)ns >= EXPLAIN_MIN_SHARE *
	       (double)(r->end_ns - r->start_ns);
}

static void party_of(const struct facts *f, struct party *p)
{
	uint32_t seen[256];

	memset(p, 0, sizeof(*p));
	for (unsigned i = 0; i < f->m->nrows; i++) {
		const struct thread_row *r = &f->m->rows[i];
		unsigned j;

		if (!in_party(r))
			continue;
		p->wall += (double)(r->end_ns - r->start_ns);
		for (int b = 0; b < FCT_WAKE_N; b++)
			p->ns += latch_kind(b) ? (double)r->k.sib_wait_ns[b] : 0;
		for (j = 0; j < p->nproc && seen[j] != r->k.tgid; j++)
			;
		if (j == p->nproc && j < 256)
			seen[p->nproc++] = r->k.tgid;
	}
}

/* The latches' wakes (kill and write) by the waker's call before them,
 * summed over the two kinds: the calls and their wakes into calls[],
 * most first; their count. */
static int latch_calls(const struct joined_run *m, struct sib_call *calls, int max)
{
	int n = 0;

	for (int b = 0; b < FCT_WAKE_N; b++) {
		if (!latch_kind(b))
			continue;
		for (int i = 0; i < m->sib[b].nafter; i++) {
			const struct sib_call *c = &m->sib[b].after[i];
			int j;

			for (j = 0; j < n && strcmp(calls[j].call, c->call); j++)
				;
			if (j == n && n == max)
				continue;
			if (j == n)
				calls[n++] = (struct sib_call){ .wakes = 0 };
			snprintf(calls[j].call, sizeof(calls[j].call), "%s", c->call);
			calls[j].wakes += c->wakes;
			calls[j].wait_ns += c->wait_ns;
		}
	}
	for (int a = 1; a < n; a++)	/* most wakes first */
		for (int b = a; b > 0 && calls[b].wakes > calls[b - 1].wakes; b--) {
			struct sib_call t = calls[b];

			calls[b] = calls[b - 1];
			calls[b - 1] = t;
		}
	return n;
}

/* The durable call that leads the wakes (a quarter of them at least), or
 * -1: its index in calls[]. */
static int durable_after(const struct sib_call *calls, int n, double all)
{
	for (int i = 0; i < n; i++) {
		int nr = syscall_nr(calls[i].call);

		if (wake_class_of(calls[i].call) == WC_DURABLE &&
		    (double)calls[i].wakes / all >= 0.25 && nr >= 0 && nr < FCT_NR_MAX)
			return i;
	}
	return -1;
}

/* What ev_after says, as figures: set before the roots' so that a full
 * cause keeps them. The durable call's by its name ("fdatasync_calls"),
 * as durable_writes names them. */
static void after_figures(struct diag_cause *c, const struct facts *f)
{
	struct sib_call calls[2 * WAKERS_MAX];
	double all = 0;
	int n = latch_calls(f->m, calls, 2 * WAKERS_MAX), d;
	char key[28];

	for (int i = 0; i < n; i++)
		all += (double)calls[i].wakes;
	if (!f->m->sib_measured || all <= 0)
		return;
	cause_fig(c, "after_call_share", (double)calls[0].wakes / all);
	if ((d = durable_after(calls, n, all)) < 0)
		return;
	cause_fig(c, "after_durable_share", (double)calls[d].wakes / all);
	cause_fig(c, "after_durable_wait_ns", (double)calls[d].wait_ns);
	snprintf(key, sizeof(key), "%s_calls", calls[d].call);
	cause_fig(c, key, (double)f->whole->nr_total[syscall_nr(calls[d].call)].count);
	snprintf(key, sizeof(key), "%s_asleep_ns", calls[d].call);
	cause_fig(c, key, (double)f->whole->nr_total[syscall_nr(calls[d].call)].blocked_ns);
}

/*
 * What the wakers finished just before they woke the sleepers, and when
 * a durable write leads (a backend's kill after its commit's fdatasync:
 * the row lock it held is released at commit), the fix names it. True
 * when the fix was set.
 */
static bool ev_after(struct finding *o, const struct facts *f)
{
	struct sib_call calls[2 * WAKERS_MAX];
	const struct sc_stats *st;
	char list[200] = "";
	double all = 0, share;
	int n = latch_calls(f->m, calls, 2 * WAKERS_MAX), i;

	for (i = 0; i < n; i++)
		all += (double)calls[i].wakes;
	if (!f->m->sib_measured || all <= 0)
		return false;
	for (i = 0; i < n && i < 4; i++)
		words_append(list, sizeof(list), "%s%s %s", i ? ", " : "",
			     calls[i].call[0] ? calls[i].call : "no call yet",
			     fig_pct((double)calls[i].wakes / all));
	evidence_add(&o->c, "The call each waker finished just before its kill or write (the "
		     "signals it sends aside): %s.", list);
	if ((i = durable_after(calls, n, all)) < 0)
		return false;
	share = (double)calls[i].wakes / all;
	st = &f->whole->nr_total[syscall_nr(calls[i].call)];
	evidence_add(&o->c, "%s of these sleeps (%s asleep) ended right after the waker's %s: "
		     "it made a write durable, then woke them - what it held until then "
		     "(a row lock to its commit) was the wait, and the device's flush "
		     "bounds it (the program made %s %s calls, %s in all, %s of it asleep).",
		     fig_pct(share), fig_ns((double)calls[i].wait_ns), calls[i].call,
		     fig_cnt((double)st->count), calls[i].call, fig_ns((double)st->total_ns),
		     fig_ns((double)st->blocked_ns));
	set_fix(o, "The sleepers wait for other processes' %s (%s of the wakes come right "
		"after it): make the durable point cheaper (a faster flush device, group "
		"commits, a setting that syncs less often), or hold less across it.",
		calls[i].call, fig_pct(share));
	return true;
}

/*
 * The share is of the time of the processes that wake each other (each
 * waking a sibling and waiting for them): a server's idle helpers (a
 * listener, a checkpointer) would dilute it over all thread time, which
 * the evidence gives as well.
 */
bool rule_sibling_wait(const struct facts *f, struct finding *o)
{
	double ns = sibling_wait_ns(f), all = fig_ratio(ns, f->wall), share;
	double ks = sum_waits(f, FCT_WAKE_SIGNAL, false), ws = sum_waits(f, FCT_WAKE_WRITE, false);
	const char *comm = common_comm(f);
	struct party p;
	char who[48];

	if (all < EXPLAIN_MIN_SHARE)
		return false;
	party_of(f, &p);
	share = p.wall > 0 ? fig_ratio(p.ns, p.wall) : all;
	snprintf(who, sizeof(who), comm ? "another %s process" : "another process", comm);
	found(o, "sibling_wait", share, f->sc ? 0.85 : 0.7, COV_BLOCKED);
	if (p.nproc) {	/* the share's: the processes that wake each other */
		cause_fig(&o->c, "processes", p.nproc);
		cause_fig(&o->c, "wait_ns", p.ns);
	}
	cause_fig(&o->c, "waits", ks + ws);
	cause_fig(&o->c, "sibling_wait_ns", ns);
	cause_fig(&o->c, "all_threads_share", all);
	cause_fig(&o->c, "signal_waits", ks);
	cause_fig(&o->c, "write_waits", ws);
	if (p.nproc) {
		set_title(o, "%s of the time of the %u processes that wake each other: waiting for "
			  "%s (a latch), %s waits, woken by %s", fig_pct(share), p.nproc, who,
			  fig_cnt(ks + ws), ks && ws ? "its kill() or write()" : ks ? "its kill()" :
			  "its write()");
		evidence_add(&o->c, "Those %u processes slept %s until another woke them, of their "
			     "%s; over all %u threads traced the waits for a sibling are %s of "
			     "thread time (%s).", p.nproc, fig_ns(p.ns), fig_ns(p.wall), f->threads,
			     fig_pct(all), fig_ns(ns));
	} else {	/* no process both wakes others and waits for them: one way */
		set_title(o, "%s of thread time waiting for %s, %s waits, woken by %s", fig_pct(share),
			  who, fig_cnt(ks + ws), ks && ws ? "its kill() or write()" : ks ?
			  "its kill()" : "its write()");
		evidence_add(&o->c, "No process both woke others and waited for them: the sleepers "
			     "wait one way; over all %u threads traced the waits for a sibling are %s "
			     "of thread time (%s).", f->threads, fig_pct(all), fig_ns(ns));
	}
	evidence_add(&o->c, "%s sleeps in a syscall (epoll_wait, poll, read ...) ended when another "
		     "traced process signalled the sleeper (%s, %s asleep) or wrote to the pipe, "
		     "eventfd or socket it waited on (%s, %s asleep): %s in all.", fig_cnt(ks + ws),
		     fig_cnt(ks), fig_ns(sum_waits(f, FCT_WAKE_SIGNAL, true)), fig_cnt(ws),
		     fig_ns(sum_waits(f, FCT_WAKE_WRITE, true)), fig_ns(ns));
	evidence_add(&o->c, "A sleep another process ends is a wait for that process (a lock it "
		     "holds, a result it hands over), not for input: it is counted here, not "
		     "with the sleeps outside locks.");
	ev_wakers(&o->c, f);
	ev_kills(&o->c, f);
	after_figures(&o->c, f);
	ev_roots(&o->c, f->whole);
	if (!ev_after(o, f))
		set_fix(o, "The sleepers wait for what the waking processes do before they wake "
			"them: shorten that (a lock held across slow work, a conflict on the same "
			"rows or items), or have fewer processes wait for the same one.");
	return true;
}
