/*
 * pools.c - pools of N from the futex objects' waiters and holds
 * (pools.h; the BPF side is bpf/pools.bpf.h).
 *
 * The capacity. A hold is seen whole only when it begins with a wake-up
 * (a thread that found an item free takes it without a syscall), but its
 * end is seen as a wake whenever a thread waits: while one waits, every
 * item given back is a futex wake on the object. So over the time with a
 * waiter, items are given back at releases / queued_ns each taking a
 * hold of the mean seen, and by Little's law the items busy then - all
 * of them, since a thread waits - are releases x hold / queued_ns. A hold
 * that begins at a wake-up keeps the thread's fresh time slice; when the
 * threads queue for the CPUs too, holds run as long as the run queue
 * makes them and the ones seen are not the rest's: the capacity is then
 * not read (PC_CPU_BOUND), and the CPUs, not the pool, set the pace.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "join/join.h"
#include "join/pools.h"

const char *const pool_capacity_how_names[PC_N] = { "little", "cpu_bound", "not_queued",
							 "counted" };

/* Kinds a pool is built on: not a mutex, a join or a barrier. */
static bool pool_kind(enum lock_kind k)
{
	return k == LK_SEMAPHORE || k == LK_CONDVAR || k == LK_LOCK;
}

static const struct lock_name *name_of(const struct joined_run *m, const struct fct_pool_key *k)
{
	for (int i = 0; i < m->nnames; i++) {
		const struct lock_name *n = &m->names[i];

		if (n->tgid == k->tgid && n->addr < k->obj + 8 && k->obj < n->addr + n->size)
			return n;
	}
	return NULL;
}

/* The object's figures summed, by name. */
struct pool_sum {
	const struct lock_name *name;
	struct fct_pool_val v;
};

static void sum_add(struct fct_pool_val *d, const struct fct_pool_val *s)
{
	d->queued_ns += s->queued_ns;
	d->waiting_ns += s->waiting_ns;
	d->releases += s->releases;
	d->queued_releases += s->queued_releases;
	d->woken += s->woken;
	d->broadcasts += s->broadcasts;
	d->opened += s->opened;
	d->retries += s->retries;
	d->holds += s->holds;
	d->hold_ns += s->hold_ns;
	d->hold_oncpu_ns += s->hold_oncpu_ns;
	d->hold_sys_ns += s->hold_sys_ns;
	d->hold_runq_ns += s->hold_runq_ns;
	d->hold_blocked_ns += s->hold_blocked_ns;
	d->hold_futex_ns += s->hold_futex_ns;
	if (s->max_holding > d->max_holding)
		d->max_holding = s->max_holding;
}

static int sums_collect(const struct joined_run *m, const struct kview *kv,
			struct pool_sum **out)
{
	struct pool_sum *s = calloc((size_t)kv->npools, sizeof(*s));
	int n = 0;

	if (!s)
		return -1;
	for (int i = 0; i < kv->npools; i++) {
		const struct lock_name *name = name_of(m, &kv->pools[i].key);
		int j;

		if (!name || !pool_kind(name->kind))
			continue;
		for (j = 0; j < n && strcmp(s[j].name->name, name->name); j++)
			;
		if (j == n)
			s[n++].name = name;
		sum_add(&s[j].v, &kv->pools[i].val);
	}
	*out = s;
	return n;
}

static const struct lock_total *lock_named(const struct joined_run *m, const char *name)
{
	for (int i = 0; i < m->nlocks; i++)
		if (!m->locks[i].kernel && !strcmp(m->locks[i].name, name))
			return &m->locks[i];
	return NULL;
}

static bool row_waits_on(const struct thread_row *r, const char *name)
{
	for (int i = 0; i < r->nlocks; i++)
		if (!strcmp(r->locks[i].name, name))
			return true;
	return false;
}

/* The waiting threads' cycle per item given back: their own work outside
 * the pool (on CPU or asleep outside futex waits, less the hold's), time
 * on CPU, and their run-queue share. */
