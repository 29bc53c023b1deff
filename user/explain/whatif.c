/*
 * whatif.c - predict the pools' and fc's wall time from one measured run.
 *
 * What an op costs alone. The run's own clocks time every op of a pool,
 * from get to put, apart by whether the get hit or missed; their medians
 * are the uncontended costs H (hit) and M (miss): most ops of even a
 * contended run neither wait nor lose their CPU, so the median is one that
 * did not. The kernel times each syscall from its entry tracepoint to its
 * exit; the user clock around pread less the kernel's pread median is the
 * way in and out, e, added to the kernel's medians of open, close and stat.
 * With uniform access to N files through a pool of C, a get misses with
 * m = 1 - C/N (docs/benchmarks.md, "The workloads": a miss evicts an idle channel), so one op alone costs
 *     C1 = (1 - m) H + m M           fcp and fcp-fixed
 *     C1 = H + open + close          fc: a hit's work and pread, plus the
 *                                    open and close the pool saves
 * and fcp holds its lock m (M - H) per op for the miss's syscalls.
 *
 * Contention. Why not the textbook closed network - the lock a FCFS server,
 * the CPUs a multi-server, solved by mean-value analysis: its bounds were
 * this model's predecessor, and they missed the FileChannelPool
 * benchmark's matrix here by 42 % on average (fcp, 100 files, 2 threads:
 * 687 ms predicted, 2012 ms measured). On this VM a contended lock costs little queueing and a lot
 * of everything else, all measured by the kernel view:
 *  1. CPU. Each futex wait costs its thread and the one that wakes it
 *     W of CPU - two syscalls, two context switches, a CPU woken from
 *     idle, caches refilled - 10-15 us here, several whole fcp ops. The
 *     run above did 13.7 us of CPU per op on 2 CPUs, 6.1 us on 1.
 *  2. Hand-over. When the lock moves to another CPU its data moves too: a
 *     hit's hold grew from 50 to 200-400 ns. The holds are measured per
 *     kind (a get that hit, one that missed, a put) in the fitted run and
 *     used as they are wherever more than one CPU runs; a hit's hold
 *     beyond a put's is its scan of the idle list, which grows with the
 *     channels open, min(files, pool).
 *  3. A convoy. A waiter that sleeps through a miss's syscalls is woken
 *     onto the CPU it last ran on, behind the thread that woke it, while
 *     the other CPU idles (the 2 CPUs share no cache here, so the
 *     scheduler does not look for an idle one: 30-45 % idle at 8 threads).
 *     The lock then sits idle while its one running user is outside it,
 *     for a share g of that time per unit of s, the share of the lock's
 *     busy time spent in holds across syscalls.
 * So, per op, with T threads on K CPUs and U = h / wall:
 *     waits  w  = k (h/C) a n r       a thread that runs beside the holder
 *                                     finds the lock taken for h of its C;
 *                                     a acquisitions per op (2; fcp-fixed
 *                                     2 + m); n threads beside the holder:
 *                                     T - 1 when each has a CPU, else those
 *                                     on CPU at a time (C / wall) less one -
 *                                     well under one in a convoy; r =
 *                                     1/(1-U) when each has a CPU (a woken
 *                                     waiter retries at once and often
 *                                     sleeps again), else 1
 *     CPU    C  = C1 + w W
 *     hold   h  = (1 - m) Hh + m Hm + Hp   fcp (Hh, Hm, Hp: the holds)
 *            h  = (2 + m) Hp              fcp-fixed: its get is O(1) like
 *                                     fcp's put; a miss also registers
 *     wall   = max(C / min(T, K),  h + g s (C - h))
 * with s = m (Hm - Hh) / h for fcp, 0 for fcp-fixed, solved by iteration
 * (U depends on the wall). One CPU: no waits, no convoy - the threads
 * take turns and wall = C1, which is what runs under taskset measured.
 * W, k and g are solved so that the fitted run's measured CPU time,
 * futex waits and wall per op are given back exactly; everything else
 * is predicted. Left out, and seen in the errors
 * (docs/whatif-model.md): one thread alone runs ~10 % faster than the medians of a
 * 2-CPU run say (the other CPU's work evicts shared cache lines), and
 * fewer files read faster (their pages stay in the caches).
 */
#include <json-c/json.h>
#include <math.h>
#include <string.h>
#include <sys/syscall.h>
#include "base/hist.h"
#include "base/units.h"
#include "explain/whatif.h"

