/* cmd_compare.c - `fctrace compare`: two workloads, same settings, term by term. */
#include <stdio.h>
#include <json-c/json.h>
#include "cli/commands.h"
#include "report/compare.h"
#include "report/report.h"
#include "base/signals.h"

static int write_json(const struct options *o, struct session s[2])
{
	struct json_object *doc = compare_document(&s[0], &s[1]);
	int rc = report_json_write(doc, o->json);

	json_object_put(doc);
	return rc ? 1 : 0;
}

int cmd_compare(const struct options *o)
{
	struct session s[2];
	struct wl_config cfg = o->wl;
	int rc = cli_check_privileges(o), ran = 0;

	if (rc)
		return rc;
	for (ran = 0; ran < 2 && !rc && !signals_caught(); ran++) {
		cfg.workload = ran == 0 ? o->workloads[0] :
			       o->compare_with ? o->compare_with : o->workloads[1];
		rc = session_run(&o->trace, &cfg, &s[ran]);
		if (!rc && !o->quiet)
			report_table(stdout, &s[ran]);
	}
	if (!rc && ran == 2) {
		if (!o->quiet)
			compare_print(stdout, &s[0], &s[1]);
		if (o->json)
			rc = write_json(o, s);
		if (!rc && o->html)
			rc = report_html_compare(o->html, &s[0], &s[1]);
	} else if (!rc && signals_caught() && (o->json || o->html)) {
		/* one run is no comparison: its table above is all there is */
		fprintf(stderr, "fctrace: interrupted before %s ran: no comparison, so no "
			"--json/--html file\n", o->compare_with ? o->compare_with : o->workloads[1]);
	}
	while (ran-- > 0)
		session_free(&s[ran]);
	return signals_caught() ? signals_exit_code() : rc;
}
