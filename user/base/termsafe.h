/*
 * termsafe.h - text a target chose (thread names, symbols, lock names,
 * paths, command lines, a saved file's strings) made safe for a
 * terminal: every byte a terminal would act on is shown as \xNN.
 *
 * Shown as \xNN: C0 controls and DEL; C1 controls, both as single bytes
 * and as UTF-8 (U+0080..U+009F); bytes that are not valid UTF-8; the
 * invisible characters that reorder or hide text (U+200B..U+200F,
 * U+2028..U+202E, U+2060..U+2069, U+FEFF). Printable ASCII and every
 * other valid UTF-8 character pass as they are. JSON keeps the raw
 * strings (json-c escapes them); HTML escapes for HTML.
 */
#ifndef FCTRACE_TERMSAFE_H
#define FCTRACE_TERMSAFE_H

#include <stddef.h>
#include <stdio.h>

/* src escaped into dst (n bytes, NUL-ended), cut at a whole character
 * or escape when it does not fit; a newline is escaped too. Returns dst. */
char *term_safe(char *dst, size_t n, const char *src);

/* A stream whose bytes go to `to` escaped the same way, newlines kept:
 * the terminal reporters print through it. fclose flushes it (to `to`,
 * not closed); NULL when out of memory. */
FILE *term_stream(FILE *to);

#endif
