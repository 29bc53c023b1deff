/*
 * bcache_wl.c - the workloads of Lucene's NioFile block cache benchmark:
 * each operation reads the chunk through the cache (bcache.c), misses
 * going to a handle kept open per file since setup, as NioFile did.
 *   bcache          one global mutex (the code as found)
 *   bcache-rw       read-write lock, CLOCK instead of exact LRU
 *   bcache-sharded  16 shards, each its own mutex, LRU and budget/16
 *   bcache-chm      16 segments of a concurrent map: lock-free gets
 *   nio             no cache: every read goes to the handle (the benchmark's
 *                   "non-cached": NioFile with its cache off)
 * With --shared-file all workers read file 0 through the one handle
 * opened at setup (handle=shared) or through their own fd opened before
 * their window (handle=per-thread): the benchmark's "shared" test. With
 * handle=locked every read of a handle (a miss, or every nio read) is an
 * lseek + read under that handle's mutex: Java's RandomAccessFile, whose
 * seek and read are synchronized on the file (the kernel adds its own
 * file-position lock to a read of a shared fd).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bc_internal.h"
#include "bcache.h"
#include "wl_internal.h"

struct bc_handle {
	pthread_mutex_t mu;	/* handle=locked: held across lseek + read */
} __attribute__((aligned(64)));

struct bc_state {
	struct bcache *cache;	/* NULL: nio */
	int *fds;		/* one handle per file, -1 with per-thread handles */
	struct bc_handle *h;	/* handle=locked: one lock per handle */
	struct wl_run *run;
};

/* the reader's stats and lock-timing turn, for reads made under a
 * handle's lock from inside the cache's miss path */
static __thread struct wl_thread_stats *cur_st;
static __thread unsigned handle_tick;

/* One read of a handle: a pread, or with handle=locked an lseek + read
 * under the handle's lock (a test's fake io, which cannot seek, preads
 * under it). */
static ssize_t handle_read(struct bc_state *s, unsigned file, int fd, void *buf,
			   size_t len, off_t off)
{
	struct wl_run *run = s->run;
	struct bc_handle *h;
	bool timed;
	uint64_t acq;
	ssize_t n;

	if (!s->h)
		return run->io.pread(run->io.ctx, fd, buf, len, off);
	h = &s->h[file];
	timed = (handle_tick++ & (BC_TIME_EVERY - 1)) == 0;
	acq = bc_lock_mu(&h->mu, cur_st, timed);
	if (!run->plain_io)
		n = run->io.pread(run->io.ctx, fd, buf, len, off);
	else if (lseek(fd, off, SEEK_SET) < 0)
		n = -1;
	else
		n = read(fd, buf, len);
	cur_st->syscalls_in_lock += run->plain_io ? 2 : 1;
	bc_book(cur_st, acq, timed);
	pthread_mutex_unlock(&h->mu);
	return n;
}

/* The cache's miss path reads through this: find the file of the fd. */
static ssize_t cache_pread(void *ctx, int fd, void *buf, size_t len, off_t off)
{
	struct bc_state *s = ctx;
	unsigned f = 0;

	while (f + 1 < s->run->nfiles && s->fds[f] != fd)
		f++;
	return handle_read(s, f, fd, buf, len, off);
}

static void close_handles(struct wl_run *run, struct bc_state *s)
{
	for (unsigned i = 0; s->fds && i < run->nfiles; i++)
		if (s->fds[i] >= 0)
			run->io.close(run->io.ctx, s->fds[i]);
	free(s->fds);
	for (unsigned i = 0; s->h && i < run->nfiles; i++)
		pthread_mutex_destroy(&s->h[i].mu);
	free(s->h);
}

static int open_handles(struct wl_run *run, struct bc_state *s)
{
	s->fds = malloc(run->nfiles * sizeof(*s->fds));
	if (!s->fds)
		return -ENOMEM;
	for (unsigned i = 0; i < run->nfiles; i++)
		s->fds[i] = -1;
	if (run->cfg.handle == WL_HANDLE_LOCKED) {
		s->h = aligned_alloc(64, run->nfiles * sizeof(*s->h));
		if (!s->h)
			return -ENOMEM;
		for (unsigned i = 0; i < run->nfiles; i++)
			pthread_mutex_init(&s->h[i].mu, NULL);
	}
	for (unsigned i = 0; i < run->nfiles && !wl_per_thread_handle(run); i++) {
		s->fds[i] = run->io.open(run->io.ctx, run->dir_fd, run->names[i], O_RDONLY);
		if (s->fds[i] < 0) {
			fprintf(stderr, "fctrace: %s: opening %s/%s: %s\n", run->wl->name,
				run->dir, run->names[i], strerror(errno));
			return -errno;
		}
	}
	return 0;
}

