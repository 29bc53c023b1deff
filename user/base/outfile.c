/*
 * outfile.c - report files that cannot be redirected or left half written.
 *
 * A root fctrace must not write through a symlink another user planted
 * (fs.protected_symlinks is 0 on many machines and containers). So:
 *  - the destination's own name is never followed: the report goes into a
 *    new temporary made with O_CREAT|O_EXCL|O_NOFOLLOW beside it, and
 *    rename() puts it in place, replacing a symlink (anyone's, ours too)
 *    rather than writing where it points;
 *  - the directories on the way are walked one name at a time, and a
 *    symlink among them is followed only where the kernel's
 *    protected_symlinks rule would follow it: not one in a sticky
 *    world-writable directory owned by neither us nor that directory's
 *    owner;
 *  - nothing but a regular file is ever written: a destination that is
 *    a FIFO, a device, a socket or a directory - or a link to one - is
 *    refused, in one line, before any work (outfile_check) and again at
 *    the open. Another user's FIFO at /tmp/report.json would otherwise
 *    be read as root writes into it, or hold root until someone reads,
 *    whatever fs.protected_fifos says (it only guards O_CREAT opens).
 *    Standard output ("-") is the caller's own and stays allowed.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include "base/outfile.h"

#define MAX_LINKS	40	/* the kernel's own limit on links in one lookup */

static bool stdout_reported;	/* a failed "-" output already said why */

static int say(const struct outfile *out, const char *why)
{
	fprintf(stderr, "fctrace: %s %s: %s\n", out->opt, out->path, why);
	return -1;
}

/* The link protected_symlinks would refuse: in a sticky world-writable
 * directory, owned by neither the follower nor the directory's owner. */
static bool link_untrusted(const struct stat *dir, const struct stat *link)
{
	return (dir->st_mode & S_ISVTX) && (dir->st_mode & S_IWOTH) &&
	       link->st_uid != geteuid() && link->st_uid != dir->st_uid;
}

