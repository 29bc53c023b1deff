/*
 * session.h - one measured run, start to finish:
 *   load+attach the probes -> run the workload (window open while the
 *   threads run) -> read the maps -> join -> explain.
 * run, compare and sweep are all made of sessions.
 */
#ifndef FCTRACE_SESSION_H
#define FCTRACE_SESSION_H

#include <stdbool.h>
#include "explain.h"
#include "model.h"
#include "options.h"

struct session {
	struct wl_config cfg;
	struct wl_result res;
	struct kview kv;
	bool traced;			/* the kernel view is in kv */
	struct run_model model;
	struct diagnosis diag;
	uint64_t prepare_ns;		/* load + attach */
	unsigned stopped;		/* SIGCONTs during the run: it was stopped */
};

/* Run cfg with the tracing options in o. Returns 0, 2 for bad input,
 * 1 for a failure (message printed), 130/143 when interrupted. */
int session_run(const struct options *o, const struct wl_config *cfg,
		struct session *s);
void session_free(struct session *s);

/* "timing only" if tracing is off: print why once, to stderr. */
int session_check_privileges(const struct options *o);

#endif
