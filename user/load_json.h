/*
 * load_json.h - a saved run read back: the JSON that `run --json` (or
 * `attach`, `run -- CMD`, `compare`) wrote, rebuilt into the struct
 * session it was written from, so that every reporter prints it again
 * unchanged (`fctrace report`, `fctrace diff`).
 *
 * Every function returning int gives 0, or -1 with the problem in why
 * as one line without the file's name (the caller adds it).
 */
#ifndef FCTRACE_LOAD_JSON_H
#define FCTRACE_LOAD_JSON_H

#include <stddef.h>
#include "session.h"

struct json_object;

/* What a saved document is. */
enum load_kind { LOAD_RUN, LOAD_COMPARE, LOAD_SWEEP };

/* Read and parse the whole of path ("-": standard input); *doc is the
 * caller's (json_object_put). */
int load_document(const char *path, struct json_object **doc, char *why, size_t n);
/* The same for text already read (len bytes, a NUL among them is not JSON). */
int load_text(const char *text, size_t len, struct json_object **doc, char *why, size_t n);
/* The kind of doc, once its schema_version is one this fctrace reads. */
int load_kind(struct json_object *doc, enum load_kind *kind, char *why, size_t n);
/* The session a run document was written from. s is safe to session_free
 * whatever this returns; its strings point into s itself or into static
 * tables, never into doc. */
int load_run(struct json_object *doc, struct session *s, char *why, size_t n);

#endif
