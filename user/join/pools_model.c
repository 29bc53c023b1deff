/*
 * pools_model.c - what another capacity or thread count would give a
 * pool (pools.h): the threads' cycle as a finite-source queue (the
 * machine-repair model): t threads each spend z outside the pool, then
 * queue for one of n items, each held h. Its stationary distribution of
 * k threads at the pool (holding or queued),
 *     p(k) ~ t!/(t-k)! / (min(k,n)! n^max(k-n,0)) (h/z)^k,
 * gives the items given back per second, X = E[min(k, n)] / h, exact for
 * exponential holds and close for others. The CPUs bound it as well: no
 * more than ncpus / cpu items a second when each costs cpu ns on one.
 * Predictions are ratios to the model at the measured point, times the
 * measured wall: what the model gets wrong there cancels.
 */
#include <math.h>
#include <sys/syscall.h>
#include "join/join.h"
#include "join/pools.h"

/* The finite-source queue with t threads: the items given back per
 * second, and the chance that all n items are busy (*full). Threads at
 * the pool, k = 0..t, in logs (t up to a few thousand). */
static double finite_source(double n, unsigned t, double h, double z, double *full)
{
	double logp = 0, top = 0, busy = 0, all = 0, over = 0, r;
	static double lp[4097];

	if (t > 4096)
		t = 4096;
	if (z < h * 1e-3)
		z = h * 1e-3;	/* no time outside: all queue, n busy */
	r = log(h / z);
	lp[0] = 0;
	for (unsigned k = 1; k <= t; k++) {
		double serving = (double)k < n ? (double)k : n;

		logp += log((double)(t - k + 1)) - log(serving) + r;
		lp[k] = logp;
		if (logp > top)
			top = logp;
	}
	for (unsigned k = 0; k <= t; k++) {
		double p = exp(lp[k] - top);

		busy += p * ((double)k < n ? (double)k : n);
		all += p;
		if ((double)k >= n)
			over += p;
	}
	if (full)
		*full = over / all;
	return busy / all / h;
}

static double finite_source_rate(double n, unsigned t, double h, double z)
{
	return finite_source(n, t, h, z, NULL);
}

/* The share of takes that wait: a thread that arrives sees the pool as
 * the other t - 1 threads keep it (the arrival theorem), and waits when
 * all n items are busy. */
static double wait_chance(double n, unsigned t, double h, double z)
{
	double full = 0;

	if (t < 2)
		return 0;
	finite_source(n, t - 1, h, z, &full);
	return full;
}

double pool_rate(double n, double t, double h, double z, double cpu, unsigned ncpus)
{
	double x;

	if (h <= 0 || t < 1 || n < 1)
		return 0;
	x = finite_source_rate(n, (unsigned)lround(t), h, z);
	if (cpu > 0 && ncpus && x > ncpus / cpu)
		x = ncpus / cpu;
	return x;
}

/* On CPU in futex calls: inside its waits (sleeping and waking up), and
 * in the wakes, whose time is the calls' less the waits' (every futex
 * call is timed). */
double pool_futex_cpu(const struct fct_thread *k)
{
	double calls = (double)acct_nr(k, __NR_futex)->total_ns;
	double waits = (double)(k->futex_off_ns + k->futex_on_ns);

	return (double)k->futex_on_ns + (calls > waits ? calls - waits : 0);
}

/* The hold as it would run alone: its own work (on CPU, asleep), without
 * the run queue and the waits for other locks that contention adds. */
static double hold_uncontended(const struct pool_row *p)
{
	double h = p->state_ns[HS_USER] + p->state_ns[HS_SYSCALL] + p->state_ns[HS_BLOCKED];

	return h > 0 ? h : p->hold_ns;
}

/* The capacity the model uses: the measured one, else Little's estimate
 * (a CPU-bound run's, which its thread what-ifs hardly depend on). */
static double model_capacity(const struct pool_row *p)
{
	if (p->capacity)
		return (double)p->capacity;
	return p->capacity_est > 2 ? round(p->capacity_est) : 2;
}

/* On CPU per item with n items and t threads: the queue's waits and
 * wakes cost CPU (queue_cpu_ns at the run's share of takes that waited),
 * and fewer waits cost less of it. */
static double cpu_at(const struct pool_row *p, double n, double t, double h, double z)
{
	double now = wait_chance(model_capacity(p), p->threads, h, z), then;

	if (p->queue_cpu_ns <= 0 || now <= 0)
		return p->cpu_ns;
	then = wait_chance(n, (unsigned)lround(t), h, z);
	return p->cpu_ns - p->queue_cpu_ns * (1 - (then < now ? then / now : 1));
}

static double predicted_wall(const struct pool_row *p, double n, double t)
{
	double h = hold_uncontended(p), z = p->outside_ns;
	double now = pool_rate(model_capacity(p), p->threads, h, z, p->cpu_ns, p->ncpus);
	double cpu = cpu_at(p, n, t, h, z);
	/* a hold read off the threads not queued (PC_NOT_QUEUED) holds the
	 * waits' wake-ups and the wakes too: what fewer waits save is its
	 * time as well; a hold seen from wake-up to wake has none of it */
	double h_then = p->how == PC_NOT_QUEUED ? h - (p->cpu_ns - cpu) : h;
	double then = pool_rate(n, t, h_then, z, cpu, p->ncpus);

	return then > 0 ? p->window_ns * now / then : 0;
}

static void add(struct pool_row *p, unsigned n, unsigned t)
{
	struct pool_whatif *w;

	if (!t || p->nwhatif >= POOL_WHATIF_MAX)
		return;
	for (int i = 0; i < p->nwhatif; i++)
		if (p->whatif[i].capacity == n && p->whatif[i].threads == t)
			return;
	w = &p->whatif[p->nwhatif++];
	w->capacity = n;
	w->threads = t;
	w->wall_ns = predicted_wall(p, n ? (double)n : model_capacity(p), t);
}

void pool_whatifs(struct pool_row *p)
{
	unsigned n = (unsigned)model_capacity(p), t = p->threads, ncpus = p->ncpus;

	p->nwhatif = 0;
	if (!n || !t)
		return;
	if (!p->capacity) {	/* not measured: fewer threads only (capacity 0) */
		add(p, 0, ncpus);
		add(p, 0, 2 * ncpus);
		add(p, 0, t / 2);
		return;
	}
	/* other capacities, the threads as they were */
	add(p, n, t);
	add(p, 2 * n, t);
	add(p, 4 * n, t);
	add(p, t, t);
	add(p, pool_capacity_enough(p), t);
	/* fewer threads, the capacity as it was */
	add(p, n, ncpus);
	add(p, n, n);
	add(p, n, t / 2);
}

bool pool_cpu_bound(const struct pool_row *p)
{
	unsigned t = p->threads;
	double x;

	if (!t || p->cpu_ns <= 0 || !p->ncpus || hold_uncontended(p) <= 0)
		return false;
	x = finite_source_rate(model_capacity(p), t, hold_uncontended(p), p->outside_ns);
	return x >= p->ncpus / p->cpu_ns;
}

unsigned pool_capacity_enough(const struct pool_row *p)
{
	unsigned n = (unsigned)model_capacity(p), t = p->threads, top = t < 1024 ? t : 1024;
	double best;

	if (!n || !t || !p->capacity)
		return 0;
	best = predicted_wall(p, (double)top, (double)t);
	for (unsigned c = n; c <= top; c++)
		if (predicted_wall(p, (double)c, (double)t) <= best * 1.1)
			return c;
	return top;
}
