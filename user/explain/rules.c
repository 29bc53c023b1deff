/*
 * rules.c - from the joined run to a ranked diagnosis.
 *
 * First the facts: sums read once off the model. Then one rule per cause:
 * a rule fires when its cause holds at least EXPLAIN_MIN_SHARE of the
 * threads' wall time, and writes a title, its evidence - cause to effect,
 * each sentence with a figure measured in this run and what it is compared
 * with - and a fix. Findings are ranked by share; with none, the run is
 * healthy. Rules read figures and settings, never workload names.
 *
 * Shares come from the kernel's disjoint time buckets when the sched probes
 * ran, else from the workload's own clocks (and say so, with a lower
 * confidence). Kernel lock waits are the exception: they sit inside the
 * on-CPU and blocked buckets, so that share overlaps the others.
 */
#include <math.h>
#include <stdarg.h>
#include <string.h>
#include "explain/explain.h"
#include "explain/held.h"
#include "explain/words.h"
#include "base/sysnames.h"
#include "base/units.h"
#include "explain/whatif.h"

/* The model, summed once. */
struct facts {
	const struct joined_run *m;
	const struct wl_config *cfg;
	const struct wl_totals *tot;
	bool kernel, sched, sc, klock, pc;	/* what the kernel view measured */
	bool other;		/* a program fctrace did not write: no own clocks */
	double wall;		/* sum of worker wall times: the shares' denominator */
	double kwall;		/* the same over the workers the kernel saw */
	unsigned threads, ncpus, files;
	/* the workload's own clocks */
	double ops, hits, misses, acquires, contended, sc_in_lock;
	double lock_wait, lock_hold, read, miss_read;
	/* the kernel's per-thread counts */
	double pages_asked, invol, vol;
	double blocked_io, stopped;	/* of the blocked time: uninterruptible, stopped */
	double runq_in_wait;	/* runnable inside futex waits: woken, no CPU yet */
};

/* What a finding covers, so "not the problem" does not repeat it. */
enum { COV_LOCK = 1, COV_PC = 2, COV_BLOCKED = 4, COV_RUNQ = 8, COV_KLOCK = 16,
       COV_EVENT = 32 };

struct finding {
	struct diag_cause c;
	unsigned covers;
	bool machine;		/* the machine's share (cores), not the code's */
	char fix[400];
};

/* ---- small helpers ---------------------------------------------------- */

#define PRINTF(f, a) __attribute__((format(printf, f, a)))

static double kshare(const struct facts *f, enum acct_bucket b)
{
	return fig_ratio((double)f->m->acct_total_ns[b], f->kwall);
}

static void set_title(struct finding *o, const char *fmt, ...) PRINTF(2, 3);
static void set_title(struct finding *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(o->c.title, sizeof(o->c.title), fmt, ap);
	va_end(ap);
}

static void set_fix(struct finding *o, const char *fmt, ...) PRINTF(2, 3);
static void set_fix(struct finding *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(o->fix, sizeof(o->fix), fmt, ap);
	va_end(ap);
}

static void found(struct finding *o, const char *id, double share, double conf,
		  unsigned covers)
{
	memset(o, 0, sizeof(*o));
	snprintf(o->c.cause, sizeof(o->c.cause), "%s", id);
	o->c.share = share;
	o->c.confidence = conf;
	o->covers = covers;
}

/* ---- the facts -------------------------------------------------------- */

static void facts_row(struct facts *f, const struct thread_row *r)
{
	const struct wl_thread_stats *u = &r->user;
	double wall = (double)(u->end_ns - u->start_ns);

	f->wall += wall;
	f->hits += (double)u->hits;
	f->misses += (double)u->misses;
	f->acquires += (double)u->lock_acquires;
	f->contended += (double)u->lock_contended;
	f->sc_in_lock += (double)u->syscalls_in_lock;
	f->lock_wait += (double)u->lock_wait_ns;
	f->lock_hold += (double)u->lock_hold_ns;
	f->read += (double)u->read_ns;
	f->miss_read += (double)u->miss_read_ns;
	if (!r->has_kernel)
		return;
	f->kwall += wall;
	f->pages_asked += (double)r->k.pages_asked;
	f->invol += (double)r->k.invol_switches;
	f->vol += (double)r->k.vol_switches;
	f->blocked_io += (double)r->k.blocked_io_ns;
	f->stopped += (double)r->k.stopped_ns;
	if (r->k.runq_total_ns > r->k.runq_ns)
		f->runq_in_wait += (double)(r->k.runq_total_ns - r->k.runq_ns);
}

static void facts_init(struct facts *f, const struct joined_run *m)
{
	unsigned g;

	memset(f, 0, sizeof(*f));
	f->m = m;
	f->cfg = &m->res->cfg;
	f->tot = &m->res->totals;
	f->threads = m->nrows;
	f->ncpus = m->ncpus ? m->ncpus : 1;
	f->files = f->cfg->shared_file ? 1 : f->cfg->files;
	f->ops = (double)m->ops;
	f->threads = 0;
	for (unsigned i = 0; i < m->nrows; i++)
		if (!m->rows[i].aside) {
			facts_row(f, &m->rows[i]);
			f->threads++;
		}
	if (m->thread_wall_total_ns)
		f->wall = (double)m->thread_wall_total_ns;
	/* a kernel view that saw none of the workers is no kernel view */
	g = m->kv && f->kwall > 0 ? m->groups : 0;
	f->kernel = g != 0;
	f->sched = g & PG_MASK(PG_SCHED);
	f->sc = g & PG_MASK(PG_SYSCALLS);
	f->klock = g & PG_MASK(PG_KLOCK);
	f->pc = g & PG_MASK(PG_PAGECACHE);
	f->other = m->names != NULL;
}

/* Time blocked on the workload's own locks: the kernel's futex account when
 * the sched probes ran, else the threads' own lock-wait clocks. */
static double lock_wait_ns(const struct facts *f)
{
	return f->sched ? (double)f->m->acct_total_ns[ACCT_LOCK_NAMED] : f->lock_wait;
}

static double lock_share(const struct facts *f)
{
	return f->sched ? kshare(f, ACCT_LOCK_NAMED) : fig_ratio(f->lock_wait, f->wall);
}

static double conf_lock(const struct facts *f)
{
	return f->sc ? 0.9 : f->sched ? 0.75 : 0.6;
}

