/*
 * wakers_json.c - a lock's wakers into the run document, by the tables
 * session/load_wakers.c reads them back by (session/run_format.c).
 */
#include "join/join.h"
#include "report/wakers_json.h"
#include "session/run_format.h"

struct json_object *wakers_json(const struct lock_wakers *w)
{
	struct json_object *o, *threads, *after;

	if (!w->wakes)
		return NULL;
	o = JW_T(json_object_new_object(), w, rf_wakers);
	threads = json_object_new_array();
	for (int i = 0; i < w->nthreads; i++)
		json_object_array_add(threads, JW_T(json_object_new_object(), &w->threads[i],
						    rf_waker_thread));
	after = json_object_new_array();
	for (int i = 0; i < w->nafter; i++)
		json_object_array_add(after, JW_T(json_object_new_object(), &w->after[i],
						  rf_waker_call));
	json_object_object_add(o, "threads", threads);
	json_object_object_add(o, "after", after);
	json_object_object_add(o, "while_waited", JW_T(json_object_new_object(), w,
						       rf_wakers_while));
	return o;
}

void sib_wakers_json(struct json_object *doc, const struct joined_run *m)
{
	struct json_object *a;

	if (!m->sib_measured) {
		json_object_object_add(doc, "sibling_wakers", NULL);
		return;
	}
	a = json_object_new_array();
	for (int b = 0; b < FCT_WAKE_N; b++) {
		const struct sib_wakers *w = &m->sib[b];
		struct json_object *o, *after;

		if (!w->wakes)
			continue;
		o = JW_T(json_object_new_object(), w, rf_sib_wakers);
		after = json_object_new_array();
		for (int i = 0; i < w->nafter; i++)
			json_object_array_add(after, JW_T(json_object_new_object(), &w->after[i],
							  rf_sib_call));
		json_object_object_add(o, "after", after);
		json_object_array_add(a, o);
	}
	json_object_object_add(doc, "sibling_wakers", a);
}
