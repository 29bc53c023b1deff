/*
 * load_json.c - the saved documents `fctrace report` and `diff` read: the
 * file read whole, parsed as exactly one JSON value, and told apart (a
 * run, a comparison, a sweep) once its schema_version is this fctrace's.
 * A run document becomes a session in load_run.c.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/jsonread.h"
#include "session/load_json.h"
#include "base/schema.h"

#define LOAD_MAX_BYTES	(256u << 20)	/* a run of 256 threads is a few MiB */

static char *read_all(FILE *f, size_t *len)
{
	size_t cap = 1 << 16, n = 0, got;
	char *buf = malloc(cap), *more;

	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap && cap < LOAD_MAX_BYTES) {
			more = realloc(buf, cap *= 2);
			if (!more)
				free(buf);
			buf = more;
		} else if (n == cap) {
			errno = EFBIG;
			free(buf);
			return NULL;
		}
	}
	if (buf && ferror(f)) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

/* Nothing but white space from text to text + len. */
static bool only_space(const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (text[i] != ' ' && text[i] != '\t' && text[i] != '\r' && text[i] != '\n')
			return false;
	return true;
}

int load_text(const char *text, size_t len, struct json_object **doc, char *why, size_t n)
{
	struct json_tokener *tok = json_tokener_new();
	enum json_tokener_error err;
	size_t end;

	*doc = NULL;
	if (!tok)
		return snprintf(why, n, "out of memory"), -1;
	if (len > LOAD_MAX_BYTES) {
		json_tokener_free(tok);
		return snprintf(why, n, "is larger than 256 MiB: not a saved run"), -1;
	}
	*doc = json_tokener_parse_ex(tok, text, (int)len);
	err = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	if (!*doc && err == json_tokener_continue)
		snprintf(why, n, "%s", only_space(text, len) ? "is empty, not JSON" :
			 "is cut short: the JSON ends before its last value does");
	else if (!*doc)
		snprintf(why, n, "is not JSON: %s at byte %zu", json_tokener_error_desc(err), end);
	else if (!only_space(text + end, len - end)) {
		snprintf(why, n, "is not one JSON document: more follows at byte %zu", end);
		json_object_put(*doc);
		*doc = NULL;
	}
	json_tokener_free(tok);
	return *doc ? 0 : -1;
}

int load_document(const char *path, struct json_object **doc, char *why, size_t n)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	size_t len = 0;
	char *text;
	int rc;

	*doc = NULL;
	if (!f)
		return snprintf(why, n, "%s", strerror(errno)), -1;
	text = read_all(f, &len);
	if (!text)
		snprintf(why, n, "%s", errno == EFBIG ? "is larger than 256 MiB: not a saved run"
			 : strerror(errno ? errno : EIO));
	if (f != stdin)
		fclose(f);
	if (!text)
		return -1;
	rc = load_text(text, len, doc, why, n);
	free(text);
	return rc;
}

int load_kind(struct json_object *doc, enum load_kind *kind, char *why, size_t n)
{
	struct jr r = { why, n, "" };
	struct json_object *cmd = NULL;
	uint64_t v;

	if (!json_object_is_type(doc, json_type_object))
		return jr_fail(&r, NULL, "is JSON but not an fctrace document (not an object)");
	if (!json_object_object_get_ex(doc, "schema_version", NULL))
		return jr_fail(&r, NULL,
			       "is JSON but not an fctrace document (no \"schema_version\")");
	if (jr_u64(&r, doc, "schema_version", &v))
		return -1;
	if (v != SCHEMA_VERSION) {
		snprintf(why, n, "has schema_version %llu, this fctrace reads %d only: %s",
			 (unsigned long long)v, SCHEMA_VERSION, v < SCHEMA_VERSION ?
			 "an older fctrace wrote it without all a report needs; run it again"
			 : "a newer fctrace wrote it; report it with that one");
		return -1;
	}
	*kind = LOAD_RUN;
	if (!json_object_object_get_ex(doc, "command", &cmd))
		return 0;
	if (json_object_is_type(cmd, json_type_string) &&
	    !strcmp(json_object_get_string(cmd), "compare"))
		return *kind = LOAD_COMPARE, 0;
	if (json_object_is_type(cmd, json_type_string) &&
	    !strcmp(json_object_get_string(cmd), "sweep"))
		return *kind = LOAD_SWEEP, 0;
	return jr_fail(&r, "command", "must be \"compare\" or \"sweep\" (or absent: a run)");
}
