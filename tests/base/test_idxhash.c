/* test_idxhash.c - the find-or-add index: every key found at its position
 * after growth, colliding hashes told apart by the caller's equality. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "base/idxhash.h"

#define N 5000

static uint64_t keys[N];

static bool key_equal(const void *ctx, int idx)
{
	return keys[idx] == *(const uint64_t *)ctx;
}

static void test_found_after_growth(void **state)
{
	struct idxhash h = { 0 };
	uint64_t absent = 12345678;

	for (int i = 0; i < N; i++) {
		keys[i] = (uint64_t)i * 7919 + 3;
		assert_int_equal(idxhash_find(&h, idxhash_bytes(IDXHASH_SEED, &keys[i], 8),
					      key_equal, &keys[i]), -1);
		assert_int_equal(idxhash_add(&h, idxhash_bytes(IDXHASH_SEED, &keys[i], 8), i), 0);
	}
	assert_int_equal(h.n, N);
	assert_true(h.cap >= 2 * N);
	for (int i = 0; i < N; i++)
		assert_int_equal(idxhash_find(&h, idxhash_bytes(IDXHASH_SEED, &keys[i], 8),
					      key_equal, &keys[i]), i);
	assert_int_equal(idxhash_find(&h, idxhash_bytes(IDXHASH_SEED, &absent, 8), key_equal,
				      &absent), -1);
	idxhash_free(&h);
	assert_int_equal(idxhash_find(&h, 1, key_equal, &absent), -1);
}

/* One hash for every key: the equality alone tells them apart. */
static void test_colliding_hashes(void **state)
{
	struct idxhash h = { 0 };

	for (int i = 0; i < 100; i++) {
		keys[i] = (uint64_t)i;
		assert_int_equal(idxhash_add(&h, 42, i), 0);
	}
	for (int i = 0; i < 100; i++)
		assert_int_equal(idxhash_find(&h, 42, key_equal, &keys[i]), i);
	idxhash_free(&h);
}

static void test_fnv_known_value(void **state)
{
	/* FNV-1a 64 of "a" (the published test vector) */
	assert_true(idxhash_bytes(IDXHASH_SEED, "a", 1) == 0xaf63dc4c8601ec8cull);
	assert_true(idxhash_bytes(IDXHASH_SEED, "", 0) == IDXHASH_SEED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_found_after_growth),
		cmocka_unit_test(test_colliding_hashes),
		cmocka_unit_test(test_fnv_known_value),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
