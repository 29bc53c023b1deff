/*
 * test_knobs.c - the settings that size known programs' caches and pools
 * (explain/knobs.c): each known name gives its setting at the size asked,
 * an unknown one none; a pool is known by the class its waits name.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "explain/knobs.h"

/* The setting's name, and its value as the text gives it: the number the
 * size asked for, after the name (as the program's config syntax has it). */
static void assert_knob(const char *buf, const char *name, const char *want_name,
			unsigned long long want)
{
	const char *at;

	assert_non_null(name);
	assert_string_equal(name, want_name);
	/* the setting's line begins with its name; pgbench's is the option
	 * to drop, its value the clients' count in the words after it */
	at = strncmp(buf, name, strlen(name)) ? buf : buf + strlen(name);
	at += strcspn(at, "0123456789");
	assert_int_equal(strtoull(at, NULL, 10), want);
}

static void test_cache_knobs(void **state)
{
	char buf[160];
	const char *why, *name;

	(void)state;
	assert_true(knob_for("nginx", CACHE_HANDLES, 60, buf, sizeof(buf), &name));
	assert_knob(buf, name, "open_file_cache max", 60);
	/* one exact line: the config syntax a reader pastes */
	assert_string_equal(buf, "open_file_cache max=60 (it is per worker process)");
	assert_true(knob_for("mariadbd", CACHE_BLOCKS, 66, buf, sizeof(buf), &name));
	assert_knob(buf, name, "innodb_buffer_pool_size", 66);
	assert_true(knob_for("postgres", CACHE_BLOCKS, 101, buf, sizeof(buf), &name));
	assert_knob(buf, name, "shared_buffers", 101);
	assert_true(knob_for("fctrace", CACHE_BLOCKS, 7, buf, sizeof(buf), &name));
	assert_knob(buf, name, "--cache-size", 7);
	assert_int_equal(knob_margin("mariadbd", CACHE_BLOCKS, &why), 1536);
	assert_non_null(why);
	assert_true(knob_for("pgbench", CACHE_CONNS, 4, buf, sizeof(buf), &name));
	assert_knob(buf, name, "pgbench -C", 4);
	/* the name out-parameter is optional */
	assert_true(knob_for("postgres", CACHE_BLOCKS, 101, buf, sizeof(buf), NULL));
	name = NULL;
	assert_false(knob_for("nginx", CACHE_BLOCKS, 60, buf, sizeof(buf), &name));
	assert_false(knob_for("someprog", CACHE_HANDLES, 60, buf, sizeof(buf), &name));
	assert_null(name);
	assert_int_equal(knob_margin("nginx", CACHE_HANDLES, &why), 0);
	assert_null(why);
}

static void test_pool_knobs(void **state)
{
	char buf[160];
	const char *name;

	(void)state;
	assert_true(pool_knob_for("Object.wait on org.apache.commons.pool.impl.GenericObjectPool$Latch"
				  " @ org.apache.commons.pool.impl.GenericObjectPool.borrowObject"
				  "(GenericObjectPool.java:1118)", 15, buf, sizeof(buf), &name));
	assert_knob(buf, name, "setMaxActive", 15);
	/* one exact line: the call a reader makes */
	assert_string_equal(buf, "setMaxActive(15) on the GenericObjectPool (Commons Pool 1's "
			    "maxActive)");
	assert_true(pool_knob_for("park java.util.concurrent.locks.AbstractQueuedSynchronizer$"
				  "ConditionObject @ org.apache.commons.pool2.impl.LinkedBlockingDeque"
				  ".takeFirst(LinkedBlockingDeque.java:1200)", 8, buf, sizeof(buf),
				  &name));
	assert_knob(buf, name, "setMaxTotal", 8);
	assert_true(pool_knob_for("pgbouncer's connections to unix:/tmp/.s.PGSQL.5432", 12, buf,
				  sizeof(buf), &name));
	assert_knob(buf, name, "default_pool_size", 12);
	assert_true(pool_knob_for("pgbouncer's connections to x", 3, buf, sizeof(buf), NULL));
	name = NULL;
	assert_false(pool_knob_for("Object.wait on JPoolBench$Pool @ JPoolBench$Pool.take", 4, buf,
				   sizeof(buf), &name));
	assert_false(pool_knob_for("sem (semaphore, a pool of 4)", 8, buf, sizeof(buf), &name));
	assert_null(name);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cache_knobs),
		cmocka_unit_test(test_pool_knobs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
