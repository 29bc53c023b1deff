/*
 * jsonread.h - typed reads of a JSON document (json-c) that say what is
 * wrong, and where, in one line: `threads[2].latency: "p50_ns" must be a
 * whole number >= 0 (got a string)`. load_json.c reads saved runs with it,
 * by tables of members that report_json.c writes by too (jw_fields).
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

/* Whole numbers are below this (2^62: 146 years in ns), else the file
 * is corrupt: said, never printed or summed. */
#define JR_MAX_WHOLE	(1ull << 62)

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

/* An array of exactly n whole numbers (>= 0; the u32 form: each fitting),
 * or an empty one, which stands for n zeros (a histogram nothing filled). */
int jr_u64_array(struct jr *r, struct json_object *o, const char *key, uint64_t *v,
		 unsigned n);
int jr_u32_array(struct jr *r, struct json_object *o, const char *key, uint32_t *v,
		 unsigned n);

/*
 * A table of the members an object holds, each read into a struct at its
 * offset: the reader of a saved run says what the file holds, one row per
 * key, rather than a call per key. A row's kind says what the value must
 * be and how it is stored; its flags when it may be null or absent.
 */
enum jr_kind {
	JR_NUM,		/* a whole number >= 0 into an unsigned member of 1-8 bytes */
	JR_NS,		/* a whole number >= 0 into a double (the holders' times) */
	JR_BOOL,	/* true or false into a bool */
	JR_DOUBLE,	/* a finite number into a double */
	JR_STR,		/* a string that fits a char array */
	JR_CHOICE,	/* one of names[]: its index into an int-sized enum */
	JR_NUMS,	/* an array of whole numbers, as many as the member holds */
	JR_OBJ,		/* an object read by its own table, into the same struct */
};

#define JR_NULL		1u	/* null leaves the member alone ("" for a string) */
#define JR_SINCE	2u	/* absent leaves it alone: runs saved before the key */
#define JR_NO_PRESENT	((size_t)-1)

struct jr_field {
	const char *key;
	size_t off;		/* JR_OBJ: of a bool set when the object is there */
	unsigned char kind, flags;
	unsigned short size;	/* the member's bytes (JR_NUMS: one element's) */
	unsigned count;		/* JR_NUMS: elements; JR_CHOICE, JR_OBJ: table rows */
	uint64_t max;		/* JR_NUM: the largest value (0: the member's) */
	const void *table;	/* JR_CHOICE: the names; JR_OBJ: the rows */
};

#define JR_AT(type, member) \
	.off = offsetof(struct type, member), .size = sizeof(((struct type *)0)->member)
#define JR_N(a)		(sizeof(a) / sizeof(*(a)))

/* Whole numbers; _IF with flags; _MAX no more than max. */
#define JR_FIELD(type, k, member)	{ .key = k, .kind = JR_NUM, JR_AT(type, member) }
#define JR_FIELD_IF(type, k, member, fl) \
	{ .key = k, .kind = JR_NUM, .flags = fl, JR_AT(type, member) }
#define JR_MAX(type, k, member, mx) \
	{ .key = k, .kind = JR_NUM, .max = mx, JR_AT(type, member) }
#define JR_MAX_IF(type, k, member, mx, fl) \
	{ .key = k, .kind = JR_NUM, .max = mx, .flags = fl, JR_AT(type, member) }
#define JR_NSF(type, k, member)		{ .key = k, .kind = JR_NS, JR_AT(type, member) }
#define JR_BOOLF(type, k, member)	{ .key = k, .kind = JR_BOOL, JR_AT(type, member) }
#define JR_DOUBLEF(type, k, member)	{ .key = k, .kind = JR_DOUBLE, JR_AT(type, member) }
#define JR_STRF(type, k, member, fl) \
	{ .key = k, .kind = JR_STR, .flags = fl, JR_AT(type, member) }
#define JR_CHOICEF(type, k, member, names) \
	{ .key = k, .kind = JR_CHOICE, .count = JR_N(names), .table = names, JR_AT(type, member) }