static void cycle_of(struct pool_row *p, const struct joined_run *m)
{
	double window = 0, oncpu = 0, asleep = 0, runq_all = 0, futex = 0;
	double items = (double)p->releases;
	double outside;

	for (unsigned i = 0; i < m->nrows; i++) {
		const struct thread_row *r = &m->rows[i];

		if (!r->has_kernel || !row_waits_on(r, p->name))
			continue;
		window += (double)(r->end_ns - r->start_ns);
		oncpu += (double)r->k.oncpu_ns;
		asleep += (double)r->k.blocked_ns;
		runq_all += (double)r->k.runq_total_ns;
		futex += pool_futex_cpu(&r->k);
	}
	if (items <= 0 || window <= 0)
		return;
	outside = (oncpu + asleep) / items - p->state_ns[HS_USER] - p->state_ns[HS_SYSCALL] -
		  p->state_ns[HS_BLOCKED];
	p->outside_ns = outside > 0 ? outside : 0;
	p->cpu_ns = oncpu / items;
	p->queue_cpu_ns = futex / items;
	p->runq_share = runq_all / window;
}

static void hold_means(struct pool_row *p, const struct fct_pool_val *v)
{
	double n = (double)v->holds, sys = (double)v->hold_sys_ns;

	p->hold_ns = (double)v->hold_ns / n;
	p->state_ns[HS_SYSCALL] = sys / n;
	p->state_ns[HS_USER] = ((double)v->hold_oncpu_ns - sys) / n;
	p->state_ns[HS_PREEMPTED] = (double)v->hold_runq_ns / n;
	p->state_ns[HS_BLOCKED] = (double)v->hold_blocked_ns / n;
	p->state_ns[HS_WAITING] = (double)v->hold_futex_ns / n;
}

/* A pool's row from its sums; false when it is not a pool of two or more
 * (a lock, an event, too few holds seen). */
static bool row_of(struct pool_row *p, const struct pool_sum *s, const struct joined_run *m)
{
	const struct lock_total *l = lock_named(m, s->name->name);
	const struct fct_pool_val *v = &s->v;

	if (!l || v->holds < POOL_MIN_HOLDS || !v->queued_ns || !m->wall_ns)
		return false;
	/* an item given back wakes one waiter; a release that wakes them all
	 * (a broadcast) passes a turn round: a baton, a lock. Counting the
	 * waiters woken is not enough: on a busy machine a broadcast often
	 * finds one of a baton's two others not yet asleep and wakes one */
	if ((double)v->woken > POOL_MAX_WOKEN * (double)v->releases ||
	    (double)v->broadcasts > POOL_MAX_BROADCASTS * (double)v->releases)
		return false;
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", l->name);
	p->kind = s->name->kind;
	p->tgid = s->name->tgid;
	p->threads = l->threads;
	p->waits = l->waits;
	p->wait_ns = l->wait_ns;
	p->releases = v->releases;
	p->queued_releases = v->queued_releases;
	p->holds = v->holds;
	p->retries = v->retries;
	p->queued_ns = v->queued_ns;
	p->max_holding = v->max_holding;
	p->window_ns = (double)m->wall_ns;
	p->ncpus = m->ncpus;
	hold_means(p, v);
	p->waiters_mean = (double)v->waiting_ns / p->window_ns;
	p->holders_mean = (double)v->releases * p->hold_ns / p->window_ns;
	/* Little's law over the time with a waiter: the items given back then */
	p->capacity_est = (double)v->queued_releases * p->hold_ns / (double)v->queued_ns;
	p->capacity_low = p->capacity_est;
	cycle_of(p, m);
	p->how = p->runq_share > POOL_CPU_BOUND_SHARE ? PC_CPU_BOUND : PC_LITTLE;
	if (p->how == PC_LITTLE)
		p->capacity = (unsigned)lround(p->capacity_est);
	/* one item is a lock: a pool's holds overlap, by Little's law (the
	 * most holds seen open at once counts woken threads that had no CPU
	 * yet: a lock's reach two and more on a busy machine). When the run
	 * queue stretches the holds the estimate strays both ways (a baton
	 * three threads pass round read 1.8, a semaphore of 4 read 2.0): only
	 * a clear several is called a pool then */
	if (p->capacity_est < (p->how == PC_LITTLE ? POOL_MIN_ITEMS : POOL_MIN_ITEMS_CPU_BOUND))
		return false;
	/* threads queue for a pool only when it has fewer items than them: an
	 * estimate that reaches the threads is not a pool's (a baton three
	 * threads pass round read 3.6 - 4.9 from its few long holds) */
	if (p->capacity_est >= (double)p->threads)
		return false;
	pool_whatifs(p);
	return true;
}

