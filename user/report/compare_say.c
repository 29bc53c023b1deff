/*
 * compare_say.c - the term-by-term account in words: one sentence for each
 * line cmp_story_of made (compare_story.c), then Net. It computes nothing
 * but the differences it says.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "report/compare_int.h"
#include "base/units.h"

#define F(l, key)	cmp_get(l, key)

/* A figure as compared, already per second in rates: "41.2 k", "4.12 k/s". */
static char *as_compared(char *buf, size_t n, const struct cmp_pair *p, bool time, double v)
{
	char num[20];

	if (time)
		units_ns(num, sizeof(num), v);
	else
		units_count(num, sizeof(num), v);
	snprintf(buf, n, "%s%s", num, p->rates ? "/s" : "");
	return buf;
}

static const char *a_second(const struct cmp_pair *p)
{
	return p->rates ? " a second" : "";
}

static void say_calls(FILE *f, const struct cmp_pair *p, const struct cmp_line *l)
{
	double ca = F(l, "calls_a"), cb = F(l, "calls_b"), ns = F(l, "ns_b") - F(l, "ns_a");
	char s1[24], s2[24], s3[24], s4[24], s5[24], s6[24];

	fprintf(f, "  syscalls    %s makes %s %s %s calls%s than %s (%s against %s):\n"
		"              %s %s%s (their time in them: %s against %s)\n", p->a.name,
		units_count(s1, sizeof(s1), fabs(cb - ca)), cb > ca ? "fewer" : "more", l->what,
		a_second(p), p->b.name, as_compared(s2, sizeof(s2), p, false, ca),
		as_compared(s3, sizeof(s3), p, false, cb), ns >= 0 ? "saving" : "spending",
		units_ns(s4, sizeof(s4), fabs(ns)), a_second(p),
		as_compared(s5, sizeof(s5), p, true, F(l, "ns_a")),
		as_compared(s6, sizeof(s6), p, true, F(l, "ns_b")));
}

static void say_user(FILE *f, const struct cmp_pair *p, const struct cmp_line *l)
{
	double ua = F(l, "ns_a"), ub = F(l, "ns_b");
	char s1[24], s2[24], s3[24], s4[24], s5[24];

	fprintf(f, "  user CPU    it %s %s%s on CPU in user space", ua >= ub ? "adds" : "saves",
		units_ns(s1, sizeof(s1), fabs(ua - ub)), a_second(p));
	if (isnan(F(l, "per_op_ns_a"))) {	/* programs fctrace did not write: no ops */
		fprintf(f, " (%s against %s)\n", as_compared(s2, sizeof(s2), p, true, ua),
			as_compared(s3, sizeof(s3), p, true, ub));
		return;
	}
	fprintf(f, " (%s per op against %s)", units_ns(s2, sizeof(s2), F(l, "per_op_ns_a")),
		units_ns(s3, sizeof(s3), F(l, "per_op_ns_b")));
	if (!isnan(F(l, "rest_per_op_ns_a")))
		fprintf(f, ";\n              of its %s, %s per op holding its locks (lookup and "
			"bookkeeping,\n              own clocks) and %s per op the rest (copying "
			"out, the loop)", units_ns(s4, sizeof(s4), F(l, "total_ns_a")),
			units_ns(s5, sizeof(s5), F(l, "held_per_op_ns_a")),
			units_ns(s1, sizeof(s1), F(l, "rest_per_op_ns_a")));
	else if (!isnan(F(l, "sc_in_lock_per_op_a")))
		fprintf(f, ";\n              it holds its locks %s per op (own clocks), with %.2f "
			"syscalls per op inside them",
			units_ns(s4, sizeof(s4), F(l, "held_per_op_ns_a")),
			F(l, "sc_in_lock_per_op_a"));
	fprintf(f, "\n");
}

