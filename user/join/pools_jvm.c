/*
 * pools_jvm.c - pools of N in a JVM, whose waiters each sleep on a word
 * of their own: HotSpot parks a thread in Object.wait and in
 * LockSupport.park on the thread's own ParkEvent or Parker, so the futex
 * object that bpf/pools.bpf.h keys a pool by holds one waiter, and no
 * pool is seen there. A Commons Pool's Latch, a Semaphore's permits, a
 * LinkedBlockingDeque of idle objects are such pools. fctrace's agent
 * names these waits by class and Java call site (join_sites.c); a group
 * of them is a pool when:
 *
 *   - its waits are events (Object.wait, a park), not a lock's blocker;
 *   - its waiters give each other the items: the futex wakes of the
 *     words they sleep on are, nearly all, their own (a work queue's
 *     waiters are woken by its producers, a pool's by the threads that
 *     give an item back);
 *   - a queue formed (a waiter on average), and its threads not queued
 *     read between 1.5 items and its threads less one.
 *
 * No hold is seen whole here (a take and a give are calls inside the
 * JVM): the capacity is the group's threads not queued, at most
 * (pools_queue.c, PC_NOT_QUEUED), and not read when they are runnable
 * more than a quarter of their time (PC_CPU_BOUND), as for a futex
 * object.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "join/join.h"
#include "join/pools.h"
#include "trace/kview.h"

/* a futex wake of the words a group's threads sleep on is theirs in
 * at least this share, for the group to be a pool */
#define POOL_MIN_PEER_WAKES	0.8
/* a thread is of the group when it made this share of a thread's mean
 * waits at least (the main thread's one wait on the same class is not) */
#define POOL_MEMBER_SHARE	0.1

static bool candidate(const struct lock_total *l)
{
	if (l->kernel || l->is_lock || l->threads < 3 || l->waits < POOL_MIN_HOLDS)
		return false;
	if (l->kind == LK_OBJECT_WAIT)
		return true;
	return l->kind == LK_PARK && !pool_blocker_is_lock(l->name);
}

/* A thread that waited in the group, and the wakes it gave the words
 * the group's threads sleep on. */
struct cand {
	uint32_t tid;
	const struct thread_row *row;
	double waits, wakes;
};

