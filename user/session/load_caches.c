/*
 * load_caches.c - `caches` back into the joined run (load_caches.h). The
 * tables of session/run_format.c say the members; the code, size_now
 * (whose figures may be null) and the curve.
 */
#include <stdlib.h>
#include <string.h>
#include "session/load_caches.h"
#include "session/run_format.h"

#define CACHES_MAX	4096

static int load_size_now(struct jr *r, struct json_object *o, struct cache_entry *c)
{
	struct json_object *s;
	char saved[128];
	bool items = false, ratio = false;

	if (jr_object(r, o, "size_now", false, &s, saved, sizeof(saved)))
		return -1;
	if (jr_u64_or_null(r, s, "items", &c->size_items, &items) ||
	    jr_str(r, s, "why_unknown", true, c->why_unknown, sizeof(c->why_unknown)))
		return -1;
	if (json_object_get_type(json_object_object_get(s, "hit_ratio")) != json_type_null) {
		if (jr_double(r, s, "hit_ratio", &c->hit_ratio_now))
			return -1;
		ratio = true;
	}
	c->size_known = items && ratio;
	jr_leave(r, saved);
	return 0;
}

static int load_curve(struct jr *r, struct json_object *o, struct cache_entry *c)
{
	struct json_object *a, *p;
	char saved[128];
	size_t n;

	if (jr_array(r, o, "mrc", 0, &a, &n))
		return -1;
	if (n > FU_MRC_MAX)
		return jr_fail(r, "mrc", "has more points than fctrace writes");
	for (size_t i = 0; i < n; i++) {
		if (jr_element(r, a, "mrc", i, &p, saved, sizeof(saved)) ||
		    jr_fields(r, p, &c->mrc[i], rf_cache_point.f, rf_cache_point.n, false))
			return -1;
		jr_leave(r, saved);
	}
	c->nmrc = (int)n;
	return 0;
}

static int load_entry(struct jr *r, struct json_object *o, struct cache_entry *c)
{
	return jr_fields(r, o, c, rf_cache_head.f, rf_cache_head.n, false) ||
	       load_size_now(r, o, c) || load_curve(r, o, c) ||
	       jr_fields(r, o, c, rf_cache_tail.f, rf_cache_tail.n, false) ? -1 : 0;
}

int load_caches(struct jr *r, struct json_object *doc, struct joined_run *m)
{
	struct json_object *a, *o;
	char saved[128];
	size_t n;

	m->caches = NULL;
	m->ncaches = 0;
	if (!json_object_object_get_ex(doc, "caches", &a) || !a)
		return 0;
	if (jr_array(r, doc, "caches", JR_NULL, &a, &n))
		return -1;
	if (n > CACHES_MAX)
		return jr_fail(r, "caches", "has more entries than fctrace writes");
	m->caches = calloc(n ? n : 1, sizeof(*m->caches));
	if (!m->caches)
		return jr_fail(r, "caches", "does not fit in memory");
	for (size_t i = 0; i < n; i++) {
		if (jr_element(r, a, "caches", i, &o, saved, sizeof(saved)) ||
		    load_entry(r, o, &m->caches[i]))
			return -1;
		jr_leave(r, saved);
		m->ncaches++;
	}
	return 0;
}
