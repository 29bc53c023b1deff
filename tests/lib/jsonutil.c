/* jsonutil.c - see jsonutil.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "jsonutil.h"

struct json_object *json_at(struct json_object *o, const char *path)
{
	char key[128], *end;
	const char *dot;
	size_t len;

	while (o && path && *path) {
		dot = strchr(path, '.');
		len = dot ? (size_t)(dot - path) : strlen(path);
		if (len >= sizeof(key))
			return NULL;
		memcpy(key, path, len);
		key[len] = '\0';
		if (json_object_is_type(o, json_type_array)) {
			unsigned long i = strtoul(key, &end, 10);

			if (*end || end == key || i >= json_object_array_length(o))
				return NULL;
			o = json_object_array_get_idx(o, i);
		} else if (!json_object_object_get_ex(o, key, &o)) {
			return NULL;
		}
		path = dot ? dot + 1 : NULL;
	}
	return o;
}

/* the value at path, which must be there and not null */
static struct json_object *must(struct json_object *o, const char *path)
{
	struct json_object *v = json_at(o, path);

	if (!v)
		fail_msg("the JSON has no %s", path);
	return v;
}

struct json_object *json_must_at(struct json_object *o, const char *path)
{
	const char *last = strrchr(path, '.');
	struct json_object *v = json_at(o, path), *parent;
	char up[256];

	if (v)
		return v;
	snprintf(up, sizeof(up), "%.*s", last ? (int)(last - path) : 0, path);
	parent = last ? json_at(o, up) : o;
	if (!parent || !json_object_is_type(parent, json_type_object) ||
	    !json_object_object_get_ex(parent, last ? last + 1 : path, NULL))
		fail_msg("the JSON has no %s", path);
	return NULL;	/* there, and null */
}

uint64_t json_u64_at(struct json_object *o, const char *path)
{
	return (uint64_t)json_object_get_uint64(must(o, path));
}

double json_num_at(struct json_object *o, const char *path)
{
	return json_object_get_double(must(o, path));
}

const char *json_str_at(struct json_object *o, const char *path)
{
	return json_object_get_string(must(o, path));
}

bool json_bool_at(struct json_object *o, const char *path)
{
	return json_object_get_boolean(must(o, path));
}

struct json_object *json_file(const char *path)
{
	struct json_object *doc = json_object_from_file(path);

	if (!doc)
		fail_msg("%s: not JSON (%s)", path, json_util_get_last_err());
	return doc;
}

struct json_object *json_find(struct json_object *o, const char *path, const char *key,
			      const char *value)
{
	struct json_object *arr = json_at(o, path), *e, *v;

	if (!arr || !json_object_is_type(arr, json_type_array))
		return NULL;
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		e = json_object_array_get_idx(arr, i);
		if (json_object_object_get_ex(e, key, &v) && json_object_is_type(v, json_type_string) &&
		    !strcmp(json_object_get_string(v), value))
			return e;
	}
	return NULL;
}