/* "sem (semaphore used as a lock)" -> "sem (semaphore, a pool of 4)": the
 * lock table's name and every thread's use of it say what it is. */
static void name_in(char *name, size_t len, const char *from, const char *to)
{
	char *at = strstr(name, from), rest[160];

	if (!at)
		return;
	snprintf(rest, sizeof(rest), "%s", at + strlen(from));
	snprintf(at, len - (size_t)(at - name), "%s%s", to, rest);
}

static void pool_rename(struct joined_run *m, struct pool_row *p)
{
	char was[sizeof(p->name)], kind[64];
	const char *k = lock_kind_name(p->kind);

	snprintf(was, sizeof(was), "%s", p->name);
	if (p->capacity)
		snprintf(kind, sizeof(kind), "%s, a pool of %u", k, p->capacity);
	else
		snprintf(kind, sizeof(kind), "%s, a pool", k);
	for (int i = 0; i < 2; i++) {
		char from[64];

		snprintf(from, sizeof(from), "%s %s", k, i ? "taken in turns" : "used as a lock");
		name_in(p->name, sizeof(p->name), from, kind);
	}
	if (!strcmp(was, p->name))
		return;
	for (int i = 0; i < m->nlocks; i++)
		if (!m->locks[i].kernel && !strcmp(m->locks[i].name, was))
			snprintf(m->locks[i].name, sizeof(m->locks[i].name), "%s", p->name);
	for (unsigned r = 0; r < m->nrows; r++)
		for (int i = 0; i < m->rows[r].nlocks; i++)
			if (!strcmp(m->rows[r].locks[i].name, was))
				snprintf(m->rows[r].locks[i].name, sizeof(m->rows[r].locks[i].name),
					 "%s", p->name);
}

static int cmp_wait(const void *a, const void *b)
{
	const struct pool_row *x = a, *y = b;

	return x->wait_ns < y->wait_ns ? 1 : x->wait_ns > y->wait_ns ? -1 : 0;
}

int pools_append(struct joined_run *m, const struct pool_row *row)
{
	struct pool_row *more = realloc(m->pools, (size_t)(m->npools + 1) * sizeof(*more));

	if (!more)
		return -1;
	m->pools = more;
	m->pools[m->npools++] = *row;
	return 0;
}

void pools_rank(struct joined_run *m)
{
	if (!m->pools)
		return;
	qsort(m->pools, (size_t)m->npools, sizeof(*m->pools), cmp_wait);
	if (m->npools > POOLS_MAX)
		m->npools = POOLS_MAX;
}

int pools_build(struct joined_run *m, const struct kview *kv)
{
	struct pool_sum *s = NULL;
	int n;

	m->pools = NULL;
	m->npools = 0;
	if (!kv || !kv->pools_ran)
		return 0;
	n = m->names ? sums_collect(m, kv, &s) : 0;
	if (n < 0)
		return -1;
	m->pools = calloc(n ? (size_t)n : 1, sizeof(*m->pools));
	if (!m->pools) {
		free(s);
		return -1;
	}
	for (int i = 0; i < n; i++)
		if (row_of(&m->pools[m->npools], &s[i], m))
			m->npools++;
	free(s);
	pools_rank(m);
	for (int i = 0; i < m->npools; i++)
		pool_rename(m, &m->pools[i]);
	return 0;
}
