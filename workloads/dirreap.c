/*
 * dirreap.c - a run killed by SIGKILL (or a crash) leaves its data
 * directory behind; the next run in the same --dir removes it. Only a
 * directory proven to be a dead fctrace run's is touched: named
 * fctrace.XXXXXX, a real directory of mode 0700 owned by us, holding the
 * owner marker (a regular file of ours, one link) whose flock nobody
 * holds. A live run holds that lock from before the marker has its name
 * until after it is gone; nobody but its owner (root, or us) could have
 * made either. Inside, only f000000-style regular files and the marker
 * are removed; anything else keeps the directory where it is.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include "wl_internal.h"

static bool run_dir_name(const char *n)
{
	if (strncmp(n, "fctrace.", 8) || strlen(n) != 14)
		return false;
	for (int i = 8; i < 14; i++)
		if (!isalnum((unsigned char)n[i]))
			return false;
	return true;
}

static bool data_file_name(const char *n)
{
	if (n[0] != 'f' || strlen(n) != 7)
		return false;
	for (int i = 1; i < 7; i++)
		if (!isdigit((unsigned char)n[i]))
			return false;
	return true;
}

/* fd's stat says: ours, and the kind and mode fctrace makes */
static bool ours(int fd, mode_t type, struct stat *st)
{
	return !fstat(fd, st) && (st->st_mode & S_IFMT) == type &&
	       st->st_uid == geteuid() &&
	       (type != S_IFDIR || (st->st_mode & 07777) == 0700) &&
	       (type != S_IFREG || st->st_nlink == 1);
}

/* The marker's lock, if it is free: the owner is gone. -1 otherwise. */
static int dead_owner_lock(int dfd)
{
	int fd = openat(dfd, WL_OWNER_MARK, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;

	if (fd < 0)
		return -1;
	if (!ours(fd, S_IFREG, &st) || flock(fd, LOCK_EX | LOCK_NB)) {
		close(fd);
		return -1;	/* not a marker we made, or its owner lives */
	}
	return fd;
}

/* Remove the data files and the marker in dfd; the lock is held. */
static void empty_dir(int dfd)
{
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((e = readdir(d))) {
		struct stat st;

		if (!data_file_name(e->d_name) ||
		    fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
			continue;
		unlinkat(dfd, e->d_name, 0);
	}
	closedir(d);
	unlinkat(dfd, WL_OWNER_MARK, 0);
}

/* One candidate: 1 if it was a dead run's and is gone now. */
static unsigned reap_one(int parent_fd, const char *name)
{
	int dfd = openat(parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct wl_file_id id;
	struct stat st;
	unsigned gone = 0;
	int lock;

	if (dfd < 0)
		return 0;
	if (ours(dfd, S_IFDIR, &st) && (lock = dead_owner_lock(dfd)) >= 0) {
		empty_dir(dfd);
		id = (struct wl_file_id){ st.st_dev, st.st_ino };
		/* rmdir refuses a directory that still holds anything else */
		gone = wl_same_file(parent_fd, name, &id) &&
		       !unlinkat(parent_fd, name, AT_REMOVEDIR);
		close(lock);
	}
	close(dfd);
	return gone;
}

unsigned wl_reap_stale(int parent_fd)
{
	int fd = openat(parent_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	unsigned n = 0;
	struct dirent *e;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	while ((e = readdir(d)))
		if (run_dir_name(e->d_name))
			n += reap_one(parent_fd, e->d_name);
	closedir(d);
	return n;
}
