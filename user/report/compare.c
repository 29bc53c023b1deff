/*
 * compare.c - where two runs differ: wall time, the syscalls each made,
 * the time each spent waiting on locks and for CPUs, term by term; what
 * each difference bought or cost is compare_story.c's figures, said by
 * compare_say.c. Two runs of one subject are named by the time each
 * began; two fixed windows (attach) compare per second of window.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <json-c/json.h>
#include "report/compare.h"
#include "report/compare_int.h"
#include "report/report.h"
#include "base/termsafe.h"
#include "base/units.h"
#include "base/sysnames.h"

static double t_wall(const struct joined_run *m) { return (double)m->wall_ns; }
static double t_ops(const struct joined_run *m) { return (double)m->ops; }
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

/* The account's terms, after the calls (only with the kernel view in
 * both runs: build_terms). */
static const struct cmp_term account_terms[] = {
	{ "time in syscalls (no futex)", true, -1, t_sys_other },
	{ "on CPU, user", true, -1, t_user },
	{ "on CPU, syscalls", true, -1, t_sys },
	{ "waiting on locks", true, -1, t_lock },
	{ "other futex waits", true, -1, t_futex_other },
	{ "blocked (I/O, other)", true, -1, t_blocked },
	{ "waiting for a CPU", true, -1, t_runq },
	{ "page-cache misses (pages)", false, -1, t_pc_miss },
};

static void add_term(struct cmp_pair *p, const struct cmp_term *t)
{
	if (p->nterms < CMP_TERMS_MAX)
		p->term[p->nterms++] = *t;
}

/* A run's calls of number nr, as compared (per second in rates). */
static double calls_of(const struct cmp_side *x, int nr)
{
	return (double)x->m->nr_total[nr].count * x->per;
}

/* The calls the two runs made most, together: what they measured, not a
 * list made for one subject (a server's recvfrom, a benchmark's openat). */
static void add_syscall_terms(struct cmp_pair *p)
{
	bool taken[FCT_NR_MAX] = { false };
	char nm[32];

	for (int k = 0; k < CMP_SYSCALL_TERMS; k++) {
		int best = -1;

		for (int nr = 0; nr < FCT_NR_MAX; nr++)
			if (!taken[nr] && calls_of(&p->a, nr) + calls_of(&p->b, nr) > 0 &&
			    (best < 0 || calls_of(&p->a, nr) + calls_of(&p->b, nr) >
					 calls_of(&p->a, best) + calls_of(&p->b, best)))
				best = nr;
		if (best < 0)
			return;
		taken[best] = true;
		struct cmp_term t = { .time = false, .nr = best };
		snprintf(t.name, sizeof(t.name), "%s calls", syscall_name((unsigned)best, nm,
									 sizeof(nm)));
		add_term(p, &t);
	}
}

/* The terms the pair compares: the wall (or window), the operations when
 * a run counted any, the calls both made most, then the account. */
static void build_terms(struct cmp_pair *p)
{
	static const struct cmp_term wall = { "wall time", true, -1, t_wall };
	static const struct cmp_term ops = { "operations", false, -1, t_ops };

	p->nterms = 0;
	add_term(p, &wall);
	if (p->a.m->ops || p->b.m->ops)
		add_term(p, &ops);
	if (!p->a.s->traced || !p->b.s->traced)
		return;
	add_syscall_terms(p);
	for (size_t i = 0; i < sizeof(account_terms) / sizeof(account_terms[0]); i++)
		add_term(p, &account_terms[i]);
}

/* Term t of side x, as a total. */
static double term_get(const struct cmp_term *t, const struct cmp_side *x)
{
	return t->nr >= 0 ? (double)x->m->nr_total[t->nr].count : t->get(x->m);
}

/* The window ends when fctrace stops watching, not when the work is
 * done: attach, or a program still running when fctrace stopped. */
static bool fixed_window(const struct session *s)
{
	const struct target_info *t = &s->target;

	return t->mode == TGT_ATTACH ||
	       (t->mode == TGT_EXEC && !t->exited && !t->term_signal);
}

