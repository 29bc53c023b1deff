/*
 * test_wl_run.c - whole runs through wl_run with real files: every
 * workload end to end, exact totals recomputed from the same random
 * streams, the data directory created and removed without touching
 * anything else in --dir, corrupted reads caught, refusals.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/resource.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/magic.h>
#include <cmocka.h>
#include "testutil.h"
#include "wl_internal.h"

/* real syscalls, counted */
static atomic_uint n_open, n_pread, n_close, n_stat;

static int c_open(void *ctx, int dirfd, const char *p, int fl)
{
	atomic_fetch_add(&n_open, 1);
	return openat(dirfd, p, fl | O_NOFOLLOW | O_CLOEXEC);
}

static ssize_t c_pread(void *ctx, int fd, void *b, size_t n, off_t o)
{
	atomic_fetch_add(&n_pread, 1);
	return pread(fd, b, n, o);
}

static int c_close(void *ctx, int fd)
{
	atomic_fetch_add(&n_close, 1);
	return close(fd);
}

static int c_stat(void *ctx, int dirfd, const char *p, struct stat *st)
{
	atomic_fetch_add(&n_stat, 1);
	return fstatat(dirfd, p, st, AT_SYMLINK_NOFOLLOW);
}

static const struct wl_io counting_io = { c_open, c_pread, c_close, c_stat, NULL };

static void counts_reset(void)
{
	n_open = n_pread = n_close = n_stat = 0;
}

struct fx {
	char *dir;
	char keep[4200];
	struct wl_config cfg;
	struct wl_result res;
	unsigned opened, closed;	/* window hook calls */
	pid_t tids[8];
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	int fd;

	f->dir = test_dir_make();
	assert_non_null(f->dir);
	/* planted by the test, not by fctrace: must survive every run */
	snprintf(f->keep, sizeof(f->keep), "%s/f000000", f->dir);
	fd = open(f->keep, O_CREAT | O_WRONLY, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "mine", 4), 4);
	close(fd);
	wl_config_defaults(&f->cfg);
	f->cfg.dir = f->dir;
	f->cfg.threads = 4;
	f->cfg.ops = 2000;
	f->cfg.files = 20;
	f->cfg.pool = 10;
	f->cfg.cache_size = 256 << 10;	/* small enough to evict */
	*state = f;
	return 0;
}

/* --dir holds exactly the planted file again, with its content. */
static void assert_dir_clean(struct fx *f)
{
	char buf[8] = { 0 };
	int fd = open(f->keep, O_RDONLY);
	struct stat st;

	assert_true(fd >= 0);
	assert_int_equal(read(fd, buf, sizeof(buf)), 4);
	assert_string_equal(buf, "mine");
	close(fd);
	if (f->res.data_dir[0])
		assert_int_not_equal(lstat(f->res.data_dir, &st), 0);
}

static int teardown(void **state)
{
	struct fx *f = *state;

	wl_result_free(&f->res);
	assert_int_equal(unlink(f->keep), 0);
	assert_int_equal(rmdir(f->dir), 0);	/* fails unless empty */
	free(f->dir);
	free(f);
	return 0;
}

static int on_open(void *arg, const struct wl_thread_stats *t, unsigned n)
{
	struct fx *f = arg;

	f->opened++;
	assert_int_equal(n, f->cfg.threads);
	for (unsigned i = 0; i < n; i++) {
		assert_true(t[i].tid > 0);
		assert_int_equal(t[i].index, i);
		assert_int_equal(t[i].ops, 0);
		f->tids[i] = t[i].tid;
	}
	return 0;
}

static void on_close(void *arg)
{
	((struct fx *)arg)->closed++;
}

/* Blocks touched by the run, from the workers' own random streams. */
static uint64_t blocks_touched(const struct wl_config *cfg, unsigned nfiles)
{
	uint64_t n = 0, span = cfg->file_size - cfg->chunk + 1, rng[4];

	for (unsigned t = 0; t < cfg->threads; t++) {
		wl_rng_seed(rng, cfg->seed, t);
		for (uint64_t i = 0; i < cfg->ops; i++) {
			uint64_t off;

			wl_rng_below(rng, nfiles);
			off = wl_rng_below(rng, span);
			n += (off + cfg->chunk - 1) / cfg->block - off / cfg->block + 1;
		}
	}
	return n;
}

