/*
 * clock.h - the one clock of fctrace's user side: CLOCK_MONOTONIC, which
 * is bpf_ktime_get_ns's, so that the window, the kernel's accounts and a
 * subject's own timings are on one time line. Through the vDSO: no
 * syscall, safe inside the window. (The workloads read the same clock
 * with wl_now_ns: workloads/ uses nothing of user/.)
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

#endif /* FCTRACE_CLOCK_H */
