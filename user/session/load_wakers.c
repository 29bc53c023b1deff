/*
 * load_wakers.c - a lock's wakers read back by session/run_format.c's
 * tables.
 */
#include <stdlib.h>
#include <string.h>
#include "join/join.h"
#include "session/load_wakers.h"
#include "session/run_format.h"

/* while_waited: absent in runs saved before it */
static int load_while(struct jr *r, struct json_object *o, struct lock_wakers *w)
{
	struct json_object *ww;
	char saved[128];

	if (!json_object_object_get_ex(o, "while_waited", &ww))
		return 0;
	if (jr_object(r, o, "while_waited", false, &ww, saved, sizeof(saved)) ||
	    JR_READ_T(r, ww, w, rf_wakers_while))
		return -1;
	jr_leave(r, saved);
	return 0;
}

int load_wakers(struct jr *r, struct json_object *lock, struct lock_wakers *w)
{
	const struct jr_rows threads = {
		"threads", 0, sizeof(struct waker_thread), WAKERS_MAX,
		"has more wakers than fctrace keeps", rf_waker_thread.f, rf_waker_thread.n, NULL,
	};
	const struct jr_rows after = {
		"after", 0, sizeof(struct waker_call), WAKERS_MAX,
		"has more calls than fctrace keeps", rf_waker_call.f, rf_waker_call.n, NULL,
	};
	struct json_object *o = NULL;
	char saved[128];
	size_t nt, na;

	memset(w, 0, sizeof(*w));
	if (!json_object_object_get_ex(lock, "wakers", &o) || !o)
		return 0;
	if (jr_object(r, lock, "wakers", false, &o, saved, sizeof(saved)))
		return -1;
	if (JR_READ_T(r, o, w, rf_wakers) || jr_array_rows(r, o, &threads, w->threads, NULL, &nt) ||
	    jr_array_rows(r, o, &after, w->after, NULL, &na) || load_while(r, o, w))
		return -1;
	jr_leave(r, saved);
	w->nthreads = (int)nt;
	w->nafter = (int)na;
	return 0;
}

static int load_sib_kind(struct jr *r, struct json_object *o, struct joined_run *m)
{
	const struct jr_rows after = {
		"after", 0, sizeof(struct sib_call), WAKERS_MAX,
		"has more calls than fctrace keeps", rf_sib_call.f, rf_sib_call.n, NULL,
	};
	struct sib_wakers w = { 0 };
	size_t na;

	if (JR_READ_T(r, o, &w, rf_sib_wakers) || jr_array_rows(r, o, &after, w.after, NULL, &na))
		return -1;
	if (m->sib[w.by].wakes)
		return jr_fail(r, "kind", "is given twice");
	w.nafter = (int)na;
	m->sib[w.by] = w;
	return 0;
}

/* sibling_edges: absent in runs saved before it */
static int load_sib_edges(struct jr *r, struct json_object *doc, struct joined_run *m)
{
	const struct jr_rows rows = {
		"sibling_edges", JR_SINCE | JR_NULL, sizeof(struct sib_edge), SIB_EDGES_MAX,
		"has more edges than fctrace keeps", rf_sib_edge.f, rf_sib_edge.n, NULL,
	};
	size_t n;

	free(m->sib_edges);
	m->nsib_edges = 0;
	if (!(m->sib_edges = calloc(SIB_EDGES_MAX, sizeof(*m->sib_edges))))
		return jr_fail(r, "sibling_edges", "cannot be held: out of memory");
	if (jr_array_rows(r, doc, &rows, m->sib_edges, NULL, &n))
		return -1;
	m->nsib_edges = (int)n;
	return 0;
}

int load_sib_wakers(struct jr *r, struct json_object *doc, struct joined_run *m)
{
	struct json_object *a, *o;
	char saved[128];
	size_t n;

	memset(m->sib, 0, sizeof(m->sib));
	m->sib_measured = false;
	if (!json_object_object_get_ex(doc, "sibling_wakers", &a) || !a)
		return 0;
	if (jr_array(r, doc, "sibling_wakers", JR_NULL, &a, &n))
		return -1;
	if (n > FCT_WAKE_N)
		return jr_fail(r, "sibling_wakers", "has more entries than fctrace writes");
	for (size_t i = 0; i < n; i++) {
		if (jr_element(r, a, "sibling_wakers", i, &o, saved, sizeof(saved)) ||
		    load_sib_kind(r, o, m))
			return -1;
		jr_leave(r, saved);
	}
	for (int b = 0; b < FCT_WAKE_N; b++)
		m->sib[b].by = (enum fct_wake_by)b;
	m->sib_measured = true;
	return load_sib_edges(r, doc, m);
}
