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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keep_sizes),
		cmocka_unit_test(test_none_after_reclaim),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