static void answer(const struct whatif_params *p, struct whatif_answers *a);

/* misses timed before their median counts as M rather than H + syscalls */
#define WHATIF_MIN_MISSES	32
/* the lock's utilisation is capped here: the 1/(1-U) retries stay finite */
#define WHATIF_MAX_UTIL		0.9
#define WHATIF_ITERATIONS	200

static const char *const kind_names[] = { "fc", "fcp", "fcp-fixed" };

int whatif_kind_of(const char *workload)
{
	for (unsigned k = 0; k < sizeof(kind_names) / sizeof(kind_names[0]); k++)
		if (workload && !strcmp(workload, kind_names[k]))
			return (int)k;
	return -1;
}

const char *whatif_kind_name(enum whatif_kind k)
{
	return kind_names[k];
}

double whatif_miss_ratio(unsigned pool, unsigned files)
{
	return files <= pool ? 0 : 1 - (double)pool / (double)files;
}

static bool have_syscalls(const struct joined_run *m)
{
	return m->kv && (m->groups & PG_MASK(PG_SYSCALLS));
}

double whatif_lock_syscall_ns(const struct joined_run *m, double in_lock)
{
	static const int nrs[] = { __NR_newfstatat, __NR_statx, __NR_openat, __NR_close };
	double ns = 0, calls = 0;

	if (!have_syscalls(m))
		return -1;
	for (unsigned i = 0; i < sizeof(nrs) / sizeof(nrs[0]); i++) {
		ns += (double)m->nr_total[nrs[i]].total_ns;
		calls += (double)m->nr_total[nrs[i]].count;
	}
	return calls > 0 ? ns * fmin(1, in_lock / calls) : 0;
}

/* The kernel's median time of one syscall number, 0 if none was timed. */
static double kernel_median(const struct joined_run *m, int nr)
{
	const struct sc_stats *st = &m->nr_total[nr];

	return st->timed ? hist32_quantile(st->hist, FCT_HIST_SLOTS, 0.5) : 0;
}

/* e and the full costs of open, close and stat; false without them. */
static bool fit_syscalls(const struct joined_run *m, struct whatif_params *p)
{
	double pread = kernel_median(m, __NR_pread64), stat = kernel_median(m, __NR_newfstatat);
	double open = kernel_median(m, __NR_openat), close = kernel_median(m, __NR_close);

	if (!stat)
		stat = kernel_median(m, __NR_statx);
	/* all or none: fc and a miss are costed only from all three */
	if (!have_syscalls(m) || !pread || !m->read_p50_ns || !open || !close || !stat)
		return false;
	p->entry_ns = fmax(0, (double)m->read_p50_ns - pread);
	p->open_ns = open;
	p->close_ns = close;
	p->stat_ns = stat;
	p->open_ns += p->entry_ns;
	p->close_ns += p->entry_ns;
	p->stat_ns += p->entry_ns;
	return true;
}

/* The workload's lock: the named user lock waited on most, by the kernel. */
static double lock_waits(const struct joined_run *m)
{
	uint64_t most = 0;

	for (int i = 0; i < m->nlocks; i++)
		if (!m->locks[i].kernel && m->locks[i].is_lock && m->locks[i].waits > most)
			most = m->locks[i].waits;
	return (double)most;
}

/* The run's measured figures, per op. */
static void fit_observed(const struct joined_run *m, struct whatif_params *p)
{
	double ops = (double)m->ops, hold = 0, acq = 0, hits = 0, misses = 0;

	for (unsigned i = 0; i < m->nrows; i++) {
		const struct thread_timings *u = row_own(&m->rows[i]);

		hold += (double)u->lock_hold_ns;
		acq += (double)u->lock_acquires;
		hits += (double)u->hits;
		misses += (double)u->misses;
	}
	p->hold_per_op = hold / ops;
	p->acquires_per_op = acq / ops;
	p->miss_ratio = hits + misses > 0 ? misses / (hits + misses) : 0;
	p->waits_per_op = lock_waits(m) / ops;
	p->cpu_per_op = m->kv && (m->groups & PG_MASK(PG_SCHED)) ?
		(double)(m->acct_total_ns[ACCT_CPU_USER] + m->acct_total_ns[ACCT_CPU_SYS]) / ops : 0;
	p->wall_ns = (double)m->wall_ns;
	p->ops_per_thread = ops / m->nrows;
	p->have |= misses >= WHATIF_MIN_MISSES && m->op_miss_p50_ns ? WHATIF_HAVE_MISS : 0;
}

