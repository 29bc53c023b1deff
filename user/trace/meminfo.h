/*
 * meminfo.h - the machine's free memory, from /proc/meminfo: what the
 * page-cache removal report says of memory pressure at the window's edges.
 */
#ifndef FCTRACE_MEMINFO_H
#define FCTRACE_MEMINFO_H

#include <stdint.h>

struct meminfo {
	uint64_t free_kb;	/* MemFree */
	uint64_t avail_kb;	/* MemAvailable */
	uint64_t total_kb;	/* MemTotal */
};

/* 0, or -1 (m zeroed) when /proc/meminfo cannot be read */
int meminfo_read(struct meminfo *m);

#endif /* FCTRACE_MEMINFO_H */
