/*
 * bench_bare.c - the bare loop that `fctrace run --workload fc` must stay
 * within 5 % of (make bench, workload fidelity): exactly fc's syscalls per
 * operation - openat(the directory's fd, name, O_RDWR | O_NOFOLLOW |
 * O_CLOEXEC), pread(chunk at a random offset), close - on files made like fc's (--files of --file-size bytes in a fresh
 * directory under $TMPDIR), with nothing else in the loop: no clock reads,
 * no statistics, no checks. Like fc's, the loop runs in a thread of its
 * own (in a multi-threaded process libc's syscall wrappers take their
 * cancellation path, which a single-threaded loop would skip), and it
 * picks files and offsets with fc's random stream (wl_rng_below, seed 1,
 * worker 0): the same choices, in the same order, at the same cost.
 *
 *   bench_bare [FILES [OPS [FILE_SIZE [CHUNK]]]]     (60 100000 100000 10000)
 *
 * Prints "ops N wall_ns W ns_per_op P". Under callgrind, run it with two
 * OPS values: the difference of the instruction counts is the loop's own.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "wl_internal.h"

#define MAX_FILES 100000

/* xorshift64*: as cheap a choice of (file, offset) as can be */

static int make_files(char *dir, char **paths, unsigned files, uint64_t size)
{
	char *buf = calloc(1, size);

	if (!buf || !mkdtemp(dir))
		return -1;
	memset(buf, 0x5a, size);
	for (unsigned i = 0; i < files; i++) {
		int fd;

		if (asprintf(&paths[i], "%s/f%06u", dir, i) < 0)
			return -1;
		fd = open(paths[i], O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0 || write(fd, buf, size) != (ssize_t)size || close(fd))
			return -1;
	}
	free(buf);
	return 0;
}

static void remove_files(char *dir, char **paths, unsigned files)
{
	for (unsigned i = 0; i < files && paths[i]; i++) {
		unlink(paths[i]);
		free(paths[i]);
	}
	rmdir(dir);
}

struct loop {
	const char **names;		/* in dirfd, as fc opens them */
	int dirfd;
	unsigned files;
	uint64_t ops, span, chunk;
	char *buf;
	int rc;
};

static void *bare_loop(void *p)
{
	struct loop *l = p;
	uint64_t rng[4];

	wl_rng_seed(rng, 1, 0);
	for (uint64_t i = 0; i < l->ops; i++) {
		unsigned f = (unsigned)wl_rng_below(rng, l->files);
		off_t off = (off_t)wl_rng_below(rng, l->span);
		int fd = openat(l->dirfd, l->names[f], O_RDWR | O_NOFOLLOW | O_CLOEXEC);

		if (fd < 0 || pread(fd, l->buf, l->chunk, off) != (ssize_t)l->chunk)
			l->rc = 1;
		if (fd >= 0)
			close(fd);
	}
	return NULL;
}

static uint64_t arg(int argc, char **argv, int i, uint64_t dflt)
{
	return argc > i ? strtoull(argv[i], NULL, 0) : dflt;
}

int main(int argc, char **argv)
{
	unsigned files = (unsigned)arg(argc, argv, 1, 60);
	uint64_t ops = arg(argc, argv, 2, 100000), size = arg(argc, argv, 3, 100000);
	uint64_t chunk = arg(argc, argv, 4, 10000), t0, t1;
	const char *tmp = getenv("TMPDIR");
	char dir[4096], **paths = calloc(MAX_FILES, sizeof(*paths));
	const char **names = calloc(MAX_FILES, sizeof(*names));
	char *buf = malloc(chunk ? chunk : 1);
	struct loop l;
	pthread_t th;
	int rc;

	if (!files || files > MAX_FILES || !chunk || chunk > size || !paths || !names || !buf) {
		fprintf(stderr, "usage: bench_bare [FILES [OPS [FILE_SIZE [CHUNK]]]]\n");
		return 2;
	}
	snprintf(dir, sizeof(dir), "%s/fctrace-bare.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (make_files(dir, paths, files, size)) {
		perror("bench_bare: making the data files");
		remove_files(dir, paths, files);
		return 1;
	}
	for (unsigned i = 0; i < files; i++)
		names[i] = strrchr(paths[i], '/') + 1;
	l = (struct loop){ .names = names, .dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC),
			   .files = files, .ops = ops, .span = size - chunk + 1, .chunk = chunk,
			   .buf = buf };
	t0 = wl_now_ns();
	rc = pthread_create(&th, NULL, bare_loop, &l) || pthread_join(th, NULL) || l.rc;
	t1 = wl_now_ns();
	close(l.dirfd);
	remove_files(dir, paths, files);
	printf("ops %llu wall_ns %llu ns_per_op %.1f\n", (unsigned long long)ops,
	       (unsigned long long)(t1 - t0), ops ? (double)(t1 - t0) / ops : 0.0);
	if (rc)
		fprintf(stderr, "bench_bare: some operations failed\n");
	free(buf);
	free(names);
	free(paths);
	return rc;
}
