/*
 * bc_internal.h - the block cache's insides, shared by its policies:
 * entries, shards (hash + list + free list) and the policy table.
 */
#ifndef FCTRACE_BC_INTERNAL_H
#define FCTRACE_BC_INTERNAL_H

#include "bcache.h"
#include "wl_internal.h"

struct bc_entry {
	uint64_t blk, hash;
	unsigned file;
	uint32_t len;			/* valid bytes: the last block is short */
	unsigned shard;
	struct bc_entry *hnext;		/* hash chain; free list */
	struct bc_entry *prev, *next;	/* LRU or CLOCK order */
	atomic_bool ref;		/* CLOCK: used since the hand last passed */
	atomic_bool live;		/* CHM: in the table (gets check it) */
	unsigned char *data;
};

struct bc_shard {
	pthread_mutex_t mu;		/* BCACHE_LRU, BCACHE_SHARDED, BCACHE_CHM */
	pthread_rwlock_t rw;		/* BCACHE_RW */
	struct bc_entry **bucket;
	uint64_t mask;
	struct bc_entry order;		/* sentinel: order.next is the next victim */
	struct bc_entry *free;
	struct bc_entry *limbo;		/* LRU: evicted while a reader copies it */
	uint64_t nblocks, max_blocks, evictions;
} __attribute__((aligned(64)));

struct bc_policy {
	/* hit: copy [in, in+n) of the block to dst, return bytes; miss: -1 */
	ssize_t (*get)(struct bcache *c, struct bc_shard *sh, struct bc_reader *r,
		       unsigned file, uint64_t blk, uint64_t h, size_t in, size_t n,
		       void *dst);
	/* r->spare holds the block just read: cache it, take a new spare */
	void (*insert)(struct bcache *c, struct bc_shard *sh, struct bc_reader *r,
		       unsigned file, uint64_t blk, uint64_t h);
};

struct bcache {
	const struct bc_policy *pol;
	enum bcache_kind kind;
	struct wl_io io;
	uint64_t block, budget;
	unsigned nshards;
	struct bc_shard *shards;
	struct bc_entry *slab;
	unsigned char *data;
	struct bc_entry **spares;	/* one per reader */
	unsigned nspares;
	atomic_uint spares_taken;
	struct bc_hazard *hazards;	/* one per reader, nspares of them */
};

/* LRU: the block a reader is copying after dropping the lock. Set under
 * the shard lock, cleared by a plain release store: no locked
 * instruction on the hit path; an evictor (holding the lock) leaves a
 * block named here in the shard's limbo instead of reusing it. */
struct bc_hazard {
	_Atomic(struct bc_entry *) e;
} __attribute__((aligned(64)));

extern const struct bc_policy bc_lru_policy, bc_clock_policy, bc_chm_policy;

uint64_t bc_hash(unsigned file, uint64_t blk);
struct bc_entry *bc_find(struct bc_shard *sh, unsigned file, uint64_t blk,
			 uint64_t h);
void bc_add(struct bc_shard *sh, struct bc_entry *e);	/* table + order tail */
void bc_del(struct bc_shard *sh, struct bc_entry *e);	/* table + order */
void bc_to_tail(struct bc_shard *sh, struct bc_entry *e);
struct bc_entry *bc_free_pop(struct bc_shard *sh);
void bc_free_push(struct bc_shard *sh, struct bc_entry *e);
/* an insert's miss, under the shard's exclusive lock: the reader's spare
 * (the block just read) is cached as (file, blk); the policy then sets
 * its own state, evicts, and gives the reader a new spare */
struct bc_entry *bc_add_spare(struct bcache *c, struct bc_shard *sh, struct bc_reader *r,
			      unsigned file, uint64_t blk, uint64_t h);

/* An evicted block: free, or to the limbo while a hazard slot names it;
 * the drain frees those no slot names any more. Shard lock held. */
bool bc_hazardous(const struct bcache *c, const struct bc_entry *e);
void bc_retire(struct bcache *c, struct bc_shard *sh, struct bc_entry *e);
void bc_limbo_drain(struct bcache *c, struct bc_shard *sh);

/*
 * The cache's own clocks are sampled: one lookup in BC_TIME_EVERY is
 * timed (hold and lookup time, scaled back up), as the ops are, because
 * two clock reads per block lookup were a third of the caches' user CPU
 * (perf, a run of the NioFile benchmark): the Java original had no such
 * timers. A contended acquisition is always timed, from the failed trylock, so
 * lock waits stay exact.
 */
#define BC_TIME_EVERY 64

static inline bool bc_timed(struct bc_reader *r)
{
	return (r->tick++ & (BC_TIME_EVERY - 1)) == 0;
}

/* Take a mutex or a read-write lock; returns when it was held, or 0 if
 * the acquisition was neither timed nor contended. */
uint64_t bc_lock_mu(pthread_mutex_t *m, struct wl_thread_stats *st, bool timed);
uint64_t bc_lock_rw(pthread_rwlock_t *l, bool write, struct wl_thread_stats *st,
		    bool timed);
/* Book the hold (lookup time too) of a timed acquisition, before unlock. */
void bc_book(struct wl_thread_stats *st, uint64_t acq, bool timed);

static inline size_t bc_copy(const struct bc_entry *e, size_t in, size_t n,
			     void *dst)
{
	size_t have = e->len > in ? e->len - in : 0;

	n = n < have ? n : have;
	__builtin_memcpy(dst, e->data + in, n);
	return n;
}

#endif /* FCTRACE_BC_INTERNAL_H */
