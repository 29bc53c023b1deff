/*
 * datadir.c - the data files: --dir opened as a secure path (dirsafe.c),
 * the data directories of dead runs reaped (dirreap.c), a fresh directory
 * made in it as mkdtemp would but relative to its fd, an owner marker in
 * it flock'ed for the whole run, files f000000.. created there with
 * O_EXCL|O_NOFOLLOW, and at the end the removal of exactly those files
 * and that directory: by identity (the device and inode recorded at
 * creation, checked through the directory's fd), never by name alone,
 * never a recursive delete.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include "wl_internal.h"

#define FILL_BUF (64u << 10)

static int dir_error(const char *dir, const char *why, int err)
{
	fprintf(stderr, "fctrace: --dir %s: %s\n", dir, why);
	return err;
}

/* --dir, walked and checked (dirsafe.c); reaped; its space checked: from
 * here on everything is relative to this fd. */
static int open_parent(struct wl_run *run)
{
	const char *dir = run->cfg.dir;
	char why[200];
	unsigned reaped;
	int fd, err;

	if (!dir || !*dir)
		return dir_error("''", "must name a directory", -EINVAL);
	if ((fd = wl_dir_open(dir, why, sizeof(why))) < 0)
		return dir_error(dir, why, -EINVAL);
	run->parent_fd = fd;
	if ((reaped = wl_reap_stale(fd)))
		fprintf(stderr, "fctrace: removed %u data director%s left in %s by runs "
			"that died\n", reaped, reaped == 1 ? "y" : "ies", dir);
	if ((err = wl_dir_fit_check(fd, &run->cfg, why, sizeof(why))))
		return dir_error(dir, why, err);
	return 0;
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

static int file_id(int fd, struct wl_file_id *id)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	id->dev = st.st_dev;
	id->ino = st.st_ino;
	return 0;
}

/*
 * The owner marker: made under a temporary name, locked, then renamed
 * into place, so a reaper never sees the marker unlocked while its
 * owner lives. The lock goes with the process, however it ends.
 */
static int mark_owner(struct wl_run *run)
{
	static const char tmp[] = WL_OWNER_MARK ".new";
	int fd = openat(run->dir_fd, tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			0600);

	if (fd < 0)
		return -errno;
	run->lock_fd = fd;
	if (flock(fd, LOCK_EX | LOCK_NB) ||
	    renameat(run->dir_fd, tmp, run->dir_fd, WL_OWNER_MARK))
		return -errno;
	return 0;
}

