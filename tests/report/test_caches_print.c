/*
 * test_caches_print.c - the text report's caches (report/caches_print.c)
 * over hand-made entries: a handle cache whose size is seen (its row's
 * figures, its curve's points at absolute sizes) and a block cache seen
 * only by its misses (sizes "+N", the size now "?" and why); nothing
 * without the handles probes or without a cache.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "join/caches.h"
#include "report/caches_print.h"
#include "trace/probes.h"

static void fill(struct cache_entry c[2])
{
	memset(c, 0, 2 * sizeof(*c));
	c[0] = (struct cache_entry){ .kind = CACHE_HANDLES, .pid = 77, .accesses = 786600,
		.misses = 133200, .ws_items = 60, .ws_bytes = 6000000, .size_known = true,
		.size_items = 51, .hit_ratio_now = 0.831, .fix_items = 60, .hit_ratio_fix = 1.0,
		.miss_ns = 715600000 };
	for (int i = 0; i < 11; i++)	/* sizes 0, 6 ... 60 */
		c[0].mrc[c[0].nmrc++] = (struct fu_point){ (uint64_t)i * 6, i / 10.0 };
	c[1] = (struct cache_entry){ .kind = CACHE_BLOCKS, .pid = 78, .accesses = 800000,
		.misses = 800000, .ws_items = 1320, .ws_bytes = 1320 * 4096ull, .fix_items = 1315,
		.hit_ratio_fix = 0.993, .miss_ns = 956000000 };
	snprintf(c[1].why_unknown, sizeof(c[1].why_unknown), "only its misses are seen");
	c[1].mrc[c[1].nmrc++] = (struct fu_point){ 1315, 0.993 };
	snprintf(c[0].comm, sizeof(c[0].comm), "nginx");
	snprintf(c[1].comm, sizeof(c[1].comm), "mariadbd");
	snprintf(c[0].object, sizeof(c[0].object), "html/ (60 files)");
	snprintf(c[1].object, sizeof(c[1].object), "ibdata1");
}

static char *print_of(const struct joined_run *m)
{
	static char out[8192];
	FILE *f = fmemopen(out, sizeof(out) - 1, "w");

	assert_non_null(f);
	memset(out, 0, sizeof(out));
	caches_print(f, m);
	fclose(f);
	return out;
}

static void test_cells(void **state)
{
	struct cache_entry c[2];
	struct cache_cells x;

	(void)state;
	fill(c);
	cache_cells(&c[0], &x);
	assert_string_equal(x.name, "nginx (77) handles");
	assert_string_equal(x.accesses, "786.6 k");
	assert_string_equal(x.hit_now, "83.1 %");
	assert_string_equal(x.size_now, "51");
	assert_string_equal(x.ws, "60 (5.7 MiB)");
	assert_string_equal(x.fix, "60: 100.0 %");
	assert_string_equal(x.cost, "715.6 ms");
	/* six points spread over the eleven: 0, 2, 4, 6, 8, 10 */
	assert_string_equal(x.curve, "0 0.0 %, 12 20.0 %, 24 40.0 %, 36 60.0 %, 48 80.0 %, "
			    "60 100.0 %");
	cache_cells(&c[1], &x);
	assert_string_equal(x.hit_now, "?");
	assert_string_equal(x.size_now, "?");
	assert_string_equal(x.fix, "+1315: 99.3 %");
	assert_string_equal(x.curve, "+1315 99.3 %");
}

static void test_table(void **state)
{
	struct cache_entry c[2];
	struct joined_run m = { .groups = PG_MASK(PG_HANDLES), .caches = c, .ncaches = 2 };
	const char *out;

	(void)state;
	fill(c);
	out = print_of(&m);
	if (getenv("CACHES_SHOW"))
		fputs(out, stderr);
	assert_non_null(strstr(out, "\nnginx (77) handles "));
	assert_non_null(strstr(out, "786.6 k   83.1 %       51     60 (5.7 MiB)    60: 100.0 %  "
			       "715.6 ms\n"));
	assert_non_null(strstr(out, "  html/ (60 files); curve (size: hit ratio): 0 0.0 %"));
	assert_non_null(strstr(out, "mariadbd (78) blocks"));
	assert_non_null(strstr(out, "  ibdata1; curve (more: hit ratio): +1315 99.3 %; size now "
			       "not seen: only its misses are\n  seen\n"));
	for (const char *p = out; *p; p = strchr(p, '\n') + 1) {	/* under 100 columns */
		const char *e = strchr(p, '\n');

		assert_non_null(e);
		assert_true(e - p < 100);
	}
	m.groups = 0;
	assert_string_equal(print_of(&m), "");
	m.groups = PG_MASK(PG_HANDLES);
	m.ncaches = 0;
	assert_string_equal(print_of(&m), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cells),
		cmocka_unit_test(test_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
