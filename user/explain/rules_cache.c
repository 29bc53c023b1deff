/*
 * rules_cache.c - a program's own cache too small for its working set
 * (join/caches.h): the misses' calls ranked by the time they cost, the
 * hit ratio now against the curve, the size that reaches the ceiling and
 * the setting that gives it. Nothing here asks who made the figures but
 * the knob table (knobs.h), and the subject's own pool counters, when it
 * handed them in, as one more line of evidence.
 */
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include "explain/knobs.h"
#include "explain/rules_int.h"
#include "explain/words.h"

/* Misses past the first use of each file, worth a finding: the curve
 * must gain this much before the fix size. */
#define CACHE_MIN_GAIN	0.02
#define CACHE_MIN_MISSES	100	/* fewer: a program's start-up, not a cache */

/* The other entries of the same program (a server's worker processes,
 * each with a cache of its own): their count and their misses' time. */
static double same_program(const struct joined_run *m, const struct cache_entry *c,
			   int *procs)
{
	double ns = 0;

	*procs = 0;
	for (int i = 0; i < m->ncaches; i++)
		if (m->caches[i].kind == c->kind && !strcmp(m->caches[i].comm, c->comm))
			ns += m->caches[i].miss_ns, ++*procs;
	return ns;
}

static bool miss_call(unsigned nr)
{
	return nr == SYS_openat || nr == SYS_open || nr == SYS_close || nr == SYS_newfstatat ||
	       nr == SYS_statx || nr == SYS_fstat;
}

/* The misses' share of what a lock's holders did in syscalls. */
static double miss_calls_share(const struct lock_holders *h)
{
	double miss = 0, all = 0;

	for (int j = 0; j < h->nnr; j++) {
		all += h->nr[j].ns;
		if (miss_call(h->nr[j].nr))
			miss += h->nr[j].ns;
	}
	return fig_ratio(miss, all);
}

/* The lock the misses' opens and closes were made under, if the holders
 * of one made them (holders.h), the most waited for. */
static const struct lock_total *lock_of_misses(const struct joined_run *m)
{
	const struct lock_total *best = NULL;

	for (int i = 0; i < m->nlocks; i++) {
		const struct lock_holders *h = &m->locks[i].holders;

		if (h->measured && miss_calls_share(h) >= 0.5 &&
		    (!best || m->locks[i].wait_ns > best->wait_ns))
			best = &m->locks[i];
	}
	return best;
}

/* The waiters' time while that lock's holder was in the misses' calls:
 * the misses cost it too. */
static double lock_cost_ns(const struct lock_total *l)
{
	return l ? l->holders.waited_ns[HS_SYSCALL] * miss_calls_share(&l->holders) : 0;
}

static void ev_stream(struct diag_cause *c, const struct cache_entry *e)
{
	evidence_add(c, "Process %d (%s) used %s files again and again (%s MB, %s); it opened them "
		     "%s times in %s uses, a hit ratio of %s, with at most %s of them open at once: "
		     "its handle cache holds %s.", (int)e->pid, e->comm, fig_cnt((double)e->ws_items),
		     fig_cnt((double)e->ws_bytes / 1e6), e->object, fig_cnt((double)e->misses),
		     fig_cnt((double)e->accesses), fig_pct(e->hit_ratio_now),
		     fig_cnt((double)e->size_items), fig_cnt((double)e->size_items));
}

static void ev_curve(struct diag_cause *c, const struct cache_entry *e)
{
	uint64_t half = e->fix_items / 2 ? e->fix_items / 2 : 1;

	evidence_add(c, "An LRU of descriptors on this run's own stream of uses (stack distances, "
		     "%s) hits %s at %s, %s at %s and %s at %s: %s misses instead of %s.",
		     e->sample_rate < 1 ? "keys sampled" : "exact", fig_pct(cache_hit_ratio_at(e, half)),
		     fig_cnt((double)half), fig_pct(cache_hit_ratio_at(e, e->size_items)),
		     fig_cnt((double)e->size_items), fig_pct(e->hit_ratio_fix),
		     fig_cnt((double)e->fix_items), fig_cnt((double)e->misses_at_fix),
		     fig_cnt((double)e->misses));
}

/* own: the misses' calls' time; waited: the waits on a lock they were
 * made under, while its holder made them (lock_cost_ns) */
static void ev_cost(struct diag_cause *c, const struct facts *f, const struct cache_entry *e,
		    double own, double waited, int procs)
{
	double kept = e->misses ? (double)e->misses_at_fix / (double)e->misses : 1;
	double saved = e->saved_ns + waited * (1 - kept);
	double wall = (double)f->m->wall_ns * (1 - fig_ratio(saved, f->wall));

	evidence_add(c, "Each miss opens and closes a file (and stats it, where the process stats as often as it opens), %s at this process's mean times: %s of "
		     "thread time%s%s%s; a cache of %s would save %s (%s of the threads' time): the "
		     "run would take ~%s instead of %s if the saving spreads over the threads.",
		     fig_ns(e->miss_each_ns), fig_ns(own), procs > 1 ? " over its processes" : "",
		     waited > 0 ? ", and the lock's waits while they ran " : "",
		     waited > 0 ? fig_ns(waited) : "", fig_cnt((double)e->fix_items), fig_ns(saved),
		     fig_pct(fig_ratio(saved, f->wall)), fig_ns(wall), fig_ns((double)f->m->wall_ns));
}