/* Replace the name just taken from rest (at *p) by a link's target. */
static int splice_link(int *fd, const char *name, char *rest, char **p)
{
	char target[PATH_MAX], joined[PATH_MAX];
	ssize_t len = readlinkat(*fd, name, target, sizeof(target) - 1);

	if (len < 0)
		return -errno;
	target[len] = '\0';
	if ((size_t)snprintf(joined, sizeof(joined), "%s/%s", target, *p) >= sizeof(joined))
		return -ENAMETOOLONG;
	strcpy(rest, joined);
	*p = rest;
	if (target[0] == '/') {
		close(*fd);
		if ((*fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
			return -errno;
	}
	return 0;
}

/* One step of the walk: enter name from *fd (a directory or a link). */
static int step(int *fd, const char *name, char *rest, char **p, int *links)
{
	struct stat st, dir;
	int next;

	if (fstatat(*fd, name, &st, AT_SYMLINK_NOFOLLOW))
		return -errno;
	if (S_ISLNK(st.st_mode)) {
		if (fstat(*fd, &dir))
			return -errno;
		if (link_untrusted(&dir, &st))
			return -EPERM;
		if (++*links > MAX_LINKS)
			return -ELOOP;
		return splice_link(fd, name, rest, p);
	}
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	/* O_NOFOLLOW: a directory swapped for a link since the stat fails */
	next = openat(*fd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (next < 0)
		return -errno;
	close(*fd);
	*fd = next;
	return 0;
}

/* An O_PATH fd of directory dir, reached as above; -errno, -EPERM for an
 * untrusted link. */
static int open_dir(const char *dir)
{
	char rest[PATH_MAX], name[NAME_MAX + 1], *p = rest;
	int fd, links = 0, err = 0;

	if (strlen(dir) >= sizeof(rest))
		return -ENAMETOOLONG;
	strcpy(rest, dir);
	fd = open(dir[0] == '/' ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (!err) {
		size_t len;

		p += strspn(p, "/");
		if (!*p)
			break;
		len = strcspn(p, "/");
		if (len > NAME_MAX) {
			err = -ENAMETOOLONG;
			break;
		}
		memcpy(name, p, len);
		name[len] = '\0';
		p += len;
		if (strcmp(name, "."))
			err = step(&fd, name, rest, &p, &links);
	}
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

static int open_temporary(struct outfile *out)
{
	static unsigned seq;

	for (int tries = 0; tries < 100; tries++) {
		unsigned r = (unsigned)getpid() * 2654435761u ^ (unsigned)time(NULL) ^ ++seq * 40503u;
		int fd;

		snprintf(out->tmp, sizeof(out->tmp), ".%.200s.%08x.tmp", out->base, r);
		fd = openat(out->dirfd, out->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			    O_CLOEXEC, 0666);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST)
			break;
	}
	out->tmp[0] = '\0';	/* that name is not ours to remove */
	return -1;
}

/* What an existing destination is, when it is not something a report
 * may replace: NULL for nothing there, a regular file, or a link to one
 * (or to nothing); else "is a FIFO", "is a link to a device"... The link
 * is looked through with stat, which opens nothing. A link into /proc
 * (/dev/stdout, /dev/fd/N) is refused too: it stands for an open file,
 * and replacing it would replace /dev/stdout itself. */
static const char *not_a_file(int dirfd, const char *name)
{
	static char what[128];
	char target[8];
	struct stat st;
	ssize_t len;
	bool link;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return NULL;
	link = S_ISLNK(st.st_mode);
	if (link && (len = readlinkat(dirfd, name, target, sizeof(target))) >= 6 &&
	    !memcmp(target, "/proc/", 6))
		return "is a link into /proc, not a file (use - for standard output)";
	if (link && fstatat(dirfd, name, &st, 0))
		return NULL;	/* a dangling link: replaced */
	if (S_ISREG(st.st_mode))
		return NULL;
	snprintf(what, sizeof(what), "is %s%s, not a regular file (use - for standard output)",
		 link ? "a link to " : "", S_ISFIFO(st.st_mode) ? "a FIFO" :
		 S_ISCHR(st.st_mode) ? "a character device" : S_ISBLK(st.st_mode) ?
		 "a block device" : S_ISSOCK(st.st_mode) ? "a socket" : S_ISDIR(st.st_mode) ?
		 "a directory" : "not a file");
	return what;
}

/* Close what is open and remove the temporary if it is still there. */
static void discard(struct outfile *out)
{
	if (out->fd >= 0)
		close(out->fd);
	if (out->tmp[0])
		unlinkat(out->dirfd, out->tmp, 0);
	if (out->dirfd >= 0)
		close(out->dirfd);
	out->fd = out->dirfd = -1;
	out->tmp[0] = '\0';
}

static void split(const char *path, char *dir, char *base)
{
	char a[PATH_MAX], b[PATH_MAX];

	snprintf(a, sizeof(a), "%s", path);
	snprintf(b, sizeof(b), "%s", path);
	snprintf(dir, PATH_MAX, "%s", dirname(a));
	snprintf(base, NAME_MAX + 1, "%s", basename(b));
}

static const char *dir_refusal(int err)
{
	return err == -EPERM ? "a directory on its path is another user's symlink in a sticky "
			       "world-writable directory (not followed)" : strerror(-err);
}

int outfile_check(const char *opt, const char *path)
{
	struct outfile out = { .opt = opt, .path = path };
	char dir[PATH_MAX];
	const char *what;
	int fd, ok;

	if (!path || !strcmp(path, "-") || strlen(path) >= PATH_MAX)
		return 0;	/* preflight_output has judged those */
	split(path, dir, out.base);
	if ((fd = open_dir(dir)) < 0)
		return say(&out, dir_refusal(fd)) ? 2 : 0;
	if ((what = not_a_file(fd, out.base))) {
		close(fd);
		return say(&out, what) ? 2 : 0;
	}
	/* the temporary and the rename need the directory, even for a file
	 * that exists and is writable */
	ok = !faccessat(fd, "", W_OK | X_OK, AT_EACCESS | AT_EMPTY_PATH) || errno == EINVAL;
	close(fd);
	return ok ? 0 : say(&out, "its directory is not writable (the report is written "
			    "beside it, then renamed)") ? 2 : 0;
}

FILE *outfile_open(struct outfile *out, const char *opt, const char *path)
{
	char dir[PATH_MAX];
	const char *what;
	int err;

	memset(out, 0, sizeof(*out));
	out->opt = opt;
	out->path = path;
	out->dirfd = -1;
	out->fd = -1;
	if (strcmp(path, "-")) {
		if (strlen(path) >= PATH_MAX || path[strlen(path) - 1] == '/') {
			say(out, strlen(path) >= PATH_MAX ? "path too long" : "names a directory");
			return NULL;
		}
		split(path, dir, out->base);
		if ((err = open_dir(dir)) < 0) {
			say(out, dir_refusal(err));
			return NULL;
		}
		out->dirfd = err;
		if ((what = not_a_file(out->dirfd, out->base))) {	/* made since the check */
			close(out->dirfd);
			say(out, what);
			return NULL;
		}
		if ((out->fd = open_temporary(out)) < 0) {
			err = errno;
			close(out->dirfd);
			say(out, strerror(err));
			return NULL;
		}
	}
	if (!(out->f = open_memstream(&out->buf, &out->len))) {
		say(out, strerror(errno));
		discard(out);
	}
	return out->f;
}

/* All of buf to fd: 0 or the errno of the write that failed. */
static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? errno : EIO;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Where the bytes went: put in place, or removed with the temporary. */
static int finish_file(struct outfile *out, int err)
{
	if (!err && out->tmp[0] && fsync(out->fd))
		err = errno;
	if (close(out->fd) && !err)
		err = errno;
	out->fd = -1;
	if (!err && out->tmp[0] && renameat(out->dirfd, out->tmp, out->dirfd, out->base))
		err = errno;
	if (!err)
		out->tmp[0] = '\0';	/* it is the destination now */
	discard(out);
	return err;
}

int outfile_close(struct outfile *out)
{
	int err = fclose(out->f) ? errno : 0;	/* the memory stream: ENOMEM at worst */

	out->f = NULL;
	if (out->dirfd < 0) {
		/* standard output: after the tables already printed to it */
		if (!err)
			err = fflush(stdout) ? errno : write_all(STDOUT_FILENO, out->buf, out->len);
		free(out->buf);
		if (!err)
			return 0;
		stdout_reported = true;
		fprintf(stderr, "fctrace: %s -: writing standard output: %s\n", out->opt,
			strerror(err));
		return -1;
	}
	if (!err)
		err = write_all(out->fd, out->buf, out->len);
	free(out->buf);
	out->buf = NULL;
	err = finish_file(out, err);
	return err ? say(out, strerror(err)) : 0;
}

void outfile_guard_std_fds(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		int ph;

		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		ph = open("/dev/null", O_RDONLY);	/* lowest free number: fd itself */
		if (ph >= 0 && ph != fd)
			close(ph);
	}
}

int outfile_stdout_done(void)
{
	int err = fflush(stdout) ? errno : ferror(stdout) ? EIO : 0;

	/* EPIPE: the reader stopped reading (`| head`), nothing to tell it */
	if (!err || stdout_reported || err == EPIPE)
		return err ? 1 : 0;
	fprintf(stderr, "fctrace: writing standard output: %s\n", strerror(err));
	return 1;
}
