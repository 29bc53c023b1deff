/*
 * idxhash.c - see idxhash.h. Linear probing; each slot keeps its full
 * hash, so growing rehashes without asking the caller for its keys.
 */
#include <stdlib.h>
#include "base/idxhash.h"

uint64_t idxhash_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ c[i]) * 0x100000001b3ull;
	return h;
}

/* the slot for hash in a table of cap slots: its own, or the first free */
static size_t probe(const struct idxhash_slot *s, size_t cap, uint64_t hash,
		    bool (*equal)(const void *ctx, int idx), const void *ctx)
{
	size_t at = (size_t)(hash ^ hash >> 29) & (cap - 1);

	for (; s[at].idx >= 0; at = (at + 1) & (cap - 1))
		if (equal && s[at].hash == hash && equal(ctx, s[at].idx))
			break;
	return at;
}

int idxhash_find(const struct idxhash *h, uint64_t hash,
		 bool (*equal)(const void *ctx, int idx), const void *ctx)
{
	if (!h->cap)
		return -1;
	return h->slot[probe(h->slot, h->cap, hash, equal, ctx)].idx;
}

static int grow(struct idxhash *h)
{
	size_t cap = h->cap ? 2 * h->cap : 64;
	struct idxhash_slot *s = malloc(cap * sizeof(*s));

	if (!s)
		return -1;
	for (size_t i = 0; i < cap; i++)
		s[i].idx = -1;
	for (size_t i = 0; i < h->cap; i++)
		if (h->slot[i].idx >= 0)
			s[probe(s, cap, h->slot[i].hash, NULL, NULL)] = h->slot[i];
	free(h->slot);
	h->slot = s;
	h->cap = cap;
	return 0;
}

int idxhash_add(struct idxhash *h, uint64_t hash, int idx)
{
	if (2 * (h->n + 1) > h->cap && grow(h))
		return -1;
	h->slot[probe(h->slot, h->cap, hash, NULL, NULL)] =
		(struct idxhash_slot){ .hash = hash, .idx = idx };
	h->n++;
	return 0;
}

void idxhash_free(struct idxhash *h)
{
	free(h->slot);
	*h = (struct idxhash){ 0 };
}