/* "nginx 14:02:11" (the day too when the runs' days differ): the time
 * the window opened, by the clock of the machine that reads the files. */
static void name_by_time(struct cmp_side *x, bool day)
{
	time_t t = (time_t)(x->s->started_unix_ns / 1000000000ull);
	const char *subject = x->s->subject ? x->s->subject : "?";
	struct tm tm;
	char when[32];

	if (!localtime_r(&t, &tm) ||
	    !strftime(when, sizeof(when), day ? "%Y-%m-%d %H:%M:%S" : "%H:%M:%S", &tm))
		snprintf(when, sizeof(when), "?");
	snprintf(x->name, sizeof(x->name), "%.24s %s", subject, when);
}

static bool same_day(const struct session *a, const struct session *b)
{
	time_t ta = (time_t)(a->started_unix_ns / 1000000000ull);
	time_t tb = (time_t)(b->started_unix_ns / 1000000000ull);
	struct tm x, y;

	return localtime_r(&ta, &x) && localtime_r(&tb, &y) && x.tm_year == y.tm_year &&
	       x.tm_yday == y.tm_yday;
}

/* Two subjects go by their names; two runs of one subject by when each
 * began, or as a and b in files saved before that was kept. */
static void name_pair(struct cmp_pair *p)
{
	const struct session *a = p->a.s, *b = p->b.s;

	snprintf(p->a.name, sizeof(p->a.name), "%s", a->subject ? a->subject : "?");
	snprintf(p->b.name, sizeof(p->b.name), "%s", b->subject ? b->subject : "?");
	if (strcmp(p->a.name, p->b.name))
		return;
	if (a->started_unix_ns && b->started_unix_ns) {
		name_by_time(&p->a, !same_day(a, b));
		name_by_time(&p->b, !same_day(a, b));
	} else {
		snprintf(p->a.name, sizeof(p->a.name), "%.40s (a)", a->subject ? a->subject : "?");
		snprintf(p->b.name, sizeof(p->b.name), "%.40s (b)", b->subject ? b->subject : "?");
	}
}

static double per_second(const struct session *s)
{
	return s->joined.wall_ns ? 1e9 / (double)s->joined.wall_ns : 0;
}

void cmp_pair_of(struct cmp_pair *p, const struct session *a, const struct session *b)
{
	memset(p, 0, sizeof(*p));
	p->a.s = a;
	p->b.s = b;
	p->a.m = &a->joined;
	p->b.m = &b->joined;
	p->rates = fixed_window(a) || fixed_window(b);
	p->a.per = p->rates ? per_second(a) : 1;
	p->b.per = p->rates ? per_second(b) : 1;
	name_pair(p);
	build_terms(p);
}

char *cmp_fmt(char *buf, size_t n, const struct cmp_pair *p, const struct cmp_side *x,
	      bool time, double v)
{
	char num[24];

	if (!p->rates)
		return time ? units_ns(buf, n, v) : units_count(buf, n, v);
	if (time)
		units_ns(num, sizeof(num), v * x->per);
	else
		units_count(num, sizeof(num), v * x->per);
	snprintf(buf, n, "%s/s", num);
	return buf;
}

/* Term i as compared: the window itself stays a length (it is what the
 * rates are of); the rest per second of it in rates. */
static const char *term_name(const struct cmp_pair *p, int i, char *buf, size_t n)
{
	if (!p->rates)
		return p->term[i].name;
	if (i == 0)
		return "window (fixed)";
	snprintf(buf, n, "%s /s", p->term[i].name);
	return buf;
}

static double term_value(const struct cmp_pair *p, int i, const struct cmp_side *x)
{
	double v = term_get(&p->term[i], x);

	return p->rates && i > 0 ? v * x->per : v;
}

