/*
 * bcache.h - Lucene's NioFile + MemoryLRUCache (docs/benchmarks.md):
 * one cache of fixed-size blocks keyed by (file, block number), bounded
 * in bytes, in front of positional reads. Three ways to lock it:
 *   BCACHE_LRU      one global mutex around every get and put (as found)
 *   BCACHE_RW       a read-write lock; gets under the read lock (CLOCK)
 *   BCACHE_SHARDED  lock striping: N shards, each its own mutex and LRU
 *                   (every get still takes its shard's mutex)
 *   BCACHE_CHM      a concurrent map: N segments, gets take no lock,
 *                   puts the segment's mutex; CLOCK per segment
 *
 *   c = bcache_create(&cfg, io);
 *   bcache_reader_init(c, &r, &stats);      one reader per thread
 *   n = bcache_read(&r, file, fd, off, len, buf);
 *   bcache_reader_fini(&r);  bcache_destroy(c);
 */
#ifndef FCTRACE_BCACHE_H
#define FCTRACE_BCACHE_H

#include <pthread.h>
#include "workload.h"

enum bcache_kind { BCACHE_LRU, BCACHE_RW, BCACHE_SHARDED, BCACHE_CHM };

struct bcache_cfg {
	enum bcache_kind kind;
	uint64_t block;		/* bytes per block */
	uint64_t budget;	/* bytes; blocks cached <= budget / block */
	unsigned shards;	/* SHARDED, CHM: 0 = 16; capped so each
				 * shard holds at least one block */
	unsigned readers;	/* most readers at once (threads) */
};

struct bcache;
struct bc_entry;
struct bc_hazard;

/* One thread's handle on the cache: a spare block to read misses into. */
struct bc_reader {
	struct bcache *c;
	struct bc_entry *spare;		/* NULL: misses are read but not cached */
	unsigned char *scratch;
	struct wl_thread_stats *st;
	struct bc_hazard *hazard;	/* NULL: this reader copies under the lock */
	unsigned tick;			/* lookups so far, for the sampled timers */
};

struct bcache *bcache_create(const struct bcache_cfg *cfg, const struct wl_io *io);
void bcache_destroy(struct bcache *c);
int bcache_reader_init(struct bcache *c, struct bc_reader *r,
		       struct wl_thread_stats *st);
void bcache_reader_fini(struct bc_reader *r);

/* Read len bytes of `file` at off, through fd on a miss. Returns the
 * bytes read (short at end of file) or -errno. */
ssize_t bcache_read(struct bc_reader *r, unsigned file, int fd, uint64_t off,
		    size_t len, void *buf);

/* For tests: is the block cached? Does not count as an access. */
bool bcache_contains(struct bcache *c, unsigned file, uint64_t blk);
unsigned bcache_shards(const struct bcache *c);
/* evictions, cache_bytes, cache_blocks (hits/misses live in the stats
 * of each reader: counted exactly per thread, summed by the caller) */
void bcache_totals(struct bcache *c, struct wl_totals *out);
int bcache_locks(struct bcache *c, struct wl_lock_desc *out, int max);

#endif /* FCTRACE_BCACHE_H */
