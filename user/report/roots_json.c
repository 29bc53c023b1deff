/*
 * roots_json.c - a lock's wait chain to its root into the run document.
 */
#include "base/sysnames.h"
#include "report/roots_json.h"

struct json_object *root_json(const struct lock_root *r)
{
	struct json_object *o, *chain;
	char call[32];

	if (!r->nlinks)
		return NULL;
	o = json_object_new_object();
	chain = json_object_new_array();
	for (int i = 0; i < r->nlinks; i++) {
		struct json_object *l = json_object_new_object();

		json_object_object_add(l, "lock", json_object_new_string(r->link[i]));
		json_object_object_add(l, "share", json_object_new_double(r->share[i]));
		json_object_array_add(chain, l);
	}
	json_object_object_add(o, "chain", chain);
	json_object_object_add(o, "state", json_object_new_string(hold_state_name(r->state)));
	json_object_object_add(o, "syscall", r->nr < 0 ? NULL :
			       json_object_new_string(syscall_name((unsigned)r->nr, call,
								   sizeof(call))));
	json_object_object_add(o, "cycle", json_object_new_boolean(r->cycle));
	return o;
}
