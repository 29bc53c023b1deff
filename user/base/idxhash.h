/*
 * idxhash.h - an open-addressing index from a 64-bit hash to the
 * positions of an array the caller keeps: find-or-add over a growing
 * array without a scan per lookup (the watch loop's per-sample tables
 * had one, quadratic in their size on a big server).
 *
 * The caller hashes its key (idxhash_bytes) and says what equal means:
 *	int i = idxhash_find(&h, hash, same, key);
 *	if (i < 0) { i = append(...); idxhash_add(&h, hash, i); }
 */
#ifndef FCTRACE_IDXHASH_H
#define FCTRACE_IDXHASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct idxhash_slot {
	uint64_t hash;
	int idx;		/* -1: free */
};

struct idxhash {
	struct idxhash_slot *slot;
	size_t cap, n;		/* cap a power of two, kept at least twice n */
};

/* FNV-1a over n bytes, continuing from h (start with IDXHASH_SEED). */
#define IDXHASH_SEED	0xcbf29ce484222325ull
uint64_t idxhash_bytes(uint64_t h, const void *p, size_t n);

/* The position equal(ctx, position) says is the key's, or -1. */
int idxhash_find(const struct idxhash *h, uint64_t hash,
		 bool (*equal)(const void *ctx, int idx), const void *ctx);
/* Index position idx under hash; 0, or -1 out of memory. */
int idxhash_add(struct idxhash *h, uint64_t hash, int idx);
void idxhash_free(struct idxhash *h);

#endif
