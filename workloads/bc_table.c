/*
 * bc_table.c - a shard's hash table, its order list (LRU or CLOCK) and
 * its free list of preallocated blocks. The caller holds the shard lock.
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

	e->hnext = *b;
	*b = e;
	order_append(sh, e);
	sh->nblocks++;
}

void bc_del(struct bc_shard *sh, struct bc_entry *e)
{
	struct bc_entry **p = &sh->bucket[(e->hash >> 8) & sh->mask];

	while (*p != e)
		p = &(*p)->hnext;
	*p = e->hnext;
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
	e->hnext = sh->free;
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
