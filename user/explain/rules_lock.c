/*
 * rules_lock.c - the lock rules: a pool's and a cache's lock where their
 * own counters were handed in, any program's user-space locks and events
 * (through the holder's side where it was measured), the JVM's
 * collector, stopped threads.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include "base/sysnames.h"
#include "base/units.h"
#include "explain/held.h"
#include "explain/rules_int.h"
#include "explain/whatif.h"
#include "explain/words.h"

/* ---- the holder's side, measured (explain/held.c) ---------------------- */

/* The user lock with the most wait whose holders were measured, or NULL. */
static const struct lock_total *held_lock(const struct joined_run *m)
{
	const struct lock_total *top = NULL;

	for (int i = 0; i < m->nlocks; i++)
		if (!m->locks[i].kernel && m->locks[i].is_lock && m->locks[i].holders.measured &&
		    m->locks[i].holders.held_ns > 0 && (!top || m->locks[i].wait_ns > top->wait_ns))
			top = &m->locks[i];
	return top;
}

static struct held_ctx held_ctx_of(const struct facts *f)
{
	struct held_ctx x = { .wall_ns = (double)f->m->wall_ns,
			      .thread_ns = f->sched ? f->kwall : f->wall,
			      .threads = f->threads, .ncpus = f->ncpus };
	return x;
}

/* The changes worth asking of lock l: those that take out of it a part
 * its holders spent a tenth of the held time in. */
static bool change_matters(const struct lock_total *l, enum lock_change c)
{
	const struct lock_holders *h = &l->holders;

	if (c == LC_SYSCALLS_OUTSIDE)
		return held_share(h, HS_SYSCALL) + held_share(h, HS_BLOCKED) >= 0.1;
	return held_share(h, HS_PREEMPTED) >= 0.1;
}

/* "With its syscalls made outside it, fcp.pool would be held ..." */
static void ev_lock_whatif(struct diag_cause *c, const struct facts *f, const struct lock_total *l)
{
	static const char *const what[LC_N] = {
		[LC_SYSCALLS_OUTSIDE] = "its syscalls made outside it",
		[LC_NO_PREEMPTION] = "its holders never preempted holding it",
	};
	struct lock_whatif w;

	for (int ch = 0; ch < LC_N; ch++)
		if (change_matters(l, ch) && whatif_lock(f->m, l, ch, &w) == 0)
			evidence_add(c, "What if (whatif_lock.c): with %s, %s would be held %s instead "
				     "of %s and waited for %s instead of %s; the run would take ~%s "
				     "instead of %s (set by %s).", what[ch], l->name,
				     fig_ns(w.held_after_ns), fig_ns(w.held_ns),
				     fig_ns(w.wait_after_ns), fig_ns(w.wait_ns),
				     fig_ns(w.predicted_wall_ns), fig_ns(w.measured_wall_ns), w.bound);
}

void explain_lock_whatifs(const struct joined_run *m, struct diagnosis *d)
{
	d->nlock_whatifs = 0;
	for (int i = 0; i < m->nlocks; i++) {
		const struct lock_total *l = &m->locks[i];

		if (l->kernel || !l->is_lock || !l->holders.measured)
			continue;
		for (int ch = 0; ch < LC_N && d->nlock_whatifs < WHATIF_LOCK_MAX; ch++)
			if (change_matters(l, ch) &&
			    whatif_lock(m, l, ch, &d->lock_whatifs[d->nlock_whatifs]) == 0)
				d->nlock_whatifs++;
	}
}

/* ", whose holders spend 50 % of the time held in syscalls (openat, ...)" */
static void held_title_tail(char *buf, size_t n, const struct lock_total *l)
{
	enum hold_state s = held_main_state(&l->holders);
	char words[200];

	held_state_words(words, sizeof(words), &l->holders, s);
	snprintf(buf, n, ", whose holders spend %s of the time held %s",
		 fig_pct(held_share(&l->holders, s)), words);
}

/* ---- evidence shared by the lock rules -------------------------------- */

/* "The 8 threads spent 61 % of their wall time asleep on it (futex ...)." */
static void ev_lock_wait(struct diag_cause *c, const struct facts *f, const char *what)
{
	int n;
	const struct lock_total *t = top_lock(f->m, false, &n);
	double share = lock_share(f);

	if (f->sc && t) {
		cause_fig(c, "waits", (double)t->waits);	/* the word with the most */
		cause_fig(c, "wait_ns", lock_wait_ns(f));
		if (n > 1)
			cause_fig(c, "futex_words", n);
	} else {
		cause_fig(c, "waits", f->contended);
		cause_fig(c, "wait_ns", f->lock_wait);
	}
	if (f->sc && t && n == 1)
		evidence_add(c, "The %u threads spent %s of their wall time asleep on %s (futex %s: "
		       "%s waits, %s in total).", f->threads, fig_pct(share), what, t->name,
		       fig_cnt((double)t->waits), fig_ns(lock_wait_ns(f)));
	else if (f->sc && t)
		evidence_add(c, "The %u threads spent %s of their wall time asleep on %s (%d futex "
		       "words, %s in total; most on %s: %s waits).", f->threads, fig_pct(share), what,
		       n, fig_ns(lock_wait_ns(f)), t->name, fig_cnt((double)t->waits));
	else
		evidence_add(c, "The %u threads spent %s of their wall time waiting for %s by their own "
		       "clocks, %s in total over %s contended acquisitions.", f->threads,
		       fig_pct(share), what, fig_ns(f->lock_wait), fig_cnt(f->contended));
}

