/* cmd_sweep.c - `fctrace sweep`: a matrix of workload runs, measured and explained. */
#include <stdio.h>
#include <json-c/json.h>
#include "cli/commands.h"
#include "report/report.h"
#include "base/signals.h"
#include "report/sweep_print.h"

static int write_outputs(const struct options *o, const struct sweep *sw)
{
	struct json_object *doc;
	int rc = 0;

	if (o->csv && sweep_write_csv(sw, o->csv))
		rc = 1;
	if (o->json) {
		doc = sweep_json(sw);
		if (report_json_write(doc, o->json))
			rc = 1;
		json_object_put(doc);
	}
	if (o->html && report_html_sweep(o->html, sw))
		rc = 1;
	return rc;
}

struct sweep_settings cli_sweep_settings(const struct options *o)
{
	struct sweep_settings set = {
		.trace = o->trace, .wl = o->wl, .workloads = o->workloads,
		.nworkloads = o->nworkloads, .files = o->files, .threads = o->threads,
		.quiet = o->quiet, .repeat = o->repeat,
	};
	return set;
}

int cmd_sweep(const struct options *o)
{
	struct sweep_settings set = cli_sweep_settings(o);
	struct sweep sw;
	struct sweep_fit fit;
	int rc = cli_check_privileges(o);

	if (rc)
		return rc;
	if (sweep_load_fit(&fit, o->fit_path))
		return 2;
	rc = sweep_run(&set, &sw);
	sw.fit = fit;
	if (rc && !sw.interrupted) {	/* the failed cell said why: nothing half-done */
		sweep_free(&sw);
		return rc;
	}
	if (o->predict)
		sweep_predict(&sw);
	if (!o->quiet && sw.n) {
		sweep_print_table(stdout, &sw);
		sweep_print_findings(stdout, &sw);
		if (o->predict)
			sweep_print_predictions(stdout, &sw);
	}
	if (sw.n && write_outputs(o, &sw))
		rc = rc ? rc : 1;
	sweep_free(&sw);
	return signals_caught() ? signals_exit_code() : rc;
}
