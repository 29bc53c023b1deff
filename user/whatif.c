/*
 * whatif.c - predict a pool's wall time at other settings from one run.
 *
 * The model. Every operation takes the pool lock (get, then put) for S ns
 * of serial time in all, and spends P ns outside it (the pread, the user
 * code). With uniform access to N files through C channels, a get misses
 * with probability m = max(0, 1 - C/N) once the pool is warm, so
 *
 *     S = m * t_miss + (1 - m) * t_hit
 *
 * Throughput is capped three ways, and the lowest cap wins:
 *     T / (S + P)       T threads, each doing one op per S + P, never waiting
 *     K / (S + P_cpu)   K CPUs, each op needing S + P_cpu of CPU time
 *     1 / S             one holder at a time, however many threads
 * With a warm page cache the time outside the lock is mostly CPU work
 * (copying from the cache), so P_cpu is close to P; a run measures it as
 * its on-CPU time per op less S, or without the kernel view bounds it by
 * what the CPUs had time for, K x wall / ops - S. We work with the time
 * per op, the inverse: max((S + P) / T, (S + P_cpu) / K, S).
 *
 * Left out: the hand-off between holders (wake-up, context switch), a
 * holder preempted inside the lock, and cold caches. Under contention the
 * model is therefore optimistic; the printout shows the gap to the run.
 *
 * fc has no lock: each op costs t_fc of CPU, so its time per op is
 * t_fc / min(T, K), whatever the file count (warm cache).
 */
#include <math.h>
#include "units.h"
#include "whatif.h"

/* The workload's own clocks, summed over the workers. */
struct sums {
	double ops, hits, misses, hold, wait, wall, sc_in_lock;
};

static void sum_rows(const struct run_model *m, struct sums *s)
{
	*s = (struct sums){ 0 };
	for (unsigned i = 0; i < m->nrows; i++) {
		const struct wl_thread_stats *u = &m->rows[i].user;

		s->ops += (double)u->ops;
		s->hits += (double)u->hits;
		s->misses += (double)u->misses;
		s->hold += (double)u->lock_hold_ns;
		s->wait += (double)u->lock_wait_ns;
		s->wall += (double)(u->end_ns - u->start_ns);
		s->sc_in_lock += (double)u->syscalls_in_lock;
	}
}

double whatif_miss_ratio(unsigned pool, unsigned files)
{
	return files <= pool ? 0 : 1 - (double)pool / (double)files;
}

static bool have_syscalls(const struct run_model *m)
{
	return m->kv && (m->groups & PG_MASK(PG_SYSCALLS));
}

/*
 * Time in the stat/open/close calls made inside the lock, by the kernel's
 * syscall table: all of those calls' time, scaled by the share of them the
 * workload says it made holding the lock. -1 without the syscall table.
 */
double whatif_lock_syscall_ns(const struct run_model *m, double in_lock)
{
	static const enum fct_sc kinds[] = { FCT_SC_NEWFSTATAT, FCT_SC_STATX,
					     FCT_SC_OPENAT, FCT_SC_CLOSE };
	double ns = 0, calls = 0;

	if (!have_syscalls(m))
		return -1;
	for (unsigned i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		ns += (double)m->sc_total[kinds[i]].total_ns;
		calls += (double)m->sc_total[kinds[i]].count;
	}
	return calls > 0 ? ns * fmin(1, in_lock / calls) : 0;
}

/*
 * Split the measured hold time into a miss's and a hit's. With the kernel's
 * syscall times: the syscalls go to the misses, the rest is spread over all
 * ops. Without: if misses make syscalls inside the lock, and are at least
 * 1 % of gets, they are taken to dominate and hold all of it (t_hit = 0);
 * otherwise hits and misses are taken to cost the same.
 */
static void fit_lock_times(const struct run_model *m, const struct sums *s,
			   struct whatif_params *p)
{
	double in_sc = whatif_lock_syscall_ns(m, s->sc_in_lock);