/*
 * A wait longer than a full queue of holders could explain (threads x the
 * mean hold) is mostly hand-off: waking the next holder and finding it a
 * CPU. The threads' own clocks time both; the sched probes split out the
 * run-queue part.
 */
static void ev_handoff(struct diag_cause *c, const struct facts *f)
{
	double per_wait = fig_ratio(f->lock_wait, f->contended);
	double hold = fig_ratio(f->lock_hold, f->acquires);

	if (hold <= 0 || per_wait <= f->threads * hold)
		return;
	cause_fig(c, "wait_mean_ns", per_wait);
	cause_fig(c, "hold_mean_ns", hold);
	if (f->threads > f->ncpus)
		evidence_add(c, "Each contended wait lasted %s, %.0f x the %s a holder keeps the lock: "
		       "mostly hand-off, waking the next holder and finding it a CPU (%u threads "
		       "on %u CPUs).", fig_ns(per_wait), per_wait / hold, fig_ns(hold), f->threads,
		       f->ncpus);
	else
		evidence_add(c, "Each contended wait lasted %s, %.0f x the %s a holder keeps the lock: "
		       "mostly hand-off, a futex wake-up and a context switch.", fig_ns(per_wait),
		       per_wait / hold, fig_ns(hold));
	if (f->sched && f->runq_in_wait > 0) {
		cause_fig(c, "runq_in_wait_ns", f->runq_in_wait);
		evidence_add(c, "Woken waiters then sat %s in the run queue before they ran (%s of "
		       "thread time).", fig_ns(f->runq_in_wait), fig_pct(fig_ratio(f->runq_in_wait, f->kwall)));
	}
}

/* ---- pool misses serialised under the pool lock ------------------------ */

/* Below this miss ratio a pool's syscalls under the lock are not its problem. */
#define POOL_MIN_MISSES	0.01

static void ev_pool_ratio(struct diag_cause *c, const struct facts *f)
{
	unsigned cap = f->cfg->pool, files = f->files;
	double gets = f->hits + f->misses;

	/* the pool's size is the run's setting, in the headline */
	cause_fig(c, "files", files);
	cause_fig(c, "misses", f->misses);
	cause_fig(c, "miss_ratio", fig_ratio(f->misses, gets));
	cause_fig(c, "predicted_miss_ratio", files > cap ? whatif_miss_ratio(cap, files) : 0);
	if (files > cap)
		evidence_add(c, "The pool holds %u channels for %u files, so gets miss: %s of %s, "
		       "miss ratio %s (uniform access predicts 1 - %u/%u = %s).", cap, files,
		       fig_cnt(f->misses), fig_cnt(gets), fig_pct(fig_ratio(f->misses, gets)), cap, files,
		       fig_pct(whatif_miss_ratio(cap, files)));
	else
		evidence_add(c, "The pool holds %u channels for %u files, so all fit: %s of %s gets "
		       "missed, miss ratio %s (uniform access predicts 0 once warm).", cap, files,
		       fig_cnt(f->misses), fig_cnt(gets), fig_pct(fig_ratio(f->misses, gets)));
}

static void ev_pool_inside(struct diag_cause *c, const struct facts *f)
{
	const struct joined_run *m = f->m;
	double in_sc = whatif_lock_syscall_ns(m, f->sc_in_lock);
	double rest = fig_ratio(f->lock_hold - fmax(in_sc, 0), f->acquires);

	cause_fig(c, "syscalls_per_miss", fig_ratio(f->sc_in_lock, f->misses));
	if (in_sc > 0) {
		cause_fig(c, "miss_hold_ns", in_sc / f->misses);
		evidence_add(c, "Every miss makes %.1f syscalls holding the pool lock (stat %s, open %s, "
		       "close %s mean): %s per miss in the lock, against %s per other "
		       "acquisition.", fig_ratio(f->sc_in_lock, f->misses),
		       fig_ns(sc_mean(m, __NR_newfstatat, __NR_statx)),
		       fig_ns(sc_mean(m, __NR_openat, __NR_openat)),
		       fig_ns(sc_mean(m, __NR_close, __NR_close)), fig_ns(in_sc / f->misses),
		       fig_ns(fmax(rest, 0)));
	} else {
		cause_fig(c, "hold_mean_ns", fig_ratio(f->lock_hold, f->acquires));
		evidence_add(c, "Every miss makes %.1f syscalls (stat, open, and close on eviction) "
		       "holding the pool lock, by the workload's count; the lock is held %s per "
		       "acquisition on average.", fig_ratio(f->sc_in_lock, f->misses),
		       fig_ns(fig_ratio(f->lock_hold, f->acquires)));
	}
}

