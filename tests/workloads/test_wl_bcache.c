/*
 * test_wl_bcache.c - the three block caches driven by known reads
 * through a fake wl_io that serves the data files' content and counts
 * the preads per block: exact hits and misses, victim order, the byte
 * budget, reads spanning blocks and the short last block.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "bc_internal.h"
#include "testutil.h"

#define B 4096
#define FSIZE 100000

struct fx {
	enum bcache_kind kind;
	struct fake_io io;
	struct wl_thread_stats st;
	struct bcache *c;
	struct bc_reader r;
};

static struct fx *fx_new(void **state, uint64_t budget_blocks, unsigned shards)
{
	struct fx *f = calloc(1, sizeof(*f));
	struct bcache_cfg cfg = {
		.kind = (enum bcache_kind)(intptr_t)*state, .block = B,
		.budget = budget_blocks * B, .shards = shards, .readers = 1,
	};

	assert_non_null(f);
	f->kind = cfg.kind;
	fake_io_init(&f->io, FSIZE);
	f->c = bcache_create(&cfg, &f->io.io);
	assert_non_null(f->c);
	assert_int_equal(bcache_reader_init(f->c, &f->r, &f->st), 0);
	return f;
}

static void fx_free(struct fx *f)
{
	bcache_reader_fini(&f->r);
	bcache_destroy(f->c);
	free(f);
}

/* Read through the cache and compare every byte with the file's. */
static void rd(struct fx *f, unsigned file, uint64_t off, size_t len)
{
	unsigned char *got = malloc(len), *want = malloc(len);
	size_t n = len;

	if (off + n > FSIZE)
		n = FSIZE - off;
	assert_int_equal(bcache_read(&f->r, file, FAKE_FILE_FD(file), off, len, got), n);
	wl_content_fill(file, off, want, n);
	assert_memory_equal(got, want, n);
	free(got);
	free(want);
}

static uint64_t cached_bytes(struct fx *f)
{
	struct wl_totals t;

	bcache_totals(f->c, &t);
	assert_int_equal(t.cache_bytes, t.cache_blocks * B);
	return t.cache_bytes;
}

/* bcache-rw and bcache-chm replace by CLOCK, the others by LRU */
static bool clock_kind(enum bcache_kind k)
{
	return k == BCACHE_RW || k == BCACHE_CHM;
}

/* Budget 3 blocks; the first victims agree for LRU and CLOCK. */
static void test_hits_misses_and_victims(void **state)
{
	struct fx *f = fx_new(state, 3, 1);

	rd(f, 0, 0, 100);
	rd(f, 0, B, 100);
	rd(f, 0, 2 * B, 100);
	rd(f, 0, 10, 50);		/* hit: block 0 is now the most recent */
	assert_int_equal(f->st.hits, 1);
	assert_int_equal(f->st.misses, 3);
	rd(f, 0, 3 * B, 8);		/* miss: victim is block 1 */
	assert_false(bcache_contains(f->c, 0, 1));
	assert_true(bcache_contains(f->c, 0, 0));
	rd(f, 0, B + 1, 8);		/* miss: victim is block 2 */
	assert_false(bcache_contains(f->c, 0, 2));
	assert_true(bcache_contains(f->c, 0, 0));
	assert_true(bcache_contains(f->c, 0, 3));
	assert_true(bcache_contains(f->c, 0, 1));
	assert_int_equal(f->st.hits, 1);
	assert_int_equal(f->st.misses, 5);
	assert_int_equal(f->st.evictions, 2);
	assert_int_equal(f->io.preads[0][0], 1);
	assert_int_equal(f->io.preads[0][1], 2);
	assert_int_equal(f->io.preads[0][2], 1);
	assert_int_equal(f->io.preads[0][3], 1);
	assert_int_equal(f->io.preads_total, 5);
	assert_int_equal(cached_bytes(f), 3 * B);
	/* Blocks 0,1,2,3 in one read. Cached, next victim first: LRU 0 3 1;
	 * CLOCK 3 0 1 (0 was passed over once, its bit now clear).
	 * LRU: hits 0 and 1, miss 2 evicts 3, miss 3 evicts 0: {1 2 3}.
	 * CLOCK: hits set the bits of 0 and 1, miss 2 evicts 3, miss 3
	 * passes 0 and 1 and evicts 2, the block just read: {0 1 3}.
	 * That is the price of gets under a shared lock. */
	rd(f, 0, 4000, 10000);
	assert_int_equal(f->st.hits, 3);
	assert_int_equal(f->st.misses, 7);
	assert_true(bcache_contains(f->c, 0, 1));
	assert_true(bcache_contains(f->c, 0, 3));
	assert_int_equal(bcache_contains(f->c, 0, 0), clock_kind(f->kind));
	assert_int_equal(bcache_contains(f->c, 0, 2), !clock_kind(f->kind));
	assert_int_equal(f->st.evictions, 4);
	assert_int_equal(cached_bytes(f), 3 * B);
	fx_free(f);
}

