/*
 * flameutil.h - the flame graph tests' look at the files fctrace wrote:
 * a folded file's lines, and a pprof file through protoc and pprof's own
 * profile.proto (Debian's golang-github-google-pprof-dev), not through
 * fctrace's reader.
 */
#ifndef FCTRACE_TEST_FLAMEUTIL_H
#define FCTRACE_TEST_FLAMEUTIL_H

#include <stdint.h>

#define PPROF_PROTO_DIR	"/usr/share/gocode/src/github.com/google/pprof/proto"

/* protoc's text form of the gzipped profile gz: the sum of each sample's
 * first value (wait ns); -1 when protoc is missing. */
int64_t pprof_wait_total(const char *gz);

/* protoc's text form of the gzipped profile gz, every run of white space
 * one space ("location { id: 2 line { function_id: 3 line: 35 } ... }"),
 * malloc'd; NULL when protoc is missing. */
char *pprof_text(const char *gz);

/* The folded file's time under the stacks whose line holds n1 and, if
 * not NULL, n2 (";"-separated frames, anywhere in the line up to the
 * space before its value: a needle ending in a space is the leaf). */
uint64_t folded_ns(const char *path, const char *n1, const char *n2);

#endif
