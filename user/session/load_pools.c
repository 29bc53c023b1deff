/*
 * load_pools.c - `pools` back into the joined run (load_pools.h), by the
 * tables of session/run_format.c; capacity (null when not measured) and
 * the what-ifs in code.
 */
#include <stdlib.h>
#include "session/load_pools.h"
#include "session/run_format.h"

static int load_whatif(struct jr *r, struct json_object *o, struct pool_row *p)
{
	struct json_object *a, *w;
	char saved[128];
	size_t n;

	if (jr_array(r, o, "whatif", 0, &a, &n))
		return -1;
	if (n > POOL_WHATIF_MAX)
		return jr_fail(r, "whatif", "has more rows than fctrace writes");
	for (size_t i = 0; i < n; i++) {
		if (jr_element(r, a, "whatif", i, &w, saved, sizeof(saved)) ||
		    JR_READ_T(r, w, &p->whatif[i], rf_pool_whatif))
			return -1;
		jr_leave(r, saved);
	}
	p->nwhatif = (int)n;
	return 0;
}

static int load_pool(struct jr *r, struct json_object *o, struct pool_row *p)
{
	uint64_t capacity = 0;
	bool known = false;

	if (JR_READ_T(r, o, p, rf_pool_head) ||
	    jr_u64_or_null(r, o, "capacity", &capacity, &known) ||
	    JR_READ_T(r, o, p, rf_pool_tail) || load_whatif(r, o, p))
		return -1;
	if (capacity > 1u << 20)
		return jr_fail(r, "capacity", "is larger than fctrace writes");
	p->capacity = known ? (unsigned)capacity : 0;
	return 0;
}

int load_pools(struct jr *r, struct json_object *doc, struct joined_run *m)
{
	struct json_object *a, *o;
	char saved[128];
	size_t n;

	m->pools = NULL;
	m->npools = 0;
	if (!json_object_object_get_ex(doc, "pools", &a) || !a)
		return 0;
	if (jr_array(r, doc, "pools", JR_NULL, &a, &n))
		return -1;
	if (n > POOLS_MAX)
		return jr_fail(r, "pools", "has more entries than fctrace writes");
	m->pools = calloc(n ? n : 1, sizeof(*m->pools));
	if (!m->pools)
		return jr_fail(r, "pools", "does not fit in memory");
	for (size_t i = 0; i < n; i++) {
		if (jr_element(r, a, "pools", i, &o, saved, sizeof(saved)) ||
		    load_pool(r, o, &m->pools[i]))
			return -1;
		jr_leave(r, saved);
		m->npools++;
	}
	return 0;
}
