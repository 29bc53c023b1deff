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
	atomic_uint pins;		/* LRU: 1 while cached + readers copying */
	atomic_bool ref;		/* CLOCK: used since the hand last passed */
	unsigned char *data;
};

struct bc_shard {
	pthread_mutex_t mu;		/* BCACHE_LRU, BCACHE_SHARDED */
	pthread_rwlock_t rw;		/* BCACHE_RW */
	struct bc_entry **bucket;
	uint64_t mask;
	struct bc_entry order;		/* sentinel: order.next is the next victim */
	struct bc_entry *free;
	uint64_t nblocks, max_blocks, evictions;
} __attribute__((aligned(64)));

struct bc_policy {
	/* hit: copy [in, in+n) of the block to dst, return bytes; miss: -1 */
	ssize_t (*get)(struct bcache *c, struct bc_shard *sh, unsigned file,
		       uint64_t blk, uint64_t h, size_t in, size_t n, void *dst,
		       struct wl_thread_stats *st);
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
};

extern const struct bc_policy bc_lru_policy, bc_clock_policy;

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

static inline size_t bc_copy(const struct bc_entry *e, size_t in, size_t n,
			     void *dst)
{
	size_t have = e->len > in ? e->len - in : 0;

	n = n < have ? n : have;
	__builtin_memcpy(dst, e->data + in, n);
	return n;
}

#endif /* FCTRACE_BC_INTERNAL_H */
