/*
 * evictions.c - who removed the pages the program then read from disk
 * again, in words (evictions.h). Each remover is one of five kinds; the
 * kind that caused most re-reads, or the first reads when they are most,
 * gives the fix. Memory pressure is named only when reclaim removed them.
 */
#include <stdio.h>
#include "base/sysnames.h"
#include "explain/evictions.h"
#include "explain/words.h"

enum ev_kind { K_OWN, K_EVICTOR, K_OTHER, K_DROP, K_RECLAIM, K_N };

/* the --pressure evictor the run's settings asked for: a thread of the
 * traced process that is not one of its traced threads */
static bool is_evictor(const struct pc_eviction *r, const struct facts *f)
{
	return f->cfg->pressure > 0 && r->target && !r->traced;
}

static enum ev_kind kind_of(const struct pc_eviction *r, const struct facts *f)
{
	if (r->how == FCT_EV_RECLAIM)
		return K_RECLAIM;
	if (r->how == FCT_EV_DROP_CACHES)
		return K_DROP;
	if (is_evictor(r, f))
		return K_EVICTOR;
	return r->target ? K_OWN : K_OTHER;
}

/* "fadvise64", "truncation or deletion (unlinkat)" ... */
static const char *how_words(const struct pc_eviction *r, char *buf, size_t n)
{
	char nrbuf[24];
	const char *nr = syscall_name(r->nr == FCT_EV_NO_NR ? 0xffff : r->nr, nrbuf,
				      sizeof(nrbuf));
	switch (r->how) {
	case FCT_EV_FADVISE:
	case FCT_EV_MADVISE:
		snprintf(buf, n, "%s", r->nr == FCT_EV_NO_NR ? evict_how_name(r->how) : nr);
		break;
	case FCT_EV_TRUNCATE:
		snprintf(buf, n, "truncation or deletion (%s)", nr);
		break;
	case FCT_EV_DIRECT_IO:
		snprintf(buf, n, "O_DIRECT writes (%s)", nr);
		break;
	default:
		snprintf(buf, n, r->nr == FCT_EV_NO_NR ? "a kernel path outside syscalls"
			 : "%s", nr);
	}
	return buf;
}

/* "288 k fadvise64 calls" when the syscall table counted them */
static const char *calls_words(const struct pc_eviction *r, const struct facts *f,
			       char *buf, size_t n)
{
	char how[64];

	how_words(r, how, sizeof(how));
	if (f->sc && r->target && r->nr < FCT_NR_MAX && f->m->nr_total[r->nr].count &&
	    (r->how == FCT_EV_FADVISE || r->how == FCT_EV_MADVISE))
		snprintf(buf, n, "%s %s call%s", fig_cnt((double)f->m->nr_total[r->nr].count), how,
			 fig_plural((double)f->m->nr_total[r->nr].count));
	else
		snprintf(buf, n, "%s", how);
	return buf;
}

/* "pid 812", or "pid 812 and 57 other processes of that name" */
static const char *pid_words(const struct pc_eviction *r)
{
	static __thread char b[2][80];
	static __thread int i;
	char *s = b[i++ & 1];

	if (r->npids > 1)
		snprintf(s, 80, "pid %u and %u other process%s of that name", r->pid,
			 r->npids - 1, r->npids > 2 ? "es" : "");
	else
		snprintf(s, 80, "pid %u", r->pid);
	return s;
}

static const char *mib(uint64_t kb)
{
	static __thread char b[2][24];
	static __thread int i;
	char *s = b[i++ & 1];

	if (kb)
		snprintf(s, 24, "%.0f MiB", (double)kb / 1024);
	else
		snprintf(s, 24, "unknown");
	return s;
}

/* kswapd: the machine ran short; direct reclaim: the task's allocation
 * did (the machine's memory or its cgroup's limit); another kernel
 * thread (DAMON's kdamond): reclaim by policy, not a shortage. */
static void ev_reclaim(struct diag_cause *c, const struct pc_eviction *r,
		       const struct pc_evictions *e, double re)
{
	/* the memory the words state; 0 is "unknown" in them, no figure */
	if ((!r->kthread || r->kswapd) && e->avail_kb[0])
		cause_fig(c, "avail_start_bytes", (double)e->avail_kb[0] * 1024);
	if ((!r->kthread || r->kswapd) && e->avail_kb[1])
		cause_fig(c, "avail_end_bytes", (double)e->avail_kb[1] * 1024);
	if (r->kswapd)
		evidence_add(c, "kswapd reclaimed %s pages of these files under memory pressure, "
			     "%s of them read again: %s available at the window's start, %s at its "
			     "end.", fig_cnt((double)r->pages), fig_pct(re), mib(e->avail_kb[0]),
			     mib(e->avail_kb[1]));
	else if (r->kthread)
		evidence_add(c, "%s, a kernel thread, reclaimed %s pages of these files (reclaim "
			     "it does on its own, not a memory shortage), %s of them read again.",
			     r->comm, fig_cnt((double)r->pages), fig_pct(re));
	else
		evidence_add(c, "Direct reclaim in %s (%s) took %s pages of these files, %s of them "
			     "read again: memory ran short where it allocated (the machine's, or its "
			     "memory cgroup's limit); %s available at the window's start, %s at its "
			     "end.", r->comm, pid_words(r), fig_cnt((double)r->pages), fig_pct(re),
			     mib(e->avail_kb[0]), mib(e->avail_kb[1]));
}