static void ev_lock(struct diag_cause *c, const struct lock_total *l)
{
	if (!l)
		return;
	evidence_add(c, "The misses' calls are made holding %s: its holders spent %s of the time "
		     "held in syscalls, %s of those in opens, stats and closes, and its waiters "
		     "waited %s for them, %s in all.", l->name,
		     fig_pct(held_share(&l->holders, HS_SYSCALL)),
		     fig_pct(miss_calls_share(&l->holders)), fig_ns(lock_cost_ns(l)),
		     fig_ns((double)l->wait_ns));
}

/* The subject's own counters of its pool, where it handed them in. */
static void ev_own(struct diag_cause *c, const struct facts *f, const struct cache_entry *e)
{
	if (!f->tot->has_pool || f->hits + f->misses <= 0)
		return;
	evidence_add(c, "The pool's own counters: hit ratio %s (the stream: %s), capacity %u (most "
		     "open at once in the stream: %s).", fig_pct(fig_ratio(f->hits, f->hits + f->misses)),
		     fig_pct(e->hit_ratio_now), f->cfg->pool, fig_cnt((double)e->size_items));
}

static void fix_cache(struct finding *o, const struct facts *f, const struct cache_entry *e)
{
	char knob[160];

	if (knob_for(e->comm, e->kind, e->fix_items, knob, sizeof(knob)))
		set_fix(o, "Set %s: its %s files then stay open (predicted hit ratio %s, %s misses "
			"instead of %s).", knob, fig_cnt((double)e->ws_items), fig_pct(e->hit_ratio_fix),
			fig_cnt((double)e->misses_at_fix), fig_cnt((double)e->misses));
	else if (f->tot->has_pool)
		set_fix(o, "Give the pool %s channels (--pool %s), one per file of the working set: "
			"predicted hit ratio %s.", fig_cnt((double)e->fix_items),
			fig_cnt((double)e->fix_items), fig_pct(e->hit_ratio_fix));
	else
		set_fix(o, "Keep %s descriptors open in %s's handle cache (now %s): predicted hit "
			"ratio %s, %s misses instead of %s.", fig_cnt((double)e->fix_items), e->comm,
			fig_cnt((double)e->size_items), fig_pct(e->hit_ratio_fix),
			fig_cnt((double)e->misses_at_fix), fig_cnt((double)e->misses));
}

/* The most costly handle cache whose curve gains, and its cost with
 * the waits it causes; NULL when none. */
static const struct cache_entry *top_cache(const struct facts *f, const struct lock_total **l,
					   double *own, double *ns, int *procs)
{
	const struct cache_entry *e = f->m->ncaches ? &f->m->caches[0] : NULL;

	if (!e || e->kind != CACHE_HANDLES || e->misses < CACHE_MIN_MISSES ||
	    e->hit_ratio_fix - e->hit_ratio_now < CACHE_MIN_GAIN)
		return NULL;
	*l = lock_of_misses(f->m);
	*own = same_program(f->m, e, procs);
	*ns = *own + lock_cost_ns(*l);
	return e;
}

bool cache_below_floor(const struct facts *f, char *buf, size_t n)
{
	const struct lock_total *l;
	const struct cache_entry *e;
	double own, ns;
	int procs;
	char knob[160];

	if (!(e = top_cache(f, &l, &own, &ns, &procs)))
		return false;
	if (!knob_for(e->comm, e->kind, e->fix_items, knob, sizeof(knob)))
		snprintf(knob, sizeof(knob), "%s open", fig_cnt((double)e->fix_items));
	snprintf(buf, n, "%s's handle cache %s (it keeps %s of %s files open, hit ratio %s; %s "
		 "would hit %s)", e->comm, fig_pct_small(fig_ratio(ns, f->wall)),
		 fig_cnt((double)e->size_items), fig_cnt((double)e->ws_items),
		 fig_pct(e->hit_ratio_now), knob, fig_pct(e->hit_ratio_fix));
	return true;
}

bool rule_handle_cache(const struct facts *f, struct finding *o)
{
	const struct lock_total *l;
	const struct cache_entry *e;
	double own, ns, share;
	int procs;

	if (!(e = top_cache(f, &l, &own, &ns, &procs)))
		return false;
	share = fig_ratio(ns, f->wall);
	if (share < EXPLAIN_MIN_SHARE)
		return false;
	found(o, "cache_too_small", share, e->sample_rate < 1 ? 0.7 : 0.85, COV_CACHE);
	set_title(o, "%s of thread time opening and closing files%s a bigger handle cache would "
		  "keep open: %s keeps %s of its %s files (hit ratio %s), %s would hit %s",
		  fig_pct(share), l ? " (and waiting for them)" : "", e->comm,
		  fig_cnt((double)e->size_items), fig_cnt((double)e->ws_items),
		  fig_pct(e->hit_ratio_now), fig_cnt((double)e->fix_items), fig_pct(e->hit_ratio_fix));
	ev_stream(&o->c, e);
	ev_curve(&o->c, e);
	ev_cost(&o->c, f, e, own, lock_cost_ns(l), procs);
	ev_lock(&o->c, l);
	ev_own(&o->c, f, e);
	if (procs > 1)
		evidence_add(&o->c, "%d processes of %s keep a cache each; the figures above are "
			     "the most costly one's.", procs, e->comm);
	fix_cache(o, f, e);
	return true;
}