static int cmp_tid(const void *a, const void *b)
{
	uint32_t x = ((const struct cand *)a)->tid, y = ((const struct cand *)b)->tid;

	return x < y ? -1 : x > y;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static struct cand *cand_of(struct cand *c, unsigned n, uint32_t tid)
{
	struct cand key = { .tid = tid };

	return bsearch(&key, c, n, sizeof(*c), cmp_tid);
}

/* The threads that waited in group l, by tid; their count. */
static unsigned candidates(const struct joined_run *m, const struct lock_total *l,
			   struct cand *c)
{
	unsigned n = 0;

	for (unsigned r = 0; r < m->nrows; r++) {
		const struct thread_row *t = &m->rows[r];

		for (int i = 0; t->has_kernel && i < t->nlocks; i++)
			if (!strcmp(t->locks[i].name, l->name) && t->locks[i].waits) {
				c[n++] = (struct cand){ (uint32_t)t->tid, t,
							(double)t->locks[i].waits, 0 };
				break;
			}
	}
	qsort(c, n, sizeof(*c), cmp_tid);
	return n;
}

/* The futex words the candidates with a fair share of the waits slept
 * on, sorted; their count, or -1 out of memory. */
static long sleep_words(const struct kview *kv, struct cand *c, unsigned n, double fair,
			uint64_t **out)
{
	uint64_t *w = malloc((size_t)(kv->nfutex ? kv->nfutex : 1) * sizeof(*w));
	long nw = 0;

	if (!w)
		return -1;
	for (int i = 0; i < kv->nfutex; i++) {
		const struct cand *t = cand_of(c, n, kv->futex[i].key.tid);

		if (kv->futex[i].key.op != FCT_FUTEX_OP_WAKE && t && t->waits >= fair)
			w[nw++] = kv->futex[i].key.uaddr;
	}
	qsort(w, (size_t)nw, sizeof(*w), cmp_u64);
	*out = w;
	return nw;
}

/*
 * The group's threads (into, m->nrows long): those with a fair share of
 * its waits, and those that gave a fair share of the wakes of their words
 * (a thread that seldom found the pool empty still takes and gives back
 * items; a main thread that waited once on the same class does neither).
 * *peers: the share of the wakes of those words its threads gave, -1
 * when none was seen. Their count; -1 out of memory.
 */
static int members(const struct joined_run *m, const struct lock_total *l,
		   const struct thread_row **into, double *peers)
{
	double fair = (double)l->waits / (double)l->threads * POOL_MEMBER_SHARE, all = 0, mine = 0;
	struct cand *c = calloc(m->nrows, sizeof(*c));
	uint64_t *words = NULL;
	unsigned nc;
	long nw;
	int n = 0;

	if (!c)
		return -1;
	nc = candidates(m, l, c);
	nw = sleep_words(m->kv, c, nc, fair, &words);
	for (int i = 0; nw > 0 && i < m->kv->nfutex; i++) {
		const struct kv_futex *e = &m->kv->futex[i];
		struct cand *t;

		if (e->key.op != FCT_FUTEX_OP_WAKE ||
		    !bsearch(&e->key.uaddr, words, (size_t)nw, sizeof(*words), cmp_u64))
			continue;
		all += (double)e->val.wakes;
		if ((t = cand_of(c, nc, e->key.tid)))
			t->wakes += (double)e->val.wakes;
	}
	for (unsigned i = 0; nw >= 0 && i < nc; i++)
		if (c[i].waits >= fair || c[i].wakes >= fair) {
			into[n++] = c[i].row;
			mine += c[i].wakes;
		}
	*peers = all > 0 ? mine / all : -1;
	free(words);
	free(c);
	return nw < 0 ? -1 : n;
}

/* The row of a pool of group l, its threads p; false when it is none. */
static bool jvm_row(struct pool_row *o, const struct joined_run *m, const struct lock_total *l,
		    const struct thread_row *const *p, unsigned n, double peers)
{
	struct pool_awake a;
	double items, per;

	if (n < 3 || peers < POOL_MIN_PEER_WAKES)
		return false;
	pool_awake_sum(&a, p, n, l->name);
	if (a.span_ns <= 0)
		return false;
	items = a.items;
	/* a queue that formed (a waiter on average), fewer items than
	 * threads, and more than one: else a lock's or an event's */
	if ((double)l->wait_ns / a.span_ns < 1 || items < POOL_MIN_ITEMS ||
	    items > (double)n - 1)
		return false;
	memset(o, 0, sizeof(*o));
	snprintf(o->name, sizeof(o->name), "%s", l->name);
	o->kind = l->kind;
	o->tgid = (uint32_t)p[0]->k.tgid;
	o->threads = n;
	o->waits = l->waits;
	o->wait_ns = l->wait_ns;
	o->releases = o->queued_releases = l->waits;	/* each wait ended with an item */
	o->queued_ns = (uint64_t)a.span_ns;
	per = (double)l->waits;
	for (int s = 0; s < HS_N; s++)
		o->state_ns[s] = a.state_ns[s] / per;
	/* Little's law: items held = items given back per second x hold */
	o->hold_ns = items * a.span_ns / per;
	o->capacity_est = o->holders_mean = items;
	o->capacity_low = a.items_low;
	o->runq_share = a.runq_ns / a.thread_ns;
	/* threads runnable much of their time: runnable ones are holders and
	 * waiters that must still take their item alike, and the bound strays
	 * far (a C semaphore's 16 spinners on 2 CPUs read 13.7 for 4): not
	 * read, as a futex object's is not (PC_CPU_BOUND) */
	o->how = o->runq_share > POOL_CPU_BOUND_SHARE ? PC_CPU_BOUND : PC_NOT_QUEUED;
	o->capacity = o->how == PC_NOT_QUEUED ? (unsigned)lround(items) : 0;
	/* asleep: in its queue, or (a few) in another wait on the way to it */
	o->waiters_mean = (double)n - items;
	o->outside_ns = 0;	/* not seen: counted in the hold */
	o->cpu_ns = a.oncpu_ns / per;
	o->queue_cpu_ns = a.queue_cpu_ns / per;
	o->window_ns = (double)m->wall_ns;
	o->ncpus = m->ncpus;
	pool_whatifs(o);
	return true;
}

int pools_add_jvm(struct joined_run *m)
{
	const struct thread_row **p;
	struct pool_row row;
	int err = 0;

	if (!m->kv || !m->nrows)
		return 0;
	p = calloc(m->nrows, sizeof(*p));
	if (!p)
		return -1;
	for (int i = 0; !err && i < m->nlocks; i++) {
		const struct lock_total *l = &m->locks[i];
		double peers;
		int n;

		if (!candidate(l))
			continue;
		if ((n = members(m, l, p, &peers)) < 0)
			err = -1;
		else if (jvm_row(&row, m, l, p, (unsigned)n, peers))
			err = pools_append(m, &row);
	}
	free(p);
	pools_rank(m);
	return err;
}
