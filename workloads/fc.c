/*
 * fc.c - the unpooled baseline of Wicket's FileChannelPool benchmark:
 * every operation opens the file read-write, preads the chunk and closes
 * it. No lock, no state.
 *
 * With --shared-file (the NioFile benchmark's "non-cached" shared test)
 * every thread reads file 0 and the handle is kept instead of reopened:
 *   handle=shared      one fd opened at setup, used by every thread;
 *   handle=per-thread  each worker opens its own fd before its window
 *                      and keeps it for the run.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "wl_loop.h"

static int fc_setup(struct wl_run *run)
{
	int fd = -1;

	if (run->cfg.shared_file && !wl_per_thread_handle(run)) {
		fd = run->io.open(run->io.ctx, run->dir_fd, run->names[0], O_RDWR);
		if (fd < 0) {
			fprintf(stderr, "fctrace: fc: opening %s/%s: %s\n", run->dir,
				run->names[0], strerror(errno));
			return -errno;
		}
	}
	/* fc's only state is that fd, kept in priv as fd + 1 (0 = none) */
	run->priv = (void *)(intptr_t)(fd + 1);
	return 0;
}

static int shared_fd(struct wl_run *run)
{
	return (int)(intptr_t)run->priv - 1;
}

static int fc_thread_init(struct wl_run *run, struct wl_thread *t)
{
	if (!wl_per_thread_handle(run))
		return 0;
	t->own_fd = run->io.open(run->io.ctx, run->dir_fd, run->names[0], O_RDWR);
	return t->own_fd < 0 ? errno : 0;
}

static void fc_thread_fini(struct wl_run *run, struct wl_thread *t)
{
	if (t->own_fd >= 0)
		run->io.close(run->io.ctx, t->own_fd);
	t->own_fd = -1;
}

/*
 * Not timed separately: fc's op latency already covers its read, the
 * kernel view times pread64 itself, and two more clock reads per op
 * would move fc away from the bare open/pread/close loop it stands for
 * (make bench checks that distance).
 */
static int plain_pread(struct wl_run *run, int fd, uint64_t off, void *buf)
{
	ssize_t n = run->io.pread(run->io.ctx, fd, buf, run->cfg.chunk, (off_t)off);

	return n < 0 ? -errno : (int)n;
}

/* fc's op with the production io table: libc straight, as the bare loop
 * fc stands for would call it (make bench measures the distance). The
 * open is relative to the data directory's fd, never through a link. */
static inline __attribute__((always_inline))
int plain_op(struct wl_run *run, struct wl_thread *t, unsigned file, uint64_t off, void *buf)
{
	int fd = openat(run->dir_fd, run->names[file], O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = pread(fd, buf, run->cfg.chunk, (off_t)off);
	if (__builtin_expect(n != (ssize_t)run->cfg.chunk, 0) && n < 0)
		n = -errno;
	close(fd);
	return (int)n;
}

static int fc_op(struct wl_run *run, struct wl_thread *t, unsigned file,
		 uint64_t off, void *buf)
{
	int fd, n;

	if (run->cfg.shared_file)
		return plain_pread(run, t->own_fd >= 0 ? t->own_fd : shared_fd(run),
				   off, buf);
	fd = run->io.open(run->io.ctx, run->dir_fd, run->names[file], O_RDWR);
	if (fd < 0)
		return -errno;
	n = plain_pread(run, fd, off, buf);
	run->io.close(run->io.ctx, fd);
	return n;
}

/* The measured loop with the op inlined (wl_loop.h): no call through the
 * workload table per op. Tests' io tables take the table's path. */
static uint64_t fc_loop(struct wl_thread *t)
{
	if (t->run->plain_io && !t->run->cfg.shared_file)
		return wl_measured_loop(t, plain_op);
	return wl_measured_loop(t, fc_op);
}

static void fc_teardown(struct wl_run *run)
{
	if (shared_fd(run) >= 0)
		run->io.close(run->io.ctx, shared_fd(run));
	run->priv = NULL;
}

static void fc_totals(struct wl_run *run, struct wl_totals *out)
{
	memset(out, 0, sizeof(*out));
}

static int fc_locks(struct wl_run *run, struct wl_lock_desc *out, int max)
{
	return 0;
}

const struct workload wl_fc = {
	.name = "fc",
	.summary = "open + pread + close per operation, no pool, no lock",
	.options = "files threads ops file-size chunk seed shared-file handle cache pressure dir",
	.setup = fc_setup,
	.op = fc_op,
	.teardown = fc_teardown,
	.totals = fc_totals,
	.locks = fc_locks,
	.thread_init = fc_thread_init,
	.thread_fini = fc_thread_fini,
	.loop = fc_loop,
};
