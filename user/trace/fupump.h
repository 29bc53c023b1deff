/*
 * fupump.h - the thread that drains the handles' ring buffer into their
 * streams (fileuse.h) while the window is open: the BPF side sends no
 * wakeups (one per event would cost an irq_work each), and a workload
 * traced in fctrace's own process has no loop of the session's to poll
 * it, so the thread drains on its own clock.
 */
#ifndef FCTRACE_FUPUMP_H
#define FCTRACE_FUPUMP_H

#include <stdint.h>
#include "trace/fileuse.h"

struct fupump;

/* Called by the thread about once a second, first at its start. */
typedef void (*fupump_tick_fn)(void *arg);

/* Drain ring_fd into s until fupump_stop, every 2 ms (every 20 ms while
 * *paused, the budget's stop of the file stream, is set), calling
 * tick(arg) (when not NULL) at its start and once a second; NULL (errno
 * set) on failure. */
struct fupump *fupump_start(int ring_fd, struct fu_streams *s, volatile const uint32_t *paused,
			    fupump_tick_fn tick, void *arg);
/* Stop, drain what is left, free; s is the caller's again. */
void fupump_stop(struct fupump *p);

#endif