/* One op alone; 0 when the run did not measure what it takes. */
static double alone_ns(const struct whatif_params *p, enum whatif_kind k, double miss)
{
	if (k == WHATIF_FC)
		return p->open_ns > 0 ? p->hit_ns + p->open_ns + p->close_ns : 0;
	if (miss > 0 && p->miss_ns <= 0)
		return 0;
	return (1 - miss) * p->hit_ns + miss * p->miss_ns;
}

/* fcp holds its lock through a miss's syscalls; fcp-fixed does not. */
static double syscall_hold_ns(const struct whatif_params *p, enum whatif_kind k, double miss)
{
	return k == WHATIF_POOL ? miss * (p->miss_ns - p->hit_ns) : 0;
}

static double retries(unsigned threads, unsigned ncpus, double util)
{
	return threads <= ncpus ? 1 / (1 - util) : 1;
}

/*
 * How many threads run beside the holder and can find the lock taken:
 * with a CPU each, all the others; with more threads than CPUs, those on
 * CPU at a time (cpu / wall per op) less the holder - in a convoy well
 * under one.
 */
static double others_running(unsigned threads, unsigned ncpus, double cpu, double wall)
{
	if (threads <= ncpus)
		return threads - 1;
	return fmin(ncpus, fmax(1, cpu / wall)) - 1;
}

static double open_channels(const struct whatif_cell *c)
{
	return c->files < c->pool ? c->files : c->pool;
}

static double open_channels_fitted(const struct whatif_params *p)
{
	struct whatif_cell c = whatif_fitted_cell(p);

	return fmax(1, open_channels(&c));
}

/* The lock's hold per op with more than one CPU: as measured, per kind. */
static double contended_hold_ns(const struct whatif_params *p, const struct whatif_cell *c,
				double miss)
{
	enum whatif_kind k = c->kind;

	if (k == WHATIF_POOL) {
		/* a hit scans the idle list: its hold beyond a put's grows
		 * with the channels open, min(files, pool) */
		double scan = fmax(0, p->hold_hit_ns - p->hold_put_ns) *
			      open_channels(c) / open_channels_fitted(p);

		return (1 - miss) * (p->hold_put_ns + scan) + miss * p->hold_miss_ns +
		       p->hold_put_ns;
	}
	/* fcp-fixed's get does O(1) work under the lock, like fcp's put, not
	 * fcp's scan of the idle list; a miss registers its channel too */
	return (2 + miss) * p->hold_put_ns;
}

/* Of the lock's busy time, the share in holds across syscalls. */
static double syscall_share(const struct whatif_params *p, enum whatif_kind k, double miss,
			    double hold)
{
	if (k != WHATIF_POOL || hold <= 0)
		return 0;
	return fmax(0, miss * (p->hold_miss_ns - p->hold_hit_ns) / hold);
}

/*
 * Solve W, k and g from the run: its CPU per op beyond C1 is waits x W;
 * its waits give k; its wall beyond what the CPUs bound it to gives g. A
 * run on one CPU, with one thread, or without the scheduler's view leaves
 * W and k at 0 and g at 1 (the worst case): its predictions of
 * contention are then a bound.
 */
static void fit_contention(struct whatif_params *p)
{
	double miss = p->miss_ratio, c1 = alone_ns(p, p->kind, miss);
	double wall = p->wall_ns / (p->ops_per_thread * p->threads), hold = p->hold_per_op;
	double util = fmin(WHATIF_MAX_UTIL, hold / wall), s = syscall_share(p, p->kind, miss, hold);
	double others = others_running(p->threads, p->ncpus, p->cpu_per_op, wall);

	p->idle_share = 1;
	if (p->threads < 2 || p->ncpus < 2 || !p->cpu_per_op || !p->acquires_per_op || !hold ||
	    c1 <= 0)
		return;
	p->have |= WHATIF_HAVE_CONTENTION;
	if (p->waits_per_op > 0 && others > 0) {
		p->wait_cpu_ns = fmax(0, (p->cpu_per_op - c1) / p->waits_per_op);
		p->wait_rate = p->waits_per_op / (hold / p->cpu_per_op * p->acquires_per_op * others *
						  retries(p->threads, p->ncpus, util));
	}
	if (s > 0 && p->cpu_per_op > hold) {
		p->idle_share = fmin(1, fmax(0, (wall - hold) / (s * (p->cpu_per_op - hold))));
		p->have |= WHATIF_HAVE_IDLE;
	}
}

