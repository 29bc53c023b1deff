/*
 * workload.h - the workloads as a small library, usable without BPF.
 *
 * A run: wl_run() creates the data files, sets the workload up, starts
 * the threads together, times every operation and tears everything down.
 * Each workload is one file that fills in a struct workload.
 */
#ifndef FCTRACE_WORKLOAD_H
#define FCTRACE_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/stat.h>
#include <time.h>
#include "histlog.h"	/* the histogram layout, shared with the BPF side */
#include "lock_kind.h"

#define WL_MAX_THREADS	256
#define WL_MAX_FILES	100000
/* op latency in ns, log-linear (histlog.h): values below 2^40 ns (18 min) */
#define WL_HIST_SLOTS	FCT_HIST_SLOTS_BELOW(40)

/* CLOCK_MONOTONIC (= bpf_ktime_get_ns) via the vDSO: no syscall, safe
 * inside the window. The one clock helper of workloads, user and tests. */
static inline uint64_t wl_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * Each worker times and verifies its first WL_SAMPLE_WARMUP ops, then
 * one in WL_SAMPLE_EVERY; every op is counted and its length checked.
 * Two clock reads, a histogram add and a content check per op would
 * add about half of a bare open/pread/close loop's own user-space
 * instructions: `make bench` measures how far fc is from that loop.
 */
#define WL_SAMPLE_WARMUP	64
#define WL_SAMPLE_EVERY		64
#define WL_MAX_LOCKS	64	/* named locks one workload may report */

enum wl_cache_mode { WL_CACHE_WARM, WL_CACHE_COLD };
/* locked: one handle per file, every read an lseek + read under the
 * handle's mutex, as Java's RandomAccessFile (synchronized seek + read) */
enum wl_handle_mode { WL_HANDLE_SHARED, WL_HANDLE_PER_THREAD, WL_HANDLE_LOCKED };

struct wl_config {
	const char *workload;	/* "fc", "fcp", "fcp-fixed", "bcache", ... */
	unsigned files;		/* active set size */
	unsigned threads;
	uint64_t ops;		/* per thread */
	uint64_t file_size;
	uint64_t chunk;		/* bytes per read */
	unsigned pool;		/* fcp capacity */
	uint64_t block;		/* bcache block size */
	uint64_t cache_size;	/* bcache byte budget */
	uint64_t seed;
	bool shared_file;	/* every thread reads file 0 */
	enum wl_handle_mode handle;
	enum wl_cache_mode cache;
	double pressure;	/* pages dropped per second by the evictor, 0 = off */
	const char *dir;	/* parent of the mkdtemp data directory */
};

/* Fill cfg with the defaults of Wicket's FileChannelPool benchmark. */
void wl_config_defaults(struct wl_config *cfg);
/* File descriptors a run of cfg holds open at most (the data directory
 * and files, pool channels or handles, per-thread fds), not counting the
 * process's own; test_wl_run runs every workload within it */
uint64_t wl_fds_needed(const struct wl_config *cfg);
/* Bytes and inodes the data files of cfg take in --dir */
uint64_t wl_bytes_needed(const struct wl_config *cfg, uint64_t block);
uint64_t wl_inodes_needed(const struct wl_config *cfg);
/* Can fctrace safely make its data directory in dir? 0, or -EINVAL with
 * the reason in why (an existing directory, not a symlink, and it and
 * every directory above it owned by root or by us and writable by others
 * only with the sticky bit, as sudo and OpenSSH check secure paths) */
int wl_dir_check(const char *dir, char *why, size_t len);
/* dir opened as wl_dir_check checks it, component by component without
 * following a link, each checked on the directory opened: its fd
 * (O_RDONLY|O_DIRECTORY), or -EINVAL with the reason in why */
int wl_dir_open(const char *dir, char *why, size_t len);
/* Does cfg's data set fit in the directory fd (free bytes and inodes),
 * and can its pages be dropped when cfg asks for a cold cache or for
 * pressure (not on tmpfs or ramfs)? 0, or -EINVAL/-ENOSPC with why */
