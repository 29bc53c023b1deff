/*
 * compare_int.h - what compare.c and compare_story.c share: the two runs
 * as the comparison reads them.
 */
#ifndef FCTRACE_COMPARE_INT_H
#define FCTRACE_COMPARE_INT_H

#include <stdbool.h>
#include <stdio.h>
#include "session/session.h"

/* One run: its model, its name in the text, and the factor that turns
 * its totals into what is compared (1, or 1 / its window in seconds). */
struct cmp_side {
	const struct session *s;
	const struct joined_run *m;
	char name[64];		/* "fcp", or "nginx 14:02:11" beside another nginx */
	double per;
};

/* The two runs; rates: their windows were fixed (attach, or a program
 * fctrace stopped waiting for), so their totals only say how long each
 * watched: every figure is per second of its own window. */
/* A compared term; a syscall's row (nr >= 0) names its call. */
struct cmp_term {
	char name[40];
	bool time;		/* a duration, else a count */
	int nr;			/* a syscall's number, or -1 */
	double (*get)(const struct joined_run *m);
};

#define CMP_TERMS_MAX	20
#define CMP_SYSCALL_TERMS 5	/* the calls the runs made most */

struct cmp_pair {
	struct cmp_side a, b;
	bool rates;
	struct cmp_term term[CMP_TERMS_MAX];	/* what the two runs measured */
	int nterms;
};

void cmp_pair_of(struct cmp_pair *p, const struct session *a, const struct session *b);
/* A run's total v as compared ("41.2 k", or "4.12 k/s" in rates). */
char *cmp_fmt(char *buf, size_t n, const struct cmp_pair *p, const struct cmp_side *x,
	      bool time, double v);
/* The term-by-term account: each term where the runs differ, then Net. */
void compare_story(FILE *f, const struct cmp_pair *p);

#endif /* FCTRACE_COMPARE_INT_H */
