/*
 * rules_io.c - the rules for time asleep: page-cache misses, and sleeps for
 * any other reason.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
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
	const struct subject_timings *own = f->m->timings;

	cause_fig(c, "cold_cache", f->cfg->cold_cache);
	if (f->cfg->cold_cache) {
		cause_fig(c, "cold_pages_resident", (double)own->cold_pages_resident);
		evidence_add(c, "The files were evicted from the page cache before the run (%s pages "
		       "still resident after eviction).", fig_cnt((double)own->cold_pages_resident));
	}
	if (f->cfg->pressure > 0) {
		cause_fig(c, "pressure_pages_dropped", (double)own->pressure_pages_dropped);
		cause_fig(c, "pressure_pages_per_s", f->cfg->pressure);
		evidence_add(c, "An evictor dropped %s pages during the run (asked for %.0f pages/s).",
		       fig_cnt((double)own->pressure_pages_dropped), f->cfg->pressure);
	}
}

static void fix_pagecache(struct finding *o)
{
	set_fix(o, "Keep the files in the page cache: run warm, or with more memory or less "
		"pressure on it; else read ahead of use (larger reads, posix_fadvise WILLNEED) so "
		"that the disk waits overlap, or keep the blocks in a cache of its own (as "
		"bcache does) that the page cache cannot drop.");
}

/* Reads made with calls other than pread64: the pages they asked for
 * were not counted (pages_asked is pread64's). */
static bool reads_besides_pread(const struct facts *f)
{
	static const char *const calls[] = { "read", "readv", "preadv", "preadv2" };

	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		int nr = syscall_nr(calls[i]);

		if (nr >= 0 && nr < FCT_NR_MAX && f->m->nr_total[nr].count)
			return true;
	}
	return false;
}

/* "read 41.2 k calls (38.0 µs each), pread64 2 calls (1.2 ms each)": the
 * calls the program read files with, most made first. */
static bool read_calls(const struct facts *f, char *buf, size_t n)
{
	static const char *const calls[] = { "read", "pread64", "readv", "preadv", "preadv2" };
	const struct sc_stats *nr = f->m->nr_total;
	bool used[5] = { false };
	size_t len = 0;

	buf[0] = '\0';
	for (int k = 0; k < 5; k++) {
		int best = -1, bn = -1;

		for (int i = 0; i < 5; i++) {
			int x = syscall_nr(calls[i]);

			if (used[i] || x < 0 || x >= FCT_NR_MAX || !nr[x].count)
				continue;
			if (best < 0 || nr[x].count > nr[bn].count)
				best = i, bn = x;
		}
		if (best < 0)
			break;
		used[best] = true;
		len += (size_t)snprintf(buf + len, len < n ? n - len : 0, "%s%s %s call%s (%s each)",
					k ? ", " : "", calls[best], fig_cnt((double)nr[bn].count),
					fig_plural((double)nr[bn].count),
					fig_ns(fig_ratio((double)nr[bn].total_ns, (double)nr[bn].count)));
	}
	return buf[0] != '\0';
}

