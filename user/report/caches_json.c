/*
 * caches_json.c - the programs' caches into the run document.
 */
#include "report/caches_json.h"
#include "session/run_format.h"
#include "trace/probes.h"

static double bytes_each(const struct cache_entry *c)
{
	return c->ws_items ? (double)c->ws_bytes / (double)c->ws_items : 0;
}

/* The size now: null figures, and why, where the run could not know it. */
static struct json_object *size_now_json(const struct cache_entry *c)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "items", c->size_known ?
			       json_object_new_uint64(c->size_items) : NULL);
	json_object_object_add(o, "hit_ratio", c->size_known ?
			       json_object_new_double(c->hit_ratio_now) : NULL);
	json_object_object_add(o, "why_unknown", c->size_known || !c->why_unknown[0] ? NULL :
			       json_object_new_string(c->why_unknown));
	return o;
}

static struct json_object *mrc_json(const struct cache_entry *c)
{
	struct json_object *a = json_object_new_array();

	for (int i = 0; i < c->nmrc; i++) {
		struct json_object *p = json_object_new_object();

		json_object_object_add(p, "size_items", json_object_new_uint64(c->mrc[i].size));
		json_object_object_add(p, "size_bytes", json_object_new_uint64(
			(uint64_t)(bytes_each(c) * (double)c->mrc[i].size)));
		json_object_object_add(p, "hit_ratio", json_object_new_double(c->mrc[i].hit_ratio));
		json_object_array_add(a, p);
	}
	return a;
}

static struct json_object *entry_json(const struct cache_entry *c)
{
	struct json_object *o = JW_T(json_object_new_object(), c, rf_cache_head);

	json_object_object_add(o, "size_now", size_now_json(c));
	json_object_object_add(o, "mrc", mrc_json(c));
	return JW_T(o, c, rf_cache_tail);
}

void caches_json(struct json_object *doc, const struct joined_run *m)
{
	struct json_object *a;

	if (!(m->groups & PG_MASK(PG_HANDLES))) {
		json_object_object_add(doc, "caches", NULL);
		return;
	}
	a = json_object_new_array();
	for (int i = 0; i < m->ncaches; i++)
		json_object_array_add(a, entry_json(&m->caches[i]));
	json_object_object_add(doc, "caches", a);
}
