/*
 * reuse.h - LRU stack distances of a reference stream, and from them the
 * hit ratio an LRU cache of every size would have had on it (a miss-ratio
 * curve). Mattson's stack algorithm, counted with a Fenwick tree over the
 * references' positions (each key marked at its latest reference: the
 * distance of a reference is the number of marks after its key's last
 * one), O(log n) a reference.
 *
 * Where the stream has many keys, keys are sampled spatially as SHARDS
 * does (Waldspurger et al., FAST'15): a key is kept when its hash falls
 * under a threshold, rate R = threshold / 2^24, and a kept reference's
 * distance stands for distance / R at weight 1 / R. With a bound on the
 * keys kept (fixed-size SHARDS) the threshold is lowered to the largest
 * kept hash whenever the bound is passed, and the keys at or above it
 * are dropped: memory stays bounded whatever the stream.
 */
#ifndef FCTRACE_REUSE_H
#define FCTRACE_REUSE_H

#include <stdbool.h>
#include <stdint.h>

#define REUSE_RATE_ONE	(1u << 24)	/* the threshold that keeps every key */

struct reuse;

/* max_keys: the keys kept before sampling starts (0: never sample) */
struct reuse *reuse_new(uint32_t max_keys);
void reuse_free(struct reuse *r);

/* One reference to key. -ENOMEM when memory ran out (the reference is
 * then not counted; reuse_lost says how many were not). */
int reuse_ref(struct reuse *r, uint64_t key);

/* A key's sampling hash, in [0, 2^24): the same for a key wherever asked
 * (a BPF program may sample with it before sending). */
uint32_t reuse_hash(uint64_t key);

/* The sampling rate now (1 when every key is kept). */
double reuse_rate(const struct reuse *r);

/* The references seen (all, sampled or not), their estimate from the
 * sampled ones, and the distinct keys (estimated from the kept ones). */
uint64_t reuse_refs(const struct reuse *r);
double reuse_refs_est(const struct reuse *r);
double reuse_keys_est(const struct reuse *r);
uint64_t reuse_lost(const struct reuse *r);

/* The hits an LRU of `size` keys would have had on the stream (estimated
 * when sampled): the references whose distance is below size. A
 * first reference is a miss at every size. */
double reuse_hits_at(const struct reuse *r, uint64_t size);

/* The smallest size whose hits reach within `slack` (a share of the
 * references, e.g. 0.005) of an unbounded cache's. */
uint64_t reuse_size_for_ceiling(const struct reuse *r, double slack);
/* The smallest size (at least 1) whose hits reach `hits` (estimated, as
 * reuse_hits_at counts them); 0 when past the ceiling. */
uint64_t reuse_size_for_hits(const struct reuse *r, double hits);
/* The hits of an unbounded cache: every reference but the first of each key. */
double reuse_ceiling(const struct reuse *r);

#endif /* FCTRACE_REUSE_H */
