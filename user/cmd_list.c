/* cmd_list.c - `fctrace list`: the workloads and the options each reads. */
#include <stdio.h>
#include "commands.h"
#include "probes.h"

int cmd_list(const struct options *o)
{
	if (o->names_only) {
		for (int i = 0; wl_all[i]; i++)
			printf("%s\n", wl_all[i]->name);
		return 0;
	}
	printf("Workloads:\n");
	for (int i = 0; wl_all[i]; i++)
		printf("  %-15s %s\n  %-15s options: %s\n", wl_all[i]->name,
		       wl_all[i]->summary, "", wl_all[i]->options);
	printf("\nCommon options: --files --threads --ops --file-size --chunk --seed "
	       "--cache --pressure --dir\n");
	printf("\nProbe groups (--probes full|light|LIST):\n");
	for (int g = 0; g < PG_N; g++)
		printf("  %-12s%s%s\n", probe_group_name(g),
		       (PG_FULL & PG_MASK(g)) ? " full" : "",
		       (PG_LIGHT & PG_MASK(g)) ? " light" : "");
	return 0;
}
