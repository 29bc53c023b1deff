/* numlist.c - number lists and sizes given on the command line. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/numlist.h"

int parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	uint64_t mult = 1;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	switch (toupper((unsigned char)*end)) {
	case 'K': mult = 1ull << 10; end++; break;
	case 'M': mult = 1ull << 20; end++; break;
	case 'G': mult = 1ull << 30; end++; break;
	}
	if (mult > 1 && (*end == 'i' || *end == 'I'))
		end++;
	if (mult > 1 && (*end == 'b' || *end == 'B'))
		end++;
	if (*end || v > UINT64_MAX / mult)
		return -1;
	*out = v * mult;
	return 0;
}

static int add_range(struct numlist *l, uint64_t a, uint64_t b, char *err,
		     unsigned errlen)
{
	for (uint64_t v = a;; v++) {	/* not v <= b: b may be UINT64_MAX */
		if (l->n == NUMLIST_MAX) {
			snprintf(err, errlen, "more than %d values", NUMLIST_MAX);
			return -1;
		}
		l->v[l->n++] = v;
		if (v == b)
			return 0;
	}
}

static int parse_item(char *item, uint64_t lo, uint64_t hi, struct numlist *l,
		      char *err, unsigned errlen)
{
	char *dash = strchr(item, '-');
	uint64_t a, b;

	if (dash)
		*dash = '\0';
	if (parse_size(item, &a) || (dash && parse_size(dash + 1, &b))) {
		snprintf(err, errlen, "'%s%s%s' is not a number or range", item,
			 dash ? "-" : "", dash ? dash + 1 : "");
		return -1;
	}
	if (!dash)
		b = a;
	if (a > b) {
		snprintf(err, errlen, "range %llu-%llu runs backwards",
			 (unsigned long long)a, (unsigned long long)b);
		return -1;
	}
	if (a < lo || b > hi) {
		snprintf(err, errlen, "values must be between %llu and %llu",
			 (unsigned long long)lo, (unsigned long long)hi);
		return -1;
	}
	return add_range(l, a, b, err, errlen);
}

int numlist_parse(const char *s, uint64_t lo, uint64_t hi, struct numlist *l,
		  char *err, unsigned errlen)
{
	char buf[512], *rest = buf, *item;

	l->n = 0;
	if (!s || !*s || strlen(s) >= sizeof(buf)) {
		snprintf(err, errlen, "expects a list such as 1,2,4 or 1-8");
		return -1;
	}
	strcpy(buf, s);
	/* strsep, not strtok: an empty item ("1,,2") is an error, not skipped */
	while ((item = strsep(&rest, ",")))
		if (parse_item(item, lo, hi, l, err, errlen))
			return -1;
	return 0;
}
