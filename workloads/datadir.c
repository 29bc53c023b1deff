/*
 * datadir.c - the data files: --dir checked and opened (O_NOFOLLOW), a
 * fresh directory made in it as mkdtemp would, but relative to its fd,
 * files f000000.. created there with O_EXCL|O_NOFOLLOW, and at the end
 * the removal of exactly those files and that directory (unlinkat
 * relative to the directories' fds; never a recursive delete).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/random.h>
#include <sys/stat.h>
#include "wl_internal.h"

#define FILL_BUF (64u << 10)

static int dir_error(const char *dir, const char *why)
{
	fprintf(stderr, "fctrace: --dir %s: %s\n", dir, why);
	return -EINVAL;
}

static int refuse(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Can fctrace own a directory with this stat: a directory, owned by
 * root or by us, and writable by others only with the sticky bit? */
static int dir_stat_check(const struct stat *st, char *why, size_t len)
{
	if (!S_ISDIR(st->st_mode))
		return refuse(why, len, "is not a directory");
	/* another user who may rename entries here could swap fctrace's
	 * directory for a link between its creation and its removal */
	if ((st->st_mode & (S_IWGRP | S_IWOTH)) && !(st->st_mode & S_ISVTX))
		return refuse(why, len, "is writable by others without the sticky bit "
			      "(/tmp has it); give a directory only you can write");
	/* its owner may always rename entries in it, sticky bit or not */
	if (st->st_uid != 0 && st->st_uid != geteuid())
		return refuse(why, len, "belongs to uid %u, not to root or to you",
			      (unsigned)st->st_uid);
	return 0;
}

/* dir without trailing slashes, which would make a final symlink be
 * followed ("link/" is the directory it points to) */
static const char *no_trailing_slash(const char *dir, char *buf, size_t len)
{
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (!dir[n] || n >= len)
		return dir;
	memcpy(buf, dir, n);
	buf[n] = '\0';
	return buf;
}

int wl_dir_check(const char *dir, char *why, size_t len)
{
	char buf[4096];
	struct stat st;

	if (!dir || !*dir)
		return refuse(why, len, "must name a directory");
	dir = no_trailing_slash(dir, buf, sizeof(buf));
	if (lstat(dir, &st))
		return refuse(why, len, "%s", strerror(errno));
	if (S_ISLNK(st.st_mode))
		return refuse(why, len, "is a symbolic link; give the real directory");
	return dir_stat_check(&st, why, len);
}

/*
 * --dir, opened without following a final symlink, and checked on the
 * directory actually opened (fstat), not on whatever the path named a
 * moment before: from here on everything is relative to this fd.
 */
static int open_parent(struct wl_run *run)
{
	const char *dir = run->cfg.dir;
	char why[160], buf[4096];
	struct stat st;
	int fd;

	if (!dir || !*dir)
		return dir_error("''", "must name a directory");
	fd = open(no_trailing_slash(dir, buf, sizeof(buf)),
		  O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		int err = errno;

		if (wl_dir_check(dir, why, sizeof(why)))	/* say why in words */
			return dir_error(dir, why);
		return dir_error(dir, strerror(err));
	}
	if (fstat(fd, &st))
		snprintf(why, sizeof(why), "%s", strerror(errno));
	else if (!dir_stat_check(&st, why, sizeof(why))) {
		run->parent_fd = fd;
		return 0;
	}
	close(fd);
	return dir_error(dir, why);
}

