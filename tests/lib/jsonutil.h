/*
 * jsonutil.h - a run's JSON document read by the tests: a value by its
 * path, so that a test of a figure or a finding checks the field the
 * document carries, not the sentence the terminal report prints.
 */
#ifndef FCTRACE_TEST_JSONUTIL_H
#define FCTRACE_TEST_JSONUTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <json-c/json.h>

/* The value at path ("threads.0.syscalls.pread64.count": keys, and
 * indexes into arrays), or NULL when any step is missing. */
struct json_object *json_at(struct json_object *o, const char *path);
/* The same, failing the test when the member is missing (a JSON null
 * there is NULL, as json-c has it). */
struct json_object *json_must_at(struct json_object *o, const char *path);
/* The value, failing the test when it is missing or null. */
uint64_t json_u64_at(struct json_object *o, const char *path);
double json_num_at(struct json_object *o, const char *path);
const char *json_str_at(struct json_object *o, const char *path);
bool json_bool_at(struct json_object *o, const char *path);
/* The file read whole (the test fails if it is not JSON); json_object_put it. */
struct json_object *json_file(const char *path);
/* The first element of the array at path whose member key is the string
 * value, or NULL. */
struct json_object *json_find(struct json_object *o, const char *path, const char *key,
			      const char *value);

#endif
