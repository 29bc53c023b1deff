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
 * unsigned, and reads -1 as a negative int64), below JR_MAX_WHOLE: no
 * clock or count of a run comes near it, and a forged 2^64 - 1 would
 * print as a bare number, or wrap to 0 once summed. */
static int whole(struct jr *r, const char *key, struct json_object *v, uint64_t *out)
{
	char what[96];

	if (json_object_get_type(v) == json_type_int && json_object_get_int64(v) < 0)
		return jr_fail(r, key, "must be a whole number >= 0 (got a negative one)");
	if (json_object_get_type(v) != json_type_int)
		return wrong(r, key, json_type_int, v);
	*out = json_object_get_uint64(v);
	if (*out < JR_MAX_WHOLE)
		return 0;
	snprintf(what, sizeof(what), "is %llu, more than any run counts (2^62): the file is "
		 "corrupt", (unsigned long long)*out);
	return jr_fail(r, key, what);
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
	if (json_object_array_length(*a) == n || !json_object_array_length(*a))
		return 0;
	snprintf(what, sizeof(what), "must have %u elements or none (has %zu)", n,
		 json_object_array_length(*a));
	return jr_fail(r, key, what);
}

int jr_u64_array(struct jr *r, struct json_object *o, const char *key, uint64_t *v,
		 unsigned n)
{
	struct json_object *a;

	if (sized_array(r, o, key, n, &a))
		return -1;
	if (!json_object_array_length(a))
		memset(v, 0, n * sizeof(*v));
	for (unsigned i = 0; i < n && json_object_array_length(a); i++)
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
	if (!json_object_array_length(a))
		memset(v, 0, n * sizeof(*v));
	for (unsigned i = 0; i < n && json_object_array_length(a); i++) {
		if (whole(r, key, json_object_array_get_idx(a, i), &x))
			return -1;
		if (x > UINT32_MAX)
			return jr_fail(r, key, "has an element above 4294967295");
		v[i] = (uint32_t)x;
	}
	return 0;
}

/* The largest value an unsigned member of size bytes holds. */
static uint64_t width_max(unsigned size)
{
	return size >= 8 ? UINT64_MAX : (1ull << (8 * size)) - 1;
}

/* v into an unsigned member of size bytes (memcpy: uint64_t and __u64 are
 * alike, but not to the compiler's aliasing rules) */
static void store_num(void *at, unsigned size, uint64_t v)
{
	uint8_t u8 = (uint8_t)v;
	uint16_t u16 = (uint16_t)v;
	uint32_t u32 = (uint32_t)v;

	switch (size) {
	case 1: memcpy(at, &u8, 1); break;
	case 2: memcpy(at, &u16, 2); break;
	case 4: memcpy(at, &u32, 4); break;
	default: memcpy(at, &v, 8); break;
	}
}

static int read_num(struct jr *r, struct json_object *o, const struct jr_field *f, void *at,
		    bool nullable)
{
	uint64_t v = 0, max = f->max ? f->max : width_max(f->size);
	bool set = true;
	char what[64];

	if (nullable ? jr_u64_or_null(r, o, f->key, &v, &set) : jr_u64(r, o, f->key, &v))
		return -1;
	if (!set)
		return 0;
	if (v > max) {
		snprintf(what, sizeof(what), "must be at most %llu", (unsigned long long)max);
		return jr_fail(r, f->key, what);
	}
	store_num(at, f->size, v);
	return 0;
}

/* A JR_NULL row's null leaves the member alone, as read_num's does (the
 * holders' disk_ns without the disk group: such a run's report was
 * refused). */
static int read_ns(struct jr *r, struct json_object *o, const char *key, double *at,
		   bool nullable)
{
	uint64_t v;
	bool set = true;

	if (nullable ? jr_u64_or_null(r, o, key, &v, &set) : jr_u64(r, o, key, &v))
		return -1;
	if (set)
		*at = (double)v;
	return 0;
}

static int read_nums(struct jr *r, struct json_object *o, const struct jr_field *f, void *at)
{
	if (f->size == sizeof(uint64_t))
		return jr_u64_array(r, o, f->key, at, f->count);
	return jr_u32_array(r, o, f->key, at, f->count);
}

int jr_section(struct jr *r, struct json_object *o, const char *key, unsigned flags,
	       void *base, const struct jr_field *rows, size_t n, bool *there)
{
	struct json_object *sub;
	char saved[128];

	*there = false;
	if ((flags & JR_SINCE) && !json_object_object_get_ex(o, key, NULL))
		return 0;
	if (jr_object(r, o, key, flags & JR_NULL, &sub, saved, sizeof(saved)))
		return -1;
	*there = sub != NULL;
	if (sub && jr_fields(r, sub, base, rows, n, false))
		return -1;
	jr_leave(r, saved);
	return 0;
}

/* An object row: its own rows, and its present flag. */
static int read_object(struct jr *r, struct json_object *o, const struct jr_field *f,
		       void *base, bool nullable)
{
	bool there;
	int rc = jr_section(r, o, f->key, nullable ? JR_NULL : 0, base, f->table, f->count,
			    &there);

	if (f->off != JR_NO_PRESENT)
		memcpy((char *)base + f->off, &there, sizeof(there));
	return rc;
}

