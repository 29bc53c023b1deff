/*
 * cpustat.c - the machine's CPU time over a window (see cpustat.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "trace/cpustat.h"

enum { F_USER, F_NICE, F_SYSTEM, F_IDLE, F_IOWAIT, F_IRQ, F_SOFTIRQ, F_STEAL, F_N };

int cpustat_parse(const char *text, long hz, struct cpustat *out)
{
	unsigned long long v[F_N] = { 0 };
	double ns_per_tick;
	int n;

	memset(out, 0, sizeof(*out));
	if (!text || hz <= 0 || strncmp(text, "cpu ", 4))
		return -1;
	n = sscanf(text + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[F_USER], &v[F_NICE],
		   &v[F_SYSTEM], &v[F_IDLE], &v[F_IOWAIT], &v[F_IRQ], &v[F_SOFTIRQ], &v[F_STEAL]);
	if (n < 4)		/* user nice system idle: every kernel has these */
		return -1;
	ns_per_tick = 1e9 / (double)hz;
	out->busy_ns = (uint64_t)((double)(v[F_USER] + v[F_NICE] + v[F_SYSTEM] + v[F_IRQ] +
					   v[F_SOFTIRQ]) * ns_per_tick);
	out->idle_ns = (uint64_t)((double)(v[F_IDLE] + v[F_IOWAIT]) * ns_per_tick);
	out->steal_ns = (uint64_t)((double)v[F_STEAL] * ns_per_tick);
	out->valid = true;
	return 0;
}

int cpustat_read(struct cpustat *out)
{
	char line[512];
	FILE *f = fopen("/proc/stat", "re");
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (!f)
		return -1;
	if (fgets(line, sizeof(line), f))
		rc = cpustat_parse(line, sysconf(_SC_CLK_TCK), out);
	fclose(f);
	return rc;
}

struct cpustat cpustat_diff(const struct cpustat *a, const struct cpustat *b)
{
	struct cpustat d = { 0 };

	if (!a->valid || !b->valid || b->busy_ns < a->busy_ns || b->idle_ns < a->idle_ns ||
	    b->steal_ns < a->steal_ns)
		return d;
	d.valid = true;
	d.busy_ns = b->busy_ns - a->busy_ns;
	d.idle_ns = b->idle_ns - a->idle_ns;
	d.steal_ns = b->steal_ns - a->steal_ns;
	return d;
}
