/*
 * bc_lock.c - the block cache's timed locks, sampled (bc_internal.h):
 * a contended acquisition is timed exactly from its failed trylock, an
 * uncontended one only when the reader's turn says so.
 */
#include "bc_internal.h"

static uint64_t contended(struct wl_thread_stats *st, uint64_t t0)
{
	uint64_t acq = wl_now_ns();

	st->lock_contended++;
	st->lock_wait_ns += acq - t0;
	st->lookup_ns += acq - t0;
	return acq;
}

uint64_t bc_lock_mu(pthread_mutex_t *m, struct wl_thread_stats *st, bool timed)
{
	uint64_t t0;

	st->lock_acquires++;
	if (pthread_mutex_trylock(m) == 0)
		return timed ? wl_now_ns() : 0;
	t0 = wl_now_ns();
	pthread_mutex_lock(m);
	return contended(st, t0);
}

uint64_t bc_lock_rw(pthread_rwlock_t *l, bool write, struct wl_thread_stats *st,
		    bool timed)
{
	uint64_t t0;
	int busy = write ? pthread_rwlock_trywrlock(l) : pthread_rwlock_tryrdlock(l);

	st->lock_acquires++;
	if (!busy)
		return timed ? wl_now_ns() : 0;
	t0 = wl_now_ns();
	if (write)
		pthread_rwlock_wrlock(l);
	else
		pthread_rwlock_rdlock(l);
	return contended(st, t0);
}

/* Called just before the unlock: a timed acquisition's hold stands for
 * BC_TIME_EVERY of them (contended or not, so the estimate is unbiased). */
void bc_book(struct wl_thread_stats *st, uint64_t acq, bool timed)
{
	uint64_t held;

	if (!timed)
		return;
	held = (wl_now_ns() - acq) * BC_TIME_EVERY;
	st->lock_hold_ns += held;
	st->lookup_ns += held;
}
