/*
 * caches_pages.c - the page cache as one more cache in `caches` (kind
 * "pages"): the pages the traced threads read from disk are its misses;
 * those reclaim had removed earlier in the window would have been hits
 * with more memory, by their reclaim distances (bpf/pcevict.bpf.h). Its
 * size now is what the machine or the memory cgroup left it: the curve's
 * sizes are pages more than it had.
 */
#include <stdio.h>
#include <string.h>
#include "base/hist.h"
#include "join/caches.h"
#include "join/join.h"

#define PAGE_BYTES	4096ull

/* The curve: at each slot's upper edge, the share of the misses the
 * re-reads at most that far would have made hits. */
static void pages_curve(struct cache_entry *c, const struct fct_evict_global *g)
{
	double kept = 0;

	for (unsigned i = 0; i < FCT_HIST_SLOTS && c->nmrc < FU_MRC_MAX; i++) {
		if (!g->reclaim_dist[i])
			continue;
		kept += (double)g->reclaim_dist[i];
		c->mrc[c->nmrc++] = (struct fu_point){ hist_slot_lower(i) + hist_slot_width(i),
						       kept / (double)c->accesses };
	}
}

/* The threads' sleep on disk reads per page read, the misses' cost. */
static double per_page_ns(const struct joined_run *m)
{
	double io = 0;

	for (unsigned i = 0; i < m->nrows; i++)
		if (m->rows[i].has_kernel)
			io += (double)m->rows[i].k.blocked_io_ns;
	return m->pagecache_misses ? io / (double)m->pagecache_misses : 0;
}

bool caches_pages_entry(struct cache_entry *c, const struct joined_run *m, const struct kview *kv)
{
	const struct pc_evictions *e = &m->evictions;

	if (!e->on || !e->reclaim_reread_pages || !m->pagecache_misses || !m->nrows)
		return false;
	memset(c, 0, sizeof(*c));
	c->procs = 1;
	c->kind = CACHE_PAGES;
	c->pid = (pid_t)m->rows[0].k.tgid;
	memcpy(c->comm, m->rows[0].k.comm, sizeof(c->comm));
	snprintf(c->object, sizeof(c->object), "the page cache (%llu files read)",
		 (unsigned long long)e->files);
	c->accesses = c->misses = m->pagecache_misses;
	c->ws_items = e->first_pages;
	c->ws_bytes = e->first_pages * PAGE_BYTES;
	snprintf(c->why_unknown, sizeof(c->why_unknown), "the page cache has what memory the "
		 "machine or the memory cgroup leaves it; the curve's sizes are pages more than "
		 "it had");
	pages_curve(c, &kv->evict_global);
	c->fix_items = e->keep_most_pages;
	c->fix_bytes = e->keep_most_pages * PAGE_BYTES;
	c->hit_ratio_fix = cache_hit_ratio_at(c, c->fix_items);
	c->sample_rate = 1;
	c->rereads = (double)e->reclaim_reread_pages;
	cache_costs(c, per_page_ns(m));
	return true;
}
