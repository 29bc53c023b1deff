/*
 * semlock.c - semaphores used as locks (semlock.h). A process-shared
 * semaphore lies at the same address in processes forked from one
 * parent, so its waits and wakes are matched by address across them.
 */
#include <stdlib.h>
#include <string.h>
#include "join/semlock.h"

static bool on_word(const struct lock_name *n, const struct kv_futex *f)
{
	return f->key.uaddr >= n->addr && f->key.uaddr < n->addr + n->size;
}

/* Does thread tid wait on n's word? */
static bool waits_on(const struct kview *kv, const struct lock_name *n, uint32_t tid)
{
	for (int i = 0; i < kv->nfutex; i++) {
		const struct kv_futex *f = &kv->futex[i];

		if (f->key.tid == tid && f->key.op != FCT_FUTEX_OP_WAKE && f->val.waits &&
		    on_word(n, f))
			return true;
	}
	return false;
}

/* The threads that wait on some semaphore: found once, looked up per
 * wake (a JVM may have thousands of futex words). */
struct sem_waiters { uint32_t *tids; int n; };

static bool sem_waiter(const struct sem_waiters *w, uint32_t tid)
{
	for (int i = 0; i < w->n; i++)
		if (w->tids[i] == tid)
			return true;
	return false;
}

static void sem_waiters_find(const struct kview *kv, const struct lock_name *names, int nn,
			     struct sem_waiters *w)
{
	w->n = 0;
	w->tids = calloc(kv->nfutex ? (size_t)kv->nfutex : 1, sizeof(*w->tids));
	for (int j = 0; w->tids && j < nn; j++) {
		if (names[j].kind != LK_SEMAPHORE)
			continue;
		for (int i = 0; i < kv->nfutex; i++) {
			const struct kv_futex *f = &kv->futex[i];

			/* a word named in two processes matches twice: kept once */
			if (f->key.op != FCT_FUTEX_OP_WAKE && f->val.waits && on_word(&names[j], f) &&
			    !sem_waiter(w, f->key.tid) && w->n < kv->nfutex)
				w->tids[w->n++] = f->key.tid;
		}
	}
}

/* Distinct threads waiting on n's word, counted up to 8. */
static int waiters(const struct kview *kv, const struct lock_name *n)
{
	uint32_t tids[8];
	int count = 0;

	for (int i = 0; i < kv->nfutex && count < 8; i++) {
		const struct kv_futex *f = &kv->futex[i];
		bool seen = false;

		if (f->key.op == FCT_FUTEX_OP_WAKE || !f->val.waits || !on_word(n, f))
			continue;
		for (int j = 0; j < count; j++)
			seen |= tids[j] == f->key.tid;
		if (!seen)
			tids[count++] = f->key.tid;
	}
	return count;
}

/* Threads that wait on a semaphore of their own (one waiter), up to 3. */
static int own_sem_threads(const struct kview *kv, const struct lock_name *names, int nn)
{
	int count = 0;

	for (int j = 0; j < nn && count < 3; j++)
		count += names[j].kind == LK_SEMAPHORE && waiters(kv, &names[j]) == 1;
	return count;
}

static void classify(const struct kview *kv, const struct sem_waiters *sw,
		     struct lock_name *n, int own)
{
	uint64_t wakes = 0, by_waiters = 0, by_peers = 0;
	int w = waiters(kv, n);

	for (int i = 0; i < kv->nfutex; i++) {
		const struct kv_futex *f = &kv->futex[i];

		if (f->key.op != FCT_FUTEX_OP_WAKE || !on_word(n, f) || !f->val.wakes)
			continue;
		wakes += f->val.wakes;
		if (waits_on(kv, n, f->key.tid))
			by_waiters += f->val.wakes;
		else if (w == 1 && sem_waiter(sw, f->key.tid))
			by_peers += f->val.wakes;
	}
	if (!wakes)
		return;
	if ((w >= 2 && by_waiters * 2 > wakes) || (w == 1 && own >= 3 && by_peers * 2 > wakes)) {
		n->is_lock = n->turns = true;
		n->wakes = wakes;		/* across the processes */
		n->wakes_by_waiters = by_waiters + by_peers;
	}
}

void semlock_classify(const struct kview *kv, struct lock_name *names, int n)
{
	int own = own_sem_threads(kv, names, n);
	struct sem_waiters sw;

	sem_waiters_find(kv, names, n, &sw);
	for (int i = 0; i < n; i++)
		if (names[i].kind == LK_SEMAPHORE && !names[i].is_lock)
			classify(kv, &sw, &names[i], own);
	free(sw.tids);
}
