/*
 * load_run.h - a saved run read back: a run document (load_json.h) rebuilt
 * into the struct session it was written from, so that every reporter
 * prints it again unchanged (`fctrace report`, `fctrace diff`).
 */
#ifndef FCTRACE_LOAD_RUN_H
#define FCTRACE_LOAD_RUN_H

#include <stddef.h>
#include "session/session.h"

struct json_object;

/* The session run document doc was written from: 0, or -1 with the
 * problem in why as one line without the file's name. s is safe to
 * session_free whatever this returns; its strings point into s itself or
 * into static tables, never into doc. */
int load_run(struct json_object *doc, struct session *s, char *why, size_t n);
/* The same from the file path, which must hold one run (not a compare or
 * a sweep): 0, or -1 with why; s is safe to session_free either way. */
int load_run_file(const char *path, struct session *s, char *why, size_t n);

#endif
