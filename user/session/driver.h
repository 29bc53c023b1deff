/*
 * driver.h - what a session runs: fctrace's own workload or a program it
 * did not write, behind one interface, so that one pipeline (session.c)
 * loads the probes, opens and closes the window, reads the maps, joins
 * and explains either, and the reports see one kind of run.
 *
 *   prepare  the subject set up to run (a child held before its exec...),
 *            and the tracer's settings for it (whose threads, how)
 *   run      the subject, with the tracer's window open while it runs
 *            (t NULL: untraced); returns when it ended or was stopped
 *   read     after the window and the maps were read (s->traced says if):
 *            what the subject says of itself beside the kernel's account
 *            (its own timings, its futex words named)
 *   finish   free what prepare made, whatever happened (always called)
 * Each returns 0, 2 for bad input, or 1 (or a target's 126/127) after a
 * one-line message.
 */
#ifndef FCTRACE_DRIVER_H
#define FCTRACE_DRIVER_H

#include "session/session.h"

struct session_driver {
	const char *what;		/* "workload", "program" */
	int (*prepare)(void *ctx, struct session *s, struct tracer_opts *topts);
	int (*run)(void *ctx, struct session *s, struct tracer *t);
	int (*read)(void *ctx, struct session *s, struct tracer *t);
	void (*finish)(void *ctx, struct session *s);
};

/* The pipeline: prepare -> probes -> run -> maps -> read -> join ->
 * explain -> finish. Returns as the driver's steps do; a run stopped by a
 * signal returns 0 with s->interrupted set. */
int session_drive(const struct session_driver *d, void *ctx, const struct trace_opts *o,
		  struct session *s);

#endif
