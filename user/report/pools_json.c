/*
 * pools_json.c - the pools of N into the run document, by the tables
 * session/load_pools.c reads them with.
 */
#include "report/pools_json.h"
#include "session/run_format.h"

static struct json_object *whatif_json(const struct pool_row *p)
{
	struct json_object *a = json_object_new_array();

	for (int i = 0; i < p->nwhatif; i++)
		json_object_array_add(a, JW_T(json_object_new_object(), &p->whatif[i],
					      rf_pool_whatif));
	return a;
}

static struct json_object *pool_json(const struct pool_row *p)
{
	struct json_object *o = JW_T(json_object_new_object(), p, rf_pool_head);

	json_object_object_add(o, "capacity", p->capacity ?
			       json_object_new_uint64(p->capacity) : NULL);
	JW_T(o, p, rf_pool_tail);
	json_object_object_add(o, "whatif", whatif_json(p));
	return o;
}

void pools_json(struct json_object *doc, const struct joined_run *m)
{
	struct json_object *a;

	if (!m->pools) {	/* not measured (pools_build), nor loaded */
		json_object_object_add(doc, "pools", NULL);
		return;
	}
	a = json_object_new_array();
	for (int i = 0; i < m->npools; i++)
		json_object_array_add(a, pool_json(&m->pools[i]));
	json_object_object_add(doc, "pools", a);
}