	if (in_sc >= 0 && s->misses > 0) {
		p->t_hit_ns = fmax(0, s->hold - in_sc) / s->ops;
		p->t_miss_ns = p->t_hit_ns + in_sc / s->misses;
	} else if (s->sc_in_lock > 0 && s->misses >= 0.01 * (s->hits + s->misses)) {
		p->t_hit_ns = 0;
		p->t_miss_ns = s->hold / s->misses;
		p->split_note = "timing only: a hit's time in the lock taken as 0";
	} else if (s->sc_in_lock > 0) {
		p->t_hit_ns = p->t_miss_ns = s->hold / s->ops;
		p->split_note = "timing only, misses under 1 %: every op taken to hold it alike";
	} else {
		p->t_hit_ns = p->t_miss_ns = s->hold / s->ops;
		p->split_note = "no syscall inside the lock: hits and misses hold it alike";
	}
}

/* fc's op from this run's syscall table: open + close at their mean
 * times, plus this run's own time outside the lock (the pread and the
 * user code). 0 when the table is missing. */
static double fc_from_syscalls(const struct run_model *m, double outside)
{
	const struct fct_sc_stats *o = &m->sc_total[FCT_SC_OPENAT];
	const struct fct_sc_stats *c = &m->sc_total[FCT_SC_CLOSE];

	if (!have_syscalls(m) || !o->count || !c->count)
		return 0;
	return (double)o->total_ns / (double)o->count +
	       (double)c->total_ns / (double)c->count + outside;
}

static unsigned files_read(const struct wl_config *cfg)
{
	return cfg->shared_file ? 1 : cfg->files;
}

/* CPU time per op outside the lock: measured on-CPU time less the lock's
 * with the sched probes, else at most what the CPUs had time for. */
static double outside_cpu_ns(const struct run_model *m, const struct sums *s,
			     const struct whatif_params *p)
{
	double serial = s->hold / s->ops, cpu;

	if (m->kv && (m->groups & PG_MASK(PG_SCHED)))
		cpu = (double)(m->acct_total_ns[ACCT_CPU_USER] + m->acct_total_ns[ACCT_CPU_SYS]) /
		      s->ops - serial;
	else
		cpu = p->ncpus * (double)m->wall_ns / s->ops - serial;
	return fmin(fmax(cpu, 0), p->t_outside_ns);
}

int whatif_from_model(const struct run_model *m, struct whatif_params *p)
{
	struct sums s;
	double runq;

	*p = (struct whatif_params){ 0 };
	if (!m->res || !m->res->totals.has_pool || !m->nrows)
		return -1;
	sum_rows(m, &s);
	if (s.ops <= 0 || s.hits + s.misses <= 0)
		return -1;
	fit_lock_times(m, &s, p);
	runq = m->kv && (m->groups & PG_MASK(PG_SCHED)) ? (double)m->acct_total_ns[ACCT_RUNQ] : 0;
	p->t_outside_ns = fmax(0, s.wall - s.wait - s.hold - runq) / s.ops;
	p->ncpus = m->ncpus ? m->ncpus : 1;
	p->t_outside_cpu_ns = outside_cpu_ns(m, &s, p);
	p->t_fc_ns = fc_from_syscalls(m, p->t_outside_ns);
	p->fc_source = p->t_fc_ns > 0 ? "the syscall table" : NULL;
	p->pool = m->res->cfg.pool;
	p->files = files_read(&m->res->cfg);
	p->threads = m->nrows;
	p->ops_per_thread = s.ops / m->nrows;
	p->measured_wall_ns = (double)m->wall_ns;
	p->measured_miss_ratio = s.misses / (s.hits + s.misses);
	return 0;
}

/* One fc op on one CPU: its run's wall time over its ops, times the
 * CPUs the threads could use at once. */
int whatif_set_fc(struct whatif_params *p, const struct run_model *fc)
{
	unsigned k;

	if (!fc->ops || !fc->wall_ns || !fc->nrows)
		return -1;
	k = fc->nrows < fc->ncpus || !fc->ncpus ? fc->nrows : fc->ncpus;
	p->t_fc_ns = (double)k * (double)fc->wall_ns / (double)fc->ops;
	p->fc_source = "an fc run";
	return 0;
}

static double serial_ns(const struct whatif_params *p, unsigned pool, unsigned files)
{
	double m = whatif_miss_ratio(pool, files);

	return m * p->t_miss_ns + (1 - m) * p->t_hit_ns;
}

/* Time per op for the whole process: the inverse of the lowest cap. */
static double pool_ns_per_op(const struct whatif_params *p, double s, unsigned threads)
{
	double cpu = p->t_outside_cpu_ns > 0 ? p->t_outside_cpu_ns : p->t_outside_ns;
	double per = fmax((s + p->t_outside_ns) / threads,
			  (s + cpu) / (p->ncpus ? p->ncpus : 1));

	return fmax(per, s);
}

