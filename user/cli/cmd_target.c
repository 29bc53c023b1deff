/*
 * cmd_target.c - `fctrace run [OPTION...] -- CMD [ARG...]` and `fctrace
 * attach -p PID`: any program, traced, reported and explained like the
 * workloads. Both print their report on stderr, as time(1) and perf stat
 * do, so that CMD's own standard output stays CMD's alone (and attach's
 * goes where run --'s does).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "cli/commands.h"
#include "report/report.h"
#include "trace/usym.h"
#include "base/signals.h"

/* run -- CMD passes CMD's status on; attach exits 0 when it reported.
 * Ctrl-C is how attach without --duration is meant to end (as with perf
 * and bpftrace), so SIGINT after the report is a success; other signals
 * still say they cut it short. */
static int exit_status(const struct options *o, const struct session *s, int rc)
{
	if (rc)
		return rc;
	bool exec = o->target.mode == TGT_EXEC;

	if (!exec && signals_caught() == SIGINT)
		return 0;
	if (signals_caught() && !(exec && s->target.exited))
		return signals_exit_code();
	return exec ? target_exit_status(&s->target) : 0;
}

/*
 * No network on a target's behalf: libdw would fetch the build-ids a
 * target chooses from DEBUGINFOD_URLS; only --debuginfod lets fctrace
 * ask (each fetch bounded, its cache a directory fctrace makes and
 * removes). CMD keeps the variable either way. 0, or 2 with one line.
 */
static int debuginfod_setup(const struct options *o, struct target_opts *to, char **saved)
{
	const char *urls = getenv("DEBUGINFOD_URLS");
	int err;

	*saved = urls ? strdup(urls) : NULL;
	to->debuginfod_urls = *saved;
	err = usym_debuginfod(o->debuginfod);
	if (!err)
		return 0;
	fprintf(stderr, "fctrace: --debuginfod: %s\n", err == -ENOENT ?
		"DEBUGINFOD_URLS is not set: no server to ask" : err == -ENOSYS ?
		"libdebuginfod.so.1 is not installed" : strerror(-err));
	return 2;
}

int cmd_target(const struct options *o)
{
	struct target_opts to = o->target;	/* and CMD's DEBUGINFOD_URLS */
	char *urls = NULL;
	struct session s;
	int rc;

	if ((rc = target_check(&to)) || (rc = cli_check_privileges(o)) ||
	    (rc = debuginfod_setup(o, &to, &urls))) {
		free(urls);
		return rc;
	}
	if (usym_debuginfod_cache() && !o->quiet)
		fprintf(stderr, "fctrace: --debuginfod: fetching missing debug information from "
			"DEBUGINFOD_URLS, cache in %s\n", usym_debuginfod_cache());
	rc = session_run_target(&o->trace, &to, &s);
	usym_debuginfod_end();
	free(urls);
	if (!rc) {
		if (!o->quiet)
			report_table(stderr, &s);
		rc = cmd_write_outputs(o, &s, NULL);
	}
	rc = exit_status(o, &s, rc);
	session_free(&s);
	return rc;
}
