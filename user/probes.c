/*
 * probes.c - probe group names and the --probes parser.
 */
#include <string.h>
#include "kview.h"

static const char *const group_names[PG_N] = {
	[PG_SYSCALLS]	= "syscalls",
	[PG_SCHED]	= "sched",
	[PG_KLOCK]	= "klock",
	[PG_PAGECACHE]	= "pagecache",
	[PG_PC_LOOKUPS]	= "pc-lookups",
	[PG_MARKS]	= "marks",
};

const char *probe_group_name(enum probe_group g)
{
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
 * except for "none" (timing only, no BPF at all).
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
