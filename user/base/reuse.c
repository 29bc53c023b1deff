/*
 * reuse.c - LRU stack distances and the miss-ratio curve (reuse.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "base/reuse.h"

/* distances below EXACT are counted one by one (a cache of 50 against 60
 * files must not blur), above it in 64 buckets per power of two (1.6 %) */
#define EXACT_BITS	10
#define EXACT		(1u << EXACT_BITS)
#define SUB_BITS	6
#define NBUCKETS	(EXACT + (64 - EXACT_BITS) * (1u << SUB_BITS))
#define MIN_POSITIONS	(1u << 16)

struct slot {
	uint64_t key;
	uint64_t pos;		/* its latest reference; ~0: empty */
	uint32_t hash;
};

struct reuse {
	uint32_t max_keys, threshold;
	struct slot *table;	/* open addressing, linear probing */
	uint64_t tcap, nkeys;
	int32_t *fen;		/* Fenwick tree over positions, 1-based */
	uint64_t pcap, next_pos, marks;
	double hist[NBUCKETS];	/* weight of the references by scaled distance */
	double cold, weight;	/* first references; all kept references */
	uint64_t refs, lost;
};

uint32_t reuse_hash(uint64_t key)
{
	uint64_t z = key + 0x9e3779b97f4a7c15ull;	/* splitmix64's finaliser */

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return (uint32_t)(z >> 40);
}

static unsigned bucket_of(uint64_t d)
{
	unsigned p;

	if (d < EXACT)
		return (unsigned)d;
	p = 63u - (unsigned)__builtin_clzll(d);
	return EXACT + (p - EXACT_BITS) * (1u << SUB_BITS) +
	       (unsigned)((d >> (p - SUB_BITS)) & ((1u << SUB_BITS) - 1));
}

/* The smallest distance bucket b holds, and how many it holds. */
static void bucket_range(unsigned b, double *low, double *width)
{
	unsigned p, sub;

	if (b < EXACT) {
		*low = b, *width = 1;
		return;
	}
	p = EXACT_BITS + (b - EXACT) / (1u << SUB_BITS);
	sub = (b - EXACT) % (1u << SUB_BITS);
	*width = (double)(1ull << (p - SUB_BITS));
	*low = (double)(1ull << p) + sub * *width;
}

/* ---- the Fenwick tree ----------------------------------------------------- */

static void fen_add(struct reuse *r, uint64_t pos, int32_t v)
{
	for (uint64_t i = pos + 1; i <= r->pcap; i += i & -i)
		r->fen[i] += v;
}

/* marks at positions [0, pos] */
static uint64_t fen_prefix(const struct reuse *r, uint64_t pos)
{
	int64_t s = 0;

	for (uint64_t i = pos + 1; i > 0; i -= i & -i)
		s += r->fen[i];
	return (uint64_t)s;
}

static int by_pos(const void *a, const void *b)
{
	const struct slot *x = *(const struct slot *const *)a, *y = *(const struct slot *const *)b;

	return (x->pos > y->pos) - (x->pos < y->pos);
}

/* Renumber the live keys 0..n-1 in order of their latest reference, in a
 * tree sized for them: positions are reused, the order is kept. */
static int compact(struct reuse *r)
{
	uint64_t n = 0, cap = r->nkeys * 4 > MIN_POSITIONS ? r->nkeys * 4 : MIN_POSITIONS;
	struct slot **live = malloc((r->nkeys ? r->nkeys : 1) * sizeof(*live));
	int32_t *fen = calloc(cap + 1, sizeof(*fen));

	if (!live || !fen) {
		free(live), free(fen);
		return -ENOMEM;
	}
	for (uint64_t i = 0; i < r->tcap; i++)
		if (r->table[i].pos != ~0ull)
			live[n++] = &r->table[i];
	qsort(live, n, sizeof(*live), by_pos);
	free(r->fen);
	r->fen = fen, r->pcap = cap, r->next_pos = 0, r->marks = 0;
	for (uint64_t i = 0; i < n; i++) {
		live[i]->pos = r->next_pos++;
		fen_add(r, live[i]->pos, 1);
		r->marks++;
	}
	free(live);
	return 0;
}

/* ---- the key table -------------------------------------------------------- */

static struct slot *find(const struct reuse *r, uint64_t key, uint32_t hash)
{
	uint64_t i = ((uint64_t)hash * 0x9e3779b1u + key) & (r->tcap - 1);

	while (r->table[i].pos != ~0ull && r->table[i].key != key)
		i = (i + 1) & (r->tcap - 1);
	return &r->table[i];
}

