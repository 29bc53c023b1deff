/*
 * testutil.c - the fake and the corrupting wl_io of testutil.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "testutil.h"
#include "wl_internal.h"

static int file_of(const char *path)
{
	const char *f = strrchr(path, 'f');
	int n = f ? atoi(f + 1) : -1;

	return n >= 0 && n < FAKE_FILES ? n : -1;
}

/* Is the watched lock held (by us: the fake tests are single-threaded
 * when they watch)? A normal mutex's trylock fails even for its owner. */
static void note_lock(struct fake_io *f)
{
	if (!f->watch)
		return;
	if (pthread_mutex_trylock(f->watch) == 0) {
		pthread_mutex_unlock(f->watch);
		f->outside_lock++;
	} else {
		f->in_lock++;
	}
}

static int fake_open(void *ctx, int dirfd, const char *path, int flags)
{
	struct fake_io *f = ctx;
	int n = file_of(path), fd;

	note_lock(f);
	if (n < 0) {
		errno = ENOENT;
		return -1;
	}
	if (f->on_open)
		f->on_open(f, path);
	pthread_mutex_lock(&f->mu);
	for (fd = FAKE_FD0; fd < FAKE_FDS && f->fd_file[fd] >= 0; fd++)
		;			/* lowest free fd, as the kernel does */
	if (fd == FAKE_FDS) {
		pthread_mutex_unlock(&f->mu);
		errno = EMFILE;
		return -1;
	}
	f->fd_file[fd] = n;
	f->opens[n]++;
	if (++f->nopen > f->max_open)
		f->max_open = f->nopen;
	pthread_mutex_unlock(&f->mu);
	return fd;
}

static int fake_close(void *ctx, int fd)
{
	struct fake_io *f = ctx;
	int ret = 0;

	note_lock(f);
	pthread_mutex_lock(&f->mu);
	if (fd < 0 || fd >= FAKE_FDS || f->fd_file[fd] < 0) {
		f->bad_closes++;
		ret = -1;
	} else {
		f->closes[f->fd_file[fd]]++;
		f->fd_file[fd] = -1;
		f->nopen--;
	}
	pthread_mutex_unlock(&f->mu);
	return ret;
}

static int fake_stat(void *ctx, int dirfd, const char *path, struct stat *st)
{
	struct fake_io *f = ctx;
	int n = file_of(path);

	note_lock(f);
	if (n < 0) {
		errno = ENOENT;
		return -1;
	}
	pthread_mutex_lock(&f->mu);
	f->stats[n]++;
	pthread_mutex_unlock(&f->mu);
	memset(st, 0, sizeof(*st));
	st->st_size = (off_t)f->file_size;
	return 0;
}

static ssize_t fake_pread(void *ctx, int fd, void *buf, size_t len, off_t off)
{
	struct fake_io *f = ctx;
	int n = fd >= FAKE_FILE_FD(0) ? fd - FAKE_FILE_FD(0) :
		fd >= 0 && fd < FAKE_FDS ? f->fd_file[fd] : -1;
	uint64_t blk = (uint64_t)off / 4096;

	if (n < 0 || n >= FAKE_FILES) {
		errno = EBADF;
		return -1;
	}
	if ((uint64_t)off >= f->file_size)
		return 0;
	if (len > f->file_size - (uint64_t)off)
		len = f->file_size - (uint64_t)off;
	wl_content_fill((unsigned)n, (uint64_t)off, buf, len);
	pthread_mutex_lock(&f->mu);
	if (blk < FAKE_BLOCKS)
		f->preads[n][blk]++;
	f->preads_total++;
	pthread_mutex_unlock(&f->mu);
	return (ssize_t)len;
}

void fake_io_init(struct fake_io *f, uint64_t file_size)
{
	memset(f, 0, sizeof(*f));
	pthread_mutex_init(&f->mu, NULL);
	f->file_size = file_size;
	for (int i = 0; i < FAKE_FDS; i++)
		f->fd_file[i] = -1;
	f->io = (struct wl_io){ .open = fake_open, .pread = fake_pread,
				.close = fake_close, .stat = fake_stat, .ctx = f };
}

unsigned fake_total(const unsigned *per_file)
{
	unsigned n = 0;

	for (int i = 0; i < FAKE_FILES; i++)
		n += per_file[i];
	return n;
}

static ssize_t flip_pread(void *ctx, int fd, void *buf, size_t len, off_t off)
{
	ssize_t n = pread(fd, buf, len, off);

	if (n > 0)
		((unsigned char *)buf)[n / 2] ^= 0x40;
	return n;
}

static int real_open(void *ctx, int dirfd, const char *name, int flags)
{
	return openat(dirfd, name, flags | O_NOFOLLOW | O_CLOEXEC);
}

static int real_close(void *ctx, int fd)
{
	return close(fd);
}

static int real_stat(void *ctx, int dirfd, const char *name, struct stat *st)
{
	return fstatat(dirfd, name, st, AT_SYMLINK_NOFOLLOW);
}

const struct wl_io flip_io = {
	.open = real_open, .pread = flip_pread, .close = real_close,
	.stat = real_stat,
};

void test_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

char test_proc_state(pid_t pid)
{
	char path[64], buf[512], *p, st = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (!(f = fopen(path, "re")))
		return 0;
	p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
	fclose(f);
	if (p)
		sscanf(p + 1, " %c", &st);
	return st;
}

char *test_dir_make(void)
{
	const char *tmp = getenv("TMPDIR");
	char *dir;

	if (asprintf(&dir, "%s/fctrace-test.XXXXXX", tmp && *tmp ? tmp : "/tmp") < 0)
		return NULL;
	if (!mkdtemp(dir)) {
		free(dir);
		return NULL;
	}
	return dir;
}

void test_dir_remove(char *dir)
{
	if (dir)
		rmdir(dir);
	free(dir);
}

bool test_dir_is_empty(const char *dir)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "test -z \"$(ls -A '%s')\"", dir);
	return system(cmd) == 0;
}

char *test_scratch;

int test_scratch_setup(void **state)
{
	(void)state;
	test_scratch = test_dir_make();
	return test_scratch ? 0 : -1;
}

int test_scratch_teardown(void **state)
{
	char cmd[600];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s/* %s/.[!.]*", test_scratch, test_scratch);
	if (system(cmd) != 0)
		return -1;
	test_dir_remove(test_scratch);
	test_scratch = NULL;
	return 0;
}

int test_scratch_teardown_empty(void **state)
{
	bool empty = test_dir_is_empty(test_scratch);

	return test_scratch_teardown(state) || !empty ? -1 : 0;
}

char *test_at(const char *name)
{
	static char paths[8][512];
	static unsigned next;
	char *p = paths[next++ % 8];

	snprintf(p, sizeof(paths[0]), "%s/%s", test_scratch, name);
	return p;
}

void test_signals_default(void)
{
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
}
