/*
 * diskstats.h - /proc/diskstats at the window's edges: the kernel's own
 * count of each disk's requests and busy time, which the device view
 * reports (the probes see every request too, but their busy time is only
 * as good as their view of requests already in flight at the start).
 */
#ifndef FCTRACE_TRACE_DISKSTATS_H
#define FCTRACE_TRACE_DISKSTATS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "fctrace.h"

#define DISKSTATS_MAX	32	/* devices kept: those that ever did I/O first */

/* One line's counters (Documentation/admin-guide/iostats.rst's fields). */
struct diskstat {
	char name[FCT_DISK_NAME_LEN];
	uint64_t reads, read_sectors;		/* fields 1, 3 */
	uint64_t writes, write_sectors;		/* fields 5, 7 */
	uint64_t io_ms, weighted_ms;		/* fields 10, 11: busy, queue time */
	uint64_t flushes;			/* field 16 (kernels since 5.5) */
};

struct diskstats {
	struct diskstat d[DISKSTATS_MAX];
	int n;				/* 0: unread or unreadable */
};

/* One line of the file into d; false for a line that is not one. */
bool diskstat_parse(const char *line, struct diskstat *d);
/* Every device of f that ever did I/O; 0, or -1 when none could be read. */
int diskstats_parse(FILE *f, struct diskstats *s);
/* /proc/diskstats now; 0 or -1 (s->n is 0 then). */
int diskstats_read(struct diskstats *s);
/* Disk name's counters from a to b into out; false when either lacks it. */
bool diskstats_delta(const struct diskstats *a, const struct diskstats *b, const char *name,
		     struct diskstat *out);

#endif
