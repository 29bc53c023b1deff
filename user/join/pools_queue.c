/*
 * pools_queue.c - a pool's threads by whether they were queued for it
 * (pools.h): the capacity read as the threads not queued, for the pools
 * whose holds are not seen whole (a JVM's, pools_jvm.c) or are stretched
 * by the run queue (a futex object's on a busy machine, pools.c).
 *
 * A thread is queued while asleep in the pool's waits or in a lock's (a
 * contended lock on the way to the pool, a monitor's enter, a
 * ReentrantLock's park); its other futex waits (a sleep, a condvar on a
 * reply) and everything else are the hold's, or the work outside the
 * pool. A wait's time runs to the thread's return, runnable after its
 * wake included: the asleep part is the thread's share of its futex time
 * spent asleep.
 */
#include <string.h>
#include "join/join.h"
#include "join/pools.h"

/* Park blockers that are locks (a pool of one): their waiters also wake
 * each other, and the lock rules speak of them. */
bool pool_blocker_is_lock(const char *name)
{
	static const char *const locks[] = { "ReentrantLock", "ReentrantReadWriteLock",
					     "StampedLock" };

	for (size_t i = 0; i < sizeof(locks) / sizeof(locks[0]); i++)
		if (strstr(name, locks[i]))
			return true;
	return false;
}


static void waits_of(const struct thread_row *t, const char *group, double *queue, double *other)
{
	*queue = *other = 0;
	for (int i = 0; i < t->nlocks; i++) {
		const struct lock_use *u = &t->locks[i];

		if (u->is_lock || !strcmp(u->name, group) ||
		    (u->kind == LK_PARK && pool_blocker_is_lock(u->name)))
			*queue += (double)u->wait_ns;
		else
			*other += (double)u->wait_ns;
	}
}

static void awake_add(struct pool_awake *a, const struct thread_row *t, const char *group)
{
	const struct fct_thread *k = &t->k;
	double window = (double)(t->end_ns - t->start_ns), queue, other, asleep_share;
	double sys = (double)(k->sys_on_est_ns < k->oncpu_ns ? k->sys_on_est_ns : k->oncpu_ns);
	double futex_asleep = k->offcpu_ns > k->blocked_ns ? (double)(k->offcpu_ns - k->blocked_ns) : 0;
	double notq, low, rest;

	waits_of(t, group, &queue, &other);
	asleep_share = queue + other > 0 ? futex_asleep / (queue + other) : 0;
	if (asleep_share > 1)
		asleep_share = 1;
	notq = window - asleep_share * queue;
	if (notq < 0)
		notq = 0;
	a->items += notq;
	/* a woken waiter runnable in its wait holds its item if the pool
	 * handed it over (a Latch), not if it must still take it (a deque
	 * polled again): the low bound counts that time queued */
	low = notq;
	if (queue + other > 0 && k->runq_total_ns > k->runq_ns)
		low -= (double)(k->runq_total_ns - k->runq_ns) * queue / (queue + other);
	a->items_low += low > 0 ? low : 0;
	a->state_ns[HS_USER] += (double)k->oncpu_ns - sys;
	a->state_ns[HS_SYSCALL] += sys;
	/* another wait of the JVM's - Thread.sleep, a park on a reply - is
	 * the holder asleep, not contention for another lock (a lock's are
	 * the queue's) */
	a->state_ns[HS_BLOCKED] += (double)k->blocked_ns + asleep_share * other;
	rest = notq - ((double)k->oncpu_ns + (double)k->blocked_ns + asleep_share * other);
	a->state_ns[HS_PREEMPTED] += rest > 0 ? rest : 0;	/* runnable, woken ones too */
	a->oncpu_ns += (double)k->oncpu_ns;
	a->runq_ns += (double)k->runq_total_ns;
	a->thread_ns += window;
	a->queue_cpu_ns += pool_futex_cpu(k);
}

void pool_awake_sum(struct pool_awake *a, const struct thread_row *const *p, unsigned n,
		      const char *group)
{
	uint64_t lo = 0, hi = 0;

	memset(a, 0, sizeof(*a));
	for (unsigned i = 0; i < n; i++) {
		if (!i || p[i]->start_ns < lo)
			lo = p[i]->start_ns;
		if (!i || p[i]->end_ns > hi)
			hi = p[i]->end_ns;
		awake_add(a, p[i], group);
	}
	a->span_ns = hi > lo ? (double)(hi - lo) : 0;
	a->items = a->span_ns > 0 ? a->items / a->span_ns : 0;
	a->items_low = a->span_ns > 0 ? a->items_low / a->span_ns : 0;
}

