/*
 * evictions.h - who removed the target's pages from the page cache and
 * how, per process (pc-evict, bpf/pcevict.bpf.h), and the target's misses
 * split into re-reads of removed pages and first reads: what the
 * page-cache cause names, and the JSON's `pagecache_evictions`.
 */
#ifndef FCTRACE_EVICTIONS_H
#define FCTRACE_EVICTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include "trace/kview.h"

#define EVICT_ROWS	16	/* removers kept, most pages first */

struct pc_eviction {
	char comm[16];
	uint32_t pid;		/* the process (a kernel thread's own pid) */
	unsigned how;		/* enum fct_evict_how */
	uint32_t nr;		/* the syscall it removed most pages in, or FCT_EV_NO_NR */
	bool target;		/* a process of the target */
	bool traced;		/* ... one of its traced threads */
	bool kswapd;		/* reclaim by kswapd (else direct, in its own name) */
	bool kthread;		/* a kernel thread (kswapd, DAMON's kdamond ...) */
	uint64_t pages;		/* removed, of files the target touched */
	uint64_t reread_pages;	/* of those, read from disk again by the target */
	unsigned npids;		/* by_comm's rows: the processes folded in (pid: the
				 * one that removed most) */
};

struct pc_evictions {
	bool on;		/* the removals were traced (pc-evict ran) */
	struct pc_eviction e[EVICT_ROWS];	/* per process, how */
	int n;
	/* the same folded per (comm, how): a program's processes, a loop of
	 * short-lived commands, as one remover (not saved: the Why's input) */
	struct pc_eviction by_comm[EVICT_ROWS];
	int n_by_comm;
	uint64_t rest_pages, rest_reread;	/* removers past EVICT_ROWS */
	uint64_t reread_pages;	/* the target's misses on pages removed in the window */
	uint64_t first_pages;	/* the rest of its misses: first reads */
	uint64_t removed_pages;
	uint64_t files;		/* files the target touched */
	uint64_t avail_kb[2];	/* MemAvailable at the window's open and close (0: unknown) */
	/* the page cache past its size: reclaim's removals of every file in
	 * the window, the target's re-reads of pages reclaim had removed, and
	 * the memory more that would have kept half and nine in ten of them
	 * (their reclaim distances: pages reclaim removed in between) */
	uint64_t reclaimed_pages, reclaim_reread_pages;
	uint64_t keep_half_pages, keep_most_pages;
};

/* From the kernel view (NULL or without pc-evict: o->on false); misses:
 * the traced threads' pages read from disk. */
void evictions_build(struct pc_evictions *o, const struct kview *kv, uint64_t misses);
/* "fadvise", "madvise", "truncate", "reclaim", "drop_caches", "direct_io", "other" */
const char *evict_how_name(unsigned how);
/* the enum fct_evict_how of a name, or -1 */
int evict_how_parse(const char *name);

#endif /* FCTRACE_EVICTIONS_H */
