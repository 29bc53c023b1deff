/* cmd_run.c - `fctrace run`: one workload, traced, reported and explained;
 * with --compare, a second workload at the same settings, and then the
 * --json/--html files hold both runs and the comparison (as `compare`). */
#include <stdio.h>
#include <json-c/json.h>
#include "cli/commands.h"
#include "report/compare.h"
#include "report/report.h"
#include "base/signals.h"

/* --compare: 0 with other run, or the failure (nothing to write then). */
static int run_other(const struct options *o, const struct session *s, struct session *other)
{
	struct wl_config cfg = o->wl;
	int rc;

	if (signals_caught()) {
		if (o->json || o->html)
			fprintf(stderr, "fctrace: interrupted before %s ran: no comparison, so no "
				"--json/--html file\n", o->compare_with);
		return 1;
	}
	cfg.workload = o->compare_with;
	if (!(rc = session_run(&o->trace, &cfg, other))) {
		if (!o->quiet)
			compare_print(stdout, s, other);
		return 0;
	}
	session_free(other);
	if (!signals_caught())
		fprintf(stderr, "fctrace: the compared run (%s) failed: no comparison%s\n",
			o->compare_with, o->json || o->html ? ", so no --json/--html file" : "");
	return rc;
}

int cmd_run(const struct options *o)
{
	struct session s, other;
	int rc = cli_check_privileges(o);

	if (rc)
		return rc;
	rc = session_run(&o->trace, &o->wl, &s);
	/* a failed run has said what failed, in one line: no half-filled
	 * table, JSON or HTML after it */
	if (rc) {
		session_free(&s);
		return signals_caught() ? signals_exit_code() : rc;
	}
	if (!o->quiet)
		report_table(stdout, &s);
	if (!rc && o->compare_with) {
		rc = run_other(o, &s, &other);
		if (!rc) {
			rc = cmd_write_outputs(o, &s, &other);
			session_free(&other);
		} else if (signals_caught()) {
			rc = 0;		/* the exit status says it */
		}
	} else if (!rc) {
		rc = cmd_write_outputs(o, &s, NULL);
	}
	session_free(&s);
	return signals_caught() ? signals_exit_code() : rc;
}
