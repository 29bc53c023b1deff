/*
 * cmd_report.c - saved runs: `fctrace report FILE` prints what --json
 * wrote again (a run's tables and Why, or a comparison as `compare`
 * printed it), and `fctrace diff A B` compares two saved runs term by
 * term. load_json.c reads the files, load_run.c rebuilds the sessions,
 * and the reporters that printed them the first time print them again:
 * nothing runs, no root is needed.
 * A file that cannot be read as a saved run is one line and status 2.
 */
#include <stdbool.h>
#include <stdio.h>
#include <json-c/json.h>
#include "cli/commands.h"
#include "report/compare.h"
#include "session/load_json.h"
#include "session/load_run.h"
#include "report/report.h"
#include "base/termsafe.h"

/* The file's name and what its text made of the message: both may hold
 * what a terminal acts on (a name given by a program, a file's string). */
static int refuse(const char *path, const char *why)
{
	char p[600], w[1400];

	fprintf(stderr, "fctrace: %s: %s\n", term_safe(p, sizeof(p), path),
		term_safe(w, sizeof(w), why));
	return 2;
}

/* The document in path and what it is; 0, or 2 after one line. */
static int open_doc(const char *path, struct json_object **doc, enum load_kind *kind)
{
	char why[320];

	if (load_document(path, doc, why, sizeof(why)) ||
	    load_kind(*doc, kind, why, sizeof(why))) {
		json_object_put(*doc);
		*doc = NULL;
		return refuse(path, why);
	}
	if (*kind != LOAD_SWEEP)
		return 0;
	json_object_put(*doc);
	*doc = NULL;
	return refuse(path, "is a sweep: report and diff read runs (a sweep's cells are in its "
		      "JSON and --csv as they are)");
}

/* The session of run document doc (element idx of a compare's runs, or
 * -1 for a run document); 0, or 2 after one line. */
static int load_one(const char *path, struct json_object *doc, int idx, struct session *s)
{
	char why[320], line[360];

	if (!load_run(doc, s, why, sizeof(why)))
		return 0;
	session_free(s);
	if (idx < 0)
		return refuse(path, why);
	snprintf(line, sizeof(line), "runs[%d]: %s", idx, why);
	return refuse(path, line);
}

/* Both runs of a compare document. */
static int load_pair(const char *path, struct json_object *doc, struct session s[2])
{
	struct json_object *runs = NULL;
	int rc;

	if (!json_object_object_get_ex(doc, "runs", &runs) ||
	    !json_object_is_type(runs, json_type_array) || json_object_array_length(runs) != 2)
		return refuse(path, "is a comparison without its two runs "
			      "(\"runs\" must hold two)");
	if ((rc = load_one(path, json_object_array_get_idx(runs, 0), 0, &s[0])))
		return rc;
	if ((rc = load_one(path, json_object_array_get_idx(runs, 1), 1, &s[1])))
		session_free(&s[0]);
	return rc;
}

int cmd_report(const struct options *o)
{
	const char *path = o->inputs[0];
	struct json_object *doc;
	enum load_kind kind;
	struct session s[2];
	int rc, n;

	if ((rc = open_doc(path, &doc, &kind)))
		return rc;
	n = kind == LOAD_COMPARE ? 2 : 1;
	rc = n == 2 ? load_pair(path, doc, s) : load_one(path, doc, -1, &s[0]);
	json_object_put(doc);
	if (rc)
		return rc;
	/* as run and compare printed it: each run's table, then the terms */
	for (int i = 0; i < n && !o->quiet; i++)
		report_table(stdout, &s[i]);
	if (n == 2 && !o->quiet)
		compare_print(stdout, &s[0], &s[1]);
	rc = cmd_write_outputs(o, &s[0], n == 2 ? &s[1] : NULL);
	while (n-- > 0)
		session_free(&s[n]);
	return rc;
}

/* One of diff's files: a run document. */
static int load_diffed(const char *path, struct session *s)
{
	struct json_object *doc;
	enum load_kind kind;
	int rc;

	if ((rc = open_doc(path, &doc, &kind)))
		return rc;
	if (kind == LOAD_COMPARE) {
		json_object_put(doc);
		return refuse(path, "is a comparison already: `fctrace report` prints it; diff "
			      "takes two runs");
	}
	rc = load_one(path, doc, -1, s);
	json_object_put(doc);
	return rc;
}

/* Every setting but the workload (compare runs both at one config). */
static bool same_settings(const struct wl_config *a, const struct wl_config *b)
{
	return a->files == b->files && a->threads == b->threads && a->ops == b->ops &&
	       a->file_size == b->file_size && a->chunk == b->chunk && a->pool == b->pool &&
	       a->block == b->block && a->cache_size == b->cache_size && a->seed == b->seed &&
	       a->shared_file == b->shared_file && a->handle == b->handle &&
	       a->cache == b->cache && a->pressure == b->pressure;
}

/* compare's heading gives the first run's settings as both runs': when
 * the saved runs were made at different ones, say so first. */
static void say_settings(const struct options *o, const struct session s[2])
{
	char a[200], b[200], sa[800], sb[800];

	if (s[0].target.mode != TGT_NONE ||	/* a program's heading says what it ran */
	    (same_settings(&s[0].cfg, &s[1].cfg) && s[0].joined.ncpus == s[1].joined.ncpus))
		return;
	report_describe(a, sizeof(a), &s[0]);
	report_describe(b, sizeof(b), &s[1]);
	/* the workload's name is the file's */
	printf("The runs' settings differ:\n  %s: %s, %u CPUs\n  %s: %s, %u CPUs\n",
	       o->inputs[0], term_safe(sa, sizeof(sa), a), s[0].joined.ncpus, o->inputs[1],
	       term_safe(sb, sizeof(sb), b), s[1].joined.ncpus);
}

int cmd_diff(const struct options *o)
{
	struct session s[2];
	int rc;

	if ((rc = load_diffed(o->inputs[0], &s[0])))
		return rc;
	if ((rc = load_diffed(o->inputs[1], &s[1]))) {
		session_free(&s[0]);
		return rc;
	}
	if ((s[0].target.mode == TGT_NONE) != (s[1].target.mode == TGT_NONE)) {
		/* a workload's terms are per op and setting, a program's are not */
		rc = refuse(o->inputs[s[0].target.mode == TGT_NONE],
			    "is a run of another program (run -- CMD, attach), the other file "
			    "a workload's: diff compares two of a kind");
		session_free(&s[0]);
		session_free(&s[1]);
		return rc;
	}
	if (!o->quiet) {
		say_settings(o, s);
		compare_print(stdout, &s[0], &s[1]);
	}
	rc = cmd_write_outputs(o, &s[0], &s[1]);
	session_free(&s[0]);
	session_free(&s[1]);
	return rc;
}
