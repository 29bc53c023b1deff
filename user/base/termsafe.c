/*
 * termsafe.c - text from a target, escaped for a terminal (termsafe.h).
 * A thread named "\e]0;x\a" would otherwise retitle root's terminal, and
 * "\e[2J" clear it, the moment a table printed the name.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "base/termsafe.h"

#define ESCAPED_LEN	4	/* "\xNN" */

/* Code points that are valid but act on the terminal or hide text: C1
 * controls, zero-width and bidirectional marks, separators, the BOM. */
static bool hidden(unsigned cp)
{
	return cp <= 0x9f || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x2028 && cp <= 0x202e) ||
	       (cp >= 0x2060 && cp <= 0x2069) || cp == 0xfeff;
}

/* How many bytes of the character at s (len bytes there) may pass as
 * they are; 0 when its first byte is to be escaped (the rest of a bad
 * sequence are escaped in turn, being continuation bytes). */
static size_t pass_len(const unsigned char *s, size_t len, bool newline)
{
	unsigned c = s[0], cp, n, least;

	if ((c >= 0x20 && c < 0x7f) || (c == '\n' && newline))
		return 1;
	if (c < 0xc2 || c > 0xf4)	/* C0, DEL, C1 bytes, stray continuations, overlongs */
		return 0;
	n = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	cp = c & (0x3fu >> (n - 1));
	for (unsigned i = 1; i < n; i++) {
		if (i >= len || (s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	least = n == 2 ? 0x80 : n == 3 ? 0x800 : 0x10000;
	if (cp < least || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) || hidden(cp))
		return 0;
	return n;
}

static void put_escaped(char *out, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";

	out[0] = '\\';
	out[1] = 'x';
	out[2] = hex[c >> 4];
	out[3] = hex[c & 15];
}

char *term_safe(char *dst, size_t n, const char *src)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t len = strlen(src), at = 0;

	if (!n)
		return dst;
	while (len) {
		size_t k = pass_len(s, len, false);

		if (at + (k ? k : ESCAPED_LEN) >= n)
			break;
		if (k)
			memcpy(dst + at, s, k);
		else
			put_escaped(dst + at, *s);
		at += k ? k : ESCAPED_LEN;
		s += k ? k : 1;
		len -= k ? k : 1;
	}
	dst[at] = '\0';
	return dst;
}

/* ---- the stream: held whole, escaped and written out at fclose -------- */

struct held {
	FILE *to;
	char *buf;
	size_t len, cap;
	bool failed;
};

static ssize_t held_write(void *cookie, const char *buf, size_t size)
{
	struct held *h = cookie;
	char *more;

	if (h->len + size > h->cap) {
		size_t cap = (h->len + size) * 2;

		if (!(more = realloc(h->buf, cap))) {
			h->failed = true;
			return -1;
		}
		h->buf = more;
		h->cap = cap;
	}
	memcpy(h->buf + h->len, buf, size);
	h->len += size;
	return (ssize_t)size;
}

/* Every byte out to h->to, escaped: 0, or -1 when a write failed. */
static int held_flush(struct held *h)
{
	const unsigned char *s = (const unsigned char *)h->buf;
	size_t left = h->len;
	char esc[ESCAPED_LEN];

	while (left) {
		size_t k = 0;

		/* the longest run that passes, in one write */
		while (k < left) {
			size_t c = pass_len(s + k, left - k, true);

			if (!c)
				break;
			k += c;
		}
		if (k && fwrite(s, 1, k, h->to) != k)
			return -1;
		s += k;
		left -= k;
		if (left) {
			put_escaped(esc, *s++);
			left--;
			if (fwrite(esc, 1, sizeof(esc), h->to) != sizeof(esc))
				return -1;
		}
	}
	return 0;
}

static int held_close(void *cookie)
{
	struct held *h = cookie;
	int rc = h->failed ? -1 : held_flush(h);

	free(h->buf);
	free(h);
	return rc;
}

FILE *term_stream(FILE *to)
{
	cookie_io_functions_t io = { .write = held_write, .close = held_close };
	struct held *h = calloc(1, sizeof(*h));
	FILE *f;

	if (!h)
		return NULL;
	h->to = to;
	if (!(f = fopencookie(h, "w", io)))
		free(h);
	return f;
}
