/*
 * evictions.c - the page-cache removals of the target's files, one row
 * per (process, how): the BPF table keys them by syscall too, which the
 * rows fold in (keeping the call that removed most).
 */
#include <stdlib.h>
#include <string.h>
#include "base/hist.h"
#include "join/evictions.h"

static const char *const how_names[FCT_EV_N] = {
	[FCT_EV_OTHER] = "other", [FCT_EV_FADVISE] = "fadvise", [FCT_EV_MADVISE] = "madvise",
	[FCT_EV_TRUNCATE] = "truncate", [FCT_EV_RECLAIM] = "reclaim",
	[FCT_EV_DROP_CACHES] = "drop_caches", [FCT_EV_DIRECT_IO] = "direct_io",
};

const char *evict_how_name(unsigned how)
{
	return how < FCT_EV_N ? how_names[how] : "other";
}

int evict_how_parse(const char *name)
{
	for (int i = 0; i < FCT_EV_N; i++)
		if (!strcmp(name, how_names[i]))
			return i;
	return -1;
}

struct fold {
	struct pc_eviction row;
	uint64_t nr_pages;	/* the pages of row.nr's entry */
};

static struct fold *fold_find(struct fold *f, int n, const struct kv_evict *e)
{
	for (int i = 0; i < n; i++)
		if (f[i].row.pid == e->key.tgid && f[i].row.how == e->key.how &&
		    f[i].row.target == !!(e->key.flags & FCT_EV_F_TARGET) &&
		    f[i].row.traced == !!(e->key.flags & FCT_EV_F_TRACED))
			return &f[i];
	return NULL;
}

static void fold_add(struct fold *f, const struct kv_evict *e)
{
	struct pc_eviction *r = &f->row;

	if (!r->pages) {
		r->pid = e->key.tgid;
		r->how = e->key.how < FCT_EV_N ? e->key.how : FCT_EV_OTHER;
		r->target = e->key.flags & FCT_EV_F_TARGET;
		r->traced = e->key.flags & FCT_EV_F_TRACED;
		r->nr = FCT_EV_NO_NR;
	}
	r->kswapd |= !!(e->key.flags & FCT_EV_F_KSWAPD);
	r->kthread |= !!(e->key.flags & FCT_EV_F_KTHREAD);
	r->pages += e->val.pages;
	r->reread_pages += e->val.reread_pages;
	if (e->val.pages > f->nr_pages || r->nr == FCT_EV_NO_NR) {
		f->nr_pages = e->val.pages;
		r->nr = e->key.nr;
		memcpy(r->comm, e->val.comm, sizeof(r->comm));
		r->comm[sizeof(r->comm) - 1] = '\0';
	}
}

/* Fold the per-process rows f[0..n) per (comm, how, target, traced). */
static void fold_comms(struct pc_evictions *o, const struct fold *f, int n)
{
	for (int i = 0; i < n; i++) {
		const struct pc_eviction *r = &f[i].row;
		struct pc_eviction *g = NULL;

		for (int j = 0; j < o->n_by_comm && !g; j++)
			if (!strcmp(o->by_comm[j].comm, r->comm) && o->by_comm[j].how == r->how &&
			    o->by_comm[j].target == r->target && o->by_comm[j].traced == r->traced)
				g = &o->by_comm[j];
		if (!g && o->n_by_comm == EVICT_ROWS)
			continue;
		if (!g) {	/* rows come most pages first: the first names the pid */
			g = &o->by_comm[o->n_by_comm++];
			*g = *r;
			g->npids = 1;
			continue;
		}
		g->pages += r->pages;
		g->reread_pages += r->reread_pages;
		g->kswapd |= r->kswapd;
		g->npids++;
	}
}

static int by_row_pages(const void *a, const void *b)
{
	const struct pc_eviction *x = a, *y = b;

	if (x->pages != y->pages)
		return x->pages < y->pages ? 1 : -1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int by_pages(const void *a, const void *b)
{
	const struct fold *x = a, *y = b;

	if (x->row.pages != y->row.pages)
		return x->row.pages < y->row.pages ? 1 : -1;
	return x->row.pid < y->row.pid ? -1 : x->row.pid > y->row.pid;
}

/* The top of the histogram's slot where the share p of its weight is
 * reached: enough for at least p of it (at most a slot's 6.25 % more),
 * so that the curve's point at that size keeps p (caches_pages.c). */
static uint64_t slot_top(const uint64_t *h, double p)
{
	double all = 0, seen = 0;

	for (int i = 0; i < FCT_HIST_SLOTS; i++)
		all += (double)h[i];
	for (int i = 0; i < FCT_HIST_SLOTS; i++) {
		seen += (double)h[i];
		if (h[i] && seen >= p * all)
			return hist_slot_lower((unsigned)i) + hist_slot_width((unsigned)i);
	}
	return 0;
}

/* The memory more an LRU page cache would have needed to keep the
 * re-reads: a page reclaim removed is still there after d more pages are
 * reclaimed when the cache holds d pages more. */
static void reclaim_distances(struct pc_evictions *o, const struct fct_evict_global *g)
{
	uint64_t h[FCT_HIST_SLOTS];

	o->reclaimed_pages = g->reclaimed_pages;
	o->reclaim_reread_pages = g->reclaim_reread_pages;
	if (!g->reclaim_reread_pages)
		return;
	for (int i = 0; i < FCT_HIST_SLOTS; i++)
		h[i] = g->reclaim_dist[i];
	o->keep_half_pages = slot_top(h, 0.50);
	o->keep_most_pages = slot_top(h, 0.90);
}

void evictions_build(struct pc_evictions *o, const struct kview *kv, uint64_t misses)
{
	struct fold *f;
	int n = 0;

	memset(o, 0, sizeof(*o));
	if (!kv || !(kv->groups & PG_MASK(PG_PC_EVICT)))
		return;
	o->on = true;
	o->reread_pages = kv->evict_global.reread_pages;
	o->first_pages = misses > o->reread_pages ? misses - o->reread_pages : 0;
	o->removed_pages = kv->evict_global.removed_pages;
	o->files = kv->evict_global.files;
	o->avail_kb[0] = kv->mem_open.avail_kb;
	o->avail_kb[1] = kv->mem_close.avail_kb;
	reclaim_distances(o, &kv->evict_global);
	if (!kv->nevict || !(f = calloc((size_t)kv->nevict, sizeof(*f))))
		return;
	for (int i = 0; i < kv->nevict; i++) {
		struct fold *g = fold_find(f, n, &kv->evict[i]);

		fold_add(g ? g : &f[n++], &kv->evict[i]);
	}
	qsort(f, (size_t)n, sizeof(*f), by_pages);
	fold_comms(o, f, n);
	qsort(o->by_comm, (size_t)o->n_by_comm, sizeof(*o->by_comm), by_row_pages);
	for (int i = 0; i < n; i++) {
		if (i < EVICT_ROWS) {
			o->e[o->n++] = f[i].row;
			continue;
		}
		o->rest_pages += f[i].row.pages;
		o->rest_reread += f[i].row.reread_pages;
	}
	free(f);
}
