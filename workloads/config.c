/*
 * config.c - the defaults of Wicket's FileChannelPool benchmark, the
 * checks that refuse impossible settings with one line each, and the list
 * of workloads.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "wl_internal.h"

extern const struct workload wl_fc, wl_fcp, wl_fcp_fixed;
extern const struct workload wl_bcache, wl_bcache_rw, wl_bcache_sharded, wl_bcache_chm;
extern const struct workload wl_nio;

const struct workload *const wl_all[] = {
	&wl_fc, &wl_fcp, &wl_fcp_fixed,
	&wl_bcache, &wl_bcache_rw, &wl_bcache_sharded, &wl_bcache_chm, &wl_nio, NULL,
};

const struct workload *wl_find(const char *name)
{
	for (int i = 0; name && wl_all[i]; i++)
		if (!strcmp(wl_all[i]->name, name))
			return wl_all[i];
	return NULL;
}

const char *wl_names(char *buf, size_t len, const char *sep)
{
	size_t n = 0;

	if (len)
		buf[0] = '\0';
	for (int i = 0; wl_all[i] && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? sep : "", wl_all[i]->name);
	return buf;
}

void wl_config_defaults(struct wl_config *cfg)
{
	const char *tmp = getenv("TMPDIR");

	memset(cfg, 0, sizeof(*cfg));
	cfg->workload = "fcp";
	cfg->files = 60;		/* the product's main job: --files 60 */
	cfg->threads = 8;
	cfg->ops = 100000;
	cfg->file_size = 100000;
	cfg->chunk = 10000;
	cfg->pool = 50;			/* Wicket's default capacity */
	cfg->block = 4096;		/* NioFile's block */
	cfg->cache_size = 64ull << 20;
	cfg->seed = 1;
	cfg->handle = WL_HANDLE_SHARED;
	cfg->cache = WL_CACHE_WARM;
	cfg->dir = tmp && *tmp ? tmp : "/tmp";
}

static int bad(const char *what)
{
	fprintf(stderr, "fctrace: %s\n", what);
	return -EINVAL;
}

static int bad_workload(void)
{
	char names[160];

	fprintf(stderr, "fctrace: --workload must be one of %s\n", wl_names(names, sizeof(names), ", "));
	return -EINVAL;
}

static bool is_pool(const char *w) { return !strncmp(w, "fcp", 3); }
static bool is_cache(const char *w) { return !strncmp(w, "bcache", 6); }

/* Settings no run could honour; user/cli/options.c catches most of them
 * first, this keeps direct callers (tests, sweeps) honest too. */
int wl_config_check(const struct wl_config *cfg)
{
	if (!cfg->workload || !wl_find(cfg->workload))
		return bad_workload();
	if (cfg->files < 1 || cfg->files > WL_MAX_FILES)
		return bad("--files must be between 1 and 100000");
	if (cfg->threads < 1 || cfg->threads > WL_MAX_THREADS)
		return bad("--threads must be between 1 and 256");
	if (cfg->ops < 1)
		return bad("--ops must be at least 1");
	if (cfg->file_size < 1)
		return bad("--file-size must be at least 1");
	if (cfg->chunk < 1 || cfg->chunk > (1u << 30))
		return bad("--chunk must be between 1 and 1073741824");
	if (cfg->chunk > cfg->file_size)
		return bad("--chunk must not be larger than --file-size");
	if ((cfg->shared_file ? 1 : cfg->files) * cfg->file_size > (8ull << 30))
		return bad("--files x --file-size must stay within 8 GiB of data");
	if (is_pool(cfg->workload) && cfg->pool < 1)
		return bad("--pool must be at least 1");
	if (is_cache(cfg->workload) && (cfg->block < 1 || cfg->block > (1u << 20)))
		return bad("--block must be between 1 and 1048576");
	if (is_cache(cfg->workload) && cfg->cache_size < cfg->block)
		return bad("--cache-size must hold at least one --block");
	if (!(cfg->pressure >= 0 && cfg->pressure <= 1e7))
		return bad("--pressure must be a rate between 0 and 10000000 pages/s");
	if (!cfg->dir || !*cfg->dir)
		return bad("--dir must name a directory");
	return 0;
}

/*
 * The most fds a run holds at once, from the workloads' own code:
 *  - the runner: the data directory, its parent, its owner marker and
 *    every data file, kept open from creation to removal (datadir.c);
 *  - fc: one open per thread at a time, or one shared/per-thread handle;
 *  - fcp: the channels, at most min(pool, files), plus one per busy
 *    thread (the pool grows past capacity when every channel is in use)
 *    and the miss's new fd, opened before the eviction;
 *  - fcp-fixed: the same, plus one fd per thread opened outside the lock
 *    or waiting to be closed after it (a lost race, evicted channels);
 *  - bcache*, nio: a handle per file, or one per thread with per-thread
 *    handles.
 */
uint64_t wl_fds_needed(const struct wl_config *cfg)
{
	uint64_t files = cfg->shared_file ? 1 : cfg->files, threads = cfg->threads;
	uint64_t n = 3 + files;	/* the runner's own: --dir, data dir, marker */
	bool per_thread = cfg->shared_file && cfg->handle == WL_HANDLE_PER_THREAD;

	if (is_pool(cfg->workload))
		n += (cfg->pool < files ? cfg->pool : files) + threads + 1 +
		     (strcmp(cfg->workload, "fcp-fixed") ? 0 : threads);
	else if (is_cache(cfg->workload) || !strcmp(cfg->workload, "nio"))
		n += per_thread ? threads : files;
	else
		n += threads + 1;
	return n;
}

/* every data file rounded up to whole blocks, and the directory itself */
uint64_t wl_bytes_needed(const struct wl_config *cfg, uint64_t block)
{
	uint64_t files = cfg->shared_file ? 1 : cfg->files;

	if (!block)
		block = 4096;
	return (files * ((cfg->file_size + block - 1) / block) + 2) * block;
}

uint64_t wl_inodes_needed(const struct wl_config *cfg)
{
	return (cfg->shared_file ? 1 : cfg->files) + 2;	/* + the directory and marker */
}

void wl_rng_seed(uint64_t s[4], uint64_t seed, unsigned index)
{
	uint64_t x = seed ^ ((uint64_t)(index + 1) << 32);

	for (int i = 0; i < 4; i++) {
		x += 0x9e3779b97f4a7c15ull;
		s[i] = wl_mix64(x);
	}
}
