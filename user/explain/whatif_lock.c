/*
 * whatif_lock.c - predict a run's wall time with one lock changed, from
 * the run itself (whatif_lock.h).
 *
 * What the holders probes measured: the lock was held H of the window W,
 * part of it (M) in the state the change takes out of the lock - its
 * syscalls, or its holders' preemptions; its waiters waited Wt in all,
 * D of that behind holders in that state, and the hand-off the rest.
 *
 * The change leaves H' = H - M held. How often an acquisition finds the
 * lock taken follows its busy share, so the waits scale by
 *   f = (H' / W') / (H / W)
 * and so do the waiters' time behind the holds that stay and the
 * hand-offs; the waits behind the moved part go: Wt' = (Wt - D) f. The
 * CPU that contention cost (the futex calls' time on CPU: sleeping and
 * waking, switching) scales by f too.
 *
 * The wall is then the largest of three bounds:
 *   threads  (S + Wt') / T        the mean waiter's own time S / T (its
 *                                  window less its waits on the lock and
 *                                  its time queued for a CPU, which the
 *                                  CPUs' bound covers) and its share of
 *                                  the waits left (T: the threads that
 *                                  waited on the lock; a thread that never
 *                                  did, a main thread in a join, gains
 *                                  nothing)
 *   CPUs     C' / min(T, K')      the CPU time the threads need, on the
 *                                  CPUs other processes left them (K' = K
 *                                  less the CPUs' worth the cpu-clock
 *                                  samples found on others: a change in
 *                                  the program does not give it those);
 *                                  with holders never preempted, the lock's
 *                                  threads' CPU only, on all K CPUs (their
 *                                  path goes first, as a real-time
 *                                  priority would put it; the others take
 *                                  what is left)
 *   lock     H'                   the lock's holds, one at a time
 *   thread   max own              one thread's own work, on CPU or asleep
 *                                  outside futex waits (a holder's sleep
 *                                  moved out of the lock is still slept)
 * with f solved by iterating (W' appears in it). W is the waiters' span
 * (the first one's start to the last one's end): the rest of the window,
 * a JVM's start-up and exit say, is added back unchanged. Moving syscalls out of
 * the lock does not remove them: they still take CPU and time, outside.
 * With nothing changed the bounds give back about W (the threads' own
 * time when they seldom queue for a CPU, the CPUs' bound when they do):
 * the model is fitted to the run it predicts from, and says which bound
 * sets the answer.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include "explain/whatif_lock.h"

static const char *const change_names[LC_N] = {
	[LC_SYSCALLS_OUTSIDE] = "syscalls_outside", [LC_NO_PREEMPTION] = "no_preemption",
};

const char *lock_change_name(enum lock_change c)
{
	return c < LC_N ? change_names[c] : "?";
}

/* The run's threads and their CPU in the waiters' span (a thread's CPU
 * taken as spread over its window), all of it and the futex calls' part;
 * and the waiters' own time: their windows less their waits on the lock
 * and their time in the run queue. */
struct run_cpu {
	double threads, cpu_ns, futex_cpu_ns;
	double waiters, waiter_own_ns;
	double longest_own_ns;	/* one thread's own work: on CPU and asleep outside futex waits */
	/* the same three over the threads that waited on the lock */
	double lock_cpu_ns, lock_futex_cpu_ns, lock_longest_own_ns;
	uint64_t span_start, span_end;	/* from the first waiter's start to the last's end */
};

/* Thread r's waits on the lock named name. */
static double waits_on(const struct thread_row *r, const char *name)
{
	for (int i = 0; i < r->nlocks; i++)
		if (!strcmp(r->locks[i].name, name))
			return (double)r->locks[i].wait_ns;
	return -1;
}

/* The waiters' span: the first one's start to the last one's end. */
static void waiters_span(const struct joined_run *m, const char *lock, struct run_cpu *r)
{
	for (unsigned i = 0; i < m->nrows; i++) {
		const struct thread_row *t = &m->rows[i];

		if (t->aside || !t->has_kernel || waits_on(t, lock) < 0)
			continue;
		if (!r->span_start || t->start_ns < r->span_start)
			r->span_start = t->start_ns;
		if (t->end_ns > r->span_end)
			r->span_end = t->end_ns;
	}
}

/* The part of thread t's window inside the span (1 when unknown): its
 * CPU and work there, taken as spread evenly over its window. */
