/*
 * fcp_fixed.c - the FileChannelPool with its faults fixed, same capacity
 * semantics otherwise:
 *  - no syscall while holding the lock: stat and open happen before it
 *    is taken; if another thread registered the same name meanwhile, the
 *    extra fd is closed after unlocking; evicted channels are unlinked
 *    under the lock and closed after it is released;
 *  - O(1) idle-list removal (intrusive doubly-linked list);
 *  - hash lookup, as in the faithful pool.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include "fcp_map.h"
#include "fcp_pool.h"

/* victims closed per get; more waits for the next miss */
#define MAX_VICTIMS 64

struct fcpx_pool {
	struct fcp_core core;		/* first: the pool's pointer is the core's */
	struct fcp_chan idle;		/* sentinel: idle.next returned longest ago */
	uint64_t nidle, over_capacity;
	uint64_t hits, misses, evictions, races;
	/* fds open, in-flight opens and pending closes included: these
	 * change outside the lock */
	atomic_uint_fast64_t nopen, max_open;
};

static void *pool_create(unsigned capacity, const struct wl_io *io, int dirfd)
{
	struct fcpx_pool *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	if (fcp_core_init(&p->core, capacity, io, dirfd)) {
		free(p);
		return NULL;
	}
	p->idle.next = p->idle.prev = &p->idle;
	return p;
}

static void idle_unlink(struct fcpx_pool *p, struct fcp_chan *ch)
{
	ch->prev->next = ch->next;
	ch->next->prev = ch->prev;
	p->nidle--;
}

static void idle_append(struct fcpx_pool *p, struct fcp_chan *ch)
{
	ch->prev = p->idle.prev;
	ch->next = &p->idle;
	p->idle.prev->next = ch;
	p->idle.prev = ch;
	p->nidle++;
}

/* A registered channel changes hands: off the idle list if it was idle. */
static void take(struct fcpx_pool *p, struct fcp_chan *ch)
{
	if (ch->uses++ == 0)
		idle_unlink(p, ch);
}

/* Unlink the oldest idle channels while over capacity; their fds go to
 * fds[] to be closed once the lock is released. */
static int unlink_victims(struct fcpx_pool *p, int *fds,
			  struct wl_thread_stats *st)
{
	int n = 0;

	while (p->core.map.count > p->core.capacity && p->nidle && n < MAX_VICTIMS) {
		struct fcp_chan *ch = p->idle.next;

		idle_unlink(p, ch);
		fcp_map_del(&p->core.map, ch);
		fds[n++] = ch->fd;
		fcp_chan_free(&p->core.map, ch);
		p->evictions++;
		st->evictions++;
	}
	return n;
}

static void note_open(struct fcpx_pool *p)
{
	uint_fast64_t n = atomic_fetch_add(&p->nopen, 1) + 1;
	uint_fast64_t max = atomic_load(&p->max_open);

	while (n > max && !atomic_compare_exchange_weak(&p->max_open, &max, n))
		;
}

static void close_fds(struct fcpx_pool *p, const int *fds, int n)
{
	for (int i = 0; i < n; i++) {
		p->core.io.close(p->core.io.ctx, fds[i]);
		atomic_fetch_sub(&p->nopen, 1);
	}
}

/* stat + open with no lock held; -1 with errno on failure */
static int open_unlocked(struct fcpx_pool *p, const char *name)
{
	struct stat sb;
	int fd;

	if (p->core.io.stat(p->core.io.ctx, p->core.dirfd, name, &sb))
		return -1;
	fd = p->core.io.open(p->core.io.ctx, p->core.dirfd, name, O_RDWR);
	if (fd >= 0)
		note_open(p);
	return fd;
}

/* Lock held again after the unlocked open: register, or find that a
 * racing thread already did. Closes happen after the unlock. */
static struct fcp_chan *register_new(struct fcpx_pool *p, const char *name,
				     uint64_t h, int fd, struct wl_thread_stats *st)
{
	int victims[MAX_VICTIMS], nv = 0, extra = -1, err = 0;
	uint64_t acq = wl_lock(&p->core.mu, st, wl_now_ns());
	struct fcp_chan *ch = fcp_map_find(&p->core.map, name, h);

	if (ch) {
		p->races++;
		take(p, ch);
		extra = fd;
	} else if ((ch = fcp_chan_new(&p->core.map, name, h, fd))) {
		ch->uses = 1;
		fcp_map_add(&p->core.map, ch);
		nv = unlink_victims(p, victims, st);
		if (p->core.map.count > p->core.capacity)
			p->over_capacity++;
	} else {
		extra = fd;
		err = EMFILE;
	}
	wl_unlock(&p->core.mu, st, acq);
	if (extra >= 0)
		close_fds(p, &extra, 1);
	close_fds(p, victims, nv);
	if (err)
		errno = err;
	return ch;
}

static struct fcp_chan *pool_get(void *pool, const char *name,
				 struct wl_thread_stats *st)
{
	struct fcpx_pool *p = pool;
	uint64_t h = fcp_hash(name), acq = wl_lock(&p->core.mu, st, wl_now_ns());
	struct fcp_chan *ch = fcp_map_find(&p->core.map, name, h);
	int fd;

	if (ch) {
		p->hits++;
		st->hits++;
		take(p, ch);
	} else {
		p->misses++;
		st->misses++;
	}
	wl_unlock(&p->core.mu, st, acq);
	if (ch)
		return ch;
	fd = open_unlocked(p, name);
	return fd < 0 ? NULL : register_new(p, name, h, fd, st);
}

static void pool_put(void *pool, struct fcp_chan *ch, struct wl_thread_stats *st)
{
	struct fcpx_pool *p = pool;
	uint64_t acq = wl_lock(&p->core.mu, st, wl_now_ns());

	if (--ch->uses == 0)
		idle_append(p, ch);
	wl_unlock(&p->core.mu, st, acq);
}

static void pool_stats(void *pool, struct fcp_pool_stats *out)
{
	struct fcpx_pool *p = pool;

	pthread_mutex_lock(&p->core.mu);
	*out = (struct fcp_pool_stats){
		.open = p->core.map.count, .idle = p->nidle,
		.max_open = atomic_load(&p->max_open),
		.over_capacity = p->over_capacity, .hits = p->hits,
		.misses = p->misses, .evictions = p->evictions, .races = p->races,
	};
	pthread_mutex_unlock(&p->core.mu);
}

const struct fcp_pool_ops fcp_pool_fixed = {
	.lock_name = "fcp-fixed.pool",
	.create = pool_create, .get = pool_get, .fd = fcp_chan_fd, .put = pool_put,
	.stats = pool_stats, .uses = fcp_core_uses, .mutex = fcp_core_mutex,
	.destroy = fcp_core_destroy,
};
