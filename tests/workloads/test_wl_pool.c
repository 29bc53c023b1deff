/*
 * test_wl_pool.c - the two FileChannelPools driven by scripted gets and
 * puts through a fake wl_io that counts every stat/open/close per file
 * and checks whether the pool lock was held during it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <cmocka.h>
#include "fcp_pool.h"
#include "testutil.h"
#include "wl_internal.h"

static const char *const names[] = {
	"/d/f000000", "/d/f000001", "/d/f000002", "/d/f000003", "/d/f000004",
	"/d/f000005", "/d/f000006", "/d/f000007", "/d/f000008", "/d/f000009",
	"/d/f000010", "/d/f000011", "/d/f000012", "/d/f000013", "/d/f000014",
	"/d/f000015", "/d/f000016", "/d/f000017", "/d/f000018", "/d/f000019",
};

struct fx {
	const struct fcp_pool_ops *ops;
	struct fake_io io;
	struct wl_thread_stats st;
	void *pool;
};

static struct fx *fx_new(void **state, unsigned capacity)
{
	struct fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->ops = *state;
	fake_io_init(&f->io, 100000);
	f->pool = f->ops->create(capacity, &f->io.io, AT_FDCWD);
	assert_non_null(f->pool);
	return f;
}

/* destroy closes every channel, each exactly once */
static void fx_free(struct fx *f)
{
	f->ops->destroy(f->pool);
	assert_int_equal(f->io.nopen, 0);
	assert_int_equal(f->io.bad_closes, 0);
	assert_int_equal(fake_total(f->io.opens), fake_total(f->io.closes));
	free(f);
}

static struct fcp_chan *get(struct fx *f, int i)
{
	struct fcp_chan *ch = f->ops->get(f->pool, names[i], &f->st);

	assert_non_null(ch);
	return ch;
}

static void put(struct fx *f, struct fcp_chan *ch)
{
	f->ops->put(f->pool, ch, &f->st);
}

static struct fcp_pool_stats stats(struct fx *f)
{
	struct fcp_pool_stats s;

	f->ops->stats(f->pool, &s);
	return s;
}

/* Eviction follows the order channels were returned, not opened. */
static void test_lru_by_return_time(void **state)
{
	struct fx *f = fx_new(state, 3);
	struct fcp_chan *c0 = get(f, 0), *c1 = get(f, 1), *c2 = get(f, 2), *c3, *c4;

	put(f, c2);
	put(f, c0);
	put(f, c1);			/* idle, oldest first: 2 0 1 */
	c3 = get(f, 3);			/* evicts 2 */
	assert_int_equal(f->io.closes[2], 1);
	assert_int_equal(fake_total(f->io.closes), 1);
	c4 = get(f, 4);			/* evicts 0 */
	assert_int_equal(f->io.closes[0], 1);
	put(f, c3);
	put(f, c4);			/* idle: 1 3 4 */
	put(f, get(f, 0));		/* evicts 1, reopens 0 */
	assert_int_equal(f->io.closes[1], 1);
	assert_int_equal(f->io.opens[0], 2);
	assert_int_equal(fake_total(f->io.opens), 6);
	assert_int_equal(fake_total(f->io.closes), 3);
	assert_int_equal(fake_total(f->io.stats), 6);
	assert_int_equal(stats(f).misses, 6);
	assert_int_equal(stats(f).hits, 0);
	assert_int_equal(stats(f).evictions, 3);
	assert_int_equal(f->st.evictions, 3);
	assert_int_equal(stats(f).open, 3);
	/* the new file is opened before the victim is closed */
	assert_int_equal(f->io.max_open, 4);
	assert_int_equal(stats(f).max_open, 4);
	assert_int_equal(stats(f).over_capacity, 0);
	/* a hit on an idle channel: no syscall */
	put(f, get(f, 4));
	assert_int_equal(stats(f).hits, 1);
	assert_int_equal(fake_total(f->io.opens), 6);
	fx_free(f);
}

/* A channel in use is never evicted, however old. */
static void test_in_use_never_evicted(void **state)
{
	struct fx *f = fx_new(state, 2);
	struct fcp_chan *c0 = get(f, 0), *c2, *c3;

	put(f, get(f, 1));
	c2 = get(f, 2);			/* 0 is older but held: 1 goes */
	assert_int_equal(f->io.closes[1], 1);
	assert_int_equal(f->io.closes[0], 0);
	c3 = get(f, 3);			/* nothing idle: pool grows to 3 */
	assert_int_equal(fake_total(f->io.closes), 1);
	assert_int_equal(stats(f).open, 3);
	assert_int_equal(stats(f).over_capacity, 1);
	put(f, c0);
	put(f, c2);
	put(f, c3);
	fx_free(f);
}

