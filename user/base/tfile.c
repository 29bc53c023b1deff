/*
 * tfile.c - a traced process's files: through map_files, or inside its
 * root as its owner (see tfile.h for the rules).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "base/tfile.h"

int tfile_parse_maps(const char *line, struct tmap *m)
{
	int n = 0;

	memset(m, 0, sizeof(*m));
	if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %*s %" SCNx64 " %x:%x %" SCNu64 "%n",
		   &m->start, &m->end, &m->off, &m->dev_major, &m->dev_minor, &m->ino, &n) != 6 ||
	    m->end <= m->start)
		return -EINVAL;
	m->name = line + n + strspn(line + n, " ");
	return 0;
}

bool tfile_same(int fd, const struct tmap *m)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_ino == m->ino &&
	       major(st.st_dev) == m->dev_major && minor(st.st_dev) == m->dev_minor;
}

/* Reopen an O_PATH fd for reading: the inode it holds, nothing else. */
static int reopen(int pathfd)
{
	char self[64];
	int fd;

	snprintf(self, sizeof(self), "/proc/self/fd/%d", pathfd);
	fd = open(self, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	return fd < 0 ? -errno : fd;
}

static void as_owner(const struct troot *r, bool on);

int tfile_open_mapped(pid_t pid, const struct tmap *m, const struct troot *owner)
{
	char path[96];
	int pfd, fd = -EPERM;

	if (!m->ino)
		return -EINVAL;
	snprintf(path, sizeof(path), "/proc/%d/map_files/%" PRIx64 "-%" PRIx64, (int)pid,
		 m->start, m->end);
	pfd = open(path, O_PATH | O_CLOEXEC);
	if (pfd < 0)
		return -errno;
	if (tfile_same(pfd, m)) {
		/* as the owner: a file it may run but not read stays unread */
		if (owner)
			as_owner(owner, true);
		fd = reopen(pfd);
		if (owner)
			as_owner(owner, false);
	}
	close(pfd);
	return fd;
}

bool tfile_is_elf(int fd)
{
	unsigned char magic[4];

	return pread(fd, magic, sizeof(magic), 0) == (ssize_t)sizeof(magic) &&
	       !memcmp(magic, "\177ELF", 4);
}

int troot_open(struct troot *r, pid_t pid, bool host)
{
	char path[64];
	struct stat st;
	int dfd;

	r->fd = -1;
	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	dfd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	/* /proc/PID belongs to the process's effective uid and gid */
	if (fstat(dfd, &st)) {
		close(dfd);
		return -errno;
	}
	r->uid = st.st_uid;
	r->gid = st.st_gid;
	r->fd = host ? open("/", O_PATH | O_DIRECTORY | O_CLOEXEC)
		     : openat(dfd, "root", O_PATH | O_DIRECTORY | O_CLOEXEC);
	close(dfd);
	return r->fd < 0 ? -errno : 0;
}

void troot_close(struct troot *r)
{
	if (r && r->fd >= 0)
		close(r->fd);
	if (r)
		r->fd = -1;
}

/* path inside r's root, as r's owner: an O_PATH fd, or -errno */
static int resolve_as_owner(const struct troot *r, const char *path)
{
	struct open_how how = {
		.flags = O_PATH | O_CLOEXEC,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	int fd;

	fd = (int)syscall(SYS_openat2, r->fd, path, &how, sizeof(how));
	return fd < 0 ? -errno : fd;
}

/* Run as r's owner for file access: setfsuid away from 0 drops root's
 * file-system capabilities (DAC override) until it is set back. */
static void as_owner(const struct troot *r, bool on)
{
	if (!r->uid && !r->gid)
		return;
	if (on) {
		setfsgid(r->gid);
		setfsuid(r->uid);
	} else {
		setfsuid(0);
		setfsgid(0);
	}
}

int troot_open_file(const struct troot *r, const char *path, uint64_t max_size)
{
	struct stat st;
	int pfd, fd;

	if (r->fd < 0 || !path || !*path)
		return -EINVAL;
	as_owner(r, true);
	pfd = resolve_as_owner(r, path);
	if (pfd < 0) {
		as_owner(r, false);
		return pfd;
	}
	if (fstat(pfd, &st))
		fd = -errno;
	else if (!S_ISREG(st.st_mode) || st.st_size < 64 || (uint64_t)st.st_size > max_size)
		fd = -EPERM;
	else if (!(st.st_mode & S_IROTH) && st.st_uid != r->uid)
		fd = -EACCES;
	else
		fd = reopen(pfd);
	as_owner(r, false);
	close(pfd);
	return fd;
}
