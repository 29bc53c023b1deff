/*
 * losses.h - what the kernel side lost, in words, and which printed
 * figures each loss touches: the reports put these first, the causes
 * built on a touched figure say so and lower their confidence, and the
 * JSON lists them (`losses`). Built from the kernel view's counters
 * (struct fct_lost, the timeline's drops) and what the tables held.
 */
#ifndef FCTRACE_LOSSES_H
#define FCTRACE_LOSSES_H

#include <stdbool.h>
#include <stdint.h>
#include "trace/kview.h"

#define LOSS_MAX		16
#define LOSS_MAX_TOUCHES	8

struct loss {
	char id[24];		/* the counter, as lost_events names it: "slot_full" */
	uint64_t count;		/* events (or threads, processes) lost */
	double kept;		/* share of what it counts that was kept, 0..1:
				 * the causes' confidence is scaled by it */
	char says[480];		/* one sentence: "977 of 2001 threads not accounted: ..." */
	int ntouches;
	char touches[LOSS_MAX_TOUCHES][32];	/* JSON keys of the figures it touches */
};

struct losses {
	struct loss l[LOSS_MAX];
	int n;
};

/* Every nonzero loss of kv, in words (out->n 0: nothing lost). */
void losses_find(const struct kview *kv, struct losses *out);
/* Does loss l touch the figure a cause with this id was built on? */
bool loss_touches_cause(const struct loss *l, const char *cause);
/* Does l touch the figure named key ("threads", "locks", ...)? */
bool loss_touches(const struct loss *l, const char *key);

#endif /* FCTRACE_LOSSES_H */
