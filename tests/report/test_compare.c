/*
 * test_compare.c - compare's term-by-term story from two known models:
 * a block cache against the non-cached read (preads replaced, user CPU
 * added, lock wait paid) and a pool against fc (open+close saved), told
 * by the one rule set, whatever the workloads are called.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <cmocka.h>
#include "report/compare.h"

struct side {
	struct session s;
	struct thread_row rows[3];
};

static struct side *side(const char *wl, uint64_t ops, uint64_t wall)
{
	struct side *x = calloc(1, sizeof(*x));

	assert_non_null(x);
	x->s.cfg.workload = wl;
	x->s.subject = wl;
	x->s.traced = true;
	x->s.joined = (struct joined_run){ .subject = wl, .timings = &x->s.timings, .wall_ns = wall, .ops = ops,
					 .rows = x->rows, .nrows = 3 };
	return x;
}

static char *story(struct side *a, struct side *b)
{
	static char buf[8192];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	assert_non_null(f);
	compare_print(f, &a->s, &b->s);
	fclose(f);
	return buf;
}

static void test_cache_terms(void **state)
{
	struct side *a = side("cachy", 600000, 200000000), *b = side("plain", 600000, 500000000);
	char *t;

	(void)state;
	a->s.joined.nr_total[__NR_pread64] = (struct sc_stats){ .count = 1000, .total_ns = 1000000 };
	b->s.joined.nr_total[__NR_pread64] = (struct sc_stats){ .count = 600000, .total_ns = 540000000 };
	a->s.joined.acct_total_ns[ACCT_CPU_USER] = 300000000;	/* 500 ns per op */
	b->s.joined.acct_total_ns[ACCT_CPU_USER] = 60000000;	/* 100 ns per op */
	a->s.joined.acct_total_ns[ACCT_LOCK_NAMED] = 40000000;
	for (int i = 0; i < 3; i++)
		a->rows[i].own.lock_hold_ns = 40000000;	/* 200 ns per op */
	t = story(a, b);
	assert_non_null(strstr(t, "cachy makes 599.0 k fewer pread64 calls than plain"));
	assert_non_null(strstr(t, "saving 539.1 ms"));	/* 599 k x 900 ns, plain's cost */
	assert_non_null(strstr(t, "adds 240.0 ms on CPU in user space (500 ns per op against 100 ns)"));
	assert_non_null(strstr(t, "200 ns per op holding its locks"));
	assert_non_null(strstr(t, "300 ns per op the rest"));
	assert_non_null(strstr(t, "pays 40.0 ms waiting on its locks"));
	assert_null(strstr(t, "open+close"));	/* no term where the runs agree */
	free(a);
	free(b);
}

static void test_pool_terms(void **state)
{
	struct side *a = side("pooly", 1000, 1000000), *b = side("plain", 1000, 2000000);
	char *t;

	(void)state;
	b->s.joined.nr_total[__NR_openat] = (struct sc_stats){ .count = 1000, .total_ns = 2000000 };
	b->s.joined.nr_total[__NR_close] = (struct sc_stats){ .count = 1000, .total_ns = 1000000 };
	a->s.joined.nr_total[__NR_openat] = (struct sc_stats){ .count = 10, .total_ns = 20000 };
	a->s.joined.nr_total[__NR_close] = (struct sc_stats){ .count = 10, .total_ns = 10000 };
	t = story(a, b);
	assert_non_null(strstr(t, "pooly makes 1980 fewer open+close calls than plain"));
	assert_non_null(strstr(t, "saving 2.97 ms"));
	assert_null(strstr(t, "pread64 calls than"));
	free(a);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cache_terms),
		cmocka_unit_test(test_pool_terms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