/*
 * One thread alone, from the calibration runs. A miss alone that was not
 * measured (a shared file) is the contended miss scaled as the hit was.
 * After fit_contention: the contention terms are solved from the run's
 * own costs, which are what its ops paid.
 */
static void fit_solo(const struct joined_run *m, struct whatif_params *p)
{
	const struct solo_costs *s = &m->timings->solo;

	if (!s->hit_ns || !s->fc_ns)
		return;
	p->solo_hit_ns = (double)s->hit_ns;
	p->solo_fc_ns = (double)s->fc_ns;
	p->solo_miss_ns = s->miss_ns ? (double)s->miss_ns : p->miss_ns * p->solo_hit_ns / p->hit_ns;
	p->have |= WHATIF_HAVE_SOLO;
}

int whatif_from_model(const struct joined_run *m, struct whatif_params *p)
{
	enum pool_shape shape = m->timings ? m->timings->cfg.pool_shape : POOL_SHAPE_UNKNOWN;
	int kind = shape == POOL_MISS_IN_LOCK ? WHATIF_POOL :
		   shape == POOL_MISS_OUTSIDE_LOCK ? WHATIF_POOL_FIXED : -1;

	*p = (struct whatif_params){ 0 };
	if (kind < 0)
		return -1;
	if (!m->timings->totals.has_pool || !m->nrows || !m->ops || !m->op_hit_p50_ns)
		return -1;
	p->kind = (enum whatif_kind)kind;
	p->workload = kind_names[kind];
	p->pool = m->timings->cfg.pool;
	p->files = m->timings->cfg.shared_file ? 1 : m->timings->cfg.files;
	p->threads = m->nrows;
	p->ncpus = m->ncpus ? m->ncpus : 1;
	p->hit_ns = (double)m->op_hit_p50_ns;
	p->hold_hit_ns = (double)m->hold_hit_ns;
	p->hold_miss_ns = (double)m->hold_miss_ns;
	p->hold_put_ns = (double)m->hold_put_ns;
	if (fit_syscalls(m, p))
		p->have |= WHATIF_HAVE_SYSCALLS;
	fit_observed(m, p);
	if (p->have & WHATIF_HAVE_MISS)
		p->miss_ns = (double)m->op_miss_p50_ns;
	else if (p->have & WHATIF_HAVE_SYSCALLS)	/* a hit plus its syscalls */
		p->miss_ns = p->hit_ns + p->stat_ns + p->open_ns + p->close_ns;
	/* else unknown: cells that miss are not predicted */
	fit_contention(p);
	fit_solo(m, p);
	answer(p, &p->answers);
	return 0;
}

struct whatif_cell whatif_fitted_cell(const struct whatif_params *p)
{
	return (struct whatif_cell){ p->kind, p->pool, p->files, p->threads, p->ncpus };
}

/* The wall time per op of a pool with more than one thread: iterate
 * wall = max(CPU bound, lock bound) with U from the previous wall. */
static double pool_op_ns(const struct whatif_params *p, const struct whatif_cell *c,
			 double c1, double miss)
{
	unsigned k = c->ncpus, par = c->threads < k ? c->threads : k;
	double acq = c->kind == WHATIF_POOL ? 2 : 2 + miss;	/* get, put; register */
	double h = k > 1 ? contended_hold_ns(p, c, miss) : syscall_hold_ns(p, c->kind, miss);
	double s = syscall_share(p, c->kind, miss, h), wall = c1 / par, cpu = c1;

	for (int i = 0; i < WHATIF_ITERATIONS; i++) {
		double util = fmin(WHATIF_MAX_UTIL, h / wall);
		double waits = p->wait_rate * fmin(1, h / cpu) * acq *
			       others_running(c->threads, k, cpu, wall) * retries(c->threads, k, util);

		cpu = c1 + waits * p->wait_cpu_ns;
		double next = fmax(cpu / par, h + p->idle_share * s * (cpu - h));

		if (fabs(next - wall) < 1e-6 * wall)
			return next;
		wall = 0.5 * (wall + next);	/* damped: U and wall feed each other */
	}
	return wall;
}

/*
 * What an op costs when nothing runs beside it that shares its data: one
 * thread of anything, and fc at any thread count (its threads share no
 * lock). Measured alone where the calibration ran, else the run's own.
 */
