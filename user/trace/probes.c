/*
 * probes.c - probe group names and the --probes parser.
 */
#include <string.h>
#include "trace/probes.h"

static const char *const group_names[PG_N] = {
	[PG_SYSCALLS]	= "syscalls",
	[PG_SCHED]	= "sched",
	[PG_KLOCK]	= "klock",
	[PG_PAGECACHE]	= "pagecache",
	[PG_PC_LOOKUPS]	= "pc-lookups",
	[PG_MARKS]	= "marks",
	[PG_THREADS]	= "threads",
	[PG_JVM]	= "jvm",
	[PG_CPUCLOCK]	= "cpuclock",
	[PG_HOLDERS]	= "holders",
	[PG_PC_EVICT]	= "pc-evict",
	[PG_DISK]	= "disk",
	[PG_HANDLES]	= "handles",
};

const char *probe_group_name(enum probe_group g)
{
	if (g == PG_FLOOR)
		return "floor";
	return (unsigned)g < PG_N ? group_names[g] : "unknown";
}

/* One word of the list: a set name or a group name. */
static int parse_word(const char *w, size_t len, unsigned *mask)
{
	if (len == 4 && !strncmp(w, "full", 4)) {
		*mask |= PG_FULL;
		return 0;
	}
	if (len == 5 && !strncmp(w, "light", 5)) {
		*mask |= PG_LIGHT;
		return 0;
	}
	for (int g = 0; g < PG_N; g++) {
		if (strlen(group_names[g]) == len && !strncmp(w, group_names[g], len)) {
			*mask |= PG_MASK(g);
			return 0;
		}
	}
	return -1;
}

/*
 * "full", "light", "none" or a comma list of those and group names
 * ("sched,klock", "full,pc-lookups"). The marks are always included
 * except for "none" (timing only, no BPF at all) and the hidden "floor"
 * (full's hook points with trivial programs: make bench's reference).
 */
int probe_groups_parse(const char *s, unsigned *mask)
{
	unsigned m = 0;
	const char *p = s, *comma;

	if (!s || !*s)
		return -1;
	if (!strcmp(s, "none")) {
		*mask = 0;
		return 0;
	}
	if (!strcmp(s, "floor")) {	/* alone: it has marks of its own */
		*mask = PG_MASK(PG_FLOOR);
		return 0;
	}
	for (;;) {
		comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		if (!len || parse_word(p, len, &m))
			return -1;
		if (!comma)
			break;
		p = comma + 1;
	}
	*mask = m | PG_MASK(PG_MARKS);
	return 0;
}

/* What each set costs in wall time against --no-bpf, as `make bench`
 * (tests/bench.sh) MEASURED it on the project's machine kind (2-vCPU VM,
 * kernel 6.18, retpolines; medians of 9 interleaved rounds; docs/overhead.md):
 * the range spans syscall-heavy fc 60 files/1 thread and fcp 60/8
 * (full 1.134 and 1.169, light 0.994 and 1.027, floor 1.075 and 1.193),
 * measured without the holders and pc-evict groups. The holders in full:
 * bench part 4 puts them at ~1.02x with no lock watched (run --
 * bench_bare) and ~1.06-1.07x with fcp/8's pool mutex watched, so full is
 * ~1.15-1.25x (a quiet machine would narrow it). pc-evict, in full and
 * light: bench part 5 puts it at 0.97-1.01x of full without it (fc/1,
 * fcp/8, fc/1 under --pressure), within the noise. Measure again when
 * the programs change. */
static const struct {
	const char *set, *cost;
} set_costs[] = {
	{ "full",  "~1.15-1.25x" },
	{ "light", "~1.00-1.03x" },
	{ "floor", "~1.08-1.19x" },
};

const char *probe_set_cost(const char *set)
{
	for (size_t i = 0; set && i < sizeof(set_costs) / sizeof(*set_costs); i++)
		if (!strcmp(set, set_costs[i].set))
			return set_costs[i].cost;
	return NULL;
}

const char *probe_status_text(const struct probe_status *ps)
{
	switch (ps->state) {
	case PROBE_OK:
		return "ok";
	case PROBE_NOT_SELECTED:
		return "not selected";
	case PROBE_FAILED:
		break;
	}
	return ps->reason[0] ? ps->reason : "failed";
}
