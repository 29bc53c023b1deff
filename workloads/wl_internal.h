/*
 * wl_internal.h - what the runner and the workloads share inside
 * workloads/: one run's state, one worker's state, the clock, timed locks
 * and the per-thread random stream. Nothing here crosses into user/.
 */
#ifndef FCTRACE_WL_INTERNAL_H
#define FCTRACE_WL_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include "workload.h"

#define WL_NAME_LEN	12	/* "f000000" (f + 6 digits; room for 10) */
/* the marker in every data directory, flock'ed by its live owner */
#define WL_OWNER_MARK	".fctrace-owner"

/* what a file is, whatever its name: removal checks it */
struct wl_file_id {
	dev_t dev;
	ino_t ino;
};

struct wl_run {
	struct wl_config cfg;
	const struct workload *wl;
	struct wl_io io;		/* what the workloads call */
	bool plain_io;			/* io is wl_sys_io: fc may call libc directly */
	unsigned nfiles;		/* files created and read (1 with shared_file) */
	unsigned created;		/* f000000.. made so far, removed at the end */
	char (*names)[WL_NAME_LEN];	/* each data file's name in dir_fd */
	struct wl_file_id *ids;		/* and its identity, recorded at creation */
	int *fds;			/* the runner's own fd per file: cold, pressure */
	int parent_fd, dir_fd;		/* --dir and the mkdtemp directory */
	int lock_fd;			/* the owner marker, flock'ed for the run */
	struct wl_file_id dir_id;	/* the data directory's identity */
	char dir_name[16];		/* its name in parent_fd, "" until made */
	char dir[4096];
	void *priv;			/* the workload's state */
	struct wl_thread **threads;
	unsigned nthreads;
	/* the start gate: workers report ready, then wait for go */
	pthread_mutex_t gate_mu;
	pthread_cond_t gate_cv;
	unsigned ready;
	bool go, abort;
};

struct wl_thread {
	struct wl_thread_stats st;	/* written only by this worker */
	struct wl_run *run;
	uint64_t rng[4];
	int own_fd;			/* handle=per-thread: this worker's fd, else -1 */
	void *priv;			/* the workload's per-worker state */
	void *buf;			/* the chunk read by each op */
	int init_err, first_err;
	uint64_t short_reads, short_bytes;	/* ops that read less than a chunk */
	pthread_t pt;
} __attribute__((aligned(64)));	/* no false sharing between workers */

/*
 * Timed locking. t0 is when the caller started (it usually has it
 * already, which saves a clock read); the return value is the instant
 * the lock was held. An uncontended acquire costs no clock read at all.
 */
static inline uint64_t wl_lock(pthread_mutex_t *m, struct wl_thread_stats *st,
			       uint64_t t0)
{
	uint64_t acq;

	st->lock_acquires++;
	if (pthread_mutex_trylock(m) == 0)
		return t0;
	st->lock_contended++;
	pthread_mutex_lock(m);
	acq = wl_now_ns();
	st->lock_wait_ns += acq - t0;
	return acq;
}

/* Release a lock taken at acq; returns now. */
static inline uint64_t wl_unlock(pthread_mutex_t *m, struct wl_thread_stats *st,
				 uint64_t acq)
{
	uint64_t t = wl_now_ns();

	st->lock_hold_ns += t - acq;
	pthread_mutex_unlock(m);
	return t;
}

static inline uint64_t wl_rwlock(pthread_rwlock_t *l, bool write,
				 struct wl_thread_stats *st, uint64_t t0)
{
	uint64_t acq;
	int busy = write ? pthread_rwlock_trywrlock(l) : pthread_rwlock_tryrdlock(l);

	st->lock_acquires++;
	if (!busy)
		return t0;
	st->lock_contended++;
	if (write)
		pthread_rwlock_wrlock(l);
	else
		pthread_rwlock_rdlock(l);
	acq = wl_now_ns();
	st->lock_wait_ns += acq - t0;
	return acq;
}

static inline uint64_t wl_rwunlock(pthread_rwlock_t *l, struct wl_thread_stats *st,
				   uint64_t acq)
{
	uint64_t t = wl_now_ns();

	st->lock_hold_ns += t - acq;
	pthread_rwlock_unlock(l);
	return t;
}

/* splitmix64: seeds the streams and mixes hash keys. */
static inline uint64_t wl_mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* xoshiro256**: a reproducible stream per (seed, thread index). */
void wl_rng_seed(uint64_t s[4], uint64_t seed, unsigned index);

static inline uint64_t wl_rng_next(uint64_t s[4])
{
	uint64_t r = s[1] * 5, t = s[1] << 17;

	r = ((r << 7) | (r >> 57)) * 9;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = (s[3] << 45) | (s[3] >> 19);
	return r;
}

/* uniform in [0, n): multiply-shift, bias below 2^-40 for our ranges */
static inline uint64_t wl_rng_below(uint64_t s[4], uint64_t n)
{
	return (uint64_t)(((unsigned __int128)wl_rng_next(s) * n) >> 64);
}

/* content.c: every data file's bytes are a function of (file, offset). */
void wl_content_fill(unsigned file, uint64_t off, void *buf, size_t len);
bool wl_content_ok(unsigned file, uint64_t off, const void *buf, size_t len);

/* config.c */
int wl_config_check(const struct wl_config *cfg);

/* datadir.c */
int wl_datadir_create(struct wl_run *run, const struct wl_hooks *hooks);
void wl_datadir_remove(struct wl_run *run);
/* dirreap.c: remove the data directories in parent_fd whose owner died;
 * returns how many */
unsigned wl_reap_stale(int parent_fd);
bool wl_same_file(int dirfd, const char *name, const struct wl_file_id *id);

/* pagecache.c */
uint64_t wl_resident_pages(int fd, uint64_t size);
uint64_t wl_cold_evict(struct wl_run *run);
struct wl_pressure;
struct wl_pressure *wl_pressure_start(struct wl_run *run, double rate);
uint64_t wl_pressure_stop(struct wl_pressure *p);

/* --shared-file --handle per-thread: each worker opens and keeps its own fd */
static inline bool wl_per_thread_handle(const struct wl_run *run)
{
	return run->cfg.shared_file && run->cfg.handle == WL_HANDLE_PER_THREAD;
}

#endif /* FCTRACE_WL_INTERNAL_H */
