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
#include "jsonutil.h"

#define EPS	1e-6

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

/* The comparison's JSON; json_object_put it. */
static struct json_object *cmp_of(struct side *a, struct side *b)
{
	struct json_object *j = compare_json(&a->s, &b->s);

	assert_non_null(j);
	return j;
}

/* The story's line of term (and what, unless NULL), or NULL. */
static struct json_object *line_of(struct json_object *j, const char *term, const char *what)
{
	struct json_object *st = json_must_at(j, "story");

	for (size_t i = 0; i < json_object_array_length(st); i++) {
		struct json_object *l = json_object_array_get_idx(st, i);

		if (!strcmp(json_str_at(l, "term"), term) &&
		    (!what || !strcmp(json_str_at(l, "what"), what)))
			return l;
	}
	return NULL;
}

/* Figure key of the story's line of term and what: it must be there. */
static double fig_at(struct json_object *j, const char *term, const char *what,
		     const char *key)
{
	struct json_object *l = line_of(j, term, what), *v;

	if (!l)
		fail_msg("no %s line of %s", term, what ? what : "-");
	if (!json_object_object_get_ex(json_object_object_get(l, "figures"), key, &v))
		fail_msg("the %s line of %s has no %s", term, what ? what : "-", key);
	return json_object_get_double(v);
}

static void test_cache_terms(void **state)
{
	struct side *a = side("cachy", 600000, 200000000), *b = side("plain", 600000, 500000000);
	struct json_object *j;
	char *t;

	(void)state;
	a->s.joined.nr_total[__NR_pread64] = (struct sc_stats){ .count = 1000, .total_ns = 1000000 };
	b->s.joined.nr_total[__NR_pread64] = (struct sc_stats){ .count = 600000, .total_ns = 540000000 };
	a->s.joined.acct_total_ns[ACCT_CPU_USER] = 300000000;	/* 500 ns per op */
	b->s.joined.acct_total_ns[ACCT_CPU_USER] = 60000000;	/* 100 ns per op */
	a->s.joined.acct_total_ns[ACCT_LOCK_NAMED] = 40000000;
	for (int i = 0; i < 3; i++)
		a->ts[i].lock_hold_ns = 40000000;	/* 200 ns per op */
	j = cmp_of(a, b);
	/* each run's own calls and time in them, as its table gives them */
	assert_float_equal(fig_at(j, "syscalls", "pread64", "calls_a"), 1000, EPS);
	assert_float_equal(fig_at(j, "syscalls", "pread64", "calls_b"), 600000, EPS);
	assert_float_equal(fig_at(j, "syscalls", "pread64", "ns_a"), 1e6, EPS);
	assert_float_equal(fig_at(j, "syscalls", "pread64", "ns_b"), 540e6, EPS);
	assert_float_equal(fig_at(j, "user_cpu", NULL, "ns_a"), 300e6, EPS);
	assert_float_equal(fig_at(j, "user_cpu", NULL, "per_op_ns_a"), 500, EPS);
	assert_float_equal(fig_at(j, "user_cpu", NULL, "per_op_ns_b"), 100, EPS);
	assert_float_equal(fig_at(j, "user_cpu", NULL, "held_per_op_ns_a"), 200, EPS);
	assert_float_equal(fig_at(j, "user_cpu", NULL, "rest_per_op_ns_a"), 300, EPS);
	assert_float_equal(fig_at(j, "lock_wait", NULL, "ns_a"), 40e6, EPS);
	assert_float_equal(fig_at(j, "lock_wait", NULL, "ns_b"), 0, EPS);
	assert_null(line_of(j, "syscalls", "open+close"));	/* no term where the runs agree */
	json_object_put(j);
	/* the words say the figures: one line of each kind is read */
	t = story(a, b);
	assert_non_null(strstr(t, "cachy makes 599.0 k fewer pread64 calls than plain"));
	assert_non_null(strstr(t, "saving 539.0 ms (their time in them: 1.00 ms against 540.0 ms)"));
	assert_non_null(strstr(t, "adds 240.0 ms on CPU in user space (500 ns per op against 100 ns)"));
	free(a);
	free(b);
}

