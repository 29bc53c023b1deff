/*
 * evictions_json.h - the JSON's `pagecache_evictions` (who removed the
 * target's pages, and how) and `pagecache_rereads` (its misses split into
 * re-reads of removed pages and first reads).
 */
#ifndef FCTRACE_EVICTIONS_JSON_H
#define FCTRACE_EVICTIONS_JSON_H

#include <json-c/json.h>
#include "join/evictions.h"

/* "fadvise", ... as the schema names them (direct_io is "other") */
const char *evict_how_json(unsigned how);
/* both keys, null when the removals were not traced */
void evictions_json(struct json_object *doc, const struct pc_evictions *e);

#endif /* FCTRACE_EVICTIONS_JSON_H */
