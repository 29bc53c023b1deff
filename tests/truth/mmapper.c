/*
 * mmapper.c - kernel lock contention for tests/truth.sh: THREADS threads
 * each map, touch and unmap BYTES of anonymous memory for MS ms in one
 * address space, so they queue on its mmap lock (a rwsem).
 *
 *   mmapper THREADS MS BYTES
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

static long run_ms;
static size_t bytes;

static long ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

static void *churn(void *arg)
{
	struct timespec t0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (ms_since(&t0) < run_ms) {
		char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			       -1, 0);

		if (p == MAP_FAILED)
			continue;
		p[0] = 1;
		munmap(p, bytes);
	}
	return arg;
}

int main(int argc, char **argv)
{
	pthread_t th[64];
	int n;

	if (argc != 4 || (n = atoi(argv[1])) < 1 || n > 64) {
		fprintf(stderr, "usage: mmapper THREADS(1-64) MS BYTES\n");
		return 2;
	}
	run_ms = atol(argv[2]);
	bytes = (size_t)atol(argv[3]);
	for (int i = 0; i < n; i++)
		pthread_create(&th[i], NULL, churn, NULL);
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	return 0;
}