double whatif_predict_wall_ns(const struct whatif_params *p, unsigned pool,
			      unsigned files, unsigned threads)
{
	if (!threads)
		return 0;
	return threads * p->ops_per_thread *
	       pool_ns_per_op(p, serial_ns(p, pool, files), threads);
}

double whatif_predict_fc_wall_ns(const struct whatif_params *p, unsigned files,
				 unsigned threads)
{
	unsigned k = p->ncpus ? p->ncpus : 1;

	if (!threads)
		return 0;
	return threads * p->ops_per_thread * p->t_fc_ns / (threads < k ? threads : k);
}

/* The pool's wall time only grows with the file count and fc's does not,
 * so the first file count where the pool loses is the crossover. */
int whatif_crossover_files(const struct whatif_params *p, unsigned threads)
{
	double fc;

	if (p->t_fc_ns <= 0 || !threads)
		return -1;
	fc = whatif_predict_fc_wall_ns(p, 1, threads);
	for (unsigned n = 1; n <= WL_MAX_FILES; n++)
		if (whatif_predict_wall_ns(p, p->pool, n, threads) > fc)
			return (int)n;
	return -1;
}

static void print_serial(FILE *f, const struct whatif_params *p)
{
	double m = whatif_miss_ratio(p->pool, p->files), s = serial_ns(p, p->pool, p->files);
	char a[24], b[24], c[24], d[24];

	fprintf(f, "Model: serial time per op = %.2f x %s (miss) + %.2f x %s (hit) = %s inside "
		"the lock, i.e. at most %s ops/s however many threads%s%s%s.\n", m,
		units_ns(a, sizeof(a), p->t_miss_ns), 1 - m, units_ns(b, sizeof(b), p->t_hit_ns),
		units_ns(c, sizeof(c), s), s > 0 ? units_count(d, sizeof(d), 1e9 / s) : "any number of",
		p->split_note ? " (" : "", p->split_note ? p->split_note : "",
		p->split_note ? ")" : "");
}

static void print_prediction(FILE *f, const struct whatif_params *p)
{
	double pred = whatif_predict_wall_ns(p, p->pool, p->files, p->threads);
	char a[24], b[24], c[24];

	fprintf(f, "It predicts %s for %s ops at %u thread%s on %u CPU%s",
		units_ns(a, sizeof(a), pred), units_count(b, sizeof(b), p->threads * p->ops_per_thread),
		p->threads, p->threads == 1 ? "" : "s", p->ncpus, p->ncpus == 1 ? "" : "s");
	if (p->measured_wall_ns > 0 && pred > 0)
		fprintf(f, " (measured %s, %+.0f %%)", units_ns(c, sizeof(c), p->measured_wall_ns),
			100 * (p->measured_wall_ns - pred) / pred);
	if (p->measured_wall_ns > 1.2 * pred && pred > 0)
		fputs(": the model leaves out the hand-off between holders and holders "
		      "preempted inside the lock", f);
	fputs(".\n", f);
}

static void print_crossover(FILE *f, const struct whatif_params *p)
{
	int n = whatif_crossover_files(p, p->threads);
	const char *s = p->threads == 1 ? "" : "s";
	char a[24];

	if (p->t_fc_ns <= 0) {
		fputs("Crossover with fc: not estimated (needs timed open and close calls, or an "
		      "fc run).\n", f);
		return;
	}
	fprintf(f, "Crossover with fc (%s per op on one CPU, from %s): ",
		units_ns(a, sizeof(a), p->t_fc_ns), p->fc_source ? p->fc_source : "the caller");
	if (n == 1)
		fprintf(f, "fc predicted faster at every file count for %u thread%s.\n",
			p->threads, s);
	else if (n > 0)
		fprintf(f, "predicted at %d files for %u thread%s (pool %u).\n", n, p->threads, s,
			p->pool);
	else
		fprintf(f, "none up to %d files for %u thread%s.\n", WL_MAX_FILES, p->threads, s);
}

void whatif_print(FILE *f, const struct whatif_params *p)
{
	print_serial(f, p);
	print_prediction(f, p);
	print_crossover(f, p);
}
