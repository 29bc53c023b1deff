/*
 * fcp_pool.h - Wicket's FileChannelPool (faithful) and its fixed twin,
 * behind one small API so the workloads and the tests drive either.
 *
 *   pool = ops->create(capacity, io, dirfd);
 *   ch = ops->get(pool, path, st);   fd = ops->fd(ch);   pread(fd ...);
 *   ops->put(pool, ch, st);
 *   ops->stats(pool, &s);  ops->destroy(pool);   (destroy closes all)
 *
 * Channels are named by file name in dirfd (the data directory's fd:
 * opens and stats are relative to it); the pool keeps the name pointer,
 * so the string must outlive the pool. st receives this thread's lock timings,
 * hits/misses/evictions and syscalls_in_lock.
 */
#ifndef FCTRACE_FCP_POOL_H
#define FCTRACE_FCP_POOL_H

#include <pthread.h>
#include "workload.h"

struct fcp_pool_stats {
	uint64_t open;			/* channels registered now */
	uint64_t idle;			/* of which on the idle list */
	uint64_t max_open;		/* most fds open at once, in-flight included */
	uint64_t over_capacity;		/* misses that left the pool above capacity */
	uint64_t hits, misses, evictions;
	uint64_t races;			/* fixed: opened twice, extra one closed */
};

struct fcp_chan;

struct fcp_pool_ops {
	const char *lock_name;		/* for the kernel view */
	void *(*create)(unsigned capacity, const struct wl_io *io, int dirfd);
	/* NULL with errno set when stat or open fails */
	struct fcp_chan *(*get)(void *pool, const char *name,
				struct wl_thread_stats *st);
	int (*fd)(const struct fcp_chan *ch);
	void (*put)(void *pool, struct fcp_chan *ch, struct wl_thread_stats *st);
	void (*stats)(void *pool, struct fcp_pool_stats *out);
	/* use count of name's channel; -1 when it has none (for tests) */
	int (*uses)(void *pool, const char *name);
	pthread_mutex_t *(*mutex)(void *pool);
	void (*destroy)(void *pool);
};

extern const struct fcp_pool_ops fcp_pool_faithful;	/* "fcp" */
extern const struct fcp_pool_ops fcp_pool_fixed;	/* "fcp-fixed" */

#endif /* FCTRACE_FCP_POOL_H */