/* The named user lock with the most wait; *n counts them. */
static const struct lock_total *top_lock(const struct joined_run *m, bool kernel, int *n)
{
	const struct lock_total *top = NULL;

	*n = 0;
	for (int i = 0; i < m->nlocks; i++) {
		if (m->locks[i].kernel != kernel)
			continue;
		++*n;
		if (!top || m->locks[i].wait_ns > top->wait_ns)
			top = &m->locks[i];
	}
	return top;
}

static double sc_mean(const struct joined_run *m, enum fct_sc a, enum fct_sc b)
{
	const struct fct_sc_stats *x = &m->sc_total[a], *y = &m->sc_total[b];

	return fig_ratio((double)(x->total_ns + y->total_ns), (double)(x->count + y->count));
}

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
	if (f->threads > f->ncpus)
		evidence_add(c, "Each contended wait lasted %s, %.0f x the %s a holder keeps the lock: "
		       "mostly hand-off, waking the next holder and finding it a CPU (%u threads "
		       "on %u CPUs).", fig_ns(per_wait), per_wait / hold, fig_ns(hold), f->threads,
		       f->ncpus);
	else
		evidence_add(c, "Each contended wait lasted %s, %.0f x the %s a holder keeps the lock: "
		       "mostly hand-off, a futex wake-up and a context switch.", fig_ns(per_wait),
		       per_wait / hold, fig_ns(hold));
	if (f->sched && f->runq_in_wait > 0)
		evidence_add(c, "Woken waiters then sat %s in the run queue before they ran (%s of "
		       "thread time).", fig_ns(f->runq_in_wait), fig_pct(fig_ratio(f->runq_in_wait, f->kwall)));
}

/* ---- pool misses serialised under the pool lock ------------------------ */

/* Below this miss ratio a pool's syscalls under the lock are not its problem. */
#define POOL_MIN_MISSES	0.01

static void ev_pool_ratio(struct diag_cause *c, const struct facts *f)
{
	unsigned cap = f->cfg->pool, files = f->files;
	double gets = f->hits + f->misses;

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

	if (in_sc > 0)
		evidence_add(c, "Every miss makes %.1f syscalls holding the pool lock (stat %s, open %s, "
		       "close %s mean): %s per miss in the lock, against %s per other "
		       "acquisition.", fig_ratio(f->sc_in_lock, f->misses),
		       fig_ns(sc_mean(m, FCT_SC_NEWFSTATAT, FCT_SC_STATX)),
		       fig_ns(sc_mean(m, FCT_SC_OPENAT, FCT_SC_OPENAT)),
		       fig_ns(sc_mean(m, FCT_SC_CLOSE, FCT_SC_CLOSE)), fig_ns(in_sc / f->misses),
		       fig_ns(fmax(rest, 0)));
	else
		evidence_add(c, "Every miss makes %.1f syscalls (stat, open, and close on eviction) "
		       "holding the pool lock, by the workload's count; the lock is held %s per "
		       "acquisition on average.", fig_ratio(f->sc_in_lock, f->misses),
		       fig_ns(fig_ratio(f->lock_hold, f->acquires)));
}

/* One lock: its busy time caps the throughput at ops / hold. */
static void ev_lock_busy(struct diag_cause *c, const struct facts *f)
{
	double wall = (double)f->m->wall_ns;

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
	if (in_sc > 0)
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

	/* Serialised by syscalls when the waiters queued behind them: a pool
	 * whose files fit makes its few first opens inside the lock too, but
	 * nobody waits behind those for long. */
	found(o, held_waited_share(&l->holders, HS_SYSCALL) >= 0.1 ? "pool_lock_serialisation" :
	      "pool_lock_contention", share, conf_lock(f), COV_LOCK);
	held_title_tail(tail, sizeof(tail), l);
	set_title(o, "%s of thread time waiting for the pool lock%s", fig_pct(share), tail);
	ev_pool_ratio(&o->c, f);
	held_evidence(&o->c, l, &x);
	ev_convoy_hits(&o->c, f);
	ev_lock_whatif(&o->c, f, l);
	fix_pool(o, f);
	return true;
}

static bool rule_pool(const struct facts *f, struct finding *o)
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

	evidence_add(c, "The cache served %s of %s block lookups from memory (hit ratio %s); misses "
	       "read from the file outside the lock, %s in total.", fig_cnt(f->hits), fig_cnt(lookups),
	       fig_pct(fig_ratio(f->hits, lookups)), fig_ns(f->miss_read));
	evidence_add(c, "%s: %s acquisitions, %.1f per op, held %s each on average, %s of the run "
	       "per lock.", f->acquires >= lookups ? "Every lookup and insert takes a lock" :
	       "Hits take no lock, inserts do", fig_cnt(f->acquires),
	       fig_ratio(f->acquires, f->ops), fig_ns(fig_ratio(f->lock_hold, f->acquires)),
	       fig_pct(fig_ratio(f->lock_hold, (double)f->m->wall_ns * nlocks)));
}

static bool rule_cache(const struct facts *f, struct finding *o)
{
	double share = lock_share(f);
	int nlocks = f->m->res->nlocks > 0 ? f->m->res->nlocks : 1;

	if (!f->tot->has_cache || share < EXPLAIN_MIN_SHARE)
		return false;
	found(o, "cache_lock_contention", share, conf_lock(f), COV_LOCK);
	if (nlocks == 1)
		set_title(o, "%s of thread time waiting for the cache lock: one lock for %u "
			  "threads, taken by every lookup", fig_pct(share), f->threads);
	else
		set_title(o, "%s of thread time waiting for the cache's %d locks, %u threads "
			  "taking one on every lookup", fig_pct(share), nlocks, f->threads);
	ev_cache(&o->c, f, nlocks);
	ev_lock_wait(&o->c, f, nlocks > 1 ? "the cache's locks" : "the cache lock");
	ev_handoff(&o->c, f);
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

/* ---- any other lock the workload named ---------------------------------- */

static bool rule_user_lock(const struct facts *f, struct finding *o)
{
	double share = lock_share(f);

	if (f->other || f->tot->has_pool || f->tot->has_cache || share < EXPLAIN_MIN_SHARE)
		return false;
	found(o, "user_lock_contention", share, conf_lock(f), COV_LOCK);
	set_title(o, "%s of thread time waiting for the workload's own lock", fig_pct(share));
	ev_lock_wait(&o->c, f, "it");
	evidence_add(&o->c, "It was taken %s times and held %s each on average, %s of the run.",
	       fig_cnt(f->acquires), fig_ns(fig_ratio(f->lock_hold, f->acquires)),
	       fig_pct(fig_ratio(f->lock_hold, (double)f->m->wall_ns)));
	set_fix(o, "Hold the lock for less than %s at a time, or split it so threads working on "
		"different data take different locks.", fig_ns(fig_ratio(f->lock_hold, f->acquires)));
	return true;
}

/* ---- another program's locks and events ----------------------------------- */

/* The user futex words with the most wait, of one kind (locks or
 * events), largest first; returns how many went into top[]. */
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
			    (!best || l->wait_ns > best->wait_ns))
				best = l;
		}
		if (!best)
			break;
		top[n++] = best;
	}
	return n;
}