static int setup(struct wl_run *run, enum bcache_kind kind, bool cached)
{
	struct bcache_cfg bc = {
		.kind = kind, .block = run->cfg.block, .budget = run->cfg.cache_size,
		.readers = run->cfg.threads,
	};
	struct bc_state *s = calloc(1, sizeof(*s));
	struct wl_io io = run->io;
	int err = -ENOMEM;

	run->priv = s;
	if (!s)
		goto out;
	s->run = run;
	io.pread = cache_pread;
	io.ctx = s;
	if (!cached || (s->cache = bcache_create(&bc, &io)))
		err = open_handles(run, s);
out:
	if (err == -ENOMEM)
		fprintf(stderr, "fctrace: %s: out of memory for a %llu-byte cache\n",
			run->wl->name, (unsigned long long)run->cfg.cache_size);
	return err;
}

static int bcache_setup(struct wl_run *run) { return setup(run, BCACHE_LRU, true); }
static int bcache_rw_setup(struct wl_run *run) { return setup(run, BCACHE_RW, true); }
static int bcache_sharded_setup(struct wl_run *run) { return setup(run, BCACHE_SHARDED, true); }
static int bcache_chm_setup(struct wl_run *run) { return setup(run, BCACHE_CHM, true); }
static int nio_setup(struct wl_run *run) { return setup(run, BCACHE_LRU, false); }

static int bc_thread_init(struct wl_run *run, struct wl_thread *t)
{
	struct bc_state *s = run->priv;
	struct bc_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return ENOMEM;
	t->priv = r;
	cur_st = &t->st;
	handle_tick = 0;
	r->st = &t->st;
	if (s->cache && bcache_reader_init(s->cache, r, &t->st))
		return ENOMEM;
	if (wl_per_thread_handle(run)) {
		t->own_fd = run->io.open(run->io.ctx, run->dir_fd, run->names[0], O_RDONLY);
		if (t->own_fd < 0)
			return errno;
	}
	return 0;
}

static void bc_thread_fini(struct wl_run *run, struct wl_thread *t)
{
	if (t->priv && ((struct bc_reader *)t->priv)->c)
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

/* nio: the read goes to the handle, no cache in front */
static int nio_op(struct wl_run *run, struct wl_thread *t, unsigned file,
		  uint64_t off, void *buf)
{
	struct bc_state *s = run->priv;
	int fd = t->own_fd >= 0 ? t->own_fd : s->fds[file];
	ssize_t n = handle_read(s, file, fd, buf, run->cfg.chunk, (off_t)off);

	return n < 0 ? -errno : (int)n;
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

	if (!s->cache) {
		memset(out, 0, sizeof(*out));
		return;
	}
	bcache_totals(s->cache, out);
	for (unsigned i = 0; i < run->nthreads; i++) {
		out->hits += run->threads[i]->st.hits;
		out->misses += run->threads[i]->st.misses;
	}
}

static int bc_locks(struct wl_run *run, struct wl_lock_desc *out, int max)
{
	struct bc_state *s = run->priv;
	int n = s->cache ? bcache_locks(s->cache, out, max) : 0;

	for (unsigned i = 0; s->h && i < run->nfiles && n < max; i++, n++) {
		memset(&out[n], 0, sizeof(out[n]));
		snprintf(out[n].name, sizeof(out[n].name), "handle%u", i);
		out[n].kind = LK_MUTEX;
		out[n].addr = (uint64_t)(uintptr_t)&s->h[i].mu;
		out[n].size = sizeof(s->h[i].mu);
	}
	return n;
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
#define NIO_OPTIONS "files threads ops file-size chunk seed shared-file handle cache " \
		    "pressure dir"
const struct workload wl_nio = {
	.name = "nio", .options = NIO_OPTIONS,
	.summary = "NioFile without its cache: every read to a handle kept open",
	.setup = nio_setup, .op = nio_op, .teardown = bc_teardown, .totals = bc_totals,
	.locks = bc_locks, .thread_init = bc_thread_init, .thread_fini = bc_thread_fini,
};
const struct workload wl_bcache_chm = BC_WORKLOAD("bcache-chm",
	"the block cache on a concurrent map: 16 segments, gets take no lock, CLOCK",
	bcache_chm_setup);
