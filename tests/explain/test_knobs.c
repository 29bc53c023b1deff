/*
 * test_knobs.c - the settings that size known programs' caches and pools
 * (explain/knobs.c): each known name gives its setting at the size asked,
 * an unknown one none; a pool is known by the class its waits name.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "explain/knobs.h"

static void test_cache_knobs(void **state)
{
	char buf[160];
	const char *why;

	(void)state;
	assert_true(knob_for("nginx", CACHE_HANDLES, 60, buf, sizeof(buf)));
	assert_string_equal(buf, "open_file_cache max=60 (it is per worker process)");
	assert_true(knob_for("mariadbd", CACHE_BLOCKS, 66, buf, sizeof(buf)));
	assert_string_equal(buf, "innodb_buffer_pool_size=66M");
	assert_int_equal(knob_margin("mariadbd", CACHE_BLOCKS, &why), 1536);
	assert_non_null(why);
	assert_true(knob_for("pgbench", CACHE_CONNS, 4, buf, sizeof(buf)));
	assert_string_equal(buf, "Run pgbench without -C: each of its clients (4 at once here) "
			    "then keeps its connection");
	assert_false(knob_for("nginx", CACHE_BLOCKS, 60, buf, sizeof(buf)));
	assert_false(knob_for("someprog", CACHE_HANDLES, 60, buf, sizeof(buf)));
	assert_int_equal(knob_margin("nginx", CACHE_HANDLES, &why), 0);
	assert_null(why);
}

static void test_pool_knobs(void **state)
{
	char buf[160];

	(void)state;
	assert_true(pool_knob_for("Object.wait on org.apache.commons.pool.impl.GenericObjectPool$Latch"
				  " @ org.apache.commons.pool.impl.GenericObjectPool.borrowObject"
				  "(GenericObjectPool.java:1118)", 15, buf, sizeof(buf)));
	assert_string_equal(buf, "setMaxActive(15) on the GenericObjectPool (Commons Pool 1's "
			    "maxActive)");
	assert_true(pool_knob_for("park java.util.concurrent.locks.AbstractQueuedSynchronizer$"
				  "ConditionObject @ org.apache.commons.pool2.impl.LinkedBlockingDeque"
				  ".takeFirst(LinkedBlockingDeque.java:1200)", 8, buf, sizeof(buf)));
	assert_string_equal(buf, "setMaxTotal(8) on the GenericObjectPool (Commons Pool 2's "
			    "maxTotal)");
	assert_false(pool_knob_for("Object.wait on JPoolBench$Pool @ JPoolBench$Pool.take", 4, buf,
				   sizeof(buf)));
	assert_false(pool_knob_for("sem (semaphore, a pool of 4)", 8, buf, sizeof(buf)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cache_knobs),
		cmocka_unit_test(test_pool_knobs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