static double in_span(const struct thread_row *t, const struct run_cpu *r)
{
	uint64_t from = t->start_ns > r->span_start ? t->start_ns : r->span_start;
	uint64_t to = t->end_ns < r->span_end ? t->end_ns : r->span_end;

	if (r->span_end <= r->span_start || t->end_ns <= t->start_ns)
		return 1;
	return to > from ? (double)(to - from) / (double)(t->end_ns - t->start_ns) : 0;
}

static struct run_cpu run_cpu(const struct joined_run *m, const char *lock)
{
	struct run_cpu r = { 0 };

	waiters_span(m, lock, &r);
	for (unsigned i = 0; i < m->nrows; i++) {
		const struct thread_row *t = &m->rows[i];
		double futex, own, waited = waits_on(t, lock), part = in_span(t, &r);

		if (t->aside || !t->has_kernel)
			continue;
		r.threads++;
		own = (double)(t->acct_ns[ACCT_CPU_USER] + t->acct_ns[ACCT_CPU_SYS] +
			       t->acct_ns[ACCT_BLOCKED]) * part;
		if (own > r.longest_own_ns)
			r.longest_own_ns = own;
		r.cpu_ns += (double)t->k.oncpu_ns * part;
		/* the futex calls' time less the waits' own: the wake-ups and the
		 * failed waits, from what a saved run keeps too */
		futex = (double)(acct_nr(&t->k, __NR_futex)->total_ns + acct_nr(&t->k, __NR_futex_waitv)->total_ns) -
			(double)t->d.futex_wait_ns;
		futex = futex > 0 ? futex * part : 0;
		r.futex_cpu_ns += futex;
		if (waited < 0)
			continue;
		r.waiters++;
		r.waiter_own_ns += (double)(t->end_ns - t->start_ns) - waited -
				   (double)t->acct_ns[ACCT_RUNQ];
		r.lock_cpu_ns += (double)t->k.oncpu_ns;
		r.lock_futex_cpu_ns += futex;
		if (own > r.lock_longest_own_ns)
			r.lock_longest_own_ns = own;
	}
	return r;
}

/* What the change takes out of the lock: held time, and waiters' time. */
static void moved(const struct lock_holders *h, enum lock_change c, double *held, double *waited)
{
	if (c == LC_SYSCALLS_OUTSIDE) {
		*held = h->state_ns[HS_SYSCALL] + h->state_ns[HS_BLOCKED];
		*waited = h->waited_ns[HS_SYSCALL] + h->waited_ns[HS_BLOCKED];
	} else {
		*held = h->state_ns[HS_PREEMPTED];
		*waited = h->waited_ns[HS_PREEMPTED];
	}
}

/* The CPUs left to the program: K less what the cpu-clock samples found
 * other processes and threads using over fctrace's window (on average, in
 * CPUs; none when the sampler did not run), less its own threads set
 * aside. A busy machine can leave the
 * program well under one CPU; a twentieth of K at least. */
static double cpus_left(const struct joined_run *m, double k)
{
	const struct kview *kv = m->kv;
	double others = 0;

	if (kv && kv->machine_sampled && kv->machine_ns)
		others = (double)kv->machine.other * (1e9 / FCT_CPUCLOCK_HZ) /
			 (double)kv->machine_ns;
	/* the program's threads set aside (a JVM's own: JIT, GC) are not the
	 * lock's either, and take their CPU whatever the lock does */
	if (m->wall_ns)
		others += (double)m->aside_cpu_ns / (double)m->wall_ns;
	return others < 0.95 * k ? k - others : 0.05 * k;
}

/* The largest of n bounds, and which it is. */
static double largest(const double *v, int n, int *which)
{
	*which = 0;
	for (int i = 1; i < n; i++)
		if (v[i] > v[*which])
			*which = i;
	return v[*which];
}

/* What the CPUs' and one thread's bounds count: with holders never
 * preempted the lock's path goes first, as a real-time priority would
 * put it - its threads on all K CPUs, the program's other threads (whose
 * CPU-burning may well last as long as the run does) and other processes
 * in what is left. Else all threads compete as they did, on the CPUs
 * others left them. */
struct demand {
	double cpu, futex_cpu, threads, longest, k;
};

static struct demand demand_of(const struct joined_run *m, const struct run_cpu *r,
			       enum lock_change c)
{
	double k = m->ncpus ? m->ncpus : 1;

