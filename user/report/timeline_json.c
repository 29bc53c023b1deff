/*
 * timeline_json.c - a timeline -> Chrome trace-event JSON (see the header).
 * Times are relative to the window's start, so they read as "µs into the
 * window" in the viewers; the absolute start is in otherData.
 */
#include <inttypes.h>
#include <stdio.h>
#include "base/sysnames.h"
#include "report/timeline_json.h"

/* chrome://tracing's reserved colour names (Perfetto picks its own) */
static const char *const state_cname[TL_NSTATES] = {
	"thread_state_running", "rail_load", "terrible", "bad",
	"thread_state_runnable", "thread_state_sleeping",
};

/* µs with ns precision, printed as such (not as %.17g) */
static struct json_object *us(uint64_t ns)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64 ".%03u", ns / 1000, (unsigned)(ns % 1000));
	return json_object_new_double_s((double)ns / 1000.0, buf);
}

static struct json_object *event(const char *ph, const char *name, int pid, uint32_t tid)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "ph", json_object_new_string(ph));
	json_object_object_add(o, "name", json_object_new_string(name));
	json_object_object_add(o, "pid", json_object_new_int(pid));
	json_object_object_add(o, "tid", json_object_new_int64(tid));
	return o;
}

static struct json_object *metadata(const char *what, const char *value, int pid, uint32_t tid)
{
	struct json_object *o = event("M", what, pid, tid), *args = json_object_new_object();

	json_object_object_add(args, "name", json_object_new_string(value));
	json_object_object_add(o, "args", args);
	return o;
}

/* "pread64", "lock wait fcp.pool", "runnable" ... */
static const char *interval_name(const struct timeline *tl, const struct tl_interval *v,
				 char *buf, size_t n)
{
	if (v->state == TL_SYSCALL)
		return syscall_name(v->nr, buf, n);
	if (v->state == TL_LOCK)
		snprintf(buf, n, "lock wait %s", tl->locks[v->lock].name);
	else
		snprintf(buf, n, "%s", tl_state_name(v->state));
	return buf;
}

static struct json_object *complete(const struct timeline *tl, const struct tl_interval *v, int pid)
{
	char name[192], word[24];
	struct json_object *o = event("X", interval_name(tl, v, name, sizeof(name)), pid, v->tid);
	struct json_object *args = json_object_new_object();

	json_object_object_add(o, "cat", json_object_new_string(tl_state_name(v->state)));
	json_object_object_add(o, "ts", us(v->start_ns - tl->begin_ns));
	json_object_object_add(o, "dur", us(v->end_ns - v->start_ns));
	json_object_object_add(o, "cname", json_object_new_string(state_cname[v->state]));
	json_object_object_add(args, "state", json_object_new_string(tl_state_name(v->state)));
	if (v->state == TL_LOCK || v->state == TL_FUTEX) {
		snprintf(word, sizeof(word), "0x%" PRIx64, v->word);
		json_object_object_add(args, "futex_word", json_object_new_string(word));
	}
	if (v->woken_by)
		json_object_object_add(args, "woken_by", json_object_new_int64(v->woken_by));
	json_object_object_add(o, "args", args);
	return o;
}

/* The arrow from waker to wakee: a start and a finish with one id. The
 * finish binds to the wakee's slice around ts ("bp":"e"). */
static void flow(struct json_object *a, const struct timeline *tl, const struct tl_wake *w,
		 int id, int pid)
{
	const char *name = w->handoff ? "lock hand-off" : "wakeup";
	struct json_object *s = event("s", name, pid, w->waker);
	struct json_object *f = event("f", name, pid, w->wakee);

	json_object_object_add(s, "cat", json_object_new_string("wake"));
	json_object_object_add(f, "cat", json_object_new_string("wake"));
	json_object_object_add(s, "id", json_object_new_int(id));
	json_object_object_add(f, "id", json_object_new_int(id));
	json_object_object_add(s, "ts", us(w->ts - tl->begin_ns));
	json_object_object_add(f, "ts", us(w->ts - tl->begin_ns));
	json_object_object_add(f, "bp", json_object_new_string("e"));
	json_object_array_add(a, s);
	json_object_array_add(a, f);
}

static struct json_object *other_data(const struct timeline *tl)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "tool", json_object_new_string("fctrace"));
	json_object_object_add(o, "window_begin_ns", json_object_new_uint64(tl->begin_ns));
	json_object_object_add(o, "window_ns", json_object_new_uint64(tl->end_ns - tl->begin_ns));
	json_object_object_add(o, "events", json_object_new_uint64(tl->events));
	json_object_object_add(o, "dropped", json_object_new_uint64(tl->dropped));
	return o;
}

struct json_object *timeline_chrome_json(const struct timeline *tl, int pid, const char *process,
					 tl_name_fn name, void *arg)
{
	struct json_object *doc = json_object_new_object(), *a = json_object_new_array();
	char buf[64];
	int id = 0;

	if (!doc || !a) {
		json_object_put(doc);
		json_object_put(a);
		return NULL;
	}
	json_object_array_add(a, metadata("process_name", process, pid, 0));
	for (int i = 0; i < tl->nthreads; i++)
		json_object_array_add(a, metadata("thread_name",
			name(arg, tl->threads[i].tid, buf, sizeof(buf)), pid, tl->threads[i].tid));
	for (size_t i = 0; i < tl->niv; i++)
		json_object_array_add(a, complete(tl, &tl->iv[i], pid));
	for (size_t i = 0; i < tl->nwakes; i++)
		if (timeline_thread(tl, tl->wakes[i].waker) && tl->wakes[i].waker != tl->wakes[i].wakee)
			flow(a, tl, &tl->wakes[i], ++id, pid);
	json_object_object_add(doc, "traceEvents", a);
	json_object_object_add(doc, "displayTimeUnit", json_object_new_string("ns"));
	json_object_object_add(doc, "otherData", other_data(tl));
	return doc;
}
