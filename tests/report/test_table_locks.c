/*
 * test_table_locks.c - the terminal table's lock rows over a target with
 * many futex words (a server's 10 000 threads, each on its own word):
 * the longest 40 first, in order, then one line for the rest with their
 * count and time. The table once ranked each row by a pass over all the
 * locks per rank (cubic): 10 000 words held a root fctrace for minutes
 * after the window; this test's 20 000 would not end.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "report/report.h"

#define WALL		1000000000ull
#define SHOWN		40	/* report_table.c's TABLE_LOCKS_MAX */

struct fx {
	struct subject_timings res;
	struct thread_timings ts;
	struct thread_row row;
	struct kview kv;
	struct session s;
};

/* n user locks, lock i waited (i * 7919 % n + 1) us: every figure once,
 * in an order unlike the table's */
static struct fx *fx_new(int n)
{
	struct fx *x = calloc(1, sizeof(*x));
	struct joined_run *m = &x->s.joined;

	assert_non_null(x);
	x->res = (struct subject_timings){ .nthreads = 1, .threads = &x->ts, .wall_ns = WALL };
	x->row = (struct thread_row){ .tid = 100, .end_ns = WALL, .has_kernel = true };
	x->ts = (struct thread_timings){ .tid = 100, .end_ns = WALL };
	x->row.own = &x->ts;
	*m = (struct joined_run){ .subject = "words", .timings = &x->res, .kv = &x->kv,
				  .groups = PG_FULL, .ncpus = 2, .wall_ns = WALL, .rows = &x->row,
				  .nrows = 1, .thread_wall_total_ns = WALL, .probe_set = "full" };
	m->locks = calloc((size_t)n, sizeof(*m->locks));
	assert_non_null(m->locks);
	m->nlocks = n;
	for (int i = 0; i < n; i++) {
		struct lock_total *l = &m->locks[i];

		snprintf(l->name, sizeof(l->name), "word%d", i);
		l->waits = 1;
		l->wait_ns = l->max_ns = ((uint64_t)i * 7919 % (uint64_t)n + 1) * 1000;
		l->is_lock = true;
		l->threads = 1;
	}
	x->s.subject = "words";
	x->s.traced = true;
	x->s.target.mode = TGT_ATTACH;
	return x;
}

static char *table_of(struct fx *x, size_t cap)
{
	char *out = calloc(1, cap);
	FILE *f;

	assert_non_null(out);
	f = fmemopen(out, cap - 1, "w");
	assert_non_null(f);
	report_table(f, &x->s);
	fclose(f);
	return out;
}

/* The rows under the lock header: names word<i> in the table's order. */
static int lock_rows(const char *out, int *idx, int max)
{
	const char *p = strstr(out, "\nLock waits");
	int n = 0, i;

	assert_non_null(p);
	for (p = strchr(p + 1, '\n'); p && n < max; p = strchr(p + 1, '\n'))
		if (sscanf(p + 1, "word%d ", &i) == 1)
			idx[n++] = i;
	return n;
}

static void check_table(int n)
{
	struct fx *x = fx_new(n);
	char *out = table_of(x, 1 << 20), want[128];
	int idx[SHOWN + 1], rows = lock_rows(out, idx, SHOWN + 1);
	uint64_t rest = 0;

	if (getenv("TABLE_SHOW"))
		fputs(out, stderr);
	assert_int_equal(rows, n < SHOWN ? n : SHOWN);
	for (int k = 0; k < rows; k++)	/* longest first: n, n - 1, ... microseconds */
		assert_int_equal(x->s.joined.locks[idx[k]].wait_ns, (uint64_t)(n - k) * 1000);
	for (int k = SHOWN; k < n; k++)
		rest += (uint64_t)(n - k) * 1000;
	if (n > SHOWN) {
		snprintf(want, sizeof(want), "(%d more lock%s, %.2f s of waits in all, ", n - SHOWN,
			 n - SHOWN == 1 ? "" : "s", rest / 1e9);
		if (rest < 1000000000ull)	/* 1 us: the one left */
			snprintf(want, sizeof(want), "(1 more lock, 1.00 µs of waits in all, ");
		assert_non_null(strstr(out, want));
	} else {
		assert_null(strstr(out, "more lock"));
	}
	free(out);
	free(x->s.joined.locks);
	free(x);
}

static void test_few_all_shown(void **state)
{
	(void)state;
	check_table(7);
	check_table(SHOWN);
}

static void test_many_longest_then_rest(void **state)
{
	(void)state;
	check_table(SHOWN + 1);
	check_table(20000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_few_all_shown),
		cmocka_unit_test(test_many_longest_then_rest),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
