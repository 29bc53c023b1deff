/*
 * compare_int.h - what compare.c and compare_story.c share: the two runs
 * as the comparison reads them.
 */
#ifndef FCTRACE_COMPARE_INT_H
#define FCTRACE_COMPARE_INT_H

#include <stdbool.h>
#include <stdio.h>
#include "session/session.h"
#include "explain/explain.h"

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
/*
 * The term-by-term account, made once and then printed or written: a line
 * for each term where the runs differ, then Net. Each line's figures are
 * as compared (totals, or per second of each window in rates), by key:
 * docs/json.md lists them.
 */
#define CMP_LINE_FIGS	12
#define CMP_LINES_MAX	16

struct cmp_line {
	char term[16];		/* syscalls, syscalls_same, user_cpu, lock_wait, cpus,
				 * cache, page_cache, net */
	char what[48];		/* the calls' kind ("open+close"), the cache's program */
	int cache_kind;		/* a cache's enum cache_kind */
	char only_in[2];	/* a cache in one run only: "a" or "b"; else "" */
	struct diag_fig figs[CMP_LINE_FIGS];
	int nfigs;
};

struct cmp_story {
	struct cmp_line line[CMP_LINES_MAX];
	int n;
};

void cmp_story_of(const struct cmp_pair *p, struct cmp_story *s);
/* The story's next line (the last is reused past CMP_LINES_MAX), and a
 * figure of it; cmp_get's NAN: not there. */
struct cmp_line *cmp_line_new(struct cmp_story *s, const char *term, const char *what);
void cmp_fig(struct cmp_line *l, const char *key, double v);
double cmp_get(const struct cmp_line *l, const char *key);
/* The programs' caches' lines (compare_caches.c). */
void cmp_story_caches(struct cmp_story *s, const struct cmp_pair *p);
void compare_story(FILE *f, const struct cmp_pair *p, const struct cmp_story *s);
struct json_object;
struct json_object *cmp_story_json(const struct cmp_story *s);

#endif /* FCTRACE_COMPARE_INT_H */