static double solo_ns(const struct whatif_params *p, enum whatif_kind k, double miss)
{
	if (!(p->have & WHATIF_HAVE_SOLO))
		return alone_ns(p, k, miss);
	if (k == WHATIF_FC)
		return p->solo_fc_ns;
	return (1 - miss) * p->solo_hit_ns + miss * p->solo_miss_ns;
}

double whatif_op_ns(const struct whatif_params *p, const struct whatif_cell *c)
{
	double miss = c->kind == WHATIF_FC ? 0 : whatif_miss_ratio(c->pool, c->files);
	double c1 = alone_ns(p, c->kind, miss);
	unsigned k = c->ncpus ? c->ncpus : 1;
	struct whatif_cell cc = *c;

	if (!c->threads || c1 <= 0)
		return 0;
	if (c->threads == 1)
		return solo_ns(p, c->kind, miss);
	if (c->kind == WHATIF_FC)
		return solo_ns(p, c->kind, miss) / (c->threads < k ? c->threads : k);
	cc.ncpus = k;
	return pool_op_ns(p, &cc, c1, miss);
}

double whatif_wall_ns(const struct whatif_params *p, const struct whatif_cell *c,
		      double ops_per_thread)
{
	return whatif_op_ns(p, c) * ops_per_thread * c->threads;
}

/* The pool's time per op only grows with the file count and fc's does
 * not depend on it, so the first file count where the pool loses is the
 * crossover. */
int whatif_crossover_files(const struct whatif_params *p, unsigned pool, unsigned threads,
			   unsigned ncpus)
{
	struct whatif_cell fc = { WHATIF_FC, pool, 1, threads, ncpus };
	double fc_ns = whatif_op_ns(p, &fc);

	if (fc_ns <= 0)
		return -1;
	for (unsigned n = 1; n <= WHATIF_MAX_FILES; n++) {
		struct whatif_cell c = { WHATIF_POOL, pool, n, threads, ncpus };

		if (whatif_op_ns(p, &c) > fc_ns)
			return (int)n;
	}
	return -1;
}

/* ---- the what-ifs, answered once at the fit ---------------------------- */

enum { WI_POOL_FITS, WI_OTHER_POOL, WI_FC, WI_TWO_THREADS, WI_ONE_CPU, WI_N };

/* What-if i: the fitted run's cell with one setting changed; false when
 * that is the run itself (a pool already as big as its file set) or the
 * model cannot cost it. */
static bool what_if(const struct whatif_params *p, int i, struct whatif_case *out)
{
	struct whatif_cell c = whatif_fitted_cell(p);

	switch (i) {
	case WI_POOL_FITS:
		out->what = "pool_fits_files";
		c.pool = p->files;
		break;
	case WI_OTHER_POOL:
		out->what = p->kind == WHATIF_POOL ? "fcp_fixed" : "fcp";
		c.kind = p->kind == WHATIF_POOL ? WHATIF_POOL_FIXED : WHATIF_POOL;
		break;
	case WI_FC:
		out->what = "fc";
		c.kind = WHATIF_FC;
		break;
	case WI_TWO_THREADS:
		out->what = p->threads == 2 ? "one_thread" : "two_threads";
		c.threads = p->threads == 2 ? 1 : 2;
		break;
	default:
		out->what = p->ncpus == 1 ? "two_cpus" : "one_cpu";
		c.ncpus = p->ncpus == 1 ? 2 : 1;
		break;
	}
	out->cell = c;
	out->wall_ns = whatif_wall_ns(p, &c, p->ops_per_thread);
	return !(i == WI_POOL_FITS && p->files <= p->pool) && whatif_op_ns(p, &c) > 0;
}

static void answer(const struct whatif_params *p, struct whatif_answers *a)
{
	struct whatif_cell self = whatif_fitted_cell(p);

	memset(a, 0, sizeof(*a));
	a->fitted_wall_ns = whatif_wall_ns(p, &self, p->ops_per_thread);
	for (int i = 0; i < WI_N && a->ncases < WHATIF_CASES_MAX; i++)
		if (what_if(p, i, &a->cases[a->ncases]))
			a->ncases++;
	a->crossover_files = whatif_crossover_files(p, p->pool, p->threads, p->ncpus);
	a->crossover_files_one_cpu = whatif_crossover_files(p, p->pool, p->threads, 1);
}