static int read_field(struct jr *r, struct json_object *o, void *base, const struct jr_field *f,
		      bool nullable)
{
	/* a JR_OBJ row's off is its present flag's, maybe none */
	void *at = f->kind == JR_OBJ ? base : (char *)base + f->off;
	int i = 0;

	switch (f->kind) {
	case JR_NUM: return read_num(r, o, f, at, nullable);
	case JR_NS: return read_ns(r, o, f->key, at, nullable);
	case JR_BOOL: return jr_bool(r, o, f->key, at);
	case JR_DOUBLE: return jr_double(r, o, f->key, at);
	case JR_STR: return jr_str(r, o, f->key, nullable, at, f->size);
	case JR_CHOICE:
		if (jr_choice(r, o, f->key, f->table, (int)f->count, &i))
			return -1;
		memcpy(at, &i, sizeof(i));
		return 0;
	case JR_NUMS: return read_nums(r, o, f, at);
	case JR_OBJ: return read_object(r, o, f, base, nullable);
	}
	return jr_fail(r, f->key, "has no reader (fctrace's own error)");
}

int jr_fields(struct jr *r, struct json_object *o, void *base, const struct jr_field *f,
	      size_t n, bool nullable)
{
	for (size_t i = 0; i < n; i++) {
		if ((f[i].flags & JR_SINCE) && !json_object_object_get_ex(o, f[i].key, NULL))
			continue;
		if (read_field(r, o, base, &f[i], nullable || (f[i].flags & JR_NULL)))
			return -1;
	}
	return 0;
}

int jr_array(struct jr *r, struct json_object *o, const char *key, unsigned flags,
	     struct json_object **a, size_t *n)
{
	*a = NULL;
	*n = 0;
	if ((flags & JR_SINCE) && !json_object_object_get_ex(o, key, NULL))
		return 0;
	if (jr_get(r, o, key, json_type_array, flags & JR_NULL, a))
		return -1;
	*n = *a ? json_object_array_length(*a) : 0;
	return 0;
}

int jr_array_rows(struct jr *r, struct json_object *o, const struct jr_rows *d, void *base,
		  void *arg, size_t *n)
{
	struct json_object *a, *e;
	char saved[128];
	size_t len;

	*n = 0;
	if (jr_array(r, o, d->key, d->flags, &a, &len))
		return -1;
	if (len > d->max)
		return jr_fail(r, d->key, d->toomany);
	for (size_t i = 0; i < len; i++, (*n)++) {
		char *row = (char *)base + i * d->stride;

		if (jr_element(r, a, d->key, i, &e, saved, sizeof(saved)) ||
		    jr_fields(r, e, row, d->rows, d->nrows, false) ||
		    (d->more && d->more(r, e, row, arg)))
			return -1;
		jr_leave(r, saved);
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

/* ---- the same tables written --------------------------------------------- */

/* An unsigned member of size bytes, as a JSON whole number. */
static struct json_object *num_json(const void *at, unsigned size)
{
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t v;

	switch (size) {
	case 1: memcpy(&u8, at, 1); v = u8; break;
	case 2: memcpy(&u16, at, 2); v = u16; break;
	case 4: memcpy(&u32, at, 4); v = u32; break;
	default: memcpy(&v, at, 8); break;
	}
	return json_object_new_uint64(v);
}

static struct json_object *nums_json(const void *at, const struct jr_field *f)
{
	struct json_object *a = json_object_new_array();

	for (unsigned i = 0; i < f->count; i++)
		json_object_array_add(a, num_json((const char *)at + i * f->size, f->size));
	return a;
}

static struct json_object *field_json(const void *base, const struct jr_field *f)
{
	const char *at = (const char *)base + (f->kind == JR_OBJ ? 0 : f->off);
	const char *const *names = f->table;
	bool b = true;
	double d;
	int i;

	switch (f->kind) {
	case JR_NUM: return num_json(at, f->size);
	case JR_NS: memcpy(&d, at, sizeof(d)); return json_object_new_uint64((uint64_t)d);
	case JR_BOOL: memcpy(&b, at, sizeof(b)); return json_object_new_boolean(b);
	case JR_DOUBLE: memcpy(&d, at, sizeof(d)); return json_object_new_double(d);
	case JR_STR: return at[0] || !(f->flags & JR_NULL) ? json_object_new_string(at) : NULL;
	case JR_CHOICE:
		memcpy(&i, at, sizeof(i));
		return i >= 0 && (unsigned)i < f->count && names[i] ?
		       json_object_new_string(names[i]) : NULL;
	case JR_NUMS: return nums_json(at, f);
	case JR_OBJ:
		if (f->off != JR_NO_PRESENT)
			memcpy(&b, (const char *)base + f->off, sizeof(b));
		return b ? jw_fields(json_object_new_object(), base, f->table, f->count) : NULL;
	}
	return NULL;
}

struct json_object *jw_fields(struct json_object *o, const void *base,
			      const struct jr_field *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		json_object_object_add(o, f[i].key, field_json(base, &f[i]));
	return o;
}
