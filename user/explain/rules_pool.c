/*
 * rules_pool.c - a pool of N that threads queue for (join/pools.h): its
 * capacity, who waits and how long, what the holders do with an item,
 * and what another capacity or thread count would give. The lock and
 * event rules leave a pool's waits to this one (pool_wait_ns).
 */
#include <math.h>
#include <string.h>
#include "explain/knobs.h"
#include "explain/rules_int.h"
#include "explain/words.h"

const struct pool_row *pool_of_lock(const struct joined_run *m, const struct lock_total *l)
{
	for (int i = 0; l && !l->kernel && i < m->npools; i++)
		if (!strcmp(m->pools[i].name, l->name))
			return &m->pools[i];
	return NULL;
}

static const struct lock_total *lock_of_pool(const struct joined_run *m, const struct pool_row *p)
{
	for (int i = 0; i < m->nlocks; i++)
		if (!m->locks[i].kernel && !strcmp(m->locks[i].name, p->name))
			return &m->locks[i];
	return NULL;
}

double pool_wait_ns(const struct facts *f, bool is_lock)
{
	double ns = 0;

	for (int i = 0; i < f->m->npools; i++) {
		const struct lock_total *l = lock_of_pool(f->m, &f->m->pools[i]);

		if (l && l->is_lock == is_lock)
			ns += (double)l->wait_ns;
	}
	return ns;
}

/* "asleep 1.11 ms (93.5 %), on CPU 37 µs, ..." of the mean hold */
static void ev_hold(struct diag_cause *c, const struct pool_row *p)
{
	static const char *const words[HS_N] = {
		[HS_SYSCALL] = "on CPU in syscalls", [HS_BLOCKED] = "asleep (I/O, sleeps)",
		[HS_PREEMPTED] = "preempted (runnable, no CPU)", [HS_USER] = "on CPU in user space",
		[HS_WAITING] = "waiting for another lock",
	};
	int top = 0;

	cause_fig(c, "held_ns", p->hold_ns);
	for (int s = 1; s < HS_N; s++)
		if (p->state_ns[s] > p->state_ns[top])
			top = s;
	if (!p->holds) {	/* none seen whole: by Little's law from its items */
		evidence_add(c, "An item is held at most %s (Little's law: the items held over the "
			     "%s items given back a second; the time its threads work outside the "
			     "pool is in it): %s %s (%s of it); in syscalls %s, asleep %s, preempted "
			     "%s, on CPU in user space %s.", fig_ns(p->hold_ns),
			     fig_cnt((double)p->releases * 1e9 / (double)p->queued_ns), words[top],
			     fig_ns(p->state_ns[top]),
			     fig_pct(fig_ratio(p->state_ns[top], p->hold_ns)),
			     fig_ns(p->state_ns[HS_SYSCALL]), fig_ns(p->state_ns[HS_BLOCKED]),
			     fig_ns(p->state_ns[HS_PREEMPTED]), fig_ns(p->state_ns[HS_USER]));
		return;
	}
	evidence_add(c, "An item is held %s on average, from the wake-up that hands it to a waiter "
		     "to the wake that gives it back (%s holds seen whole): %s %s (%s of it); in "
		     "syscalls %s, asleep %s, preempted %s, on CPU in user space %s, waiting for "
		     "another lock %s.", fig_ns(p->hold_ns), fig_cnt((double)p->holds), words[top],
		     fig_ns(p->state_ns[top]), fig_pct(fig_ratio(p->state_ns[top], p->hold_ns)),
		     fig_ns(p->state_ns[HS_SYSCALL]), fig_ns(p->state_ns[HS_BLOCKED]),
		     fig_ns(p->state_ns[HS_PREEMPTED]), fig_ns(p->state_ns[HS_USER]),
		     fig_ns(p->state_ns[HS_WAITING]));
}

