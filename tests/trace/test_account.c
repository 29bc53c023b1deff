/* test_account.c - a thread's compact syscall table: every number a
 * thread calls kept exactly, in any order and past any growth, a slot's
 * table with its spilled numbers, and copies that share or own it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "trace/account.h"
#include "trace/slots.h"

/* Every number called, each count its number + 1, in a scrambled order:
 * the table grows from 8 entries to all 512. */
static void test_every_number_kept(void **state)
{
	struct acct_arena a = { 0 };
	struct fct_thread t = { .tid = 7 };

	for (unsigned i = 0; i < FCT_NR_MAX; i++) {
		unsigned nr = (i * 307) % FCT_NR_MAX;	/* 307 is prime: a permutation */
		struct fct_nr_stats *s = acct_nr_put(&t, &a, nr);

		assert_non_null(s);
		assert_int_equal(s->count, 0);
		s->count = nr + 1;
		assert_ptr_equal(acct_nr_put(&t, &a, nr), s);	/* found, not added */
	}
	assert_int_equal(t.nr_used, FCT_NR_MAX);
	for (unsigned nr = 0; nr < FCT_NR_MAX; nr++)
		assert_int_equal(acct_nr(&t, nr)->count, nr + 1);
	assert_null(acct_nr_put(&t, &a, FCT_NR_MAX));
	assert_int_equal(acct_nr(&t, FCT_NR_MAX)->count, 0);
	acct_arena_free(&a);
}

/* A number never called reads as zeros and has no entry to write. */
static void test_absent_is_zero(void **state)
{
	struct acct_arena a = { 0 };
	struct fct_thread t = { 0 };

	assert_int_equal(acct_nr(&t, 17)->count, 0);
	assert_null(acct_nr_had(&t, 17));
	acct_nr_put(&t, &a, 17)->count = 4;
	assert_int_equal(acct_nr_had(&t, 17)->count, 4);
	assert_null(acct_nr_had(&t, 18));
	assert_int_equal(acct_nr(&t, 18)->count, 0);
	acct_arena_free(&a);
}

/* A copy made before the table grew sees it as it was; acct_nr_own
 * gives a copy entries of its own. */
static void test_copies(void **state)
{
	struct acct_arena a = { 0 }, b = { 0 };
	struct fct_thread t = { 0 }, before;

	acct_nr_put(&t, &a, 0)->count = 1;
	before = t;
	for (unsigned nr = 1; nr < 40; nr++)
		acct_nr_put(&t, &a, nr)->count = 1;
	assert_int_equal(before.nr_used, 1);
	assert_int_equal(acct_nr(&before, 0)->count, 1);
	assert_int_equal(acct_nr(&before, 39)->count, 0);
	before = t;
	assert_int_equal(acct_nr_own(&before, &b), 0);
	acct_nr_had(&before, 5)->count = 99;
	assert_int_equal(acct_nr(&t, 5)->count, 1);
	assert_int_equal(acct_nr(&before, 5)->count, 99);
	acct_arena_free(&a);
	acct_arena_free(&b);
}

/* A slot's table (numbers in the order first called) into an account,
 * with room for what it spilled: the spilled numbers added after it
 * leave the copied entries where they were. */
static void test_slot_copy(void **state)
{
	static struct fct_account slot;
	struct acct_arena a = { 0 };
	struct fct_thread t;
	const struct fct_nr_stats *first;

	memset(&slot, 0, sizeof(slot));
	slot.tid = 42;
	slot.oncpu_ns = 1234;
	for (unsigned i = 0; i < FCT_NR_SLOT; i++) {
		unsigned nr = 3 * i + 1;

		slot.nrt.at[nr] = (uint8_t)(i + 1);
		slot.nrt.e[i] = (struct fct_nr_stats){ .count = nr, .errors = 1 };
	}
	slot.nrt.used = FCT_NR_SLOT;
	slot.nrt.spilled = 2;
	assert_int_equal(slots_account_copy(&t, &a, &slot), 0);
	assert_int_equal(t.tid, 42);
	assert_int_equal(t.oncpu_ns, 1234);
	assert_int_equal(t.nr_used, FCT_NR_SLOT);
	assert_true(t.nr_room >= FCT_NR_SLOT + 2);
	first = t.nr_e;
	acct_nr_put(&t, &a, 500)->count = 5;
	acct_nr_put(&t, &a, 501)->count = 6;
	assert_ptr_equal(t.nr_e, first);	/* the room was there */
	for (unsigned i = 0; i < FCT_NR_SLOT; i++)
		assert_int_equal(acct_nr(&t, 3 * i + 1)->count, 3 * i + 1);
	assert_int_equal(acct_nr(&t, 2)->count, 0);
	assert_int_equal(acct_nr(&t, 501)->count, 6);
	acct_arena_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_number_kept),
		cmocka_unit_test(test_absent_is_zero),
		cmocka_unit_test(test_copies),
		cmocka_unit_test(test_slot_copy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