static void say_locks(FILE *f, const struct cmp_pair *p, const struct cmp_line *l)
{
	double la = F(l, "ns_a"), lb = F(l, "ns_b"), wa = F(l, "waits_a");
	char s1[24], s2[24], s3[24], s4[24];

	fprintf(f, "  lock wait   it %s %s%s waiting on its locks (%s against %s)",
		la >= lb ? "pays" : "saves", units_ns(s1, sizeof(s1), fabs(la - lb)), a_second(p),
		as_compared(s2, sizeof(s2), p, true, la), as_compared(s3, sizeof(s3), p, true, lb));
	if (!isnan(F(l, "acquisitions_a")))
		fprintf(f, ":\n              %s of its %s acquisitions slept, %s each "
			"(hand-off included)", units_count(s1, sizeof(s1), wa),
			units_count(s4, sizeof(s4), F(l, "acquisitions_a")),
			units_ns(s2, sizeof(s2), F(l, "wait_mean_ns_a")));
	else if (!isnan(wa))	/* a program: its own clocks count no acquisitions */
		fprintf(f, ":\n              %s waits slept, %s each (hand-off included)",
			as_compared(s1, sizeof(s1), p, false, wa),
			units_ns(s2, sizeof(s2), F(l, "wait_mean_ns_a")));
	fprintf(f, "\n");
}

static void say_cpus(FILE *f, const struct cmp_pair *p, const struct cmp_line *l)
{
	double runq = F(l, "runq_ns_a") - F(l, "runq_ns_b");
	char s1[24];

	fprintf(f, "  CPUs        it %s %s%s waiting for a CPU (thread time)\n",
		runq >= 0 ? "pays" : "saves", units_ns(s1, sizeof(s1), fabs(runq)), a_second(p));
}

static void say_pagecache(FILE *f, const struct cmp_pair *p, const struct cmp_line *l)
{
	double ma = F(l, "misses_a"), mb = F(l, "misses_b");
	double bl = F(l, "blocked_ns_a") - F(l, "blocked_ns_b");
	char s1[24], s2[24], s3[24], s4[24];

	fprintf(f, "  page cache  it %s %s page-cache misses%s (%s against %s pages read in)\n"
		"              and %s %s%s blocked\n", ma <= mb ? "avoids" : "adds",
		units_count(s1, sizeof(s1), fabs(mb - ma)), a_second(p),
		as_compared(s2, sizeof(s2), p, false, ma), as_compared(s3, sizeof(s3), p, false, mb),
		bl <= 0 ? "saves" : "pays", units_ns(s4, sizeof(s4), fabs(bl)), a_second(p));
}

/* A cache in one run only: the other measured none of it, or nothing. */
static void say_cache_once(FILE *f, const struct cmp_pair *p, const struct cmp_line *l)
{
	const struct cmp_side *in = l->only_in[0] == 'a' ? &p->a : &p->b;
	const struct cmp_side *none = in == &p->a ? &p->b : &p->a;

	fprintf(f, "in %s only: ", in->name);
	if (!F(l, "other_measured"))
		fprintf(f, "not measured in %s\n", none->name);
	else
		fprintf(f, "%s %s\n", none->name, l->cache_kind == CACHE_HANDLES ?
			"opened no file twice" : l->cache_kind == CACHE_BLOCKS ?
			"read no block twice" : l->cache_kind == CACHE_CONNS ?
			"made few new connections to any one peer" :
			"re-read no page reclaim had removed");
}