static void print_terms(FILE *f, const struct cmp_pair *p)
{
	char va[24], vb[24], d[24], name[48];

	fprintf(f, "%-30s %14s %14s %10s\n", "term (all threads)", p->a.name, p->b.name,
		"a vs b");
	for (int i = 0; i < p->nterms; i++) {
		const struct cmp_term *t = &p->term[i];
		double x = term_get(t, &p->a), y = term_get(t, &p->b);

		cmp_fmt(va, sizeof(va), p, &p->a, t->time, x);
		cmp_fmt(vb, sizeof(vb), p, &p->b, t->time, y);
		if (p->rates && i == 0) {	/* a window's length is no result */
			units_ns(va, sizeof(va), x);
			units_ns(vb, sizeof(vb), y);
		}
		x = term_value(p, i, &p->a);
		y = term_value(p, i, &p->b);
		if (p->rates && i == 0)
			snprintf(d, sizeof(d), "-");
		else if (y > 0)
			snprintf(d, sizeof(d), "%+.0f %%", 100.0 * (x - y) / y);
		else
			snprintf(d, sizeof(d), x > 0 ? "new" : "-");
		fprintf(f, "%-30s %14s %14s %10s\n", term_name(p, i, name, sizeof(name)), va, vb, d);
	}
}

/* Programs fctrace did not write have no settings: each by its command
 * line and window (fctrace diff of two saved runs). */
static void print_programs(FILE *f, const struct cmp_pair *p)
{
	const struct session *a = p->a.s, *b = p->b.s;
	char wa[24], wb[24];

	fprintf(f, "\nCompare %s with %s\n  (a: %.36s, window %s%s, %u thread%s;\n   b: %.36s, "
		"window %s%s, %u thread%s)\n", p->a.name, p->b.name, a->target.cmdline,
		units_ns(wa, sizeof(wa), (double)a->joined.wall_ns),
		fixed_window(a) ? " fixed" : "", a->joined.nrows,
		units_plural(a->joined.nrows), b->target.cmdline,
		units_ns(wb, sizeof(wb), (double)b->joined.wall_ns),
		fixed_window(b) ? " fixed" : "", b->joined.nrows, units_plural(b->joined.nrows));
}

static void print_compare(FILE *f, const struct session *a, const struct session *b)
{
	struct cmp_pair p;
	char d[200];

	cmp_pair_of(&p, a, b);
	report_describe(d, sizeof(d), a);
	if (a->target.mode != TGT_NONE || b->target.mode != TGT_NONE)
		print_programs(f, &p);
	else
		fprintf(f, "\nCompare %s with %s at the same settings\n  (%s)\n", p.a.name,
			p.b.name, strchr(d, ',') ? strchr(d, ',') + 2 : d);
	if (a->interrupted || b->interrupted)
		fprintf(f, "INTERRUPTED: partial results, %s was stopped early\n",
			a->interrupted ? p.a.name : p.b.name);
	print_terms(f, &p);
	if (a->traced && b->traced) {
		struct cmp_story st;

		cmp_story_of(&p, &st);
		compare_story(f, &p, &st);
	}
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

/* The terms as the text compares them: in rates, per second of each
 * window (the window itself in ns). */
struct json_object *compare_json(const struct session *a, const struct session *b)
{
	struct json_object *o = json_object_new_object(), *t = json_object_new_array();
	struct cmp_pair p;
	char name[48];

	cmp_pair_of(&p, a, b);
	json_object_object_add(o, "a", json_object_new_string(a->subject));
	json_object_object_add(o, "b", json_object_new_string(b->subject));
	json_object_object_add(o, "a_name", json_object_new_string(p.a.name));
	json_object_object_add(o, "b_name", json_object_new_string(p.b.name));
	json_object_object_add(o, "per_second", json_object_new_boolean(p.rates));
	for (int i = 0; i < p.nterms; i++) {
		struct json_object *row = json_object_new_object();

		json_object_object_add(row, "term",
				       json_object_new_string(term_name(&p, i, name, sizeof(name))));
		json_object_object_add(row, "a", json_object_new_double(term_value(&p, i, &p.a)));
		json_object_object_add(row, "b", json_object_new_double(term_value(&p, i, &p.b)));
		json_object_array_add(t, row);
	}
	json_object_object_add(o, "terms", t);
	/* the term-by-term account the text tells, as figures */
	if (a->traced && b->traced) {
		struct cmp_story st;

		cmp_story_of(&p, &st);
		json_object_object_add(o, "story", cmp_story_json(&st));
	}
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
