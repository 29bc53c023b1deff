/*
 * wakers_json.c - a lock's wakers into the run document, by the tables
 * session/load_wakers.c reads them back by (session/run_format.c).
 */
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
