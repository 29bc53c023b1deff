/*
 * sweep.c - run the matrix (workloads x file sets x threads)
 * and keep, per cell, the figures that explain its wall time.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "base/signals.h"
#include "session/sweep.h"

static double share(uint64_t part, uint64_t whole)
{
	return whole ? (double)part / (double)whole : 0;
}

static double mean_accounted(const struct joined_run *m)
{
	double sum = 0;
	unsigned n = 0;

	for (unsigned i = 0; i < m->nrows; i++)
		if (m->rows[i].has_kernel) {
			sum += m->rows[i].accounted_ratio;
			n++;
		}
	return n ? sum / n : 0;
}

static uint64_t own_lock_wait(const struct joined_run *m, uint64_t *in_lock)
{
	uint64_t wait = 0;

	*in_lock = 0;
	for (unsigned i = 0; i < m->nrows; i++) {
		wait += row_own(&m->rows[i])->lock_wait_ns;
		*in_lock += row_own(&m->rows[i])->syscalls_in_lock;
	}
	return wait;
}

const struct sweep_cell *sweep_cell_at(const struct sweep *sw, const char *wl,
				       unsigned files, unsigned threads)
{
	for (unsigned i = 0; i < sw->n; i++)
		if (!strcmp(sw->cells[i].workload, wl) && sw->cells[i].files == files &&
		    sw->cells[i].threads == threads)
			return &sw->cells[i];
	return NULL;
}

void sweep_cell_from(struct sweep_cell *c, const struct session *s)
{
	const struct joined_run *m = &s->joined;
	const struct subject_totals *t = &s->timings.totals;
	uint64_t wall = m->thread_wall_total_ns, in_lock, lock;

	memset(c, 0, sizeof(*c));
	c->workload = s->cfg.workload;
	c->files = s->cfg.files;
	c->threads = s->cfg.threads;
	c->pool = s->cfg.pool;
	c->ncpus = m->ncpus;
	c->has_pool = t->has_pool;
	c->wall_ns = m->wall_ns;
	c->ops = m->ops;
	c->hit_ratio = t->hits + t->misses ? share(t->hits, t->hits + t->misses) : -1;
	lock = own_lock_wait(m, &in_lock);
	c->lock_share = s->traced ? share(m->acct_total_ns[ACCT_LOCK_NAMED], wall) : share(lock, wall);
	c->runq_share = share(m->acct_total_ns[ACCT_RUNQ], wall);
	c->blocked_share = share(m->acct_total_ns[ACCT_BLOCKED], wall);
	c->sys_share = share(m->acct_total_ns[ACCT_CPU_SYS], wall);
	c->user_share = share(m->acct_total_ns[ACCT_CPU_USER], wall);
	c->syscalls_in_lock_per_op = m->ops ? (double)in_lock / (double)m->ops : 0;
	c->accounted_ratio = mean_accounted(m);
	c->openat = m->nr_total[__NR_openat].count;
	c->close = m->nr_total[__NR_close].count;
	c->stat = m->nr_total[__NR_newfstatat].count + m->nr_total[__NR_statx].count;
	if (s->diag.n)
		snprintf(c->top_cause, sizeof(c->top_cause), "%s", s->diag.causes[0].cause);
	c->has_wi = s->diag.has_whatif;
	if (c->has_wi)
		c->wi = s->diag.whatif;
	c->traced = s->traced;
	c->interrupted = s->interrupted;
}

static void progress(const struct sweep_settings *o, unsigned done, unsigned total,
		     const struct wl_config *cfg)
{
	if (o->quiet || !isatty(STDERR_FILENO))
		return;
	fprintf(stderr, "\r\033[Ksweep %u/%u: %s, %u files, %u threads", done + 1, total,
		cfg->workload, cfg->files, cfg->threads);
	if (done + 1 == total)
		fputc('\n', stderr);
}

/* A later round's run of a cell: its wall joins the cell's mean. */
static void add_round(struct sweep_cell *c, const struct session *s)
{
	uint64_t sum = 0;

	c->run_wall_ns[c->runs++] = s->joined.wall_ns;
	for (unsigned i = 0; i < c->runs; i++)
		sum += c->run_wall_ns[i];
	c->wall_ns = sum / c->runs;
	c->interrupted |= s->interrupted;
}

/* A cell joins the sweep only with results: a refused or failed one is
 * left out of every table and file, not reported as a half-filled cell.
 * The first round fills the cell; later rounds only add their walls. */
static int run_cell(const struct sweep_settings *o, struct wl_config *cfg, struct sweep *sw,
		    unsigned round)
{
	struct session s;
	int rc = session_run(&o->trace, cfg, &s);
	struct sweep_cell *c;

	if (!rc && !round) {
		c = &sw->cells[sw->n++];
		sweep_cell_from(c, &s);
		c->run_wall_ns[0] = c->wall_ns;
		c->runs = 1;
	} else if (!rc) {
		c = (struct sweep_cell *)sweep_cell_at(sw, cfg->workload, cfg->files, cfg->threads);
		if (c)
			add_round(c, &s);
	}
	session_free(&s);
	return rc;
}

static int run_round(const struct sweep_settings *o, struct sweep *sw, unsigned round)
{
	struct wl_config cfg = o->wl;
	unsigned total = o->nworkloads * o->files.n * o->threads.n, done = 0;
	int rc = 0;

	for (unsigned w = 0; w < o->nworkloads; w++)
		for (unsigned f = 0; f < o->files.n; f++)
			for (unsigned t = 0; t < o->threads.n && !rc; t++) {
				if (signals_caught())
					return rc;
				cfg.workload = o->workloads[w];
				cfg.files = (unsigned)o->files.v[f];
				cfg.threads = (unsigned)o->threads.v[t];
				progress(o, round * total + done++, total * o->repeat, &cfg);
				rc = run_cell(o, &cfg, sw, round);
			}
	return rc;
}

int sweep_run(const struct sweep_settings *o, struct sweep *sw)
{
	unsigned total = o->nworkloads * o->files.n * o->threads.n;
	int rc = 0;

	memset(sw, 0, sizeof(*sw));
	sw->set = *o;
	sw->total = total;
	sw->cells = calloc(total, sizeof(*sw->cells));
	if (!sw->cells)
		return 1;
	/* whole rounds, not each cell N times in a row: the machine's drift
	 * over minutes then shows in the noise, as it does in the model's
	 * error */
	for (unsigned r = 0; r < (o->repeat ? o->repeat : 1) && !rc && !signals_caught(); r++)
		rc = run_round(o, sw, r);
	/* a signal stops the cell it lands in and skips the rest */
	sw->interrupted = signals_caught() != 0;
	return sw->interrupted ? signals_exit_code() : rc;
}

void sweep_free(struct sweep *sw)
{
	free(sw->cells);
	sw->cells = NULL;
	sw->n = 0;
}