static void ev_capacity(struct diag_cause *c, const struct pool_row *p, const struct facts *f)
{
	cause_fig(c, "capacity_est", p->capacity_est);
	if (!p->capacity)
		cause_fig(c, "runq_share", p->runq_share);
	if (p->how == PC_NOT_QUEUED) {
		evidence_add(c, "Its capacity is at most %u: of its %u threads, %.2f on average were "
			     "not queued (on CPU, runnable, or asleep in I/O or another wait; not in "
			     "its waits nor a lock's) while the others queued - the items' holders, "
			     "and any work the threads do outside the pool; %.2f if a woken waiter "
			     "has its item only once it runs. Its waiters sleep each on a word of "
			     "their own, woken by the threads that give items back, so no hold is "
			     "seen whole.", p->capacity, p->threads, p->capacity_est, p->capacity_low);
		return;
	}
	if (p->capacity) {
		evidence_add(c, "Its capacity is %u: while a thread waited, %s items were given back "
			     "in %s, each held %s, so %.2f were held at once (Little's law; the most "
			     "holds seen open at once: %u).", p->capacity,
			     fig_cnt((double)p->queued_releases),
			     fig_ns((double)p->queued_ns), fig_ns(p->hold_ns), p->capacity_est,
			     p->max_holding);
		return;
	}
	if (!p->holds) {
		evidence_add(c, "Its capacity was not measured: the threads were runnable %s of "
			     "their time (%u threads on %u CPUs), and a runnable thread may hold an "
			     "item or wait to take it (its threads not queued read %.1f, %.1f with "
			     "woken waiters counted queued).", fig_pct(p->runq_share), p->threads,
			     f->ncpus, p->capacity_est, p->capacity_low);
		return;
	}
	evidence_add(c, "Its capacity was not measured: the threads were runnable %s of their time "
		     "(%u threads on %u CPUs), and a hold runs as long as the run queue lets it "
		     "(Little's law gives %.1f from the holds seen; at least %u were held at once).",
		     fig_pct(p->runq_share), p->threads, f->ncpus, p->capacity_est, p->max_holding);
}

static const struct pool_whatif *whatif_at(const struct pool_row *p, unsigned n, unsigned t)
{
	for (int i = 0; i < p->nwhatif; i++)
		if (p->whatif[i].capacity == n && p->whatif[i].threads == t)
			return &p->whatif[i];
	return NULL;
}

/* The what-ifs in one sentence: other capacities, then fewer threads. */
static void ev_whatif(struct diag_cause *c, const struct pool_row *p)
{
	char buf[600] = "";

	for (int i = 0; i < p->nwhatif; i++) {
		const struct pool_whatif *w = &p->whatif[i];

		if (w->capacity == p->capacity && w->threads == p->threads)
			continue;
		if (w->capacity)
			words_append(buf, sizeof(buf), "%scapacity %u with %u threads: %s",
				     buf[0] ? "; " : "", w->capacity, w->threads, fig_ns(w->wall_ns));
		else
			words_append(buf, sizeof(buf), "%s%u threads: %s", buf[0] ? "; " : "",
				     w->threads, fig_ns(w->wall_ns));
	}
	if (buf[0])
		evidence_add(c, "The same work, %s now, would take (a queueing model of the threads' "
			     "cycle from the holds and the time outside the pool): %s.",
			     fig_ns(p->window_ns), buf);
}

static void pool_fix(struct finding *o, const struct pool_row *p, const struct facts *f)
{
	unsigned enough = pool_capacity_enough(p);
	const struct pool_whatif *w = whatif_at(p, enough, p->threads);
	const struct pool_whatif *few = whatif_at(p, p->capacity, p->capacity);
	const struct pool_whatif *more = whatif_at(p, 2 * p->capacity, p->threads);

	if (p->capacity && few && more &&
	    (p->runq_share > POOL_CPU_BOUND_SHARE || pool_cpu_bound(p))) {
		cause_fig(&o->c, "runq_share", p->runq_share);
		cause_fig(&o->c, "fix_threads", p->capacity);
		cause_fig(&o->c, "fix_wall_ns", few->wall_ns);
		set_fix(o, "The CPUs, not the pool, set the pace: its %u threads were runnable %s "
			"of their time on %u CPUs, and each item given back costs %s on CPU. The "
			"model puts the same work at %s with %u items and at %s with %u threads, as "
			"many as it has items (now %s): run "
			"fewer threads, which queue less for the same work, and to go faster cut "
			"the work per item.", p->threads, fig_pct(p->runq_share), f->ncpus,
			fig_ns(p->cpu_ns), fig_ns(more->wall_ns), more->capacity,
			fig_ns(few->wall_ns), p->capacity, fig_ns(p->window_ns));
		return;
	}
	if (!p->capacity) {
		set_fix(o, "Use fewer threads: %u CPUs run at most %u at once, and the rest queue for "
			"the pool and the CPUs both; the pool's capacity matters once its holds are "
			"not stretched by the run queue.", f->ncpus, f->ncpus);
		return;
	}
	if (enough > p->capacity && w) {
		char knob[160] = "", with[200] = "";
		const char *name;

		if ((o->setting = pool_knob_for(p->name, enough, knob, sizeof(knob), &name))) {
			snprintf(with, sizeof(with), " (%s)", knob);
			cause_knob(&o->c, name, enough);
		}
		cause_fig(&o->c, "fix_items", enough);
		cause_fig(&o->c, "fix_wall_ns", w->wall_ns);
		set_fix(o, "Raise %s's capacity from %u to %u%s: the model puts the same work at %s "
			"instead of %s%s%s.", p->name, p->capacity, enough, with, fig_ns(w->wall_ns),
			fig_ns(p->window_ns), few ? "; or run as many threads as it has items, "
			"which the queue only delays: " : "", few ? fig_ns(few->wall_ns) : "");
	}
	else
		set_fix(o, "%s's %u items are enough for its %u threads: shorten the hold (%s each).",
			p->name, p->capacity, p->threads, fig_ns(p->hold_ns));
}

