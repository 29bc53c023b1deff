/*
 * fuzz_loadjson.c - libFuzzer target for saved runs (load_json.c,
 * load_run.c): any bytes as the file `fctrace report` and `fctrace diff`
 * read.
 *
 * Checks: a refused input says why in one line; an accepted run prints
 * its table, and the document report_json_run writes of it (what
 * `report --json` writes) loads again to the same table. A compare
 * document's runs are tried as runs too.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "session/load_json.h"
#include "session/load_run.h"
#include "report/report.h"

static void refused(const char *why)
{
	if (!why[0] || strchr(why, '\n'))
		abort();
}

static char *table_of(const struct session *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		abort();
	report_table(f, s);
	fclose(f);
	return text;
}

/* What report prints of doc, and what it prints of report --json's file. */
static void report_twice(struct json_object *doc)
{
	struct json_object *again;
	struct session s, t;
	char why[320], *first, *second;

	if (load_run(doc, &s, why, sizeof(why))) {
		refused(why);
		session_free(&s);
		return;
	}
	first = table_of(&s);
	again = report_json_run(&s);
	if (load_run(again, &t, why, sizeof(why)))
		abort();	/* fctrace cannot read back what it wrote */
	second = table_of(&t);
	if (strcmp(first, second))
		abort();
	free(first);
	free(second);
	json_object_put(again);
	session_free(&s);
	session_free(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct json_object *doc, *runs;
	enum load_kind kind;
	char why[320];

	why[0] = '\0';
	if (load_text((const char *)data, size, &doc, why, sizeof(why))) {
		refused(why);
		return 0;
	}
	if (load_kind(doc, &kind, why, sizeof(why)))
		refused(why);
	else if (kind == LOAD_COMPARE && json_object_object_get_ex(doc, "runs", &runs) &&
		 json_object_is_type(runs, json_type_array))
		for (size_t i = 0; i < json_object_array_length(runs) && i < 2; i++)
			report_twice(json_object_array_get_idx(runs, i));
	else
		report_twice(doc);
	json_object_put(doc);
	return 0;
}
