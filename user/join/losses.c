/*
 * losses.c - the kernel side's loss counters as sentences, each with the
 * printed figures it touches. A full thread table hides whole threads:
 * every per-thread figure, total and cause is of the threads it held. A
 * full futex table loses waits from the lock rows; a full kernel lock
 * table or a failed stack walk loses sites (the threads' totals stay
 * exact, split over the sites that were kept); dropped user stacks leave
 * futex words unnamed; the JVM's tables lose Java threads or monitors;
 * the timeline's drops leave gaps in its lanes. The page cache's per-file
 * table is not printed: its losses touch no figure here.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "join/losses.h"

static struct loss *add(struct losses *o, const char *id, uint64_t count, double kept)
{
	struct loss *l;

	if (!count || o->n >= LOSS_MAX)
		return NULL;
	l = &o->l[o->n++];
	memset(l, 0, sizeof(*l));
	snprintf(l->id, sizeof(l->id), "%s", id);
	l->count = count;
	l->kept = kept < 0 ? 0 : kept > 1 ? 1 : kept;
	return l;
}

static void says(struct loss *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void says(struct loss *l, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(l->says, sizeof(l->says), fmt, ap);
	va_end(ap);
}

/* The figures l touches, a NULL-ended list of JSON keys. */
static void touches(struct loss *l, const char *const *keys)
{
	for (; *keys && l->ntouches < LOSS_MAX_TOUCHES; keys++)
		snprintf(l->touches[l->ntouches++], sizeof(l->touches[0]), "%s", *keys);
}

static double ratio(double a, double b)
{
	return b > 0 ? a / b : 1;
}

static const char *const every_figure[] = { "threads", "syscalls", "locks", "machine_cpu",
	"cpu_split", "diagnosis", "timeline", NULL };

/* "; missing at the end: 4012 w, 4013 w and 970 more" from kv->missing,
 * or "" when none was alive at the end (or the run was saved). */
static void missing_threads(const struct kview *kv, char *out, size_t n)
{
	size_t len;

	out[0] = 0;
	if (!kv->nmissing)
		return;
	snprintf(out, n, "; missing at the end:");
	for (int i = 0; i < kv->nmissing && (len = strlen(out)) < n; i++)
		snprintf(out + len, n - len, " %u %s%s", kv->missing[i].tid, kv->missing[i].comm,
			 i + 1 < kv->nmissing ? "," : "");
	len = strlen(out);
	if (kv->missing_more && len < n)
		snprintf(out + len, n - len, " and %u more", kv->missing_more);
}

/* Whole threads and processes: every figure is of those that were held. */
static void lost_threads(const struct kview *kv, struct losses *o)
{
	double n = kv->nthreads;
	struct loss *l;

	l = add(o, "slot_full", kv->lost.slot_full, ratio(n, n + (double)kv->lost.slot_full));
	if (l) {
		char missing[200];

		missing_threads(kv, missing, sizeof(missing));
		says(l, "%llu of %llu threads not accounted: the thread table held %u at once "
		     "(--max-threads raises it), and every per-thread figure, total and cause is "
		     "of the %d it held%s",
		     (unsigned long long)kv->lost.slot_full,
		     (unsigned long long)(kv->nthreads + kv->lost.slot_full),
		     /* a run saved without its table's size: it held what it kept */
		     kv->slots ? kv->slots : (unsigned)kv->nthreads, kv->nthreads, missing);
		touches(l, every_figure);
	}
	l = add(o, "tgids_full", kv->lost.tgids_full,
		ratio(n, n + (double)kv->lost.tgids_full));
	if (l) {
		says(l, "%llu forked process%s not followed: the process table holds %d live "
		     "processes, and every figure is of the processes it held",
		     (unsigned long long)kv->lost.tgids_full, kv->lost.tgids_full == 1 ? "" : "es",
		     FCT_MAX_TGIDS);
		touches(l, every_figure);
	}
}

/* Futex waits (and wakes) the (thread, word) table had no room for. */
static void lost_futex(const struct kview *kv, struct losses *o)
{
	static const char *const keys[] = { "locks", "threads", "target.lock_names",
		"diagnosis", NULL };
	double kept = 0;
	struct loss *l;

	for (int i = 0; kv->futex && i < kv->nfutex; i++)
		kept += (double)(kv->futex[i].val.waits + kv->futex[i].val.wakes);
	l = add(o, "futex_map_full", kv->lost.futex_map_full,
		ratio(kept, kept + (double)kv->lost.futex_map_full));
	if (!l)
		return;
	says(l, "%llu futex waits and wakes not given to a word: the futex table holds %u "
	     "(thread, word) pairs, so the lock rows count %.0f of them",
	     (unsigned long long)kv->lost.futex_map_full,
	     kv->futex_entries ? kv->futex_entries : FCT_FUTEX_ENTRIES, kept);
	touches(l, keys);
}

