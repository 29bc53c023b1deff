/*
 * compare.c - where two runs at the same settings differ: wall time, the
 * syscalls each made, the time each spent waiting on locks and for CPUs,
 * and one sentence per term that says what the difference bought or cost.
 */
#include <math.h>
#include <stddef.h>
#include <string.h>
#include <sys/syscall.h>
#include <json-c/json.h>
#include "report/compare.h"
#include "report/report.h"
#include "base/termsafe.h"
#include "base/units.h"

/* The terms compared, each read off a model the same way. */
struct term {
	const char *name;
	bool time;		/* a duration, else a count */
	double (*get)(const struct joined_run *m);
};

static double t_wall(const struct joined_run *m) { return (double)m->wall_ns; }
static double t_ops(const struct joined_run *m) { return (double)m->ops; }
static double sc_count(const struct joined_run *m, int nr) { return (double)m->nr_total[nr].count; }
static double t_open(const struct joined_run *m) { return sc_count(m, __NR_openat); }
static double t_close(const struct joined_run *m) { return sc_count(m, __NR_close); }
static double t_stat(const struct joined_run *m) { return sc_count(m, __NR_newfstatat) + sc_count(m, __NR_statx); }
static double t_pread(const struct joined_run *m) { return sc_count(m, __NR_pread64); }
static double t_futex(const struct joined_run *m) { return sc_count(m, __NR_futex) + sc_count(m, __NR_futex_waitv); }
static double t_sys_other(const struct joined_run *m)
{
	double sum = 0;

	for (int nr = 0; nr < FCT_NR_MAX; nr++)
		if (nr != __NR_futex && nr != __NR_futex_waitv)
			sum += (double)m->nr_total[nr].total_ns;
	return sum;
}
static double acct(const struct joined_run *m, enum acct_bucket b) { return (double)m->acct_total_ns[b]; }
static double t_user(const struct joined_run *m) { return acct(m, ACCT_CPU_USER); }
static double t_sys(const struct joined_run *m) { return acct(m, ACCT_CPU_SYS); }
static double t_lock(const struct joined_run *m) { return acct(m, ACCT_LOCK_NAMED); }
static double t_futex_other(const struct joined_run *m) { return acct(m, ACCT_FUTEX_OTHER); }
static double t_blocked(const struct joined_run *m) { return acct(m, ACCT_BLOCKED); }
static double t_runq(const struct joined_run *m) { return acct(m, ACCT_RUNQ); }
static double t_pc_miss(const struct joined_run *m) { return (double)m->pagecache_misses; }

static const struct term terms[] = {
	{ "wall time", true, t_wall },
	{ "operations", false, t_ops },
	{ "openat calls", false, t_open },
	{ "close calls", false, t_close },
	{ "stat calls", false, t_stat },
	{ "pread64 calls", false, t_pread },
	{ "futex calls", false, t_futex },
	{ "time in syscalls (no futex)", true, t_sys_other },
	{ "on CPU, user", true, t_user },
	{ "on CPU, syscalls", true, t_sys },
	{ "waiting on workload locks", true, t_lock },
	{ "other futex waits", true, t_futex_other },
	{ "blocked (I/O, other)", true, t_blocked },
	{ "waiting for a CPU", true, t_runq },
	{ "page-cache misses (pages)", false, t_pc_miss },
};
#define NTERMS (sizeof(terms) / sizeof(terms[0]))

static void fmt(char *buf, size_t n, const struct term *t, double v)
{
	if (t->time)
		units_ns(buf, n, v);
	else
		units_count(buf, n, v);
}

static void print_terms(FILE *f, const struct session *a, const struct session *b)
{
	char va[24], vb[24], d[24];

	fprintf(f, "%-30s %12s %12s %10s\n", "term (all threads)", a->subject,
		b->subject, "a vs b");
	for (size_t i = 0; i < NTERMS; i++) {
		double x = terms[i].get(&a->joined), y = terms[i].get(&b->joined);

		if (i > 1 && (!a->traced || !b->traced))
			break;
		fmt(va, sizeof(va), &terms[i], x);
		fmt(vb, sizeof(vb), &terms[i], y);
		if (y > 0)
			snprintf(d, sizeof(d), "%+.0f %%", 100.0 * (x - y) / y);
		else
			snprintf(d, sizeof(d), x > 0 ? "new" : "-");
		fprintf(f, "%-30s %12s %12s %10s\n", terms[i].name, va, vb, d);
	}
}

/* Mean cost of one call of a kind, from whichever run made it (b first). */
static double call_cost(const struct sc_stats *sa, const struct sc_stats *sb)
{
	if (sb->count)
		return (double)sb->total_ns / (double)sb->count;
	return sa->count ? (double)sa->total_ns / (double)sa->count : 0;
}

