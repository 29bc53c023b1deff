/*
 * jsonread.h - typed reads of a JSON document (json-c) that say what is
 * wrong, and where, in one line: `threads[2].latency: "p50_ns" must be a
 * whole number >= 0 (got a string)`. load_json.c reads saved runs with it.
 */
#ifndef FCTRACE_JSONREAD_H
#define FCTRACE_JSONREAD_H

#include <stdbool.h>
#include <stddef.h>	/* offsetof */
#include <stdint.h>
#include <json-c/json.h>

struct jr {
	char *why;		/* the caller's buffer for the one-line problem */
	size_t n;
	char where[128];	/* the object being read: "", "threads[2].latency" */
};

/* Fail with "WHERE: KEY WHAT" (key may be NULL); returns -1. */
int jr_fail(struct jr *r, const char *key, const char *what);

/* Go into member key of the object now read (idx >= 0: its element idx);
 * jr_leave goes back to saved, which jr_enter filled. */
void jr_enter(struct jr *r, const char *key, int idx, char *saved, size_t n);
void jr_leave(struct jr *r, const char *saved);

/* Member key of o with type t; null is accepted (and *out NULL) when
 * nullable. A missing key fails. */
int jr_get(struct jr *r, struct json_object *o, const char *key, enum json_type t,
	   bool nullable, struct json_object **out);

/* Scalars; the _or_null forms leave *out alone and set *set = false on null. */
int jr_u64(struct jr *r, struct json_object *o, const char *key, uint64_t *out);
int jr_u64_or_null(struct jr *r, struct json_object *o, const char *key, uint64_t *out,
		   bool *set);
int jr_uint(struct jr *r, struct json_object *o, const char *key, uint64_t max,
	    unsigned *out);
int jr_double(struct jr *r, struct json_object *o, const char *key, double *out);
int jr_bool(struct jr *r, struct json_object *o, const char *key, bool *out);
/* A string that fits buf (size bytes with its NUL); null gives "" when
 * nullable. */
int jr_str(struct jr *r, struct json_object *o, const char *key, bool nullable,
	   char *buf, size_t size);
/* A string that must be one of names[0..n): its index in *out. */
int jr_choice(struct jr *r, struct json_object *o, const char *key,
	      const char *const *names, int n, int *out);

/* An array of exactly n whole numbers (>= 0; the u32 form: each fitting). */
int jr_u64_array(struct jr *r, struct json_object *o, const char *key, uint64_t *v,
		 unsigned n);
int jr_u32_array(struct jr *r, struct json_object *o, const char *key, uint32_t *v,
		 unsigned n);

/* Whole-number members read into a struct at their offsets (the struct's
 * fields uint64_t or __u64); null leaves a field alone when nullable. */
struct jr_field {
	const char *key;
	size_t off;
};
#define JR_FIELD(type, key, member)	{ key, offsetof(struct type, member) }
int jr_fields(struct jr *r, struct json_object *o, void *base, const struct jr_field *f,
	      size_t n, bool nullable);
#define JR_FIELDS(r, o, base, table, nullable) \
	jr_fields(r, o, base, table, sizeof(table) / sizeof(*(table)), nullable)

/* Member key of o, an object (or null when nullable), entered for the
 * messages of what is read in it: jr_leave(r, saved) after, when it
 * returns 0. */
int jr_object(struct jr *r, struct json_object *o, const char *key, bool nullable,
	      struct json_object **out, char *saved, size_t n);
/* Element i of array a (member key), entered; it must be an object. */
int jr_element(struct jr *r, struct json_object *a, const char *key, size_t i,
	       struct json_object **out, char *saved, size_t n);

#endif