/* One lock: its busy time caps the throughput at ops / hold. */
static void ev_lock_busy(struct diag_cause *c, const struct facts *f)
{
	double wall = (double)f->m->wall_ns;

	cause_fig(c, "held_ns", f->lock_hold);
	cause_fig(c, "busy_share", fig_ratio(f->lock_hold, wall));
	cause_fig(c, "max_ops_per_s", fig_ratio(f->ops * 1e9, f->lock_hold));
	evidence_add(c, "So the lock is held %s of the %s run (%s busy): at %s per op it admits at "
	       "most %s ops/s, and the run made %s ops/s.", fig_ns(f->lock_hold), fig_ns(wall),
	       fig_pct(fig_ratio(f->lock_hold, wall)), fig_ns(fig_ratio(f->lock_hold, f->ops)),
	       fig_cnt(fig_ratio(f->ops * 1e9, f->lock_hold)), fig_cnt(fig_ratio(f->ops * 1e9, wall)));
}

/*
 * The convoy. Taking a wait as independent of what the waiter will do,
 * hits and returns (every acquisition but a miss's get) pay their share of
 * acquisitions of the wait; what they wait behind is the misses' syscall
 * time, in proportion to its part of the lock's busy time.
 */
static void ev_convoy_hits(struct diag_cause *c, const struct facts *f)
{
	double q = fig_ratio(f->acquires - f->misses, f->acquires), wait = lock_wait_ns(f);

	cause_fig(c, "hits_wait_ns", wait * q);
	evidence_add(c, "Requests that would hit waited too: hits and returns make %s of the %s "
	       "acquisitions, so an estimated %s of that wait was theirs (if waits do not "
	       "depend on the request).", fig_pct(q), fig_cnt(f->acquires), fig_ns(wait * q));
}

static void ev_convoy(struct diag_cause *c, const struct facts *f)
{
	double q = fig_ratio(f->acquires - f->misses, f->acquires), wait = lock_wait_ns(f);
	double in_sc = whatif_lock_syscall_ns(f->m, f->sc_in_lock);
	double b = fig_ratio(fmax(in_sc, 0), f->lock_hold);

	ev_convoy_hits(c, f);
	if (in_sc <= 0)
		return;
	cause_fig(c, "convoy_share", fig_ratio(wait * q * b, f->sched ? f->kwall : f->wall));
	evidence_add(c, "Misses' syscalls were %s of the lock's busy time, so about %s of thread "
		       "time was hits queued behind them: a convoy (estimate).", fig_pct(b),
		       fig_pct(fig_ratio(wait * q * b, f->sched ? f->kwall : f->wall)));
}

static void fix_pool(struct finding *o, const struct facts *f)
{
	if (f->files > f->cfg->pool)
		set_fix(o, "Do the stat, open and close outside the pool lock and take channels off "
			"the idle list in O(1) (fcp-fixed); or give the pool %u channels, one per "
			"file, so it stops missing.", f->files);
	else
		set_fix(o, "Do the stat, open and close outside the pool lock and take channels off "
			"the idle list in O(1) (fcp-fixed).");
}

static bool rule_pool_syscalls(const struct facts *f, struct finding *o)
{
	double share = lock_share(f);

	found(o, "pool_lock_serialisation", share, conf_lock(f), COV_LOCK);
	cause_fig(&o->c, "syscalls_per_miss", fig_ratio(f->sc_in_lock, f->misses));
	set_title(o, "%s of thread time waiting for the pool lock, queued behind misses that "
		  "make %.1f syscalls inside it", fig_pct(share), fig_ratio(f->sc_in_lock, f->misses));
	ev_pool_ratio(&o->c, f);
	ev_pool_inside(&o->c, f);
	ev_lock_busy(&o->c, f);
	ev_lock_wait(&o->c, f, "the pool lock");
	ev_handoff(&o->c, f);
	ev_convoy(&o->c, f);
	fix_pool(o, f);
	return true;
}

/* A pool whose lock holds no syscall and still queues the threads. */
static bool rule_pool_short(const struct facts *f, struct finding *o)
{
	double share = lock_share(f), hold = fig_ratio(f->lock_hold, f->acquires);

	found(o, "pool_lock_contention", share, conf_lock(f), COV_LOCK);
	cause_fig(&o->c, "hold_mean_ns", hold);
	cause_fig(&o->c, "syscalls_in_lock", f->sc_in_lock);
	set_title(o, "%s of thread time waiting for the pool lock, held %s per acquisition, "
		  "%s", fig_pct(share), fig_ns(hold), f->sc_in_lock > 0 ? "mostly by hits" :
		  "with no syscall inside");
	ev_pool_ratio(&o->c, f);
	ev_lock_busy(&o->c, f);
	ev_lock_wait(&o->c, f, "the pool lock");
	ev_handoff(&o->c, f);
	if (f->sc_in_lock > 0)
		set_fix(o, "Shorten the hit path under the lock: take channels off the idle list in "
			"O(1) and keep syscalls out of it (fcp-fixed), or split the pool lock; %u "
			"threads share one lock held %s at a time.", f->threads, fig_ns(hold));
	else
		set_fix(o, "The critical section already makes no syscall: split the pool lock "
			"(shards by file name) or look channels up without it; %u threads share "
			"one lock held %s at a time.", f->threads, fig_ns(hold));
	return true;
}

/* Misses that make syscalls under the lock, often enough to matter. */
static bool misses_in_lock(const struct facts *f)
{
	return f->sc_in_lock > 0 && fig_ratio(f->misses, f->hits + f->misses) >= POOL_MIN_MISSES;
}