/* mkdtemp, relative to the parent's fd: fctrace.XXXXXX, mode 0700 */
static int mkdtemp_at(int parent_fd, char *name)
{
	static const char chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	unsigned char rnd[6];

	for (int tries = 0; tries < 100; tries++) {
		if (getrandom(rnd, sizeof(rnd), 0) != sizeof(rnd))
			return -EIO;
		strcpy(name, "fctrace.");
		for (size_t i = 0; i < sizeof(rnd); i++)
			name[8 + i] = chars[rnd[i] % (sizeof(chars) - 1)];
		name[8 + sizeof(rnd)] = '\0';
		if (!mkdirat(parent_fd, name, 0700))
			return 0;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

static int make_dir(struct wl_run *run)
{
	const char *dir = run->cfg.dir;
	const char *sep = dir[strlen(dir) - 1] == '/' ? "" : "/";
	char name[16];
	int err;

	run->dir[0] = 0;		/* nothing made yet: nothing to remove */
	if (strlen(dir) + strlen(sep) + strlen("fctrace.XXXXXX") >= sizeof(run->dir))
		return dir_error(dir, "path too long");
	if ((err = mkdtemp_at(run->parent_fd, name))) {
		dir_error(dir, strerror(-err));
		return err;
	}
	snprintf(run->dir, sizeof(run->dir), "%s%s%s", dir, sep, name);
	run->dir_fd = openat(run->parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (run->dir_fd < 0)
		return dir_error(run->dir, strerror(errno));
	return 0;
}

/* Write file i's known content; keep its fd for cold/pressure. */
static int make_file(struct wl_run *run, unsigned i, void *buf)
{
	char name[16];
	uint64_t off, size = run->cfg.file_size;
	int fd;

	snprintf(name, sizeof(name), "f%06u", i);
	fd = openat(run->dir_fd, name,
		    O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	run->fds[i] = fd;
	run->created = i + 1;
	if (asprintf(&run->paths[i], "%s/%s", run->dir, name) < 0)
		return -ENOMEM;
	for (off = 0; off < size; off += FILL_BUF) {
		size_t n = size - off < FILL_BUF ? size - off : FILL_BUF;

		wl_content_fill(i, off, buf, n);
		if (pwrite(fd, buf, n, off) != (ssize_t)n)
			return errno ? -errno : -EIO;
	}
	/* dirty pages cannot be dropped: cold and pressure need them clean */
	if ((run->cfg.cache == WL_CACHE_COLD || run->cfg.pressure > 0) &&
	    fdatasync(fd))
		return -errno;
	return 0;
}

int wl_datadir_create(struct wl_run *run)
{
	void *buf;
	int err;

	run->parent_fd = run->dir_fd = -1;
	if ((err = open_parent(run)) || (err = make_dir(run)))
		return err;
	run->paths = calloc(run->nfiles, sizeof(*run->paths));
	run->fds = malloc(run->nfiles * sizeof(*run->fds));
	buf = malloc(FILL_BUF);
	if (!run->paths || !run->fds || !buf) {
		free(buf);
		fprintf(stderr, "fctrace: out of memory for %u data files\n", run->nfiles);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < run->nfiles && !err; i++)
		err = make_file(run, i, buf);
	free(buf);
	if (err)
		fprintf(stderr, "fctrace: writing data file %u in %s: %s\n",
			run->created ? run->created - 1 : 0, run->dir, strerror(-err));
	return err;
}

/* Remove what wl_datadir_create made, and nothing else. */
void wl_datadir_remove(struct wl_run *run)
{
	char name[16];

	for (unsigned i = 0; i < run->created; i++) {
		close(run->fds[i]);
		snprintf(name, sizeof(name), "f%06u", i);
		if (unlinkat(run->dir_fd, name, 0) && errno != ENOENT)
			fprintf(stderr, "fctrace: removing %s/%s: %s\n", run->dir,
				name, strerror(errno));
		free(run->paths[i]);
	}
	run->created = 0;
	if (run->dir_fd >= 0)
		close(run->dir_fd);
	if (run->dir[0] && unlinkat(run->parent_fd, strrchr(run->dir, '/') + 1,
				    AT_REMOVEDIR))
		fprintf(stderr, "fctrace: removing %s: %s\n", run->dir, strerror(errno));
	if (run->parent_fd >= 0)
		close(run->parent_fd);
	run->dir_fd = run->parent_fd = -1;
	free(run->paths);
	free(run->fds);
	run->paths = NULL;
	run->fds = NULL;
}
