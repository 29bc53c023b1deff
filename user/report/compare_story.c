/*
 * compare_story.c - the term-by-term account of two runs, as figures: the
 * calls one saves or adds and each run's time in them, user CPU, lock waits,
 * waits for a CPU, the programs' caches, page-cache misses; then Net. The
 * same rule set for every pair, in the terms the kernel measured, whatever
 * the subjects are. Each figure is the run's total times its side's factor
 * (compare_int.h): totals, or per second of a fixed window. compare_say.c
 * prints the lines; cmp_story_json writes them.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <json-c/json.h>
#include "report/compare_int.h"
#include "explain/words.h"
#include "trace/probes.h"

static double acct(const struct cmp_side *x, enum acct_bucket b)
{
	return (double)x->m->acct_total_ns[b] * x->per;
}

struct cmp_line *cmp_line_new(struct cmp_story *s, const char *term, const char *what)
{
	struct cmp_line *l = &s->line[s->n < CMP_LINES_MAX ? s->n++ : CMP_LINES_MAX - 1];

	memset(l, 0, sizeof(*l));
	snprintf(l->term, sizeof(l->term), "%s", term);
	snprintf(l->what, sizeof(l->what), "%s", what);
	return l;
}

void cmp_fig(struct cmp_line *l, const char *key, double v)
{
	figs_set(l->figs, &l->nfigs, CMP_LINE_FIGS, key, v);
}

double cmp_get(const struct cmp_line *l, const char *key)
{
	return figs_get(l->figs, l->nfigs, key);
}

/* The syscalls a subject may save or add, each kind with its cost: by
 * number, and the rest (-1: the rows' "other", every number but the
 * named ones, costed as one). */
static const struct { const char *name; int nr[2]; } kinds[] = {
	{ "open+close", { __NR_openat, __NR_close } },
	{ "stat", { __NR_newfstatat, __NR_statx } },
	{ "pread64", { __NR_pread64, __NR_pread64 } },
	{ "other (lseek, read, ...)", { -1, -1 } },
};

/* A kind's figures in run m: a number's, or the other calls'. */
static const struct sc_stats *kind_calls(const struct joined_run *m, int nr)
{
	return nr < 0 ? &m->sc_total[SC_ROW_OTHER] : &m->nr_total[nr];
}

/* One kind: the calls each run makes and each run's own time in them, the
 * figure its syscall table gives (not one run's calls at the other's
 * cost, which neither table holds). Returns the time a saves. */
static double story_calls(struct cmp_story *s, const struct cmp_pair *p, int k)
{
	double ca = 0, cb = 0, ta = 0, tb = 0;
	struct cmp_line *l;

	for (int i = 0; i < (kinds[k].nr[0] == kinds[k].nr[1] ? 1 : 2); i++) {
		const struct sc_stats *sa = kind_calls(p->a.m, kinds[k].nr[i]);
		const struct sc_stats *sb = kind_calls(p->b.m, kinds[k].nr[i]);

		ca += (double)sa->count * p->a.per;
		cb += (double)sb->count * p->b.per;
		ta += (double)sa->total_ns * p->a.per;
		tb += (double)sb->total_ns * p->b.per;
	}
	/* a few calls either way (racing misses) are not a term */
	if (fabs(cb - ca) <= 0.01 * fmax(ca, cb) && fabs(tb - ta) < 1e6)
		return 0;
	l = cmp_line_new(s, "syscalls", kinds[k].name);
	cmp_fig(l, "calls_a", ca);
	cmp_fig(l, "calls_b", cb);
	cmp_fig(l, "ns_a", ta);
	cmp_fig(l, "ns_b", tb);
	return tb - ta;
}

/* Sum of one own-clock field (at offset off) over a run's threads. */
static double rows_sum(const struct joined_run *m, size_t off)
{
	double sum = 0;

	for (unsigned i = 0; i < m->nrows; i++)
		sum += (double)*(const uint64_t *)((const char *)row_own(&m->rows[i]) + off);
	return sum;
}
#define ROWS_SUM(m, field) rows_sum(m, offsetof(struct thread_timings, field))

/* Waits on the subject's named locks, as the kernel counted them. */
static double named_waits(const struct joined_run *m)
{
	double n = 0;

	for (int i = 0; i < m->nlocks; i++)
		if (!m->locks[i].kernel)
			n += (double)m->locks[i].waits;
	return n;
}

static double per_op(double v, const struct joined_run *m)
{
	return m->ops ? v / (double)m->ops : 0;
}

/* User CPU, and the part of it spent holding the workload's locks by its
 * own clocks (a cache's lookup and replacement bookkeeping; the rest is
 * the copy out and the loop) - unless syscalls ran under the locks, when
 * the hold is not user CPU and is told on its own. Per op: of the runs'
 * totals, which only programs that count their ops have. */
