/* cmd_list.c - `fctrace list`: the workloads and the options each reads. */
#include <stdio.h>
#include <string.h>
#include "cli/commands.h"
#include "trace/probes.h"

#define LIST_WIDTH	100
#define LIST_INDENT	"                  "	/* under the summaries */

/* "options: a b c ...", wrapped at LIST_WIDTH under the summary column. */
static void print_options(const char *opts)
{
	int col = printf("%soptions:", LIST_INDENT);

	while (*opts) {
		int len = (int)strcspn(opts, " ");

		if (col + 1 + len > LIST_WIDTH)
			col = printf("\n%s        ", LIST_INDENT) - 1;
		col += printf(" %.*s", len, opts);
		opts += len;
		opts += strspn(opts, " ");
	}
	putchar('\n');
}

int cmd_list(const struct options *o)
{
	if (o->names_only) {
		for (int i = 0; wl_all[i]; i++)
			printf("%s\n", wl_all[i]->name);
		return 0;
	}
	printf("Workloads:\n");
	for (int i = 0; wl_all[i]; i++) {
		printf("  %-15s %s\n", wl_all[i]->name, wl_all[i]->summary);
		print_options(wl_all[i]->options);
	}
	printf("\nCommon options: --files --threads --ops --file-size --chunk --seed "
	       "--cache --pressure --dir\n");
	printf("\nProbe groups (--probes full|light|LIST):\n");
	for (int g = 0; g < PG_N; g++)
		printf("  %-12s%s%s\n", probe_group_name(g),
		       (PG_FULL & PG_MASK(g)) ? " full" : "",
		       (PG_LIGHT & PG_MASK(g)) ? " light" : "");
	return 0;
}