static void test_pool_terms(void **state)
{
	struct side *a = side("pooly", 1000, 1000000), *b = side("plain", 1000, 2000000);
	struct json_object *j;

	(void)state;
	b->s.joined.nr_total[__NR_openat] = (struct sc_stats){ .count = 1000, .total_ns = 2000000 };
	b->s.joined.nr_total[__NR_close] = (struct sc_stats){ .count = 1000, .total_ns = 1000000 };
	a->s.joined.nr_total[__NR_openat] = (struct sc_stats){ .count = 10, .total_ns = 20000 };
	a->s.joined.nr_total[__NR_close] = (struct sc_stats){ .count = 10, .total_ns = 10000 };
	j = cmp_of(a, b);
	assert_float_equal(fig_at(j, "syscalls", "open+close", "calls_a"), 20, EPS);
	assert_float_equal(fig_at(j, "syscalls", "open+close", "calls_b"), 2000, EPS);
	assert_float_equal(fig_at(j, "syscalls", "open+close", "ns_a"), 30000, EPS);
	assert_float_equal(fig_at(j, "syscalls", "open+close", "ns_b"), 3e6, EPS);
	assert_null(line_of(j, "syscalls", "pread64"));
	json_object_put(j);
	free(a);
	free(b);
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

/* The term table's row named term: its a and b (must be there). */
static void term_is(struct json_object *j, const char *term, double a, double b)
{
	struct json_object *terms = json_must_at(j, "terms");

	for (size_t i = 0; i < json_object_array_length(terms); i++) {
		struct json_object *r = json_object_array_get_idx(terms, i);

		if (strcmp(json_str_at(r, "term"), term))
			continue;
		assert_float_equal(json_object_get_double(json_object_object_get(r, "a")), a, EPS);
		assert_float_equal(json_object_get_double(json_object_object_get(r, "b")), b, EPS);
		return;
	}
	fail_msg("no term %s", term);
}

static void test_attach_rates(void **state)
{
	/* a: 10.02 s, 100.2 k preads (10 k/s, 2 us each); b: 10.04 s, 150.6 k
	 * preads (15 k/s, 2 us each) */
	struct side *a = attached(10020000000ull, T0, 100200, 200400000);
	struct side *b = attached(10040000000ull, T1, 150600, 301200000);
	struct json_object *j, *terms;
	char *t;

	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	j = cmp_of(a, b);
	assert_true(json_bool_at(j, "per_second"));
	assert_string_equal(json_str_at(j, "a_name"), "nginx 14:02:11");
	assert_string_equal(json_str_at(j, "b_name"), "nginx 14:05:40");
	/* the windows shown, not compared; the calls per second */
	term_is(j, "window (fixed)", 10.02e9, 10.04e9);
	term_is(j, "pread64 calls /s", 10000, 15000);
	term_is(j, "time in syscalls (no futex) /s", 20e6, 30e6);
	assert_float_equal(fig_at(j, "syscalls", "pread64", "calls_a"), 10000, EPS);
	assert_float_equal(fig_at(j, "syscalls", "pread64", "calls_b"), 15000, EPS);
	assert_float_equal(fig_at(j, "syscalls", "pread64", "ns_a"), 20e6, EPS);
	assert_float_equal(fig_at(j, "syscalls", "pread64", "ns_b"), 30e6, EPS);
	/* the lengths are no result: Net is time on CPU a second */
	assert_float_equal(fig_at(j, "net", NULL, "wall_ns_a"), 10.02e9, EPS);
	assert_float_equal(fig_at(j, "net", NULL, "cpu_ns_a"), 100e6, 1);
	assert_float_equal(fig_at(j, "net", NULL, "cpu_ns_b"), 100e6, 1);
	/* the calls the runs made, not a list of one subject's: no openat row
	 * where neither opened a file, no operations where neither counted any */
	terms = json_must_at(j, "terms");
	for (size_t i = 0; i < json_object_array_length(terms); i++) {
		const char *name = json_str_at(json_object_array_get_idx(terms, i), "term");

		assert_null(strstr(name, "openat"));
		assert_null(strstr(name, "operations"));
	}
	json_object_put(j);
	/* the words of rates: per second, and no Net of the lengths */
	t = story(a, b);
	assert_non_null(strstr(t, "saving 10.0 ms a second (their time in them: 20.0 ms/s against "
			       "30.0 ms/s)"));
	assert_non_null(strstr(t, "Net: fixed windows (10.02 s and 10.04 s"));
	/* files saved before the time was kept: a and b */
	a->s.started_unix_ns = 0;
	j = cmp_of(a, b);
	assert_string_equal(json_str_at(j, "a_name"), "nginx (a)");
	assert_string_equal(json_str_at(j, "b_name"), "nginx (b)");
	json_object_put(j);
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
/* The index of the story's line of term and what, or -1. */
static int line_index(struct json_object *j, const char *term, const char *what)
{
	struct json_object *st = json_must_at(j, "story");
	int found = -1, n = 0;

	for (size_t i = 0; i < json_object_array_length(st); i++) {
		struct json_object *l = json_object_array_get_idx(st, i);

		if (!strcmp(json_str_at(l, "term"), term) && !strcmp(json_str_at(l, "what"), what)) {
			found = (int)i;
			n++;
		}
	}
	assert_true(n <= 1);	/* one line for a program's caches of a kind */
	return found;
}

static void test_program_caches(void **state)
{
	struct side *a = attached(10000000000ull, T0, 100, 200000);
	struct side *b = attached(20000000000ull, T1, 100, 200000);
	struct json_object *j, *l;

	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	add_cache(a, CACHE_HANDLES, "nginx", 11, 30000, 15000, 51, 0);
	add_cache(a, CACHE_BLOCKS, "mariadbd", 12, 5000, 5000, 0, 4000);
	add_cache(a, CACHE_HANDLES, "nginx", 13, 10000, 5000, 51, 0);
	add_cache(b, CACHE_HANDLES, "nginx", 21, 80000, 400, 100, 0);
	j = cmp_of(a, b);
	/* 40 k accesses and 20 k misses in 10 s against 80 k and 400 in 20 s:
	 * nginx's two workers summed, one line */
	assert_float_equal(fig_at(j, "cache", "nginx's handles", "hit_ratio_a"), 0.5, EPS);
	assert_float_equal(fig_at(j, "cache", "nginx's handles", "hit_ratio_b"), 0.995, EPS);
	assert_float_equal(fig_at(j, "cache", "nginx's handles", "misses_a"), 2000, EPS);
	assert_float_equal(fig_at(j, "cache", "nginx's handles", "misses_b"), 20, EPS);
	assert_float_equal(fig_at(j, "cache", "nginx's handles", "working_set_bytes_a"),
			   (double)(100 << 20), EPS);
	assert_float_equal(fig_at(j, "cache", "nginx's handles", "size_items_a"), 51, EPS);
	assert_float_equal(fig_at(j, "cache", "nginx's handles", "size_items_b"), 100, EPS);
	assert_string_equal(json_str_at(line_of(j, "cache", "nginx's handles"), "only_in"), "");
	/* a block cache in a only; b measured the caches and saw none */
	l = line_of(j, "cache", "mariadbd's blocks");
	assert_string_equal(json_str_at(l, "only_in"), "a");
	assert_float_equal(fig_at(j, "cache", "mariadbd's blocks", "other_measured"), 1, EPS);
	assert_true(line_index(j, "cache", "nginx's handles") <
		    line_index(j, "cache", "mariadbd's blocks"));	/* the costliest first */
	json_object_put(j);
	/* the words of a handle cache's line */
	assert_non_null(strstr(story(a, b), "  caches      nginx's handles: hit 50.0 % against "
			       "99.5 %; misses 2000/s against 20/s\n              (working set "
			       "100 MiB against 100 MiB; it holds 51 against 100)\n"));
	free(b->s.joined.caches);
	b->s.joined.caches = NULL;
	b->s.joined.ncaches = 0;
	b->s.joined.groups = 0;
	j = cmp_of(a, b);
	assert_string_equal(json_str_at(line_of(j, "cache", "nginx's handles"), "only_in"), "a");
	assert_float_equal(fig_at(j, "cache", "nginx's handles", "other_measured"), 0, EPS);
	json_object_put(j);
	free(a->s.joined.caches);
	free(a);
	free(b);
}

/* A program run to its end: its wall is the work, compared as totals. */
static void test_exec_totals(void **state)
{
	struct side *a = attached(2000000000ull, T0, 1000, 2000000);
	struct side *b = attached(4000000000ull, T0 + 86400, 1000, 2000000);
	struct json_object *j;

	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	a->s.target.mode = b->s.target.mode = TGT_EXEC;
	a->s.target.exited = b->s.target.exited = true;
	j = cmp_of(a, b);
	/* other days: the date too */
	assert_string_equal(json_str_at(j, "a_name"), "nginx 2026-12-06 14:02:11");
	assert_string_equal(json_str_at(j, "b_name"), "nginx 2026-12-07 14:02:11");
	assert_false(json_bool_at(j, "per_second"));
	term_is(j, "wall time", 2e9, 4e9);
	assert_float_equal(fig_at(j, "net", NULL, "wall_ns_a"), 2e9, EPS);
	assert_float_equal(fig_at(j, "net", NULL, "wall_ns_b"), 4e9, EPS);
	assert_null(json_at(line_of(j, "net", NULL), "figures.cpu_ns_a"));	/* the walls are the result */
	json_object_put(j);
	assert_non_null(strstr(story(a, b), "Net: nginx 2026-12-06 14:02:11 takes 2.00 s against "
			       "4.00 s"));
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
