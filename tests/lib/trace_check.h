/*
 * trace_check.h - checks a Chrome trace-event JSON document against the
 * format's rules, as the unit test and the BPF test of --timeline-out
 * both need: every event has ph, name, pid and tid; "M" names a process
 * or thread; "X" has ts and dur >= 0; each thread's complete events come
 * in time order without overlap (flat lanes nest trivially); every
 * thread with events is named; flow starts and finishes pair up by id,
 * the finish not before its start, and bind to a slice of their thread.
 */
#ifndef FCTRACE_TRACE_CHECK_H
#define FCTRACE_TRACE_CHECK_H

#include <stddef.h>

struct trace_counts {
	int threads;		/* thread_name metadata */
	long complete;		/* "X" events */
	long flows;		/* start/finish pairs */
	double span_us;		/* last end - first start of the X events */
};

/* 0 if text is a valid trace; else -1 with why filled in. */
int trace_check(const char *text, struct trace_counts *c, char *why, size_t n);

#endif