static void story_user(struct cmp_story *s, const struct cmp_pair *p)
{
	const struct joined_run *a = p->a.m, *b = p->b.m;
	double ua = acct(&p->a, ACCT_CPU_USER) / p->a.per, ub = acct(&p->b, ACCT_CPU_USER) / p->b.per;
	double ha = ROWS_SUM(a, lock_hold_ns), in = ROWS_SUM(a, syscalls_in_lock);
	struct cmp_line *l = cmp_line_new(s, "user_cpu", "");

	cmp_fig(l, "ns_a", ua * p->a.per);
	cmp_fig(l, "ns_b", ub * p->b.per);
	if (!a->ops || !b->ops)
		return;
	cmp_fig(l, "per_op_ns_a", per_op(ua, a));
	cmp_fig(l, "per_op_ns_b", per_op(ub, b));
	if (ha > 0.01 * ua && ua > 0 && in == 0) {
		cmp_fig(l, "total_ns_a", ua);
		cmp_fig(l, "held_per_op_ns_a", per_op(ha, a));
		cmp_fig(l, "rest_per_op_ns_a", per_op(ua > ha ? ua - ha : 0, a));
	} else if (in > 0) {
		cmp_fig(l, "held_per_op_ns_a", per_op(ha, a));
		cmp_fig(l, "sc_in_lock_per_op_a", per_op(in, a));
	}
}

/* The waits on the locks a names, then the waits for a CPU. */
static void story_locks(struct cmp_story *s, const struct cmp_pair *p)
{
	double la = acct(&p->a, ACCT_LOCK_NAMED), lb = acct(&p->b, ACCT_LOCK_NAMED);
	double wa = named_waits(p->a.m), acq = ROWS_SUM(p->a.m, lock_acquires);
	struct cmp_line *l;

	if (la > 0 || lb > 0) {
		l = cmp_line_new(s, "lock_wait", "");
		cmp_fig(l, "ns_a", la);
		cmp_fig(l, "ns_b", lb);
		if (wa > 0) {
			cmp_fig(l, "waits_a", wa * p->a.per);
			/* each wait's mean: of the run's totals */
			cmp_fig(l, "wait_mean_ns_a", la / p->a.per / wa);
		}
		if (wa > 0 && acq > 0)
			cmp_fig(l, "acquisitions_a", acq * p->a.per);
	}
	l = cmp_line_new(s, "cpus", "");
	cmp_fig(l, "runq_ns_a", acct(&p->a, ACCT_RUNQ));
	cmp_fig(l, "runq_ns_b", acct(&p->b, ACCT_RUNQ));
}

static void story_pagecache(struct cmp_story *s, const struct cmp_pair *p)
{
	double ma = (double)p->a.m->pagecache_misses * p->a.per;
	double mb = (double)p->b.m->pagecache_misses * p->b.per;
	double ba = acct(&p->a, ACCT_BLOCKED), bb = acct(&p->b, ACCT_BLOCKED);
	struct cmp_line *l;

	if (ma == mb && fabs(ba - bb) < 1e6)
		return;
	l = cmp_line_new(s, "page_cache", "");
	cmp_fig(l, "misses_a", ma);
	cmp_fig(l, "misses_b", mb);
	cmp_fig(l, "blocked_ns_a", ba);
	cmp_fig(l, "blocked_ns_b", bb);
}

/* Net: the walls, when the work set them; fixed windows set their own
 * length, so the runs' time on CPU per second of window instead. */
static void story_net(struct cmp_story *s, const struct cmp_pair *p)
{
	struct cmp_line *l = cmp_line_new(s, "net", "");

	cmp_fig(l, "wall_ns_a", (double)p->a.m->wall_ns);
	cmp_fig(l, "wall_ns_b", (double)p->b.m->wall_ns);
	if (!p->rates)
		return;
	cmp_fig(l, "cpu_ns_a", acct(&p->a, ACCT_CPU_USER) + acct(&p->a, ACCT_CPU_SYS));
	cmp_fig(l, "cpu_ns_b", acct(&p->b, ACCT_CPU_USER) + acct(&p->b, ACCT_CPU_SYS));
}

void cmp_story_of(const struct cmp_pair *p, struct cmp_story *s)
{
	double saved = 0;

	memset(s, 0, sizeof(*s));
	for (int k = 0; k < (int)(sizeof(kinds) / sizeof(kinds[0])); k++)
		saved += story_calls(s, p, k);
	if (saved == 0)
		cmp_line_new(s, "syscalls_same", "");
	story_user(s, p);
	story_locks(s, p);
	cmp_story_caches(s, p);
	story_pagecache(s, p);
	story_net(s, p);
}

struct json_object *cmp_story_json(const struct cmp_story *s)
{
	struct json_object *a = json_object_new_array();

	for (int i = 0; i < s->n; i++) {
		const struct cmp_line *l = &s->line[i];
		struct json_object *o = json_object_new_object(), *f = json_object_new_object();

		json_object_object_add(o, "term", json_object_new_string(l->term));
		json_object_object_add(o, "what", json_object_new_string(l->what));
		json_object_object_add(o, "only_in", json_object_new_string(l->only_in));
		for (int k = 0; k < l->nfigs; k++)
			json_object_object_add(f, l->figs[k].key,
					       json_object_new_double(l->figs[k].value));
		json_object_object_add(o, "figures", f);
		json_object_array_add(a, o);
	}
	return a;
}