int wl_dir_fit_check(int fd, const struct wl_config *cfg, char *why, size_t len);

/* I/O seam: tests inject scripted fakes, production uses the syscalls.
 * Files are named relative to a directory fd (the data directory's, held
 * from its creation to its removal): a swap of any component of the path
 * above it cannot redirect an open. */
struct wl_io {
	int (*open)(void *ctx, int dirfd, const char *name, int flags);
	ssize_t (*pread)(void *ctx, int fd, void *buf, size_t len, off_t off);
	int (*close)(void *ctx, int fd);
	int (*stat)(void *ctx, int dirfd, const char *name, struct stat *st);
	void *ctx;
};
extern const struct wl_io wl_sys_io;

/* One thread's own view of its run; phase times are from CLOCK_MONOTONIC. */
struct wl_thread_stats {
	pid_t tid;
	unsigned index;
	uint64_t ops;
	uint64_t start_ns, end_ns;	/* CLOCK_MONOTONIC, = bpf_ktime_get_ns */
	/* pools */
	uint64_t lock_wait_ns;		/* waiting to take the workload lock */
	uint64_t lock_hold_ns;		/* holding it */
	uint64_t lock_acquires;
	uint64_t lock_contended;	/* acquisitions where trylock failed */
	uint64_t read_ns;		/* in the data read itself */
	/* caches */
	uint64_t lookup_ns;		/* cache lookups/inserts, lock included */
	uint64_t miss_read_ns;		/* reading missed blocks from the file */
	/* events this thread caused */
	uint64_t hits, misses, evictions;
	uint64_t syscalls_in_lock;	/* stat/open/close (pools), lseek+read (a
					 * locked handle) made holding a lock */
	uint64_t bytes_read;		/* bytes handed back to the caller */
	uint64_t verify_errors;
	/* operation latency, of the sampled ops (WL_SAMPLE_*) */
	uint64_t lat_timed;		/* ops timed and verified */
	uint64_t lat_hist[WL_HIST_SLOTS];
	uint64_t lat_min_ns, lat_max_ns, lat_total_ns;
	/* added: operations that returned an error (open failed, ...) */
	uint64_t op_errors;
	/* pools: the lock held by gets that hit, by gets that missed, by puts */
	uint64_t hold_hit_ns, hold_miss_ns, hold_put_ns;
	/* the sampled ops' latency again, by whether the op missed (pools:
	 * its get), and every pread's (pools): their medians are the
	 * uncontended costs the what-if model (user/explain/whatif.c) is fitted with */
	uint64_t op_hit_hist[WL_HIST_SLOTS];
	uint64_t op_miss_hist[WL_HIST_SLOTS];
	uint64_t read_hist[WL_HIST_SLOTS];
};

/* Workload-wide totals (pool or cache), after the run. */
struct wl_totals {
	bool has_pool, has_cache;
	uint64_t hits, misses, evictions;
	uint64_t max_open;		/* most handles open at once (pools) */
	uint64_t over_capacity;		/* times a pool exceeded capacity */
	uint64_t cache_bytes;		/* bytes cached at the end (caches) */
	uint64_t cache_blocks;
};

/* A lock the kernel view should be able to name: futex words inside
 * [addr, addr + size) belong to it. */
struct wl_lock_desc {
	char name[32];			/* "fcp.pool", "bcache.lru", ... */
	uint64_t addr;
	uint64_t size;
	enum lock_kind kind;		/* LK_MUTEX, LK_RWLOCK */
};

struct wl_run;			/* one run's state, opaque outside workloads/ */
struct wl_thread;		/* one worker's state */

/* What a workload's pool does on a miss: the shape the what-if model of
 * pools fits (explain/whatif.c), handed to it as a typed fact */
enum wl_pool_shape {
	WL_NO_POOL,
	WL_POOL_MISS_IN_LOCK,		/* stat, open and close inside the lock */
	WL_POOL_MISS_OUTSIDE_LOCK,	/* the same syscalls outside it */
};