/* "session_table_lock (mutex): 412 k waits by 8 threads, 11.3 s (61 %),
 * 27.4 µs each, longest 2.1 ms; 1.2 s of it runnable after the wake." */
static void ev_word(struct diag_cause *c, const struct facts *f, const struct lock_total *l)
{
	evidence_add(c, "%s: %s waits by %u thread%s, %s in total (%s of thread time), %s each on "
	       "average, longest %s.", l->name, fig_cnt((double)l->waits), l->threads,
	       fig_plural(l->threads), fig_ns((double)l->wait_ns),
	       fig_pct(fig_ratio((double)l->wait_ns, f->wall)),
	       fig_ns(fig_ratio((double)l->wait_ns, (double)l->waits)), fig_ns((double)l->max_ns));
	if (l->runq_ns * 20 >= l->wait_ns)
		evidence_add(c, "Of those waits, %s (%s) passed runnable after the wake-up, waiting for a "
		       "CPU: hand-off, %u threads on %u CPUs.", fig_ns((double)l->runq_ns),
		       fig_pct(fig_ratio((double)l->runq_ns, (double)l->wait_ns)), f->threads, f->ncpus);
	if (l->turns)
		evidence_add(c, "%s of its %s wake-ups came from threads that wait on it too: they pass "
		       "it among themselves, a lock built from a condition variable (as "
		       "CPython's GIL is), not a wait for work.",
		       fig_pct(fig_ratio((double)l->wakes_by_waiters, (double)l->wakes)),
		       fig_cnt((double)l->wakes));
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

/* A lock nobody measured the holders of: say why, and the generic fix. */
static void unmeasured(struct finding *o, const struct facts *f, const struct lock_total *l)
{
	evidence_add(&o->c, "How long a holder keeps it was not measured: %s.",
		     !strncmp(l->name, "monitor ", 8) ? "the holders probes read glibc's mutex "
		     "owner, and a Java monitor's owner is HotSpot's own (not measured yet)" :
		     l->holders.measured ? "its word was watched from its first wait, but its "
		     "holder's state began before that (asleep or in a syscall since before anyone "
		     "waited) and a state is charged from its start" :
		     f->m->groups & PG_MASK(PG_HOLDERS) ? "its futex word has no glibc mutex "
		     "owner naming one of the traced threads (not a pthread mutex, or the holders "
		     "probes watched other words)" : "the holders probes did not run");
	set_fix(o, "Hold %s for less time, or split it so that threads working on different "
		"data take different locks.", l->name);
}

static bool rule_other_lock(const struct facts *f, struct finding *o)
{
	const struct lock_total *top[3] = { 0 }, *held;
	struct held_ctx x = held_ctx_of(f);
	char tail[300] = "";
	double share = f->sched ? kshare(f, ACCT_LOCK_NAMED) : 0;
	int n;

	if (!f->other || !f->sc || share < EXPLAIN_MIN_SHARE)
		return false;
	n = top_words(f->m, true, top, 3);
	if (!n)
		return false;
	found(o, "user_lock_contention", share, 0.85, COV_LOCK);
	held = measured_of(top, n);
	if (held == top[0])
		held_title_tail(tail, sizeof(tail), held);
	set_title(o, "%s of thread time waiting for %s%s%s", fig_pct(share), top[0]->name,
		  n > 1 && top[1]->wait_ns * 10 >= top[0]->wait_ns ? " and other locks" : "", tail);
	/* the locks that matter; with a measured one, room for its chain */
	for (int i = 0; i < n; i++)
		if ((i == 0 || top[i]->wait_ns * 10 >= top[0]->wait_ns) &&
		    (!held || i == 0 || top[i] == held))
			ev_word(&o->c, f, top[i]);
	if (!held) {
		unmeasured(o, f, top[0]);
		return true;
	}
	held_evidence(&o->c, held, &x);
	ev_lock_whatif(&o->c, f, held);
	held_fix(o->fix, sizeof(o->fix), held);
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

static bool rule_event_wait(const struct facts *f, struct finding *o)
{
	const struct lock_total *top[3] = { 0 };
	const struct thread_row *b = busiest(f->m);
	double share = fig_ratio((double)f->m->event_wait_ns, f->wall);
	int n;

	if (!f->other || !f->sc || share < EXPLAIN_MIN_SHARE)
		return false;
	n = top_words(f->m, false, top, 3);
	if (!n)
		return false;
	found(o, "event_wait", share, 0.8, COV_EVENT);
	set_title(o, "%s of thread time idle, waiting to be signalled (%s): not a lock",
		  fig_pct(share), top[0]->name);
	for (int i = 0; i < n && i < 3; i++)
		if (i == 0 || top[i]->wait_ns * 10 >= top[0]->wait_ns)
			ev_word(&o->c, f, top[i]);
	evidence_add(&o->c, "A thread asleep on a condition variable, semaphore, barrier or join has "
	       "nothing to do until another thread signals it; the work it waits for is done "
	       "elsewhere.");
	if (b)
		set_fix(o, "The waiting threads idle until signalled: speed up the work they wait "
			"for; the busiest thread, %d (%s), was on CPU %s of its window.", (int)b->user.tid,
			b->k.comm[0] ? b->k.comm : "?", fig_pct(fig_ratio((double)(b->acct_ns[ACCT_CPU_USER] +
			b->acct_ns[ACCT_CPU_SYS]), (double)(b->user.end_ns - b->user.start_ns))));
	return true;
}

/* A JVM's safepoints (GC pauses among them) stop every Java thread: the
 * application's threads lose that time whatever they were doing. */
static bool rule_gc(const struct facts *f, struct finding *o)
{
	const struct joined_run *m = f->m;
	double lost = (double)m->safepoint_ns * f->threads, share = fig_ratio(lost, f->wall);

	if (!m->jvm || share < EXPLAIN_MIN_SHARE)
		return false;
	found(o, "jvm_safepoints", share, 0.8, 0);
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
static bool rule_stopped(const struct facts *f, struct finding *o)
{
	double stopped = 0;

	for (unsigned i = 0; i < f->m->nrows; i++)
		if (!f->m->rows[i].aside)
			stopped += (double)f->m->rows[i].k.stopped_ns;
	if (!f->sched || fig_ratio(stopped, f->wall) < EXPLAIN_MIN_SHARE)
		return false;
	found(o, "stopped", fig_ratio(stopped, f->wall), 0.9, 0);
	o->machine = true;
	set_title(o, "%s of thread time stopped (SIGSTOP or a debugger), not running or waiting",
		  fig_pct(fig_ratio(stopped, f->wall)));
	evidence_add(&o->c, "The threads were stopped for %s in total; that time is not the code's.",
	       fig_ns(stopped));
	set_fix(o, "Measure again without stopping the process.");
	return true;
}

/* ---- page-cache misses ------------------------------------------------- */

static void ev_cache_state(struct diag_cause *c, const struct facts *f)
{
	const struct wl_result *res = f->m->res;

	if (f->cfg->cache == WL_CACHE_COLD)
		evidence_add(c, "The files were evicted from the page cache before the run (%s pages "
		       "still resident after eviction).", fig_cnt((double)res->cold_pages_resident));
	if (f->cfg->pressure > 0)
		evidence_add(c, "An evictor dropped %s pages during the run (asked for %.0f pages/s).",
		       fig_cnt((double)res->pressure_pages_dropped), f->cfg->pressure);
}

static void fix_pagecache(struct finding *o)
{
	set_fix(o, "Keep the files in the page cache: run warm or with less memory pressure; "
		"under pressure a user-level block cache (bcache) keeps the blocks the page "
		"cache drops.");
}

static void ev_pc_kernel(struct diag_cause *c, const struct facts *f)
{
	const struct fct_sc_stats *pr = &f->m->sc_total[FCT_SC_PREAD64];
	double miss = (double)f->m->pagecache_misses;

	if (f->sc && f->pages_asked >= miss && miss > 0)
		evidence_add(c, "Reads asked the page cache for %s pages and %s were not there "
		       "(%s misses): those reads waited for the disk.", fig_cnt(f->pages_asked),
		       fig_cnt(miss), fig_pct(fig_ratio(miss, f->pages_asked)));
	else if (f->sc && f->pages_asked > 0)	/* readahead, or reads other than pread64 */
		evidence_add(c, "pread64 asked the page cache for %s pages; %s pages were read from disk "
		       "into it, more than asked: readahead, or reads by other calls.",
		       fig_cnt(f->pages_asked), fig_cnt(miss));
	else
		evidence_add(c, "%s pages were added to the page cache during the run: reads that "
		       "missed it and went to the disk.", fig_cnt(miss));
	evidence_add(c, "The threads slept %s outside any lock (%s of their wall time), %s per page "
	       "read from disk.", fig_ns((double)f->m->acct_total_ns[ACCT_BLOCKED]),
	       fig_pct(kshare(f, ACCT_BLOCKED)),
	       fig_ns(fig_ratio((double)f->m->acct_total_ns[ACCT_BLOCKED], miss)));
	if (f->sc && pr->count)
		evidence_add(c, "pread64 took %s on average over %s calls, against %s for the fastest "
		       "(a page-cache hit).", fig_ns(fig_ratio((double)pr->total_ns, (double)pr->count)),
		       fig_cnt((double)pr->count), fig_ns((double)pr->min_ns));
}

/* The sleep disk reads cause: uninterruptible (a page being read is
 * waited for in D state), where the scheduler said which sleep it was. */
static double pc_blocked_share(const struct facts *f)
{
	if (f->blocked_io > 0 || f->other)
		return fig_ratio(f->blocked_io, f->wall);
	return kshare(f, ACCT_BLOCKED);
}

/* Without the kernel view: only the settings and the read clocks. */
static bool rule_pagecache_timing(const struct facts *f, struct finding *o)
{
	double read = f->read + f->miss_read, share = fig_ratio(read, f->wall);

	if ((f->cfg->cache != WL_CACHE_COLD && f->cfg->pressure <= 0) ||
	    share < EXPLAIN_MIN_SHARE)
		return false;
	found(o, "page_cache_misses", share, 0.3, COV_PC | COV_BLOCKED);
	set_title(o, "%s of thread time in reads with the page cache %s (timing only)",
		  fig_pct(share), f->cfg->cache == WL_CACHE_COLD ? "cold" : "under pressure");
	evidence_add(&o->c, "The threads spent %s reading, %s per op, by their own clocks.",
	       fig_ns(read), fig_ns(fig_ratio(read, f->ops)));
	ev_cache_state(&o->c, f);
	evidence_add(&o->c, "Without the kernel view disk waits are not told apart from copies: "
	       "confidence %.0f %%, from the settings and the read time.", 30.0);
	fix_pagecache(o);
	return true;
}

static bool rule_pagecache(const struct facts *f, struct finding *o)
{
	double share;

	if (!f->kernel)
		return rule_pagecache_timing(f, o);
	if (!f->sched || !f->pc || !f->m->pagecache_misses)
		return false;
	share = pc_blocked_share(f);
	if (share < EXPLAIN_MIN_SHARE)
		return false;
	found(o, "page_cache_misses", share, f->sc ? 0.85 : 0.7, COV_PC | COV_BLOCKED);
	set_title(o, "%s of thread time asleep outside locks while %s pages were read from "
		  "disk", fig_pct(share), fig_cnt((double)f->m->pagecache_misses));
	ev_pc_kernel(&o->c, f);
	ev_cache_state(&o->c, f);
	fix_pagecache(o);
	return true;
}

/* ---- asleep for some other reason -------------------------------------- */

/* "Most of that sleep was inside clock_nanosleep (300 ms, 3 calls)." */
static void ev_slept_in(struct diag_cause *c, const struct facts *f)
{
	const struct fct_nr_stats *nr = f->m->nr_total;
	char buf[24];
	int best = -1;

	for (int n = 0; n < FCT_NR_MAX; n++)
		if (nr[n].blocked_ns && (best < 0 || nr[n].blocked_ns > nr[best].blocked_ns))
			best = n;
	if (best >= 0)
		evidence_add(c, "Most of it was inside %s: %s over %s calls.",
		       syscall_name((unsigned)best, buf, sizeof(buf)),
		       fig_ns((double)nr[best].blocked_ns), fig_cnt((double)nr[best].count));
}

/* Asleep outside futex waits and not explained by disk reads or a stop. */
static double blocked_other_ns(const struct facts *f)
{
	double b = (double)f->m->acct_total_ns[ACCT_BLOCKED] - f->stopped;

	if (f->pc && f->m->pagecache_misses && (f->blocked_io > 0 || f->other))
		b -= f->blocked_io;
	else if (f->pc && f->m->pagecache_misses)
		b = 0;		/* no split: the page-cache rule has it all */
	return b > 0 ? b : 0;
}

static bool rule_blocked_other(const struct facts *f, struct finding *o)
{
	double b = f->sched ? blocked_other_ns(f) : 0, share = fig_ratio(b, f->wall);
	double io = f->pc && f->m->pagecache_misses ? 0 : f->blocked_io;

	if (!f->sched || share < EXPLAIN_MIN_SHARE)
		return false;
	found(o, "blocked_other", share, f->pc ? 0.6 : 0.4, COV_BLOCKED);
	set_title(o, "%s of thread time asleep outside locks, not on page-cache misses",
		  fig_pct(share));
	evidence_add(&o->c, "The threads slept %s outside futex waits (%s of their wall time) over "
	       "%s voluntary switches: %s interruptibly (timers, poll, pipes, sockets: waiting "
	       "for input or time), %s uninterruptibly (disk, kernel locks).", fig_ns(b), fig_pct(share),
	       fig_cnt(f->vol), fig_ns(b - io > 0 ? b - io : 0), fig_ns(io));
	ev_slept_in(&o->c, f);
	if (f->pc)
		evidence_add(&o->c, "The page cache took in %s pages during the run, %s.",
		       fig_cnt((double)f->m->pagecache_misses), f->m->pagecache_misses ?
		       "whose disk reads are counted apart" : "so this is not reading files from disk");
	else
		evidence_add(&o->c, "Page-cache probes were off (%u probe groups ran): disk reads "
		       "cannot be ruled out.", (unsigned)__builtin_popcount(f->m->groups));
	if (f->other)
		set_fix(o, "An interruptible sleep is a thread waiting for input, a timer or "
			"another process: the syscall table shows which calls it slept in.");
	else
		set_fix(o, "Find what the threads sleep on: the kernel lock table, or an off-CPU "
			"profile (offcputime), names it.");
	return true;
}

/* ---- waiting for a CPU --------------------------------------------------- */

static void ev_oncpu(struct diag_cause *c, const struct facts *f)
{
	evidence_add(c, "On CPU %s of thread time: %s in user space, %s in syscalls.",
	       fig_pct(kshare(f, ACCT_CPU_USER) + kshare(f, ACCT_CPU_SYS)),
	       fig_pct(kshare(f, ACCT_CPU_USER)), fig_pct(kshare(f, ACCT_CPU_SYS)));
}

/* What the machine's CPUs did, as shares of their capacity over the
 * interval the figures were measured over, never above 1. */
struct machine_shares {
	double others, tracer, idle, steal;
	const char *how;
};

/* From the cpu-clock samples: they cover fctrace's whole window (the
 * tracer's start to its stop, symbolisation included), not the
 * program's, so they are shares of that window's samples. Samples on
 * fctrace's own process are its work, not other processes'. */
static bool sampled_shares(const struct kview *kv, struct machine_shares *ms)
{
	double period = 1e9 / FCT_CPUCLOCK_HZ, own = 0, cap;

	if (!kv->machine_sampled || kv->machine.other + kv->machine.idle + kv->machine.tracer == 0)
		return false;
	for (int i = 0; i < kv->nthreads; i++)
		own += (double)(kv->threads[i].cpu_samples_user + kv->threads[i].cpu_samples_sys +
				kv->threads[i].cpu_samples_futex);
	cap = own + (double)(kv->machine.other + kv->machine.idle + kv->machine.tracer);
	if (kv->machine_ns && kv->machine_cpus)	/* what the sampler could have seen */
		cap = fmax(cap, (double)kv->machine_ns * kv->machine_cpus / period);
	ms->others = (double)kv->machine.other / cap;
	ms->tracer = (double)kv->machine.tracer / cap;
	ms->idle = (double)kv->machine.idle / cap;
	ms->how = "cpu-clock samples over fctrace's window";
	return true;
}

/* From /proc/stat over the same window: busy ticks less own, the traced
 * threads' exact on-CPU time (ticks lose time under heavy switching). */
static bool ticked_shares(const struct kview *kv, double own, struct machine_shares *ms)
{
	double cap = (double)(kv->cpu.busy_ns + kv->cpu.idle_ns + kv->cpu.steal_ns);

	if (!kv->cpu.valid || cap <= 0)
		return false;
	ms->others = (double)kv->cpu.busy_ns > own ? ((double)kv->cpu.busy_ns - own) / cap : 0;
	ms->idle = (double)kv->cpu.idle_ns / cap;
	ms->how = "the kernel's /proc/stat over fctrace's window";
	return true;
}

/* The machine's shares by the sampler, else by /proc/stat (own: the
 * traced threads' exact on-CPU time); false when neither ran. */
static bool machine_time(const struct facts *f, double own, struct machine_shares *ms)
{
	const struct kview *kv = f->m->kv;
	double cap;

	memset(ms, 0, sizeof(*ms));
	if (!kv)
		return false;
	cap = (double)(kv->cpu.busy_ns + kv->cpu.idle_ns + kv->cpu.steal_ns);
	ms->steal = kv->cpu.valid && cap > 0 ? (double)kv->cpu.steal_ns / cap : 0;
	return sampled_shares(kv, ms) || ticked_shares(kv, own, ms);
}

/* The share of the CPUs other work and the hypervisor took (-1 if
 * unknown), and the evidence sentence when c is given: shares of the
 * window the figures cover, in time scaled to the program's window. */
static double others_share(const struct facts *f, struct diag_cause *c)
{
	double own = 0, cap = (double)f->m->wall_ns * f->ncpus, taken;
	struct machine_shares ms;

	for (unsigned i = 0; i < f->m->nrows; i++)
		if (f->m->rows[i].has_kernel)
			own += (double)f->m->rows[i].k.oncpu_ns;
	if (cap <= 0 || !machine_time(f, own, &ms))
		return -1;
	taken = fmin(1, ms.others + ms.steal);
	if (c)
		evidence_add(c, "Over the run the %u CPUs gave this program's threads %s; other threads "
		       "and processes took %s of them (%s), fctrace itself %s, the hypervisor %s "
		       "(steal), and were idle %s (%s).", f->ncpus, fig_ns(own), fig_pct(ms.others),
		       fig_ns(ms.others * cap), fig_pct(ms.tracer), fig_pct(ms.steal), fig_pct(ms.idle), ms.how);
	if (c && ms.idle >= EXPLAIN_CPU_TAKEN)	/* a queue beside idle CPUs */
		evidence_add(c, "The CPUs were idle %s of the time all the same: the threads queued in "
		       "bursts, woken together or behind the thread that woke them, not for want "
		       "of CPUs all along.", fig_pct(ms.idle));
	return taken;
}

/* The hypervisor's share of the CPUs over fctrace's window. */
static double steal_share(const struct facts *f)
{
	struct machine_shares ms;

	return machine_time(f, 0, &ms) ? ms.steal : 0;
}

static bool rule_runq(const struct facts *f, struct finding *o)
{
	double share = f->sched ? kshare(f, ACCT_RUNQ) : 0, q, taken;
	bool over = f->threads > f->ncpus;

	if (!f->sched || share < EXPLAIN_MIN_SHARE)
		return false;
	q = (double)f->m->acct_total_ns[ACCT_RUNQ];
	/* a quarter of the CPUs gone elsewhere: the queue is not the program's */
	taken = others_share(f, NULL);
	over = over && taken < EXPLAIN_CPU_TAKEN;
	found(o, over ? "cpu_oversubscription" : "cpu_competition", share, over ? 0.9 : 0.6,
	      COV_RUNQ);
	o->machine = true;
	if (over || taken < 0)
		set_title(o, "%s of thread time runnable but not running: %u threads on %u CPUs%s",
			  fig_pct(share), f->threads, f->ncpus, over ? "" : ", other processes took them");
	else
		set_title(o, "%s of thread time runnable but not running: other processes%s took "
			  "%s of the %u CPUs", fig_pct(share),
			  steal_share(f) > 0.01 ?
			  " and the hypervisor" : "", fig_pct(taken), f->ncpus);
	if (over)
		evidence_add(&o->c, "%u threads on %u CPUs: at most %u run at once, so the others wait "
		       "in the run queue, %s in total (%s of thread time).", f->threads, f->ncpus,
		       f->ncpus, fig_ns(q), fig_pct(share));
	else if (f->threads > f->ncpus)
		evidence_add(&o->c, "%u threads on %u CPUs: at most %u run at once; they waited %s in "
		       "the run queue (%s of thread time), with the CPUs shared with other work.",
		       f->threads, f->ncpus, f->ncpus, fig_ns(q), fig_pct(share));
	else
		evidence_add(&o->c, "%u threads on %u CPUs could all run at once, yet they waited %s in "
		       "the run queue (%s of thread time).", f->threads, f->ncpus, fig_ns(q), fig_pct(share));
	evidence_add(&o->c, "%s involuntary switches (preempted) against %s voluntary ones (slept).",
	       fig_cnt(f->invol), fig_cnt(f->vol));
	ev_oncpu(&o->c, f);
	others_share(f, &o->c);
	if (over)
		set_fix(o, "Run at most %u threads, one per CPU, or give the machine more CPUs: "
			"this queue is the machine's, not the code's.", f->ncpus);
	else
		set_fix(o, "Run on a quieter machine, or pin the threads: the %u CPUs were busy "
			"with other work.", f->ncpus);
	return true;
}

/* ---- kernel locks -------------------------------------------------------- */

static double klock_wait_ns(const struct joined_run *m)
{
	double sum = 0;

	for (int i = 0; i < m->nlocks; i++)
		if (m->locks[i].kernel)
			sum += (double)m->locks[i].wait_ns;
	return sum;
}

/* The three kernel locks with the most wait, largest first. */
static void ev_klocks(struct diag_cause *c, const struct facts *f)
{
	const struct joined_run *m = f->m;
	bool used[1024] = { false };

	for (int k = 0; k < 3; k++) {
		int best = -1;

		for (int i = 0; i < m->nlocks && i < 1024; i++)
			if (m->locks[i].kernel && !used[i] &&
			    (best < 0 || m->locks[i].wait_ns > m->locks[best].wait_ns))
				best = i;
		if (best < 0)
			return;
		used[best] = true;
		evidence_add(c, "%s: %s waits, %s in total (%s of thread time), longest %s, %u thread%s.",
		       m->locks[best].name, fig_cnt((double)m->locks[best].waits),
		       fig_ns((double)m->locks[best].wait_ns),
		       fig_pct(fig_ratio((double)m->locks[best].wait_ns, f->kwall)),
		       fig_ns((double)m->locks[best].max_ns), m->locks[best].threads,
		       fig_plural(m->locks[best].threads));
	}
}

static bool rule_klock(const struct facts *f, struct finding *o)
{
	int n;
	const struct lock_total *top = top_lock(f->m, true, &n);
	double share = f->klock ? fig_ratio(klock_wait_ns(f->m), f->kwall) : 0;

	if (!top || share < EXPLAIN_MIN_SHARE)
		return false;
	found(o, "kernel_lock_contention", share, 0.8, COV_KLOCK);
	set_title(o, "%s of thread time waiting on kernel locks (%d sites), most on %s",
		  fig_pct(share), n, top->name);
	ev_klocks(&o->c, f);
	evidence_add(&o->c, "These waits spin on CPU or sleep, so they sit inside the syscall time "
	       "(%s) and the blocked time (%s), not on top of them.",
	       fig_pct(kshare(f, ACCT_CPU_SYS)), fig_pct(kshare(f, ACCT_BLOCKED)));
	set_fix(o, "Make fewer of the calls that take %s, or make them on different objects "
		"(the syscall table shows which calls the threads made).", top->name);
	return true;
}

/* ---- healthy ------------------------------------------------------------- */

static void healthy_kernel(const struct facts *f, struct finding *o)
{
	double on = kshare(f, ACCT_CPU_USER) + kshare(f, ACCT_CPU_SYS);

	found(o, "healthy", on, 0.8, 0);
	set_title(o, "No bottleneck beyond the CPU: %s of thread time on CPU", fig_pct(on));
	ev_oncpu(&o->c, f);
	evidence_add(&o->c, "Lock waits %s, asleep %s, waiting for a CPU %s: each below the %s that "
	       "would make it a cause.", fig_pct_small(lock_share(f)),
	       fig_pct_small(kshare(f, ACCT_BLOCKED)), fig_pct_small(kshare(f, ACCT_RUNQ)),
	       fig_pct(EXPLAIN_MIN_SHARE));
}

static void healthy_timing(const struct facts *f, struct finding *o)
{
	double lw = fig_ratio(f->lock_wait, f->wall);

	found(o, "healthy", 1 - lw, 0.4, 0);
	set_title(o, "No bottleneck seen by the threads' own clocks: lock waits %s of thread "
		  "time", fig_pct_small(lw));
	evidence_add(&o->c, "Lock waits took %s of the threads' %s by their own clocks, below the %s "
	       "that would make them a cause.", fig_pct_small(lw), fig_ns(f->wall),
	       fig_pct(EXPLAIN_MIN_SHARE));
	evidence_add(&o->c, "Reads took %s of thread time, %s per op.",
	       fig_pct(fig_ratio(f->read + f->miss_read, f->wall)),
	       fig_ns(fig_ratio(f->read + f->miss_read, f->ops)));
	if (f->threads > f->ncpus)
		evidence_add(&o->c, "%u threads share %u CPUs, so part of their time went to waiting for "
		       "one: only the kernel view measures it.", f->threads, f->ncpus);
	evidence_add(&o->c, "Without the kernel view on-CPU time, the page cache and the run queue "
	       "were not measured: confidence %.0f %%.", 40.0);
}

static void healthy(const struct facts *f, struct finding *o)
{
	if (f->sched)
		healthy_kernel(f, o);
	else
		healthy_timing(f, o);
	if (f->other)
		set_fix(o, "Nothing measured holds it back beyond the CPU: to go faster, make it "
			"do less work%s.", f->threads < f->ncpus ? ", or spread it over more threads"
			: "");
	else if (f->threads < f->ncpus)
		set_fix(o, "Nothing in the code holds it back at these settings: to go faster, run "
			"up to %u threads, one per CPU, or do less work per op.", f->ncpus);
	else
		set_fix(o, "Nothing in the code holds it back at these settings: to go faster, give "
			"it more than %u CPU%s or do less work per op.", f->ncpus, fig_plural(f->ncpus));
}

/* ---- ranking, "not the problem", headline --------------------------------- */

typedef bool (*rule_fn)(const struct facts *f, struct finding *o);

static const rule_fn rules[] = {
	rule_pool, rule_cache, rule_user_lock, rule_other_lock, rule_event_wait,
	rule_pagecache, rule_blocked_other, rule_runq, rule_klock, rule_stopped, rule_gc,
};
#define NRULES (sizeof(rules) / sizeof(rules[0]))

/* Insert keeping the largest share first; equal shares keep rule order. */
static void insert_ranked(struct finding *list, int *n, const struct finding *x)
{
	int i = *n;

	while (i > 0 && list[i - 1].c.share < x->c.share) {
		list[i] = list[i - 1];
		i--;
	}
	list[i] = *x;
	++*n;
}

static void append(char *buf, size_t n, const char *fmt, ...) PRINTF(3, 4);
static void append(char *buf, size_t n, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;

	if (len + 1 >= n)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + len, n - len, fmt, ap);
	va_end(ap);
}

/* A comma-separated list of items, appended to a line. */
struct items {
	char *buf;
	size_t n;
	int count;
};

static void item(struct items *l, const char *fmt, ...) PRINTF(2, 3);
static void item(struct items *l, const char *fmt, ...)
{
	size_t len;
	va_list ap;

	if (l->count++)
		append(l->buf, l->n, ", ");
	len = strlen(l->buf);
	if (len + 1 >= l->n)
		return;
	va_start(ap, fmt);
	vsnprintf(l->buf + len, l->n - len, fmt, ap);
	va_end(ap);
}

static void beyond_pc(const struct facts *f, struct items *l)
{
	double miss = (double)f->m->pagecache_misses;

	if (f->sc && f->pages_asked > 0 && miss == 0)
		item(l, "page cache 100 %% hits (no I/O)");
	else if (f->sc && f->pages_asked > miss)
		item(l, "page cache %s hits (%s page%s from disk)",
		     fig_pct(1 - fig_ratio(miss, f->pages_asked)), fig_cnt(miss), fig_plural(miss));
	else
		item(l, "%s page%s read from disk", fig_cnt(miss), fig_plural(miss));
}

#define UNMEASURED "the page cache, kernel locks, the run queue"

/* What was measured and is not a cause, then what the machine adds. */
static void beyond(const struct facts *f, unsigned covered, char *buf, size_t n)
{
	struct items l = { buf, n, 0 };

	snprintf(buf, n, "Not the problem: ");
	if ((f->m->res->nlocks > 0 || f->other) && !(covered & COV_LOCK))
		item(&l, "lock waits %s", fig_pct_small(lock_share(f)));
	if (f->pc && !(covered & COV_PC))
		beyond_pc(f, &l);
	if (f->sched && !(covered & (COV_BLOCKED | COV_PC)))
		item(&l, "asleep outside locks %s", fig_pct_small(kshare(f, ACCT_BLOCKED)));
	if (f->klock && !(covered & COV_KLOCK))
		item(&l, "kernel locks %s", fig_pct_small(fig_ratio(klock_wait_ns(f->m), f->kwall)));
	if (f->sched && !(covered & COV_RUNQ))
		item(&l, "run queue %s", fig_pct_small(kshare(f, ACCT_RUNQ)));
	if (!f->kernel && !l.count)
		snprintf(buf, n, "Not measured without the kernel view: %s", UNMEASURED);
	else if (!f->kernel)
		append(buf, n, "; not measured without the kernel view: %s", UNMEASURED);
	else if (!l.count)
		snprintf(buf, n, "Nothing else measured reaches %s of thread time",
			 fig_pct(EXPLAIN_MIN_SHARE));
	append(buf, n, ". The machine: %u CPU%s for %u thread%s", f->ncpus, fig_plural(f->ncpus),
	       f->threads, fig_plural(f->threads));
	if (f->threads > f->ncpus)
		append(buf, n, ", so at most %u run at once", f->ncpus);
	append(buf, n, ".");
}

/* "Why fcp takes 2.31 s here (100 files, pool 50, 8 threads, 2 CPUs)" */
static void headline(const struct facts *f, char *buf, size_t n)
{
	char what[96] = "", b[24];

	if (f->other && f->m->jvm) {
		snprintf(buf, n, "Why %s took %s here (a JVM: %u application thread%s, %u of "
			 "its own; %u CPU%s)", f->cfg->workload ? f->cfg->workload : "the program",
			 fig_ns((double)f->m->wall_ns), f->threads, fig_plural(f->threads),
			 f->m->aside_rows, f->ncpus, fig_plural(f->ncpus));
		return;
	}
	if (f->other) {
		snprintf(buf, n, "Why %s took %s here (%u thread%s, %u CPU%s%s)",
			 f->cfg->workload ? f->cfg->workload : "the program",
			 fig_ns((double)f->m->wall_ns), f->threads, fig_plural(f->threads), f->ncpus,
			 fig_plural(f->ncpus), f->kernel ? "" : "; timing only");
		return;
	}

	if (f->cfg->shared_file)
		snprintf(what, sizeof(what), "one shared file");
	else
		snprintf(what, sizeof(what), "%u files", f->cfg->files);
	if (f->tot->has_pool)
		append(what, sizeof(what), ", pool %u", f->cfg->pool);
	if (f->tot->has_cache)
		append(what, sizeof(what), ", cache %s", units_bytes(b, sizeof(b),
						(double)f->cfg->cache_size));
	if (f->cfg->cache == WL_CACHE_COLD)
		append(what, sizeof(what), ", cold cache");
	if (f->cfg->pressure > 0)
		append(what, sizeof(what), ", cache pressure");
	snprintf(buf, n, "Why %s takes %s here (%s, %u thread%s, %u CPU%s%s)",
		 f->cfg->workload ? f->cfg->workload : "the workload", fig_ns((double)f->m->wall_ns),
		 what, f->threads, fig_plural(f->threads), f->ncpus, fig_plural(f->ncpus),
		 f->kernel ? "" : "; timing only");
}

/* A cause built on a figure a loss touched says so, first, and its
 * confidence is scaled by the share of what that loss counts that was
 * kept, and by 0.75 at least: a figure known to be short is less sure. */
static void own_losses(const struct losses *ls, struct diag_cause *c)
{
	char keep[EXPLAIN_MAX_EVIDENCE][sizeof(c->evidence[0])];
	int nkeep = c->nevidence;

	memcpy(keep, c->evidence, sizeof(keep));
	c->nevidence = 0;
	for (int i = 0; i < ls->n; i++) {
		const struct loss *l = &ls->l[i];

		if (!loss_touches_cause(l, c->cause))
			continue;
		evidence_add(c, "Lost: %s; these figures may be off by what was lost.", l->says);
		c->confidence *= fmin(l->kept, 0.75);
	}
	for (int i = 0; i < nkeep; i++)
		evidence_add(c, "%s", keep[i]);
}

/* A headline over threads the tables did not hold says so. */
static void headline_losses(const struct facts *f, char *buf, size_t n)
{
	const struct losses *ls = &f->m->losses;

	for (int i = 0; i < ls->n; i++)
		if (!strcmp(ls->l[i].id, "slot_full"))
			append(buf, n, "; %s more thread%s not accounted", fig_cnt((double)ls->l[i].count),
			       fig_plural((double)ls->l[i].count));
		else if (!strcmp(ls->l[i].id, "tgids_full"))
			append(buf, n, "; %s process%s not followed", fig_cnt((double)ls->l[i].count),
			       ls->l[i].count == 1 ? "" : "es");
}

/* The fix comes from the largest cause in the code; the machine's (too few
 * cores) only when nothing else was found. */
static int code_cause(const struct finding *list, int n)
{
	for (int i = 0; i < n; i++)
		if (!list[i].machine)
			return i;
	return 0;
}

int explain_run(const struct joined_run *m, struct diagnosis *d)
{
	struct finding list[NRULES + 1], x;
	struct facts f;
	unsigned covered = 0;
	int n = 0;

	memset(d, 0, sizeof(*d));
	/* the what-if models are part of the explanation, fitted here once */
	d->has_whatif = m && whatif_from_model(m, &d->whatif) == 0;
	if (m)
		explain_lock_whatifs(m, d);
	/* a program fctrace did not write has no ops of its own */
	if (!m || !m->res || !m->nrows || (!m->ops && !m->names))
		return -1;	/* interrupted at 0 ops: nothing to explain, not "healthy" */
	facts_init(&f, m);
	if (f.wall <= 0)
		return -1;
	for (size_t i = 0; i < NRULES; i++)
		if (rules[i](&f, &x))
			insert_ranked(list, &n, &x);
	if (!n)
		healthy(&f, &list[n++]);
	for (int i = 0; i < n && i < EXPLAIN_MAX_CAUSES; i++) {
		own_losses(&m->losses, &list[i].c);
		d->causes[d->n++] = list[i].c;
		covered |= list[i].covers;
	}
	snprintf(d->fix, sizeof(d->fix), "%s", list[code_cause(list, n)].fix);
	beyond(&f, covered, d->beyond, sizeof(d->beyond));
	headline(&f, d->headline, sizeof(d->headline));
	headline_losses(&f, d->headline, sizeof(d->headline));
	return d->n;
}
