/*
 * cpustat.h - what every CPU of the machine did over a window, from the
 * kernel's own counters (/proc/stat's "cpu" line): busy, idle, and
 * stolen by the hypervisor. fctrace's threads are only part of "busy":
 * the rest went to other processes, which the run queue alone cannot
 * tell apart from the program's own threads queueing for the CPUs.
 */
#ifndef FCTRACE_CPUSTAT_H
#define FCTRACE_CPUSTAT_H

#include <stdbool.h>
#include <stdint.h>

struct cpustat {
	bool valid;
	uint64_t busy_ns;	/* user, nice, system, irq, softirq */
	uint64_t idle_ns;	/* idle, iowait */
	uint64_t steal_ns;	/* taken by the hypervisor */
};

/* Parse /proc/stat's text (its first line, all CPUs summed); ticks are
 * 1/hz s. 0, or -1 when the line is not there or not numbers. */
int cpustat_parse(const char *text, long hz, struct cpustat *out);
/* Read /proc/stat now: 0 or -1 (out->valid false). */
int cpustat_read(struct cpustat *out);
/* b - a, field by field (invalid unless both are valid and b >= a). */
struct cpustat cpustat_diff(const struct cpustat *a, const struct cpustat *b);

#endif /* FCTRACE_CPUSTAT_H */