/* Kernel lock sites: the threads' totals are exact, the split is not. */
static void lost_klock(const struct kview *kv, struct losses *o)
{
	static const char *const keys[] = { "locks", "kernel_lock_sites", "diagnosis", NULL };
	double waits = 0;
	struct loss *l;

	for (int i = 0; kv->threads && i < kv->nthreads; i++)
		waits += (double)kv->threads[i].klock_waits;
	l = add(o, "klock_map_full", kv->lost.klock_map_full,
		1 - ratio((double)kv->lost.klock_map_full, waits));
	if (l) {
		says(l, "%llu sampled kernel lock waits not given a site: the kernel lock table "
		     "holds %d (thread, lock, stack) entries; each thread's total is exact, its "
		     "split over the sites kept is not",
		     (unsigned long long)kv->lost.klock_map_full, FCT_KLOCK_ENTRIES);
		touches(l, keys);
	}
	l = add(o, "stack_lost", kv->lost.stack_lost,
		1 - ratio((double)kv->lost.stack_lost, waits));
	if (l) {
		says(l, "%llu kernel lock stacks could not be walked: their waits are at a site "
		     "named \"?\"", (unsigned long long)kv->lost.stack_lost);
		touches(l, keys);
	}
}

/* User stacks that name futex words, and the JVM's tables. */
static void lost_names(const struct kview *kv, struct losses *o)
{
	static const char *const names[] = { "target.lock_names", "locks", "diagnosis", NULL };
	static const char *const jvm[] = { "target.jvm", "threads", "locks", "diagnosis", NULL };
	double sampled = 0;
	struct loss *l;

	for (int i = 0; kv->futex && i < kv->nfutex; i++)
		sampled += (double)kv->futex[i].val.sampled;
	l = add(o, "ustack_drops", kv->lost.ustack_drops,
		ratio(sampled, sampled + (double)kv->lost.ustack_drops));
	if (l) {
		says(l, "%llu futex wait stacks dropped (the ring buffer was full): words they "
		     "would have named may be unnamed", (unsigned long long)kv->lost.ustack_drops);
		touches(l, names);
	}
	l = add(o, "flame_stack_drops", kv->lost.flame_stack_drops, 0.9);
	if (l) {
		static const char *const stacks[] = { "stacks", NULL };

		says(l, "%llu stacks of sleeps in syscalls and of cpu-clock samples dropped (the "
		     "ring buffer was full): the flame graph's [blocked in] and cpu parts rest on "
		     "fewer samples, their totals stay exact",
		     (unsigned long long)kv->lost.flame_stack_drops);
		touches(l, stacks);
	}
	l = add(o, "jvm_threads_full", kv->lost.jvm_threads_full, 0.75);
	if (l) {
		says(l, "%llu Java thread events lost: the JVM thread table was full, so some "
		     "threads have no Java name or parks", (unsigned long long)kv->lost.jvm_threads_full);
		touches(l, jvm);
	}
	l = add(o, "jvm_monitors_full", kv->lost.jvm_monitors_full, 0.75);
	if (l) {
		says(l, "%llu Java monitor waits lost: the JVM monitor table was full",
		     (unsigned long long)kv->lost.jvm_monitors_full);
		touches(l, jvm);
	}
}

/* Removals of the target's pages not recorded: re-reads of them count as
 * first reads, and their removers' pages are short. */
static void lost_evict(const struct kview *kv, struct losses *o)
{
	static const char *const evict[] = { "pagecache_evictions", "diagnosis", NULL };
	double n = (double)kv->lost.pc_evict_full;
	struct loss *l = add(o, "pagecache_evict_full", kv->lost.pc_evict_full,
			     ratio((double)kv->evict_global.removed_pages,
				   (double)kv->evict_global.removed_pages + n));

	if (!l)
		return;
	says(l, "%llu page-cache removals not recorded: a table was full (%d files, %d blocks "
	     "of %d pages, %d removers); pages they removed and the target read again count "
	     "as first reads", (unsigned long long)kv->lost.pc_evict_full, FCT_PCEV_FILES,
	     FCT_PCEV_BLOCKS, FCT_PCEV_BLOCK, FCT_PCEV_REMOVERS);
	touches(l, evict);
}

/* Timed calls whose (thread, number) found no room for its histogram:
 * counted and timed, but short in the rows' min, max and percentiles. */
