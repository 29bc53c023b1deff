/*
 * fuzz_numlist.c - libFuzzer target for number lists and sizes
 * (numlist.c): "10,50,60,100", "1-8", "64M", "2KiB".
 *
 * The first byte picks the bounds (--files', --threads', any from the
 * next 16 bytes, or the whole range) and the error buffer's size; the
 * rest is the text. Checks: accepted lists hold 1 to NUMLIST_MAX values
 * within the bounds, refused ones say why, and a single number that
 * parse_size accepts within the bounds is a one-value list.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "base/numlist.h"

static void pick_bounds(const uint8_t **data, size_t *size, uint64_t *lo, uint64_t *hi)
{
	uint8_t mode = (*data)[0] & 3;

	*lo = 1;
	*hi = mode == 0 ? 100000 : mode == 1 ? 256 : UINT64_MAX;
	if (mode == 3)
		*lo = 0;
	if (mode == 2 && *size >= 17) {
		memcpy(lo, *data + 1, sizeof(*lo));
		memcpy(hi, *data + 9, sizeof(*hi));
		*data += 16;
		*size -= 16;
	}
}

static void check(const char *s, uint64_t lo, uint64_t hi, unsigned errlen)
{
	struct numlist l;
	char err[96];
	uint64_t one;
	int rc;

	memset(err, 0, sizeof(err));
	rc = numlist_parse(s, lo, hi, &l, err, errlen);
	if (rc == 0) {
		if (l.n < 1 || l.n > NUMLIST_MAX)
			abort();
		for (unsigned i = 0; i < l.n; i++)
			if (l.v[i] < lo || l.v[i] > hi)
				abort();
	} else if (rc != -1 || (errlen > 1 && !err[0]) || strnlen(err, errlen) == errlen) {
		abort();
	}
	if (!strpbrk(s, ",-") && parse_size(s, &one) == 0 && one >= lo && one <= hi &&
	    (rc || l.n != 1 || l.v[0] != one))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t lo, hi;
	unsigned errlen;
	char *s;

	if (size < 1)
		return 0;
	errlen = 1 + (data[0] >> 2) % 95;
	pick_bounds(&data, &size, &lo, &hi);
	if (!(s = malloc(size)))
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	check(s, lo, hi, errlen);
	free(s);
	return 0;
}