	if (c == LC_NO_PREEMPTION)
		return (struct demand){ r->lock_cpu_ns, r->lock_futex_cpu_ns, r->waiters,
					r->lock_longest_own_ns, k };
	return (struct demand){ r->cpu_ns, r->futex_cpu_ns, r->threads, r->longest_own_ns,
				cpus_left(m, k) };
}

/* The span's wall with the lock's holds at held1: f and the waits left
 * into out, the bound that sets it into *which. */
static double solve(const struct lock_holders *h, const struct run_cpu *r,
		    const struct demand *d, double wall, double held1, double dw,
		    struct lock_whatif *out, int *which)
{
	double f = 1, wt1 = h->waiter_ns, wall1 = wall;

	for (int it = 0; it < 20; it++) {
		f = (held1 / wall1) / (h->held_ns / wall);
		f = f > 1 ? 1 : f;
		wt1 = (h->waiter_ns - dw) * f;
		if (wt1 < 0)
			wt1 = 0;
		double b[LB_N] = {
			[LB_THREADS] = (r->waiter_own_ns + wt1) / r->waiters,
			[LB_CPUS] = (d->cpu - d->futex_cpu * (1 - f)) /
				    (d->threads < d->k ? d->threads : d->k),
			[LB_HOLDS] = held1, [LB_THREAD] = d->longest };

		wall1 = largest(b, LB_N, which);
	}
	out->waits_after = out->waits * f;
	out->wait_after_ns = wt1;
	return wall1;
}

/* The prediction with mv of the lock's held time and dw of its waiters'
 * time taken out of it, and gone_ns of the threads' own time (on CPU)
 * gone altogether, not moved. */
static int predict(const struct joined_run *m, const struct lock_total *l, enum lock_change c,
		   double mv, double dw, double gone_ns, struct lock_whatif *out)
{
	static const char *const bounds[LB_N] = {
		[LB_THREADS] = "the threads' own time", [LB_CPUS] = "the CPUs",
		[LB_HOLDS] = "the lock's holds", [LB_THREAD] = "one thread's own work",
	};
	const struct lock_holders *h = &l->holders;
	struct run_cpu r = run_cpu(m, l->name);
	struct demand d = demand_of(m, &r, c);
	double wall = (double)m->wall_ns, outside = 0;
	int which = 0;

	if (!h->measured || h->held_ns <= 0 || wall <= 0 || r.threads < 1 || r.waiters < 1)
		return -1;
	if (mv <= 0)
		return -1;
	/* calls gone: the waiters' share of them from their own time, all of
	 * them from the CPU the threads need, one thread's worth from the
	 * longest */
	r.waiter_own_ns = fmax(0, r.waiter_own_ns - gone_ns *
			       (r.waiters < r.threads ? r.waiters / r.threads : 1));
	d.cpu = fmax(0, d.cpu - gone_ns);
	d.longest = fmax(0, d.longest - gone_ns / r.threads);
	/* The lock changes nothing before its first waiter starts or after
	 * its last one ends (a JVM's start-up and exit): the bounds are of
	 * the waiters' span, the rest of the window is kept as it was. */
	if (r.span_end > r.span_start && (double)(r.span_end - r.span_start) < wall)
		outside = wall - (double)(r.span_end - r.span_start);
	memset(out, 0, sizeof(*out));
	snprintf(out->lock, sizeof(out->lock), "%s", l->name);
	out->change = c;
	out->measured_wall_ns = wall;
	out->held_ns = h->held_ns;
	out->held_after_ns = h->held_ns - mv;
	out->waits = (double)l->waits;
	out->wait_ns = h->waiter_ns;
	out->predicted_wall_ns = outside + solve(h, &r, &d, wall - outside, out->held_after_ns,
						 dw, out, &which);
	out->bound_by = (enum lock_bound)which;
	out->bound = bounds[which];
	return 0;
}

int whatif_lock(const struct joined_run *m, const struct lock_total *l, enum lock_change c,
		struct lock_whatif *out)
{
	double mv, dw;

	moved(&l->holders, c, &mv, &dw);
	return predict(m, l, c, mv, dw, 0, out);
}

int whatif_lock_calls_gone(const struct joined_run *m, const struct lock_total *l, double part,
			   double gone_ns, struct lock_whatif *out)
{
	const struct lock_holders *h = &l->holders;

	if (part <= 0 || part > 1)
		return -1;
	return predict(m, l, LC_SYSCALLS_OUTSIDE, h->state_ns[HS_SYSCALL] * part,
		       h->waited_ns[HS_SYSCALL] * part, gone_ns, out);
}