/*
 * The pool lock through the generic chain: what its holders did, as the
 * holders probes measured it from outside, then the pool's own line (its
 * size against the files) and the convoy its own counters show.
 */
static bool rule_pool_held(const struct facts *f, const struct lock_total *l,
			   struct finding *o)
{
	struct held_ctx x = held_ctx_of(f);
	double share = lock_share(f);
	char tail[300];

	/* Serialised by syscalls when its holders spend a tenth of the held
	 * time in them past the first opens: a pool whose files fit opens
	 * each once, inside the lock, and never again (no evictions), and a
	 * short run's first opens can be a tenth of a short held time. */
	bool serialised = held_share(&l->holders, HS_SYSCALL) >= 0.1 && f->tot->evictions > 0;

	found(o, serialised ? "pool_lock_serialisation" : "pool_lock_contention", share,
	      conf_lock(f), COV_LOCK);
	held_figures(&o->c, l, &x);	/* the chain's first: they are the cause */
	held_title_tail(tail, sizeof(tail), l);
	set_title(o, "%s of thread time waiting for the pool lock%s", fig_pct(share), tail);
	ev_pool_ratio(&o->c, f);
	held_evidence(&o->c, l, &x);
	ev_convoy_hits(&o->c, f);
	ev_lock_whatif(&o->c, f, l);
	fix_pool(o, f);
	return true;
}

bool rule_pool(const struct facts *f, struct finding *o)
{
	const struct lock_total *l = held_lock(f->m);

	if (!f->tot->has_pool || lock_share(f) < EXPLAIN_MIN_SHARE)
		return false;
	if (l)
		return rule_pool_held(f, l, o);
	if (misses_in_lock(f))
		return rule_pool_syscalls(f, o);
	return rule_pool_short(f, o);
}

/* ---- user-level cache lock contention ---------------------------------- */

static void ev_cache(struct diag_cause *c, const struct facts *f, int nlocks)
{
	double lookups = f->hits + f->misses;

	cause_fig(c, "hits", f->hits);
	cause_fig(c, "lookups", lookups);
	cause_fig(c, "hit_ratio", fig_ratio(f->hits, lookups));
	cause_fig(c, "miss_read_ns", f->miss_read);
	cause_fig(c, "acquires", f->acquires);
	cause_fig(c, "acquires_per_op", fig_ratio(f->acquires, f->ops));
	cause_fig(c, "hold_mean_ns", fig_ratio(f->lock_hold, f->acquires));
	/* of one lock's time, on average over the locks */
	cause_fig(c, "busy_share", fig_ratio(f->lock_hold, (double)f->m->wall_ns * nlocks));
	evidence_add(c, "The cache served %s of %s block lookups from memory (hit ratio %s); misses "
	       "read from the file outside the lock, %s in total.", fig_cnt(f->hits), fig_cnt(lookups),
	       fig_pct(fig_ratio(f->hits, lookups)), fig_ns(f->miss_read));
	evidence_add(c, "%s: %s acquisitions, %.1f per op, held %s each on average, %s of the run "
	       "per lock.", f->acquires >= lookups ? "Every lookup and insert takes a lock" :
	       "Hits take no lock, inserts do", fig_cnt(f->acquires),
	       fig_ratio(f->acquires, f->ops), fig_ns(fig_ratio(f->lock_hold, f->acquires)),
	       fig_pct(fig_ratio(f->lock_hold, (double)f->m->wall_ns * nlocks)));
}

bool rule_cache(const struct facts *f, struct finding *o)
{
	double share = lock_share(f);
	int nlocks = join_own_locks(f->m) > 0 ? join_own_locks(f->m) : 1;

	if (!f->tot->has_cache || share < EXPLAIN_MIN_SHARE)
		return false;
	found(o, "cache_lock_contention", share, conf_lock(f), COV_LOCK);
	cause_fig(&o->c, "threads", f->threads);
	cause_fig(&o->c, "locks", nlocks);
	if (nlocks == 1)
		set_title(o, "%s of thread time waiting for the cache lock: one lock for %u "
			  "threads, taken by every lookup", fig_pct(share), f->threads);
	else
		set_title(o, "%s of thread time waiting for the cache's %d locks, %u threads "
			  "taking one on every lookup", fig_pct(share), nlocks, f->threads);
	ev_cache(&o->c, f, nlocks);
	ev_lock_wait(&o->c, f, nlocks > 1 ? "the cache's locks" : "the cache lock");
	ev_handoff(&o->c, f);
	cause_fig(&o->c, "miss_read_share", fig_ratio(f->miss_read, f->wall));
	evidence_add(&o->c, "Reading missed blocks from the file took %s of thread time, against the "
	       "%s spent waiting for the lock%s.", fig_pct(fig_ratio(f->miss_read, f->wall)),
	       fig_pct(share), nlocks > 1 ? "s" : "");
	if (f->acquires < f->hits + f->misses)
		set_fix(o, "Hits already take no lock: the waits are the inserts'; more segments, "
			"or fewer misses (a larger --cache-size).");
	else if (nlocks == 1)
		set_fix(o, "Take the lock off the hit path: a concurrent map (bcache-chm) whose gets "
			"take no lock, or at least lock striping (bcache-sharded: 16 locks, each "
			"with its own LRU and a 16th of the budget).");
	else
		set_fix(o, "Already %d locks, and every hit still takes one to move its LRU entry: a "
			"hit path that takes no lock (bcache-chm: a CLOCK bit set on a hit, gets "
			"walking the map without a lock).", nlocks);
	return true;
}

