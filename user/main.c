/*
 * fctrace - run a file-handle pool or block-cache workload under eBPF and
 * explain where its time went. main only parses and dispatches; a run is
 * followed from cmd_run (cmd_run.c) through session.c.
 */
#include <stdio.h>
#include "commands.h"
#include "signals.h"

int main(int argc, char **argv)
{
	struct options o;
	int rc = options_parse(argc, argv, &o);

	if (rc)
		return rc < 0 ? 0 : rc;
	signals_install();
	switch (o.cmd) {
	case CMD_RUN: return cmd_run(&o);
	case CMD_COMPARE: return cmd_compare(&o);
	case CMD_SWEEP: return cmd_sweep(&o);
	case CMD_LIST: return cmd_list(&o);
	}
	return 2;
}
