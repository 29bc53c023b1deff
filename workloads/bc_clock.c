/*
 * bc_clock.c - the read-write-lock cache the NioFile benchmark asks about.
 *
 * An access-ordered LRU moves the block on every get, so a get is a
 * write and a shared read lock would let two hits relink the list at
 * once. So this variant gives up exact LRU for CLOCK (second chance):
 *  - get, under the READ lock: look up and, if not yet set, set the
 *    block's atomic `ref` bit; the list is not touched, and the bytes
 *    are copied while the read lock keeps the block from being evicted
 *    (so lookup_ns includes that copy here);
 *  - put and eviction, under the WRITE lock: a new block goes to the
 *    tail unreferenced; the victim is found from the head, moving each
 *    referenced block to the tail with its bit cleared.
 * Readers never write shared memory except one byte per block, once per
 * sweep of the hand, so hits on the same block scale with the readers.
 */
#include "bc_internal.h"

static ssize_t clock_get(struct bcache *c, struct bc_shard *sh, struct bc_reader *r,
			 unsigned file, uint64_t blk, uint64_t h, size_t in, size_t n,
			 void *dst)
{
	bool timed = bc_timed(r);
	uint64_t acq = bc_lock_rw(&sh->rw, false, r->st, timed);
	struct bc_entry *e = bc_find(sh, file, blk, h);
	ssize_t got = -1;

	(void)c;
	if (e) {
		if (!atomic_load_explicit(&e->ref, memory_order_relaxed))
			atomic_store_explicit(&e->ref, true, memory_order_relaxed);
		got = (ssize_t)bc_copy(e, in, n, dst);
		r->st->hits++;
	}
	bc_book(r->st, acq, timed);
	pthread_rwlock_unlock(&sh->rw);
	return got;
}

static void evict_clock(struct bc_shard *sh, struct wl_thread_stats *st)
{
	while (sh->nblocks > sh->max_blocks) {
		struct bc_entry *e = sh->order.next;

		if (atomic_exchange_explicit(&e->ref, false, memory_order_relaxed)) {
			bc_to_tail(sh, e);	/* second chance */
			continue;
		}
		bc_del(sh, e);
		sh->evictions++;
		st->evictions++;
		bc_free_push(sh, e);
	}
}

static void clock_insert(struct bcache *c, struct bc_shard *sh,
			 struct bc_reader *r, unsigned file, uint64_t blk,
			 uint64_t h)
{
	struct wl_thread_stats *st = r->st;
	bool timed = bc_timed(r);
	uint64_t acq = bc_lock_rw(&sh->rw, true, st, timed);
	struct bc_entry *e = bc_find(sh, file, blk, h);

	if (e) {
		atomic_store_explicit(&e->ref, true, memory_order_relaxed);
	} else {
		e = bc_add_spare(c, sh, r, file, blk, h);
		atomic_store_explicit(&e->ref, false, memory_order_relaxed);
		evict_clock(sh, st);
		r->spare = bc_free_pop(sh);
	}
	bc_book(st, acq, timed);
	pthread_rwlock_unlock(&sh->rw);
}

const struct bc_policy bc_clock_policy = { .get = clock_get, .insert = clock_insert };