/* A read across blocks, again from cache; the short last block. */
static void test_multi_block_reads(void **state)
{
	struct fx *f = fx_new(state, 64, 1);

	rd(f, 2, 4000, 10000);		/* blocks 0..3 */
	assert_int_equal(f->st.misses, 4);
	assert_int_equal(f->st.hits, 0);
	rd(f, 2, 4000, 10000);
	assert_int_equal(f->st.misses, 4);
	assert_int_equal(f->st.hits, 4);
	assert_int_equal(f->io.preads_total, 4);
	rd(f, 2, FSIZE - 10000, 10000);	/* blocks 21..24, 24 has 1696 bytes */
	assert_int_equal(f->st.misses, 8);
	rd(f, 2, FSIZE - 1696, 1696);
	assert_int_equal(f->st.hits, 5);
	rd(f, 2, FSIZE - 10, 100);	/* past the end: short, still right */
	assert_int_equal(f->st.hits, 6);
	/* the same block numbers of another file are other blocks;
	 * [4000, 4100) touches blocks 0 and 1 */
	rd(f, 3, 4000, 100);
	assert_int_equal(f->st.misses, 10);
	assert_int_equal(f->io.preads[3][0], 1);
	assert_int_equal(f->io.preads[3][1], 1);
	fx_free(f);
}

/* Random reads never leave more than the budget cached. */
static void test_budget_never_exceeded(void **state)
{
	enum bcache_kind k = (enum bcache_kind)(intptr_t)*state;
	unsigned budget = k == BCACHE_SHARDED || k == BCACHE_CHM ? 32 : 5;
	struct fx *f = fx_new(state, budget, 0);
	uint64_t rng[4];

	wl_rng_seed(rng, 7, 0);
	for (int i = 0; i < 3000; i++) {
		rd(f, (unsigned)wl_rng_below(rng, 6),
		   wl_rng_below(rng, FSIZE - 10000 + 1), 10000);
		assert_true(cached_bytes(f) <= budget * B);
	}
	assert_int_equal(f->st.misses, f->io.preads_total);
	assert_true(f->st.evictions > 0);
	assert_int_equal(cached_bytes(f), (f->st.misses - f->st.evictions) * B);
	fx_free(f);
}

/* Sharded: each shard has budget/N; two blocks of one 1-block shard
 * evict each other though the cache as a whole is nearly empty. */
static void test_shard_budget(void **state)
{
	struct fx *f = fx_new(state, 16, 16);
	uint64_t a = 0, b = 1, sa;

	assert_int_equal(bcache_shards(f->c), 16);
	sa = bc_hash(0, a) % 16;
	while (bc_hash(0, b) % 16 != sa)
		b++;
	assert_true(b < 25);
	rd(f, 0, a * B, 10);
	rd(f, 0, b * B, 10);
	assert_false(bcache_contains(f->c, 0, a));
	assert_true(bcache_contains(f->c, 0, b));
	assert_int_equal(f->st.evictions, 1);
	assert_int_equal(cached_bytes(f), B);
	fx_free(f);
}

/* Fewer blocks than shards: the shard count shrinks to fit the budget. */
static void test_shards_fit_budget(void **state)
{
	struct fx *f = fx_new(state, 4, 16);

	assert_int_equal(bcache_shards(f->c), 4);
	fx_free(f);
}

