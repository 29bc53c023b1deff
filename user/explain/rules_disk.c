/*
 * rules_disk.c - reads the disk served past the page cache: files open
 * O_DIRECT (a database's buffer pool reads its pages so), reads that add
 * nothing to the page cache and so are no page-cache miss. Without this
 * rule their sleep reads as "page cache 100 % hits (no I/O)".
 */
#include <math.h>
#include <stdio.h>
#include "base/units.h"
#include "explain/held.h"
#include "explain/rules_int.h"
#include "explain/words.h"

#define PAGE_BYTES	4096.0
#define DISK_SATURATED	0.9	/* busy this share of the window: the disk is the limit */

/* The share of the bytes the threads read from the disk that did not go
 * into the page cache: what the disk read less the pages the cache took
 * in (readahead included). Without the page-cache group, pread64's pages
 * from O_DIRECT files are the only sign. */
static double past_cache_share(const struct facts *f)
{
	double into_cache = (double)f->m->pagecache_misses * PAGE_BYTES;

	if (!f->disk || f->disk_read_bytes <= 0)
		return 0;
	if (f->pc)
		return f->disk_read_bytes > into_cache ?
		       1 - into_cache / f->disk_read_bytes : 0;
	return fmin(1, f->pages_direct * PAGE_BYTES / f->disk_read_bytes);
}

/* What the reads past the page cache cost the threads. A synchronous
 * read waits in D state from the submission to the wake-up after the
 * completion, longer than the device has it in flight: their share of the
 * uninterruptible sleep less the durable writes', as the page-cache rule
 * counts its misses. A thread that waits for its reads' completions
 * (io_uring_enter, io_getevents) sleeps interruptibly: there, the time it
 * had one in flight, held to its sleep. Without the scheduler's view, the
 * time in flight. 0 under the floor: the page-cache and sleep rules leave
 * it out of theirs when this rule names it. */
double disk_direct_ns(const struct facts *f)
{
	double share = past_cache_share(f), flight = f->disk_read_ns * share, ns = flight;

	if (f->sched) {
		double asleep = (double)f->m->acct_total_ns[ACCT_BLOCKED] - f->stopped;

		ns = fmax((f->blocked_io - durable_ns(f)) * share, fmin(flight, asleep));
	}
	return fig_ratio(ns, f->wall) >= EXPLAIN_MIN_SHARE ? ns : 0;
}

/* The disk that served the most reads (the program's are among them). */
static const struct disk_dev_row *busiest_disk(const struct disk_run *d)
{
	const struct disk_dev_row *best = NULL;

	for (int i = 0; i < d->ndevs; i++)
		if (!best || d->dev[i].reads > best->reads)
			best = &d->dev[i];
	return best;
}

static void ev_reads(struct diag_cause *c, const struct facts *f)
{
	char size[24];

	units_bytes(size, sizeof(size), fig_ratio(f->disk_read_bytes, f->disk_reads));
	cause_fig(c, "disk_reads", f->disk_reads);
	cause_fig(c, "read_each_bytes", fig_ratio(f->disk_read_bytes, f->disk_reads));
	cause_fig(c, "past_cache_share", past_cache_share(f));
	cause_fig(c, "pagecache_pages", (double)f->m->pagecache_misses);
	if (f->sched) {
		cause_fig(c, "asleep_ns", disk_direct_ns(f));
		cause_fig(c, "in_flight_ns", f->disk_read_ns);
	}
	if (f->pages_direct > 0)
		cause_fig(c, "direct_pages", f->pages_direct);
	if (f->m->disk.read_p50_ns) {
		cause_fig(c, "read_p50_ns", (double)f->m->disk.read_p50_ns);
		cause_fig(c, "read_p99_ns", (double)f->m->disk.read_p99_ns);
	}
	evidence_add(c, "The threads caused %s disk reads of %s on average, %s of those bytes "
		     "past the page cache (it took in %s pages).", fig_cnt(f->disk_reads), size,
		     fig_pct(past_cache_share(f)), fig_cnt((double)f->m->pagecache_misses));
	if (f->sched && f->disk_read_ns < disk_direct_ns(f))
		evidence_add(c, "Of the %s they slept on them, the disk had a read of theirs in "
			     "flight %s; the rest is the way to the device and back to the "
			     "thread (submission, the completion's interrupt, the wake-up).",
			     fig_ns(disk_direct_ns(f)), fig_ns(f->disk_read_ns));
	else if (f->sched)
		evidence_add(c, "They slept %s with a read of theirs in flight: waiting for "
			     "completions (io_uring_enter, io_getevents) or in the reads "
			     "themselves.", fig_ns(disk_direct_ns(f)));
	if (f->pages_direct > 0)
		evidence_add(c, "pread64 read %s pages from files open O_DIRECT: each of them a "
			     "disk read, never a page-cache hit.", fig_cnt(f->pages_direct));
	if (f->m->disk.read_p50_ns)
		evidence_add(c, "A read took %s at the median and %s at p99 from issue to "
			     "completion (the device's service time).",
			     fig_ns((double)f->m->disk.read_p50_ns),
			     fig_ns((double)f->m->disk.read_p99_ns));
}