static int make_dir(struct wl_run *run)
{
	const char *dir = run->cfg.dir;
	const char *sep = dir[strlen(dir) - 1] == '/' ? "" : "/";
	char name[16];
	int err;

	run->dir_name[0] = 0;		/* nothing made yet: nothing to remove */
	if (strlen(dir) + strlen(sep) + strlen("fctrace.XXXXXX") >= sizeof(run->dir))
		return dir_error(dir, "path too long", -EINVAL);
	if ((err = mkdtemp_at(run->parent_fd, name)))
		return dir_error(dir, strerror(-err), err);
	snprintf(run->dir, sizeof(run->dir), "%s%s%s", dir, sep, name);
	run->dir_fd = openat(run->parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (run->dir_fd < 0)
		return dir_error(run->dir, strerror(errno), -errno);
	if ((err = file_id(run->dir_fd, &run->dir_id)))
		return dir_error(run->dir, strerror(-err), err);
	snprintf(run->dir_name, sizeof(run->dir_name), "%s", name);
	if ((err = mark_owner(run)))
		return dir_error(run->dir, strerror(-err), err);
	return 0;
}

/* pwrite all of it: a short write is retried, so a full disk says ENOSPC */
static int write_all(int fd, const void *buf, size_t n, uint64_t off)
{
	while (n) {
		ssize_t w = pwrite(fd, buf, n, (off_t)off);

		if (w < 0)
			return -errno;
		if (w == 0)
			return -EIO;
		buf = (const char *)buf + w;
		n -= (size_t)w;
		off += (uint64_t)w;
	}
	return 0;
}

/* Write file i's known content; keep its fd for cold/pressure. */
static int make_file(struct wl_run *run, unsigned i, void *buf)
{
	uint64_t off, size = run->cfg.file_size;
	int fd, err;

	snprintf(run->names[i], WL_NAME_LEN, "f%06u", i);
	fd = openat(run->dir_fd, run->names[i],
		    O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	run->fds[i] = fd;
	run->created = i + 1;
	if ((err = file_id(fd, &run->ids[i])))
		return err;
	for (off = 0; off < size; off += FILL_BUF) {
		size_t n = size - off < FILL_BUF ? size - off : FILL_BUF;

		wl_content_fill(i, off, buf, n);
		if ((err = write_all(fd, buf, n, off)))
			return err;
	}
	/* dirty pages cannot be dropped: cold and pressure need them clean */
	if ((run->cfg.cache == WL_CACHE_COLD || run->cfg.pressure > 0) &&
	    fdatasync(fd))
		return -errno;
	return 0;
}

/* Are file 0's pages resident after being dropped? The proof, beyond the
 * filesystem type, that cold and pressure can do what they say (an
 * overlay on tmpfs, say, cannot). File 0 is read back in for pressure. */
static int check_droppable(struct wl_run *run, void *buf)
{
	uint64_t size = run->cfg.file_size, left;

	if (run->cfg.cache != WL_CACHE_COLD && !(run->cfg.pressure > 0))
		return 0;
	posix_fadvise(run->fds[0], 0, 0, POSIX_FADV_DONTNEED);
	left = wl_resident_pages(run->fds[0], size);
	for (uint64_t off = 0; run->cfg.cache == WL_CACHE_WARM && off < size; off += FILL_BUF)
		if (pread(run->fds[0], buf, FILL_BUF, (off_t)off) < 0)
			break;
	if (!left)
		return 0;
	fprintf(stderr, "fctrace: --dir %s: its pages stay in memory after being dropped "
		"(%llu left): %s cannot drop them; give a --dir on a disk filesystem\n",
		run->cfg.dir, (unsigned long long)left,
		run->cfg.cache == WL_CACHE_COLD ? "--cache cold" : "--pressure");
	return -EINVAL;
}

static int make_files(struct wl_run *run)
{
	void *buf = malloc(FILL_BUF);
	int err = 0;

	run->names = calloc(run->nfiles, sizeof(*run->names));
	run->ids = calloc(run->nfiles, sizeof(*run->ids));
	run->fds = malloc(run->nfiles * sizeof(*run->fds));
	if (!run->names || !run->ids || !run->fds || !buf) {
		free(buf);
		fprintf(stderr, "fctrace: out of memory for %u data files\n", run->nfiles);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < run->nfiles && !err; i++)
		err = make_file(run, i, buf);
	if (err)
		fprintf(stderr, "fctrace: writing data file %u in %s: %s\n",
			run->created ? run->created - 1 : 0, run->dir, strerror(-err));
	else
		err = check_droppable(run, buf);
	free(buf);
	return err;
}

int wl_datadir_create(struct wl_run *run, const struct wl_hooks *hooks)
{
	int err;

	run->parent_fd = run->dir_fd = run->lock_fd = -1;
	if ((err = open_parent(run)) || (err = make_dir(run)))
		return err;
	if (hooks && hooks->dir_made)
		hooks->dir_made(hooks->arg, run->dir);
	return make_files(run);
}

/* The data files, by identity (the order of the ids: found by bsearch) */
static int id_cmp(const void *a, const void *b)
{
	const struct wl_file_id *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

/*
 * Some file was not where it was made: look for fctrace's own files under
 * whatever names they have now, in the data directory only, and remove
 * those (and nothing else). Returns how many were removed.
 */
static unsigned remove_moved(struct wl_run *run, struct wl_file_id *left, size_t n)
{
	int fd = openat(run->dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	unsigned removed = 0;
	struct dirent *e;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	qsort(left, n, sizeof(*left), id_cmp);
	while ((e = readdir(d))) {
		struct stat st;
		struct wl_file_id id;

		if (fstatat(run->dir_fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode))
			continue;
		id = (struct wl_file_id){ st.st_dev, st.st_ino };
		if (bsearch(&id, left, n, sizeof(*left), id_cmp) &&
		    !unlinkat(run->dir_fd, e->d_name, 0))
			removed++;
	}
	closedir(d);
	return removed;
}

static void remove_files(struct wl_run *run)
{
	struct wl_file_id *left = malloc((run->created + 1) * sizeof(*left));
	size_t nleft = 0;

	for (unsigned i = 0; i < run->created; i++) {
		close(run->fds[i]);
		if (wl_same_file(run->dir_fd, run->names[i], &run->ids[i]) &&
		    !unlinkat(run->dir_fd, run->names[i], 0))
			continue;
		if (left)
			left[nleft++] = run->ids[i];	/* moved, or replaced */
	}
	if (nleft && remove_moved(run, left, nleft) < nleft)
		fprintf(stderr, "fctrace: %zu data files in %s were moved out or removed by "
			"someone else\n", nleft, run->dir);
	free(left);
	run->created = 0;
}

/* The marker goes last, while the lock still says the directory is ours. */
static void remove_dir(struct wl_run *run)
{
	struct wl_file_id mark;

	if (run->lock_fd >= 0 && !file_id(run->lock_fd, &mark) &&
	    wl_same_file(run->dir_fd, WL_OWNER_MARK, &mark))
		unlinkat(run->dir_fd, WL_OWNER_MARK, 0);
	else
		unlinkat(run->dir_fd, WL_OWNER_MARK ".new", 0);	/* lock never taken */
	if (!wl_same_file(run->parent_fd, run->dir_name, &run->dir_id))
		fprintf(stderr, "fctrace: not removing %s: it is no longer the directory "
			"fctrace made\n", run->dir);
	else if (unlinkat(run->parent_fd, run->dir_name, AT_REMOVEDIR))
		fprintf(stderr, "fctrace: leaving %s: %s\n", run->dir, errno == ENOTEMPTY ?
			"it holds files fctrace did not make" : strerror(errno));
}

/* Remove what wl_datadir_create made, and nothing else. */
void wl_datadir_remove(struct wl_run *run)
{
	if (run->dir_fd >= 0) {
		remove_files(run);
		if (run->dir_name[0])
			remove_dir(run);
		close(run->dir_fd);
	}
	if (run->lock_fd >= 0)
		close(run->lock_fd);
	if (run->parent_fd >= 0)
		close(run->parent_fd);
	run->dir_fd = run->parent_fd = run->lock_fd = -1;
	free(run->names);
	free(run->ids);
	free(run->fds);
	run->names = NULL;
	run->ids = NULL;
	run->fds = NULL;
}
