/*
 * floor.c - the confidence floor: a cause the evidence barely shows is
 * not ranked beside the real ones (PostgreSQL's LWLock site at 1 % came
 * second to a cause at 80 %), it is said once on the "Also seen" line
 * with its confidence and the first of its evidence. The same pass runs
 * over a saved run's causes, so `report` says what `run` said.
 */
#include <string.h>
#include "explain/explain.h"
#include "explain/words.h"

/* Ranked causes first, each group keeping its share order. */
static void ranked_first(struct diagnosis *d)
{
	struct diag_cause tmp[EXPLAIN_MAX_CAUSES];
	int k = 0;

	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < d->n; i++)
			if (d->causes[i].ranked == (pass == 0))
				tmp[k++] = d->causes[i];
	memcpy(d->causes, tmp, sizeof(tmp[0]) * (size_t)d->n);
}

/* "Also seen (under the 10 % confidence floor, not ranked): TITLE
 * (confidence 5 %: EVIDENCE); ...": its reason is what was measured. */
static void also_seen(struct diagnosis *d)
{
	d->also[0] = 0;
	for (int i = 0; i < d->n; i++) {
		const struct diag_cause *c = &d->causes[i];

		if (c->ranked)
			continue;
		if (!d->also[0])
			snprintf(d->also, sizeof(d->also), "Also seen (under the %s confidence "
				 "floor, not ranked): ", fig_pct(EXPLAIN_RANK_FLOOR));
		else
			words_append(d->also, sizeof(d->also), "; ");
		words_append(d->also, sizeof(d->also), "%s (confidence %s%s%s)", c->title,
			     fig_pct_small(c->confidence), c->nevidence ? ": " : "",
			     c->nevidence ? c->evidence[0] : "");
	}
	if (d->also[0])
		words_append(d->also, sizeof(d->also), ".");
}

int explain_floor(struct diagnosis *d)
{
	int nranked = 0;

	for (int i = 0; i < d->n; i++) {
		d->causes[i].ranked = d->causes[i].confidence >= EXPLAIN_RANK_FLOOR;
		nranked += d->causes[i].ranked;
	}
	/* none reaches it: the largest still leads, its confidence printed
	 * beside it, rather than a Why that names no cause at all */
	if (!nranked && d->n) {
		d->causes[0].ranked = true;
		nranked = 1;
	}
	ranked_first(d);
	also_seen(d);
	if (nranked < d->n)	/* the causes the "Also seen" line names */
		why_fig(d, "causes_unranked", d->n - nranked);
	return nranked;
}