/* The block cache the reads are the misses of (the handles group's
 * positional reads, join/caches.h): the process with the most reads. */
static const struct cache_entry *blocks_read(const struct joined_run *m)
{
	const struct cache_entry *best = NULL;

	for (int i = 0; i < m->ncaches; i++)
		if (m->caches[i].kind == CACHE_BLOCKS &&
		    (!best || m->caches[i].accesses > best->accesses))
			best = &m->caches[i];
	return best;
}

/* "Of postgres's 41 k reads, 30 k re-read a block it had read before ..." */
static void ev_rereads(struct diag_cause *c, const struct facts *f)
{
	const struct cache_entry *e = blocks_read(f->m);
	char ws[24];

	if (!e || e->rereads <= 0)
		return;
	units_bytes(ws, sizeof(ws), (double)e->ws_bytes);
	cause_fig(c, "rereads", e->rereads);	/* the rest is in the block cache's entry */
	evidence_add(c, "Of %s's %s positional reads, %s read a block it had read before in the "
		     "run (%s O_DIRECT): its own cache of them keeps less than its working set of "
		     "%s, see its entry in the caches.", e->comm, fig_cnt((double)e->accesses),
		     fig_cnt(e->rereads), fig_cnt((double)e->direct), ws);
}

/* "vda was busy 97 % of the window ...": whether the disk is the limit. */
static double ev_device(struct diag_cause *c, const struct facts *f)
{
	const struct disk_dev_row *d = busiest_disk(&f->m->disk);
	double busy;

	if (!d || !f->m->disk.window_ns)
		return 0;
	busy = fig_ratio((double)d->busy_ns, (double)f->m->disk.window_ns);
	cause_fig(c, "busy_share", busy);
	cause_fig(c, "queue_depth", disk_queue_depth(&f->m->disk, d));
	evidence_add(c, "%s was busy %s of the window with %.1f requests in flight on average "
		     "(%s reads, %s writes by every process).", d->name, fig_pct(busy),
		     disk_queue_depth(&f->m->disk, d), fig_cnt((double)d->reads),
		     fig_cnt((double)d->writes));
	return busy;
}

/* The re-reads block_cache_too_small counts are this time too: said once,
 * there; this cause keeps the rest (first reads, other files). */
static double reads_apart_ns(const struct facts *f, double *rereads)
{
	double ns = disk_direct_ns(f);

	*rereads = fmin(ns, blocks_disk_ns(f));
	return ns - *rereads;
}

bool rule_disk_reads(const struct facts *f, struct finding *o)
{
	double rereads, ns = reads_apart_ns(f, &rereads), busy;

	if (fig_ratio(ns, f->wall) < EXPLAIN_MIN_SHARE)
		return false;
	found(o, "disk_reads", fig_ratio(ns, f->wall), f->pc || f->pages_direct > 0 ? 0.85 : 0.6,
	      COV_DISK | COV_BLOCKED);
	set_title(o, "%s of thread time waiting for disk reads that bypass the page cache%s%s",
		  fig_pct(fig_ratio(ns, f->wall)), f->pages_direct > 0 ? " (files open O_DIRECT)" : "",
		  rereads > 0 ? ", besides the re-reads of the block cache's cause" : "");
	ev_reads(&o->c, f);
	ev_rereads(&o->c, f);
	if (rereads > 0)
		cause_fig(&o->c, "reread_ns", rereads);
	if (rereads > 0)
		evidence_add(&o->c, "Of the %s asleep on these reads, %s were re-reads of blocks read "
			     "before: block_cache_too_small counts them, this cause the rest.",
			     fig_ns(disk_direct_ns(f)), fig_ns(rereads));
	held_disk_link(&o->c, f->m);
	busy = ev_device(&o->c, f);
	if (busy >= DISK_SATURATED)
		set_fix(o, "The disk is the limit (busy %s): keep more of these blocks in memory - "
			"the program's own cache of them (a database's buffer pool) sized toward "
			"its working set, see the caches in the JSON - or a faster disk.",
			fig_pct(busy));
	else
		set_fix(o, "Keep more of these blocks in memory: the program's own cache of them "
			"(a database's buffer pool), sized toward its working set; the disk had "
			"room (busy %s), so more reads in flight at once would also overlap the "
			"waits.", fig_pct(busy));
	return true;
}
