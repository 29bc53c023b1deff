/*
 * pprofutil.h - the flame graph tests' look at a pprof file through
 * protoc and pprof's own profile.proto (Debian's
 * golang-github-google-pprof-dev), not through fctrace's reader.
 */
#ifndef FCTRACE_TEST_PPROFUTIL_H
#define FCTRACE_TEST_PPROFUTIL_H

#include <stdint.h>

#define PPROF_PROTO_DIR	"/usr/share/gocode/src/github.com/google/pprof/proto"

/* protoc's text form of the gzipped profile gz: the sum of each sample's
 * first value (wait ns); -1 when protoc is missing. */
int64_t pprof_wait_total(const char *gz);

#endif
