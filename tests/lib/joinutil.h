/*
 * joinutil.h - a workload's result joined as a session joins it, for the
 * tests that build sessions by hand: its timings attached the workload
 * driver's way (session_workload_timings), then join_run.
 */
#ifndef FCTRACE_JOINUTIL_H
#define FCTRACE_JOINUTIL_H

#include "session/session.h"

/* s->subject and s->timings from res (res->cfg its settings), then
 * s->joined over kv (NULL: untraced); 0 or -1. subject_timings_free or
 * session_free frees s->timings. */
int join_workload(struct session *s, const struct wl_result *res, const struct kview *kv,
		  unsigned groups);

/* A hand-made account's calls of syscall nr as the kernel keeps them:
 * count, errors, timed and total in k's entry for nr (acctutil.h), and their shape (min,
 * max, histogram) appended to the view's (thread, number) table hs,
 * which holds *nhs. Call kview_sort_sc_hists once the view is whole. */
void ju_calls(struct fct_thread *k, struct kv_sc_hist *hs, int *nhs, unsigned nr,
	      const struct sc_stats *s);

#endif