static void lost_sc_hists(const struct kview *kv, struct losses *o)
{
	static const char *const sc[] = { "syscalls", "threads", NULL };
	struct loss *l = add(o, "syscall_hist_full", kv->lost.sc_hist_full, 0.75);

	if (!l)
		return;
	says(l, "%llu timed syscalls not in a histogram: the (thread, syscall) table was full "
	     "(at least %d entries); counts and totals are whole, percentiles short",
	     (unsigned long long)kv->lost.sc_hist_full, FCT_SC_HIST_ENTRIES);
	touches(l, sc);
}

/* Calls of threads past their slots' syscall numbers that found the
 * spilled numbers' table full: not counted at all. */
static void lost_spilled(const struct kview *kv, struct losses *o)
{
	static const char *const sc[] = { "syscalls", "threads", "diagnosis", NULL };
	struct loss *l = add(o, "syscall_spill_full", kv->lost.nr_spill_full, 0.75);

	if (!l)
		return;
	says(l, "%llu syscalls not counted: their threads had called more than %d syscall "
	     "numbers, and the table for the rest (at least %d (thread, number) entries) was "
	     "full; their threads' counts and times are short by them",
	     (unsigned long long)kv->lost.nr_spill_full, FCT_NR_SLOT, FCT_NR_SPILL_ENTRIES);
	touches(l, sc);
}

/* The handles' file stream stopped by the budget (trace/selfcost.h): for
 * good from some point, or for the trial's second. Count: its ms. */
static void lost_files_stream(const struct kview *kv, struct losses *o)
{
	static const char *const caches[] = { "caches", "diagnosis", NULL };
	const struct selfcost_figures *c = &kv->cost;
	double win = (double)c->window_ns;
	uint64_t off = (c->paused_at_ns ? c->window_ns - c->paused_at_ns : c->trial_ns) +
		       c->void_trial_ns;
	struct loss *l;

	if (!kv->cost_measured || !off || win <= 0)
		return;
	l = add(o, "files_stream_stopped", off / 1000000 + 1, 1 - (double)off / win);
	if (!l)
		return;
	if (c->paused_at_ns)
		says(l, "the handles' file stream stopped %.2f s into the %.2f s window: fctrace's cost "
		     "passed its budget of %.3g %% (%.1f %% of the traced CPU, %.1f %% without the "
		     "stream); the caches' figures are of the first %.2f s",
		     (double)c->paused_at_ns / 1e9, win / 1e9, 100 * c->budget,
		     100 * c->with_files_share, 100 * c->without_files_share,
		     (double)c->paused_at_ns / 1e9);
	else if (c->trial_ns)
		says(l, "the handles' file stream stopped for %.2f s to measure its cost against the "
		     "budget (%.3g %%: %.1f %% with it, %.1f %% without, so it went on); the caches' "
		     "figures miss that span", (double)off / 1e9, 100 * c->budget,
		     100 * c->with_files_share, 100 * c->without_files_share);
	else
		says(l, "the handles' file stream stopped for %.2f s to measure its cost against the "
		     "budget (%.3g %%: %.1f %% with it; the traced processes ran too little without "
		     "it to tell, so it went on); the caches' figures miss that span",
		     (double)off / 1e9, 100 * c->budget, 100 * c->with_files_share);
	touches(l, caches);
}

/* What a probe group's skipped runs leave short, as JSON keys. */
static const char *const *skipped_touch(enum probe_group g)
{
	static const char *const disk[] = { "disk", "diagnosis", NULL };
	static const char *const calls[] = { "syscalls", "threads", "locks", "caches",
					     "diagnosis", NULL };
	static const char *const klock[] = { "kernel_lock_sites", "diagnosis", NULL };
	static const char *const rest[] = { "threads", "diagnosis", NULL };

	return g == PG_DISK ? disk : g == PG_SYSCALLS || g == PG_HANDLES ? calls :
	       g == PG_KLOCK ? klock : rest;
}

/* Runs the kernel skipped (trace/probes.h): counted per program, said
 * with the one that skipped most and how many programs skipped any. */