static void say_cache(FILE *f, const struct cmp_pair *p, const struct cmp_line *l)
{
	char s1[24], s2[24], s3[24], s4[24], w1[16], w2[16];

	fprintf(f, "  caches      %s: ", l->what);
	if (l->only_in[0]) {
		say_cache_once(f, p, l);
		return;
	}
	if (l->cache_kind == CACHE_CONNS) {
		fprintf(f, "new connections %s against %s (at most %.0f against %.0f open at "
			"once)\n", as_compared(s1, sizeof(s1), p, false, F(l, "new_a")),
			as_compared(s2, sizeof(s2), p, false, F(l, "new_b")), F(l, "at_once_a"),
			F(l, "at_once_b"));
		return;
	}
	if (l->cache_kind == CACHE_HANDLES)
		fprintf(f, "hit %s against %s; misses %s against %s",
			units_pct(s1, sizeof(s1), F(l, "hit_ratio_a")),
			units_pct(s2, sizeof(s2), F(l, "hit_ratio_b")),
			as_compared(s3, sizeof(s3), p, false, F(l, "misses_a")),
			as_compared(s4, sizeof(s4), p, false, F(l, "misses_b")));
	else
		fprintf(f, "re-reads %s against %s of %s against %s reads",
			as_compared(s1, sizeof(s1), p, false, F(l, "rereads_a")),
			as_compared(s2, sizeof(s2), p, false, F(l, "rereads_b")),
			as_compared(s3, sizeof(s3), p, false, F(l, "reads_a")),
			as_compared(s4, sizeof(s4), p, false, F(l, "reads_b")));
	fprintf(f, "\n              (working set %s against %s",
		units_bytes(w1, sizeof(w1), F(l, "working_set_bytes_a")),
		units_bytes(w2, sizeof(w2), F(l, "working_set_bytes_b")));
	if (!isnan(F(l, "size_items_a")))
		fprintf(f, "; it holds %.0f against %.0f", F(l, "size_items_a"), F(l, "size_items_b"));
	fprintf(f, ")\n");
}

static double pct_of(double a, double b)
{
	return b > 0 ? 100.0 * (a - b) / b : 0;
}

static void say_net(FILE *f, const struct cmp_pair *p, const struct cmp_line *l)
{
	double wa = F(l, "wall_ns_a"), wb = F(l, "wall_ns_b");
	double ca = F(l, "cpu_ns_a"), cb = F(l, "cpu_ns_b");
	char s1[24], s2[24], s3[24], s4[24];

	if (!p->rates) {
		fprintf(f, "Net: %s takes %s against %s for %s (%+.0f %%).\n", p->a.name,
			units_ns(s1, sizeof(s1), wa), units_ns(s2, sizeof(s2), wb), p->b.name,
			pct_of(wa, wb));
		return;
	}
	fprintf(f, "Net: fixed windows (%s and %s: how long each watched, not a result);\n"
		"     %s is on CPU %s a second against %s for %s (%+.0f %%).\n",
		units_ns(s1, sizeof(s1), wa), units_ns(s2, sizeof(s2), wb), p->a.name,
		units_ns(s3, sizeof(s3), ca), units_ns(s4, sizeof(s4), cb), p->b.name,
		pct_of(ca, cb));
}

static const struct {
	const char *term;
	void (*say)(FILE *f, const struct cmp_pair *p, const struct cmp_line *l);
} sayers[] = {
	{ "syscalls", say_calls }, { "user_cpu", say_user }, { "lock_wait", say_locks },
	{ "cpus", say_cpus }, { "cache", say_cache }, { "page_cache", say_pagecache },
	{ "net", say_net },
};

void compare_story(FILE *f, const struct cmp_pair *p, const struct cmp_story *s)
{
	fprintf(f, "\n%s against %s, term by term (all threads%s):\n", p->a.name, p->b.name,
		p->rates ? "; per second of each window" : "");
	for (int i = 0; i < s->n; i++) {
		const struct cmp_line *l = &s->line[i];

		if (!strcmp(l->term, "syscalls_same"))
			fprintf(f, "  syscalls    about the same open, close, stat, pread64 and "
				"other calls\n");
		for (size_t k = 0; k < sizeof(sayers) / sizeof(*sayers); k++)
			if (!strcmp(l->term, sayers[k].term))
				sayers[k].say(f, p, l);
	}
}
