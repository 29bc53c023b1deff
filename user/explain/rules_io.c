/*
 * rules_io.c - the rules for time asleep: page-cache misses, and sleeps for
 * any other reason.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "base/sysnames.h"
#include "base/units.h"
#include "explain/evictions.h"
#include "explain/held.h"
#include "explain/rules_int.h"
#include "explain/whatif.h"
#include "explain/words.h"

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

bool rule_pagecache(const struct facts *f, struct finding *o)
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
	if (!evictions_explain(o, f))	/* who removed the pages, when traced */
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

bool rule_blocked_other(const struct facts *f, struct finding *o)
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

