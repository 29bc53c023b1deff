/*
 * test_compare.c - compare's term-by-term story from two known models:
 * a block cache against the non-cached read (preads replaced, user CPU
 * added, lock wait paid) and a pool against fc (open+close saved), told
 * by the one rule set, whatever the workloads are called; two attaches of
 * one program, named by when each began and compared per second of their
 * fixed windows, with no Net of their lengths.
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
#include <json-c/json.h>
#include "report/compare.h"
#include "trace/probes.h"

struct side {
	struct session s;
	struct thread_row rows[3];
	struct thread_timings ts[3];	/* the rows' own */
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
	for (int i = 0; i < 3; i++)
		x->rows[i].own = &x->ts[i];
	return x;
}

static char *story(struct side *a, struct side *b)
{
	static char buf[8192];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	assert_non_null(f);
	compare_print(f, &a->s, &b->s);
	fclose(f);
	if (getenv("COMPARE_SHOW"))
		fputs(buf, stderr);
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
		a->ts[i].lock_hold_ns = 40000000;	/* 200 ns per op */
	t = story(a, b);
	assert_non_null(strstr(t, "cachy makes 599.0 k fewer pread64 calls than plain"));
	/* each run's own time in the calls, as its table gives it */
	assert_non_null(strstr(t, "saving 539.0 ms (their time in them: 1.00 ms against 540.0 ms)"));
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
	assert_non_null(strstr(t, "saving 2.97 ms (their time in them: 30.0 µs against 3.00 ms)"));
	assert_null(strstr(t, "pread64 calls than"));
	free(a);
	free(b);
}

/* The term table's row that starts with term, squeezed to single spaces
 * ("pread64 calls /s 10.0 k/s 15.0 k/s -33 %"). */
static const char *row_of(const char *t, const char *term)
{
	static char row[160];
	const char *at = strstr(t, term);
	size_t n = 0;

	assert_non_null(at);
	for (; *at && *at != '\n' && n + 1 < sizeof(row); at++)
		if (*at != ' ' || (n && row[n - 1] != ' '))
			row[n++] = *at;
	row[n] = '\0';
	return row;
}

/* 2026-12-06 14:02:11 UTC, and 14:05:40 */
#define T0	1796565731ull
#define T1	(T0 + 209)

/* An attach of nginx: a fixed window of wall ns, made at second t. */
static struct side *attached(uint64_t wall, uint64_t t, uint64_t preads, uint64_t pread_ns)
{
	struct side *x = side("nginx", 0, wall);

	x->s.target.mode = TGT_ATTACH;
	x->s.started_unix_ns = t * 1000000000ull;
	x->s.joined.nr_total[__NR_pread64] = (struct sc_stats){ .count = preads,
								 .total_ns = pread_ns };
	x->s.joined.acct_total_ns[ACCT_CPU_USER] = wall / 10;	/* a tenth of a CPU */
	return x;
}

static void test_attach_rates(void **state)
{
	/* a: 10.02 s, 100.2 k preads (10 k/s, 2 us each); b: 10.04 s, 150.6 k
	 * preads (15 k/s, 2 us each) */
	struct side *a = attached(10020000000ull, T0, 100200, 200400000);
	struct side *b = attached(10040000000ull, T1, 150600, 301200000);
	struct json_object *j, *terms, *v;
	char *t;

	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	t = story(a, b);
	assert_non_null(strstr(t, "\nCompare nginx 14:02:11 with nginx 14:05:40\n"));
	assert_non_null(strstr(t, "window 10.02 s fixed"));
	assert_non_null(strstr(t, "nginx 14:02:11 against nginx 14:05:40, term by term (all "
			       "threads; per second of each window)"));
	/* the windows shown, not compared; the calls per second */
	assert_string_equal(row_of(t, "window (fixed)"), "window (fixed) 10.02 s 10.04 s -");
	assert_string_equal(row_of(t, "pread64 calls /s"), "pread64 calls /s 10.0 k/s 15.0 k/s -33 %");
	assert_string_equal(row_of(t, "time in syscalls (no futex) /s"),
			    "time in syscalls (no futex) /s 20.0 ms/s 30.0 ms/s -33 %");
	assert_non_null(strstr(t, "nginx 14:02:11 makes 5000 fewer pread64 calls a second than "
			       "nginx 14:05:40 (10.0 k/s against 15.0 k/s)"));
	assert_non_null(strstr(t, "saving 10.0 ms a second (their time in them: 20.0 ms/s against "
			       "30.0 ms/s)"));
	assert_null(strstr(t, "Net: nginx 14:02:11 takes"));	/* the lengths are no result */
	assert_non_null(strstr(t, "Net: fixed windows (10.02 s and 10.04 s"));
	assert_non_null(strstr(t, "nginx 14:02:11 is on CPU 100.0 ms a second against 100.0 ms for "
			       "nginx 14:05:40 (+0 %)"));
	/* the JSON's terms are the text's */
	j = compare_json(&a->s, &b->s);
	assert_true(json_object_object_get_ex(j, "per_second", &v) && json_object_get_boolean(v));
	assert_true(json_object_object_get_ex(j, "a_name", &v));
	assert_string_equal(json_object_get_string(v), "nginx 14:02:11");
	assert_true(json_object_object_get_ex(j, "terms", &terms));
	/* the calls the runs made, not a list of one subject's: no openat row
	 * where neither opened a file, no operations where neither counted any */
	v = NULL;
	for (size_t i = 0; i < json_object_array_length(terms); i++) {
		struct json_object *r = json_object_array_get_idx(terms, i);
		const char *name = json_object_get_string(json_object_object_get(r, "term"));

		assert_null(strstr(name, "openat"));
		assert_null(strstr(name, "operations"));
		if (!strcmp(name, "pread64 calls /s"))
			v = r;
	}
	assert_non_null(v);
	assert_float_equal(json_object_get_double(json_object_object_get(v, "a")), 10000, 1e-6);
	assert_null(strstr(t, "openat calls"));
	json_object_put(j);
	/* files saved before the time was kept: a and b */
	a->s.started_unix_ns = 0;
	t = story(a, b);
	assert_non_null(strstr(t, "\nCompare nginx (a) with nginx (b)\n"));
	free(a);
	free(b);
}

