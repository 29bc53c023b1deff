/*
 * stacks_json.c - a run's flame graph stacks as its JSON "stacks" section
 * (frames once, stacks as frame indices root first), and each lock's
 * stack_ids: the lock table and the flame graph tell one story.
 */
#include <json-c/json.h>
#include <string.h>
#include "report/flame.h"

static void put_str(struct json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, json_object_new_string(v));
}

static void put_u64(struct json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_uint64(v));
}

static struct json_object *frames_json(const struct stack_set *ss)
{
	struct json_object *a = json_object_new_array();

	for (int i = 0; i < ss->nframes; i++) {
		struct json_object *o = json_object_new_object();

		put_str(o, "func", ss->frames[i].func);
		put_str(o, "file", ss->frames[i].file);
		put_u64(o, "line", ss->frames[i].line);
		if (ss->frames[i].inlined)	/* only then: older readers see no change */
			json_object_object_add(o, "inlined", json_object_new_boolean(1));
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *stack_json(const struct sstack *s)
{
	struct json_object *o = json_object_new_object(), *f = json_object_new_array();

	put_u64(o, "id", s->id);
	put_str(o, "kind", stacks_kind_name(s->kind));
	put_str(o, "thread", s->thread);
	put_str(o, "lock", s->lock);
	put_u64(o, "ns", s->ns);
	put_u64(o, "samples", s->samples);
	for (int i = 0; i < s->nframes; i++)
		json_object_array_add(f, json_object_new_uint64(s->frames[i]));
	json_object_object_add(o, "frames", f);
	return o;
}

struct json_object *flame_stacks_json(const struct stack_set *ss)
{
	struct json_object *o, *a;

	if (!ss || !ss->n)
		return NULL;
	o = json_object_new_object();
	a = json_object_new_array();
	put_str(o, "scaling", STACKS_SCALING);
	put_u64(o, "wait_ns", stacks_total(ss, STK_WAIT));
	put_u64(o, "blocked_ns", stacks_blocked_total(ss));
	put_u64(o, "cpu_ns", stacks_total(ss, STK_CPU));
	json_object_object_add(o, "frames", frames_json(ss));
	for (int i = 0; i < ss->n; i++)
		json_object_array_add(a, stack_json(&ss->stacks[i]));
	json_object_object_add(o, "stacks", a);
	return o;
}

struct json_object *flame_stack_ids_json(const struct stack_set *ss, const char *lock)
{
	struct json_object *a = json_object_new_array();

	for (int i = 0; ss && i < ss->n; i++)
		if (ss->stacks[i].kind == STK_WAIT && !strcmp(ss->stacks[i].lock, lock))
			json_object_array_add(a, json_object_new_uint64(ss->stacks[i].id));
	return a;
}
