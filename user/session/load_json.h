/*
 * load_json.h - the documents `fctrace report` and `fctrace diff` read:
 * what `run --json` (or `attach`, `run -- CMD`, `compare`) wrote. A run
 * document becomes the session it was written from in load_run.h.
 *
 * Every function returning int gives 0, or -1 with the problem in why
 * as one line without the file's name (the caller adds it).
 */
#ifndef FCTRACE_LOAD_JSON_H
#define FCTRACE_LOAD_JSON_H

#include <stddef.h>

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

#endif
