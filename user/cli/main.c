/*
 * fctrace - run a file-handle pool or block-cache workload under eBPF and
 * explain where its time went. main only parses, checks (preflight.c) and
 * dispatches; a run is
 * followed from cmd_run (cmd_run.c) through session.c.
 */
#include <stdio.h>
#include "cli/commands.h"
#include "base/outfile.h"
#include "cli/preflight.h"
#include "base/signals.h"
#include "workload.h"	/* wl_request_stop */

int main(int argc, char **argv)
{
	struct options o;
	int rc;

	outfile_guard_std_fds();
	if ((rc = options_parse(argc, argv, &o)))
		return rc < 0 ? outfile_stdout_done() : rc;
	if ((rc = preflight(&o)))
		return rc;
	signals_install(wl_request_stop);
	switch (o.cmd) {
	case CMD_RUN: rc = o.target.argv ? cmd_target(&o) : cmd_run(&o); break;
	case CMD_ATTACH: rc = cmd_target(&o); break;
	case CMD_COMPARE: rc = cmd_compare(&o); break;
	case CMD_SWEEP: rc = cmd_sweep(&o); break;
	case CMD_LIST: rc = cmd_list(&o); break;
	case CMD_REPORT: rc = cmd_report(&o); break;
	case CMD_DIFF: rc = cmd_diff(&o); break;
	default: return 2;
	}
	if (outfile_stdout_done() && !rc)
		rc = 1;		/* a table or - output that did not get out */
	return rc < 0 ? 1 : rc;	/* a -errno from deep down is a failure, not 255 */
}
