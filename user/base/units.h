/* units.h - human units for every reporter: ns/µs/ms/s, percentages, counts, bytes. */
#ifndef FCTRACE_UNITS_H
#define FCTRACE_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* Each writes into buf (at least 16 bytes is enough) and returns buf. */
char *units_ns(char *buf, size_t n, double ns);		/* "812 ns", "4.1 µs", "2.31 s" */
char *units_count(char *buf, size_t n, double v);	/* "812", "41.2 k", "3.1 M" */
char *units_bytes(char *buf, size_t n, double bytes);	/* "100 KiB", "64 MiB" */
char *units_pct(char *buf, size_t n, double ratio);	/* 0.783 -> "78.3 %" */
/* "s" unless n is one: "%u thread%s" says "1 thread", "2 threads". */
const char *units_plural(double n);

#endif