/* Capacity 2, three gets without a put: three open, counted. */
static void test_over_capacity_when_all_busy(void **state)
{
	struct fx *f = fx_new(state, 2);
	struct fcp_chan *c[3] = { get(f, 0), get(f, 1), get(f, 2) };

	assert_int_equal(fake_total(f->io.opens), 3);
	assert_int_equal(fake_total(f->io.closes), 0);
	assert_int_equal(f->io.nopen, 3);
	assert_int_equal(stats(f).open, 3);
	assert_int_equal(stats(f).over_capacity, 1);
	assert_int_equal(stats(f).max_open, 3);
	for (int i = 0; i < 3; i++)
		put(f, c[i]);
	assert_int_equal(stats(f).idle, 3);
	/* the next miss brings it back under capacity: two oldest go */
	put(f, get(f, 3));
	assert_int_equal(f->io.closes[0], 1);
	assert_int_equal(f->io.closes[1], 1);
	assert_int_equal(f->io.closes[2], 0);
	assert_int_equal(stats(f).open, 2);
	assert_int_equal(stats(f).over_capacity, 1);
	fx_free(f);
}

/* Files <= capacity: each file opened once, never closed before destroy. */
static void test_no_reopen_within_capacity(void **state)
{
	struct fx *f = fx_new(state, 50);
	struct fcp_chan *held[3] = { 0 };
	uint64_t rng[4];

	wl_rng_seed(rng, 42, 0);
	for (int i = 0; i < 20000; i++) {
		int slot = (int)wl_rng_below(rng, 3);

		if (held[slot])
			put(f, held[slot]);
		held[slot] = get(f, (int)wl_rng_below(rng, 10));
	}
	for (int i = 0; i < 3; i++)
		put(f, held[i]);
	assert_int_equal(fake_total(f->io.opens), 10);
	assert_int_equal(fake_total(f->io.stats), 10);
	assert_int_equal(fake_total(f->io.closes), 0);
	assert_int_equal(stats(f).misses, 10);
	assert_int_equal(stats(f).hits, 20000 - 10);
	assert_int_equal(f->st.hits + f->st.misses, 20000);
	/* fcp-fixed takes the lock twice on a miss: look up, register */
	assert_int_equal(f->st.lock_acquires,
			 40000 + (f->ops == &fcp_pool_fixed ? 10 : 0));
	assert_int_equal(stats(f).idle, 10);
	fx_free(f);
	/* (fx_free checked: destroy closed all 10) */
}

/* Two gets of one name without a put share one channel. */
static void test_shared_in_use_channel(void **state)
{
	struct fx *f = fx_new(state, 5);
	struct fcp_chan *a = get(f, 7), *b = get(f, 7);

	assert_ptr_equal(a, b);
	assert_int_equal(f->io.opens[7], 1);
	assert_int_equal(f->ops->uses(f->pool, names[7]), 2);
	put(f, a);
	assert_int_equal(f->ops->uses(f->pool, names[7]), 1);
	assert_int_equal(stats(f).idle, 0);
	put(f, b);
	assert_int_equal(f->ops->uses(f->pool, names[7]), 0);
	assert_int_equal(stats(f).idle, 1);
	assert_int_equal(f->ops->uses(f->pool, names[8]), -1);
	fx_free(f);
}

/* A miss that evicts: stat, open and close. Where is the lock? */
static void miss_with_eviction(struct fx *f)
{
	put(f, get(f, 0));
	f->io.in_lock = f->io.outside_lock = 0;
	f->st.syscalls_in_lock = 0;
	f->io.watch = f->ops->mutex(f->pool);
	put(f, get(f, 1));		/* capacity 1: stat + open 1, close 0 */
	f->io.watch = NULL;
	assert_int_equal(f->io.closes[0], 1);
}

static void test_faithful_syscalls_inside_lock(void **state)
{
	struct fx *f = fx_new(state, 1);

	miss_with_eviction(f);
	assert_int_equal(f->io.in_lock, 3);
	assert_int_equal(f->io.outside_lock, 0);
	assert_int_equal(f->st.syscalls_in_lock, 3);
	fx_free(f);
}

