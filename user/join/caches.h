/*
 * caches.h - the caches a run's programs keep, as the kernel saw them
 * used: per process, the working set, the hit ratio now and at every
 * size (a miss-ratio curve), the size that reaches the ceiling, and what
 * the misses cost in the threads' own syscall time. The JSON's `caches`.
 *
 * Built from the handles' stream (trace/fileuse.h): the files a process
 * opens again and again are the misses of a handle cache, its open
 * descriptors the cache; its positional reads a block cache's misses;
 * its new connections to one peer a connection pool's. Nothing here asks
 * who the program is.
 */
#ifndef FCTRACE_CACHES_H
#define FCTRACE_CACHES_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "trace/fileuse.h"

enum cache_kind {
	CACHE_HANDLES,		/* open descriptors of files opened again and again */
	CACHE_BLOCKS,		/* blocks of files the program reads itself (pread):
				 * a buffer pool, a block cache; only its misses seen */
	CACHE_PAGES,		/* the page cache: its misses, the re-reads of pages
				 * reclaim removed, by their reclaim distances */
	CACHE_CONNS,		/* connections to one peer made again and again: a
				 * pool of them missing or too small; only the new
				 * ones seen, each a miss */
	CACHE_KINDS,
};

struct cache_entry {
	enum cache_kind kind;
	pid_t pid;
	char comm[FCT_COMM_LEN];
	char object[160];	/* what is cached: "the files in html/ (60)" */
	uint64_t accesses;	/* the stream the curve is over */
	uint64_t misses;	/* of those, now */
	uint64_t ws_items, ws_bytes;	/* the working set */
	bool size_known;	/* size_items and hit_ratio_now measured */
	uint64_t size_items;	/* the cache's size now */
	double hit_ratio_now;
	char why_unknown[200];	/* !size_known: why */
	/* the curve: blocks, sizes are items more than the cache has now and
	 * hit ratios the share of its reads they serve */
	struct fu_point mrc[FU_MRC_MAX];
	int nmrc;
	uint64_t fix_items, fix_bytes;	/* the smallest size at the ceiling */
	double hit_ratio_fix;
	double sample_rate;	/* the share of the keys the curve kept (1: exact) */
	uint64_t direct;	/* blocks: reads of files open O_DIRECT (each a disk read) */
	double rereads;		/* blocks: reads of a block read before */
	uint64_t held_items;	/* blocks: what the cache holds now, estimated
				 * from where re-reads begin (0: too few) */
	unsigned procs;		/* processes whose accesses these are (blocks:
				 * more than 1 share one cache) */
	uint64_t shared_bytes;	/* blocks: their shared mapping (0: none) */
	/* what the misses cost: each miss's calls (an open and a close) at
	 * the process's own mean times, and in all */
	double miss_each_ns, miss_ns;
	uint64_t misses_at_fix;	/* predicted: accesses x (1 - hit_ratio_fix) */
	double saved_ns;	/* the misses' time the fix size avoids: the order */
	bool has_conn;		/* connections: conn below */
	struct cache_conn {
		char peer[112];		/* "127.0.0.1:5432", "unix:/run/x.sock" */
		uint64_t setups;	/* set-ups measured (a second exchange came) */
		uint64_t closes;	/* connections closed in the window */
		double connect_each_ns;	/* a connect call, mean */
		double setup_each_ns;	/* connect to its first reply, mean of setups */
		double lived_each_ns;	/* connect to close, mean of closes */
	} conn;
};

struct joined_run;
struct kview;

/* The caches of kv's processes into m->caches, the most time saved first;
 * 0, or -1 out of memory. */
int caches_build(struct joined_run *m, const struct kview *kv);
const char *cache_kind_name(enum cache_kind k);	/* "handles" ... (JSON) */
extern const char *const cache_kind_names[CACHE_KINDS];	/* the same, as a table */
/* The page cache's entry (caches_pages.c), when reclaim removed pages the
 * threads read again; false when none. */
bool caches_pages_entry(struct cache_entry *c, const struct joined_run *m, const struct kview *kv);
/* The kind named s, or -1. */
int cache_kind_parse(const char *s);
/* c's misses' cost at each_ns a miss and the fix size's saving, whole ns
 * (c's misses, accesses and hit_ratio_fix set before). */
void cache_costs(struct cache_entry *c, double each_ns);
/* Whether c's curve's sizes are items more than the cache has now (its
 * size is not seen: blocks, pages) rather than sizes (handles, a pool of
 * connections). */
bool cache_sizes_relative(const struct cache_entry *c);
/* The hit ratio the curve gives at size (linear between its points). */
double cache_hit_ratio_at(const struct cache_entry *c, uint64_t size);

#endif /* FCTRACE_CACHES_H */
