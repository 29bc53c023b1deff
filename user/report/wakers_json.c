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
		json_object_object_add(doc, "sibling_edges", NULL);
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
	a = json_object_new_array();
	for (int i = 0; i < m->nsib_edges; i++)
		json_object_array_add(a, JW_T(json_object_new_object(), &m->sib_edges[i],
					      rf_sib_edge));
	json_object_object_add(doc, "sibling_edges", a);
}

static const char *wait_class_word(int cls)
{
	static const char *const words[] = { "lock", "event", "exit", "time" };

	return cls >= 0 && cls < (int)(sizeof(words) / sizeof(*words)) ? words[cls] : "event";
}

static struct json_object *roots_json(const struct wait_graph *g)
{
	struct json_object *a = json_object_new_array();

	for (int i = 0; i < g->nroots; i++) {
		const struct wait_root *r = &g->roots[i];
		struct json_object *j = json_object_new_object();

		json_object_object_add(j, "tid", json_object_new_int64(r->tid));
		json_object_object_add(j, "comm", json_object_new_string(r->comm));
		json_object_object_add(j, "ended_ns", json_object_new_uint64((uint64_t)r->ended_ns));
		json_object_object_add(j, "direct_ns", json_object_new_uint64((uint64_t)r->direct_ns));
		json_object_object_add(j, "waited_share", json_object_new_double(r->waited_share));
		json_object_object_add(j, "cpu_share", json_object_new_double(r->cpu_share));
		json_object_object_add(j, "blocked_share", json_object_new_double(r->blocked_share));
		json_object_object_add(j, "runq_share", json_object_new_double(r->runq_share));
		json_object_array_add(a, j);
	}
	return a;
}

void wait_graph_json(struct json_object *doc, const struct joined_run *m)
{
	const struct wait_graph *g = &m->graph;
	struct json_object *o, *edges;

	if (!g->nedges) {
		json_object_object_add(doc, "wait_graph", NULL);
		return;
	}
	o = json_object_new_object();
	edges = json_object_new_array();
	for (int i = 0; i < g->nedges; i++) {
		const struct wait_edge *e = &g->edges[i];
		struct json_object *j = json_object_new_object();

		json_object_object_add(j, "waiter", json_object_new_int64(e->waiter));
		json_object_object_add(j, "waiter_comm", json_object_new_string(e->waiter_comm));
		json_object_object_add(j, "waker", json_object_new_int64(e->waker));
		json_object_object_add(j, "waker_comm", json_object_new_string(e->waker_comm));
		json_object_object_add(j, "via", json_object_new_string(e->via));
		json_object_object_add(j, "class", json_object_new_string(wait_class_word(e->cls)));
		json_object_object_add(j, "wait_ns", json_object_new_uint64((uint64_t)e->wait_ns));
		json_object_array_add(edges, j);
	}
	json_object_object_add(o, "edges", edges);
	json_object_object_add(o, "more_edges", json_object_new_uint64(g->more_edges));
	json_object_object_add(o, "more_wait_ns", json_object_new_uint64((uint64_t)g->more_wait_ns));
	json_object_object_add(o, "unjoined_ns", json_object_new_uint64((uint64_t)g->unjoined_ns));
	json_object_object_add(o, "roots", roots_json(g));
	json_object_object_add(doc, "wait_graph", o);
}
