/*
 * bcache_wl.c - the block-cache workloads of seed 003: each operation
 * reads the chunk through the cache (bcache.c), misses going to a handle
 * kept open per file since setup, as NioFile did.
 *   bcache          one global mutex (the code as found)
 *   bcache-rw       read-write lock, CLOCK instead of exact LRU
 *   bcache-sharded  16 shards, each its own mutex, LRU and budget/16
 *   bcache-chm      16 segments of a concurrent map: lock-free gets
 * With --shared-file all workers read file 0 through the one handle
 * opened at setup (handle=shared) or through their own fd opened before
 * their window (handle=per-thread): seed 003's "shared" test.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bcache.h"
#include "wl_internal.h"

struct bc_state {
	struct bcache *cache;
	int *fds;		/* one handle per file, -1 with per-thread handles */
};

static void close_handles(struct wl_run *run, struct bc_state *s)
{
	for (unsigned i = 0; s->fds && i < run->nfiles; i++)
		if (s->fds[i] >= 0)
			run->io.close(run->io.ctx, s->fds[i]);
	free(s->fds);
}

static int open_handles(struct wl_run *run, struct bc_state *s)
{
	s->fds = malloc(run->nfiles * sizeof(*s->fds));
	if (!s->fds)
		return -ENOMEM;
	for (unsigned i = 0; i < run->nfiles; i++)
		s->fds[i] = -1;
	for (unsigned i = 0; i < run->nfiles && !wl_per_thread_handle(run); i++) {
		s->fds[i] = run->io.open(run->io.ctx, run->paths[i], O_RDONLY);
		if (s->fds[i] < 0) {
			fprintf(stderr, "fctrace: %s: opening %s: %s\n", run->wl->name,
				run->paths[i], strerror(errno));
			return -errno;
		}
	}
	return 0;
}

static int setup(struct wl_run *run, enum bcache_kind kind)
{
	struct bcache_cfg bc = {
		.kind = kind, .block = run->cfg.block, .budget = run->cfg.cache_size,
		.readers = run->cfg.threads,
	};
	struct bc_state *s = calloc(1, sizeof(*s));
	int err = -ENOMEM;

	run->priv = s;
	if (s && (s->cache = bcache_create(&bc, &run->io)))
		err = open_handles(run, s);
	if (err == -ENOMEM)
		fprintf(stderr, "fctrace: %s: out of memory for a %llu-byte cache\n",
			run->wl->name, (unsigned long long)run->cfg.cache_size);
	return err;
}

static int bcache_setup(struct wl_run *run) { return setup(run, BCACHE_LRU); }
static int bcache_rw_setup(struct wl_run *run) { return setup(run, BCACHE_RW); }
static int bcache_sharded_setup(struct wl_run *run) { return setup(run, BCACHE_SHARDED); }
static int bcache_chm_setup(struct wl_run *run) { return setup(run, BCACHE_CHM); }

static int bc_thread_init(struct wl_run *run, struct wl_thread *t)
{
	struct bc_state *s = run->priv;
	struct bc_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return ENOMEM;
	t->priv = r;
	if (bcache_reader_init(s->cache, r, &t->st))
		return ENOMEM;
	if (wl_per_thread_handle(run)) {
		t->own_fd = run->io.open(run->io.ctx, run->paths[0], O_RDONLY);
		if (t->own_fd < 0)
			return errno;
	}
	return 0;
}

static void bc_thread_fini(struct wl_run *run, struct wl_thread *t)
{
	if (t->priv)
		bcache_reader_fini(t->priv);
	free(t->priv);
	t->priv = NULL;
	if (t->own_fd >= 0)
		run->io.close(run->io.ctx, t->own_fd);
	t->own_fd = -1;
}

static int bc_op(struct wl_run *run, struct wl_thread *t, unsigned file,
		 uint64_t off, void *buf)
{
	struct bc_state *s = run->priv;
	int fd = t->own_fd >= 0 ? t->own_fd : s->fds[file];

	return (int)bcache_read(t->priv, file, fd, off, run->cfg.chunk, buf);
}

static void bc_teardown(struct wl_run *run)
{
	struct bc_state *s = run->priv;

	if (!s)
		return;
	close_handles(run, s);
	bcache_destroy(s->cache);
	free(s);
	run->priv = NULL;
}

/* hits and misses are exact per thread; the cache counts the rest */
static void bc_totals(struct wl_run *run, struct wl_totals *out)
{
	struct bc_state *s = run->priv;

	bcache_totals(s->cache, out);
	for (unsigned i = 0; i < run->nthreads; i++) {
		out->hits += run->threads[i]->st.hits;
		out->misses += run->threads[i]->st.misses;
	}
}

static int bc_locks(struct wl_run *run, struct wl_lock_desc *out, int max)
{
	struct bc_state *s = run->priv;

	return bcache_locks(s->cache, out, max);
}

#define BC_OPTIONS "files threads ops file-size chunk block cache-size seed " \
		   "shared-file handle cache pressure dir"
#define BC_WORKLOAD(n, sum, set)					\
	{ .name = n, .summary = sum, .options = BC_OPTIONS,		\
	  .setup = set, .op = bc_op, .teardown = bc_teardown,		\
	  .totals = bc_totals, .locks = bc_locks,			\
	  .thread_init = bc_thread_init, .thread_fini = bc_thread_fini }

const struct workload wl_bcache = BC_WORKLOAD("bcache",
	"Lucene NioFile block cache: one global LRU, every get and put under one mutex",
	bcache_setup);
const struct workload wl_bcache_rw = BC_WORKLOAD("bcache-rw",
	"the block cache under a read-write lock: gets share it, CLOCK replaces LRU",
	bcache_rw_setup);
const struct workload wl_bcache_sharded = BC_WORKLOAD("bcache-sharded",
	"the block cache striped over 16 shards, each its own mutex, LRU and budget",
	bcache_sharded_setup);
const struct workload wl_bcache_chm = BC_WORKLOAD("bcache-chm",
	"the block cache on a concurrent map: 16 segments, gets take no lock, CLOCK",
	bcache_chm_setup);