struct workload {
	const char *name;
	enum wl_pool_shape pool_shape;
	const char *summary;
	/* which options it reads, for `fctrace list` */
	const char *options;
	int (*setup)(struct wl_run *run);
	/* one operation: read cfg->chunk bytes of file `file` at `off` into
	 * buf; returns the bytes read or -errno */
	int (*op)(struct wl_run *run, struct wl_thread *t, unsigned file,
		  uint64_t off, void *buf);
	void (*teardown)(struct wl_run *run);
	void (*totals)(struct wl_run *run, struct wl_totals *out);
	int (*locks)(struct wl_run *run, struct wl_lock_desc *out, int max);
	/* added, optional: per worker, on the worker, before its window
	 * opens / after it closes (per-thread handles, cache readers) */
	int (*thread_init)(struct wl_run *run, struct wl_thread *t);
	void (*thread_fini)(struct wl_run *run, struct wl_thread *t);
	/* optional: the measured loop with op inlined (wl_loop.h); returns
	 * the ops run. Without it the runner calls op through this table. */
	uint64_t (*loop)(struct wl_thread *t);
};

const struct workload *wl_find(const char *name);
/* every workload's name, from wl_all, joined by sep ("fc, fcp, ..."):
 * the one list that messages, --help and the completion show */
const char *wl_names(char *buf, size_t len, const char *sep);
/* NULL-terminated list of every workload */
extern const struct workload *const wl_all[];

/* Called around the measured window, from the thread that called wl_run. */
struct wl_hooks {
	/* all threads created and waiting; tids known */
	int (*window_open)(void *arg, const struct wl_thread_stats *threads,
			   unsigned n);
	void (*window_close)(void *arg);
	void *arg;
	/* optional: the data directory is made, no file in it yet (tests) */
	void (*dir_made)(void *arg, const char *data_dir);
};

/* What one op costs with one thread alone (the session's calibration,
 * user/session/solo.c): medians of the sampled ops, 0 = not measured. */
struct wl_solo {
	uint64_t hit_ns;	/* a pool op whose get hit */
	uint64_t miss_ns;	/* a pool op whose get missed */
	uint64_t fc_ns;		/* an fc op: open, pread, close */
};

struct wl_result {
	struct wl_config cfg;
	char data_dir[4096];
	uint64_t wall_ns;			/* first start to last end */
	uint64_t start_ns, end_ns;
	unsigned nthreads;
	struct wl_thread_stats *threads;	/* nthreads, malloc'ed */
	struct wl_totals totals;
	struct wl_lock_desc locks[WL_MAX_LOCKS];
	int nlocks;
	uint64_t cold_pages_resident;		/* after the cold eviction */
	uint64_t pressure_pages_dropped;
	bool interrupted;			/* stopped by a signal: partial */
	struct wl_solo solo;			/* filled by the session, not wl_run */
};

/* Run one workload; io may be NULL for the real syscalls. Returns 0 or
 * -errno with a message already printed to stderr (-EINVAL: settings,
 * -EIO: operations failed, -EILSEQ: reads returned wrong data; the
 * per-thread stats are filled in for those two). Call wl_result_free
 * after every wl_run, whatever it returned. */
int wl_run(const struct wl_config *cfg, const struct wl_io *io,
	   const struct wl_hooks *hooks, struct wl_result *out);
void wl_result_free(struct wl_result *res);

/* Ask a running wl_run to stop soon (async-signal-safe). The request
 * stays set, so a sweep's later runs stop at once too, until
 * wl_stop_reset() (added) clears it. */
void wl_request_stop(void);
void wl_stop_reset(void);

/*
 * The points where a worker's measured window begins and ends. They do
 * nothing; fctrace attaches uprobes to them so the kernel account starts
 * and ends on the same CLOCK_MONOTONIC instants as the thread's own.
 */
void fctrace_thread_begin(uint64_t now_ns, unsigned index);
void fctrace_thread_end(uint64_t now_ns, unsigned index);

#endif /* FCTRACE_WORKLOAD_H */