static int run(struct fx *f, const struct wl_io *io)
{
	struct wl_hooks hooks = { .window_open = on_open, .window_close = on_close,
				  .arg = f };

	wl_result_free(&f->res);
	f->opened = f->closed = 0;
	counts_reset();
	return wl_run(&f->cfg, io, &hooks, &f->res);
}

static void assert_run_ok(struct fx *f)
{
	struct wl_result *r = &f->res;

	assert_int_equal(f->opened, 1);
	assert_int_equal(f->closed, 1);
	assert_int_equal(r->nthreads, f->cfg.threads);
	assert_false(r->interrupted);
	assert_true(r->wall_ns > 0);
	for (unsigned i = 0; i < r->nthreads; i++) {
		const struct wl_thread_stats *t = &r->threads[i];

		assert_int_equal(t->ops, f->cfg.ops);
		assert_int_equal(t->tid, f->tids[i]);
		assert_int_equal(t->verify_errors, 0);
		assert_int_equal(t->op_errors, 0);
		assert_int_equal(t->bytes_read, f->cfg.ops * f->cfg.chunk);
		assert_true(t->start_ns >= r->start_ns && t->end_ns <= r->end_ns);
		assert_true(t->lat_min_ns <= t->lat_max_ns);
		assert_true(t->lat_total_ns <= t->end_ns - t->start_ns);
		uint64_t sum = 0, sampled = t->ops <= WL_SAMPLE_WARMUP ? t->ops :
			WL_SAMPLE_WARMUP + (t->ops - WL_SAMPLE_WARMUP + WL_SAMPLE_EVERY - 1) / WL_SAMPLE_EVERY;
		uint64_t by_kind = 0;

		for (int s = 0; s < WL_HIST_SLOTS; s++) {
			sum += t->lat_hist[s];
			by_kind += t->op_hit_hist[s] + t->op_miss_hist[s];
		}
		assert_int_equal(t->lat_timed, sampled);
		assert_int_equal(sum, sampled);
		assert_int_equal(by_kind, sampled);	/* each sampled op: a hit or a miss */
	}
	assert_dir_clean(f);
}

static uint64_t sum_of(const struct wl_result *r, size_t field)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < r->nthreads; i++)
		n += *(const uint64_t *)((const char *)&r->threads[i] + field);
	return n;
}
#define SUM(r, f) sum_of(r, offsetof(struct wl_thread_stats, f))

/* all the values in one histogram of every thread */
static uint64_t hist_sum(const struct wl_result *r, size_t field)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < r->nthreads; i++)
		for (unsigned s = 0; s < WL_HIST_SLOTS; s++)
			n += ((const uint64_t *)((const char *)&r->threads[i] + field))[s];
	return n;
}

/* fc: exactly one open, pread and close per operation */
static void test_fc(void **state)
{
	struct fx *f = *state;
	uint64_t ops = f->cfg.ops * f->cfg.threads;

	f->cfg.workload = "fc";
	assert_int_equal(run(f, &counting_io), 0);
	assert_run_ok(f);
	assert_int_equal(n_open, ops);
	assert_int_equal(n_pread, ops);
	assert_int_equal(n_close, ops);
	assert_int_equal(n_stat, 0);
	assert_int_equal(f->res.nlocks, 0);
	assert_false(f->res.totals.has_pool);
	/* fc keeps no phase clocks (fidelity): its time is in the op latency */
	assert_int_equal(SUM(&f->res, read_ns), 0);
	assert_true(SUM(&f->res, lat_total_ns) > 0);
	assert_int_equal(SUM(&f->res, lock_acquires), 0);
	/* no pool: no op misses, no pread timed apart */
	assert_int_equal(hist_sum(&f->res, offsetof(struct wl_thread_stats, op_miss_hist)), 0);
	assert_int_equal(hist_sum(&f->res, offsetof(struct wl_thread_stats, read_hist)), 0);
}

