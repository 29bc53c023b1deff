/*
 * dirsafe.c - may fctrace own a data directory in --dir? The whole path
 * is checked as sudo and OpenSSH check secure paths: the directory and
 * every one above it owned by root or by us, and writable by nobody else
 * unless sticky, each checked on the directory actually opened (walked
 * one component at a time, never through a link). Then: does the data
 * set fit, and can a cold cache or pressure really drop its pages?
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/vfs.h>
#include "wl_internal.h"

static int refuse(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Can fctrace trust a directory with this stat: a directory, owned by
 * root or by us, and writable by others only with the sticky bit? what
 * is "" for --dir itself, else the ancestor's path. */
static int dir_stat_check(const struct stat *st, const char *what, char *why, size_t len)
{
	const char *sep = *what ? ": " : "";

	if (!S_ISDIR(st->st_mode))
		return refuse(why, len, "%s%sis not a directory", what, sep);
	/* another user who may rename entries here could swap fctrace's
	 * directory, or one above it, for a link or a copy of their own */
	if ((st->st_mode & (S_IWGRP | S_IWOTH)) && !(st->st_mode & S_ISVTX))
		return refuse(why, len, "%s%sis writable by others without the sticky bit "
			      "(/tmp has it); give a directory only you can write", what, sep);
	/* its owner may always rename entries in it, sticky bit or not */
	if (st->st_uid != 0 && st->st_uid != geteuid())
		return refuse(why, len, "%s%sbelongs to uid %u, not to root or to you",
			      what, sep, (unsigned)st->st_uid);
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

/* The next directory down from fd, opened without following a link and
 * checked on what was opened; path is its whole path, for the message. */
static int open_step(int fd, const char *name, const char *path, bool last,
		     char *why, size_t len)
{
	int flags = (last ? O_RDONLY : O_PATH) | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
	int next = openat(fd, name, flags);
	struct stat st;

	if (next < 0)
		return refuse(why, len, "%s: %s", path, errno == ELOOP ?
			      "changed into a symbolic link while checked" : strerror(errno));
	if (fstat(next, &st)) {
		close(next);
		return refuse(why, len, "%s: %s", path, strerror(errno));
	}
	if (dir_stat_check(&st, last ? "" : path, why, len)) {
		close(next);
		return -EINVAL;
	}
	return next;
}

/* Walk the resolved path from / down, each component checked. */
static int walk(char *real, char *why, size_t len)
{
	char *name = real + 1, *slash;
	int fd = open_step(AT_FDCWD, "/", "/", !*name, why, len);

	while (fd >= 0 && *name) {
		int next;

		slash = strchr(name, '/');
		if (slash)
			*slash = '\0';
		next = open_step(fd, name, real, !slash, why, len);
		close(fd);
		fd = next;
		if (!slash)
			break;
		*slash = '/';
		name = slash + 1;
	}
	return fd;
}

/* Is name in dirfd, not followed if a link, the file id says? */
bool wl_same_file(int dirfd, const char *name, const struct wl_file_id *id)
{
	struct stat st;

	return !fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) &&
	       st.st_dev == id->dev && st.st_ino == id->ino;
}

int wl_dir_open(const char *dir, char *why, size_t len)
{
	char buf[PATH_MAX], *real;
	struct stat st;
	int fd;

	if (!dir || !*dir)
		return refuse(why, len, "must name a directory");
	dir = no_trailing_slash(dir, buf, sizeof(buf));
	if (lstat(dir, &st))
		return refuse(why, len, "%s", strerror(errno));
	if (S_ISLNK(st.st_mode))
		return refuse(why, len, "is a symbolic link; give the real directory");
	if (!S_ISDIR(st.st_mode))
		return refuse(why, len, "is not a directory");
	/* links above it are resolved here, and what they lead to is walked */
	if (!(real = realpath(dir, NULL)))
		return refuse(why, len, "%s", strerror(errno));
	fd = walk(real, why, len);
	free(real);
	return fd;
}

int wl_dir_check(const char *dir, char *why, size_t len)
{
	int fd = wl_dir_open(dir, why, len);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

static double mib(uint64_t bytes)
{
	return (double)bytes / (1 << 20);
}

/* tmpfs and ramfs keep every page in memory: fadvise cannot drop them */
static const char *memory_fs(int fd)
{
	struct statfs sf;

	if (fstatfs(fd, &sf))
		return NULL;
	if (sf.f_type == TMPFS_MAGIC)
		return "tmpfs";
	if (sf.f_type == RAMFS_MAGIC)
		return "ramfs";
	return NULL;
}

int wl_dir_fit_check(int fd, const struct wl_config *cfg, char *why, size_t len)
{
	const char *mem = memory_fs(fd);
	struct statvfs sv;
	uint64_t need, inodes, avail, favail;

	if (mem && (cfg->cache == WL_CACHE_COLD || cfg->pressure > 0))
		return refuse(why, len, "is on %s, whose pages stay in memory: %s cannot "
			      "drop them; give a --dir on a disk filesystem", mem,
			      cfg->cache == WL_CACHE_COLD ? "--cache cold" : "--pressure");
	if (fstatvfs(fd, &sv))
		return 0;	/* unknown: the writes will tell */
	need = wl_bytes_needed(cfg, sv.f_frsize);
	inodes = wl_inodes_needed(cfg);
	/* root may use the blocks reserved for it, as its writes will */
	avail = (uint64_t)(geteuid() ? sv.f_bavail : sv.f_bfree) * sv.f_frsize;
	favail = geteuid() ? sv.f_favail : sv.f_ffree;
	if (need > avail) {
		refuse(why, len, "no space for the data files: they need %.1f MiB, %.1f MiB "
		       "is free (fewer --files or a smaller --file-size)", mib(need), mib(avail));
		return -ENOSPC;
	}
	if (sv.f_files && inodes > favail) {
		refuse(why, len, "no space for the data files: they need %llu inodes, %llu "
		       "are free", (unsigned long long)inodes, (unsigned long long)favail);
		return -ENOSPC;
	}
	return 0;
}
