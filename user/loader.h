/*
 * loader.h - the BPF side's lifecycle, perf-style:
 *   tracer_prepare  open the skeleton, filter on the target, load, attach
 *   tracer_start    open the counting window
 *   tracer_stop     close it
 *   tracer_read     copy the maps into a struct kview
 *   tracer_finish   detach and free everything (safe on a partial prepare)
 */
#ifndef FCTRACE_LOADER_H
#define FCTRACE_LOADER_H

#include <stdbool.h>
#include <sys/types.h>
#include "kview.h"

struct tracer;

struct tracer_opts {
	unsigned groups;	/* PG_MASK bits wanted */
	pid_t tgid;		/* the process to trace (fctrace itself) */
	unsigned time_every;	/* time 1 syscall in this many (power of 2); 0: default */
	bool verbose;		/* libbpf's debug output */
};

/* Returns 0 when at least the marks and one other group attached; the
 * fate of every program is in kv->probes either way. On failure *out is
 * NULL and a one-line reason is printed. */
int tracer_prepare(struct tracer **out, const struct tracer_opts *opts,
		   struct kview *kv);
void tracer_start(struct tracer *t);
void tracer_stop(struct tracer *t);
int tracer_read(struct tracer *t, struct kview *kv);
void tracer_finish(struct tracer *t);

/* Why BPF cannot run here (not root, no BTF, ...), or NULL if it can. */
const char *tracer_unavailable_reason(void);

#endif /* FCTRACE_LOADER_H */
