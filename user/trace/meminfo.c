/*
 * meminfo.c - MemFree, MemAvailable and MemTotal from /proc/meminfo.
 */
#include <stdio.h>
#include <string.h>
#include "trace/meminfo.h"

int meminfo_read(struct meminfo *m)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[128];
	unsigned long long v;

	memset(m, 0, sizeof(*m));
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "MemFree: %llu kB", &v) == 1)
			m->free_kb = v;
		else if (sscanf(line, "MemAvailable: %llu kB", &v) == 1)
			m->avail_kb = v;
		else if (sscanf(line, "MemTotal: %llu kB", &v) == 1)
			m->total_kb = v;
	}
	fclose(f);
	return m->total_kb ? 0 : -1;
}
