/*
 * fdcache_prog.c - a program with a handle cache of known size and policy
 * over a known file set, which counts its own figures: the ground truth
 * of the handles' stream (tests/bpf/test_bpf_handles.c). Not fctrace's
 * code: it includes nothing of it.
 *
 *   fdcache_prog DIR FILES SIZE ACCESSES SEED
 *
 * ACCESSES may instead be a time, "9s": as many accesses as that many
 * seconds hold (a test that needs the program to outlast a point in the
 * window, on a machine of any speed).
 *
 * It makes FILES files in DIR (an open each), then reads one byte of a
 * file drawn at random ACCESSES times (never the same file twice in a
 * row: each access is one reference), through an LRU of SIZE open
 * descriptors that closes the least recently used before it opens
 * another. It prints, as fctrace defines them (a file is in the set from
 * its second open on):
 *   accesses misses files max_open hits_at_size fix_size
 * the accesses and opens of files in the set, the set's files, the most
 * of them open at once, the hits an LRU of SIZE has on that stream (its
 * own), and the smallest LRU whose hits come within half a percent of
 * the accesses of an unbounded one's (from the stack distances, simulated
 * the slow way).
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAXF 4096

static int fds[MAXF], opens[MAXF], lru[MAXF], stack[MAXF];
static unsigned long dist_hits[MAXF + 1];
static int nlru, nstack, open_set, max_open;
static unsigned long accesses, misses, hits;

static uint64_t rng = 88172645463325252ull;
static unsigned draw(unsigned n)
{
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return (unsigned)(rng % n);
}

/* the stack distance of f on the set's stream, f moved to the top */
static void reference(int f)
{
	int d = 0;

	while (d < nstack && stack[d] != f)
		d++;
	if (d < nstack)
		dist_hits[d]++;
	else
		nstack++;
	memmove(&stack[1], &stack[0], (size_t)d * sizeof(*stack));
	stack[0] = f;
}

static void touch(int f)
{
	int i = 0;

	while (i < nlru && lru[i] != f)
		i++;
	memmove(&lru[1], &lru[0], (size_t)i * sizeof(*lru));
	lru[0] = f;
}

static void evict(void)
{
	int f = lru[--nlru];

	close(fds[f]);
	fds[f] = -1;
	if (opens[f] >= 2)
		open_set--;
}

static void access_file(const char *dir, int f, int size)
{
	char path[4200], c;
	bool hit = fds[f] >= 0;

	if (!hit) {
		if (nlru == size)
			evict();
		snprintf(path, sizeof(path), "%s/f%d", dir, f);
		fds[f] = open(path, O_RDONLY);
		if (fds[f] < 0)
			exit(3);
		opens[f]++;
		lru[nlru++] = f;
		if (opens[f] >= 2 && ++open_set > max_open)
			max_open = open_set;
	}
	touch(f);
	if (pread(fds[f], &c, 1, 0) != 1)
		exit(4);
	if (opens[f] < 2)
		return;
	accesses++;
	misses += !hit;
	hits += hit;
	reference(f);
}

static void make_files(const char *dir, int n)
{
	char path[4200], block[4096];

	memset(block, 'x', sizeof(block));
	for (int f = 0; f < n; f++) {
		snprintf(path, sizeof(path), "%s/f%d", dir, f);
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		if (fd < 0 || write(fd, block, sizeof(block)) != (ssize_t)sizeof(block))
			exit(2);
		close(fd);
		opens[f] = 1;
		fds[f] = -1;
	}
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* the loop is done: ACCESSES made, or the seconds past */
static bool done(unsigned long i, unsigned long want, double until)
{
	if (until > 0)
		return (i & 1023) == 0 && now_s() >= until;
	return i >= want;
}

int main(int argc, char **argv)
{
	char *unit;
	double until = 0;
	int n, size, last = -1, files = 0, fix = 0;
	unsigned long want, sum = 0, ceiling = 0;

	if (argc != 6 || (n = atoi(argv[2])) < 2 || n > MAXF || (size = atoi(argv[3])) < 1 ||
	    size > n) {
		fprintf(stderr, "usage: fdcache_prog DIR FILES SIZE ACCESSES SEED\n");
		return 2;
	}
	want = strtoul(argv[4], &unit, 10);
	rng += strtoull(argv[5], NULL, 10);
	make_files(argv[1], n);
	if (*unit == 's')
		until = now_s() + (double)want;
	for (unsigned long i = 0; !done(i, want, until); i++) {
		int f;

		do
			f = (int)draw((unsigned)n);
		while (f == last);
		access_file(argv[1], f, size);
		last = f;
	}
	for (int f = 0; f < n; f++)
		files += opens[f] >= 2;
	for (int d = 0; d < nstack; d++)
		ceiling += dist_hits[d];
	for (fix = 0; fix < nstack && (double)sum < (double)ceiling - 0.005 * (double)accesses; fix++)
		sum += dist_hits[fix];
	printf("%lu %lu %d %d %lu %d\n", accesses, misses, files, max_open, hits, fix);
	return 0;
}
