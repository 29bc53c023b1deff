/*
 * bcache.c - NioFile's read path over the block cache, and the cache's
 * life cycle. Every block lives in one slab made at create time, so the
 * measured window never allocates: each shard starts with room for its
 * budget plus slack (blocks pinned by readers while evicted, and the
 * momentary extra block between insert and eviction), and each reader
 * owns one spare block that misses are read into.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bc_internal.h"

#define DEFAULT_SHARDS 16

static unsigned shard_count(const struct bcache_cfg *cfg)
{
	uint64_t blocks = cfg->budget / cfg->block;
	bool striped = cfg->kind == BCACHE_SHARDED || cfg->kind == BCACHE_CHM;
	unsigned n = !striped ? 1 :
		     cfg->shards ? cfg->shards : DEFAULT_SHARDS;

	/* each shard must hold a block, or the total would pass the budget */
	return blocks < n ? (unsigned)blocks : n;
}

static int shard_init(struct bc_shard *sh, uint64_t max_blocks)
{
	uint64_t nb = 16;

	while (nb < max_blocks + 1)
		nb <<= 1;
	sh->bucket = calloc(nb, sizeof(*sh->bucket));
	if (!sh->bucket)
		return -ENOMEM;
	sh->mask = nb - 1;
	sh->max_blocks = max_blocks;
	sh->order.next = sh->order.prev = &sh->order;
	pthread_mutex_init(&sh->mu, NULL);
	pthread_rwlock_init(&sh->rw, NULL);
	return 0;
}

/* Carve the slab: `slack` blocks per shard beyond its budget, and one
 * spare per reader. */
static int slab_init(struct bcache *c, unsigned readers)
{
	uint64_t slack = readers + 2, total = readers, k = 0;

	for (unsigned s = 0; s < c->nshards; s++)
		total += c->shards[s].max_blocks + slack;
	c->slab = calloc(total, sizeof(*c->slab));
	c->data = malloc(total * c->block);
	c->spares = calloc(readers ? readers : 1, sizeof(*c->spares));
	c->hazards = aligned_alloc(64, (readers ? readers : 1) * sizeof(*c->hazards));
	if (!c->slab || !c->data || !c->spares || !c->hazards)
		return -ENOMEM;
	for (uint64_t i = 0; i < total; i++)
		c->slab[i].data = c->data + i * c->block;
	for (unsigned s = 0; s < c->nshards; s++)
		for (uint64_t i = 0; i < c->shards[s].max_blocks + slack; i++)
			bc_free_push(&c->shards[s], &c->slab[k++]);
	for (unsigned i = 0; i < readers; i++) {
		c->spares[i] = &c->slab[k++];
		atomic_init(&c->hazards[i].e, NULL);
	}
	c->nspares = readers;
	return 0;
}

struct bcache *bcache_create(const struct bcache_cfg *cfg, const struct wl_io *io)
{
	struct bcache *c = calloc(1, sizeof(*c));
	uint64_t per;

	if (!c || !cfg->block || cfg->budget < cfg->block)
		goto fail;
	c->kind = cfg->kind;
	c->pol = cfg->kind == BCACHE_RW ? &bc_clock_policy :
		 cfg->kind == BCACHE_CHM ? &bc_chm_policy : &bc_lru_policy;
	c->io = *io;
	c->block = cfg->block;
	c->budget = cfg->budget;
	c->nshards = shard_count(cfg);
	c->shards = aligned_alloc(64, c->nshards * sizeof(*c->shards));
	if (!c->shards)
		goto fail;
	memset(c->shards, 0, c->nshards * sizeof(*c->shards));
	per = cfg->budget / c->nshards / cfg->block;
	for (unsigned s = 0; s < c->nshards; s++)
		if (shard_init(&c->shards[s], per))
			goto fail;
	if (slab_init(c, cfg->readers))
		goto fail;
	return c;
fail:
	bcache_destroy(c);
	return NULL;
}

void bcache_destroy(struct bcache *c)
{
	if (!c)
		return;
	for (unsigned s = 0; c->shards && s < c->nshards; s++) {
		if (!c->shards[s].bucket)
			continue;
		free(c->shards[s].bucket);
		pthread_mutex_destroy(&c->shards[s].mu);
		pthread_rwlock_destroy(&c->shards[s].rw);
	}
	free(c->shards);
	free(c->slab);
	free(c->data);
	free(c->spares);
	free(c->hazards);
	free(c);
}

int bcache_reader_init(struct bcache *c, struct bc_reader *r,
		       struct wl_thread_stats *st)
{
	unsigned i = atomic_fetch_add(&c->spares_taken, 1);

	r->c = c;
	r->st = st;
	r->spare = i < c->nspares ? c->spares[i] : NULL;
	r->hazard = i < c->nspares ? &c->hazards[i] : NULL;
	r->tick = 0;
	r->scratch = malloc(c->block);
	return r->scratch ? 0 : -ENOMEM;
}

