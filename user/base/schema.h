/*
 * schema.h - the saved documents' vocabulary, shared by the writers
 * (report/) and the readers (session/load_*.c): the schema's version and
 * the names of a thread's window bits. docs/fctrace.schema.json is the
 * whole schema.
 */
#ifndef FCTRACE_SCHEMA_H
#define FCTRACE_SCHEMA_H

#include <stdint.h>

/* The JSON documents' schema_version (run, compare, sweep). Bump it on
 * any change a reader of the old documents could not follow.
 *   1  the first
 *   2  log-linear histograms under "hist", and what a saved run needs to
 *      be reported again (`fctrace report`, `fctrace diff`) */
#define SCHEMA_VERSION 2

/* How a thread's window began and ended: the FCT_HOW_* bits by their
 * JSON names ("exec", "attach", "in_futex_at_attach", ...). */
struct schema_how {
	uint32_t bit;
	const char *name;
};
extern const struct schema_how schema_hows[];
extern const unsigned schema_nhows;

/* The FCT_HOW_* bit named name, or 0. */
uint32_t schema_how_bit(const char *name);

#endif