static int rehash(struct reuse *r, uint64_t cap)
{
	struct slot *old = r->table;
	uint64_t ocap = r->tcap;

	if (!(r->table = malloc(cap * sizeof(*r->table)))) {
		r->table = old;
		return -ENOMEM;
	}
	r->tcap = cap;
	for (uint64_t i = 0; i < cap; i++)
		r->table[i].pos = ~0ull;
	for (uint64_t i = 0; i < ocap; i++)
		if (old[i].pos != ~0ull && old[i].hash < r->threshold)
			*find(r, old[i].key, old[i].hash) = old[i];
	free(old);
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* Past max_keys: lower the threshold so that about an eighth of the kept
 * keys fall out, and forget them (their marks too). */
static int lower_threshold(struct reuse *r)
{
	uint32_t *h = malloc(r->nkeys * sizeof(*h));
	uint64_t n = 0, kept = 0;

	if (!h)
		return -ENOMEM;
	for (uint64_t i = 0; i < r->tcap; i++)
		if (r->table[i].pos != ~0ull)
			h[n++] = r->table[i].hash;
	qsort(h, n, sizeof(*h), cmp_u32);
	r->threshold = h[n - n / 8 - 1];
	free(h);
	for (uint64_t i = 0; i < r->tcap; i++) {
		struct slot *s = &r->table[i];

		if (s->pos == ~0ull || s->hash < r->threshold)
			continue;
		fen_add(r, s->pos, -1);
		r->marks--;
	}
	for (uint64_t i = 0; i < r->tcap; i++)
		kept += r->table[i].pos != ~0ull && r->table[i].hash < r->threshold;
	r->nkeys = kept;
	return rehash(r, r->tcap);
}

/* ---- the stream ----------------------------------------------------------- */

struct reuse *reuse_new(uint32_t max_keys)
{
	struct reuse *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->max_keys = max_keys;
	r->threshold = REUSE_RATE_ONE;
	r->pcap = MIN_POSITIONS;
	r->fen = calloc(r->pcap + 1, sizeof(*r->fen));
	if (!r->fen || rehash(r, 1024)) {
		reuse_free(r);
		return NULL;
	}
	return r;
}

void reuse_free(struct reuse *r)
{
	if (!r)
		return;
	free(r->table);
	free(r->fen);
	free(r);
}

double reuse_rate(const struct reuse *r)
{
	return (double)r->threshold / REUSE_RATE_ONE;
}

static int room(struct reuse *r)
{
	if (r->max_keys && r->nkeys >= r->max_keys && lower_threshold(r))
		return -ENOMEM;
	if ((r->nkeys + 1) * 2 > r->tcap && rehash(r, r->tcap * 2))
		return -ENOMEM;
	if (r->next_pos >= r->pcap && compact(r))
		return -ENOMEM;
	return 0;
}

int reuse_ref(struct reuse *r, uint64_t key)
{
	uint32_t hash = reuse_hash(key);
	double rate = reuse_rate(r);
	struct slot *s;

	r->refs++;
	if (hash >= r->threshold)
		return 0;			/* not in the sample */
	if (room(r)) {
		r->lost++;
		return -ENOMEM;
	}
	if (hash >= r->threshold)		/* room() lowered it */
		return 0;
	s = find(r, key, hash);
	if (s->pos == ~0ull) {
		*s = (struct slot){ .key = key, .hash = hash };
		r->nkeys++;
		r->cold += 1 / rate;
	} else {
		uint64_t d = r->marks - fen_prefix(r, s->pos);

		r->hist[bucket_of((uint64_t)((double)d / rate))] += 1 / rate;
		fen_add(r, s->pos, -1);
		r->marks--;
	}
	s->pos = r->next_pos++;
	fen_add(r, s->pos, 1);
	r->marks++;
	r->weight += 1 / rate;
	return 0;
}

uint64_t reuse_refs(const struct reuse *r)
{
	return r->refs;
}

double reuse_refs_est(const struct reuse *r)
{
	return r->weight;
}

double reuse_keys_est(const struct reuse *r)
{
	return r->cold;
}

uint64_t reuse_lost(const struct reuse *r)
{
	return r->lost;
}

double reuse_hits_at(const struct reuse *r, uint64_t size)
{
	double hits = 0;

	for (unsigned b = 0; b < NBUCKETS; b++) {
		double low, width;

		if (!r->hist[b])
			continue;
		bucket_range(b, &low, &width);
		if (low + width <= (double)size)
			hits += r->hist[b];
		else if (low < (double)size)	/* spread evenly over the bucket */
			hits += r->hist[b] * ((double)size - low) / width;
	}
	return hits;
}

uint64_t reuse_size_for_ceiling(const struct reuse *r, double slack)
{
	double ceiling = r->weight - r->cold;

	return ceiling > 0 ? reuse_size_for_hits(r, ceiling - slack * r->weight) : 0;
}

double reuse_ceiling(const struct reuse *r)
{
	return r->weight > r->cold ? r->weight - r->cold : 0;
}

uint64_t reuse_size_for_hits(const struct reuse *r, double want)
{
	uint64_t lo = 0, hi = 1;

	if (want > r->weight - r->cold)
		return 0;	/* no size reaches it */
	while (reuse_hits_at(r, hi) < want && hi < (1ull << 40))	/* sums' rounding */
		hi *= 2;
	while (lo + 1 < hi) {		/* hits grow with the size */
		uint64_t mid = lo + (hi - lo) / 2;

		if (reuse_hits_at(r, mid) >= want)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}
