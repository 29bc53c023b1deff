/*
 * fuzz_probes.c - libFuzzer target for --probes SET (probes.c): "full",
 * "light", "none", "floor" or a list of group names.
 *
 * Checks: an accepted set holds only known groups, always the marks
 * except for "none" and "floor", and a refused one leaves the mask alone.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "trace/probes.h"

#define KNOWN	((1u << PG_N) - 1)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned mask = 0xdeadbeef;
	char *s = malloc(size + 1);

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (probe_groups_parse(s, &mask) == 0) {
		if (!strcmp(s, "none") ? mask != 0 :
		    !strcmp(s, "floor") ? mask != PG_MASK(PG_FLOOR) :
		    (mask & ~KNOWN) || !(mask & PG_MASK(PG_MARKS)))
			abort();
		for (unsigned g = 0; g <= PG_N; g++)
			if (!probe_group_name((enum probe_group)g))
				abort();
	} else if (mask != 0xdeadbeef) {
		abort();
	}
	free(s);
	return 0;
}