/* ---- another program's locks and events ----------------------------------- */

/* A wait for a thread to end (pthread_join): no cause of anything. */
static bool is_join(const struct lock_total *l)
{
	return wait_class_of(l->kind, l->is_lock) == WAIT_EXIT;
}

/* A timed sleep (a JVM's Thread.sleep): the thread's own pacing. */
static bool is_sleep(const struct lock_total *l)
{
	return wait_class_of(l->kind, l->is_lock) == WAIT_TIME;
}

/* The user futex words with the most wait, of one kind (locks or
 * events, joins left out), largest first; returns how many went into
 * top[]. */
static int top_words(const struct joined_run *m, bool is_lock, const struct lock_total **top,
		     int max)
{
	int n = 0;

	while (n < max) {
		const struct lock_total *best = NULL;

		for (int i = 0; i < m->nlocks; i++) {
			const struct lock_total *l = &m->locks[i];
			bool taken = false;

			for (int j = 0; j < n; j++)
				taken |= top[j] == l;
			if (!l->kernel && l->is_lock == is_lock && l->wait_ns && !taken &&
			    !is_join(l) && !is_sleep(l) && !pool_of_lock(m, l) &&
			    (!best || l->wait_ns > best->wait_ns))
				best = l;
		}
		if (!best)
			break;
		top[n++] = best;
	}
	return n;
}

/* Who ended l's waits: in the evidence for every word said, in the
 * figures only for the first (another's would overwrite its keys). */
static void ev_word_wakers_of(struct diag_cause *c, const struct facts *f,
			      const struct lock_total *l, bool first)
{
	struct diag_fig keep[EXPLAIN_MAX_FIGS];
	int n = c->nfigs;

	memcpy(keep, c->figs, sizeof(keep));
	ev_word_wakers(c, f, l);
	if (!first) {
		memcpy(c->figs, keep, sizeof(keep));
		c->nfigs = n;
	}
}

/* The figures of the word a cause is about (its first): the others'
 * would take the same keys. */
static void word_figures(struct diag_cause *c, const struct lock_total *l)
{
	cause_fig(c, "waits", (double)l->waits);
	cause_fig(c, "wait_ns", (double)l->wait_ns);
	if (l->runq_ns * 20 >= l->wait_ns)
		cause_fig(c, "wait_runq_ns", (double)l->runq_ns);
	if (l->turns)
		cause_fig(c, "waiters_wake_share",
			  fig_ratio((double)l->wakes_by_waiters, (double)l->wakes));
	cause_fig(c, "wait_max_ns", (double)l->max_ns);
	cause_fig(c, "waiter_threads", l->threads);
}

/* "session_table_lock (mutex): 412 k waits by 8 threads, 11.3 s (61 %),
 * 27.4 µs each, longest 2.1 ms; 1.2 s of it runnable after the wake." */
static void ev_word(struct diag_cause *c, const struct facts *f, const struct lock_total *l,
		    bool first)
{
	if (first)
		word_figures(c, l);
	evidence_add(c, "%s: %s waits by %u thread%s, %s in total (%s of thread time), %s each on "
	       "average, longest %s.", l->name, fig_cnt((double)l->waits), l->threads,
	       fig_plural(l->threads), fig_ns((double)l->wait_ns),
	       fig_pct(fig_ratio((double)l->wait_ns, f->wall)),
	       fig_ns(fig_ratio((double)l->wait_ns, (double)l->waits)), fig_ns((double)l->max_ns));
	if (l->runq_ns * 20 >= l->wait_ns)
		evidence_add(c, "Of those waits, %s (%s) passed runnable after the wake-up, waiting for a "
		       "CPU: hand-off, %u threads on %u CPUs.", fig_ns((double)l->runq_ns),
		       fig_pct(fig_ratio((double)l->runq_ns, (double)l->wait_ns)), f->threads, f->ncpus);
	if (l->turns && l->kind == LK_SEMAPHORE)
		evidence_add(c, "%s of its %s wake-ups came from threads that wait on it, or on "
		       "semaphores like it: each releaser wakes the next waiter, a semaphore used "
		       "as a lock (semaphore waits count with the lock waits), not a wait for work.",
		       fig_pct(fig_ratio((double)l->wakes_by_waiters, (double)l->wakes)),
		       fig_cnt((double)l->wakes));
	else if (l->turns)
		evidence_add(c, "%s of its %s wake-ups came from threads that wait on it too: they pass "
		       "it among themselves, a lock built from a condition variable (as "
		       "CPython's GIL is), not a wait for work.",
		       fig_pct(fig_ratio((double)l->wakes_by_waiters, (double)l->wakes)),
		       fig_cnt((double)l->wakes));
	ev_word_wakers_of(c, f, l, first);
}

/* The first of the locks that matter whose holders were measured, or NULL. */
static const struct lock_total *measured_of(const struct lock_total *const *top, int n)
{
	for (int i = 0; i < n; i++)
		if ((i == 0 || top[i]->wait_ns * 10 >= top[0]->wait_ns) &&
		    top[i]->holders.measured && top[i]->holders.held_ns > 0)
			return top[i];
	return NULL;
}