/* What the title and the first line of evidence say; a capacity not
 * measured is no figure (the title says "several"). */
static void pool_figs(struct diag_cause *c, const struct pool_row *p)
{
	if (p->capacity)
		cause_fig(c, "capacity", p->capacity);
	cause_fig(c, "threads", p->threads);
	cause_fig(c, "waiters", p->waiters_mean);
	cause_fig(c, "waits", (double)p->waits);
	cause_fig(c, "wait_ns", (double)p->wait_ns);
	cause_fig(c, "holders", p->holders_mean);
	cause_fig(c, "window_ns", p->window_ns);
}

/* The most waited for pool whose waits are a lock table's (a proxy's
 * pool of connections is rules_proxy.c's). */
static const struct pool_row *top_pool(const struct joined_run *m, const struct lock_total **l)
{
	for (int i = 0; i < m->npools; i++)
		if (m->pools[i].kind != LK_CONNECTIONS) {
			*l = lock_of_pool(m, &m->pools[i]);
			return *l ? &m->pools[i] : NULL;
		}
	return NULL;
}

bool rule_pool_of_n(const struct facts *f, struct finding *o)
{
	const struct lock_total *l = NULL;
	const struct pool_row *p = top_pool(f->m, &l);
	double share;

	if (!p)
		return false;
	share = fig_ratio((double)p->wait_ns, f->kwall);
	if (share < EXPLAIN_MIN_SHARE)
		return false;
	/* a condvar's estimate reads high when its gives find no waiter */
	found(o, "pool_too_small", share, !p->capacity ? 0.5 :
	      p->kind == LK_CONDVAR || p->how == PC_NOT_QUEUED ? 0.6 : 0.8,
	      l->is_lock ? COV_LOCK : COV_EVENT);
	if (p->how == PC_NOT_QUEUED)
		set_title(o, "%s of thread time queued for one of at most %u items (%s): %u threads, "
			  "%.1f asleep on average", fig_pct(share), p->capacity, p->name, p->threads,
			  p->waiters_mean);
	else if (p->capacity)
		set_title(o, "%s of thread time queued for one of %s's %u items: %u threads, %.1f "
			  "waiting on average", fig_pct(share), p->name, p->capacity, p->threads,
			  p->waiters_mean);
	else
		set_title(o, "%s of thread time queued for %s, a pool of several items: %u threads "
			  "on %u CPUs", fig_pct(share), p->name, p->threads, f->ncpus);
	pool_figs(&o->c, p);
	/* the fix's figures before the wakers' (ev_word_wakers may add its
	 * own: those past EXPLAIN_MAX_FIGS are dropped) */
	pool_fix(o, p, f);
	evidence_add(&o->c, "%s (%s): %s waits by %u threads, %s in total, %.1f threads waiting "
		     "and %.1f items held on average over %s.", p->name, lock_kind_name(p->kind),
		     fig_cnt((double)p->waits), p->threads, fig_ns((double)p->wait_ns),
		     p->waiters_mean, p->holders_mean, fig_ns(p->window_ns));
	ev_capacity(&o->c, p, f);
	ev_hold(&o->c, p);
	ev_word_wakers(&o->c, f, l);
	ev_whatif(&o->c, p);
	return true;
}
