/*
 * bc_lru.c - MemoryLRUCache's locking: every get and put under one mutex
 * per shard (BCACHE_LRU has one shard: the global lock as found;
 * BCACHE_SHARDED stripes the same thing over N shards).
 *
 * get moves the block to the most-recent end (access order), so even a
 * hit writes the list: that is why it needs the exclusive lock. The hit's
 * bytes are copied after the lock is dropped, as Java copied from the
 * block array it got back; a pin keeps an evicted block from being
 * reused until the copy is done (Java had the GC for that).
 */
#include "bc_internal.h"

/* Drop one pin; the last one returns the block to its shard. */
static void unpin(struct bc_shard *sh, struct bc_entry *e)
{
	if (atomic_fetch_sub(&e->pins, 1) == 1)
		bc_free_push(sh, e);
}

static ssize_t lru_get(struct bcache *c, struct bc_shard *sh, unsigned file,
		       uint64_t blk, uint64_t h, size_t in, size_t n, void *dst,
		       struct wl_thread_stats *st)
{
	uint64_t t0 = wl_now_ns(), acq = wl_lock(&sh->mu, st, t0);
	struct bc_entry *e = bc_find(sh, file, blk, h);
	size_t got;

	if (e) {
		bc_to_tail(sh, e);
		atomic_fetch_add(&e->pins, 1);
	}
	st->lookup_ns += wl_unlock(&sh->mu, st, acq) - t0;
	if (!e)
		return -1;
	st->hits++;
	got = bc_copy(e, in, n, dst);
	/* evicted while we copied: it is ours to give back, under the lock */
	if (atomic_fetch_sub(&e->pins, 1) == 1) {
		struct bc_shard *home = &c->shards[e->shard];

		pthread_mutex_lock(&home->mu);
		bc_free_push(home, e);
		pthread_mutex_unlock(&home->mu);
	}
	return (ssize_t)got;
}

static void evict_lru(struct bc_shard *sh, struct wl_thread_stats *st)
{
	while (sh->nblocks > sh->max_blocks) {
		struct bc_entry *e = sh->order.next;

		bc_del(sh, e);
		sh->evictions++;
		st->evictions++;
		unpin(sh, e);
	}
}

/* put(key, block): a racing miss may have put it first; then, like
 * LinkedHashMap.put, the key just becomes most recent and our copy
 * stays the reader's spare. */
static void lru_insert(struct bcache *c, struct bc_shard *sh, struct bc_reader *r,
		       unsigned file, uint64_t blk, uint64_t h)
{
	struct wl_thread_stats *st = r->st;
	uint64_t t0 = wl_now_ns(), acq = wl_lock(&sh->mu, st, t0);
	struct bc_entry *e = bc_find(sh, file, blk, h);

	if (e) {
		bc_to_tail(sh, e);
	} else {
		e = bc_add_spare(c, sh, r, file, blk, h);
		atomic_store(&e->pins, 1);
		evict_lru(sh, st);
		r->spare = bc_free_pop(sh);
	}
	st->lookup_ns += wl_unlock(&sh->mu, st, acq) - t0;
}

const struct bc_policy bc_lru_policy = { .get = lru_get, .insert = lru_insert };