/* The remover the figures name: the largest (the first row). */
static void remover_figs(struct diag_cause *c, const struct pc_eviction *r,
			 const struct facts *f)
{
	cause_fig(c, "remover_pid", r->pid);
	cause_fig(c, "remover_pages", (double)r->pages);
	if (f->sc && r->target && r->nr < FCT_NR_MAX && f->m->nr_total[r->nr].count &&
	    (r->how == FCT_EV_FADVISE || r->how == FCT_EV_MADVISE))
		cause_fig(c, "remover_calls", (double)f->m->nr_total[r->nr].count);
}

static void ev_row(struct diag_cause *c, const struct pc_eviction *r, const struct facts *f)
{
	const struct pc_evictions *e = &f->m->evictions;
	double re = fig_ratio((double)r->reread_pages, (double)r->pages);
	char calls[96];

	switch (kind_of(r, f)) {
	case K_OWN:
		evidence_add(c, "%s dropped its own pages: %s removed %s pages of the files it "
			     "reads, %s of those it later read again from disk.", r->comm,
			     calls_words(r, f, calls, sizeof(calls)), fig_cnt((double)r->pages),
			     fig_pct(re));
		break;
	case K_EVICTOR:
		evidence_add(c, "fctrace's --pressure evictor (%s) removed %s pages with %s; the "
			     "workers read %s of them again.", r->comm, fig_cnt((double)r->pages),
			     calls_words(r, f, calls, sizeof(calls)), fig_pct(re));
		break;
	case K_OTHER:
		evidence_add(c, "%s (%s), another process, removed %s pages of these files "
			     "with %s; the program read %s of them again from disk.", r->comm,
			     pid_words(r), fig_cnt((double)r->pages),
			     calls_words(r, f, calls, sizeof(calls)), fig_pct(re));
		break;
	case K_DROP:
		evidence_add(c, "%s (%s) wrote to /proc/sys/vm/drop_caches: %s pages of these "
			     "files dropped, %s of them read again.", r->comm, pid_words(r),
			     fig_cnt((double)r->pages), fig_pct(re));
		break;
	default:
		ev_reclaim(c, r, e, re);
	}
}

/* Each kind's re-reads, and the largest row of each. */
struct ev_sums {
	uint64_t reread[K_N];
	const struct pc_eviction *top[K_N];
};

static void sum_kinds(const struct facts *f, struct ev_sums *s)
{
	const struct pc_evictions *e = &f->m->evictions;

	for (int i = 0; i < e->n_by_comm; i++) {
		const struct pc_eviction *r = &e->by_comm[i];
		enum ev_kind k = kind_of(r, f);

		s->reread[k] += r->reread_pages;
		if (!s->top[k] || r->reread_pages > s->top[k]->reread_pages)
			s->top[k] = r;
	}
}

/* Each kind's re-reads that any row has, by a key of its own: who
 * removed the pages, as numbers. */
static void kind_figs(struct diag_cause *c, const struct ev_sums *s)
{
	static const char *const keys[K_N] = {
		[K_OWN] = "reread_own_pages", [K_EVICTOR] = "reread_evictor_pages",
		[K_OTHER] = "reread_other_pages", [K_DROP] = "reread_drop_pages",
		[K_RECLAIM] = "reread_reclaim_pages",
	};

	for (int k = 0; k < K_N; k++)
		if (s->reread[k])
			cause_fig(c, keys[k], (double)s->reread[k]);
}

static double pages_mib(uint64_t pages)
{
	return (double)pages * 4096.0 / (1024.0 * 1024.0);
}