/* The syscalls a workload may save or add, each kind with its cost: by
 * number, and the rest (-1: the saved run's "other" row, every number
 * but the named ones, costed as one). */
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
 * their time at the measured cost per call. Returns the time. */
static double story_calls(FILE *f, const struct joined_run *a, const struct joined_run *b,
			  int k, const char *na, const char *nb)
{
	double ca = 0, cb = 0, ns = 0;
	char s1[24], s2[24], s3[24], s4[24];

	for (int i = 0; i < (kinds[k].nr[0] == kinds[k].nr[1] ? 1 : 2); i++) {
		const struct sc_stats *sa = kind_calls(a, kinds[k].nr[i]);
		const struct sc_stats *sb = kind_calls(b, kinds[k].nr[i]);

		ca += (double)sa->count;
		cb += (double)sb->count;
		ns += ((double)sb->count - (double)sa->count) * call_cost(sa, sb);
	}
	/* a few calls either way (racing misses) are not a term */
	if (fabs(cb - ca) <= 0.01 * fmax(ca, cb) && fabs(ns) < 1e6)
		return 0;
	fprintf(f, "  syscalls    %s makes %s %s %s calls than %s (%s against %s):\n"
		"              %s %s at their measured cost\n", na, units_count(s1, sizeof(s1), fabs(cb - ca)),
		cb > ca ? "fewer" : "more", kinds[k].name, nb, units_count(s2, sizeof(s2), ca),
		units_count(s3, sizeof(s3), cb), ns >= 0 ? "saving" : "spending",
		units_ns(s4, sizeof(s4), fabs(ns)));
	return ns;
}

/* Sum of one own-clock field (at offset off) over a run's threads. */
static double rows_sum(const struct joined_run *m, size_t off)
{
	double sum = 0;

	for (unsigned i = 0; i < m->nrows; i++)
		sum += (double)*(const uint64_t *)((const char *)&m->rows[i].own + off);
	return sum;
}
#define ROWS_SUM(m, field) rows_sum(m, offsetof(struct thread_timings, field))

