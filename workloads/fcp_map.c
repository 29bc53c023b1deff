/*
 * fcp_map.c - name -> channel hash and the channel slab, for both pools.
 * The caller holds the pool lock around every call.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "fcp_map.h"

/* Beyond capacity, a pool only grows while every channel is in use:
 * at most one extra channel per caller holding one. */
#define SLAB_EXTRA (WL_MAX_THREADS + 2)

int fcp_map_init(struct fcp_map *m, unsigned capacity)
{
	uint64_t n = (uint64_t)capacity + SLAB_EXTRA, nb = 16;

	memset(m, 0, sizeof(*m));
	while (nb < 2 * n)
		nb <<= 1;
	m->bucket = calloc(nb, sizeof(*m->bucket));
	m->slab = calloc(n, sizeof(*m->slab));
	if (!m->bucket || !m->slab) {
		fcp_map_fini(m);
		return -ENOMEM;
	}
	m->mask = nb - 1;
	for (uint64_t i = 0; i < n; i++) {
		m->slab[i].hnext = m->free;
		m->free = &m->slab[i];
	}
	return 0;
}

void fcp_map_fini(struct fcp_map *m)
{
	free(m->bucket);
	free(m->slab);
	m->bucket = NULL;
	m->slab = NULL;
}

/* FNV-1a: the names are short and differ in their last digits */
uint64_t fcp_hash(const char *name)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 0x100000001b3ull;
	return wl_mix64(h);
}

struct fcp_chan *fcp_map_find(struct fcp_map *m, const char *name, uint64_t h)
{
	struct fcp_chan *ch = m->bucket[h & m->mask];

	while (ch && (ch->hash != h || strcmp(ch->name, name)))
		ch = ch->hnext;
	return ch;
}

struct fcp_chan *fcp_chan_new(struct fcp_map *m, const char *name, uint64_t h,
			      int fd)
{
	struct fcp_chan *ch = m->free;

	if (!ch)
		return NULL;
	m->free = ch->hnext;
	memset(ch, 0, sizeof(*ch));
	ch->name = name;
	ch->hash = h;
	ch->fd = fd;
	return ch;
}

void fcp_map_add(struct fcp_map *m, struct fcp_chan *ch)
{
	struct fcp_chan **b = &m->bucket[ch->hash & m->mask];

	ch->hnext = *b;
	*b = ch;
	m->count++;
}

void fcp_map_del(struct fcp_map *m, struct fcp_chan *ch)
{
	struct fcp_chan **p = &m->bucket[ch->hash & m->mask];

	while (*p != ch)
		p = &(*p)->hnext;
	*p = ch->hnext;
	m->count--;
}

void fcp_chan_free(struct fcp_map *m, struct fcp_chan *ch)
{
	ch->hnext = m->free;
	m->free = ch;
}

int fcp_chan_fd(const struct fcp_chan *ch)
{
	return ch->fd;
}

int fcp_core_init(struct fcp_core *c, unsigned capacity, const struct wl_io *io, int dirfd)
{
	if (fcp_map_init(&c->map, capacity))
		return -1;
	pthread_mutex_init(&c->mu, NULL);	/* a normal mutex, like synchronized */
	c->capacity = capacity;
	c->io = *io;
	c->dirfd = dirfd;
	return 0;
}

int fcp_core_uses(void *pool, const char *name)
{
	struct fcp_core *c = pool;
	struct fcp_chan *ch;
	int n;

	pthread_mutex_lock(&c->mu);
	ch = fcp_map_find(&c->map, name, fcp_hash(name));
	n = ch ? (int)ch->uses : -1;
	pthread_mutex_unlock(&c->mu);
	return n;
}

pthread_mutex_t *fcp_core_mutex(void *pool)
{
	return &((struct fcp_core *)pool)->mu;
}

void fcp_core_destroy(void *pool)
{
	struct fcp_core *c = pool;

	if (!c)
		return;
	for (uint64_t b = 0; b <= c->map.mask; b++)
		for (struct fcp_chan *ch = c->map.bucket[b]; ch; ch = ch->hnext)
			c->io.close(c->io.ctx, ch->fd);
	fcp_map_fini(&c->map);
	pthread_mutex_destroy(&c->mu);
	free(c);
}
