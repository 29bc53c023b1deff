/*
 * sysio.c - the production wl_io: the plain syscalls. Tests inject
 * their own table instead (the seams are function pointers).
 */
#include <fcntl.h>
#include <unistd.h>
#include "workload.h"

/* never through a link: the data files are fctrace's own regular files */
static int sys_open(void *ctx, int dirfd, const char *name, int flags)
{
	return openat(dirfd, name, flags | O_NOFOLLOW | O_CLOEXEC);
}

static ssize_t sys_pread(void *ctx, int fd, void *buf, size_t len, off_t off)
{
	return pread(fd, buf, len, off);
}

static int sys_close(void *ctx, int fd)
{
	return close(fd);
}

static int sys_stat(void *ctx, int dirfd, const char *name, struct stat *st)
{
	return fstatat(dirfd, name, st, AT_SYMLINK_NOFOLLOW);
}

const struct wl_io wl_sys_io = {
	.open = sys_open, .pread = sys_pread, .close = sys_close,
	.stat = sys_stat, .ctx = NULL,
};
