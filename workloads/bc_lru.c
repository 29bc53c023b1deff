/*
 * bc_lru.c - MemoryLRUCache's locking: every get and put under one mutex
 * per shard (BCACHE_LRU has one shard: the global lock as found;
 * BCACHE_SHARDED stripes the same thing over N shards).
 *
 * get moves the block to the most-recent end (access order), so even a
 * hit writes the list: that is why it needs the exclusive lock. The hit's
 * bytes are copied after the lock is dropped, as Java copied from the
 * block array it got back. Java had the GC to keep an evicted array
 * alive until that copy was done; here the reader names the block in its
 * hazard slot (a plain store under the lock, a release store after the
 * copy) and an eviction that finds it named parks it in the shard's
 * limbo until the copy is over. (Until 2026-12 a pin count did this with
 * two locked instructions per hit, ~13 % of the hit path's user CPU.)
 */
#include "bc_internal.h"

static ssize_t lru_get(struct bcache *c, struct bc_shard *sh, struct bc_reader *r,
		       unsigned file, uint64_t blk, uint64_t h, size_t in, size_t n,
		       void *dst)
{
	bool timed = bc_timed(r);
	uint64_t acq = bc_lock_mu(&sh->mu, r->st, timed);
	struct bc_entry *e = bc_find(sh, file, blk, h);
	size_t got = 0;

	if (e) {
		bc_to_tail(sh, e);
		if (r->hazard)
			atomic_store_explicit(&r->hazard->e, e, memory_order_relaxed);
		else
			got = bc_copy(e, in, n, dst);	/* no slot: copy under the lock */
	}
	bc_book(r->st, acq, timed);
	pthread_mutex_unlock(&sh->mu);
	if (!e)
		return -1;
	r->st->hits++;
	if (r->hazard) {
		got = bc_copy(e, in, n, dst);
		atomic_store_explicit(&r->hazard->e, NULL, memory_order_release);
	}
	return (ssize_t)got;
}

static void evict_lru(struct bcache *c, struct bc_shard *sh, struct wl_thread_stats *st)
{
	while (sh->nblocks > sh->max_blocks) {
		struct bc_entry *e = sh->order.next;

		bc_del(sh, e);
		sh->evictions++;
		st->evictions++;
		bc_retire(c, sh, e);
	}
}

/* put(key, block): a racing miss may have put it first; then, like
 * LinkedHashMap.put, the key just becomes most recent and our copy
 * stays the reader's spare. */
static void lru_insert(struct bcache *c, struct bc_shard *sh, struct bc_reader *r,
		       unsigned file, uint64_t blk, uint64_t h)
{
	bool timed = bc_timed(r);
	uint64_t acq = bc_lock_mu(&sh->mu, r->st, timed);
	struct bc_entry *e = bc_find(sh, file, blk, h);

	if (e) {
		bc_to_tail(sh, e);
	} else {
		e = bc_add_spare(c, sh, r, file, blk, h);
		evict_lru(c, sh, r->st);
		if (sh->limbo)
			bc_limbo_drain(c, sh);
		r->spare = bc_free_pop(sh);
	}
	bc_book(r->st, acq, timed);
	pthread_mutex_unlock(&sh->mu);
}

const struct bc_policy bc_lru_policy = { .get = lru_get, .insert = lru_insert };
