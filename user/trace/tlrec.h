/*
 * tlrec.h - recording the timeline: a thread that opens the BPF side's
 * timeline window (the tl_on flag) at a given instant, drains the ring
 * buffer into a struct tl_events while it is open, and closes it after
 * its length or when asked to stop.
 */
#ifndef FCTRACE_TLREC_H
#define FCTRACE_TLREC_H

#include <stddef.h>
#include <stdint.h>
#include "fctrace.h"

/* Records as they arrive: a growing array. */
struct tl_events {
	struct fct_tl_event *ev;
	size_t n, cap;
};

/* Append one record; 0 or -ENOMEM. */
int tl_events_add(struct tl_events *e, const struct fct_tl_event *ev);
void tl_events_free(struct tl_events *e);

/*
 * Records per millisecond per CPU the ring buffer is sized for: fcp at
 * 60 files, 8 threads on 2 CPUs made at most 390 per ms per CPU
 * (docs/timeline.md); the buffer holds the whole window at over 3x that rate, so
 * none is dropped even if the draining thread gets no CPU meanwhile.
 */
#define TLREC_EVENTS_PER_MS_CPU	1300

/* Ring buffer bytes for a window of window_ms on ncpus: a power of two. */
size_t tlrec_ring_bytes(unsigned window_ms, int ncpus);

struct tlrec;

/* The BPF side's switches: the window is open while *on is set, and
 * records stamped after *end_ns are not written (so the window keeps its
 * length however late this thread gets a CPU to close it). */
struct tlrec_flags {
	__u32 *on;
	__u64 *end_ns;
	int snapshot_fd;	/* run as the window opens: every thread's state */
};

/* Start the recording thread: the window opens at open_ns (CLOCK_MONOTONIC)
 * and lasts len_ns. NULL on failure. */
struct tlrec *tlrec_start(int ring_fd, struct tlrec_flags flags, uint64_t open_ns,
			  uint64_t len_ns, struct tl_events *out);
/* Close the window now if still open, drain, join. The window as it
 * was ([0, 0] if it never opened) and records lost in user space. */
void tlrec_stop(struct tlrec *r, uint64_t *begin_ns, uint64_t *end_ns, uint64_t *lost);

#endif
