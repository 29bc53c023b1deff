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
#include "explain/held.h"
#include "explain/knobs.h"
#include "explain/whatif_lock.h"
#include "base/units.h"
#include "explain/rules_int.h"
#include "explain/words.h"

/* Misses past the first use of each file, worth a finding: the curve
 * must gain this much before the fix size. */
#define CACHE_MIN_GAIN	0.02
#define CACHE_MIN_MISSES	100	/* fewer: a program's start-up, not a cache */

void cause_knob(struct diag_cause *c, const char *name, double value)
{
	snprintf(c->knob, sizeof(c->knob), "%s", name ? name : "");
	if (name)
		cause_fig(c, "fix_value", value);
}

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
	cause_fig(c, "pid", (double)e->pid);
	cause_fig(c, "working_set_bytes", (double)e->ws_bytes);
	cause_fig(c, "misses", (double)e->misses);
	cause_fig(c, "accesses", (double)e->accesses);
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

	cause_fig(c, "misses_at_fix", (double)e->misses_at_fix);
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
		    double own, double waited, int procs, const struct lock_total *l)
{
	double kept = e->misses ? (double)e->misses_at_fix / (double)e->misses : 1;
	double saved = e->saved_ns + waited * (1 - kept);
	double wall = (double)f->m->wall_ns * (1 - fig_ratio(saved, f->wall));
	struct lock_whatif w;

	cause_fig(c, "miss_each_ns", e->miss_each_ns);
	cause_fig(c, "miss_calls_ns", own);
	cause_fig(c, "saved_ns", saved);
	/* made under a lock: the lock's model with those calls gone, from
	 * its holds and waits and from the threads' time alike */
	if (l && whatif_lock_calls_gone(f->m, l, miss_calls_share(&l->holders) * (1 - kept),
					own * (1 - kept), &w) == 0) {
		cause_fig(c, "predicted_wall_ns", w.predicted_wall_ns);
		evidence_add(c, "Each miss opens and closes a file (and stats it, where the process "
			     "stats as often as it opens), %s at this process's mean times: %s of "
			     "thread time%s. What if (whatif_lock.c): with a cache of %s those calls "
			     "go from %s's holds (held %s instead of %s, waited for %s instead of %s) "
			     "and from the threads' time: the run would take ~%s instead of %s (set "
			     "by %s).", fig_ns(e->miss_each_ns), fig_ns(own),
			     procs > 1 ? " over its processes" : "", fig_cnt((double)e->fix_items),
			     l->name, fig_ns(w.held_after_ns), fig_ns(w.held_ns),
			     fig_ns(w.wait_after_ns), fig_ns(w.wait_ns), fig_ns(w.predicted_wall_ns),
			     fig_ns(w.measured_wall_ns), w.bound);
		return;
	}

	cause_fig(c, "predicted_wall_ns", wall);
	evidence_add(c, "Each miss opens and closes a file (and stats it, where the process "
		     "stats as often as it opens), %s at this process's mean times: %s of "
		     "thread time%s%s%s; a cache of %s would save at least %s (%s of the threads' "
		     "time: the calls a miss makes, not the slower calls after a fresh open nor "
		     "the program's own bookkeeping): the run would take ~%s instead of %s if the "
		     "saving spreads over the threads.",
		     fig_ns(e->miss_each_ns), fig_ns(own), procs > 1 ? " over its processes" : "",
		     waited > 0 ? ", and the lock's waits while they ran " : "",
		     waited > 0 ? fig_ns(waited) : "", fig_cnt((double)e->fix_items), fig_ns(saved),
		     fig_pct(fig_ratio(saved, f->wall)), fig_ns(wall), fig_ns((double)f->m->wall_ns));
}

