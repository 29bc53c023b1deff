/*
 * bc_table.c - a shard's hash table, its order list (LRU or CLOCK) and
 * its free list of preallocated blocks. The caller holds the shard lock.
 * Chain links are stored with release semantics (and the free list's
 * too, which shares the link): bcache-chm's gets walk the chains with no
 * lock (bc_chm.c), as a ConcurrentHashMap's get does.
 */
#include "bc_internal.h"

uint64_t bc_hash(unsigned file, uint64_t blk)
{
	return wl_mix64(((uint64_t)file << 40) ^ blk);
}

struct bc_entry *bc_find(struct bc_shard *sh, unsigned file, uint64_t blk,
			 uint64_t h)
{
	struct bc_entry *e = sh->bucket[(h >> 8) & sh->mask];

	while (e && (e->blk != blk || e->file != file))
		e = e->hnext;
	return e;
}

static void order_unlink(struct bc_entry *e)
{
	e->prev->next = e->next;
	e->next->prev = e->prev;
}

static void order_append(struct bc_shard *sh, struct bc_entry *e)
{
	e->prev = sh->order.prev;
	e->next = &sh->order;
	sh->order.prev->next = e;
	sh->order.prev = e;
}

void bc_add(struct bc_shard *sh, struct bc_entry *e)
{
	struct bc_entry **b = &sh->bucket[(e->hash >> 8) & sh->mask];

	__atomic_store_n(&e->hnext, *b, __ATOMIC_RELAXED);
	__atomic_store_n(b, e, __ATOMIC_RELEASE);
	order_append(sh, e);
	sh->nblocks++;
}

void bc_del(struct bc_shard *sh, struct bc_entry *e)
{
	struct bc_entry **p = &sh->bucket[(e->hash >> 8) & sh->mask];

	while (*p != e)
		p = &(*p)->hnext;
	__atomic_store_n(p, e->hnext, __ATOMIC_RELEASE);
	order_unlink(e);
	sh->nblocks--;
}

void bc_to_tail(struct bc_shard *sh, struct bc_entry *e)
{
	order_unlink(e);
	order_append(sh, e);
}

struct bc_entry *bc_free_pop(struct bc_shard *sh)
{
	struct bc_entry *e = sh->free;

	if (e)
		sh->free = e->hnext;
	return e;
}

void bc_free_push(struct bc_shard *sh, struct bc_entry *e)
{
	__atomic_store_n(&e->hnext, sh->free, __ATOMIC_RELAXED);
	sh->free = e;
}

struct bc_entry *bc_add_spare(struct bcache *c, struct bc_shard *sh, struct bc_reader *r,
			      unsigned file, uint64_t blk, uint64_t h)
{
	struct bc_entry *e = r->spare;

	e->file = file;
	e->blk = blk;
	e->hash = h;
	e->shard = (unsigned)(sh - c->shards);
	bc_add(sh, e);
	return e;
}

bool bc_hazardous(const struct bcache *c, const struct bc_entry *e)
{
	for (unsigned i = 0; i < c->nspares; i++)
		if (atomic_load(&c->hazards[i].e) == e)
			return true;
	return false;
}

void bc_retire(struct bcache *c, struct bc_shard *sh, struct bc_entry *e)
{
	if (bc_hazardous(c, e)) {
		__atomic_store_n(&e->hnext, sh->limbo, __ATOMIC_RELAXED);
		sh->limbo = e;
	} else {
		bc_free_push(sh, e);
	}
}

/* Evicted blocks no reader is copying any more go back to the free list. */
void bc_limbo_drain(struct bcache *c, struct bc_shard *sh)
{
	struct bc_entry **p = &sh->limbo;

	while (*p) {
		struct bc_entry *e = *p;

		if (bc_hazardous(c, e)) {
			p = &e->hnext;
			continue;
		}
		*p = e->hnext;
		bc_free_push(sh, e);
	}
}
