/*
 * subject.h - what a run's subject says of itself, beside the kernel's
 * account of its threads. The kernel's account is the row, whoever wrote
 * the program; a subject that times its own threads (fctrace's workloads)
 * hands these in as an attachment (join.h struct run_attachments), and a
 * program fctrace did not write hands in none. Nothing here names a
 * workload: the workload driver (session_workload.c) fills them in.
 */
#ifndef FCTRACE_SUBJECT_H
#define FCTRACE_SUBJECT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "histlog.h"
#include "lock_kind.h"

/* op latency in ns, log-linear (histlog.h): values below 2^40 ns (18 min) */
#define OWN_HIST_SLOTS	FCT_HIST_SLOTS_BELOW(40)

/* One thread's own clocks and counters, on CLOCK_MONOTONIC
 * (= bpf_ktime_get_ns): the kernel's account is matched to it by tid. */
struct thread_timings {
	pid_t tid;
	unsigned index;			/* the subject's own numbering */
	uint64_t ops;
	uint64_t start_ns, end_ns;
	/* a pool's lock */
	uint64_t lock_wait_ns;		/* waiting to take it */
	uint64_t lock_hold_ns;		/* holding it */
	uint64_t lock_acquires;
	uint64_t lock_contended;	/* acquisitions where trylock failed */
	uint64_t read_ns;		/* in the data read itself */
	/* a cache's */
	uint64_t lookup_ns;		/* lookups/inserts, lock included */
	uint64_t miss_read_ns;		/* reading missed blocks */
	uint64_t hits, misses, evictions;
	uint64_t syscalls_in_lock;	/* syscalls made holding a lock */
	uint64_t bytes_read;
	uint64_t verify_errors;
	/* operation latency, of the ops it timed */
	uint64_t lat_timed;
	uint64_t lat_hist[OWN_HIST_SLOTS];
	uint64_t lat_min_ns, lat_max_ns, lat_total_ns;
	uint64_t op_errors;		/* operations that returned an error */
	/* a pool's lock held by gets that hit, by gets that missed, by puts */
	uint64_t hold_hit_ns, hold_miss_ns, hold_put_ns;
	/* the timed ops' latency by whether the op missed, and every read's:
	 * their medians are the what-if model's uncontended costs */
	uint64_t op_hit_hist[OWN_HIST_SLOTS];
	uint64_t op_miss_hist[OWN_HIST_SLOTS];
	uint64_t read_hist[OWN_HIST_SLOTS];
};

/* How a pool the subject keeps pays a miss: the shape the what-if model
 * of pools (explain/whatif.c) fits; POOL_SHAPE_UNKNOWN for any program
 * that did not say (the model is then not fitted) */
enum pool_shape {
	POOL_SHAPE_UNKNOWN,
	POOL_MISS_IN_LOCK,		/* a miss's stat, open and close inside the lock */
	POOL_MISS_OUTSIDE_LOCK,		/* the same syscalls outside it */
};

/* The settings the subject ran with, as far as the rules read them. */
struct subject_config {
	unsigned files;			/* its active set of files */
	bool shared_file;		/* every thread read one file */
	unsigned pool;			/* a pool's capacity */
	enum pool_shape pool_shape;	/* what its misses do */
	uint64_t cache_size;		/* a cache's byte budget */
	bool cold_cache;		/* its files' pages dropped before the run */
	double pressure;		/* pages dropped per second during it, 0: none */
};

/* A pool's or a cache's counters over the run. */
struct subject_totals {
	bool has_pool, has_cache;
	uint64_t hits, misses, evictions;
	uint64_t max_open;		/* most handles open at once (pools) */
	uint64_t over_capacity;		/* times a pool exceeded capacity */
	uint64_t cache_bytes;		/* bytes cached at the end (caches) */
	uint64_t cache_blocks;
};

/* A lock the subject named: futex words in [addr, addr + size) are its. */
struct own_lock {
	char name[32];			/* "fcp.pool", "bcache.lru", ... */
	uint64_t addr;
	uint64_t size;
	enum lock_kind kind;		/* a mutex, an rwlock ... */
};

/* What one op costs with one thread alone: medians, 0 = not measured. */
struct solo_costs {
	uint64_t hit_ns;		/* a pool op whose get hit */
	uint64_t miss_ns;		/* a pool op whose get missed */
	uint64_t fc_ns;			/* an op without a pool: open, pread, close */
};

/* A thread the subject did not time: every figure zero. */
extern const struct thread_timings thread_timings_none;

/* Everything a subject timed of itself. */
struct subject_timings {
	struct subject_config cfg;
	uint64_t wall_ns;		/* its first thread's start to its last's end */
	uint64_t start_ns, end_ns;
	unsigned nthreads;
	struct thread_timings *threads;
	struct subject_totals totals;
	struct own_lock *locks;
	int nlocks;
	uint64_t cold_pages_resident;	/* after the cold eviction */
	uint64_t pressure_pages_dropped;
	struct solo_costs solo;
};

#endif /* FCTRACE_SUBJECT_H */
