/*
 * pool_prog.c - a pool of N that times itself: the ground truth for
 * fctrace's pools (tests/bpf/test_bpf_pools.c, docs/pools.md).
 *
 *   pool_prog sem|cond CAPACITY THREADS OPS HOLD_US THINK_US spin|sleep
 *
 * THREADS threads share OPS borrows of one of CAPACITY items: each takes
 * an item, holds it HOLD_US (spinning on the CPU, or asleep in
 * nanosleep), gives it back, then works THINK_US outside the pool the
 * same way. "sem": the items are a POSIX semaphore's permits; "cond": a
 * free list under a mutex, its takers waiting on a condvar that the
 * returners signal. Each thread times its own waits (a take that found
 * no item free, from its call to its return) and holds (from the take's
 * return to the give's call) with CLOCK_MONOTONIC, and the totals are
 * printed as one line (to the file $POOL_PROG_OUT names, else stdout):
 *
 *   pool kind K capacity N threads T ops O blocked B wait_ns W hold_ns H wall_ns X
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int use_sem, sleep_work, capacity;
static long hold_us, think_us;
static atomic_long ops_left;
static atomic_ullong blocked, wait_ns, hold_ns;

static sem_t sem;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t freed = PTHREAD_COND_INITIALIZER;
static int free_items;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* us microseconds of work: on the CPU, or asleep */
static void work(long us)
{
	uint64_t end;

	if (us <= 0)
		return;
	if (sleep_work) {
		struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

		nanosleep(&ts, NULL);
		return;
	}
	end = now_ns() + (uint64_t)us * 1000;
	while (now_ns() < end)
		;
}

/* Take an item; true if none was free at the first try. */
static int take(void)
{
	int waited = 0;

	if (use_sem) {
		if (sem_trywait(&sem) == 0)
			return 0;
		while (sem_wait(&sem))
			;
		return 1;
	}
	pthread_mutex_lock(&mu);
	while (!free_items) {
		waited = 1;
		pthread_cond_wait(&freed, &mu);
	}
	free_items--;
	pthread_mutex_unlock(&mu);
	return waited;
}

static void give(void)
{
	if (use_sem) {
		sem_post(&sem);
		return;
	}
	pthread_mutex_lock(&mu);
	free_items++;
	pthread_cond_signal(&freed);
	pthread_mutex_unlock(&mu);
}

static void *borrower(void *arg)
{
	(void)arg;
	while (atomic_fetch_sub(&ops_left, 1) > 0) {
		uint64_t t0 = now_ns(), t1, t2;
		int waited = take();

		t1 = now_ns();
		work(hold_us);
		t2 = now_ns();
		give();
		if (waited) {
			atomic_fetch_add(&blocked, 1);
			atomic_fetch_add(&wait_ns, t1 - t0);
		}
		atomic_fetch_add(&hold_ns, t2 - t1);
		work(think_us);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t *tids;
	FILE *out;
	long threads, ops;
	uint64_t start;

	if (argc != 8 || (strcmp(argv[1], "sem") && strcmp(argv[1], "cond")) ||
	    (strcmp(argv[7], "spin") && strcmp(argv[7], "sleep"))) {
		fprintf(stderr, "usage: pool_prog sem|cond CAPACITY THREADS OPS HOLD_US THINK_US "
			"spin|sleep\n");
		return 2;
	}
	use_sem = !strcmp(argv[1], "sem");
	capacity = atoi(argv[2]);
	threads = atol(argv[3]);
	ops = atol(argv[4]);
	hold_us = atol(argv[5]);
	think_us = atol(argv[6]);
	sleep_work = !strcmp(argv[7], "sleep");
	if (capacity < 1 || threads < 1 || threads > 4096 || ops < 1) {
		fprintf(stderr, "pool_prog: capacity, threads and ops must be positive\n");
		return 2;
	}
	sem_init(&sem, 0, (unsigned)capacity);
	free_items = capacity;
	atomic_store(&ops_left, ops);
	tids = calloc((size_t)threads, sizeof(*tids));
	if (!tids)
		return 1;
	start = now_ns();
	for (long i = 0; i < threads; i++)
		if (pthread_create(&tids[i], NULL, borrower, NULL))
			return 1;
	for (long i = 0; i < threads; i++)
		pthread_join(tids[i], NULL);
	out = getenv("POOL_PROG_OUT") ? fopen(getenv("POOL_PROG_OUT"), "w") : stdout;
	if (!out)
		return 1;
	fprintf(out, "pool kind %s capacity %d threads %ld ops %ld blocked %llu wait_ns %llu "
		"hold_ns %llu wall_ns %llu\n", argv[1], capacity, threads, ops,
		(unsigned long long)blocked, (unsigned long long)wait_ns,
		(unsigned long long)hold_ns, (unsigned long long)(now_ns() - start));
	free(tids);
	return fclose(out) ? 1 : 0;
}
