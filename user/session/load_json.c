/*
 * load_json.c - the saved documents `fctrace report` and `diff` read: the
 * file read whole, parsed as exactly one JSON value, and told apart (a
 * run, a comparison, a sweep) once its schema_version is this fctrace's.
 * A run document becomes a session in load_run.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "base/jsonread.h"
#include "session/load_json.h"
#include "base/schema.h"

#define LOAD_MAX_BYTES	(256u << 20)	/* a run of 1024 threads is tens of MiB */
#define MiB		(1024.0 * 1024)

/*
 * json-c's memory for a document, told from its text before it is
 * parsed: measured with json-c 0.16, an object takes ~800 bytes (its
 * hash table), an array ~150, a number or short string ~70-100, and a
 * member's key its own copy. `{},` is 3 bytes of text and ~800 of
 * memory: a 12 MB file of them took 3.26 GB. A saved run's document,
 * pretty or minified (jq -c), needs at most ~47 times its size by these
 * weights, so a document is parsed only when its estimate stays within
 * LOAD_COST_RATIO times its size plus LOAD_COST_BASE, and LOAD_COST_MAX
 * in all (docs/security.md).
 */
#define COST_OBJECT	1024
#define COST_ARRAY	256
#define COST_VALUE	112	/* per value in a container: per comma, and the first */
#define COST_KEY	32
#define LOAD_COST_RATIO	64
#define LOAD_COST_BASE	(16ull << 20)
#define LOAD_COST_MAX	(2ull << 30)

struct json_counts {
	uint64_t objects, arrays, values, keys;
};

/* Objects, arrays, values and keys in text, outside its strings. */
static void count_json(const char *text, size_t len, struct json_counts *c)
{
	bool in_string = false;

	memset(c, 0, sizeof(*c));
	c->values = 1;
	for (size_t i = 0; i < len; i++) {
		char ch = text[i];

		if (in_string) {
			if (ch == '\\')
				i++;
			else if (ch == '"')
				in_string = false;
			continue;
		}
		switch (ch) {
		case '"': in_string = true; break;
		case '{': c->objects++; c->values++; break;
		case '[': c->arrays++; c->values++; break;
		case ',': c->values++; break;
		case ':': c->keys++; break;
		}
	}
}

static uint64_t json_cost(const struct json_counts *c)
{
	return c->objects * COST_OBJECT + c->arrays * COST_ARRAY + c->values * COST_VALUE +
	       c->keys * COST_KEY;
}

/* 0 when parsing text stays within the bound; else -1 with why. */
static int within_bound(const char *text, size_t len, char *why, size_t n)
{
	struct json_counts c;
	uint64_t cost, bound = (uint64_t)len * LOAD_COST_RATIO + LOAD_COST_BASE;

	count_json(text, len, &c);
	cost = json_cost(&c);
	if (bound > LOAD_COST_MAX)
		bound = LOAD_COST_MAX;
	if (cost <= bound)
		return 0;
	snprintf(why, n, "holds %llu objects and %llu arrays in %zu bytes: parsing it would take "
		 "about %.0f MiB, more than a saved run of its size can (at most %.0f MiB here)",
		 (unsigned long long)c.objects, (unsigned long long)c.arrays, len, cost / MiB,
		 bound / MiB);
	return -1;
}

/* The whole of fd, up to LOAD_MAX_BYTES: NULL with errno (EFBIG: too big). */
static char *read_all(int fd, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap), *more;
	ssize_t got;

	while (buf) {
		if (n == cap) {
			if (cap >= LOAD_MAX_BYTES) {
				free(buf);
				errno = EFBIG;
				return NULL;
			}
			if (!(more = realloc(buf, cap *= 2)))
				free(buf);
			buf = more;
			continue;
		}
		got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int err = errno;

			free(buf);
			errno = err;
			return NULL;
		}
		if (!got)
			break;
		n += (size_t)got;
	}
	*len = n;
	return buf;
}

/* Nothing but white space from text to text + len. */
static bool only_space(const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (text[i] != ' ' && text[i] != '\t' && text[i] != '\r' && text[i] != '\n')
			return false;
	return true;
}

/* Was the value parsed up to end the literal null? json-c returns NULL
 * for it, as it does when out of memory. */