/* N shards are N lock words: distinct futex words, one name each; the
 * single-lock caches report one. */
static void test_lock_words(void **state)
{
	enum bcache_kind k = (enum bcache_kind)(intptr_t)*state;
	struct fx *f = fx_new(state, 64, 8);
	struct wl_lock_desc d[WL_MAX_LOCKS];
	int n = bcache_locks(f->c, d, WL_MAX_LOCKS);
	bool striped = k == BCACHE_SHARDED || k == BCACHE_CHM;

	assert_int_equal(n, striped ? 8 : 1);
	assert_int_equal((int)bcache_shards(f->c), n);
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++) {
			assert_true(d[i].addr + d[i].size <= d[j].addr ||
				    d[j].addr + d[j].size <= d[i].addr);
			assert_string_not_equal(d[i].name, d[j].name);
		}
	fx_free(f);
}

/* Ground truth for the hit path: a scripted pattern of 40 misses then
 * 400 hits (single-block reads). LRU-locked caches take a lock on every
 * lookup and insert; the concurrent map's gets take none, only its puts. */
static void test_locks_per_lookup(void **state)
{
	enum bcache_kind k = (enum bcache_kind)(intptr_t)*state;
	struct fx *f = fx_new(state, 64, 4);

	for (int round = 0; round < 11; round++)
		for (uint64_t blk = 0; blk < 20; blk++) {
			rd(f, 0, blk * B + 8, 100);
			rd(f, 1, blk * B + 8, 100);
		}
	assert_int_equal(f->st.misses, 40);
	assert_int_equal(f->st.hits, 400);
	assert_int_equal(f->io.preads_total, 40);
	if (k == BCACHE_CHM)
		assert_int_equal(f->st.lock_acquires, 40);
	else
		assert_int_equal(f->st.lock_acquires, 440 + 40);
	/* the own clocks are sampled, one lookup in BC_TIME_EVERY, from the first */
	assert_true(f->st.lookup_ns > 0);
	assert_int_equal(f->st.lock_contended, 0);
	fx_free(f);
}

/* A block evicted while another reader copies it (its hazard slot names
 * it) is parked, not reused; once the slot is clear the next insert
 * frees it. Two readers, one thread, the copy held open by hand. */
static void test_hazard_parks_victim(void **state)
{
	struct fake_io io;
	struct bcache_cfg cfg = { .kind = (enum bcache_kind)(intptr_t)*state,
				  .block = B, .budget = 2 * B, .shards = 1, .readers = 2 };
	struct wl_thread_stats s1 = { 0 }, s2 = { 0 };
	struct bc_reader r1, r2;
	struct bcache *c;
	struct bc_entry *e0;
	struct bc_shard *sh;
	char buf[16];

	fake_io_init(&io, FSIZE);
	c = bcache_create(&cfg, &io.io);
	assert_non_null(c);
	assert_int_equal(bcache_reader_init(c, &r1, &s1), 0);
	assert_int_equal(bcache_reader_init(c, &r2, &s2), 0);
	assert_non_null(r1.hazard);
	assert_ptr_not_equal(r1.hazard, r2.hazard);
	sh = &c->shards[0];
	assert_int_equal(bcache_read(&r1, 0, FAKE_FILE_FD(0), 0, 8, buf), 8);
	e0 = bc_find(sh, 0, 0, bc_hash(0, 0));
	assert_non_null(e0);
	atomic_store(&r1.hazard->e, e0);	/* r1 is "copying" block 0 */
	assert_int_equal(bcache_read(&r2, 0, FAKE_FILE_FD(0), B, 8, buf), 8);
	assert_int_equal(bcache_read(&r2, 0, FAKE_FILE_FD(0), 2 * B, 8, buf), 8);
	assert_false(bcache_contains(c, 0, 0));	/* evicted ... */
	assert_ptr_equal(sh->limbo, e0);	/* ... but parked */
	for (struct bc_entry *x = sh->free; x; x = x->hnext)
		assert_ptr_not_equal(x, e0);
	assert_ptr_not_equal(r2.spare, e0);
	atomic_store(&r1.hazard->e, NULL);	/* the copy is done */
	assert_int_equal(bcache_read(&r2, 0, FAKE_FILE_FD(0), 3 * B, 8, buf), 8);
	assert_null(sh->limbo);
	bcache_reader_fini(&r1);
	bcache_reader_fini(&r2);
	bcache_destroy(c);
}

