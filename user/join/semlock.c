/*
 * semlock.c - semaphores used as locks (semlock.h). A process-shared
 * semaphore lies at the same address in processes forked from one
 * parent, so its waits and wakes are matched by address across them.
 * Each question reads the entries on the semaphore's words (the view's
 * index by word), and who waits is a sorted set looked up per wake: a
 * JVM or a big server has thousands of words and threads.
 */
#include <stdlib.h>
#include <string.h>
#include "join/semlock.h"

static const struct kv_futex *entry(const struct kv_index *ix, int k)
{
	return &ix->kv->futex[ix->by_addr[k]];
}

static void word_entries(const struct kv_index *ix, const struct lock_name *n, int *from, int *to)
{
	kv_index_words(ix, n->addr, n->addr + n->size, from, to);
}

static bool is_wait(const struct kv_futex *f)
{
	return f->key.op != FCT_FUTEX_OP_WAKE && f->val.waits;
}

static int cmp_tid(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* A sorted set of tids. */
struct tid_set {
	uint32_t *tids;
	int n, cap;
};

static void set_add(struct tid_set *s, uint32_t tid)
{
	if (s->n == s->cap) {
		int cap = s->cap ? 2 * s->cap : 64;
		uint32_t *t = realloc(s->tids, (size_t)cap * sizeof(*t));

		if (!t)
			return;		/* out of memory: fewer waiters known */
		s->tids = t;
		s->cap = cap;
	}
	s->tids[s->n++] = tid;
}

static void set_sort(struct tid_set *s)
{
	int kept = 0;

	if (s->n)
		qsort(s->tids, (size_t)s->n, sizeof(*s->tids), cmp_tid);
	for (int i = 0; i < s->n; i++)
		if (!kept || s->tids[kept - 1] != s->tids[i])
			s->tids[kept++] = s->tids[i];
	s->n = kept;
}

static bool set_has(const struct tid_set *s, uint32_t tid)
{
	return s->n && bsearch(&tid, s->tids, (size_t)s->n, sizeof(tid), cmp_tid);
}

/* The threads that wait on n's word. */
static void word_waiters(const struct kv_index *ix, const struct lock_name *n, struct tid_set *s)
{
	int from, to;

	word_entries(ix, n, &from, &to);
	for (int k = from; k < to; k++)
		if (is_wait(entry(ix, k)))
			set_add(s, entry(ix, k)->key.tid);
}

/* The threads that wait on some semaphore: found once, looked up per
 * wake (a JVM may have thousands of futex words). */
static void sem_waiters_find(const struct kv_index *ix, const struct lock_name *names, int nn,
			     struct tid_set *s)
{
	for (int j = 0; j < nn; j++)
		if (names[j].kind == LK_SEMAPHORE)
			word_waiters(ix, &names[j], s);
	set_sort(s);	/* a word named in two processes matches twice: kept once */
}

/* Threads that wait on a semaphore of their own (one waiter), up to 3. */
static int own_sem_threads(const struct kv_index *ix, const struct lock_name *names, int nn)
{
	int count = 0;

	for (int j = 0; j < nn && count < 3; j++) {
		struct tid_set w = { 0 };

		if (names[j].kind != LK_SEMAPHORE)
			continue;
		word_waiters(ix, &names[j], &w);
		set_sort(&w);
		count += w.n == 1;
		free(w.tids);
	}
	return count;
}

static void classify(const struct kv_index *ix, const struct tid_set *sw,
		     struct lock_name *n, int own)
{
	uint64_t wakes = 0, by_waiters = 0, by_peers = 0;
	struct tid_set w = { 0 };
	int from, to;

	word_waiters(ix, n, &w);
	set_sort(&w);
	word_entries(ix, n, &from, &to);
	for (int k = from; k < to; k++) {
		const struct kv_futex *f = entry(ix, k);

		if (f->key.op != FCT_FUTEX_OP_WAKE || !f->val.wakes)
			continue;
		wakes += f->val.wakes;
		if (set_has(&w, f->key.tid))
			by_waiters += f->val.wakes;
		else if (w.n == 1 && set_has(sw, f->key.tid))
			by_peers += f->val.wakes;
	}
	if (wakes && ((w.n >= 2 && by_waiters * 2 > wakes) ||
		      (w.n == 1 && own >= 3 && by_peers * 2 > wakes))) {
		n->is_lock = n->turns = true;
		n->wakes = wakes;		/* across the processes */
		n->wakes_by_waiters = by_waiters + by_peers;
	}
	free(w.tids);
}

void semlock_classify(const struct kv_index *ix, struct lock_name *names, int n)
{
	int own = own_sem_threads(ix, names, n);
	struct tid_set sw = { 0 };

	sem_waiters_find(ix, names, n, &sw);
	for (int i = 0; i < n; i++)
		if (names[i].kind == LK_SEMAPHORE && !names[i].is_lock)
			classify(ix, &sw, &names[i], own);
	free(sw.tids);
}
