/*
 * fupump.c - the handles' ring drained by a thread of its own (fupump.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <bpf/libbpf.h>
#include "base/clock.h"
#include "trace/fupump.h"

/* 8 MiB of ring at 40 bytes a use: 200 k events between two drains */
#define DRAIN_NS	2000000L
/* with the file stream stopped by the budget, only connections and a
 * proxy's flows come, and nothing reads a process's files for them at
 * once: 50 wake-ups a second, not 500 (each a switch on this VM's
 * retpolines, a third of fctrace's own CPU beside a busy server) */
#define DRAIN_PAUSED_NS	20000000L
#define TICK_NS		1000000000ull	/* a tick a second, by the clock: a busy
					 * machine stretches the drains' sleeps */
/* A program starting up makes its connections in its first seconds (a
 * proxy its pool, then its clients come): a tick each 100 ms then, and
 * after a traced process connects, one within 50 ms, so a proxy's
 * sockets are found as it makes them rather than up to a second late.
 * Past them, a connect brings the tick within 500 ms: a server that
 * connects for every request (pgbench -C's 50 a second) would otherwise
 * have its sockets scanned 20 times a second for the whole run. */
#define EAGER_NS	3000000000ull
#define EAGER_TICK_NS	100000000ull
#define SOON_NS		50000000ull
#define LATER_SOON_NS	500000000ull

struct fupump {
	pthread_t thread;
	struct ring_buffer *rb;
	struct fu_streams *streams;
	fupump_tick_fn tick;
	void *tick_arg;
	volatile const uint32_t *paused;	/* the file stream stopped (or NULL) */
	int stop;		/* atomic */
};

static int on_event(void *ctx, void *data, size_t len)
{
	fu_streams_event(ctx, data, len);
	return 0;
}

/* Is a tick due: its time, or a connection made since the last one? */
static bool tick_due(struct fupump *p, uint64_t now, uint64_t next, uint64_t last,
		     uint64_t seen, bool eager)
{
	return now >= next || (fu_streams_connects(p->streams) != seen &&
			       now - last >= (eager ? SOON_NS : LATER_SOON_NS));
}

static void *drain(void *arg)
{
	struct fupump *p = arg;
	uint64_t start = monotonic_ns(), next = 0, last = 0, seen = 0, now;

	while (!__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE)) {
		now = monotonic_ns();
		if (p->tick && tick_due(p, now, next, last, seen, now - start < EAGER_NS)) {
			seen = fu_streams_connects(p->streams);
			p->tick(p->tick_arg);
			last = now;
			next = now + (now - start < EAGER_NS ? EAGER_TICK_NS : TICK_NS);
		}
		ring_buffer__consume(p->rb);
		nanosleep(&(struct timespec){ 0, p->paused && __atomic_load_n(p->paused,
				__ATOMIC_RELAXED) ? DRAIN_PAUSED_NS : DRAIN_NS }, NULL);
	}
	return NULL;
}

struct fupump *fupump_start(int ring_fd, struct fu_streams *s, volatile const uint32_t *paused,
			    fupump_tick_fn tick, void *arg)
{
	struct fupump *p = calloc(1, sizeof(*p));
	int err = 0;

	if (!p)
		return NULL;
	p->paused = paused;
	p->streams = s;
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