static bool is_null(const char *text, size_t end)
{
	size_t i = 0;

	while (i < end && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
		i++;
	return end - i >= 4 && !strncmp(text + i, "null", 4);
}

int load_text(const char *text, size_t len, struct json_object **doc, char *why, size_t n)
{
	struct json_tokener *tok = json_tokener_new();
	enum json_tokener_error err;
	size_t end;

	*doc = NULL;
	if (!tok)
		return snprintf(why, n, "out of memory"), -1;
	if (len > LOAD_MAX_BYTES) {
		json_tokener_free(tok);
		return snprintf(why, n, "is larger than 256 MiB: not a saved run"), -1;
	}
	if (within_bound(text, len, why, n)) {
		json_tokener_free(tok);
		return -1;
	}
	*doc = json_tokener_parse_ex(tok, text, (int)len);
	err = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	/* json-c's NULL too; a bare "null" at the end is still "continue" */
	if (!*doc && ((err == json_tokener_success && is_null(text, end)) ||
		      (err == json_tokener_continue && is_null(text, len))))
		snprintf(why, n, "is JSON null, not a saved run");
	else if (!*doc && err == json_tokener_success)	/* json-c 0.16 says no more on ENOMEM */
		snprintf(why, n, "cannot be parsed: out of memory at byte %zu", end);
	else if (!*doc && err == json_tokener_continue)
		snprintf(why, n, "%s", only_space(text, len) ? "is empty, not JSON" :
			 "is cut short: the JSON ends before its last value does");
	else if (!*doc)
		snprintf(why, n, "is not JSON: %s at byte %zu", json_tokener_error_desc(err), end);
	else if (!only_space(text + end, len - end)) {
		snprintf(why, n, "is not one JSON document: more follows at byte %zu", end);
		json_object_put(*doc);
		*doc = NULL;
	}
	json_tokener_free(tok);
	return *doc ? 0 : -1;
}

/* What path is when it is not a regular file: "is a FIFO"...; NULL if it is. */
static const char *not_a_file(mode_t mode)
{
	return S_ISREG(mode) ? NULL : S_ISFIFO(mode) ? "is a FIFO" : S_ISCHR(mode) ?
	       "is a character device" : S_ISBLK(mode) ? "is a block device" : S_ISSOCK(mode) ?
	       "is a socket" : S_ISDIR(mode) ? "is a directory" : "is not a file";
}

/* path opened for reading if it is a regular file (a link to one is
 * fine): looked at before the open, so a FIFO or a device is never
 * opened, and again after (O_NONBLOCK: a FIFO swapped in meanwhile
 * cannot hold the open or the read). fd, or -1 with why. */
static int open_saved(const char *path, char *why, size_t n)
{
	const char *what;
	struct stat st;
	int fd;

	if (stat(path, &st))
		return snprintf(why, n, "%s", strerror(errno)), -1;
	if ((what = not_a_file(st.st_mode)))
		return snprintf(why, n, "%s, not a saved run (a regular file)", what), -1;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return snprintf(why, n, "%s", strerror(errno)), -1;
	if (fstat(fd, &st) || (what = not_a_file(st.st_mode))) {
		snprintf(why, n, "%s, not a saved run (a regular file)", what ? what : strerror(errno));
		close(fd);
		return -1;
	}
	if (st.st_size > (off_t)LOAD_MAX_BYTES) {
		snprintf(why, n, "is larger than 256 MiB: not a saved run");
		close(fd);
		return -1;
	}
	return fd;
}

int load_document(const char *path, struct json_object **doc, char *why, size_t n)
{
	int fd = strcmp(path, "-") ? open_saved(path, why, n) : STDIN_FILENO;
	size_t len = 0;
	char *text;
	int rc;

	*doc = NULL;
	if (fd < 0)
		return -1;
	text = read_all(fd, &len);
	if (!text)
		snprintf(why, n, "%s", errno == EFBIG ? "is larger than 256 MiB: not a saved run"
			 : errno == ENOMEM ? "out of memory reading it" : strerror(errno ? errno : EIO));
	if (fd != STDIN_FILENO)
		close(fd);
	if (!text)
		return -1;
	rc = load_text(text, len, doc, why, n);
	free(text);
	return rc;
}

int load_kind(struct json_object *doc, enum load_kind *kind, char *why, size_t n)
{
	struct jr r = { why, n, "" };
	struct json_object *cmd = NULL;
	uint64_t v;

	if (!json_object_is_type(doc, json_type_object))
		return jr_fail(&r, NULL, "is JSON but not an fctrace document (not an object)");
	if (!json_object_object_get_ex(doc, "schema_version", NULL))
		return jr_fail(&r, NULL,
			       "is JSON but not an fctrace document (no \"schema_version\")");
	if (jr_u64(&r, doc, "schema_version", &v))
		return -1;
	if (v != SCHEMA_VERSION) {
		snprintf(why, n, "has schema_version %llu, this fctrace reads %d only: %s",
			 (unsigned long long)v, SCHEMA_VERSION, v < SCHEMA_VERSION ?
			 "an older fctrace wrote it without all a report needs; run it again"
			 : "a newer fctrace wrote it; report it with that one");
		return -1;
	}
	*kind = LOAD_RUN;
	if (!json_object_object_get_ex(doc, "command", &cmd))
		return 0;
	if (json_object_is_type(cmd, json_type_string) &&
	    !strcmp(json_object_get_string(cmd), "compare"))
		return *kind = LOAD_COMPARE, 0;
	if (json_object_is_type(cmd, json_type_string) &&
	    !strcmp(json_object_get_string(cmd), "sweep"))
		return *kind = LOAD_SWEEP, 0;
	return jr_fail(&r, "command", "must be \"compare\" or \"sweep\" (or absent: a run)");
}
