/*
 * evictions.h - the page-cache cause's who and how: from the removals
 * pc-evict traced (join/evictions.h), which of the misses were re-reads
 * of pages someone removed - the program itself, another process, the
 * kernel's reclaim, drop_caches - and which were first reads.
 */
#ifndef FCTRACE_EXPLAIN_EVICTIONS_H
#define FCTRACE_EXPLAIN_EVICTIONS_H

#include <stdbool.h>
#include "explain/rules_int.h"

/* Add the evidence to o; true when it also set o's fix (false: the
 * removals were not traced, or the run's own settings say it better). */
bool evictions_explain(struct finding *o, const struct facts *f);

#endif