static void add_cache(struct side *x, enum cache_kind kind, const char *comm, pid_t pid,
		      uint64_t accesses, uint64_t misses, uint64_t size, double rereads)
{
	struct joined_run *m = &x->s.joined;
	struct cache_entry *c = realloc(m->caches, sizeof(*c) * (size_t)(m->ncaches + 1));

	assert_non_null(c);
	m->caches = c;
	c = &m->caches[m->ncaches++];
	*c = (struct cache_entry){ .kind = kind, .pid = pid, .accesses = accesses,
		.misses = misses, .size_known = kind == CACHE_HANDLES, .size_items = size,
		.ws_items = 100, .ws_bytes = 100 << 20, .rereads = rereads };
	snprintf(c->comm, sizeof(c->comm), "%s", comm);
	m->groups |= PG_MASK(PG_HANDLES);
}

/* The programs' caches, per second of each window: nginx's two workers'
 * handle caches summed against one's, a block cache in one run only
 * (the other run had the probes: it read no block twice), a page cache
 * whose other run did not measure (no handles probes there). */
static void test_program_caches(void **state)
{
	struct side *a = attached(10000000000ull, T0, 100, 200000);
	struct side *b = attached(20000000000ull, T1, 100, 200000);
	char *t;

	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	add_cache(a, CACHE_HANDLES, "nginx", 11, 30000, 15000, 51, 0);
	add_cache(a, CACHE_BLOCKS, "mariadbd", 12, 5000, 5000, 0, 4000);
	add_cache(a, CACHE_HANDLES, "nginx", 13, 10000, 5000, 51, 0);
	add_cache(b, CACHE_HANDLES, "nginx", 21, 80000, 400, 100, 0);
	t = story(a, b);
	/* 40 k accesses and 20 k misses in 10 s against 80 k and 400 in 20 s */
	assert_non_null(strstr(t, "  caches      nginx's handles: hit 50.0 % against 99.5 %; "
			       "misses 2000/s against 20/s\n              (working set 100 MiB "
			       "against 100 MiB; it holds 51 against 100)\n"));
	assert_non_null(strstr(t, "  caches      mariadbd's blocks: in nginx 14:02:11 only: "
			       "nginx 14:05:40 read no block twice\n"));
	assert_int_equal(strstr(t, "nginx's handles") < strstr(t, "mariadbd's blocks"), 1);
	assert_null(strstr(t, "caches      nginx's handles: in"));	/* one term for both */
	free(b->s.joined.caches);
	b->s.joined.caches = NULL;
	b->s.joined.ncaches = 0;
	b->s.joined.groups = 0;
	t = story(a, b);
	assert_non_null(strstr(t, "  caches      nginx's handles: in nginx 14:02:11 only: not "
			       "measured in nginx 14:05:40\n"));
	free(a->s.joined.caches);
	free(a);
	free(b);
}

/* A program run to its end: its wall is the work, compared as totals. */
static void test_exec_totals(void **state)
{
	struct side *a = attached(2000000000ull, T0, 1000, 2000000);
	struct side *b = attached(4000000000ull, T0 + 86400, 1000, 2000000);
	char *t;

	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	a->s.target.mode = b->s.target.mode = TGT_EXEC;
	a->s.target.exited = b->s.target.exited = true;
	t = story(a, b);
	/* other days: the date too */
	assert_non_null(strstr(t, "Compare nginx 2026-12-06 14:02:11 with nginx 2026-12-07 "
			       "14:02:11\n"));
	assert_string_equal(row_of(t, "wall time"), "wall time 2.00 s 4.00 s -50 %");
	assert_non_null(strstr(t, "Net: nginx 2026-12-06 14:02:11 takes 2.00 s against 4.00 s"));
	assert_null(strstr(t, "/s"));
	free(a);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cache_terms),
		cmocka_unit_test(test_pool_terms),
		cmocka_unit_test(test_attach_rates),
		cmocka_unit_test(test_exec_totals),
		cmocka_unit_test(test_program_caches),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
