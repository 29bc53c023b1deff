/*
 * content.c - what every data file holds, so any read can be checked
 * without keeping a copy: the 8-byte word at offset 8*w of file f is
 * mix64(f, w), stored little-endian.
 */
#include <endian.h>
#include <string.h>
#include "wl_internal.h"

static uint64_t content_word(unsigned file, uint64_t w)
{
	return wl_mix64(((uint64_t)file << 44) ^ w ^ 0x5f7f64fae24dc14bull);
}

/* The bytes of file `file` at [off, off + len). */
void wl_content_fill(unsigned file, uint64_t off, void *buf, size_t len)
{
	unsigned char *dst = buf;
	size_t i = 0;

	while (i < len) {
		uint64_t p = off + i, v = content_word(file, p >> 3);
		unsigned char le[8];
		size_t b = p & 7, n = 8 - b < len - i ? 8 - b : len - i;

		for (int k = 0; k < 8; k++)
			le[k] = (unsigned char)(v >> (8 * k));
		memcpy(dst + i, le + b, n);
		i += n;
	}
}

static bool window_ok(unsigned file, uint64_t off, const unsigned char *buf,
		      size_t len, size_t at)
{
	unsigned char want[8];
	size_t n = len - at < 8 ? len - at : 8;

	wl_content_fill(file, off + at, want, n);
	return !memcmp(buf + at, want, n);
}

/* Word w lies wholly inside the chunk read at off: compare it. */
static bool word_ok(unsigned file, uint64_t off, const unsigned char *buf,
		    uint64_t w)
{
	uint64_t got;

	memcpy(&got, buf + (w * 8 - off), 8);
	return le64toh(got) == content_word(file, w);
}

/* Cheap check of a chunk just read: its first, middle and last whole
 * 8-byte words (the middle one holds the chunk's middle byte); a chunk
 * too short to hold three words is checked in 8-byte windows. */
bool wl_content_ok(unsigned file, uint64_t off, const void *buf, size_t len)
{
	const unsigned char *b = buf;
	uint64_t first = (off + 7) >> 3, end = (off + len) >> 3, mid;
	size_t wmid = len / 2 >= 4 ? len / 2 - 4 : 0, wlast = len >= 8 ? len - 8 : 0;

	if (end >= first + 3) {
		mid = (off + len / 2) >> 3;
		mid = mid < first ? first : mid >= end ? end - 1 : mid;
		return word_ok(file, off, b, first) && word_ok(file, off, b, mid) &&
		       word_ok(file, off, b, end - 1);
	}
	return !len || (window_ok(file, off, b, len, 0) &&
			window_ok(file, off, b, len, wmid) &&
			window_ok(file, off, b, len, wlast));
}