/* Waits on the workload's named locks, as the kernel counted them. */
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
static void story_user(FILE *f, const struct joined_run *a, const struct joined_run *b)
{
	double ua = t_user(a), ub = t_user(b), ha = ROWS_SUM(a, lock_hold_ns);
	double in = ROWS_SUM(a, syscalls_in_lock);
	char s1[24], s2[24], s3[24], s4[24], s5[24];

	fprintf(f, "  user CPU    it %s %s on CPU in user space", ua >= ub ? "adds" : "saves",
		units_ns(s1, sizeof(s1), fabs(ua - ub)));
	if (!a->ops || !b->ops) {	/* programs fctrace did not write: no ops */
		fprintf(f, " (%s against %s)\n", units_ns(s2, sizeof(s2), ua),
			units_ns(s3, sizeof(s3), ub));
		return;
	}
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

static void story_locks(FILE *f, const struct joined_run *a, const struct joined_run *b)
{
	double la = t_lock(a), lb = t_lock(b), wa = named_waits(a);
	double acq = ROWS_SUM(a, lock_acquires), runq = t_runq(a) - t_runq(b);
	char s1[24], s2[24], s3[24], s4[24];

	if (la > 0 || lb > 0) {
		fprintf(f, "  lock wait   it %s %s waiting on its locks (%s against %s)", la >= lb ?
			"pays" : "saves", units_ns(s1, sizeof(s1), fabs(la - lb)),
			units_ns(s2, sizeof(s2), la), units_ns(s3, sizeof(s3), lb));
		if (wa > 0 && acq > 0)
			fprintf(f, ":\n              %s of its %s acquisitions slept, %s each "
				"(hand-off included)", units_count(s1, sizeof(s1), wa),
				units_count(s4, sizeof(s4), acq), units_ns(s2, sizeof(s2), la / wa));
		else if (wa > 0)	/* a program: its own clocks count no acquisitions */
			fprintf(f, ":\n              %s waits slept, %s each (hand-off included)",
				units_count(s1, sizeof(s1), wa), units_ns(s2, sizeof(s2), la / wa));
		fprintf(f, "\n");
	}
	fprintf(f, "  CPUs        it %s %s waiting for a CPU (thread time)\n",
		runq >= 0 ? "pays" : "saves", units_ns(s1, sizeof(s1), fabs(runq)));
}

static void story_pagecache(FILE *f, const struct joined_run *a, const struct joined_run *b)
{
	double ma = (double)a->pagecache_misses, mb = (double)b->pagecache_misses;
	double bl = t_blocked(a) - t_blocked(b);
	char s1[24], s2[24], s3[24], s4[24];

	if (ma == mb && fabs(bl) < 1e6)
		return;
	fprintf(f, "  page cache  it %s %s page-cache misses (%s against %s pages read in)\n"
		"              and %s %s blocked\n", ma <= mb ? "avoids" : "adds",
		units_count(s1, sizeof(s1), fabs(mb - ma)), units_count(s2, sizeof(s2), ma),
		units_count(s3, sizeof(s3), mb), bl <= 0 ? "saves" : "pays",
		units_ns(s4, sizeof(s4), fabs(bl)));
}

/* One rule set for every pair: each term printed where the runs differ,
 * in the terms the kernel measured, whatever the workloads are. */
static void print_story(FILE *f, const struct session *sa, const struct session *sb)
{
	const struct joined_run *a = &sa->joined, *b = &sb->joined;
	const char *na = a->subject, *nb = b->subject;
	double saved = 0;
	char s1[24], s2[24];

	fprintf(f, "\n%s against %s, term by term (all threads):\n", na, nb);
	for (int k = 0; k < (int)(sizeof(kinds) / sizeof(kinds[0])); k++)
		saved += story_calls(f, a, b, k, na, nb);
	if (saved == 0)
		fprintf(f, "  syscalls    about the same open, close, stat, pread64 and other calls\n");
	story_user(f, a, b);
	story_locks(f, a, b);
	story_pagecache(f, a, b);
	fprintf(f, "Net: %s takes %s against %s for %s (%+.0f %%).\n", na,
		units_ns(s1, sizeof(s1), (double)a->wall_ns), units_ns(s2, sizeof(s2), (double)b->wall_ns),
		nb, b->wall_ns ? 100.0 * ((double)a->wall_ns - b->wall_ns) / b->wall_ns : 0);
}

/* Programs fctrace did not write have no settings: each by its command
 * line and window (fctrace diff of two saved runs). */
static void print_programs(FILE *f, const struct session *a, const struct session *b)
{
	char wa[24], wb[24];

	fprintf(f, "\nCompare %s with %s\n  (a: %.36s, window %s, %u thread%s;\n   b: %.36s, "
		"window %s, %u thread%s)\n", a->subject, b->subject, a->target.cmdline,
		units_ns(wa, sizeof(wa), (double)a->joined.wall_ns), a->joined.nrows,
		units_plural(a->joined.nrows), b->target.cmdline,
		units_ns(wb, sizeof(wb), (double)b->joined.wall_ns), b->joined.nrows,
		units_plural(b->joined.nrows));
}

static void print_compare(FILE *f, const struct session *a, const struct session *b)
{
	char d[200];

	report_describe(d, sizeof(d), a);
	if (a->target.mode != TGT_NONE || b->target.mode != TGT_NONE)
		print_programs(f, a, b);
	else
		fprintf(f, "\nCompare %s with %s at the same settings\n  (%s)\n", a->subject,
			b->subject, strchr(d, ',') ? strchr(d, ',') + 2 : d);
	if (a->interrupted || b->interrupted)
		fprintf(f, "INTERRUPTED: partial results, %s was stopped early\n",
			a->interrupted ? a->subject : b->subject);
	print_terms(f, a, b);
	if (a->traced && b->traced)
		print_story(f, a, b);
	else
		fprintf(f, "(timing only: the term-by-term account needs the kernel view)\n");
}

/* Through term_stream: a program's run is named by its comm and argv. */
void compare_print(FILE *out, const struct session *a, const struct session *b)
{
	FILE *f = term_stream(out);

	if (!f) {
		fputs("fctrace: out of memory printing the comparison\n", stderr);
		return;
	}
	print_compare(f, a, b);
	fclose(f);
}

struct json_object *compare_json(const struct session *a, const struct session *b)
{
	struct json_object *o = json_object_new_object(), *t = json_object_new_array();

	json_object_object_add(o, "a", json_object_new_string(a->subject));
	json_object_object_add(o, "b", json_object_new_string(b->subject));
	for (size_t i = 0; i < NTERMS; i++) {
		struct json_object *row = json_object_new_object();

		json_object_object_add(row, "term", json_object_new_string(terms[i].name));
		json_object_object_add(row, "a", json_object_new_double(terms[i].get(&a->joined)));
		json_object_object_add(row, "b", json_object_new_double(terms[i].get(&b->joined)));
		json_object_array_add(t, row);
	}
	json_object_object_add(o, "terms", t);
	return o;
}

struct json_object *compare_document(const struct session *a, const struct session *b)
{
	struct json_object *doc = json_object_new_object(), *runs = json_object_new_array();

	json_object_object_add(doc, "schema_version", json_object_new_int(SCHEMA_VERSION));
	json_object_object_add(doc, "command", json_object_new_string("compare"));
	json_object_object_add(doc, "interrupted",
			       json_object_new_boolean(a->interrupted || b->interrupted));
	json_object_array_add(runs, report_json_run(a));
	json_object_array_add(runs, report_json_run(b));
	json_object_object_add(doc, "runs", runs);
	json_object_object_add(doc, "compare", compare_json(a, b));
	return doc;
}
