/*
 * fcp.c - the pooled workloads of Wicket's FileChannelPool benchmark: per
 * operation get a channel from the pool, pread the chunk, put the channel
 * back.
 *   fcp        Wicket's FileChannelPool as it was (fcp_pool.c)
 *   fcp-fixed  the same pool without its faults (fcp_fixed.c)
 * With --shared-file every get names file 0, so all workers share one
 * channel (use counts); --handle does not apply to a pool.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fcp_pool.h"
#include "wl_internal.h"

struct fcp_state {
	const struct fcp_pool_ops *ops;
	void *pool;
};

static int setup(struct wl_run *run, const struct fcp_pool_ops *ops)
{
	struct fcp_state *s = calloc(1, sizeof(*s));

	if (s)
		s->pool = ops->create(run->cfg.pool, &run->io, run->dir_fd);
	if (!s || !s->pool) {
		free(s);
		fprintf(stderr, "fctrace: %s: out of memory for the pool\n",
			run->wl->name);
		return -ENOMEM;
	}
	s->ops = ops;
	run->priv = s;
	return 0;
}

static int fcp_setup(struct wl_run *run)
{
	return setup(run, &fcp_pool_faithful);
}

static int fcp_fixed_setup(struct wl_run *run)
{
	return setup(run, &fcp_pool_fixed);
}

static int fcp_op(struct wl_run *run, struct wl_thread *t, unsigned file,
		  uint64_t off, void *buf)
{
	struct fcp_state *s = run->priv;
	uint64_t misses = t->st.misses, held = t->st.lock_hold_ns, t0, t1;
	struct fcp_chan *ch = s->ops->get(s->pool, run->names[file], &t->st);
	bool missed = t->st.misses != misses;
	ssize_t n;

	if (!ch)
		return -errno;
	*(missed ? &t->st.hold_miss_ns : &t->st.hold_hit_ns) += t->st.lock_hold_ns - held;
	t0 = wl_now_ns();
	n = run->io.pread(run->io.ctx, s->ops->fd(ch), buf, run->cfg.chunk,
			  (off_t)off);
	t1 = wl_now_ns();
	t->st.read_ns += t1 - t0;
	t->st.read_hist[fct_hist_slot(t1 - t0, WL_HIST_SLOTS)]++;
	if (n < 0)
		n = -errno;
	held = t->st.lock_hold_ns;
	s->ops->put(s->pool, ch, &t->st);
	t->st.hold_put_ns += t->st.lock_hold_ns - held;
	return (int)n;
}

static void fcp_teardown(struct wl_run *run)
{
	struct fcp_state *s = run->priv;

	if (!s)
		return;
	s->ops->destroy(s->pool);
	free(s);
	run->priv = NULL;
}

static void fcp_totals(struct wl_run *run, struct wl_totals *out)
{
	struct fcp_state *s = run->priv;
	struct fcp_pool_stats ps;

	s->ops->stats(s->pool, &ps);
	*out = (struct wl_totals){
		.has_pool = true, .hits = ps.hits, .misses = ps.misses,
		.evictions = ps.evictions, .max_open = ps.max_open,
		.over_capacity = ps.over_capacity,
	};
}

static int fcp_locks(struct wl_run *run, struct wl_lock_desc *out, int max)
{
	struct fcp_state *s = run->priv;

	if (max < 1)
		return 0;
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", s->ops->lock_name);
	out->kind = LK_MUTEX;
	out->addr = (uint64_t)(uintptr_t)s->ops->mutex(s->pool);
	out->size = sizeof(pthread_mutex_t);
	return 1;
}

#define FCP_OPTIONS "files threads ops file-size chunk pool seed shared-file cache pressure dir"

const struct workload wl_fcp = {
	.name = "fcp",
	.pool_shape = WL_POOL_MISS_IN_LOCK,
	.summary = "Wicket's FileChannelPool: one lock, stat+open+close under it, O(n) idle scan",
	.options = FCP_OPTIONS,
	.setup = fcp_setup, .op = fcp_op, .teardown = fcp_teardown,
	.totals = fcp_totals, .locks = fcp_locks,
};

const struct workload wl_fcp_fixed = {
	.name = "fcp-fixed",
	.pool_shape = WL_POOL_MISS_OUTSIDE_LOCK,
	.summary = "the same pool fixed: no syscalls under the lock, O(1) idle removal",
	.options = FCP_OPTIONS,
	.setup = fcp_fixed_setup, .op = fcp_op, .teardown = fcp_teardown,
	.totals = fcp_totals, .locks = fcp_locks,
};
