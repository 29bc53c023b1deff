/*
 * compare_story.c - one sentence per term where two runs differ: the
 * calls one saves or adds and each run's time in them, user CPU, lock waits,
 * waits for a CPU, the programs' caches, page-cache misses; then Net. The same rule set for
 * every pair, in the terms the kernel measured, whatever the subjects
 * are. Each figure is the run's total times its side's factor
 * (compare_int.h): totals, or per second of a fixed window.
 */
#include <math.h>
#include <stddef.h>
#include <string.h>
#include <sys/syscall.h>
#include "report/compare_int.h"
#include "base/units.h"
#include "trace/probes.h"

static double acct(const struct cmp_side *x, enum acct_bucket b)
{
	return (double)x->m->acct_total_ns[b] * x->per;
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

/* One kind: the calls a saves against b (negative: a makes more) and
 * the time it saves by them: each run's own time in the calls, the
 * figure its syscall table gives (not one run's calls at the other's
 * cost, which neither table holds). Returns the time. */
static double story_calls(FILE *f, const struct cmp_pair *p, int k)
{
	const struct cmp_side *a = &p->a, *b = &p->b;
	const char *sec = p->rates ? " a second" : "";
	double ca = 0, cb = 0, ta = 0, tb = 0, ns;
	char s1[24], s2[24], s3[24], s4[24], s5[24], s6[24];

	for (int i = 0; i < (kinds[k].nr[0] == kinds[k].nr[1] ? 1 : 2); i++) {
		const struct sc_stats *sa = kind_calls(a->m, kinds[k].nr[i]);
		const struct sc_stats *sb = kind_calls(b->m, kinds[k].nr[i]);

		ca += (double)sa->count;
		cb += (double)sb->count;
		ta += (double)sa->total_ns;
		tb += (double)sb->total_ns;
	}
	ns = tb * b->per - ta * a->per;
	/* a few calls either way (racing misses) are not a term */
	if (fabs(cb * b->per - ca * a->per) <= 0.01 * fmax(ca * a->per, cb * b->per) &&
	    fabs(ns) < 1e6)
		return 0;
	fprintf(f, "  syscalls    %s makes %s %s %s calls%s than %s (%s against %s):\n"
		"              %s %s%s (their time in them: %s against %s)\n", a->name,
		units_count(s1, sizeof(s1), fabs(cb * b->per - ca * a->per)),
		cb * b->per > ca * a->per ? "fewer" : "more", kinds[k].name, sec, b->name,
		cmp_fmt(s2, sizeof(s2), p, a, false, ca), cmp_fmt(s3, sizeof(s3), p, b, false, cb),
		ns >= 0 ? "saving" : "spending", units_ns(s4, sizeof(s4), fabs(ns)), sec,
		cmp_fmt(s5, sizeof(s5), p, a, true, ta), cmp_fmt(s6, sizeof(s6), p, b, true, tb));
	return ns;
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
 * the hold is not user CPU and is reported on its own. */
static void story_user(FILE *f, const struct cmp_pair *p)
{
	const struct joined_run *a = p->a.m, *b = p->b.m;
	double ua = acct(&p->a, ACCT_CPU_USER), ub = acct(&p->b, ACCT_CPU_USER);
	double ha = ROWS_SUM(a, lock_hold_ns), in = ROWS_SUM(a, syscalls_in_lock);
	char s1[24], s2[24], s3[24], s4[24], s5[24];

	fprintf(f, "  user CPU    it %s %s%s on CPU in user space", ua >= ub ? "adds" : "saves",
		units_ns(s1, sizeof(s1), fabs(ua - ub)), p->rates ? " a second" : "");
	if (!a->ops || !b->ops) {	/* programs fctrace did not write: no ops */
		fprintf(f, " (%s against %s)\n", cmp_fmt(s2, sizeof(s2), p, &p->a, true, ua / p->a.per),
			cmp_fmt(s3, sizeof(s3), p, &p->b, true, ub / p->b.per));
		return;
	}
	ua /= p->a.per;	/* per op: of the run's totals */
	ub /= p->b.per;
	fprintf(f, " (%s per op against %s)", units_ns(s2, sizeof(s2), per_op(ua, a)),
		units_ns(s3, sizeof(s3), per_op(ub, b)));
	if (ha > 0.01 * ua && ua > 0 && in == 0)
		fprintf(f, ";\n              of its %s, %s per op holding its locks (lookup and "
			"bookkeeping,\n              own clocks) and %s per op the rest (copying "
			"out, the loop)", units_ns(s4, sizeof(s4), ua),
			units_ns(s5, sizeof(s5), per_op(ha, a)),
			units_ns(s1, sizeof(s1), per_op(ua > ha ? ua - ha : 0, a)));
	else if (in > 0)
		fprintf(f, ";\n              it holds its locks %s per op (own clocks), with %.2f "
			"syscalls per op inside them", units_ns(s4, sizeof(s4), per_op(ha, a)),
			per_op(in, a));
	fprintf(f, "\n");
}

static void story_locks(FILE *f, const struct cmp_pair *p)
{
	const char *sec = p->rates ? " a second" : "";
	double la = acct(&p->a, ACCT_LOCK_NAMED), lb = acct(&p->b, ACCT_LOCK_NAMED);
	double wa = named_waits(p->a.m), acq = ROWS_SUM(p->a.m, lock_acquires);
	double runq = acct(&p->a, ACCT_RUNQ) - acct(&p->b, ACCT_RUNQ);
	char s1[24], s2[24], s3[24], s4[24];

	if (la > 0 || lb > 0) {
		fprintf(f, "  lock wait   it %s %s%s waiting on its locks (%s against %s)",
			la >= lb ? "pays" : "saves", units_ns(s1, sizeof(s1), fabs(la - lb)), sec,
			cmp_fmt(s2, sizeof(s2), p, &p->a, true, la / p->a.per),
			cmp_fmt(s3, sizeof(s3), p, &p->b, true, lb / p->b.per));
		la /= p->a.per;	/* each wait's mean: of the run's totals */
		if (wa > 0 && acq > 0)
			fprintf(f, ":\n              %s of its %s acquisitions slept, %s each "
				"(hand-off included)", units_count(s1, sizeof(s1), wa),
				units_count(s4, sizeof(s4), acq), units_ns(s2, sizeof(s2), la / wa));
		else if (wa > 0)	/* a program: its own clocks count no acquisitions */
			fprintf(f, ":\n              %s waits slept, %s each (hand-off included)",
				cmp_fmt(s1, sizeof(s1), p, &p->a, false, wa),
				units_ns(s2, sizeof(s2), la / wa));
		fprintf(f, "\n");
	}
	fprintf(f, "  CPUs        it %s %s%s waiting for a CPU (thread time)\n",
		runq >= 0 ? "pays" : "saves", units_ns(s1, sizeof(s1), fabs(runq)), sec);
}

static void story_pagecache(FILE *f, const struct cmp_pair *p)
{
	double ma = (double)p->a.m->pagecache_misses * p->a.per;
	double mb = (double)p->b.m->pagecache_misses * p->b.per;
	double bl = acct(&p->a, ACCT_BLOCKED) - acct(&p->b, ACCT_BLOCKED);
	char s1[24], s2[24], s3[24], s4[24];

	if (ma == mb && fabs(bl) < 1e6)
		return;
	fprintf(f, "  page cache  it %s %s page-cache misses%s (%s against %s pages read in)\n"
		"              and %s %s%s blocked\n", ma <= mb ? "avoids" : "adds",
		units_count(s1, sizeof(s1), fabs(mb - ma)), p->rates ? " a second" : "",
		cmp_fmt(s2, sizeof(s2), p, &p->a, false, ma / p->a.per),
		cmp_fmt(s3, sizeof(s3), p, &p->b, false, mb / p->b.per), bl <= 0 ? "saves" : "pays",
		units_ns(s4, sizeof(s4), fabs(bl)), p->rates ? " a second" : "");
}

/* One program's caches of one kind in a run, its processes summed (a
 * server's workers each keep their own; pids differ between runs, the
 * name does not). */
struct cache_sum {
	double accesses, misses, rereads, ws_bytes;
	uint64_t size_max, ws_items;
	bool size_known;
	int procs;
};

static void cache_sum(const struct joined_run *m, const struct cache_entry *like,
		      struct cache_sum *s)
{
	memset(s, 0, sizeof(*s));
	for (int i = 0; i < m->ncaches; i++) {
		const struct cache_entry *c = &m->caches[i];

		if (c->kind != like->kind || strcmp(c->comm, like->comm))
			continue;
		s->accesses += (double)c->accesses;
		s->misses += (double)c->misses;
		s->rereads += c->rereads;
		if ((double)c->ws_bytes > s->ws_bytes)
			s->ws_bytes = (double)c->ws_bytes;
		if (c->ws_items > s->ws_items)
			s->ws_items = c->ws_items;
		if (c->size_known && c->size_items > s->size_max)
			s->size_max = c->size_items;
		s->size_known |= c->size_known;
		s->procs++;
	}
}

/* Whether an entry of this program and kind came earlier in m. */
static bool cache_seen(const struct joined_run *m, int before, const struct cache_entry *c)
{
	for (int i = 0; i < before; i++)
		if (m->caches[i].kind == c->kind && !strcmp(m->caches[i].comm, c->comm))
			return true;
	return false;
}

/* A handle cache by its hit ratio; a block or page cache, whose hits are
 * not seen, by its re-reads. */
static void story_cache(FILE *f, const struct cmp_pair *p, const struct cache_entry *c)
{
	struct cache_sum a, b;
	char s1[24], s2[24], s3[24], s4[24], w1[16], w2[16];

	cache_sum(p->a.m, c, &a);
	cache_sum(p->b.m, c, &b);
	fprintf(f, "  caches      %s's %s: ", c->comm, cache_kind_name(c->kind));
	if (!a.procs || !b.procs) {
		const struct cmp_side *none = a.procs ? &p->b : &p->a;

		fprintf(f, "in %s only: ", a.procs ? p->a.name : p->b.name);
		if (!(none->m->groups & PG_MASK(PG_HANDLES)))
			fprintf(f, "not measured in %s\n", none->name);
		else
			fprintf(f, "%s %s\n", none->name, c->kind == CACHE_HANDLES ?
				"opened no file twice" : c->kind == CACHE_BLOCKS ?
				"read no block twice" : c->kind == CACHE_CONNS ?
				"made few new connections to any one peer" :
				"re-read no page reclaim had removed");
		return;
	}
	if (c->kind == CACHE_CONNS) {
		fprintf(f, "new connections %s against %s (at most %llu against %llu open at "
			"once)\n", cmp_fmt(s1, sizeof(s1), p, &p->a, false, a.misses),
			cmp_fmt(s2, sizeof(s2), p, &p->b, false, b.misses),
			(unsigned long long)a.ws_items, (unsigned long long)b.ws_items);
		return;
	}
	if (c->kind == CACHE_HANDLES)
		fprintf(f, "hit %s against %s; misses %s against %s", units_pct(s1, sizeof(s1),
			a.accesses > 0 ? 1 - a.misses / a.accesses : 0), units_pct(s2, sizeof(s2),
			b.accesses > 0 ? 1 - b.misses / b.accesses : 0),
			cmp_fmt(s3, sizeof(s3), p, &p->a, false, a.misses),
			cmp_fmt(s4, sizeof(s4), p, &p->b, false, b.misses));
	else
		fprintf(f, "re-reads %s against %s of %s against %s reads",
			cmp_fmt(s1, sizeof(s1), p, &p->a, false, a.rereads),
			cmp_fmt(s2, sizeof(s2), p, &p->b, false, b.rereads),
			cmp_fmt(s3, sizeof(s3), p, &p->a, false, a.misses),
			cmp_fmt(s4, sizeof(s4), p, &p->b, false, b.misses));
	fprintf(f, "\n              (working set %s against %s", units_bytes(w1, sizeof(w1), a.ws_bytes),
		units_bytes(w2, sizeof(w2), b.ws_bytes));
	if (a.size_known && b.size_known)
		fprintf(f, "; it holds %llu against %llu", (unsigned long long)a.size_max,
			(unsigned long long)b.size_max);
	fprintf(f, ")\n");
}

#define CACHE_TERMS	4	/* the costliest first: caches_build's order */

static void story_caches(FILE *f, const struct cmp_pair *p)
{
	int told = 0;

	for (int i = 0; i < p->a.m->ncaches && told < CACHE_TERMS; i++)
		if (!cache_seen(p->a.m, i, &p->a.m->caches[i])) {
			story_cache(f, p, &p->a.m->caches[i]);
			told++;
		}
	for (int i = 0; i < p->b.m->ncaches && told < CACHE_TERMS; i++) {
		const struct cache_entry *c = &p->b.m->caches[i];
		struct cache_sum in_a;

		cache_sum(p->a.m, c, &in_a);
		if (!in_a.procs && !cache_seen(p->b.m, i, c)) {
			story_cache(f, p, c);
			told++;
		}
	}
}

/* Net: the walls, when the work set them; fixed windows set their own
 * length, so the runs' time on CPU per second of window instead. */
static void story_net(FILE *f, const struct cmp_pair *p)
{
	const struct joined_run *a = p->a.m, *b = p->b.m;
	double ca = acct(&p->a, ACCT_CPU_USER) + acct(&p->a, ACCT_CPU_SYS);
	double cb = acct(&p->b, ACCT_CPU_USER) + acct(&p->b, ACCT_CPU_SYS);
	char s1[24], s2[24], s3[24], s4[24];

	if (!p->rates) {
		fprintf(f, "Net: %s takes %s against %s for %s (%+.0f %%).\n", p->a.name,
			units_ns(s1, sizeof(s1), (double)a->wall_ns),
			units_ns(s2, sizeof(s2), (double)b->wall_ns), p->b.name, b->wall_ns ?
			100.0 * ((double)a->wall_ns - (double)b->wall_ns) / (double)b->wall_ns : 0);
		return;
	}
	fprintf(f, "Net: fixed windows (%s and %s: how long each watched, not a result);\n"
		"     %s is on CPU %s a second against %s for %s (%+.0f %%).\n",
		units_ns(s1, sizeof(s1), (double)a->wall_ns), units_ns(s2, sizeof(s2), (double)b->wall_ns),
		p->a.name, units_ns(s3, sizeof(s3), ca), units_ns(s4, sizeof(s4), cb), p->b.name,
		cb > 0 ? 100.0 * (ca - cb) / cb : 0);
}

void compare_story(FILE *f, const struct cmp_pair *p)
{
	double saved = 0;

	fprintf(f, "\n%s against %s, term by term (all threads%s):\n", p->a.name, p->b.name,
		p->rates ? "; per second of each window" : "");
	for (int k = 0; k < (int)(sizeof(kinds) / sizeof(kinds[0])); k++)
		saved += story_calls(f, p, k);
	if (saved == 0)
		fprintf(f, "  syscalls    about the same open, close, stat, pread64 and other calls\n");
	story_user(f, p);
	story_locks(f, p);
	story_caches(f, p);
	story_pagecache(f, p);
	story_net(f, p);
}
