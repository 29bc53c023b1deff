/*
 * joinutil.c - a workload's result joined as a session joins it
 * (joinutil.h).
 */
#include "joinutil.h"

int join_workload(struct session *s, const struct wl_result *res, const struct kview *kv,
		  unsigned groups)
{
	struct run_attachments att = { .subject = res->cfg.workload, .timings = &s->timings };

	if (session_workload_timings(&s->timings, res, &res->cfg))
		return -1;
	s->subject = res->cfg.workload;
	return join_run(&s->joined, kv, groups, &att);
}
