/*
 * fcp_pool.c - Wicket's FileChannelPool as it was (docs/benchmarks.md),
 * quirks included, because the point is to measure them:
 *  - one pool mutex taken by every get and put;
 *  - a miss does stat + open *inside* the lock, then evicts the oldest
 *    idle channels with close() still inside the lock; the new file is
 *    opened before the eviction, so capacity+1 fds may be open briefly;
 *  - when every channel is busy nothing is evicted and the pool silently
 *    grows past capacity (counted in over_capacity);
 *  - a channel whose use count is 0 leaves the idle list by a linear
 *    scan. A new channel's count is 0 too, so a miss scans the whole
 *    idle list and finds nothing (getFileChannel did the same:
 *    idleChannels.remove(channel) for every count of 0 or none).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include "fcp_map.h"
#include "fcp_pool.h"

struct fcp_pool {
	struct fcp_core core;		/* first: the pool's pointer is the core's */
	struct fcp_chan *idle_head, *idle_tail;	/* head returned longest ago */
	uint64_t idle, nopen, max_open, over_capacity;
	uint64_t hits, misses, evictions;
};

static void *pool_create(unsigned capacity, const struct wl_io *io, int dirfd)
{
	struct fcp_pool *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	if (fcp_core_init(&p->core, capacity, io, dirfd)) {
		free(p);
		return NULL;
	}
	return p;
}

static void idle_append(struct fcp_pool *p, struct fcp_chan *ch)
{
	ch->next = NULL;
	if (p->idle_tail)
		p->idle_tail->next = ch;
	else
		p->idle_head = ch;
	p->idle_tail = ch;
	p->idle++;
}

/* LinkedList.remove(Object): walk from the head until found. */
static void idle_remove_scan(struct fcp_pool *p, struct fcp_chan *ch)
{
	struct fcp_chan *prev = NULL, *it = p->idle_head;

	while (it && it != ch) {
		prev = it;
		it = it->next;
	}
	if (!it)
		return;
	if (prev)
		prev->next = it->next;
	else
		p->idle_head = it->next;
	if (p->idle_tail == it)
		p->idle_tail = prev;
	p->idle--;
}

/* Close idle channels, oldest first, until the new one fits (or none is
 * idle). Runs under the pool lock, close(2) included: the original did. */
static void evict_idle(struct fcp_pool *p, struct wl_thread_stats *st)
{
	while (p->core.map.count >= p->core.capacity && p->idle_head) {
		struct fcp_chan *ch = p->idle_head;

		p->idle_head = ch->next;
		if (!p->idle_head)
			p->idle_tail = NULL;
		p->idle--;
		fcp_map_del(&p->core.map, ch);
		p->core.io.close(p->core.io.ctx, ch->fd);
		st->syscalls_in_lock++;
		p->nopen--;
		fcp_chan_free(&p->core.map, ch);
		p->evictions++;
		st->evictions++;
	}
}

/* The miss path, lock held: stat, open, evict, register. */
static struct fcp_chan *open_channel(struct fcp_pool *p, const char *name,
				     uint64_t h, struct wl_thread_stats *st)
{
	struct stat sb;
	struct fcp_chan *ch;
	int fd;

	st->syscalls_in_lock++;
	if (p->core.io.stat(p->core.io.ctx, p->core.dirfd, name, &sb))
		return NULL;
	st->syscalls_in_lock++;
	fd = p->core.io.open(p->core.io.ctx, p->core.dirfd, name, O_RDWR);
	if (fd < 0)
		return NULL;
	if (++p->nopen > p->max_open)
		p->max_open = p->nopen;
	evict_idle(p, st);
	ch = fcp_chan_new(&p->core.map, name, h, fd);
	if (!ch) {
		p->core.io.close(p->core.io.ctx, fd);
		p->nopen--;
		errno = EMFILE;
		return NULL;
	}
	fcp_map_add(&p->core.map, ch);
	if (p->core.map.count > p->core.capacity)
		p->over_capacity++;
	return ch;
}

static struct fcp_chan *pool_get(void *pool, const char *name,
				 struct wl_thread_stats *st)
{
	struct fcp_pool *p = pool;
	uint64_t h = fcp_hash(name), acq = wl_lock(&p->core.mu, st, wl_now_ns());
	struct fcp_chan *ch = fcp_map_find(&p->core.map, name, h);
	int err;

	if (ch) {
		p->hits++;
		st->hits++;
	} else {
		p->misses++;
		st->misses++;
		ch = open_channel(p, name, h, st);
	}
	if (ch && ch->uses == 0)
		idle_remove_scan(p, ch);
	if (ch)
		ch->uses++;
	err = errno;
	wl_unlock(&p->core.mu, st, acq);
	errno = err;
	return ch;
}

static void pool_put(void *pool, struct fcp_chan *ch, struct wl_thread_stats *st)
{
	struct fcp_pool *p = pool;
	uint64_t acq = wl_lock(&p->core.mu, st, wl_now_ns());

	if (--ch->uses == 0)
		idle_append(p, ch);
	wl_unlock(&p->core.mu, st, acq);
}

static void pool_stats(void *pool, struct fcp_pool_stats *out)
{
	struct fcp_pool *p = pool;

	pthread_mutex_lock(&p->core.mu);
	*out = (struct fcp_pool_stats){
		.open = p->core.map.count, .idle = p->idle, .max_open = p->max_open,
		.over_capacity = p->over_capacity, .hits = p->hits,
		.misses = p->misses, .evictions = p->evictions,
	};
	pthread_mutex_unlock(&p->core.mu);
}

const struct fcp_pool_ops fcp_pool_faithful = {
	.lock_name = "fcp.pool",
	.create = pool_create, .get = pool_get, .fd = fcp_chan_fd, .put = pool_put,
	.stats = pool_stats, .uses = fcp_core_uses, .mutex = fcp_core_mutex,
	.destroy = fcp_core_destroy,
};
