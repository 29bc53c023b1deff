/* cmd_compare.c - `fctrace compare`: two workloads, same settings, term by term. */
#include <stdio.h>
#include <json-c/json.h>
#include "commands.h"
#include "compare.h"
#include "report.h"
#include "signals.h"

static int write_json(const struct options *o, struct session s[2])
{
	struct json_object *doc = json_object_new_object(), *runs = json_object_new_array();
	int rc;

	json_object_object_add(doc, "schema_version", json_object_new_int(1));
	json_object_object_add(doc, "command", json_object_new_string("compare"));
	json_object_array_add(runs, report_json_run(&s[0]));
	json_object_array_add(runs, report_json_run(&s[1]));
	json_object_object_add(doc, "runs", runs);
	json_object_object_add(doc, "compare", compare_json(&s[0], &s[1]));
	rc = report_json_write(doc, o->json);
	json_object_put(doc);
	return rc ? 1 : 0;
}

int cmd_compare(const struct options *o)
{
	struct session s[2];
	struct wl_config cfg = o->wl;
	int rc = session_check_privileges(o), ran = 0;

	if (rc)
		return rc;
	for (ran = 0; ran < 2 && !rc && !signals_caught(); ran++) {
		cfg.workload = ran == 0 ? o->workloads[0] :
			       o->compare_with ? o->compare_with : o->workloads[1];
		rc = session_run(o, &cfg, &s[ran]);
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
	}
	while (ran-- > 0)
		session_free(&s[ran]);
	return signals_caught() ? signals_exit_code() : rc;
}