/* Why the holders of lock l were not measured. */
static const char *unmeasured_why(const struct facts *f, const struct lock_total *l,
				  char *buf, size_t n)
{
	bool probes = f->m->groups & PG_MASK(PG_HOLDERS);

	if (!probes)
		return "the holders probes did not run";
	if (l->kind == LK_MONITOR && f->m->jvm_holders.why != JH_RAN)
		return jvm_holders_words(&f->m->jvm_holders, buf, n);
	if (l->kind == LK_MONITOR) {
		snprintf(buf, n, "none of its blocking enters was seen while fctrace watched Java "
			 "monitors (from the JVM's start-up, at most %d a run)", FCT_HOLD_MONITORS);
		return buf;
	}
	if (l->holders.measured)
		return "its word was watched from its first wait, but its holder's state began "
		       "before that (asleep or in a syscall since before anyone waited) and a "
		       "state is charged from its start";
	return "its futex word has no glibc mutex owner naming one of the traced threads (not a "
	       "pthread mutex, or the holders probes watched other words)";
}

/* A lock nobody measured the holders of: say why, and the generic fix. */
static void unmeasured(struct finding *o, const struct facts *f, const struct lock_total *l)
{
	char buf[160];

	evidence_add(&o->c, "How long a holder keeps it was not measured: %s.",
		     unmeasured_why(f, l, buf, sizeof(buf)));
	set_fix(o, "Hold %s for less time, or split it so that threads working on different "
		"data take different locks.", l->name);
}

/* A lock whose holder sleeps outside it while holding it parks its
 * waiters on purpose: said so, with no advice to shorten it. */
static bool gate(const struct facts *f, const struct lock_total *l, double share,
		 struct finding *o)
{
	char call[64] = "";
	int nr;

	found(o, "lock_gate", share, 0.8, COV_LOCK);
	held_parked_ns(&l->holders, &nr);
	if (nr >= 0)
		snprintf(call, sizeof(call), "%s", syscall_name((unsigned)nr, call, sizeof(call)));
	set_title(o, "%s of thread time parked on %s: a gate its holder keeps closed while "
		  "asleep in %s, not contention", fig_pct(share), l->name, nr >= 0 ? call :
		  "a wait for time or input");
	ev_word(&o->c, f, l, true);
	held_gate_evidence(&o->c, l);
	held_gate_fix(o->fix, sizeof(o->fix), l);
	return true;
}

/* ---- user-space lock contention, whatever the program ------------------ */

/* "fcp.pool", "the program's own lock": what the title calls the lock
 * waited for when no futex word of it was measured. */
static const char *own_lock_words(const struct facts *f)
{
	const struct subject_timings *t = f->m->timings;

	return t && t->nlocks == 1 ? t->locks[0].name : "the program's own locks";
}

static void user_lock_title(struct finding *o, const struct facts *f,
			    const struct lock_total *const *top, int n,
			    const struct lock_total *held, double share)
{
	char tail[300] = "";

	if (!n) {
		set_title(o, "%s of thread time waiting for %s, by the threads' own clocks",
			  fig_pct(share), own_lock_words(f));
		return;
	}
	if (held == top[0])
		held_title_tail(tail, sizeof(tail), held);
	set_title(o, "%s of thread time waiting for %s%s%s", fig_pct(share), top[0]->name,
		  n > 1 && top[1]->wait_ns * 10 >= top[0]->wait_ns ? " and other locks" : "", tail);
}

/* Where the program timed its own locks (acquisitions and hold time
 * handed in with the run): how often and how long they were held. */
static bool ev_own_hold(struct diag_cause *c, const struct facts *f)
{
	if (f->acquires <= 0)
		return false;
	cause_fig(c, "acquires", f->acquires);
	cause_fig(c, "hold_mean_ns", fig_ratio(f->lock_hold, f->acquires));
	evidence_add(c, "By the program's own clocks it was taken %s times and held %s each on "
		     "average, %s of the run.", fig_cnt(f->acquires),
		     fig_ns(fig_ratio(f->lock_hold, f->acquires)),
		     fig_pct(fig_ratio(f->lock_hold, (double)f->m->wall_ns)));
	return true;
}

/*
 * Threads queued on a user-space lock, whatever program made it: each
 * futex word that matters with its measured waits; what its holders did
 * where the holders probes measured it (a gate, or the chain and the
 * what-ifs); the program's own hold clocks where it handed them in. A
 * pool's or a cache's own counters explain their lock better: those
 * runs are rule_pool's and rule_cache's.
 */
/* The waits the block cache's cause counts (blocks_wait_ns), said where
 * they are left out. */
static void ev_block_rereads(struct diag_cause *c, double ns)
{
	if (ns <= 0)
		return;
	cause_fig(c, "reread_wait_ns", ns);
	evidence_add(c, "Of these waits, %s ended as the thread that woke them finished a "
		     "positional read of a block it had read before: they are counted with "
		     "the block cache's re-reads, not in this share.", fig_ns(ns));
}

