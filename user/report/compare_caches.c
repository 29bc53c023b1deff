/*
 * compare_caches.c - the programs' caches in the term-by-term account:
 * one line for each program's cache of a kind, its processes summed (a
 * server's workers each keep their own; pids differ between runs, the
 * name does not), the costliest first, at most CACHE_TERMS.
 */
#include <stdio.h>
#include <string.h>
#include "report/compare_int.h"

#define CACHE_TERMS	4	/* the costliest first: caches_build's order */

struct cache_sum {
	double accesses, misses, rereads, ws_bytes;
	uint64_t size_max, ws_items;
	bool size_known;
	int procs;
};

static void cache_sum(const struct joined_run *m, const struct cache_entry *like,
		      struct cache_sum *s)
{
	memset(s, 0, sizeof(*s));
	for (int i = 0; i < m->ncaches; i++) {
		const struct cache_entry *c = &m->caches[i];

		if (c->kind != like->kind || strcmp(c->comm, like->comm))
			continue;
		s->accesses += (double)c->accesses;
		s->misses += (double)c->misses;
		s->rereads += c->rereads;
		if ((double)c->ws_bytes > s->ws_bytes)
			s->ws_bytes = (double)c->ws_bytes;
		if (c->ws_items > s->ws_items)
			s->ws_items = c->ws_items;
		if (c->size_known && c->size_items > s->size_max)
			s->size_max = c->size_items;
		s->size_known |= c->size_known;
		s->procs++;
	}
}

/* Whether an entry of this program and kind came earlier in m. */
static bool cache_seen(const struct joined_run *m, int before, const struct cache_entry *c)
{
	for (int i = 0; i < before; i++)
		if (m->caches[i].kind == c->kind && !strcmp(m->caches[i].comm, c->comm))
			return true;
	return false;
}

/* A handle cache by its hit ratio; a block or page cache, whose hits are
 * not seen, by its re-reads; connections by the new ones. Counts are as
 * compared (per second in rates). */
static void cache_line(struct cmp_line *l, const struct cmp_pair *p,
		       const struct cache_sum *a, const struct cache_sum *b)
{
	if (l->cache_kind == CACHE_CONNS) {
		cmp_fig(l, "new_a", a->misses * p->a.per);
		cmp_fig(l, "new_b", b->misses * p->b.per);
		cmp_fig(l, "at_once_a", (double)a->ws_items);
		cmp_fig(l, "at_once_b", (double)b->ws_items);
		return;
	}
	if (l->cache_kind == CACHE_HANDLES) {
		cmp_fig(l, "hit_ratio_a", a->accesses > 0 ? 1 - a->misses / a->accesses : 0);
		cmp_fig(l, "hit_ratio_b", b->accesses > 0 ? 1 - b->misses / b->accesses : 0);
		cmp_fig(l, "misses_a", a->misses * p->a.per);
		cmp_fig(l, "misses_b", b->misses * p->b.per);
	} else {
		cmp_fig(l, "rereads_a", a->rereads * p->a.per);
		cmp_fig(l, "rereads_b", b->rereads * p->b.per);
		cmp_fig(l, "reads_a", a->misses * p->a.per);
		cmp_fig(l, "reads_b", b->misses * p->b.per);
	}
	cmp_fig(l, "working_set_bytes_a", a->ws_bytes);
	cmp_fig(l, "working_set_bytes_b", b->ws_bytes);
	if (a->size_known && b->size_known) {
		cmp_fig(l, "size_items_a", (double)a->size_max);
		cmp_fig(l, "size_items_b", (double)b->size_max);
	}
}

static void story_cache(struct cmp_story *s, const struct cmp_pair *p,
			const struct cache_entry *c)
{
	struct cmp_line *l;
	struct cache_sum a, b;
	char what[48];

	cache_sum(p->a.m, c, &a);
	cache_sum(p->b.m, c, &b);
	snprintf(what, sizeof(what), "%s's %s", c->comm, cache_kind_name(c->kind));
	l = cmp_line_new(s, "cache", what);
	l->cache_kind = c->kind;
	if (a.procs && b.procs) {
		cache_line(l, p, &a, &b);
		return;
	}
	/* in one run only: the other measured none, or was not measuring */
	snprintf(l->only_in, sizeof(l->only_in), "%s", a.procs ? "a" : "b");
	cmp_fig(l, "other_measured", !!((a.procs ? p->b.m : p->a.m)->groups & PG_MASK(PG_HANDLES)));
}

void cmp_story_caches(struct cmp_story *s, const struct cmp_pair *p)
{
	int told = 0;

	for (int i = 0; i < p->a.m->ncaches && told < CACHE_TERMS; i++)
		if (!cache_seen(p->a.m, i, &p->a.m->caches[i])) {
			story_cache(s, p, &p->a.m->caches[i]);
			told++;
		}
	for (int i = 0; i < p->b.m->ncaches && told < CACHE_TERMS; i++) {
		const struct cache_entry *c = &p->b.m->caches[i];
		struct cache_sum in_a;

		cache_sum(p->a.m, c, &in_a);
		if (!in_a.procs && !cache_seen(p->b.m, i, c)) {
			story_cache(s, p, c);
			told++;
		}
	}
}
