/*
 * test_blockuse.c - a program's own block cache seen from its misses
 * (trace/blockuse.c): an LRU of known size, simulated here, in front of a
 * stream with hot blocks and a uniform rest; only its misses reach
 * bu_read, as only a real cache's misses make a syscall. The estimate of
 * what it holds and the curve's "N blocks more" against the same LRU run
 * again at that size on the whole stream.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "trace/blockuse.h"

#define BLOCK	8192
#define HOT	20		/* blocks read by half the accesses */
#define SET	3000		/* the working set */
#define ACCESSES 400000

struct lru {
	uint32_t *keys;
	unsigned n, size;
};

/* true on a hit; the key moved to the front */
static int lru_ref(struct lru *c, uint32_t key)
{
	unsigned i = 0;
	int hit;

	while (i < c->n && c->keys[i] != key)
		i++;
	hit = i < c->n;
	if (!hit)
		i = c->n < c->size ? c->n++ : c->n - 1;
	memmove(&c->keys[1], &c->keys[0], i * sizeof(*c->keys));
	c->keys[0] = key;
	return hit;
}

static uint32_t *stream(void)
{
	uint32_t *s = malloc(ACCESSES * sizeof(*s));
	uint64_t x = 88172645463325252ull;

	assert_non_null(s);
	for (size_t i = 0; i < ACCESSES; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		s[i] = (x & 1) ? (uint32_t)(x >> 8) % HOT : HOT + (uint32_t)(x >> 8) % (SET - HOT);
	}
	return s;
}

/* The misses of an LRU of size over s; each miss into b (when given) as
 * the positional read it would make. */
static uint64_t misses(const uint32_t *s, unsigned size, struct bu_proc *b)
{
	struct lru c = { .keys = calloc(size + 1, sizeof(uint32_t)), .size = size };
	struct fct_fileuse e = { .op = FCT_FU_READ, .len = BLOCK };
	uint64_t n = 0;

	assert_non_null(c.keys);
	for (size_t i = 0; i < ACCESSES; i++) {
		if (lru_ref(&c, s[i]))
			continue;
		n++;
		if (b) {
			e.off = (uint64_t)s[i] * BLOCK;
			bu_read(b, &e, 7);
		}
	}
	free(c.keys);
	return n;
}

/* The curve's hit ratio at exactly `more` blocks more. */
static double curve_at(const struct kv_blocks *k, uint64_t more)
{
	for (int i = 0; i < k->nmrc; i++)
		if (k->mrc[i].size == more)
			return k->mrc[i].hit_ratio;
	fail_msg("no point at %llu", (unsigned long long)more);
	return 0;
}

/* An LRU of 500 (HOT of them held for their hits): what it holds of the
 * rest is seen; 64, 385 and 955 blocks more (points of the curve) predicted
 * within 5 % of the misses an LRU of that size has. */
static void test_held_and_more(void **state)
{
	const unsigned size = 500;
	const uint64_t more[] = { 64, 385, 955 };
	uint32_t *s = stream();
	struct bu_proc *b = bu_proc_new();
	struct kv_blocks k;
	uint64_t now;

	(void)state;
	assert_non_null(b);
	now = misses(s, size, b);
	assert_int_equal(bu_figures(b, &k), 0);
	assert_int_equal(k.reads, now);
	assert_int_equal(k.block_bytes, BLOCK);
	print_message("held %llu of %u (%d hot)\n", (unsigned long long)k.held, size, HOT);
	assert_true(k.held >= size - HOT - 50 && k.held <= size);
	for (size_t i = 0; i < sizeof(more) / sizeof(*more); i++) {
		double predicted = (double)now * (1 - curve_at(&k, more[i]));
		uint64_t truth = misses(s, size + (unsigned)more[i], NULL);

		print_message("+%llu: predicted %.0f, an LRU of %llu %llu\n",
			      (unsigned long long)more[i], predicted,
			      (unsigned long long)(size + more[i]), (unsigned long long)truth);
		assert_true(predicted > 0.95 * (double)truth && predicted < 1.05 * (double)truth);
	}
	/* the fix: blocks more than held reaching the ceiling, the set less
	 * what the cache holds */
	assert_true(k.held + k.fix_size <= SET && k.held + k.fix_size >= SET - SET / 20);
	bu_proc_free(b);
	free(s);
}

/* Too few re-reads to tell where they begin: nothing held, the curve
 * over the stream alone. */
static void test_few_rereads(void **state)
{
	struct bu_proc *b = bu_proc_new();
	struct fct_fileuse e = { .op = FCT_FU_READ, .len = BLOCK };
	struct kv_blocks k;

	(void)state;
	for (int round = 0; round < 2; round++)
		for (int i = 0; i < 50; i++) {
			e.off = (uint64_t)i * BLOCK;
			bu_read(b, &e, 7);
		}
	assert_int_equal(bu_figures(b, &k), 0);
	assert_int_equal(k.held, 0);
	assert_int_equal(k.reads, 100);
	assert_int_equal(k.blocks, 50);
	assert_true(curve_at(&k, 50) == 0.5);
	bu_proc_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_held_and_more),
		cmocka_unit_test(test_few_rereads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
