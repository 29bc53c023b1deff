/*
 * test_reuse.c - stack distances and the miss-ratio curve (base/reuse.c)
 * against an LRU cache simulated directly on the same stream: exact when
 * every key is kept, within a few points when sampled.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "base/reuse.h"

/* An LRU of `size` keys, the plain way: a list, most recent first. */
struct lru {
	uint64_t *keys;
	unsigned n, size;
	uint64_t hits;
};

static void lru_ref(struct lru *c, uint64_t key)
{
	unsigned i = 0;

	while (i < c->n && c->keys[i] != key)
		i++;
	if (i < c->n)
		c->hits++;
	else if (c->n < c->size)
		i = c->n++;
	else
		i = c->n - 1;		/* evict the least recent */
	memmove(&c->keys[1], &c->keys[0], i * sizeof(*c->keys));
	c->keys[0] = key;
}

static uint64_t lru_hits(const uint64_t *stream, size_t n, unsigned size)
{
	struct lru c = { .keys = calloc(size + 1, sizeof(uint64_t)), .size = size };

	for (size_t i = 0; i < n; i++)
		lru_ref(&c, stream[i]);
	free(c.keys);
	return c.hits;
}

static uint64_t *uniform(size_t n, unsigned keys, unsigned seed)
{
	uint64_t *s = malloc(n * sizeof(*s));

	srand(seed);
	for (size_t i = 0; i < n; i++)
		s[i] = 1000 + (uint64_t)(rand() % keys);
	return s;
}

static struct reuse *fed(const uint64_t *s, size_t n, uint32_t max_keys)
{
	struct reuse *r = reuse_new(max_keys);

	assert_non_null(r);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(reuse_ref(r, s[i]), 0);
	return r;
}

/* 60 keys round and round: an LRU of 59 never hits, one of 60 always
 * does after the first round (the FileChannelPool benchmark's cliff). */
static void test_cyclic(void **state)
{
	uint64_t s[600];
	struct reuse *r;

	(void)state;
	for (int i = 0; i < 600; i++)
		s[i] = (uint64_t)(i % 60);
	r = fed(s, 600, 0);
	assert_true(reuse_hits_at(r, 59) == 0);
	assert_true(reuse_hits_at(r, 60) == 540);
	assert_true(reuse_keys_est(r) == 60);
	assert_int_equal(reuse_size_for_ceiling(r, 0), 60);
	assert_true(reuse_rate(r) == 1);
	reuse_free(r);
}

/* Uniform over 60: the curve equals the simulated LRU at every size. */
static void test_exact_against_lru(void **state)
{
	size_t n = 20000;
	uint64_t *s = uniform(n, 60, 7);
	struct reuse *r = fed(s, n, 0);

	(void)state;
	for (unsigned size = 1; size <= 64; size++)
		assert_true(reuse_hits_at(r, size) == (double)lru_hits(s, n, size));
	assert_true(reuse_hits_at(r, 50) > 0.80 * n && reuse_hits_at(r, 50) < 0.86 * n);
	assert_int_equal(reuse_refs(r), n);
	free(s);
	reuse_free(r);
}

/* Positions are renumbered past 2^16 references: the distances stay. */
static void test_long_stream_compacts(void **state)
{
	size_t n = 300000;
	uint64_t *s = uniform(n, 200, 3);
	struct reuse *r = fed(s, n, 0);

	(void)state;
	for (unsigned size = 50; size <= 200; size += 75)
		assert_true(reuse_hits_at(r, size) == (double)lru_hits(s, n, size));
	free(s);
	reuse_free(r);
}

/* 20 000 keys, at most 1 000 kept: sampled, within 3 points of the truth
 * at every size asked, memory bounded by the kept keys. */
static void test_sampled(void **state)
{
	size_t n = 400000;
	uint64_t *s = malloc(n * sizeof(*s));
	struct reuse *r;

	(void)state;
	srand(11);
	for (size_t i = 0; i < n; i++)	/* a hot fifth takes 80 % of the references */
		s[i] = rand() % 5 ? (uint64_t)(rand() % 4000) : 4000 + (uint64_t)(rand() % 16000);
	r = fed(s, n, 1000);
	assert_true(reuse_rate(r) < 0.1);
	assert_true(reuse_keys_est(r) > 14000 && reuse_keys_est(r) < 26000);
	for (unsigned size = 1000; size <= 16000; size *= 2) {
		double truth = (double)lru_hits(s, n, size) / (double)n;
		double est = reuse_hits_at(r, size) / reuse_refs_est(r);

		print_message("size %u: truth %.3f, sampled %.3f\n", size, truth, est);
		assert_true(est > truth - 0.03 && est < truth + 0.03);
	}
	free(s);
	reuse_free(r);
}

static void test_hash_spreads(void **state)
{
	unsigned under = 0;

	(void)state;
	for (uint64_t k = 0; k < 100000; k++) {
		assert_true(reuse_hash(k) < REUSE_RATE_ONE);
		under += reuse_hash(k) < REUSE_RATE_ONE / 4;
	}
	assert_true(under > 24000 && under < 26000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cyclic),
		cmocka_unit_test(test_exact_against_lru),
		cmocka_unit_test(test_long_stream_compacts),
		cmocka_unit_test(test_sampled),
		cmocka_unit_test(test_hash_spreads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
