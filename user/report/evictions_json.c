/*
 * evictions_json.c - page-cache removals into the run document (the
 * saved-run reader, session/load_evictions.c, reads them back).
 */
#include "base/sysnames.h"
#include "report/evictions_json.h"
#include "session/run_format.h"

const char *evict_how_json(unsigned how)
{
	return how == FCT_EV_DIRECT_IO ? "other" : evict_how_name(how);
}

static struct json_object *row_json(const struct pc_eviction *r)
{
	struct json_object *o = json_object_new_object();
	char nr[24];

	json_object_object_add(o, "comm", json_object_new_string(r->comm));
	json_object_object_add(o, "pid", json_object_new_uint64(r->pid));
	json_object_object_add(o, "how", json_object_new_string(evict_how_json(r->how)));
	json_object_object_add(o, "syscall", r->nr == FCT_EV_NO_NR ? NULL :
			       json_object_new_string(syscall_name(r->nr, nr, sizeof(nr))));
	json_object_object_add(o, "target", json_object_new_boolean(r->target));
	json_object_object_add(o, "pages", json_object_new_uint64(r->pages));
	json_object_object_add(o, "reread_pages", json_object_new_uint64(r->reread_pages));
	return o;
}

/* described once: session/run_format.c, which load_evictions.c reads by */
static struct json_object *rereads_json(const struct pc_evictions *e)
{
	return JW_T(json_object_new_object(), e, rf_rereads);
}

void evictions_json(struct json_object *doc, const struct pc_evictions *e)
{
	struct json_object *a;

	if (!e->on) {
		json_object_object_add(doc, "pagecache_evictions", NULL);
		json_object_object_add(doc, "pagecache_rereads", NULL);
		return;
	}
	a = json_object_new_array();
	for (int i = 0; i < e->n; i++)
		json_object_array_add(a, row_json(&e->e[i]));
	json_object_object_add(doc, "pagecache_evictions", a);
	json_object_object_add(doc, "pagecache_rereads", rereads_json(e));
}
