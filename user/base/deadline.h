/*
 * deadline.h - one deadline for work that waits on another process (a
 * JVM's attach listener, its agent): every loop that waits asks
 * deadline_left_ms and stops at 0, which a signal (Ctrl-C, SIGTERM)
 * brings at once, so neither a stalled peer nor a slow one holds fctrace
 * past --duration or an interrupt.
 */
#ifndef FCTRACE_DEADLINE_H
#define FCTRACE_DEADLINE_H

#include <stdint.h>
#include "base/clock.h"
#include "base/signals.h"

static inline uint64_t deadline_now_ns(void)
{
	return monotonic_ns();
}

/* now + ms, as a deadline */
static inline uint64_t deadline_in_ms(int ms)
{
	return deadline_now_ns() + (uint64_t)ms * 1000000ull;
}

/* the sooner of two deadlines (0: none) */
static inline uint64_t deadline_min(uint64_t a, uint64_t b)
{
	return !a ? b : !b ? a : a < b ? a : b;
}

/* Milliseconds left before until, at most cap (a poll slice, so that a
 * signal on another thread is seen within it); 0 when it passed or a
 * signal asked fctrace to stop. */
static inline int deadline_left_ms(uint64_t until, int cap)
{
	uint64_t now = deadline_now_ns(), left;

	if (signals_caught() || now >= until)
		return 0;
	left = (until - now + 999999) / 1000000;
	return left < (uint64_t)cap ? (int)left : cap;
}

#endif /* FCTRACE_DEADLINE_H */