static void ev_lock(struct diag_cause *c, const struct lock_total *l)
{
	if (!l)
		return;
	cause_fig(c, "lock_waits_ns", lock_cost_ns(l));
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
	const char *name;

	o->setting = knob_for(e->comm, e->kind, e->fix_items, knob, sizeof(knob), &name);
	if (o->setting) {
		cause_knob(&o->c, name, (double)e->fix_items);
		set_fix(o, "Set %s: its %s files then stay open (predicted hit ratio %s, %s misses "
			"instead of %s).", knob, fig_cnt((double)e->ws_items), fig_pct(e->hit_ratio_fix),
			fig_cnt((double)e->misses_at_fix), fig_cnt((double)e->misses));
	} else if (f->tot->has_pool) {
		/* fctrace's own workload: its option, though no table's (it is
		 * no program's setting a reader would look up) */
		cause_knob(&o->c, "--pool", (double)e->fix_items);
		set_fix(o, "Give the pool %s channels (--pool %s), one per file of the working set: "
			"predicted hit ratio %s.", fig_cnt((double)e->fix_items),
			fig_cnt((double)e->fix_items), fig_pct(e->hit_ratio_fix));
	} else {
		set_fix(o, "Keep %s descriptors open in %s's handle cache (now %s): predicted hit "
			"ratio %s, %s misses instead of %s.", fig_cnt((double)e->fix_items), e->comm,
			fig_cnt((double)e->size_items), fig_pct(e->hit_ratio_fix),
			fig_cnt((double)e->misses_at_fix), fig_cnt((double)e->misses));
	}
}

/* The most costly handle cache whose curve gains, and its cost with
 * the waits it causes; NULL when none. */
