/*
 * content.c - what every data file holds, so any read can be checked
 * without keeping a copy: the 8-byte word at offset 8*w of file f is
 * mix64(f, w), stored little-endian.
 */
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

/* Cheap check of a chunk just read: its first, middle and last 8 bytes. */
bool wl_content_ok(unsigned file, uint64_t off, const void *buf, size_t len)
{
	const unsigned char *b = buf;
	size_t mid = len / 2 >= 4 ? len / 2 - 4 : 0, last = len >= 8 ? len - 8 : 0;

	if (!len)
		return true;
	return window_ok(file, off, b, len, 0) &&
	       window_ok(file, off, b, len, mid) &&
	       window_ok(file, off, b, len, last);
}
