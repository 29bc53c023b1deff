/*
 * joinutil.c - a workload's result joined as a session joins it
 * (joinutil.h).
 */
#include <string.h>
#include "acctutil.h"
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

void ju_calls(struct fct_thread *k, struct kv_sc_hist *hs, int *nhs, unsigned nr,
	      const struct sc_stats *s)
{
	struct kv_sc_hist *h = &hs[(*nhs)++];

	*au_nr(k, nr) = (struct fct_nr_stats){ .count = s->count, .errors = s->errors,
		.timed = s->timed, .total_ns = s->total_ns, .blocked_ns = s->blocked_ns };
	*h = (struct kv_sc_hist){ .key = { .tid = k->tid, .nr = nr },
		.val = { .min_ns = s->min_ns, .max_ns = s->max_ns } };
	memcpy(h->val.hist, s->hist, sizeof(h->val.hist));
}
