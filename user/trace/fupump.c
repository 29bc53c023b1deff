/*
 * fupump.c - the handles' ring drained by a thread of its own (fupump.h).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <bpf/libbpf.h>
#include "base/clock.h"
#include "trace/fupump.h"

/* 8 MiB of ring at 40 bytes a use: 200 k events between two drains */
#define DRAIN_NS	2000000L
#define TICK_NS		1000000000ull	/* a tick a second, by the clock: a busy
					 * machine stretches the drains' sleeps */

struct fupump {
	pthread_t thread;
	struct ring_buffer *rb;
	fupump_tick_fn tick;
	void *tick_arg;
	int stop;		/* atomic */
};

static int on_event(void *ctx, void *data, size_t len)
{
	fu_streams_event(ctx, data, len);
	return 0;
}

static void *drain(void *arg)
{
	struct fupump *p = arg;
	struct timespec ts = { 0, DRAIN_NS };
	uint64_t next = 0, now;

	while (!__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE)) {
		if (p->tick && (now = monotonic_ns()) >= next) {
			p->tick(p->tick_arg);
			next = now + TICK_NS;
		}
		ring_buffer__consume(p->rb);
		nanosleep(&ts, NULL);
	}
	return NULL;
}

struct fupump *fupump_start(int ring_fd, struct fu_streams *s, fupump_tick_fn tick, void *arg)
{
	struct fupump *p = calloc(1, sizeof(*p));
	int err = 0;

	if (!p)
		return NULL;
	p->tick = tick;
	p->tick_arg = arg;
	p->rb = ring_buffer__new(ring_fd, on_event, s, NULL);
	if (!p->rb || (err = pthread_create(&p->thread, NULL, drain, p))) {
		err = p->rb ? err : errno;
		ring_buffer__free(p->rb);
		free(p);
		errno = err;
		return NULL;
	}
	return p;
}

void fupump_stop(struct fupump *p)
{
	if (!p)
		return;
	__atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
	pthread_join(p->thread, NULL);
	ring_buffer__consume(p->rb);
	ring_buffer__free(p->rb);
	free(p);
}