static void pool_run(void **state, const char *name)
{
	struct fx *f = *state;
	const struct wl_totals *t = &f->res.totals;
	uint64_t ops = f->cfg.ops * f->cfg.threads;

	f->cfg.workload = name;
	assert_int_equal(run(f, &counting_io), 0);
	assert_run_ok(f);
	assert_true(t->has_pool);
	assert_int_equal(t->hits + t->misses, ops);
	assert_int_equal(SUM(&f->res, hits), t->hits);
	assert_int_equal(SUM(&f->res, misses), t->misses);
	assert_int_equal(SUM(&f->res, evictions), t->evictions);
	assert_int_equal(n_pread, ops);
	assert_int_equal(n_open, n_stat);
	assert_int_equal(n_open, n_close);	/* destroy closed the rest */
	assert_true(t->max_open <= f->cfg.pool + f->cfg.threads);
	assert_true(t->evictions > 0);	/* 20 files, capacity 10 */
	assert_int_equal(f->res.nlocks, 1);
	assert_true(f->res.locks[0].addr != 0);
	assert_int_equal(f->res.locks[0].size, sizeof(pthread_mutex_t));
	assert_int_equal(SUM(&f->res, lock_acquires),
			 2 * ops + (!strcmp(name, "fcp-fixed") ? t->misses : 0));
	/* the what-if model's inputs: every pread timed, every hold split
	 * by kind, and the sampled ops that missed apart */
	assert_int_equal(hist_sum(&f->res, offsetof(struct wl_thread_stats, read_hist)), ops);
	assert_int_equal(SUM(&f->res, hold_hit_ns) + SUM(&f->res, hold_miss_ns) +
			 SUM(&f->res, hold_put_ns), SUM(&f->res, lock_hold_ns));
	assert_true(hist_sum(&f->res, offsetof(struct wl_thread_stats, op_miss_hist)) > 0);
	assert_true(hist_sum(&f->res, offsetof(struct wl_thread_stats, op_miss_hist)) <= t->misses);
}

static void test_fcp(void **state)
{
	struct fx *f = *state;

	pool_run(state, "fcp");
	assert_string_equal(f->res.locks[0].name, "fcp.pool");
	/* stat + open per miss, a close per eviction, all under the lock */
	assert_int_equal(SUM(&f->res, syscalls_in_lock),
			 2 * f->res.totals.misses + f->res.totals.evictions);
}

static void test_fcp_fixed(void **state)
{
	struct fx *f = *state;

	pool_run(state, "fcp-fixed");
	assert_string_equal(f->res.locks[0].name, "fcp-fixed.pool");
	assert_int_equal(SUM(&f->res, syscalls_in_lock), 0);
}

/* files <= pool: one open per file for the whole run */
static void test_fcp_within_capacity(void **state)
{
	struct fx *f = *state;

	f->cfg.workload = "fcp";
	f->cfg.files = 8;
	assert_int_equal(run(f, &counting_io), 0);
	assert_run_ok(f);
	assert_int_equal(n_open, 8);
	assert_int_equal(f->res.totals.misses, 8);
	assert_int_equal(f->res.totals.evictions, 0);
}

static void cache_run(void **state, const char *name)
{
	struct fx *f = *state;
	const struct wl_totals *t = &f->res.totals;

	f->cfg.workload = name;
	assert_int_equal(run(f, &counting_io), 0);
	assert_run_ok(f);
	assert_true(t->has_cache);
	assert_int_equal(t->hits + t->misses, blocks_touched(&f->cfg, f->cfg.files));
	assert_int_equal(n_pread, t->misses);
	assert_int_equal(n_open, f->cfg.files);	/* one handle per file */
	assert_int_equal(n_close, n_open);
	assert_true(t->evictions > 0);
	assert_true(t->cache_bytes <= f->cfg.cache_size);
	assert_int_equal(t->cache_bytes, t->cache_blocks * f->cfg.block);
	assert_int_equal(SUM(&f->res, evictions), t->evictions);
	assert_true(SUM(&f->res, lookup_ns) > 0);
	assert_true(SUM(&f->res, miss_read_ns) > 0);
}

static void test_bcache(void **state)
{
	struct fx *f = *state;

	cache_run(state, "bcache");
	assert_int_equal(f->res.nlocks, 1);
	assert_string_equal(f->res.locks[0].name, "bcache.lru");
}

