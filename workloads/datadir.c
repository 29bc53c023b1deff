/*
 * datadir.c - the data files: a fresh mkdtemp directory under --dir,
 * files f000000.. created there with O_EXCL|O_NOFOLLOW, and at the end
 * the removal of exactly those files and that directory (unlinkat
 * relative to the directory's fd; never a recursive delete).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
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

int wl_dir_check(const char *dir, char *why, size_t len)
{
	struct stat st;

	if (!dir || !*dir)
		return refuse(why, len, "must name a directory");
	if (lstat(dir, &st))
		return refuse(why, len, "%s", strerror(errno));
	if (S_ISLNK(st.st_mode))
		return refuse(why, len, "is a symbolic link; give the real directory");
	if (!S_ISDIR(st.st_mode))
		return refuse(why, len, "is not a directory");
	/* another user who may rename entries here could swap fctrace's
	 * directory for a link between its creation and its removal */
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX))
		return refuse(why, len, "is writable by others without the sticky bit "
			      "(/tmp has it); give a directory only you can write");
	if (st.st_uid != 0 && st.st_uid != geteuid())
		return refuse(why, len, "belongs to uid %u, not to root or to you",
			      (unsigned)st.st_uid);
	return 0;
}

/* --dir must be a directory fctrace can safely own (wl_dir_check). */
static int open_parent(struct wl_run *run)
{
	const char *dir = run->cfg.dir;
	char why[160];

	if (wl_dir_check(dir, why, sizeof(why)))
		return dir_error(dir, why);
	run->parent_fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (run->parent_fd < 0)
		return dir_error(dir, strerror(errno));
	return 0;
}

static int make_dir(struct wl_run *run)
{
	const char *dir = run->cfg.dir;
	int n = snprintf(run->dir, sizeof(run->dir), "%s%sfctrace.XXXXXX", dir,
			 dir[strlen(dir) - 1] == '/' ? "" : "/");

	if (n >= (int)sizeof(run->dir)) {
		run->dir[0] = 0;	/* nothing made: nothing to remove */
		return dir_error(dir, "path too long");
	}
	if (!mkdtemp(run->dir)) {
		int err = errno;

		run->dir[0] = 0;
		dir_error(dir, strerror(err));
		return -err;
	}
	run->dir_fd = openat(run->parent_fd, strrchr(run->dir, '/') + 1,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
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
