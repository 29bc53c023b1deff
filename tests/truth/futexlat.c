/*
 * futexlat.c - syscalls of known durations for tests/truth.sh: N futex
 * waits that time out after 20 us - 1 ms (a fixed pseudo-random spread),
 * each timed around the call here. Prints the exact p50 and p99 (nearest
 * rank) of those times on stdout: "p50_ns N p99_ns N".
 *
 *   futexlat N
 */
#include <linux/futex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int n = argc == 2 ? atoi(argv[1]) : 0, word = 0;
	uint64_t *d;

	if (n < 1 || !(d = calloc((size_t)n, sizeof(*d)))) {
		fprintf(stderr, "usage: futexlat N (N >= 1)\n");
		return 2;
	}
	srand(1);
	for (int i = 0; i < n; i++) {
		struct timespec ts = { 0, 20000 + rand() % 980000 };
		uint64_t t0 = now_ns();

		syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 0, &ts, NULL, 0);
		d[i] = now_ns() - t0;
	}
	qsort(d, (size_t)n, sizeof(*d), cmp_u64);
	printf("p50_ns %llu p99_ns %llu\n", (unsigned long long)d[(n + 1) / 2 - 1],
	       (unsigned long long)d[(99 * n + 99) / 100 - 1]);
	free(d);
	return 0;
}
