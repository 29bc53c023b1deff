/*
 * fctrace - run a file-handle pool or block-cache workload under eBPF and
 * explain where its time went. main only parses, checks (preflight.c) and
 * dispatches; a run is
 * followed from cmd_run (cmd_run.c) through session.c.
 */
#include <stdio.h>
#include "commands.h"
#include "preflight.h"
#include "signals.h"

int main(int argc, char **argv)
{
	struct options o;
	int rc = options_parse(argc, argv, &o);

	if (rc)
		return rc < 0 ? 0 : rc;
	if ((rc = preflight(&o)))
		return rc;
	signals_install();
	switch (o.cmd) {
	case CMD_RUN: rc = o.cmd_argv ? cmd_target(&o) : cmd_run(&o); break;
	case CMD_ATTACH: rc = cmd_target(&o); break;
	case CMD_COMPARE: rc = cmd_compare(&o); break;
	case CMD_SWEEP: rc = cmd_sweep(&o); break;
	case CMD_LIST: rc = cmd_list(&o); break;
	default: return 2;
	}
	return rc < 0 ? 1 : rc;	/* a -errno from deep down is a failure, not 255 */
}