static void lost_skipped(const struct kview *kv, struct losses *o)
{
	const struct probe_status *top = NULL;
	double runs = 0;
	int nprogs = 0;
	struct loss *l;

	for (int i = 0; i < kv->nprobes; i++) {
		nprogs += kv->probes[i].skipped > 0;
		runs += (double)kv->probes[i].runs;
		if (kv->probes[i].skipped && (!top || kv->probes[i].skipped > top->skipped))
			top = &kv->probes[i];
	}
	/* kept: of the runs the statistics saw, where they were on */
	l = add(o, "hooks_skipped", kv->lost.hooks_skipped,
		runs > 0 ? ratio(runs, runs + (double)kv->lost.hooks_skipped) : 0.9);
	if (!l)
		return;
	if (!top) {	/* read back from a saved run: the total alone */
		says(l, "%llu runs of fctrace's programs skipped by the kernel (a hook hit again "
		     "on a CPU where its program was still at work): their events are not counted",
		     (unsigned long long)kv->lost.hooks_skipped);
		touches(l, every_figure);
		return;
	}
	says(l, "%llu runs of fctrace's programs skipped by the kernel, %llu of them of %s%s: "
	     "an interrupt on a CPU where the program was still at work hit the same hook, and "
	     "the kernel does not run a program inside itself; the events those runs would "
	     "have counted are missing", (unsigned long long)kv->lost.hooks_skipped,
	     (unsigned long long)top->skipped, top->name,
	     nprogs > 1 ? " (and of other programs)" : "");
	touches(l, nprogs > 1 ? every_figure : skipped_touch(top->group));
}

void losses_find(const struct kview *kv, struct losses *o)
{
	static const char *const timeline[] = { "timeline", NULL };
	struct loss *l;

	memset(o, 0, sizeof(*o));
	if (!kv)
		return;
	lost_threads(kv, o);
	lost_futex(kv, o);
	lost_klock(kv, o);
	lost_names(kv, o);
	l = add(o, "pagecache_map_full", kv->lost.pc_map_full, 1);
	if (l)
		says(l, "%llu page-cache additions not given a file: the per-file table holds %d "
		     "(thread, file) pairs; the per-thread page counts printed are exact",
		     (unsigned long long)kv->lost.pc_map_full, FCT_PC_ENTRIES);
	lost_evict(kv, o);
	lost_sc_hists(kv, o);
	lost_spilled(kv, o);
	lost_files_stream(kv, o);
	lost_skipped(kv, o);
	l = add(o, "handles_drops", kv->fu_drops,
		ratio((double)kv->fu_sent, (double)(kv->fu_sent + kv->fu_drops)));
	if (l) {
		static const char *const caches[] = { "caches", "diagnosis", NULL };

		says(l, "%llu events of the handles' stream lost (its ring buffer was full): the "
		     "caches' accesses, misses and curves are short by that many of %llu",
		     (unsigned long long)kv->fu_drops,
		     (unsigned long long)(kv->fu_sent + kv->fu_drops));
		touches(l, caches);
	}
	l = add(o, "wake_after_full", kv->lost.wake_after_full, 0.9);
	if (l) {
		static const char *const locks[] = { "locks", NULL };

		says(l, "%llu futex wakes not joined to the call their thread made before them "
		     "(the wakers' table holds %d entries): the locks' wakers are short by that many",
		     (unsigned long long)kv->lost.wake_after_full, FCT_WAKE_AFTER_ENTRIES);
		touches(l, locks);
	}
	l = add(o, "pool_full", kv->lost.pool_full, 0.9);
	if (l) {
		static const char *const pools[] = { "pools", NULL };

		says(l, "%llu futex waits and wakes on objects the pools' table had no room for "
		     "(it holds %d): those objects' waiters and holds are not counted",
		     (unsigned long long)kv->lost.pool_full, FCT_POOL_ENTRIES);
		touches(l, pools);
	}
	l = add(o, "timeline_drops", kv->tl.dropped, 1);
	if (l) {
		says(l, "%llu timeline records lost (no room in the ring buffer): its lanes have "
		     "gaps", (unsigned long long)kv->tl.dropped);
		touches(l, timeline);
	}
}

bool loss_touches(const struct loss *l, const char *key)
{
	for (int i = 0; i < l->ntouches; i++)
		if (!strcmp(l->touches[i], key))
			return true;
	return false;
}

/* Which figure each cause is built on, by the cause's id. */
static const struct {
	const char *prefix, *key;
} cause_figure[] = {
	{ "kernel_lock", "kernel_lock_sites" },
	{ "jvm_", "target.jvm" },
	{ "pool_lock", "locks" }, { "cache_lock", "locks" }, { "user_lock", "locks" },
	{ "event_wait", "locks" },
	{ "page_cache", "pagecache_evictions" },
};

bool loss_touches_cause(const struct loss *l, const char *cause)
{
	if (loss_touches(l, "syscalls") && loss_touches(l, "diagnosis"))
		return true;	/* whole threads lost: every cause is of those kept */
	for (size_t i = 0; i < sizeof(cause_figure) / sizeof(cause_figure[0]); i++)
		if (!strncmp(cause, cause_figure[i].prefix, strlen(cause_figure[i].prefix)))
			return loss_touches(l, cause_figure[i].key) && loss_touches(l, "diagnosis");
	return false;
}