static void ev_pc_kernel(struct diag_cause *c, const struct facts *f)
{
	const struct sc_stats *pr = &f->m->nr_total[__NR_pread64];
	double miss = (double)f->m->pagecache_misses;
	char calls[240];

	cause_fig(c, "miss_pages", miss);
	if (f->sc && f->pages_asked > 0)
		cause_fig(c, "pages_asked", f->pages_asked);
	if (f->sc && f->pages_asked >= miss && miss > 0)
		cause_fig(c, "miss_ratio", fig_ratio(miss, f->pages_asked));
	cause_fig(c, "blocked_ns", (double)f->m->acct_total_ns[ACCT_BLOCKED]);
	cause_fig(c, "blocked_share", kshare(f, ACCT_BLOCKED));
	cause_fig(c, "blocked_per_page_ns",
		  fig_ratio((double)f->m->acct_total_ns[ACCT_BLOCKED], miss));
	if (f->sc && pr->count) {
		cause_fig(c, "pread_calls", (double)pr->count);
		cause_fig(c, "pread_mean_ns", fig_ratio((double)pr->total_ns, (double)pr->count));
		cause_fig(c, "pread_min_ns", (double)pr->min_ns);
	}
	if (f->sc && reads_besides_pread(f) && read_calls(f, calls, sizeof(calls)))
		evidence_add(c, "%s pages were added to the page cache reading: reads that missed it "
		       "and went to the disk (readahead included). The program read with %s.",
		       fig_cnt(miss), calls);
	else if (f->sc && f->pages_asked >= miss && miss > 0)
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

static double read_io_ns(const struct facts *f);

/* The sleep disk reads cause: uninterruptible (a page being read is
 * waited for in D state), as the scheduler probes split every sleep. */
static double pc_blocked_share(const struct facts *f)
{
	return fig_ratio(read_io_ns(f), f->wall);
}

/* Without the kernel view: only the settings and the read clocks. */
static bool rule_pagecache_timing(const struct facts *f, struct finding *o)
{
	double read = f->read + f->miss_read, share = fig_ratio(read, f->wall);

	if ((!f->cfg->cold_cache && f->cfg->pressure <= 0) ||
	    share < EXPLAIN_MIN_SHARE)
		return false;
	found(o, "page_cache_misses", share, 0.3, COV_PC | COV_BLOCKED);
	cause_fig(&o->c, "read_ns", read);
	cause_fig(&o->c, "read_per_op_ns", fig_ratio(read, f->ops));
	set_title(o, "%s of thread time in reads with the page cache %s (timing only)",
		  fig_pct(share), f->cfg->cold_cache ? "cold" : "under pressure");
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
	held_disk_link(&o->c, f->m);
	if (!evictions_explain(o, f))	/* who removed the pages, when traced */
		fix_pagecache(o);
	return true;
}

/* ---- asleep for some other reason -------------------------------------- */

/* "... the longest were inside clock_nanosleep: 300 ms over 3 calls": of
 * the run's table, which holds the sleeps other causes count too. */
static void ev_slept_in(struct diag_cause *c, const struct facts *f)
{
	const struct sc_stats *nr = f->m->nr_total;
	char buf[24];
	int best = -1;

	for (int n = 0; n < FCT_NR_MAX; n++)
		if (nr[n].blocked_ns && (best < 0 || nr[n].blocked_ns > nr[best].blocked_ns))
			best = n;
	if (best < 0)
		return;
	cause_fig(c, "slept_in_ns", (double)nr[best].blocked_ns);
	cause_fig(c, "slept_in_calls", (double)nr[best].count);
	evidence_add(c, "Of all the threads' sleeps in calls, the longest were inside %s: %s over "
		     "%s calls.",
		       syscall_name((unsigned)best, buf, sizeof(buf)),
		       fig_ns((double)nr[best].blocked_ns), fig_cnt((double)nr[best].count));
}

/* Of a sleep, the part in calls that wait for time or input (timers and
 * polls): idle, not I/O. */
static double idle_calls_ns(const struct facts *f)
{
	const struct sc_stats *nr = f->m->nr_total;
	double idle = 0;

	for (int n = 0; n < FCT_NR_MAX; n++)
		if (nr[n].blocked_ns && join_idle_call((unsigned)n))
			idle += (double)nr[n].blocked_ns;
	return idle;
}

static void ev_idle_calls(struct diag_cause *c, const struct facts *f, double b)
{
	double idle = idle_calls_ns(f);

	if (idle > 0 && b > 0)
		cause_fig(c, "idle_calls_ns", fmin(idle, b));
	if (idle > 0 && b > 0)
		evidence_add(c, "Of that sleep, %s (%s) was in calls that wait for time or input "
			     "(epoll_wait, poll, select, nanosleep and the like): idle, not I/O.",
			     fig_ns(fmin(idle, b)), fig_pct(fmin(1, idle / b)));
}

/* The share of the sleep a rule of its own names, when it fires. */
static double named_apart(double ns, const struct facts *f)
{
	return fig_ratio(ns, f->wall) >= EXPLAIN_MIN_SHARE ? ns : 0;
}

/* Of the uninterruptible sleep, what disk reads into the page cache
 * took: less the durable writes, which wait in D state as well, and the
 * reads past the page cache when the disk rule names them. */
static double read_io_ns(const struct facts *f)
{
	double io = f->blocked_io - durable_ns(f) - disk_direct_ns(f);

	return io > 0 ? io : 0;
}

/* The sleeps counted by other rules: page-cache reads, durable writes,
 * waits for another process, new connections' set-up, the sleeps of the
 * processes a churn made. */
struct apart { double pc, disk, durable, sibling, conns, churn; };

static void sleeps_apart(const struct facts *f, struct apart *a)
{
	a->pc = 0;
	if (f->pc && f->m->pagecache_misses)
		a->pc = read_io_ns(f);
	if (fig_ratio(a->pc, f->wall) < EXPLAIN_MIN_SHARE)
		a->pc = 0;		/* the page-cache rule does not fire: here */
	a->disk = disk_direct_ns(f);
	a->durable = named_apart(durable_ns(f), f);
	a->sibling = named_apart(sibling_wait_ns(f), f);
	a->conns = conns_apart_ns(f);
	a->churn = churn_ns(f, ACCT_BLOCKED);
}

static double apart_ns(const struct apart *a)
{
	return a->pc + a->disk + a->durable + a->sibling + a->conns + a->churn;
}

/* Asleep outside futex waits, not stopped, not named by another rule. */
static double blocked_other_ns(const struct facts *f, const struct apart *a)
{
	double b = (double)f->m->acct_total_ns[ACCT_BLOCKED] - f->stopped;

	b -= apart_ns(a);
	return b > 0 ? b : 0;
}

/* "Of that, 1.2 s is counted above: ..." */
static void ev_apart(struct diag_cause *c, const struct apart *a, double here)
{
	const struct { double ns; const char *what; } parts[] = {
		{ a->pc, "page-cache misses" }, { a->disk, "disk reads past the page cache" },
		{ a->durable, "durable writes" }, { a->sibling, "waits for another process" },
		{ a->conns, "new connections' set-up" },
		{ a->churn, "processes made for each connection" },
	};
	char buf[300] = "";

	for (size_t i = 0; i < sizeof(parts) / sizeof(*parts); i++)
		if (parts[i].ns > 0)
			words_append(buf, sizeof(buf), ", %s %s", parts[i].what, fig_ns(parts[i].ns));
	if (!buf[0])
		return;
	cause_fig(c, "apart_ns", apart_ns(a));
	evidence_add(c, "Of that, %s is counted in causes of its own (%s): %s is left here.",
		     fig_ns(apart_ns(a)), buf + 2, fig_ns(here));
}

/* Durable writes too small for a cause of their own, named here. */
static void ev_durable_small(struct diag_cause *c, const struct facts *f, const struct apart *a)
{
	char list[240];

	if (a->durable > 0 || durable_ns(f) <= 0)
		return;
	durable_calls(f, list, sizeof(list));
	evidence_add(c, "Durable writes: %s (waiting for the device to have the data).", list);
}

/* Sleeps a traced process of another program ended with a write: a
 * request handed over (a proxy's statement to its backend), and the one
 * that wrote most of them. */
static void ev_requests(struct diag_cause *c, const struct facts *f)
{
	double waits = 0, ns = 0, top = 0;
	const struct thread_row *by = NULL;

	for (unsigned i = 0; i < f->m->nrows; i++) {
		const struct thread_row *r = &f->m->rows[i];

		if (!r->has_kernel || r->aside)
			continue;
		waits += (double)r->k.sib_waits[FCT_WAKE_REQUEST];
		ns += (double)r->k.sib_wait_ns[FCT_WAKE_REQUEST];
		if ((double)r->k.sib_wakes[FCT_WAKE_REQUEST] > top) {
			top = (double)r->k.sib_wakes[FCT_WAKE_REQUEST];
			by = r;
		}
	}
	if (waits <= 0 || !by)
		return;
	cause_fig(c, "request_waits", waits);
	cause_fig(c, "request_wait_ns", ns);
	cause_fig(c, "request_writer_pid", by->k.tgid);
	evidence_add(c, "%s of these sleeps (%s) ended when a traced process of another program "
		     "wrote to the socket or pipe the sleeper waited on - most often %s (pid %u), "
		     "%s times: requests handed over; the sleepers were idle until they came, "
		     "not waiting for a sibling.", fig_cnt(waits), fig_ns(ns),
		     by->k.comm[0] ? by->k.comm : "?", by->k.tgid, fig_cnt(top));
}

/* The figures of blocked_other's last sentence: the page cache's. */
static void blocked_pc_figs(struct diag_cause *c, const struct facts *f)
{
	if (f->disk && f->disk_reads > 0) {
		cause_fig(c, "disk_reads", f->disk_reads);
		cause_fig(c, "disk_read_ns", f->disk_read_ns);
	}
	if (f->pc)
		cause_fig(c, "pc_miss_pages", (double)f->m->pagecache_misses);
	else
		cause_fig(c, "probe_groups", __builtin_popcount(f->m->groups));
}

bool rule_blocked_other(const struct facts *f, struct finding *o)
{
	struct apart a;
	double b, share, all, io;

	if (!f->sched)
		return false;
	sleeps_apart(f, &a);
	b = blocked_other_ns(f, &a);
	share = fig_ratio(b, f->wall);
	if (share < EXPLAIN_MIN_SHARE)
		return false;
	/* the whole sleep, split as the JSON's blocked_io_ns splits it */
	all = (double)f->m->acct_total_ns[ACCT_BLOCKED] - f->stopped;
	io = f->blocked_io < all ? f->blocked_io : all;
	found(o, "blocked_other", share, f->pc ? 0.6 : 0.4, COV_BLOCKED);
	cause_fig(&o->c, "blocked_ns", all);
	cause_fig(&o->c, "voluntary_switches", f->vol);
	cause_fig(&o->c, "uninterruptible_ns", io);
	if (idle_calls_ns(f) * 2 >= b)	/* a server between requests, a timer */
		set_title(o, "%s of thread time idle, asleep in calls that wait for input or "
			  "time (epoll_wait, poll, nanosleep ...): not I/O", fig_pct(share));
	else
		set_title(o, "%s of thread time asleep outside locks, not on page-cache misses",
			  fig_pct(share));
	evidence_add(&o->c, "The threads slept %s outside futex waits (%s of their wall time) over "
	       "%s voluntary switches: %s interruptibly (timers, poll, pipes, sockets: waiting "
	       "for input, time or another process), %s uninterruptibly (disk, kernel locks).",
	       fig_ns(all), fig_pct(fig_ratio(all, f->wall)), fig_cnt(f->vol),
	       fig_ns(all - io > 0 ? all - io : 0), fig_ns(io));
	ev_apart(&o->c, &a, b);
	ev_durable_small(&o->c, f, &a);
	ev_idle_calls(&o->c, f, b);
	ev_requests(&o->c, f);
	ev_slept_in(&o->c, f);
	blocked_pc_figs(&o->c, f);
	if (f->disk && f->disk_reads > 0)
		evidence_add(&o->c, "The threads caused %s disk reads (%s with one in flight) and "
		       "the page cache took in %s pages: disk reads are counted apart.",
		       fig_cnt(f->disk_reads), fig_ns(f->disk_read_ns),
		       fig_cnt((double)f->m->pagecache_misses));
	else if (f->pc)
		evidence_add(&o->c, "The page cache took in %s pages during the run, %s.",
		       fig_cnt((double)f->m->pagecache_misses), f->m->pagecache_misses ?
		       "whose disk reads are counted apart" : f->disk ?
		       "and the disk served none of the threads' reads" :
		       "so this is not reading files into the page cache (reads past it, "
		       "O_DIRECT, need the disk group)");
	else
		evidence_add(&o->c, "Page-cache probes were off (%u probe groups ran): disk reads "
		       "cannot be ruled out.", (unsigned)__builtin_popcount(f->m->groups));
	if (idle_calls_ns(f) * 2 >= b)
		set_fix(o, "The threads waited for input or time: the program went as fast as "
			"what feeds it (its clients, the other end of its sockets, its timers).");
	else
		set_fix(o, "Find what the threads sleep on: the syscall table shows which calls "
			"they slept in, and the kernel lock table or an off-CPU profile "
			"(offcputime) what kept them there.");
	return true;
}