static void test_bcache_rw(void **state)
{
	struct fx *f = *state;

	cache_run(state, "bcache-rw");
	assert_int_equal(f->res.nlocks, 1);
	assert_string_equal(f->res.locks[0].name, "bcache.rwlock");
	assert_int_equal(f->res.locks[0].size, sizeof(pthread_rwlock_t));
}

static void test_bcache_sharded(void **state)
{
	struct fx *f = *state;

	cache_run(state, "bcache-sharded");
	assert_int_equal(f->res.nlocks, 16);
	assert_string_equal(f->res.locks[15].name, "bcache.shard15");
	assert_true(f->res.locks[1].addr > f->res.locks[0].addr);
}

static void test_bcache_chm(void **state)
{
	struct fx *f = *state;

	cache_run(state, "bcache-chm");
	assert_int_equal(f->res.nlocks, 16);
	assert_string_equal(f->res.locks[15].name, "bcache.seg15");
	assert_true(f->res.locks[1].addr > f->res.locks[0].addr);
}

/* nio: no cache, one pread per op from the handles kept open. With
 * --handle locked (Java's RandomAccessFile) each read takes its file's
 * handle lock exactly once; through the real syscalls too (lseek+read,
 * the sampled reads' bytes checked). */
static void test_nio(void **state)
{
	struct fx *f = *state;
	uint64_t ops = (uint64_t)f->cfg.ops * f->cfg.threads;

	f->cfg.workload = "nio";
	assert_int_equal(run(f, &counting_io), 0);
	assert_run_ok(f);
	assert_false(f->res.totals.has_cache);
	assert_int_equal(n_pread, ops);
	assert_int_equal(n_open, f->cfg.files);
	assert_int_equal(f->res.nlocks, 0);
	assert_int_equal(SUM(&f->res, lock_acquires), 0);
	f->cfg.handle = WL_HANDLE_LOCKED;
	assert_int_equal(run(f, &counting_io), 0);
	assert_run_ok(f);
	assert_int_equal(n_pread, ops);
	assert_int_equal(f->res.nlocks, (int)f->cfg.files);
	assert_string_equal(f->res.locks[0].name, "handle0");
	for (unsigned i = 0; i < f->res.nthreads; i++)
		assert_int_equal(f->res.threads[i].lock_acquires, f->cfg.ops);
	assert_int_equal(run(f, NULL), 0);
	assert_run_ok(f);
	assert_int_equal(SUM(&f->res, lock_acquires), ops);
	assert_int_equal(SUM(&f->res, verify_errors), 0);
}

/* bcache with --handle locked: the handle lock once per miss, on top of
 * the cache lock's lookup per block and insert per miss. */
static void test_bcache_locked_handle(void **state)
{
	struct fx *f = *state;
	const struct wl_totals *t = &f->res.totals;

	f->cfg.handle = WL_HANDLE_LOCKED;
	cache_run(state, "bcache");
	assert_int_equal(f->res.nlocks, 1 + (int)f->cfg.files);
	assert_int_equal(SUM(&f->res, lock_acquires), t->hits + 3 * t->misses);
}

/* fcp-fixed opens outside its lock: threads that miss the same file at
 * once each open it, and all but one close theirs again (races) */
static void assert_opens(const char *wl, unsigned want)
{
	if (strcmp(wl, "fcp-fixed"))
		assert_int_equal(n_open, want);
	else
		assert_true(n_open >= want && n_open <= want + 3);
}

/* the NioFile benchmark's shared test: one file, one handle or one per thread */
static void test_shared_file(void **state)
{
	struct fx *f = *state;
	static const char *const wls[] = { "fc", "fcp", "fcp-fixed", "bcache",
					   "bcache-rw", "bcache-sharded", "bcache-chm" };

	f->cfg.shared_file = true;
	f->cfg.file_size = 4 << 20;
	f->cfg.chunk = 4096;
	for (unsigned i = 0; i < 7; i++) {
		bool pool = !strncmp(wls[i], "fcp", 3);

		f->cfg.workload = wls[i];
		f->cfg.handle = WL_HANDLE_SHARED;
		assert_int_equal(run(f, &counting_io), 0);
		assert_run_ok(f);
		assert_opens(wls[i], 1);
		f->cfg.handle = WL_HANDLE_PER_THREAD;
		assert_int_equal(run(f, &counting_io), 0);
		assert_run_ok(f);
		/* a pool shares its one channel whatever --handle says */
		assert_opens(wls[i], pool ? 1 : f->cfg.threads);
		assert_int_equal(n_close, n_open);
	}
}

