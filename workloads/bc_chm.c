/*
 * bc_chm.c - the block cache on a concurrent map, as the NioFile
 * benchmark's "MemoryLRUCache that used a ConcurrentHashMap from JDK 1.5": 16
 * segments, each a mutex that only puts (and their evictions) take,
 * while a get takes no lock at all: it walks the segment's chain with
 * acquire loads, as ConcurrentHashMap.get reads volatile fields.
 *
 * A ConcurrentHashMap keeps no access order, so a get cannot move an LRU
 * entry; the cheapest order a lock-free get can keep is a CLOCK bit,
 * set (once per sweep of the hand) on a hit; puts evict by CLOCK under
 * the segment lock. Java's GC kept a block alive while a get copied it;
 * here a get names the block in its hazard slot and checks it is still
 * cached (`live`) before copying, and an eviction that sees the slot
 * parks the block in the segment's limbo:
 *   get:   hazard = e (seq_cst); live && same key?  else a miss
 *   evict: live = false (seq_cst); unlink; hazard == e? limbo : free
 * One of the two sees the other, so no block is reused under a copy.
 */
#include "bc_internal.h"

#define MAX_CHAIN 64	/* a walk longer than any chain raced a reuse: a miss */

static struct bc_entry *chm_find(struct bc_shard *sh, unsigned file, uint64_t blk,
				 uint64_t h)
{
	struct bc_entry *e = __atomic_load_n(&sh->bucket[(h >> 8) & sh->mask],
					     __ATOMIC_ACQUIRE);

	for (int steps = 0; e && steps < MAX_CHAIN; steps++) {
		if (__atomic_load_n(&e->blk, __ATOMIC_RELAXED) == blk &&
		    __atomic_load_n(&e->file, __ATOMIC_RELAXED) == file)
			return e;
		e = __atomic_load_n(&e->hnext, __ATOMIC_ACQUIRE);
	}
	return NULL;
}

/* With the hazard set: is e still the cached copy of (file, blk)? */
static bool chm_valid(struct bc_entry *e, unsigned file, uint64_t blk)
{
	return atomic_load(&e->live) &&
	       __atomic_load_n(&e->blk, __ATOMIC_RELAXED) == blk &&
	       __atomic_load_n(&e->file, __ATOMIC_RELAXED) == file;
}

static void touch(struct bc_entry *e)
{
	if (!atomic_load_explicit(&e->ref, memory_order_relaxed))
		atomic_store_explicit(&e->ref, true, memory_order_relaxed);
}

/* A reader with no hazard slot: the get under the segment lock. */
static ssize_t locked_get(struct bc_shard *sh, struct bc_reader *r, unsigned file,
			  uint64_t blk, uint64_t h, size_t in, size_t n, void *dst)
{
	bool timed = bc_timed(r);
	uint64_t acq = bc_lock_mu(&sh->mu, r->st, timed);
	struct bc_entry *e = bc_find(sh, file, blk, h);
	ssize_t got = -1;

	if (e) {
		touch(e);
		got = (ssize_t)bc_copy(e, in, n, dst);
		r->st->hits++;
	}
	bc_book(r->st, acq, timed);
	pthread_mutex_unlock(&sh->mu);
	return got;
}

static ssize_t chm_get(struct bcache *c, struct bc_shard *sh, struct bc_reader *r,
		       unsigned file, uint64_t blk, uint64_t h, size_t in, size_t n,
		       void *dst)
{
	bool timed = bc_timed(r);
	uint64_t t0 = timed ? wl_now_ns() : 0;
	struct bc_entry *e;
	ssize_t got = -1;

	(void)c;
	if (!r->hazard)
		return locked_get(sh, r, file, blk, h, in, n, dst);
	e = chm_find(sh, file, blk, h);
	if (e) {
		atomic_store(&r->hazard->e, e);
		if (chm_valid(e, file, blk)) {
			touch(e);
			got = (ssize_t)bc_copy(e, in, n, dst);
			r->st->hits++;
		}
		atomic_store_explicit(&r->hazard->e, NULL, memory_order_release);
	}
	if (timed)
		r->st->lookup_ns += (wl_now_ns() - t0) * BC_TIME_EVERY;
	return got;
}

static void evict_chm(struct bcache *c, struct bc_shard *sh, struct wl_thread_stats *st)
{
	while (sh->nblocks > sh->max_blocks) {
		struct bc_entry *e = sh->order.next;

		if (atomic_exchange_explicit(&e->ref, false, memory_order_relaxed)) {
			bc_to_tail(sh, e);	/* second chance */
			continue;
		}
		atomic_store(&e->live, false);
		bc_del(sh, e);
		sh->evictions++;
		st->evictions++;
		bc_retire(c, sh, e);
	}
}

/* put(key, block) under the segment lock; a racing put of the same key
 * won: ours stays the reader's spare. */
static void chm_insert(struct bcache *c, struct bc_shard *sh, struct bc_reader *r,
		       unsigned file, uint64_t blk, uint64_t h)
{
	bool timed = bc_timed(r);
	uint64_t acq = bc_lock_mu(&sh->mu, r->st, timed);
	struct bc_entry *e = bc_find(sh, file, blk, h);

	if (e) {
		touch(e);
	} else {
		e = r->spare;
		__atomic_store_n(&e->file, file, __ATOMIC_RELAXED);
		__atomic_store_n(&e->blk, blk, __ATOMIC_RELAXED);
		e->hash = h;
		e->shard = (unsigned)(sh - c->shards);
		atomic_store_explicit(&e->ref, false, memory_order_relaxed);
		atomic_store_explicit(&e->live, true, memory_order_release);
		bc_add(sh, e);
		evict_chm(c, sh, r->st);
		if (sh->limbo)
			bc_limbo_drain(c, sh);
		r->spare = bc_free_pop(sh);
	}
	bc_book(r->st, acq, timed);
	pthread_mutex_unlock(&sh->mu);
}

const struct bc_policy bc_chm_policy = { .get = chm_get, .insert = chm_insert };