/* Threads read random chunks; every byte right, totals add up. */
struct worker {
	struct bcache *c;
	struct bc_reader r;
	struct wl_thread_stats st;
	unsigned seed;
	unsigned bad;
};

static void *reader(void *p)
{
	struct worker *w = p;
	unsigned char got[10000], want[10000];
	uint64_t rng[4];

	wl_rng_seed(rng, w->seed, 0);
	for (int i = 0; i < 3000; i++) {
		unsigned file = (unsigned)wl_rng_below(rng, 4);
		uint64_t off = wl_rng_below(rng, FSIZE - sizeof(got) + 1);

		bcache_read(&w->r, file, FAKE_FILE_FD(file), off, sizeof(got), got);
		wl_content_fill(file, off, want, sizeof(want));
		w->bad += memcmp(got, want, sizeof(got)) != 0;
	}
	return NULL;
}

static void test_threads_read_right(void **state)
{
	struct fake_io io;
	struct bcache_cfg cfg = { .kind = (enum bcache_kind)(intptr_t)*state,
				  .block = B, .budget = 40 * B, .readers = 4 };
	struct bcache *c;
	struct worker w[4];
	pthread_t t[4];
	uint64_t hits = 0, misses = 0, evictions = 0;
	struct wl_totals tot;

	fake_io_init(&io, FSIZE);
	c = bcache_create(&cfg, &io.io);
	assert_non_null(c);
	for (int i = 0; i < 4; i++) {
		memset(&w[i], 0, sizeof(w[i]));
		w[i].c = c;
		w[i].seed = (unsigned)i + 11;
		assert_int_equal(bcache_reader_init(c, &w[i].r, &w[i].st), 0);
		assert_int_equal(pthread_create(&t[i], NULL, reader, &w[i]), 0);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		assert_int_equal(w[i].bad, 0);
		hits += w[i].st.hits;
		misses += w[i].st.misses;
		evictions += w[i].st.evictions;
		bcache_reader_fini(&w[i].r);
	}
	bcache_totals(c, &tot);
	assert_int_equal(misses, io.preads_total);
	assert_true(hits + misses >= 4 * 3000 * 3);	/* 3 or 4 blocks a read */
	assert_int_equal(tot.evictions, evictions);
	assert_true(tot.cache_bytes <= 40 * B);
	bcache_destroy(c);
}

#define ALL(fn) \
	cmocka_unit_test_prestate(fn, (void *)(intptr_t)BCACHE_LRU), \
	cmocka_unit_test_prestate(fn, (void *)(intptr_t)BCACHE_RW), \
	cmocka_unit_test_prestate(fn, (void *)(intptr_t)BCACHE_SHARDED), \
	cmocka_unit_test_prestate(fn, (void *)(intptr_t)BCACHE_CHM)

int main(void)
{
	const struct CMUnitTest tests[] = {
		ALL(test_hits_misses_and_victims),
		ALL(test_multi_block_reads),
		ALL(test_budget_never_exceeded),
		cmocka_unit_test_prestate(test_shard_budget,
					  (void *)(intptr_t)BCACHE_SHARDED),
		cmocka_unit_test_prestate(test_shards_fit_budget,
					  (void *)(intptr_t)BCACHE_SHARDED),
		ALL(test_threads_read_right),
		ALL(test_lock_words),
		ALL(test_locks_per_lookup),
		cmocka_unit_test_prestate(test_hazard_parks_victim, (void *)(intptr_t)BCACHE_LRU),
		cmocka_unit_test_prestate(test_hazard_parks_victim, (void *)(intptr_t)BCACHE_CHM),
		cmocka_unit_test_prestate(test_shard_budget, (void *)(intptr_t)BCACHE_CHM),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
