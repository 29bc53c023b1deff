/*
 * facts.c - the joined run summed once for the rules (rules_int.h), and the
 * small helpers every rule writes its finding with.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "base/sysnames.h"
#include "base/units.h"
#include "explain/held.h"
#include "explain/rules_int.h"
#include "explain/whatif.h"
#include "explain/words.h"

/* ---- small helpers ---------------------------------------------------- */


double kshare(const struct facts *f, enum acct_bucket b)
{
	return fig_ratio((double)f->m->acct_total_ns[b], f->kwall);
}

void set_title(struct finding *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(o->c.title, sizeof(o->c.title), fmt, ap);
	va_end(ap);
}

void set_fix(struct finding *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(o->fix, sizeof(o->fix), fmt, ap);
	va_end(ap);
}

void found(struct finding *o, const char *id, double share, double conf,
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
	const struct thread_timings *u = row_own(r);
	double wall = (double)(r->end_ns - r->start_ns);

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
	f->pages_direct += (double)r->k.pages_direct;
	f->disk_reads += (double)r->disk.reads;
	f->disk_read_bytes += (double)r->disk.read_bytes;
	f->disk_read_ns += (double)r->disk.read_ns;
	f->disk_writes += (double)r->disk.writes;
	f->disk_write_bytes += (double)r->disk.write_bytes;
	f->disk_write_ns += (double)r->disk.write_ns;
	f->disk_flushes += (double)r->disk.flushes;
	if (r->k.runq_total_ns > r->k.runq_ns)
		f->runq_in_wait += (double)(r->k.runq_total_ns - r->k.runq_ns);
}

void facts_init(struct facts *f, const struct joined_run *m)
{
	static const struct subject_timings untimed;
	const struct subject_timings *own = m->timings ? m->timings : &untimed;
	unsigned g;

	memset(f, 0, sizeof(*f));
	f->m = m;
	f->whole = m;
	f->cfg = &own->cfg;
	f->tot = &own->totals;
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
	f->disk = g & PG_MASK(PG_DISK);
	f->ops_counted = m->ops > 0;
	f->file_set = f->cfg->files > 0;
	f->locks_named = join_own_locks(m) > 0 || m->nnames > 0;
}

/* Time blocked on the workload's own locks: the kernel's futex account when
 * the sched probes ran, else the threads' own lock-wait clocks. */
double lock_wait_ns(const struct facts *f)
{
	return f->sched ? (double)f->m->acct_total_ns[ACCT_LOCK_NAMED] : f->lock_wait;
}

double lock_share(const struct facts *f)
{
	return f->sched ? kshare(f, ACCT_LOCK_NAMED) : fig_ratio(f->lock_wait, f->wall);
}

double conf_lock(const struct facts *f)
{
	return f->sc ? 0.9 : f->sched ? 0.75 : 0.6;
}

/* The named user lock with the most wait; *n counts them. */
const struct lock_total *top_lock(const struct joined_run *m, bool kernel, int *n)
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

double sc_mean(const struct joined_run *m, int a, int b)
{
	const struct sc_stats *x = &m->nr_total[a], *y = &m->nr_total[b];

	if (a == b)
		return fig_ratio((double)x->total_ns, (double)x->count);
	return fig_ratio((double)(x->total_ns + y->total_ns), (double)(x->count + y->count));
}

