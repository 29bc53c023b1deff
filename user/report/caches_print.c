/*
 * caches_print.c - the programs' caches as the text report shows them:
 * per process and kind, the accesses, the hit ratio and size now, the
 * working set, the size that reaches the ceiling and what the misses
 * cost, then a few points of the miss-ratio curve (the JSON has all).
 */
#include <stdio.h>
#include "base/units.h"
#include "report/caches_print.h"
#include "report/why.h"
#include "explain/words.h"
#include "trace/probes.h"

#define CURVE_POINTS	6

/* blocks and pages: the size now is not seen, sizes are what it needs more */
static const char *size_prefix(const struct cache_entry *c)
{
	return cache_sizes_relative(c) ? "+" : "";
}

static void curve_cells(const struct cache_entry *c, char *buf, size_t n)
{
	char s[16], h[16];
	int last = -1;

	buf[0] = '\0';
	for (int k = 0; k < CURVE_POINTS && c->nmrc; k++) {
		int i = c->nmrc == 1 ? 0 : (int)((double)k * (c->nmrc - 1) / (CURVE_POINTS - 1) + 0.5);

		if (i == last)
			continue;
		last = i;
		words_append(buf, n, "%s%s%s %s", buf[0] ? ", " : "", size_prefix(c),
			     units_count(s, sizeof(s), (double)c->mrc[i].size),
			     units_pct(h, sizeof(h), c->mrc[i].hit_ratio));
	}
}

void cache_cells(const struct cache_entry *c, struct cache_cells *o)
{
	char a[16], b[16];

	/* "conns" in the table's narrow column; the JSON's kind is "connections" */
	snprintf(o->name, sizeof(o->name), "%.15s (%d) %s", c->comm, (int)c->pid,
		 c->kind == CACHE_CONNS ? "conns" : cache_kind_name(c->kind));
	units_count(o->accesses, sizeof(o->accesses), (double)c->accesses);
	if (c->size_known) {
		units_pct(o->hit_now, sizeof(o->hit_now), c->hit_ratio_now);
		units_count(o->size_now, sizeof(o->size_now), (double)c->size_items);
	} else {
		snprintf(o->hit_now, sizeof(o->hit_now), "?");
		snprintf(o->size_now, sizeof(o->size_now), "?");
	}
	if (c->kind == CACHE_CONNS)	/* connections in use at once, no bytes */
		snprintf(o->ws, sizeof(o->ws), "%s at once",
			 units_count(a, sizeof(a), (double)c->ws_items));
	else
		snprintf(o->ws, sizeof(o->ws), "%s (%s)",
			 units_count(a, sizeof(a), (double)c->ws_items),
			 units_bytes(b, sizeof(b), (double)c->ws_bytes));
	snprintf(o->fix, sizeof(o->fix), "%s%s: %s", size_prefix(c),
		 units_count(a, sizeof(a), (double)c->fix_items),
		 units_pct(b, sizeof(b), c->hit_ratio_fix));
	units_ns(o->cost, sizeof(o->cost), c->miss_ns);
	curve_cells(c, o->curve, sizeof(o->curve));
}

static void print_entry(FILE *f, const struct cache_entry *c)
{
	struct cache_cells x;
	char line[600];

	cache_cells(c, &x);
	fprintf(f, "%-28.28s %9s %8s %8s %16s %14s %9s\n", x.name, x.accesses, x.hit_now,
		x.size_now, x.ws, x.fix, x.cost);
	snprintf(line, sizeof(line), "%s; curve (%s: hit ratio): %s", c->object,
		 cache_sizes_relative(c) ? "more" : "size", x.curve[0] ? x.curve : "none");
	if (!c->size_known && c->why_unknown[0])
		words_append(line, sizeof(line), "; size now not seen: %s", c->why_unknown);
	why_wrap(f, "  ", line);
}

void caches_print(FILE *f, const struct joined_run *m)
{
	if (!(m->groups & PG_MASK(PG_HANDLES)) || !m->ncaches)
		return;
	fprintf(f, "\nCaches the programs keep, as the kernel saw them used (each process's own; the "
		"JSON has\nthe curves)\n%-28s %9s %8s %8s %16s %14s %9s\n", "process and kind",
		"accesses", "hit now", "size now", "working set", "fix: hit", "misses");
	for (int i = 0; i < m->ncaches; i++)
		print_entry(f, &m->caches[i]);
	fprintf(f, "fix: the size that serves nearly all an unbounded cache would, and its hit "
		"ratio (+N: that\n  much more than the cache has now, which is not seen from "
		"outside); misses: their time now\n  (docs/caches.md)\n");
}