static bool on_tmpfs(const char *dir)
{
	struct statfs sf;

	return statfs(dir, &sf) == 0 && sf.f_type == TMPFS_MAGIC;
}

/* A directory on a disk-backed file system for the cold test when the
 * test directory is on tmpfs (whose pages cannot be dropped): /var/tmp
 * is meant to be one. NULL when it is not either. */
static char *disk_dir_make(void)
{
	char *dir = strdup("/var/tmp/fctrace-cold.XXXXXX");

	if (dir && on_tmpfs("/var/tmp"))
		return free(dir), NULL;
	if (dir && !mkdtemp(dir))
		return free(dir), NULL;
	return dir;
}

/* CI (CI=true, or make test with FCTRACE_REQUIRE_BPF=1 as CI runs it):
 * a test that cannot run here is a failure, not a skip. */
static bool must_run(void)
{
	const char *ci = getenv("CI"), *req = getenv("FCTRACE_REQUIRE_BPF");

	return (ci && !strcmp(ci, "true")) || (req && !strcmp(req, "1"));
}

static void test_cold(void **state)
{
	struct fx *f = *state;
	char *disk = NULL;

	if (on_tmpfs(f->dir)) {
		disk = disk_dir_make();
		if (!disk) {
			if (must_run())
				fail_msg("cold cache: %s and /var/tmp are tmpfs (set TMPDIR to a disk)", f->dir);
			print_message("skip: cold cache needs a disk-backed TMPDIR, %s is tmpfs\n", f->dir);
			skip();
		}
		f->cfg.dir = disk;
	}
	f->cfg.workload = "fc";
	f->cfg.cache = WL_CACHE_COLD;
	assert_int_equal(run(f, NULL), 0);
	assert_run_ok(f);
	assert_int_equal(f->res.cold_pages_resident, 0);
	if (disk) {
		assert_int_equal(rmdir(disk), 0);	/* the run left nothing behind */
		free(disk);
		f->cfg.dir = f->dir;
	}
}

/* The evictor drops rate x 10 ms = 2000 pages as soon as it first runs,
 * before its first sleep: it only has to run once inside the window.
 * 4 x 5000 ops keep the window ~100 ms long even unsanitized. */
static void test_pressure(void **state)
{
	struct fx *f = *state;

	f->cfg.workload = "bcache";
	f->cfg.pressure = 200000;
	f->cfg.ops = 5000;
	assert_int_equal(run(f, NULL), 0);
	assert_run_ok(f);
	assert_true(f->res.pressure_pages_dropped > 0);
}

/* a pread that flips a byte is caught, and fails the run */
static void test_corrupt_read_caught(void **state)
{
	struct fx *f = *state;
	static const char *const wls[] = { "fc", "fcp", "bcache-sharded" };

	for (unsigned i = 0; i < 3; i++) {
		f->cfg.workload = wls[i];
		assert_int_equal(run(f, &flip_io), -EILSEQ);
		assert_true(SUM(&f->res, verify_errors) > 0);
		assert_dir_clean(f);
	}
}

static int fail_open(void *ctx, int dirfd, const char *p, int fl)
{
	errno = EMFILE;
	return -1;
}

static void test_failed_ops(void **state)
{
	struct fx *f = *state;
	struct wl_io io = counting_io;

	io.open = fail_open;
	f->cfg.workload = "fcp";
	assert_int_equal(run(f, &io), -EIO);
	assert_int_equal(SUM(&f->res, op_errors), f->cfg.ops * f->cfg.threads);
	assert_dir_clean(f);
}

static int stop_at_open(void *arg, const struct wl_thread_stats *t, unsigned n)
{
	wl_request_stop();
	return on_open(arg, t, n);
}

static void test_stop(void **state)
{
	struct fx *f = *state;
	struct wl_hooks hooks = { .window_open = stop_at_open, .window_close = on_close,
				  .arg = f };

	f->cfg.workload = "fcp";
	f->cfg.ops = 100000000;		/* would take minutes */
	assert_int_equal(wl_run(&f->cfg, NULL, &hooks, &f->res), 0);
	assert_true(f->res.interrupted);
	assert_true(SUM(&f->res, ops) < 1000);
	assert_dir_clean(f);
	wl_stop_reset();
	wl_result_free(&f->res);
}