bool rule_user_lock(const struct facts *f, struct finding *o)
{
	const struct lock_total *top[3] = { 0 }, *held = NULL;
	struct held_ctx x = held_ctx_of(f);
	double reads = blocks_wait_ns(f, true);
	double share = lock_share(f) - fig_ratio(pool_wait_ns(f, true) + reads, f->kwall);
	bool own;
	int n;

	if (f->tot->has_pool || f->tot->has_cache || share < EXPLAIN_MIN_SHARE)
		return false;
	n = top_words(f->m, true, top, 3);
	if (n)
		held = measured_of(top, n);
	if (held && held == top[0] && held_is_gate(&held->holders))
		return gate(f, held, share, o);
	found(o, "user_lock_contention", share, conf_lock(f), COV_LOCK);
	/* the waits, then a measured lock's chain, before the other figures
	 * (its word's, its wakers'): a cause keeps the first it is given */
	if (n) {
		cause_fig(&o->c, "waits", (double)top[0]->waits);
		cause_fig(&o->c, "wait_ns", (double)top[0]->wait_ns);
	}
	if (held)
		held_figures(&o->c, held, &x);
	user_lock_title(o, f, top, n, held, share);
	/* the locks that matter; with a measured one, room for its chain */
	for (int i = 0; i < n; i++)
		if ((i == 0 || top[i]->wait_ns * 10 >= top[0]->wait_ns) &&
		    (!held || i == 0 || top[i] == held))
			ev_word(&o->c, f, top[i], i == 0);
	if (!n)
		ev_lock_wait(&o->c, f, "it");
	ev_block_rereads(&o->c, reads);
	own = ev_own_hold(&o->c, f);
	if (held) {
		held_evidence(&o->c, held, &x);
		ev_lock_whatif(&o->c, f, held);
		held_fix(o->fix, sizeof(o->fix), held);
	} else if (own) {
		set_fix(o, "Hold the lock for less than %s at a time, or split it so threads "
			"working on different data take different locks.",
			fig_ns(fig_ratio(f->lock_hold, f->acquires)));
	} else if (n) {
		unmeasured(o, f, top[0]);
	}
	return true;
}

/* The busiest thread on CPU: the one the waiting threads most likely
 * wait for. */
static const struct thread_row *busiest(const struct joined_run *m)
{
	const struct thread_row *best = NULL;

	for (unsigned i = 0; i < m->nrows; i++) {
		const struct thread_row *r = &m->rows[i];
		uint64_t on = r->acct_ns[ACCT_CPU_USER] + r->acct_ns[ACCT_CPU_SYS];

		if (r->aside)
			continue;
		if (!best || on > best->acct_ns[ACCT_CPU_USER] + best->acct_ns[ACCT_CPU_SYS])
			best = r;
	}
	return best;
}

/* The fix where one call ends most of the waits: what the waker does in
 * it bounds them (a flusher's fdatasync: the device's flush). */
static bool fix_from_wakers(struct finding *o, const struct lock_total *l)
{
	const struct lock_wakers *w = &l->wakers;
	char who[64];
	bool durable;

	if (!w->nafter || !w->after[0].call[0] || w->after[0].wakes * 2 < w->wakes)
		return false;
	durable = !strcmp(w->after[0].call, "fdatasync") || !strcmp(w->after[0].call, "fsync") ||
		  !strcmp(w->after[0].call, "sync_file_range");
	if (w->threads[0].wakes * 2 >= w->wakes)
		snprintf(who, sizeof(who), "%s %d", w->threads[0].comm[0] ? w->threads[0].comm :
			 "thread", (int)w->threads[0].tid);
	else	/* a group commit's leader changes from one commit to the next */
		snprintf(who, sizeof(who), "one of %u threads, each in turn,",
			 (unsigned)w->nthreads + w->more_threads);
	set_fix(o, "The waiting threads idle until %s wakes them, in %s of the wakes right after "
		"its %s: %s", who, fig_pct(fig_ratio((double)w->after[0].wakes, (double)w->wakes)),
		w->after[0].call, durable ? "the device's flush latency bounds them - more records "
		"per flush (group commit), or a device that flushes faster." : "speed up what "
		"that thread does there, or hand the work to more than one thread.");
	return true;
}

/* The title by what ended the waits, when one kind of call did: the
 * root of the wait named first (a flusher's fdatasync), not the condvar. */
static void event_title(struct finding *o, double share, const struct lock_total *l)
{
	const struct lock_wakers *w = &l->wakers;

	if (w->cls == WC_DURABLE)
		set_title(o, "%s of thread time waiting for another thread's %s (%s is signalled "
			  "after it): a durability point", fig_pct(share), w->after[0].call, l->name);
	else if (w->cls == WC_INPUT)
		set_title(o, "%s of thread time idle until work comes in (%s is signalled after "
			  "another thread's %s): not a lock", fig_pct(share), l->name,
			  w->after[0].call);
	else
		set_title(o, "%s of thread time idle, waiting to be signalled (%s): not a lock",
			  fig_pct(share), l->name);
}