static void fix_for(struct finding *o, enum ev_kind k, const struct pc_eviction *r,
		    const struct facts *f, double share)
{
	char calls[96];

	if (k == K_OWN || k == K_OTHER || k == K_DROP)	/* the process it names */
		cause_fig(&o->c, "fix_pid", r->pid);
	switch (k) {
	case K_OWN:
		set_fix(o, "Stop %s dropping its own page cache: its %s remove pages it reads "
			"again (%s of its disk reads) - a setting that invalidates the cache at "
			"each open, or a DONTNEED after each read.", r->comm,
			calls_words(r, f, calls, sizeof(calls)), fig_pct(share));
		break;
	case K_OTHER:
		set_fix(o, "Stop %s (%s) removing these files from the page cache (its %s): "
			"%s of the program's disk reads were of pages it removed.", r->comm,
			pid_words(r),
			calls_words(r, f, calls, sizeof(calls)), fig_pct(share));
		break;
	case K_DROP:
		set_fix(o, "Do not write to /proc/sys/vm/drop_caches while the program runs (%s, "
			"%s did): %s of its disk reads were of pages it dropped.", r->comm,
			pid_words(r), fig_pct(share));
		break;
	default:
		if (f->m->evictions.keep_most_pages)
			set_fix(o, "Give the program's files %s MiB more page cache: reclaim took "
				"pages it read again (%s of its disk reads), and that much more "
				"would have kept nine in ten of them - raise its memory cgroup's "
				"limit, free memory on the machine, or shrink the working set.",
				fig_cnt(pages_mib(f->m->evictions.keep_most_pages)), fig_pct(share));
		else
			set_fix(o, "Give the program's files room in memory: reclaim took pages it "
				"read again (%s of its disk reads) - raise its memory cgroup's limit, "
				"free memory on the machine, or shrink the working set.",
				fig_pct(share));
	}
}

/* "12.3 k of them reclaim had removed: 96 MiB more page cache would have
 * kept half, 310 MiB nine in ten" */
static void ev_reclaim_distance(struct diag_cause *c, const struct pc_evictions *e)
{
	if (!e->reclaim_reread_pages || !e->keep_most_pages)
		return;
	cause_fig(c, "reclaim_reread_pages", (double)e->reclaim_reread_pages);
	cause_fig(c, "keep_half_bytes", (double)e->keep_half_pages * 4096.0);
	cause_fig(c, "keep_most_bytes", (double)e->keep_most_pages * 4096.0);
	evidence_add(c, "%s of the re-read pages had been removed by reclaim, while reclaim "
		     "removed %s pages of every file in the window: by how many it removed "
		     "between each page's removal and its re-read, %s MiB more page cache would "
		     "have kept half of them and %s MiB nine in ten (an LRU keeps a page d "
		     "removals longer with d pages more; counted by 64-page blocks).",
		     fig_cnt((double)e->reclaim_reread_pages), fig_cnt((double)e->reclaimed_pages),
		     fig_cnt(pages_mib(e->keep_half_pages)), fig_cnt(pages_mib(e->keep_most_pages)));
}

bool evictions_explain(struct finding *o, const struct facts *f)
{
	const struct pc_evictions *e = &f->m->evictions;
	double miss = (double)f->m->pagecache_misses;
	struct ev_sums s = { 0 };
	int best = -1, shown = 0;

	if (!e->on || miss <= 0)
		return false;
	evidence_add(&o->c, "Of the %s pages read from disk, %s (%s) had been in the page cache "
		     "earlier in the run and were removed before being read again; %s (%s) were "
		     "first reads, not in the page cache when first asked for.", fig_cnt(miss),
		     fig_cnt((double)e->reread_pages), fig_pct(fig_ratio((double)e->reread_pages, miss)),
		     fig_cnt((double)e->first_pages), fig_pct(fig_ratio((double)e->first_pages, miss)));
	cause_fig(&o->c, "reread_pages", (double)e->reread_pages);
	cause_fig(&o->c, "first_pages", (double)e->first_pages);
	/* the largest remover, then those behind at least 1 % of the misses */
	for (int i = 0; i < e->n_by_comm && shown < 3; i++)
		if (i == 0 || (double)e->by_comm[i].reread_pages >= 0.01 * miss)
			ev_row(&o->c, &e->by_comm[i], f), shown++;
	if (e->n_by_comm)
		remover_figs(&o->c, &e->by_comm[0], f);
	ev_reclaim_distance(&o->c, e);
	sum_kinds(f, &s);
	kind_figs(&o->c, &s);
	for (int k = 0; k < K_N; k++)
		if (s.reread[k] && (best < 0 || s.reread[k] > s.reread[best]))
			best = k;
	if (best < 0 || (double)s.reread[best] < (double)e->first_pages) {
		if (f->cfg->cold_cache || f->cfg->pressure > 0)
			return false;	/* the settings' own words (ev_cache_state) */
		cause_fig(&o->c, "fix_pages", (double)e->first_pages);
		set_fix(o, "First reads: the files were not in the page cache yet (%s of the disk "
			"reads). Nothing removed them; read them once before the measured work, or "
			"read less of them.", fig_pct(fig_ratio((double)e->first_pages, miss)));
		return true;
	}
	if (best == K_EVICTOR)
		return false;	/* fctrace's own --pressure: the settings' fix */
	cause_fig(&o->c, "fix_pages", (double)s.reread[best]);
	fix_for(o, (enum ev_kind)best, s.top[best], f, fig_ratio((double)s.reread[best], miss));
	return true;
}