static void test_fixed_syscalls_outside_lock(void **state)
{
	struct fx *f = fx_new(state, 1);

	miss_with_eviction(f);
	assert_int_equal(f->io.in_lock, 0);
	assert_int_equal(f->io.outside_lock, 3);
	assert_int_equal(f->st.syscalls_in_lock, 0);
	fx_free(f);
}

/* fcp-fixed: another thread registers the same file while we open it. */
static void racing_get(struct fake_io *io, const char *path)
{
	struct fx *f = io->arg;

	io->on_open = NULL;		/* race once */
	f->io.arg = f->ops->get(f->pool, path, &f->st);
}

static void test_fixed_open_race(void **state)
{
	struct fx *f = fx_new(state, 4);
	struct fcp_chan *mine, *theirs;

	f->io.on_open = racing_get;
	f->io.arg = f;
	mine = get(f, 3);
	theirs = f->io.arg;
	assert_ptr_equal(mine, theirs);
	assert_int_equal(f->io.opens[3], 2);
	assert_int_equal(f->io.closes[3], 1);	/* the extra fd */
	assert_int_equal(f->ops->uses(f->pool, names[3]), 2);
	assert_int_equal(stats(f).races, 1);
	assert_int_equal(stats(f).open, 1);
	put(f, mine);
	put(f, theirs);
	fx_free(f);
}

static void test_missing_file(void **state)
{
	struct fx *f = fx_new(state, 2);

	errno = 0;
	assert_null(f->ops->get(f->pool, "/d/nothing", &f->st));
	assert_int_equal(errno, ENOENT);
	assert_int_equal(stats(f).open, 0);
	fx_free(f);
}

/* Threads hammer a small pool; afterwards everything must add up. */
struct worker_arg {
	struct fx *f;
	unsigned seed;
	struct wl_thread_stats st;
};

static void *hammer(void *p)
{
	struct worker_arg *a = p;
	uint64_t rng[4];

	wl_rng_seed(rng, a->seed, 0);
	for (int i = 0; i < 20000; i++) {
		struct fcp_chan *ch = a->f->ops->get(a->f->pool,
						     names[wl_rng_below(rng, 20)], &a->st);
		if (ch)
			a->f->ops->put(a->f->pool, ch, &a->st);
	}
	return NULL;
}

static void test_threads_add_up(void **state)
{
	struct fx *f = fx_new(state, 10);
	struct worker_arg a[4];
	pthread_t t[4];
	uint64_t hits = 0, misses = 0;
	struct fcp_pool_stats s;

	for (int i = 0; i < 4; i++) {
		a[i] = (struct worker_arg){ .f = f, .seed = (unsigned)i + 1 };
		assert_int_equal(pthread_create(&t[i], NULL, hammer, &a[i]), 0);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		hits += a[i].st.hits;
		misses += a[i].st.misses;
	}
	s = stats(f);
	assert_int_equal(hits + misses, 4 * 20000);
	assert_int_equal(s.hits, hits);
	assert_int_equal(s.misses, misses);
	assert_true(s.open <= 10);
	assert_int_equal(s.idle, s.open);
	assert_int_equal(f->io.nopen, s.open);
	assert_int_equal(fake_total(f->io.opens) - fake_total(f->io.closes), s.open);
	assert_int_equal(f->io.bad_closes, 0);
	fx_free(f);
}

#define BOTH(fn) \
	cmocka_unit_test_prestate(fn, (void *)&fcp_pool_faithful), \
	cmocka_unit_test_prestate(fn, (void *)&fcp_pool_fixed)

int main(void)
{
	const struct CMUnitTest tests[] = {
		BOTH(test_lru_by_return_time),
		BOTH(test_in_use_never_evicted),
		BOTH(test_over_capacity_when_all_busy),
		BOTH(test_no_reopen_within_capacity),
		BOTH(test_shared_in_use_channel),
		cmocka_unit_test_prestate(test_faithful_syscalls_inside_lock,
					  (void *)&fcp_pool_faithful),
		cmocka_unit_test_prestate(test_fixed_syscalls_outside_lock,
					  (void *)&fcp_pool_fixed),
		cmocka_unit_test_prestate(test_fixed_open_race, (void *)&fcp_pool_fixed),
		BOTH(test_missing_file),
		BOTH(test_threads_add_up),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
