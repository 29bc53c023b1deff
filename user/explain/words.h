/*
 * words.h - how the explain stage writes its figures into sentences:
 * formatted numbers that several can share one sentence (a ring of
 * buffers per thread), and evidence appended to a cause.
 */
#ifndef FCTRACE_WORDS_H
#define FCTRACE_WORDS_H

#include "explain/explain.h"

#define WORDS_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* a / b, 0 when b is not positive */
double fig_ratio(double a, double b);
/* "12.3 ms", "61.4 %", "26.9 k": valid until 24 more are made */
const char *fig_ns(double v);
const char *fig_pct(double r);
const char *fig_cnt(double v);
/* below one percent the exact figure is noise: "< 1 %" */
const char *fig_pct_small(double r);
const char *fig_plural(double n);

/* Append printf output to the string in buf (n bytes in all), cut at
 * the end of buf. */
void words_append(char *buf, size_t n, const char *fmt, ...) WORDS_PRINTF(3, 4);

/* Why the Java monitors' holders were not measured, in words (buf, n
 * bytes), or NULL when they were (join.h struct jvm_holders_off). */
const char *jvm_holders_words(const struct jvm_holders_off *h, char *buf, size_t n);

/* Set the figure key of a cause's or the Why's list (figs, *n of max) to
 * v: a key set again keeps its place and takes the new value; past max
 * it is dropped. The cause and diagnosis forms name the lists. */
void figs_set(struct diag_fig *figs, int *n, int max, const char *key, double v);
void cause_fig(struct diag_cause *c, const char *key, double v);
void why_fig(struct diagnosis *d, const char *key, double v);
/* The figure key of the list, or NAN when it is not there. */
double figs_get(const struct diag_fig *figs, int n, const char *key);

/* Append one sentence of evidence to c (dropped past EXPLAIN_MAX_EVIDENCE). */
void evidence_add(struct diag_cause *c, const char *fmt, ...) WORDS_PRINTF(2, 3);

#endif
