/*
 * pagecache.c - the page-cache conditions around a run: a cold start
 * (drop every data page, then prove it with mincore) and background
 * pressure (an evictor thread dropping random data pages at a rate).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "wl_internal.h"

#define TICK_NS 10000000ull	/* the evictor wakes every 10 ms */

/* pages of fd's first size bytes in the page cache, by mincore */
uint64_t wl_resident_pages(int fd, uint64_t size)
{
	long pg = sysconf(_SC_PAGESIZE);
	uint64_t npages = (size + pg - 1) / pg, n = 0;
	unsigned char *vec = malloc(npages);
	/* PROT_NONE: mincore only needs the mapping, and nothing (not even
	 * valgrind peeking at new readable maps) may fault pages back in */
	void *map = mmap(NULL, size, PROT_NONE, MAP_SHARED, fd, 0);

	if (vec && map != MAP_FAILED && !mincore(map, size, vec))
		for (uint64_t i = 0; i < npages; i++)
			n += vec[i] & 1;
	else
		n = npages;	/* cannot tell: say resident, never 0 */
	if (map != MAP_FAILED)
		munmap(map, size);
	free(vec);
	return n;
}

/* Drop every data file from the page cache; return the pages still
 * resident afterwards (0: datadir.c refuses a filesystem that keeps them). */
uint64_t wl_cold_evict(struct wl_run *run)
{
	uint64_t left = 0;

	for (unsigned i = 0; i < run->nfiles; i++)
		posix_fadvise(run->fds[i], 0, 0, POSIX_FADV_DONTNEED);
	for (unsigned i = 0; i < run->nfiles; i++)
		left += wl_resident_pages(run->fds[i], run->cfg.file_size);
	return left;
}

struct wl_pressure {
	struct wl_run *run;
	double rate;
	atomic_bool stop;
	uint64_t dropped;
	uint64_t rng[4];
	pthread_t pt;
};

/* Drop n pages as random page ranges of random files. */
static void drop_pages(struct wl_pressure *p, uint64_t n, long pg)
{
	struct wl_run *run = p->run;
	uint64_t fpages = (run->cfg.file_size + pg - 1) / pg;

	while (n) {
		unsigned f = (unsigned)wl_rng_below(p->rng, run->nfiles);
		uint64_t len = n < fpages ? n : fpages;
		uint64_t first = wl_rng_below(p->rng, fpages - len + 1);

		posix_fadvise(run->fds[f], (off_t)(first * pg), (off_t)(len * pg),
			      POSIX_FADV_DONTNEED);
		p->dropped += len;
		n -= len;
	}
}

static void *evictor(void *arg)
{
	struct wl_pressure *p = arg;
	long pg = sysconf(_SC_PAGESIZE);
	struct timespec tick = { 0, TICK_NS };
	double due = 0;

	/* its name is what the page-cache removals report says it is */
	pthread_setname_np(pthread_self(), "fct-evictor");
	while (!atomic_load(&p->stop)) {
		due += p->rate * TICK_NS / 1e9;
		drop_pages(p, (uint64_t)due, pg);
		due -= (uint64_t)due;
		clock_nanosleep(CLOCK_MONOTONIC, 0, &tick, NULL);
	}
	return NULL;
}

struct wl_pressure *wl_pressure_start(struct wl_run *run, double rate)
{
	struct wl_pressure *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->run = run;
	p->rate = rate;
	wl_rng_seed(p->rng, run->cfg.seed, WL_MAX_THREADS);
	if (pthread_create(&p->pt, NULL, evictor, p)) {
		free(p);
		return NULL;
	}
	return p;
}

/* Stop the evictor; returns the pages it dropped. */
uint64_t wl_pressure_stop(struct wl_pressure *p)
{
	uint64_t n;

	if (!p)
		return 0;
	atomic_store(&p->stop, true);
	pthread_join(p->pt, NULL);
	n = p->dropped;
	free(p);
	return n;
}
