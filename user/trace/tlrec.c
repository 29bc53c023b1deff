/*
 * tlrec.c - the timeline's recording thread (see tlrec.h). The BPF side
 * sends no wakeups (a wakeup per record would cost an irq_work each), so
 * the thread drains the ring buffer on its own clock, every millisecond.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "base/clock.h"
#include "trace/tlrec.h"

#define DRAIN_NS	1000000ull

struct tlrec {
	pthread_t thread;
	struct ring_buffer *rb;
	struct tlrec_flags flags;
	uint64_t open_ns, len_ns;
	struct tl_events *out;
	int stop;			/* atomic: tlrec_stop was called */
	uint64_t begin_ns, end_ns;	/* the window as it was */
	uint64_t lost;			/* no memory for a record */
};

static void sleep_until(uint64_t ns)
{
	struct timespec ts = { .tv_sec = ns / 1000000000ull, .tv_nsec = ns % 1000000000ull };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

size_t tlrec_ring_bytes(unsigned window_ms, int ncpus)
{
	uint64_t want = (uint64_t)window_ms * TLREC_EVENTS_PER_MS_CPU * (ncpus > 0 ? ncpus : 1) *
			FCT_TL_REC_BYTES;
	size_t bytes = 1 << 16;

	while (bytes < want && bytes < (1ull << 30))
		bytes <<= 1;
	return bytes;
}

static int on_record(void *ctx, void *data, size_t len)
{
	struct tlrec *r = ctx;

	if (len < sizeof(struct fct_tl_event) || tl_events_add(r->out, data))
		r->lost++;
	return 0;
}

static bool stopped(struct tlrec *r)
{
	return __atomic_load_n(&r->stop, __ATOMIC_ACQUIRE);
}

/* Every open account records its state now, so a thread that changes
 * none in the window still has a lane. */
static void snapshot(struct tlrec *r)
{
	LIBBPF_OPTS(bpf_test_run_opts, ro);

	if (r->flags.snapshot_fd >= 0)
		bpf_prog_test_run_opts(r->flags.snapshot_fd, &ro);
}

static void *record(void *arg)
{
	struct tlrec *r = arg;
	uint64_t now;

	while (!stopped(r) && (now = monotonic_ns()) < r->open_ns)
		sleep_until(now + DRAIN_NS < r->open_ns ? now + DRAIN_NS : r->open_ns);
	if (stopped(r))
		return NULL;
	r->begin_ns = monotonic_ns();
	__atomic_store_n(r->flags.end_ns, r->begin_ns + r->len_ns, __ATOMIC_SEQ_CST);
	__atomic_store_n(r->flags.on, 1, __ATOMIC_SEQ_CST);
	snapshot(r);
	while (!stopped(r) && (now = monotonic_ns()) < r->begin_ns + r->len_ns) {
		ring_buffer__consume(r->rb);
		sleep_until(now + DRAIN_NS < r->begin_ns + r->len_ns ? now + DRAIN_NS
								     : r->begin_ns + r->len_ns);
	}
	__atomic_store_n(r->flags.on, 0, __ATOMIC_SEQ_CST);
	r->end_ns = monotonic_ns();
	if (r->end_ns > r->begin_ns + r->len_ns)	/* woken late: the BPF side stopped */
		r->end_ns = r->begin_ns + r->len_ns;
	/* a hook that saw the flag set may still be writing its record */
	sleep_until(monotonic_ns() + DRAIN_NS);
	ring_buffer__consume(r->rb);
	return NULL;
}

struct tlrec *tlrec_start(int ring_fd, struct tlrec_flags flags, uint64_t open_ns,
			  uint64_t len_ns, struct tl_events *out)
{
	struct tlrec *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	*r = (struct tlrec){ .flags = flags, .open_ns = open_ns, .len_ns = len_ns, .out = out };
	r->rb = ring_buffer__new(ring_fd, on_record, r, NULL);
	if (!r->rb || pthread_create(&r->thread, NULL, record, r)) {
		ring_buffer__free(r->rb);
		free(r);
		return NULL;
	}
	return r;
}

void tlrec_stop(struct tlrec *r, uint64_t *begin_ns, uint64_t *end_ns, uint64_t *lost)
{
	__atomic_store_n(&r->stop, 1, __ATOMIC_RELEASE);
	pthread_join(r->thread, NULL);
	*begin_ns = r->begin_ns;
	*end_ns = r->end_ns;
	*lost = r->lost;
	ring_buffer__free(r->rb);
	free(r);
}

int tl_events_add(struct tl_events *e, const struct fct_tl_event *ev)
{
	if (e->n == e->cap) {
		size_t cap = e->cap ? e->cap * 2 : 4096;
		struct fct_tl_event *p = realloc(e->ev, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		e->ev = p;
		e->cap = cap;
	}
	e->ev[e->n++] = *ev;
	return 0;
}

void tl_events_free(struct tl_events *e)
{
	free(e->ev);
	memset(e, 0, sizeof(*e));
}
