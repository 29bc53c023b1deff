/*
 * trace_check.c - the Chrome trace-event format's rules (trace_check.h).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "trace_check.h"

#define MAX_TIDS 1024

struct lane {			/* one thread's complete events so far */
	long tid;
	bool named;
	double end;		/* end of its last X */
	double *starts, *ends;	/* every X, for binding flows */
	long n;
};

struct checker {
	struct lane lanes[MAX_TIDS];
	int nlanes;
	char *why;
	size_t n;
};

static int fail(struct checker *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->why, c->n, fmt, ap);
	va_end(ap);
	return -1;
}

static struct lane *lane(struct checker *c, long tid)
{
	for (int i = 0; i < c->nlanes; i++)
		if (c->lanes[i].tid == tid)
			return &c->lanes[i];
	if (c->nlanes == MAX_TIDS)
		return NULL;
	c->lanes[c->nlanes].tid = tid;
	c->lanes[c->nlanes].end = -1;
	return &c->lanes[c->nlanes++];
}

static bool get_num(struct json_object *e, const char *k, double *v)
{
	struct json_object *o;

	if (!json_object_object_get_ex(e, k, &o))
		return false;
	if (!json_object_is_type(o, json_type_double) && !json_object_is_type(o, json_type_int))
		return false;
	*v = json_object_get_double(o);
	return true;
}

static const char *get_str(struct json_object *e, const char *k)
{
	struct json_object *o;

	if (!json_object_object_get_ex(e, k, &o) || !json_object_is_type(o, json_type_string))
		return NULL;
	return json_object_get_string(o);
}

static int check_meta(struct checker *c, struct json_object *e, const char *name, long tid,
		      struct trace_counts *tc)
{
	struct json_object *args;

	if (!json_object_object_get_ex(e, "args", &args) || !get_str(args, "name"))
		return fail(c, "metadata %s without args.name", name);
	if (!strcmp(name, "thread_name")) {
		struct lane *l = lane(c, tid);

		if (!l || l->named)
			return fail(c, "thread %ld named twice (or too many threads)", tid);
		l->named = true;
		tc->threads++;
	}
	return 0;
}

/* Slices come in time order per thread, each starting at or after the
 * previous one's end (0.5 ns slack for the decimal rounding). */
static int check_complete(struct checker *c, struct json_object *e, long tid,
			  struct trace_counts *tc, double *lo, double *hi)
{
	double ts, dur;
	struct lane *l = lane(c, tid);

	if (!get_num(e, "ts", &ts) || !get_num(e, "dur", &dur))
		return fail(c, "complete event without numeric ts and dur");
	if (ts < 0 || dur < 0)
		return fail(c, "negative ts or dur (%g, %g)", ts, dur);
	if (!l)
		return fail(c, "too many threads");
	if (ts + 0.0005 < l->end)
		return fail(c, "thread %ld: slice at %.3f begins before the last ended (%.3f)",
			    tid, ts, l->end);
	l->starts = realloc(l->starts, (l->n + 1) * sizeof(double));
	l->ends = realloc(l->ends, (l->n + 1) * sizeof(double));
	if (!l->starts || !l->ends)
		return fail(c, "out of memory");
	l->starts[l->n] = ts;
	l->ends[l->n++] = ts + dur;
	l->end = ts + dur;
	*lo = ts < *lo ? ts : *lo;
	*hi = ts + dur > *hi ? ts + dur : *hi;
	tc->complete++;
	return 0;
}

/* Is there a slice of thread tid around ts? */
static bool bound(struct checker *c, long tid, double ts)
{
	struct lane *l = lane(c, tid);

	for (long i = 0; l && i < l->n; i++)
		if (l->starts[i] <= ts + 0.0005 && ts <= l->ends[i] + 0.0005)
			return true;
	return false;
}

static int check_event(struct checker *c, struct json_object *e, struct trace_counts *tc,
		       double *lo, double *hi)
{
	const char *ph = get_str(e, "ph"), *name = get_str(e, "name");
	double pid, tid;

	if (!ph || !name || !get_num(e, "pid", &pid) || !get_num(e, "tid", &tid))
		return fail(c, "an event without ph, name, pid or tid");
	if (!strcmp(ph, "M"))
		return check_meta(c, e, name, (long)tid, tc);
	if (!strcmp(ph, "X"))
		return check_complete(c, e, (long)tid, tc, lo, hi);
	if (!strcmp(ph, "s") || !strcmp(ph, "f"))
		return 0;	/* second pass */
	return fail(c, "unexpected phase \"%s\"", ph);
}

/* Flows: each id one start and one finish, finish not earlier, both
 * inside a slice of their own thread. */
static int check_flows(struct checker *c, struct json_object *a, struct trace_counts *tc)
{
	size_t n = json_object_array_length(a);

	for (size_t i = 0; i < n; i++) {
		struct json_object *s = json_object_array_get_idx(a, i), *f = NULL;
		double id, ts, tid, fid, fts, ftid;

		if (strcmp(get_str(s, "ph"), "s"))
			continue;
		if (!get_num(s, "id", &id) || !get_num(s, "ts", &ts) || !get_num(s, "tid", &tid))
			return fail(c, "flow start without id or ts");
		for (size_t j = 0; j < n && !f; j++) {
			struct json_object *e = json_object_array_get_idx(a, j);

			if (!strcmp(get_str(e, "ph"), "f") && get_num(e, "id", &fid) && fid == id)
				f = e;
		}
		if (!f || !get_num(f, "ts", &fts) || !get_num(f, "tid", &ftid))
			return fail(c, "flow %g has no finish", id);
		if (fts + 0.0005 < ts)
			return fail(c, "flow %g finishes before it starts", id);
		if (!bound(c, (long)tid, ts) || !bound(c, (long)ftid, fts))
			return fail(c, "flow %g is not inside a slice of its threads", id);
		tc->flows++;
	}
	return 0;
}

static int check_all(struct checker *c, struct json_object *doc, struct trace_counts *tc)
{
	struct json_object *a;
	double lo = 1e300, hi = -1;
	size_t n;

	if (!json_object_object_get_ex(doc, "traceEvents", &a) ||
	    !json_object_is_type(a, json_type_array))
		return fail(c, "no traceEvents array");
	n = json_object_array_length(a);
	for (size_t i = 0; i < n; i++)
		if (check_event(c, json_object_array_get_idx(a, i), tc, &lo, &hi))
			return -1;
	for (int i = 0; i < c->nlanes; i++)
		if (c->lanes[i].n && !c->lanes[i].named)
			return fail(c, "thread %ld has events but no thread_name", c->lanes[i].tid);
	tc->span_us = hi > lo ? hi - lo : 0;
	return check_flows(c, a, tc);
}

int trace_check(const char *text, struct trace_counts *tc, char *why, size_t n)
{
	struct checker *c = calloc(1, sizeof(*c));
	struct json_object *doc = json_tokener_parse(text);
	int rc;

	memset(tc, 0, sizeof(*tc));
	if (!c) {
		json_object_put(doc);
		snprintf(why, n, "out of memory");
		return -1;
	}
	c->why = why;
	c->n = n;
	rc = doc ? check_all(c, doc, tc) : fail(c, "not JSON");
	for (int i = 0; i < c->nlanes; i++) {
		free(c->lanes[i].starts);
		free(c->lanes[i].ends);
	}
	free(c);
	json_object_put(doc);
	return rc;
}