bool rule_event_wait(const struct facts *f, struct finding *o)
{
	const struct lock_total *top[3] = { 0 };
	const struct thread_row *b = busiest(f->m);
	double joins = 0, sleeps = 0, reads = blocks_wait_ns(f, false), share;
	int n;

	/* a thread waiting for its workers to end waits for their work, which
	 * the other causes explain: its join is left out; so is a timed sleep,
	 * which waits for no one */
	for (int i = 0; i < f->m->nlocks; i++) {
		const struct lock_total *l = &f->m->locks[i];

		if (!l->kernel && is_join(l))
			joins += (double)l->wait_ns;
		if (!l->kernel && is_sleep(l))
			sleeps += (double)l->wait_ns;
	}
	share = fig_ratio((double)f->m->event_wait_ns - joins - sleeps - pool_wait_ns(f, false) -
			  reads, f->wall);

	if (!f->sc || share < EXPLAIN_MIN_SHARE)
		return false;
	n = top_words(f->m, false, top, 3);
	if (!n)
		return false;
	found(o, "event_wait", share, 0.8, COV_EVENT);
	event_title(o, share, top[0]);
	for (int i = 0; i < n && i < 3; i++)
		if (i == 0 || top[i]->wait_ns * 10 >= top[0]->wait_ns)
			ev_word(&o->c, f, top[i], i == 0);
	evidence_add(&o->c, "A thread asleep on a condition variable, semaphore or barrier has "
	       "nothing to do until another thread signals it; the work it waits for is done "
	       "elsewhere.");
	if (joins > 0) {
		cause_fig(&o->c, "joins_ns", joins);
		evidence_add(&o->c, "Waits for threads to end (pthread_join, %s) are left out of this "
			     "share: they wait for the work the other causes explain.", fig_ns(joins));
	}
	if (sleeps > 0) {
		cause_fig(&o->c, "sleeps_ns", sleeps);
		evidence_add(&o->c, "Timed sleeps (Thread.sleep, %s) are left out of this share: they "
			     "wait for no other thread.", fig_ns(sleeps));
	}
	ev_block_rereads(&o->c, reads);
	ev_roots(&o->c, f->whole);
	if (!fix_from_wakers(o, top[0]) && b) {
		cause_fig(&o->c, "busiest_tid", b->tid);
		cause_fig(&o->c, "busiest_oncpu_share",
			  fig_ratio((double)(b->acct_ns[ACCT_CPU_USER] + b->acct_ns[ACCT_CPU_SYS]),
				    (double)(b->end_ns - b->start_ns)));
		set_fix(o, "The waiting threads idle until signalled: speed up the work they wait "
			"for; the busiest thread, %d (%s), was on CPU %s of its window.", (int)b->tid,
			b->k.comm[0] ? b->k.comm : "?", fig_pct(fig_ratio((double)(b->acct_ns[ACCT_CPU_USER] +
			b->acct_ns[ACCT_CPU_SYS]), (double)(b->end_ns - b->start_ns))));
	}
	return true;
}

/* A JVM's safepoints (GC pauses among them) stop every Java thread: the
 * application's threads lose that time whatever they were doing. */
bool rule_gc(const struct facts *f, struct finding *o)
{
	const struct joined_run *m = f->m;
	double lost = (double)m->safepoint_ns * f->threads, share = fig_ratio(lost, f->wall);

	if (!m->jvm || share < EXPLAIN_MIN_SHARE)
		return false;
	found(o, "jvm_safepoints", share, 0.8, 0);
	cause_fig(&o->c, "gcs", (double)m->gcs);
	cause_fig(&o->c, "safepoints", (double)m->safepoints);
	cause_fig(&o->c, "safepoint_ns", (double)m->safepoint_ns);
	cause_fig(&o->c, "gc_ns", (double)m->gc_ns);
	cause_fig(&o->c, "gc_max_ns", (double)m->gc_max_ns);
	cause_fig(&o->c, "threads", f->threads);
	set_title(o, "%s of the application's thread time stopped at JVM safepoints (%s GC "
		  "pauses)", fig_pct(share), fig_cnt((double)m->gcs));
	evidence_add(&o->c, "%s safepoints stopped every Java thread for %s in total; %s collections "
	       "took %s, the longest %s.", fig_cnt((double)m->safepoints), fig_ns((double)m->safepoint_ns),
	       fig_cnt((double)m->gcs), fig_ns((double)m->gc_ns), fig_ns((double)m->gc_max_ns));
	evidence_add(&o->c, "Threads stopped at a safepoint are not waiting on a lock: that time is "
	       "the collector's, counted once per application thread (%u).", f->threads);
	set_fix(o, "Allocate less, or give the heap more room (-Xmx) so that collections "
		"come less often.");
	return true;
}

/* A stopped process (SIGSTOP, a debugger) is neither the code nor the
 * machine: say so, so that its time is not read as a wait. */
bool rule_stopped(const struct facts *f, struct finding *o)
{
	double stopped = 0;

	for (unsigned i = 0; i < f->m->nrows; i++)
		if (!f->m->rows[i].aside)
			stopped += (double)f->m->rows[i].k.stopped_ns;
	if (!f->sched || fig_ratio(stopped, f->wall) < EXPLAIN_MIN_SHARE)
		return false;
	found(o, "stopped", fig_ratio(stopped, f->wall), 0.9, 0);
	o->machine = true;
	cause_fig(&o->c, "stopped_ns", stopped);
	set_title(o, "%s of thread time stopped (SIGSTOP or a debugger), not running or waiting",
		  fig_pct(fig_ratio(stopped, f->wall)));
	evidence_add(&o->c, "The threads were stopped for %s in total; that time is not the code's.",
	       fig_ns(stopped));
	set_fix(o, "Measure again without stopping the process.");
	return true;
}

