/*
 * caches_print.h - the programs' caches (join/caches.h) as the text and
 * HTML reports show them: one row each, its curve below it. Both
 * reporters take their cells from cache_cells, so they show one figure.
 */
#ifndef FCTRACE_CACHES_PRINT_H
#define FCTRACE_CACHES_PRINT_H

#include <stdio.h>
#include "join/join.h"

struct cache_cells {
	char name[48];		/* "nginx (1234)" */
	char accesses[16], hit_now[16], size_now[16];
	char ws[48];		/* "60 (6 MiB)" */
	char fix[48];		/* "60: 100.0 %", "+10.2 k: 98.6 %" */
	char cost[16];		/* the misses' time now */
	char curve[200];	/* a few points: "30 49.2 %, 51 84.7 %, 60 100.0 %" */
};

/* The cells of one cache; sizes of a cache whose size is not seen from
 * outside (blocks, pages) are what it would need more, written "+N". */
void cache_cells(const struct cache_entry *c, struct cache_cells *out);

/* Nothing when the handles probes did not run or found no cache. */
void caches_print(FILE *f, const struct joined_run *m);

#endif
