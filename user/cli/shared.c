/*
 * shared.c - what the commands share: the privilege check, and the
 * output files of a run (--json, --html, --timeline-out, the flame graphs).
 */
#include <stdio.h>
#include <json-c/json.h>
#include "cli/commands.h"
#include "report/compare.h"
#include "report/flame.h"
#include "report/report.h"
#include "trace/loader.h"

int cli_check_privileges(const struct options *o)
{
	const char *why;

	if (o->trace.no_bpf)
		return 0;
	why = tracer_unavailable_reason();
	if (!why)
		return 0;
	/* --no-bpf is for fctrace's own workloads, which time themselves:
	 * another program has nothing to show without the kernel view */
	if (o->target.mode != TGT_NONE)
		fprintf(stderr, "fctrace: the kernel view needs %s; run it with sudo\n", why);
	else
		fprintf(stderr, "fctrace: the kernel view needs %s; run it with sudo, "
			"or add --no-bpf for the threads' own timings only\n", why);
	return 1;
}

/* --folded and --pprof: the run's stacks (a comparison: the first run's). */
static int write_flames(const struct options *o, const struct session *s)
{
	struct flame_opts fo = { .no_thread = o->no_thread_frame,
				 .duration_ns = s->joined.wall_ns };

	if (!s->stacks.n)
		fprintf(stderr, "fctrace: no stacks in this run (sampled stacks come from "
			"programs traced with run -- CMD or attach): the flame graph files are "
			"empty\n");
	if (o->folded && flame_folded_write(&s->stacks, &fo, o->folded))
		return 1;
	if (o->pprof && flame_pprof_write(&s->stacks, &fo, o->pprof))
		return 1;
	return 0;
}

/* --json and --html of one run, or of it compared with other (commands.h). */
int cmd_write_outputs(const struct options *o, const struct session *s,
		      const struct session *other)
{
	struct json_object *doc;
	int rc = 0;

	if (o->json && other) {
		doc = compare_document(s, other);
		rc = report_json_write(doc, o->json) ? 1 : 0;
		json_object_put(doc);
	} else if (o->json) {
		rc = report_json_write_run(s, o->json) ? 1 : 0;
	}
	if (!rc && o->html)
		rc = (other ? report_html_compare(o->html, s, other) :
		      report_html_run(o->html, s)) ? 1 : 0;
	if (!rc && o->timeline_out)
		rc = report_timeline_write(s, o->timeline_out) ? 1 : 0;
	if (!rc && (o->folded || o->pprof))
		rc = write_flames(o, s);
	return rc;
}