/* The spare goes back with the slab in bcache_destroy. */
void bcache_reader_fini(struct bc_reader *r)
{
	free(r->scratch);
	r->scratch = NULL;
	r->spare = NULL;
	r->hazard = NULL;
}

/* Miss: read the whole block outside any lock, copy out, then cache it. */
static ssize_t miss(struct bc_reader *r, struct bc_shard *sh, unsigned file,
		    int fd, uint64_t blk, uint64_t h, size_t in, size_t n,
		    void *dst)
{
	struct bcache *c = r->c;
	unsigned char *data = r->spare ? r->spare->data : r->scratch;
	uint64_t t0 = wl_now_ns();
	ssize_t len = c->io.pread(c->io.ctx, fd, data, c->block,
				  (off_t)(blk * c->block));
	size_t got;

	r->st->miss_read_ns += wl_now_ns() - t0;
	r->st->misses++;
	if (len < 0)
		return -errno;
	got = (size_t)len > in ? (size_t)len - in : 0;
	got = n < got ? n : got;
	memcpy(dst, data + in, got);
	if (r->spare && len > 0) {
		r->spare->len = (uint32_t)len;
		c->pol->insert(c, sh, r, file, blk, h);
	}
	return (ssize_t)got;
}

ssize_t bcache_read(struct bc_reader *r, unsigned file, int fd, uint64_t off,
		    size_t len, void *buf)
{
	struct bcache *c = r->c;
	size_t done = 0;

	while (done < len) {
		uint64_t pos = off + done, blk = pos / c->block, h = bc_hash(file, blk);
		size_t in = pos % c->block, n = c->block - in;
		struct bc_shard *sh = &c->shards[h % c->nshards];
		ssize_t got;

		n = n < len - done ? n : len - done;
		got = c->pol->get(c, sh, r, file, blk, h, in, n, (char *)buf + done);
		if (got < 0)
			got = miss(r, sh, file, fd, blk, h, in, n, (char *)buf + done);
		if (got < 0)
			return done ? (ssize_t)done : got;
		done += (size_t)got;
		if ((size_t)got < n)
			break;	/* end of file */
	}
	return (ssize_t)done;
}

static void shard_lock(struct bcache *c, struct bc_shard *sh)
{
	if (c->kind == BCACHE_RW)
		pthread_rwlock_wrlock(&sh->rw);
	else
		pthread_mutex_lock(&sh->mu);
}

static void shard_unlock(struct bcache *c, struct bc_shard *sh)
{
	if (c->kind == BCACHE_RW)
		pthread_rwlock_unlock(&sh->rw);
	else
		pthread_mutex_unlock(&sh->mu);
}

bool bcache_contains(struct bcache *c, unsigned file, uint64_t blk)
{
	uint64_t h = bc_hash(file, blk);
	struct bc_shard *sh = &c->shards[h % c->nshards];
	bool found;

	shard_lock(c, sh);
	found = bc_find(sh, file, blk, h) != NULL;
	shard_unlock(c, sh);
	return found;
}

unsigned bcache_shards(const struct bcache *c)
{
	return c->nshards;
}

void bcache_totals(struct bcache *c, struct wl_totals *out)
{
	memset(out, 0, sizeof(*out));
	out->has_cache = true;
	for (unsigned s = 0; s < c->nshards; s++) {
		struct bc_shard *sh = &c->shards[s];

		shard_lock(c, sh);
		out->evictions += sh->evictions;
		out->cache_blocks += sh->nblocks;
		shard_unlock(c, sh);
	}
	out->cache_bytes = out->cache_blocks * c->block;
}

/* The futex words the kernel view should name: the lock of each shard. */
int bcache_locks(struct bcache *c, struct wl_lock_desc *out, int max)
{
	int n = 0;

	for (unsigned s = 0; s < c->nshards && n < max; s++, n++) {
		struct bc_shard *sh = &c->shards[s];

		memset(&out[n], 0, sizeof(out[n]));
		if (c->kind == BCACHE_RW) {
			snprintf(out[n].name, sizeof(out[n].name), "bcache.rwlock");
			out[n].kind = LK_RWLOCK;
			out[n].addr = (uint64_t)(uintptr_t)&sh->rw;
			out[n].size = sizeof(sh->rw);
		} else {
			if (c->kind == BCACHE_SHARDED)
				snprintf(out[n].name, sizeof(out[n].name), "bcache.shard%u", s);
			else if (c->kind == BCACHE_CHM)
				snprintf(out[n].name, sizeof(out[n].name), "bcache.seg%u", s);
			else
				snprintf(out[n].name, sizeof(out[n].name), "bcache.lru");
			out[n].kind = LK_MUTEX;
			out[n].addr = (uint64_t)(uintptr_t)&sh->mu;
			out[n].size = sizeof(sh->mu);
		}
	}
	return n;
}
