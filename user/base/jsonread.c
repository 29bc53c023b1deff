/*
 * jsonread.c - typed reads of a JSON document, each failure one line that
 * names the object, the key and what it should have been.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "base/jsonread.h"
#include "base/termsafe.h"

int jr_fail(struct jr *r, const char *key, const char *what)
{
	char line[512];

	snprintf(line, sizeof(line), "%s%s%s%s%s%s", r->where, *r->where ? ": " : "",
		 key ? "\"" : "", key ? key : "", key ? "\" " : "", what);
	/* keys are the file's: a newline or an escape in one must not reach
	 * the terminal (or split the line) */
	term_safe(r->why, r->n, line);
	return -1;
}

void jr_enter(struct jr *r, const char *key, int idx, char *saved, size_t n)
{
	size_t len = strlen(r->where);

	snprintf(saved, n, "%s", r->where);
	if (idx >= 0)
		snprintf(r->where + len, sizeof(r->where) - len, "%s%s[%d]",
			 len && key ? "." : "", key ? key : "", idx);
	else
		snprintf(r->where + len, sizeof(r->where) - len, "%s%s", len ? "." : "", key);
}

void jr_leave(struct jr *r, const char *saved)
{
	snprintf(r->where, sizeof(r->where), "%s", saved);
}

/* "a string", "an array": what was found instead. */
static const char *a_type(struct json_object *o)
{
	switch (json_object_get_type(o)) {
	case json_type_null: return "null";
	case json_type_boolean: return "a boolean";
	case json_type_double: return "a fraction";
	case json_type_int: return "a number";
	case json_type_object: return "an object";
	case json_type_array: return "an array";
	case json_type_string: return "a string";
	}
	return "something else";
}

static const char *want_type(enum json_type t)
{
	switch (t) {
	case json_type_boolean: return "must be true or false";
	case json_type_double: return "must be a number";
	case json_type_int: return "must be a whole number >= 0";
	case json_type_object: return "must be an object";
	case json_type_array: return "must be an array";
	case json_type_string: return "must be a string";
	default: return "has the wrong type";
	}
}

static int wrong(struct jr *r, const char *key, enum json_type t, struct json_object *got)
{
	char what[96];

	snprintf(what, sizeof(what), "%s (got %s)", want_type(t), a_type(got));
	return jr_fail(r, key, what);
}

int jr_get(struct jr *r, struct json_object *o, const char *key, enum json_type t,
	   bool nullable, struct json_object **out)
{
	struct json_object *v = NULL;
	enum json_type got;

	if (!json_object_object_get_ex(o, key, &v))
		return jr_fail(r, key, "is missing");
	got = json_object_get_type(v);
	*out = v;
	if (got == json_type_null && nullable)
		return 0;
	/* a number written without a fraction is still a number */
	if (got == t || (t == json_type_double && got == json_type_int))
		return 0;
	return wrong(r, key, t, v);
}

/* A whole number >= 0 held in v (json-c keeps ones above INT64_MAX as
 * unsigned, and reads -1 as a negative int64). */
static int whole(struct jr *r, const char *key, struct json_object *v, uint64_t *out)
{
	if (json_object_get_type(v) == json_type_int && json_object_get_int64(v) < 0)
		return jr_fail(r, key, "must be a whole number >= 0 (got a negative one)");
	if (json_object_get_type(v) != json_type_int)
		return wrong(r, key, json_type_int, v);
	*out = json_object_get_uint64(v);
	return 0;
}

int jr_u64(struct jr *r, struct json_object *o, const char *key, uint64_t *out)
{
	struct json_object *v;

	if (jr_get(r, o, key, json_type_int, false, &v))
		return -1;
	return whole(r, key, v, out);
}

int jr_u64_or_null(struct jr *r, struct json_object *o, const char *key, uint64_t *out,
		   bool *set)
{
	struct json_object *v;

	*set = false;
	if (jr_get(r, o, key, json_type_int, true, &v))
		return -1;
	if (!v)
		return 0;
	*set = true;
	return whole(r, key, v, out);
}

int jr_uint(struct jr *r, struct json_object *o, const char *key, uint64_t max,
	    unsigned *out)
{
	uint64_t v = 0;
	char what[64];

	if (jr_u64(r, o, key, &v))
		return -1;
	if (v > max || v > UINT32_MAX) {
		snprintf(what, sizeof(what), "must be at most %llu", (unsigned long long)max);
		return jr_fail(r, key, what);
	}
	*out = (unsigned)v;
	return 0;
}

