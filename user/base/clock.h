/*
 * clock.h - the one clock of fctrace's user side: CLOCK_MONOTONIC, which
 * is bpf_ktime_get_ns's, so that the window, the kernel's accounts and a
 * subject's own timings are on one time line. Through the vDSO: no
 * syscall, safe inside the window. (The workloads read the same clock
 * with wl_now_ns: workloads/ uses nothing of user/.) The wall clock only
 * names a run for a person (wallclock_of_ns), never measures one.
 */
#ifndef FCTRACE_CLOCK_H
#define FCTRACE_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* When monotonic time t was by the wall clock (CLOCK_REALTIME), ns since
 * the epoch: what names a run to a person (diff's "nginx 14:02:11"). */
static inline uint64_t wallclock_of_ns(uint64_t t)
{
	struct timespec ts;
	uint64_t now = monotonic_ns(), real;

	clock_gettime(CLOCK_REALTIME, &ts);
	real = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	return real - (now > t ? now - t : 0);
}

#endif /* FCTRACE_CLOCK_H */
