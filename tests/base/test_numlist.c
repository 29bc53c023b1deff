/* test_numlist.c - sweep lists, ranges and sizes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "base/numlist.h"

static void test_lists_and_ranges(void **state)
{
	struct numlist l;
	char err[96];

	assert_int_equal(numlist_parse("10,50,60,100", 1, 1000, &l, err, sizeof(err)), 0);
	assert_int_equal(l.n, 4);
	assert_int_equal(l.v[0], 10);
	assert_int_equal(l.v[3], 100);
	assert_int_equal(numlist_parse("1-4,8", 1, 8, &l, err, sizeof(err)), 0);
	assert_int_equal(l.n, 5);
	assert_int_equal(l.v[3], 4);
	assert_int_equal(l.v[4], 8);
	assert_int_equal(numlist_parse("7", 1, 8, &l, err, sizeof(err)), 0);
	assert_int_equal(l.n, 1);
	/* found by tests/fuzz/fuzz_numlist: a range ending at UINT64_MAX
	 * wrapped around and overflowed the list */
	assert_int_equal(numlist_parse("18446744073709551615", 0, UINT64_MAX, &l, err,
				       sizeof(err)), 0);
	assert_int_equal(l.n, 1);
	assert_true(l.v[0] == UINT64_MAX);
	assert_int_equal(numlist_parse("18446744073709551614-18446744073709551615", 0,
				       UINT64_MAX, &l, err, sizeof(err)), 0);
	assert_int_equal(l.n, 2);
}

static void test_bad_lists(void **state)
{
	static const char *const bad[] = { "", "x", "1,,", "8-1", "0-3", "1-9", "1-", "-3",
					    "1,2,a", "1-1000" };
	struct numlist l;
	char err[96];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (numlist_parse(bad[i], 1, 8, &l, err, sizeof(err)) != -1 || !err[0])
			fail_msg("'%s' was accepted", bad[i]);
}

static void test_sizes(void **state)
{
	uint64_t v;

	assert_int_equal(parse_size("4096", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(parse_size("64M", &v), 0);
	assert_int_equal(v, 64ull << 20);
	assert_int_equal(parse_size("2KiB", &v), 0);
	assert_int_equal(v, 2048);
	assert_int_equal(parse_size("1g", &v), 0);
	assert_int_equal(v, 1ull << 30);
	assert_int_equal(parse_size("12x", &v), -1);
	assert_int_equal(parse_size("-1", &v), -1);
	assert_int_equal(parse_size("99999999999999999999", &v), -1);
	assert_int_equal(parse_size("17179869184G", &v), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lists_and_ranges),
		cmocka_unit_test(test_bad_lists),
		cmocka_unit_test(test_sizes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
