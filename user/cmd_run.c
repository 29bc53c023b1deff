/* cmd_run.c - `fctrace run`: one workload, traced, reported and explained. */
#include <stdio.h>
#include <json-c/json.h>
#include "commands.h"
#include "compare.h"
#include "report.h"
#include "signals.h"

static int write_json(const struct options *o, const struct session *s)
{
	struct json_object *doc;
	int rc;

	if (!o->json)
		return 0;
	doc = report_json_run(s);
	rc = report_json_write(doc, o->json);
	json_object_put(doc);
	return rc ? 1 : 0;
}

int cmd_run(const struct options *o)
{
	struct session s, other;
	struct wl_config cfg = o->wl;
	struct trace_opts topts = session_trace_opts(o);
	int rc = session_check_privileges(o);

	if (rc)
		return rc;
	rc = session_run(&topts, &o->wl, &s);
	/* a failed run has said what failed, in one line: no half-filled
	 * table, JSON or HTML after it */
	if (rc) {
		session_free(&s);
		return signals_caught() ? signals_exit_code() : rc;
	}
	if (!o->quiet)
		report_table(stdout, &s);
	if (o->compare_with && !signals_caught()) {
		cfg.workload = o->compare_with;
		if (session_run(&topts, &cfg, &other) == 0 && !o->quiet)
			compare_print(stdout, &s, &other);
		session_free(&other);
	}
	if (!rc)
		rc = write_json(o, &s);
	if (!rc && o->html)
		rc = report_html_run(o->html, &s);
	session_free(&s);
	return signals_caught() ? signals_exit_code() : rc;
}