/* fc's inlined loop (the production io): empty the only data file as
 * the window opens, and every read comes back short: all counted. */
static int empty_file_at_open(void *arg, const struct wl_thread_stats *t, unsigned n)
{
	struct fx *f = arg;
	char cmd[4300];

	snprintf(cmd, sizeof(cmd), "truncate -s 0 %s/*/f000000", f->dir);
	assert_int_equal(system(cmd), 0);
	return on_open(arg, t, n);
}

static void test_fc_inline_loop_counts_short_reads(void **state)
{
	struct fx *f = *state;
	struct wl_hooks hooks = { .window_open = empty_file_at_open, .window_close = on_close,
				  .arg = f };

	f->cfg.workload = "fc";
	f->cfg.files = 1;
	assert_int_equal(wl_run(&f->cfg, NULL, &hooks, &f->res), -EILSEQ);
	for (unsigned i = 0; i < f->res.nthreads; i++) {
		const struct wl_thread_stats *t = &f->res.threads[i];

		assert_int_equal(t->ops, f->cfg.ops);
		assert_int_equal(t->verify_errors, f->cfg.ops);
		assert_int_equal(t->bytes_read, 0);
		assert_int_equal(t->op_errors, 0);
	}
	assert_dir_clean(f);
}

/* A stop is seen at the next sampled op, by fc's inlined loop too. */
static void test_stop_fc(void **state)
{
	struct fx *f = *state;
	struct wl_hooks hooks = { .window_open = stop_at_open, .window_close = on_close,
				  .arg = f };

	f->cfg.workload = "fc";
	f->cfg.ops = 100000000;
	assert_int_equal(wl_run(&f->cfg, NULL, &hooks, &f->res), 0);
	assert_true(f->res.interrupted);
	assert_int_equal(SUM(&f->res, ops), 0);
	assert_dir_clean(f);
	wl_stop_reset();
	wl_result_free(&f->res);
}

static void test_refusals(void **state)
{
	struct fx *f = *state;
	char link[4200], file[4200];

	snprintf(link, sizeof(link), "%s.link", f->dir);
	assert_int_equal(symlink(f->dir, link), 0);
	f->cfg.workload = "fc";
	f->cfg.dir = link;
	assert_int_equal(run(f, NULL), -EINVAL);
	assert_int_equal(unlink(link), 0);
	f->cfg.dir = f->keep;		/* a file */
	assert_int_equal(run(f, NULL), -EINVAL);
	snprintf(file, sizeof(file), "%s/missing", f->dir);
	f->cfg.dir = file;
	assert_int_equal(run(f, NULL), -EINVAL);
	f->cfg.dir = f->dir;
	f->cfg.chunk = f->cfg.file_size + 1;
	assert_int_equal(run(f, NULL), -EINVAL);
	f->cfg.chunk = 100;
	f->cfg.files = 0;
	assert_int_equal(run(f, NULL), -EINVAL);
	f->cfg.files = 1;
	f->cfg.workload = "nope";
	assert_int_equal(run(f, NULL), -EINVAL);
	f->cfg.workload = "bcache";
	f->cfg.cache_size = f->cfg.block - 1;
	assert_int_equal(run(f, NULL), -EINVAL);
	assert_dir_clean(f);
}

static void test_registry(void **state)
{
	static const char *const names[] = { "fc", "fcp", "fcp-fixed", "bcache",
					     "bcache-rw", "bcache-sharded", "bcache-chm", "nio" };
	struct wl_config cfg;
	int n = 0;

	for (; wl_all[n]; n++) {
		assert_string_equal(wl_all[n]->name, names[n]);
		assert_ptr_equal(wl_find(names[n]), wl_all[n]);
		assert_true(strlen(wl_all[n]->summary) > 10);
		assert_non_null(strstr(wl_all[n]->options, "threads"));
	}
	assert_int_equal(n, 8);
	assert_null(wl_find("FC"));
	wl_config_defaults(&cfg);
	assert_int_equal(cfg.ops, 100000);
	assert_int_equal(cfg.file_size, 100000);
	assert_int_equal(cfg.chunk, 10000);
	assert_int_equal(cfg.threads, 8);
	assert_int_equal(cfg.pool, 50);
	assert_int_equal(cfg.block, 4096);
	assert_int_equal(cfg.cache_size, 64 << 20);
	assert_int_equal(cfg.seed, 1);
	assert_int_equal(wl_config_check(&cfg), 0);
}