static const struct cache_entry *top_cache(const struct facts *f, const struct lock_total **l,
					   double *own, double *ns, int *procs)
{
	const struct cache_entry *e = NULL;

	/* the costliest handle cache: a block stream (every pread, a page
	 * cache's hits among them) may cost more and come first */
	for (int i = 0; i < f->m->ncaches && !e; i++)
		if (f->m->caches[i].kind == CACHE_HANDLES)
			e = &f->m->caches[i];
	if (!e || e->misses < CACHE_MIN_MISSES ||
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
	if (!knob_for(e->comm, e->kind, e->fix_items, knob, sizeof(knob), NULL))
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
	cause_fig(&o->c, "size_now_items", (double)e->size_items);
	cause_fig(&o->c, "working_set_items", (double)e->ws_items);
	cause_fig(&o->c, "hit_ratio_now", e->hit_ratio_now);
	cause_fig(&o->c, "fix_items", (double)e->fix_items);
	cause_fig(&o->c, "hit_ratio_fix", e->hit_ratio_fix);
	ev_stream(&o->c, e);
	ev_curve(&o->c, e);
	ev_cost(&o->c, f, e, own, lock_cost_ns(l), procs, l);
	ev_lock(&o->c, l);
	ev_own(&o->c, f, e);
	if (procs > 1)
		evidence_add(&o->c, "%d processes of %s keep a cache each; the figures above are "
			     "the most costly one's.", procs, e->comm);
	fix_cache(o, f, e);
	if (procs > 1)	/* last: the figures past EXPLAIN_MAX_FIGS are dropped */
		cause_fig(&o->c, "procs", procs);
	return true;
}

/* ---- blocks: a block cache the program keeps, seen by its misses -------- */

/* Re-reads worth a finding: this share of the positional reads. */
#define BLOCKS_MIN_REREAD	0.10

#define MIB	(1024.0 * 1024.0)

/* The re-reads' time: each at the process's mean positional read. */
static double reread_ns(const struct cache_entry *e)
{
	return e->miss_each_ns * e->rereads;
}

static bool positional_read(const char *call)
{
	return !strcmp(call, "pread64") || !strcmp(call, "preadv") || !strcmp(call, "preadv2");
}

/*
 * Of a lock's or event's waits, those that ended when a positional read
 * returned: its wakes (wakers.h) whose waker's last call was one, as a
 * share of its wakes, times its waits. A thread that wants a block
 * another thread is reading, or the lock that reader holds, waits for
 * the read: a miss costs them too (InnoDB: 34 s of lock waits beside
 * 10.7 s of the re-reads' own time on an 8 MiB buffer pool).
 */
static double waits_after_reads(const struct lock_total *l)
{
	const struct lock_wakers *w = &l->wakers;
	uint64_t reads = 0;

	if (l->kernel || !w->wakes)
		return 0;
	for (int a = 0; a < w->nafter; a++)
		if (positional_read(w->after[a].call))
			reads += w->after[a].wakes;
	return (double)l->wait_ns * fig_ratio((double)reads, (double)w->wakes);
}

/* The re-reads' share of the waits on locks (is_lock) or events that the
 * reads ended - the first reads of each block would be made with any
 * cache - a pool's aside (its cause takes its waits whole). */
static double rereads_waits(const struct joined_run *m, const struct cache_entry *e,
			    bool is_lock)
{
	double ns = 0;

	for (int j = 0; j < m->nlocks; j++)
		if (m->locks[j].is_lock == is_lock && !pool_of_lock(m, &m->locks[j]))
			ns += waits_after_reads(&m->locks[j]);
	return ns * fig_ratio(e->rereads, (double)e->accesses);
}

/* What a block cache's re-reads cost: their own time in the reads, and
 * the other threads' waits they ended; the processes they are of. */
struct blocks_cost {
	double own, waits;
	int procs;
};

static double blocks_ns(const struct blocks_cost *k)
{
	return k->own + k->waits;
}

/* The block cache whose re-reads cost the most, with those of all the
 * processes of its program (a server's backends share one pool, each
 * re-reading blocks the others evicted); NULL when none re-reads enough. */
static const struct cache_entry *top_blocks(const struct joined_run *m, struct blocks_cost *k)
{
	const struct cache_entry *best = NULL;

	for (int i = 0; i < m->ncaches; i++) {
		const struct cache_entry *e = &m->caches[i];

		if (e->kind != CACHE_BLOCKS || !e->accesses ||
		    e->rereads < BLOCKS_MIN_REREAD * (double)e->accesses)
			continue;
		if (!best || reread_ns(e) > reread_ns(best))
			best = e;
	}
	memset(k, 0, sizeof(*k));
	for (int i = 0; best && i < m->ncaches; i++)
		if (m->caches[i].kind == CACHE_BLOCKS && !strcmp(m->caches[i].comm, best->comm))
			k->own += reread_ns(&m->caches[i]), k->procs++;
	if (best)
		k->waits = rereads_waits(m, best, true) + rereads_waits(m, best, false);
	return best;
}

double blocks_wait_ns(const struct facts *f, bool is_lock)
{
	const struct cache_entry *e;
	struct blocks_cost k;

	if (!(e = top_blocks(f->m, &k)) || fig_ratio(blocks_ns(&k), f->wall) < EXPLAIN_MIN_SHARE)
		return 0;
	return rereads_waits(f->m, e, is_lock);
}

static uint64_t block_bytes(const struct cache_entry *e)
{
	return e->ws_items ? e->ws_bytes / e->ws_items : 0;
}

/* What the cache keeps of the blocks read, in bytes ("384 KiB"). */
static char *held_size(const struct cache_entry *e, char *buf, size_t n)
{
	return units_bytes(buf, n, (double)(e->held_items * block_bytes(e)));
}

/* What the cache holds now, in the title's words. */
static const char *held_words(const struct cache_entry *e)
{
	static char w[96];
	char size[32];

	if (!e->held_items)
		return "unknown from outside";
	snprintf(w, sizeof(w), "about %s of these blocks by where its re-reads begin",
		 held_size(e, size, sizeof(size)));
	return w;
}

static void ev_blocks_stream(struct diag_cause *c, const struct cache_entry *e)
{
	char who[160];

	if (e->procs > 1)	/* one pool's stream (base/procshm.h) */
		snprintf(who, sizeof(who), "%u processes of %s that share %s MiB of memory (one "
			 "pool: their reads are one stream; the first, %d)", e->procs, e->comm,
			 fig_cnt((double)e->shared_bytes / MIB), (int)e->pid);
	else
		snprintf(who, sizeof(who), "Process %d (%s)", (int)e->pid, e->comm);
	evidence_add(c, "%s made %s positional reads of %s (preads of %s bytes on "
		     "average), of %s distinct blocks (%s MiB%s): %s of them re-read a block "
		     "read before (%s).", who, fig_cnt((double)e->accesses),
		     e->object, fig_cnt((double)block_bytes(e)), fig_cnt((double)e->ws_items),
		     fig_cnt((double)e->ws_bytes / MIB), e->sample_rate < 1 ? ", keys sampled" : "",
		     fig_cnt(e->rereads), fig_pct(fig_ratio(e->rereads, (double)e->accesses)));
	cause_fig(c, "pid", (double)e->pid);
	cause_fig(c, "accesses", (double)e->accesses);
	cause_fig(c, "working_set_items", (double)e->ws_items);
}

/* Only the misses make a syscall: the cache's size is seen only as where
 * its re-reads begin (blockuse.h), its hit ratio not at all. */
static void ev_blocks_size(struct diag_cause *c, const struct cache_entry *e)
{
	char held[32];

	held_size(e, held, sizeof(held));
	cause_fig(c, "misses_at_fix", (double)e->misses_at_fix);
	if (e->held_items)
		evidence_add(c, "Its cache's hits make no syscall, so only its misses are seen: "
			     "only 1 %% of the re-reads came back sooner than %s other blocks were "
			     "read, so it keeps about %s of these blocks now (what else it holds "
			     "is not seen); by the re-reads' "
			     "distances past that, %s MiB more would keep all but %s of them (%s "
			     "reads instead of %s); its working set, %s MiB, is enough whatever it "
			     "holds.", fig_cnt((double)e->held_items), held,
			     fig_cnt((double)e->fix_bytes / MIB), fig_pct(1 - e->hit_ratio_fix),
			     fig_cnt((double)e->misses_at_fix), fig_cnt((double)e->accesses),
			     fig_cnt((double)e->ws_bytes / MIB));
	else
		evidence_add(c, "Its cache's hits make no syscall, so its size and hit ratio are "
			     "not seen from outside, only its misses: by the re-reads' distances, %s "
			     "MiB more than it holds now would keep all but %s of them (%s reads "
			     "instead of %s); its working set, %s MiB, is enough whatever it holds "
			     "now.", fig_cnt((double)e->fix_bytes / MIB), fig_pct(1 - e->hit_ratio_fix),
			     fig_cnt((double)e->misses_at_fix), fig_cnt((double)e->accesses),
			     fig_cnt((double)e->ws_bytes / MIB));
}

static void ev_blocks_cost(struct diag_cause *c, const struct facts *f,
			   const struct cache_entry *e, const struct blocks_cost *k)
{
	cause_fig(c, "miss_each_ns", e->miss_each_ns);
	cause_fig(c, "reread_own_ns", k->own);
	if (k->waits > 0)
		cause_fig(c, "reread_waits_ns", k->waits);
	if (e->direct)
		cause_fig(c, "direct", (double)e->direct);
	evidence_add(c, "A positional read cost this process's threads %s on average (its sleep "
		     "on the disk, and its time in the call while on a CPU; the wait for a CPU "
		     "after a wake-up is the CPUs' cause): the re-reads cost %s of thread "
		     "time%s, %s of the threads' time.",
		     fig_ns(e->miss_each_ns), fig_ns(k->own),
		     k->procs > 1 ? " over its processes" : "", fig_pct(fig_ratio(k->own, f->wall)));
	if (k->waits > 0)
		evidence_add(c, "Other threads waited for the reads as well: %s of lock and event "
			     "waits ended when the thread that woke them had just finished a "
			     "positional read (the re-reads' share of them, %s of the reads); with "
			     "them the re-reads cost %s, %s of the threads' time.", fig_ns(k->waits),
			     fig_pct(fig_ratio(e->rereads, (double)e->accesses)),
			     fig_ns(blocks_ns(k)), fig_pct(fig_ratio(blocks_ns(k), f->wall)));
	if (e->direct)
		evidence_add(c, "%s of its reads were on files open O_DIRECT: each went to the "
			     "disk, no page cache behind the program's own.",
			     fig_cnt((double)e->direct));
	if (k->procs > 1)
		evidence_add(c, "%d processes of %s re-read blocks (a shared pool's backends, or "
			     "a cache each); the figures above are the most costly one's.", k->procs,
			     e->comm);
}

static void fix_blocks(struct finding *o, const struct cache_entry *e)
{
	const char *why;
	uint64_t margin = knob_margin(e->comm, e->kind, &why);
	double each = e->ws_items ? (double)e->ws_bytes / (double)e->ws_items : 0;
	double margin_mib = (double)margin * each / MIB;
	uint64_t mib = (uint64_t)((double)e->ws_bytes / MIB + margin_mib) + 1;
	char knob[160];
	const char *name;

	o->setting = knob_for(e->comm, e->kind, mib, knob, sizeof(knob), &name);
	if (o->setting)
		cause_knob(&o->c, name, (double)mib);
	else
		cause_fig(&o->c, "fix_mib", (double)mib);
	if (margin)
		cause_fig(&o->c, "margin_items", (double)margin);
	if (o->setting && margin && each > 0)
		set_fix(o, "Set %s (its working set, %s MiB, and %s MiB for the %s pages of %s "
			"bytes %s; what it holds now: %s): the %s re-reads then hit.", knob,
			fig_cnt((double)e->ws_bytes / MIB), fig_cnt(margin_mib),
			fig_cnt((double)margin), fig_cnt(each), why, held_words(e),
			fig_cnt(e->rereads));
	else if (o->setting)
		set_fix(o, "Set %s (its working set; what it holds now: %s): the %s re-reads then "
			"hit.", knob, held_words(e), fig_cnt(e->rereads));
	else
		set_fix(o, "Give %s's block cache %s MiB (its working set; or %s MiB more than it "
			"holds now, %s): the %s re-reads then hit.", e->comm,
			fig_cnt((double)mib), fig_cnt((double)e->fix_bytes / MIB), held_words(e),
			fig_cnt(e->rereads));
}

/* What the title says; held_items only when it is seen (held_words). */
static void blocks_title_figs(struct diag_cause *c, const struct cache_entry *e)
{
	cause_fig(c, "rereads", e->rereads);
	cause_fig(c, "block_bytes", (double)block_bytes(e));
	cause_fig(c, "working_set_bytes", (double)e->ws_bytes);
	cause_fig(c, "fix_more_bytes", (double)e->fix_bytes);
	cause_fig(c, "hit_ratio_fix", e->hit_ratio_fix);
	if (e->held_items)
		cause_fig(c, "held_items", (double)e->held_items);
}

bool rule_block_cache(const struct facts *f, struct finding *o)
{
	const struct cache_entry *e;
	struct blocks_cost k;
	double share;

	if (!(e = top_blocks(f->m, &k)))
		return false;
	share = fig_ratio(blocks_ns(&k), f->wall);
	if (share < EXPLAIN_MIN_SHARE)
		return false;
	found(o, "block_cache_too_small", share, e->sample_rate < 1 ? 0.6 : 0.75,
	      COV_BLOCKS | (e->direct ? COV_DISK : 0));
	set_title(o, "%s re-read %s blocks of %s bytes it had read before (%s of its reads, %s of "
		  "thread time): a block cache it keeps is smaller than its working set of %s MiB; "
		  "a cache of %s MiB would serve them (%s MiB + what it holds now, %s, would keep "
		  "all but %s)", e->comm, fig_cnt(e->rereads),
		  fig_cnt((double)block_bytes(e)), fig_pct(fig_ratio(e->rereads, (double)e->accesses)),
		  fig_ns(blocks_ns(&k)), fig_cnt((double)e->ws_bytes / MIB),
		  fig_cnt((double)e->ws_bytes / MIB),
		  fig_cnt((double)e->fix_bytes / MIB), held_words(e), fig_pct(1 - e->hit_ratio_fix));
	blocks_title_figs(&o->c, e);
	ev_blocks_stream(&o->c, e);
	ev_blocks_size(&o->c, e);
	ev_blocks_cost(&o->c, f, e, &k);
	fix_blocks(o, e);
	if (k.procs > 1)	/* last: the figures past EXPLAIN_MAX_FIGS are dropped */
		cause_fig(&o->c, "procs", k.procs);
	return true;
}

/* Of the re-reads' own time (not the waits they ended: those are no
 * read of the disk), what went to the disk past the page cache (their
 * O_DIRECT share): the part disk_reads leaves to this cause. 0 when the
 * re-reads are no cause. */
double blocks_disk_ns(const struct facts *f)
{
	const struct cache_entry *e;
	struct blocks_cost k;

	if (!(e = top_blocks(f->m, &k)) || fig_ratio(blocks_ns(&k), f->wall) < EXPLAIN_MIN_SHARE)
		return 0;
	return k.own * fig_ratio((double)e->direct, (double)e->accesses);
}

bool blocks_below_floor(const struct facts *f, char *buf, size_t n)
{
	const struct cache_entry *e;
	struct blocks_cost k;

	if (!(e = top_blocks(f->m, &k)) || fig_ratio(blocks_ns(&k), f->wall) >= EXPLAIN_MIN_SHARE)
		return false;
	snprintf(buf, n, "%s's block re-reads %s (%s of its reads, working set %s MiB)", e->comm,
		 fig_pct_small(fig_ratio(blocks_ns(&k), f->wall)),
		 fig_pct(fig_ratio(e->rereads, (double)e->accesses)),
		 fig_cnt((double)e->ws_bytes / MIB));
	return true;
}
