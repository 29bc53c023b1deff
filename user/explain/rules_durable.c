/*
 * rules_durable.c - durable writes: time asleep in fsync, fdatasync,
 * sync_file_range, sync, syncfs and msync, waiting for written data to
 * reach the device (a database's log flush at each commit). Counted per
 * syscall number, asleep inside the call (struct fct_nr_stats). The
 * calls listed are all threads', as the syscall table counts them; the
 * share is of the working threads' time (working.h), and when threads
 * left out of it made some of the calls the evidence says how many.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include "base/sysnames.h"
#include "base/units.h"
#include "explain/rules_int.h"
#include "explain/words.h"

static const int durable_nrs[] = { SYS_fsync, SYS_fdatasync, SYS_sync_file_range, SYS_sync,
				   SYS_syncfs, SYS_msync };
#define NDURABLE (sizeof(durable_nrs) / sizeof(*durable_nrs))

static const struct sc_stats *nr_in(const struct joined_run *m, size_t i)
{
	return &m->nr_total[durable_nrs[i] & (FCT_NR_MAX - 1)];
}

/* Over the working threads: what the share is of. */
static const struct sc_stats *nr_of(const struct facts *f, size_t i)
{
	return nr_in(f->m, i);
}

double durable_ns(const struct facts *f)
{
	double ns = 0;

	if (!f->sched || !f->sc)
		return 0;
	for (size_t i = 0; i < NDURABLE; i++)
		ns += (double)nr_of(f, i)->blocked_ns;
	return ns;
}

/* "9 601 fdatasync calls, 1.04 s asleep" for each kind called, into buf:
 * all threads' calls, the figures of the syscall table. */
void durable_calls(const struct facts *f, char *buf, size_t len)
{
	size_t n = 0;
	char name[24];

	buf[0] = '\0';
	for (size_t i = 0; i < NDURABLE && n < len; i++) {
		const struct sc_stats *s = nr_in(f->whole, i);

		if (!s->count)
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s %s call%s, %s asleep", n ? "; " : "",
				      fig_cnt((double)s->count),
				      syscall_name((unsigned)durable_nrs[i], name, sizeof(name)),
				      fig_plural((double)s->count), fig_ns((double)s->blocked_ns));
	}
}

/* The title's list as figures, by the call's name: "fdatasync_calls",
 * "fdatasync_asleep_ns" (all threads', as durable_calls says them). */
static void durable_figures(struct diag_cause *c, const struct facts *f)
{
	char name[24], key[48];	/* cause_fig keeps 27 */

	for (size_t i = 0; i < NDURABLE; i++) {
		const struct sc_stats *s = nr_in(f->whole, i);

		if (!s->count)
			continue;
		const char *call = syscall_name((unsigned)durable_nrs[i], name, sizeof(name));

		snprintf(key, sizeof(key), "%s_calls", call);
		cause_fig(c, key, (double)s->count);
		snprintf(key, sizeof(key), "%s_asleep_ns", call);
		cause_fig(c, key, (double)s->blocked_ns);
	}
}

static double durable_count(const struct joined_run *m)
{
	double n = 0;

	for (size_t i = 0; i < NDURABLE; i++)
		n += (double)nr_in(m, i)->count;
	return n;
}

/* The calls the share leaves out: made by threads that only waited. */
static void ev_left_out(struct diag_cause *c, const struct facts *f, double calls)
{
	double all = durable_count(f->whole), ns = 0;

	if (all <= calls)
		return;
	for (size_t i = 0; i < NDURABLE; i++)
		ns += (double)nr_in(f->whole, i)->blocked_ns - (double)nr_of(f, i)->blocked_ns;
	cause_fig(c, "left_out_calls", all - calls);
	cause_fig(c, "left_out_asleep_ns", ns);
	evidence_add(c, "Of the %s calls, %s (%s asleep) were made by threads that otherwise "
		     "only waited, whose time the shares leave out; the working threads made %s.",
		     fig_cnt(all), fig_cnt(all - calls), fig_ns(ns), fig_cnt(calls));
}

/* What the disk did for them (the disk group): the writes and cache
 * flushes the threads caused, and the time one of their writes was in
 * flight, against the time they waited. */
static void ev_device_writes(struct diag_cause *c, const struct facts *f, double ns, double calls)
{
	char size[24];

	if (!f->disk)
		return;
	cause_fig(c, "disk_writes", f->disk_writes);
	cause_fig(c, "disk_flushes", f->disk_flushes);
	if (f->disk_writes + f->disk_flushes <= 0) {
		evidence_add(c, "The disk completed no write or flush the threads caused: their "
			     "data was made durable by another thread (a flusher, a log writer).");
		return;
	}
	units_bytes(size, sizeof(size), f->disk_write_bytes);
	cause_fig(c, "disk_write_bytes", f->disk_write_bytes);
	cause_fig(c, "disk_write_ns", f->disk_write_ns);
	cause_fig(c, "write_in_flight_share", fmin(1, fig_ratio(f->disk_write_ns, ns)));
	evidence_add(c, "The threads caused %s disk writes (%s) and %s cache flushes, %s per "
		     "call; a write of theirs was in flight %s, %s of the time they waited.",
		     fig_cnt(f->disk_writes), size, fig_cnt(f->disk_flushes),
		     fig_cnt(fig_ratio(f->disk_writes + f->disk_flushes, calls)),
		     fig_ns(f->disk_write_ns), fig_pct(fmin(1, fig_ratio(f->disk_write_ns, ns))));
}

bool rule_durable_writes(const struct facts *f, struct finding *o)
{
	double ns = durable_ns(f), share = fig_ratio(ns, f->wall), calls = durable_count(f->m);
	char list[240];

	if (share < EXPLAIN_MIN_SHARE)
		return false;
	durable_calls(f, list, sizeof(list));
	found(o, "durable_writes", share, 0.85, COV_BLOCKED);
	durable_figures(&o->c, f);
	cause_fig(&o->c, "durable_calls", calls);
	cause_fig(&o->c, "durable_asleep_ns", ns);
	cause_fig(&o->c, "blocked_io_ns", f->blocked_io);
	set_title(o, "%s of thread time waiting for writes to reach the disk: %s", fig_pct(share),
		  list);
	evidence_add(&o->c, "The %sthreads slept %s inside %s calls that make written data "
		     "durable (%s per call): each returns only once the device has the data.",
		     durable_count(f->whole) > calls ? "working " : "", fig_ns(ns), fig_cnt(calls),
		     fig_ns(fig_ratio(ns, calls)));
	ev_left_out(&o->c, f, calls);
	evidence_add(&o->c, "All their uninterruptible sleep (disk, kernel locks) was %s; these "
		     "calls are counted here, not with the sleeps outside locks.",
		     fig_ns(f->blocked_io));
	ev_device_writes(&o->c, f, ns, calls);
	set_fix(o, "Sync less often or for more at once (one flush for several commits: group "
		"commit), move the log to a faster device, or, where losing the last writes on "
		"a crash is acceptable, do not wait for each flush.");
	return true;
}