static void test_content(void **state)
{
	unsigned char a[64], b[64];

	wl_content_fill(3, 1000, a, sizeof(a));
	wl_content_fill(3, 1001, b, sizeof(b) - 1);
	assert_memory_equal(a + 1, b, sizeof(b) - 1);
	assert_true(wl_content_ok(3, 1000, a, sizeof(a)));
	assert_false(wl_content_ok(4, 1000, a, sizeof(a)));
	assert_true(wl_content_ok(3, 1001, b, sizeof(b) - 1));
	/* the first, middle and last bytes are each watched */
	for (int i = 0; i < 3; i++) {
		size_t at = i == 0 ? 0 : i == 1 ? sizeof(a) / 2 : sizeof(a) - 1;

		a[at] ^= 0x40;
		assert_false(wl_content_ok(3, 1000, a, sizeof(a)));
		a[at] ^= 0x40;
	}
	b[(sizeof(b) - 1) / 2] ^= 1;	/* unaligned chunk, middle byte */
	assert_false(wl_content_ok(3, 1001, b, sizeof(b) - 1));
	assert_true(wl_content_ok(3, 1000, a, 5));	/* short chunks too */
	a[4] ^= 1;
	assert_false(wl_content_ok(3, 1000, a, 5));
}

/* wl_run checks --dir itself, on the directory it opens: the same
 * refusals without preflight, a trailing slash no way past the symlink
 * rule, and nothing made. */
static void test_unsafe_dir_refused_by_run(void **state)
{
	struct fx *f = *state;
	char link[4200];

	f->cfg.workload = "fc";
	assert_int_equal(chmod(f->dir, 0777), 0);
	assert_int_equal(run(f, NULL), -EINVAL);
	assert_int_equal(chmod(f->dir, 0707), 0);
	assert_int_equal(run(f, NULL), -EINVAL);
	assert_int_equal(chmod(f->dir, 01777), 0);	/* sticky: fine */
	assert_int_equal(run(f, NULL), 0);
	assert_int_equal(chmod(f->dir, 0700), 0);
	snprintf(link, sizeof(link), "%s.link/", f->dir);
	link[strlen(link) - 1] = '\0';
	assert_int_equal(symlink(f->dir, link), 0);
	strcat(link, "/");
	f->cfg.dir = link;
	assert_int_equal(run(f, NULL), -EINVAL);
	link[strlen(link) - 1] = '\0';
	assert_int_equal(unlink(link), 0);
	f->cfg.dir = f->dir;
	assert_dir_clean(f);
}

/* While the run is on: one new directory in --dir, fctrace.XXXXXX, ours
 * and private (0700), holding exactly the data files. */
static int data_dir_at_open(void *arg, const struct wl_thread_stats *t, unsigned n)
{
	struct fx *f = arg;
	DIR *d = opendir(f->dir), *inner;
	struct dirent *e;
	char path[8400];
	struct stat st;
	int made = 0, files = 0;

	assert_non_null(d);
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "fctrace.", 8))
			continue;
		made++;
		assert_int_equal(strlen(e->d_name), 14);
		snprintf(path, sizeof(path), "%s/%s", f->dir, e->d_name);
		assert_int_equal(lstat(path, &st), 0);
		assert_true(S_ISDIR(st.st_mode));
		assert_int_equal(st.st_mode & 07777, 0700);
		assert_int_equal(st.st_uid, geteuid());
		assert_non_null(inner = opendir(path));
		while ((e = readdir(inner)))
			files += e->d_name[0] == 'f';
		closedir(inner);
	}
	closedir(d);
	assert_int_equal(made, 1);
	assert_int_equal(files, f->cfg.files);
	return on_open(arg, t, n);
}

