/*
 * load_stacks.c - a saved run's "stacks" section (the flame graphs' stacks,
 * report/stacks_json.c) read back into the session, so that `fctrace report
 * FILE --folded/--pprof/--html` draws them again. Optional: a run without
 * stacks has none. Every index is checked against the frames read.
 */
#include <string.h>
#include "session/load_run.h"
#include "session/load_stacks.h"

#define LOAD_MAX_FRAMES	(1u << 20)
#define LOAD_MAX_STACKS	(1u << 20)
#define LOAD_MAX_DEPTH	4096

/* A frame's "inlined": true, or absent (false; runs saved before it). */
static int load_inlined(struct jr *r, struct json_object *f, bool *inlined)
{
	struct json_object *v;

	*inlined = false;
	if (!json_object_object_get_ex(f, "inlined", &v))
		return 0;
	if (!json_object_is_type(v, json_type_boolean) || !json_object_get_boolean(v))
		return jr_fail(r, "inlined", "must be true when present");
	*inlined = true;
	return 0;
}

static int load_frames(struct jr *r, struct json_object *o, struct stack_set *ss)
{
	struct json_object *a, *f;
	char saved[128], func[512], file[256];
	size_t n;

	if (jr_get(r, o, "frames", json_type_array, false, &a))
		return -1;
	n = json_object_array_length(a);
	if (n > LOAD_MAX_FRAMES)
		return jr_fail(r, "frames", "has more frames than any run could");
	for (size_t i = 0; i < n; i++) {
		uint64_t line;
		bool inlined;

		if (jr_element(r, a, "frames", i, &f, saved, sizeof(saved)) ||
		    jr_str(r, f, "func", false, func, sizeof(func)) ||
		    jr_str(r, f, "file", false, file, sizeof(file)) ||
		    jr_u64(r, f, "line", &line) || load_inlined(r, f, &inlined))
			return -1;
		if (line > UINT32_MAX)
			return jr_fail(r, "line", "is out of range");
		/* a repeated frame would merge: the indices would shift */
		if (stacks_frame_inl(ss, func, file, (uint32_t)line, inlined) != (int)i)
			return jr_fail(r, NULL, "repeats an earlier frame (or out of memory)");
		jr_leave(r, saved);
	}
	return 0;
}

static int load_frame_ids(struct jr *r, struct json_object *o, const struct stack_set *ss,
			  uint32_t *ids, int *n)
{
	struct json_object *a;
	size_t len;

	if (jr_get(r, o, "frames", json_type_array, false, &a))
		return -1;
	len = json_object_array_length(a);
	if (len > LOAD_MAX_DEPTH)
		return jr_fail(r, "frames", "is deeper than any stack fctrace keeps");
	for (size_t i = 0; i < len; i++) {
		struct json_object *v = json_object_array_get_idx(a, i);
		int64_t x = json_object_is_type(v, json_type_int) ? json_object_get_int64(v) : -1;

		if (x < 0 || x >= ss->nframes)
			return jr_fail(r, "frames", "must hold indices into stacks.frames");
		ids[i] = (uint32_t)x;
	}
	*n = (int)len;
	return 0;
}

/* Stack number i (0-based): written in id order, so its id is i + 1. */
static int load_stack(struct jr *r, struct json_object *o, size_t i, struct stack_set *ss,
		      uint32_t *ids)
{
	static const char *const kinds[] = { "wait", "cpu" };
	char thread[32], lock[160];
	uint64_t ns, samples, id;
	int kind, n = 0;

	if (jr_u64(r, o, "id", &id))
		return -1;
	if (id != i + 1)
		return jr_fail(r, "id", "must number the stacks 1, 2, ... in order");
	if (jr_choice(r, o, "kind", kinds, 2, &kind) ||
	    jr_str(r, o, "thread", false, thread, sizeof(thread)) ||
	    jr_str(r, o, "lock", false, lock, sizeof(lock)) || jr_u64(r, o, "ns", &ns) ||
	    jr_u64(r, o, "samples", &samples) || load_frame_ids(r, o, ss, ids, &n))
		return -1;
	if (stacks_add(ss, (enum stack_kind)kind, thread, lock, ids, n, ns, samples))
		return jr_fail(r, NULL, "out of memory");
	return 0;
}

/* The totals written beside the stacks: what they add up to. */
static int load_totals(struct jr *r, struct json_object *o, const struct stack_set *ss)
{
	char scaling[512];
	uint64_t wait_ns, cpu_ns, blocked_ns;

	if (jr_str(r, o, "scaling", false, scaling, sizeof(scaling)) ||
	    jr_u64(r, o, "wait_ns", &wait_ns) || jr_u64(r, o, "cpu_ns", &cpu_ns))
		return -1;
	if (wait_ns != stacks_total(ss, STK_WAIT))
		return jr_fail(r, "wait_ns", "is not the sum of the wait stacks");
	if (cpu_ns != stacks_total(ss, STK_CPU))
		return jr_fail(r, "cpu_ns", "is not the sum of the cpu stacks");
	if (!json_object_object_get_ex(o, "blocked_ns", NULL))
		return 0;	/* saved before sleeps had stacks */
	if (jr_u64(r, o, "blocked_ns", &blocked_ns))
		return -1;
	if (blocked_ns != stacks_blocked_total(ss))
		return jr_fail(r, "blocked_ns", "is not the sum of the sleeps' stacks");
	return 0;
}

int load_stacks(struct jr *r, struct json_object *doc, struct stack_set *ss)
{
	static uint32_t ids[LOAD_MAX_DEPTH];
	struct json_object *o, *a, *e;
	char saved[128], inner[128];
	size_t n;

	if (!json_object_object_get_ex(doc, "stacks", &o) || !o)
		return 0;
	if (jr_object(r, doc, "stacks", false, &o, saved, sizeof(saved)))
		return -1;
	if (load_frames(r, o, ss) || jr_get(r, o, "stacks", json_type_array, false, &a))
		return -1;
	n = json_object_array_length(a);
	if (n > LOAD_MAX_STACKS)
		return jr_fail(r, "stacks", "has more stacks than any run could");
	for (size_t i = 0; i < n; i++) {
		if (jr_element(r, a, "stacks", i, &e, inner, sizeof(inner)) ||
		    load_stack(r, e, i, ss, ids))
			return -1;
		jr_leave(r, inner);
	}
	stacks_order(ss);
	if (load_totals(r, o, ss))
		return -1;
	jr_leave(r, saved);
	return 0;
}
