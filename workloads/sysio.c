/*
 * sysio.c - the production wl_io: the plain syscalls. Tests inject
 * their own table instead (STYLE.md: seams by function pointers).
 */
#include <fcntl.h>
#include <unistd.h>
#include "workload.h"

static int sys_open(void *ctx, const char *path, int flags)
{
	return open(path, flags | O_CLOEXEC);
}

static ssize_t sys_pread(void *ctx, int fd, void *buf, size_t len, off_t off)
{
	return pread(fd, buf, len, off);
}

static int sys_close(void *ctx, int fd)
{
	return close(fd);
}

static int sys_stat(void *ctx, const char *path, struct stat *st)
{
	return stat(path, st);
}

const struct wl_io wl_sys_io = {
	.open = sys_open, .pread = sys_pread, .close = sys_close,
	.stat = sys_stat, .ctx = NULL,
};