static void test_data_dir_private(void **state)
{
	struct fx *f = *state;
	struct wl_hooks hooks = { .window_open = data_dir_at_open, .window_close = on_close,
				  .arg = f };
	mode_t mask = umask(0);				/* 0700 whatever the umask */

	f->cfg.workload = "fc";
	assert_int_equal(wl_run(&f->cfg, NULL, &hooks, &f->res), 0);
	umask(mask);
	assert_run_ok(f);
}

/* The RLIMIT_NOFILE that leaves exactly `room` fds free below it,
 * around those this process has open (inherited ones may leave holes). */
static rlim_t limit_for_room(uint64_t room)
{
	static bool used[65536];
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	uint64_t free_fds = 0;
	rlim_t limit = 0;

	assert_non_null(d);
	while ((e = readdir(d))) {
		int fd = atoi(e->d_name);

		if (e->d_name[0] != '.' && fd != dirfd(d) && fd < 65536)
			used[fd] = true;
	}
	closedir(d);
	for (; free_fds < room; limit++)
		free_fds += limit >= 65536 || !used[limit];
	return limit;
}

/* Run cfg in a child whose RLIMIT_NOFILE leaves it `room` fds beside
 * those already open: 0 if it ran every op without an error. */
static int run_with_room(const struct wl_config *cfg, uint64_t room)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		struct wl_result res = { 0 };
		struct rlimit rl = { 0, 0 };
		uint64_t errors = 0;
		int rc, null = open("/dev/null", O_WRONLY);

		dup2(null, STDERR_FILENO);	/* the refusal's message */
		close(null);
		getrlimit(RLIMIT_NOFILE, &rl);
		rl.rlim_cur = limit_for_room(room);
		if (rl.rlim_max != RLIM_INFINITY && rl.rlim_cur > rl.rlim_max)
			_exit(3);
		if (setrlimit(RLIMIT_NOFILE, &rl))
			_exit(4);
		rc = wl_run(cfg, NULL, NULL, &res);
		for (unsigned i = 0; i < res.nthreads; i++)
			errors += res.threads[i].op_errors;
		wl_result_free(&res);
		_exit(rc ? 1 : errors ? 2 : 0);
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* wl_fds_needed (what preflight asks RLIMIT_NOFILE for) is enough for
 * every workload at its most fd-hungry: a pool far smaller than the
 * file set and more threads than channels; and the limit does bind. */
static void test_fds_needed_suffice(void **state)
{
	struct fx *f = *state;
	struct wl_config c = f->cfg;

	c.files = 40;
	c.pool = 4;
	c.threads = 16;
	c.ops = 600;	/* each thread still misses ~540 times: every channel cycles */
	for (int i = 0; wl_all[i]; i++) {
		c.workload = wl_all[i]->name;
		c.shared_file = false;
		c.handle = WL_HANDLE_SHARED;
		if (run_with_room(&c, wl_fds_needed(&c)))
			fail_msg("%s: failed with room for %llu fds", c.workload,
				 (unsigned long long)wl_fds_needed(&c));
		c.shared_file = true;
		c.handle = WL_HANDLE_PER_THREAD;
		if (run_with_room(&c, wl_fds_needed(&c)))
			fail_msg("%s, per-thread handles: failed with room for %llu fds",
				 c.workload, (unsigned long long)wl_fds_needed(&c));
	}
	c.workload = "bcache";				/* without room for its handles */
	c.shared_file = false;
	c.handle = WL_HANDLE_SHARED;
	assert_int_not_equal(run_with_room(&c, wl_fds_needed(&c) - c.files), 0);
	assert_dir_clean(f);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_content),
		T(test_fc), T(test_fcp), T(test_fcp_fixed), T(test_fcp_within_capacity),
		T(test_bcache), T(test_bcache_rw), T(test_bcache_sharded), T(test_bcache_chm),
		T(test_nio), T(test_bcache_locked_handle),
		T(test_shared_file), T(test_cold), T(test_pressure),
		T(test_corrupt_read_caught), T(test_failed_ops), T(test_stop), T(test_stop_fc),
		T(test_fc_inline_loop_counts_short_reads),
		T(test_refusals), T(test_unsafe_dir_refused_by_run), T(test_data_dir_private),
		T(test_fds_needed_suffice),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
