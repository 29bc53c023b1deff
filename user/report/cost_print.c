/*
 * cost_print.c - fctrace's measured cost, printed and in the JSON
 * (cost_print.h).
 */
#include <stdint.h>
#include <string.h>
#include <json-c/json.h>
#include "base/units.h"
#include "report/cost_print.h"
#include "report/why.h"
#include "session/run_format.h"

/* the budget's words: kept, or passed and what the trial found */
static void budget_words(const struct selfcost_figures *c, char *b, size_t n)
{
	char at[16];

	if (c->paused_at_ns)
		snprintf(b, n, "Budget %.3g %%: passed (%.1f %%); %.1f %% without the handles' file "
			 "stream, so it stopped %s into the window: the caches' figures are of the "
			 "part before.", 100 * c->budget, 100 * c->with_files_share,
			 100 * c->without_files_share,
			 units_ns(at, sizeof(at), (double)c->paused_at_ns));
	else if (c->trial_ns)
		snprintf(b, n, "Budget %.3g %%: passed (%.1f %%), and %.1f %% without the "
			 "handles' file stream (stopped %s to find out, then on again: it cost next "
			 "to nothing): the syscall hooks cost it; --probes light costs less.", 100 * c->budget,
			 100 * c->with_files_share, 100 * c->without_files_share,
			 units_ns(at, sizeof(at), (double)c->trial_ns));
	else if (c->void_trial_ns)
		snprintf(b, n, "Budget %.3g %%: passed (%.1f %%); the handles' file stream stopped %s "
			 "to measure without it, but the traced processes ran too little then to "
			 "tell (idle, gone, or the window closed), so it went on.", 100 * c->budget,
			 100 * c->with_files_share,
			 units_ns(at, sizeof(at), (double)c->void_trial_ns));
	else if (c->timing_at_ns || c->holders_at_ns)	/* no stream to stop first */
		snprintf(b, n, "Budget %.3g %%: passed.", 100 * c->budget);
	else
		snprintf(b, n, "Budget %.3g %%: kept, nothing stopped.", 100 * c->budget);
}

/* A later step's sentence: what it did, when, and the next second's share
 * (0: that second measured nothing). */
static void step_words(char *b, size_t n, const char *did, uint64_t at_ns, const char *then,
		       double share)
{
	char at[16], after[64] = "";

	if (share > 0)
		snprintf(after, sizeof(after), ": %.1f %% after", 100 * share);
	snprintf(b, n, " Then %s, %s into the window %s%s.", did,
		 units_ns(at, sizeof(at), (double)at_ns), then, after);
}

/* the second step's words, after the first's */
static void timing_words(const struct selfcost_figures *c, char *b, size_t n)
{
	char did[96];

	if (!c->timing_at_ns || !n)
		return;
	snprintf(did, sizeof(did), "syscall timing went from 1 call in %u to 1 in %u",
		 c->time_every_before, c->time_every_after);
	step_words(b, n, did, c->timing_at_ns, "(the counts stay exact; the calls' times after "
		   "it are estimates from fewer calls)", c->timing_share);
}

/* the third step's words, after the second's */
static void holders_words(const struct selfcost_figures *c, char *b, size_t n)
{
	char did[96], then[160];

	if (!c->holders_at_ns || !n)
		return;
	snprintf(did, sizeof(did), "the holders were followed for the %u lock%s waited on most",
		 c->holders_kept, units_plural(c->holders_kept));
	snprintf(then, sizeof(then), "(the holders of %u other lock%s are not reported: a part "
		 "of the window would be no figure of it)", c->holders_dropped,
		 units_plural(c->holders_dropped));
	step_words(b, n, did, c->holders_at_ns, then, c->holders_share);
}

void cost_print(FILE *f, const struct kview *kv)
{
	const struct selfcost_figures *c = &kv->cost;
	char bpf[16], own[16], est[16], win[16], share[96], text[1536];
	size_t len;

	if (!kv->cost_measured)
		return;
	if (c->target_ns > c->bpf_ns)
		snprintf(share, sizeof(share), "%.1f %% of the traced processes' CPU (the dearest "
			 "second %.1f %%)", 100 * selfcost_share(c), 100 * c->peak_share);
	else		/* ticks of 10 ms: a short run shows none */
		snprintf(share, sizeof(share), "the traced processes' CPU too short to measure");
	len = (size_t)snprintf(text, sizeof(text), "in %llu sampled second%s (BPF statistics on "
		"1 s in %d) the BPF programs ran %s and fctrace's own threads %s: %s; the BPF "
		"programs about %s over the %s window.", (unsigned long long)c->samples,
		c->samples == 1 ? "" : "s", SELFCOST_EVERY,
		units_ns(bpf, sizeof(bpf), (double)c->bpf_ns),
		c->tracer_ns ? units_ns(own, sizeof(own), (double)c->tracer_ns) :
			       "- (its workers are the target)", share,
		units_ns(est, sizeof(est), (double)selfcost_bpf_est_ns(c)),
		units_ns(win, sizeof(win), (double)c->window_ns));
	if (c->budget > 0 && len < sizeof(text) - 1) {
		text[len++] = ' ';
		budget_words(c, text + len, sizeof(text) - len);
		len = strlen(text);
		timing_words(c, text + len, sizeof(text) - len);
		len = strlen(text);
		holders_words(c, text + len, sizeof(text) - len);
	}
	why_wrap(f, "Cost: ", text);
}

struct json_object *cost_json(const struct kview *kv)
{
	const struct selfcost_figures *c = &kv->cost;
	struct json_object *o;

	if (!kv->cost_measured)
		return NULL;
	o = json_object_new_object();
	JW_T(o, c, rf_cost);
	json_object_object_add(o, "share", json_object_new_double(selfcost_share(c)));
	json_object_object_add(o, "bpf_est_ns", json_object_new_uint64(selfcost_bpf_est_ns(c)));
	return o;
}
