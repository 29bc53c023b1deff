/*
 * test_evictions.c - the page cache past its size (join/evictions.c):
 * the memory more that would have kept the re-reads, from their reclaim
 * distances in the kernel view's log-linear histogram.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "histlog.h"
#include "base/hist.h"
#include "join/evictions.h"
#include "join/join.h"

static void view(struct kview *kv)
{
	memset(kv, 0, sizeof(*kv));
	kv->groups = PG_MASK(PG_PC_EVICT);
	kv->evict_global.reread_pages = 1200;
	kv->evict_global.reclaimed_pages = 50000;
	kv->evict_global.reclaim_reread_pages = 1000;
}

/* 600 pages re-read 1 000 pages of reclaim after their removal, 400 at
 * 20 000: half kept with ~1 000 pages more, nine in ten with ~20 000. */
static void test_keep_sizes(void **state)
{
	struct pc_evictions o;
	struct kview kv;

	(void)state;
	view(&kv);
	kv.evict_global.reclaim_dist[fct_hist_slot(1000, FCT_HIST_SLOTS)] = 600;
	kv.evict_global.reclaim_dist[fct_hist_slot(20000, FCT_HIST_SLOTS)] = 400;
	evictions_build(&o, &kv, 2000);
	assert_true(o.on);
	assert_int_equal(o.reclaimed_pages, 50000);
	assert_int_equal(o.reclaim_reread_pages, 1000);
	assert_int_equal(o.first_pages, 800);
	assert_in_range(o.keep_half_pages, 1000 * 15 / 16, 1000 * 17 / 16);
	assert_in_range(o.keep_most_pages, 20000 * 15 / 16, 20000 * 17 / 16);
}

/* No re-read after reclaim (fadvise removed them, or none): no size. */
static void test_none_after_reclaim(void **state)
{
	struct pc_evictions o;
	struct kview kv;

	(void)state;
	view(&kv);
	kv.evict_global.reclaim_reread_pages = 0;
	evictions_build(&o, &kv, 2000);
	assert_int_equal(o.keep_half_pages, 0);
	assert_int_equal(o.keep_most_pages, 0);
	kv.groups = 0;	/* the group did not run: nothing */
	evictions_build(&o, &kv, 2000);
	assert_false(o.on);
}

/* The page cache as a cache: its misses the pages read, first reads its
 * working set, the fix the memory more that keeps nine in ten re-reads,
 * and the curve's point there keeps them. */
static void test_pages_entry(void **state)
{
	static struct thread_row row;
	struct joined_run m;
	struct cache_entry c;
	struct kview kv;

	(void)state;
	view(&kv);
	kv.evict_global.reclaim_dist[fct_hist_slot(1000, FCT_HIST_SLOTS)] = 600;
	kv.evict_global.reclaim_dist[fct_hist_slot(20000, FCT_HIST_SLOTS)] = 400;
	memset(&m, 0, sizeof(m));
	memset(&row, 0, sizeof(row));
	row.has_kernel = true;
	row.k.tgid = 7;
	row.k.blocked_io_ns = 2000000000ull;
	m.rows = &row;
	m.nrows = 1;
	m.pagecache_misses = 2000;
	evictions_build(&m.evictions, &kv, 2000);
	assert_true(caches_pages_entry(&c, &m, &kv));
	assert_int_equal(c.kind, CACHE_PAGES);
	assert_int_equal(c.pid, 7);
	assert_int_equal(c.accesses, 2000);
	assert_int_equal(c.ws_items, 800);
	assert_int_equal(c.fix_items, m.evictions.keep_most_pages);
	assert_true(c.hit_ratio_fix >= 0.9 * 1000 / 2000);
	assert_true(c.hit_ratio_fix <= 1000.0 / 2000);
	assert_float_equal(c.miss_each_ns, 1e6, 1);	/* 2 s over 2000 pages */
	kv.evict_global.reclaim_reread_pages = 0;	/* none after reclaim: none */
	evictions_build(&m.evictions, &kv, 2000);
	assert_false(caches_pages_entry(&c, &m, &kv));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keep_sizes),
		cmocka_unit_test(test_none_after_reclaim),
		cmocka_unit_test(test_pages_entry),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
