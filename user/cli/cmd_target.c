/*
 * cmd_target.c - `fctrace run [OPTION...] -- CMD [ARG...]` and `fctrace
 * attach -p PID`: any program, traced, reported and explained like the
 * workloads. run -- CMD prints its report on stderr, as time(1) and perf
 * stat do, so that CMD's own standard output stays CMD's alone.
 */
#include <stdio.h>
#include <json-c/json.h>
#include "cli/commands.h"
#include "report/report.h"
#include "base/signals.h"

static void target_opts_from(const struct options *o, struct target_opts *to)
{
	to->mode = o->cmd == CMD_ATTACH ? TGT_ATTACH : TGT_EXEC;
	to->argv = o->cmd_argv;
	to->pid = o->pid;
	to->duration_ns = o->duration_ns;
	to->follow = o->follow;
	to->as_root = o->as_root;
}

/* run -- CMD passes CMD's status on; attach exits 0 when it reported. */
static int exit_status(const struct options *o, const struct session *s, int rc)
{
	if (rc)
		return rc;
	if (signals_caught() && !(o->cmd_argv && s->target.exited))
		return signals_exit_code();
	return o->cmd_argv ? target_exit_status(&s->target) : 0;
}

int cmd_target(const struct options *o)
{
	struct trace_opts topts = cli_trace_opts(o);
	struct target_opts to = { 0 };
	struct session s;
	int rc;

	target_opts_from(o, &to);
	if ((rc = target_check(&to)) || (rc = cli_check_privileges(o)))
		return rc;
	rc = session_run_target(&topts, &to, &s);
	if (!rc) {
		if (!o->quiet)
			report_table(o->cmd_argv ? stderr : stdout, &s);
		rc = cmd_write_outputs(o, &s, NULL);
	}
	rc = exit_status(o, &s, rc);
	session_free(&s);
	return rc;
}