#define JR_CHOICE_IF(type, k, member, names, fl) \
	{ .key = k, .kind = JR_CHOICE, .flags = fl, .count = JR_N(names), .table = names, \
	  JR_AT(type, member) }
#define JR_NUMSF(type, k, member) \
	{ .key = k, .kind = JR_NUMS, .off = offsetof(struct type, member), \
	  .size = sizeof(((struct type *)0)->member[0]), \
	  .count = JR_N(((struct type *)0)->member) }
/* An object of its own table's rows; _AS sets bool member present when it
 * is there (not null, not absent). */
#define JR_OBJECT(k, rows, fl) \
	{ .key = k, .kind = JR_OBJ, .flags = fl, .off = JR_NO_PRESENT, .count = JR_N(rows), \
	  .table = rows }
#define JR_OBJECT_AS(type, k, present, rows, fl) \
	{ .key = k, .kind = JR_OBJ, .flags = fl, .off = offsetof(struct type, present), \
	  .count = JR_N(rows), .table = rows }

/* Each row of f[0..n) from o into base, in order, the first problem said;
 * nullable: as if every row had JR_NULL. */
int jr_fields(struct jr *r, struct json_object *o, void *base, const struct jr_field *f,
	      size_t n, bool nullable);
#define JR_FIELDS(r, o, base, table, nullable) \
	jr_fields(r, o, base, table, JR_N(table), nullable)
/* The same for one object: a table is what its members are */
#define JR_READ(r, o, base, table)	jr_fields(r, o, base, table, JR_N(table), false)

/* A table as rows and their count, to be shared (session/run_format.h). */
struct jr_table {
	const struct jr_field *f;
	size_t n;
};
#define JR_TABLE(rows)		{ rows, JR_N(rows) }
#define JR_READ_T(r, o, base, t)	jr_fields(r, o, base, (t).f, (t).n, false)

/* The same rows written: each member of base into o under its key, in the
 * table's order (a string of a JR_NULL row: null when ""; an object row:
 * null when its present flag is false); o returned. report_json.c writes
 * by the tables load_run.c reads by, so that the two cannot part. */
struct json_object *jw_fields(struct json_object *o, const void *base,
			      const struct jr_field *f, size_t n);
#define JW_T(o, base, t)	jw_fields(o, base, (t).f, (t).n)

/* Object member key of o read by rows into base (null when flags has
 * JR_NULL, absent when JR_SINCE: *there false then). */
int jr_section(struct jr *r, struct json_object *o, const char *key, unsigned flags,
	       void *base, const struct jr_field *rows, size_t n, bool *there);
#define JR_SECTION(r, o, key, flags, base, rows, there) \
	jr_section(r, o, key, flags, base, rows, JR_N(rows), there)

/* Array member key of o (null when JR_NULL, absent when JR_SINCE: 0
 * rows): each element an object read by rows into base + i * stride, at
 * most max of them (more: key toomany), then by more(r, element, row,
 * arg) when more is not NULL; *n the rows read. */
struct jr_rows {
	const char *key;
	unsigned flags;
	size_t stride, max;
	const char *toomany;
	const struct jr_field *rows;
	size_t nrows;
	int (*more)(struct jr *r, struct json_object *o, void *row, void *arg);
};
int jr_array_rows(struct jr *r, struct json_object *o, const struct jr_rows *a, void *base,
		  void *arg, size_t *n);
/* The array at key (NULL when null or absent, as flags allow) and its length. */
int jr_array(struct jr *r, struct json_object *o, const char *key, unsigned flags,
	     struct json_object **a, size_t *n);

/* Member key of o, an object (or null when nullable), entered for the
 * messages of what is read in it: jr_leave(r, saved) after, when it
 * returns 0. */
int jr_object(struct jr *r, struct json_object *o, const char *key, bool nullable,
	      struct json_object **out, char *saved, size_t n);
/* Element i of array a (member key), entered; it must be an object. */
int jr_element(struct jr *r, struct json_object *a, const char *key, size_t i,
	       struct json_object **out, char *saved, size_t n);

#endif