int jr_double(struct jr *r, struct json_object *o, const char *key, double *out)
{
	struct json_object *v;

	if (jr_get(r, o, key, json_type_double, false, &v))
		return -1;
	*out = json_object_get_double(v);
	return isfinite(*out) ? 0 : jr_fail(r, key, "must be a finite number");
}

int jr_bool(struct jr *r, struct json_object *o, const char *key, bool *out)
{
	struct json_object *v;

	if (jr_get(r, o, key, json_type_boolean, false, &v))
		return -1;
	*out = json_object_get_boolean(v);
	return 0;
}

int jr_str(struct jr *r, struct json_object *o, const char *key, bool nullable,
	   char *buf, size_t size)
{
	struct json_object *v;
	char what[64];

	if (jr_get(r, o, key, json_type_string, nullable, &v))
		return -1;
	buf[0] = '\0';
	if (!v)
		return 0;
	if ((size_t)json_object_get_string_len(v) >= size ||
	    strlen(json_object_get_string(v)) != (size_t)json_object_get_string_len(v)) {
		snprintf(what, sizeof(what), "must be a string of at most %zu bytes, without NUL",
			 size - 1);
		return jr_fail(r, key, what);
	}
	memcpy(buf, json_object_get_string(v), (size_t)json_object_get_string_len(v) + 1);
	return 0;
}

int jr_choice(struct jr *r, struct json_object *o, const char *key,
	      const char *const *names, int n, int *out)
{
	char buf[64], what[160];
	size_t len = 0;

	if (jr_str(r, o, key, false, buf, sizeof(buf)) == 0)
		for (int i = 0; i < n; i++)
			if (names[i] && !strcmp(buf, names[i])) {
				*out = i;
				return 0;
			}
	len = (size_t)snprintf(what, sizeof(what), "must be one of");
	for (int i = 0; i < n && len < sizeof(what); i++)
		if (names[i])
			len += (size_t)snprintf(what + len, sizeof(what) - len, " %s", names[i]);
	return jr_fail(r, key, what);
}

/* The array at key, with exactly n elements. */
static int sized_array(struct jr *r, struct json_object *o, const char *key, unsigned n,
		       struct json_object **a)
{
	char what[64];

	if (jr_get(r, o, key, json_type_array, false, a))
		return -1;
	if (json_object_array_length(*a) == n)
		return 0;
	snprintf(what, sizeof(what), "must have %u elements (has %zu)", n,
		 json_object_array_length(*a));
	return jr_fail(r, key, what);
}

int jr_u64_array(struct jr *r, struct json_object *o, const char *key, uint64_t *v,
		 unsigned n)
{
	struct json_object *a;

	if (sized_array(r, o, key, n, &a))
		return -1;
	for (unsigned i = 0; i < n; i++)
		if (whole(r, key, json_object_array_get_idx(a, i), &v[i]))
			return -1;
	return 0;
}

int jr_u32_array(struct jr *r, struct json_object *o, const char *key, uint32_t *v,
		 unsigned n)
{
	struct json_object *a;
	uint64_t x = 0;

	if (sized_array(r, o, key, n, &a))
		return -1;
	for (unsigned i = 0; i < n; i++) {
		if (whole(r, key, json_object_array_get_idx(a, i), &x))
			return -1;
		if (x > UINT32_MAX)
			return jr_fail(r, key, "has an element above 4294967295");
		v[i] = (uint32_t)x;
	}
	return 0;
}

int jr_fields(struct jr *r, struct json_object *o, void *base, const struct jr_field *f,
	      size_t n, bool nullable)
{
	bool set = true;
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++) {
		if (nullable ? jr_u64_or_null(r, o, f[i].key, &v, &set)
			     : jr_u64(r, o, f[i].key, &v))
			return -1;
		/* memcpy: uint64_t and __u64 are alike, but not to the
		 * compiler's aliasing rules */
		if (set)
			memcpy((char *)base + f[i].off, &v, sizeof(v));
	}
	return 0;
}

int jr_object(struct jr *r, struct json_object *o, const char *key, bool nullable,
	      struct json_object **out, char *saved, size_t n)
{
	if (jr_get(r, o, key, json_type_object, nullable, out))
		return -1;
	jr_enter(r, key, -1, saved, n);
	return 0;
}

int jr_element(struct jr *r, struct json_object *a, const char *key, size_t i,
	       struct json_object **out, char *saved, size_t n)
{
	*out = json_object_array_get_idx(a, i);
	jr_enter(r, key, (int)i, saved, n);
	if (json_object_is_type(*out, json_type_object))
		return 0;
	return jr_fail(r, NULL, "must be an object");
}
