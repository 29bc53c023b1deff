/*
 * compare.c - where two runs at the same settings differ: wall time, the
 * syscalls each made, the time each spent waiting on locks and for CPUs,
 * and one sentence per term that says what the difference bought or cost.
 */
#include <math.h>
#include <string.h>
#include <json-c/json.h>
#include "compare.h"
#include "report.h"
#include "units.h"

/* The terms compared, each read off a model the same way. */
struct term {
	const char *name;
	bool time;		/* a duration, else a count */
	double (*get)(const struct run_model *m);
};

static double t_wall(const struct run_model *m) { return (double)m->wall_ns; }
static double t_ops(const struct run_model *m) { return (double)m->ops; }
static double sc_count(const struct run_model *m, enum fct_sc s) { return (double)m->sc_total[s].count; }
static double sc_time(const struct run_model *m, enum fct_sc s) { return (double)m->sc_total[s].total_ns; }
static double t_open(const struct run_model *m) { return sc_count(m, FCT_SC_OPENAT); }
static double t_close(const struct run_model *m) { return sc_count(m, FCT_SC_CLOSE); }
static double t_stat(const struct run_model *m) { return sc_count(m, FCT_SC_NEWFSTATAT) + sc_count(m, FCT_SC_STATX); }
static double t_pread(const struct run_model *m) { return sc_count(m, FCT_SC_PREAD64); }
static double t_futex(const struct run_model *m) { return sc_count(m, FCT_SC_FUTEX); }
static double t_sys_other(const struct run_model *m)
{
	double sum = 0;

	for (int s = 0; s < FCT_SC_N; s++)
		if (s != FCT_SC_FUTEX)
			sum += sc_time(m, s);
	return sum;
}
static double acct(const struct run_model *m, enum acct_bucket b) { return (double)m->acct_total_ns[b]; }
static double t_user(const struct run_model *m) { return acct(m, ACCT_CPU_USER); }
static double t_sys(const struct run_model *m) { return acct(m, ACCT_CPU_SYS); }
static double t_lock(const struct run_model *m) { return acct(m, ACCT_LOCK_NAMED); }
static double t_futex_other(const struct run_model *m) { return acct(m, ACCT_FUTEX_OTHER); }
static double t_blocked(const struct run_model *m) { return acct(m, ACCT_BLOCKED); }
static double t_runq(const struct run_model *m) { return acct(m, ACCT_RUNQ); }
static double t_pc_miss(const struct run_model *m) { return (double)m->pagecache_misses; }

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

	fprintf(f, "%-30s %12s %12s %10s\n", "term (all threads)", a->cfg.workload,
		b->cfg.workload, "a vs b");
	for (size_t i = 0; i < NTERMS; i++) {
		double x = terms[i].get(&a->model), y = terms[i].get(&b->model);

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
static double call_cost(const struct fct_sc_stats *sa, const struct fct_sc_stats *sb)
{
	if (sb->count)
		return (double)sb->total_ns / (double)sb->count;
	return sa->count ? (double)sa->total_ns / (double)sa->count : 0;
}

/* Calls b made beyond a's (negative: a made more), and what they cost. */
static double extra_calls(const struct run_model *a, const struct run_model *b,
			  enum fct_sc kind, double *ns)
{
	const struct fct_sc_stats *sa = &a->sc_total[kind], *sb = &b->sc_total[kind];
	double calls = (double)sb->count - (double)sa->count;

	*ns += calls * call_cost(sa, sb);
	return calls;
}

static void print_story(FILE *f, const struct session *sa, const struct session *sb)
{
	const struct run_model *a = &sa->model, *b = &sb->model;
	const char *na = a->res->cfg.workload, *nb = b->res->cfg.workload;
	double ns = 0, oc = extra_calls(a, b, FCT_SC_OPENAT, &ns) + extra_calls(a, b, FCT_SC_CLOSE, &ns);
	double st = extra_calls(a, b, FCT_SC_NEWFSTATAT, &ns) + extra_calls(a, b, FCT_SC_STATX, &ns);
	double lock = t_lock(a) - t_lock(b), runq = t_runq(a) - t_runq(b);
	char s1[24], s2[24], s3[24], s4[24], s5[24];

	fprintf(f, "\n%s makes %s %s open+close calls and %s %s stat calls than %s:\n",
		na, units_count(s1, sizeof(s1), fabs(oc)), oc >= 0 ? "fewer" : "more",
		units_count(s2, sizeof(s2), fabs(st)), st >= 0 ? "fewer" : "more", nb);
	fprintf(f, "%s %s of syscall time at their measured cost;\n",
		ns >= 0 ? "it saves" : "it spends", units_ns(s3, sizeof(s3), fabs(ns)));
	fprintf(f, "it %s %s waiting on its locks and %s %s waiting for a CPU (thread time).\n",
		lock >= 0 ? "pays" : "saves", units_ns(s4, sizeof(s4), fabs(lock)),
		runq >= 0 ? "pays" : "saves", units_ns(s5, sizeof(s5), fabs(runq)));
	fprintf(f, "Net: %s takes %s against %s for %s (%+.0f %%).\n", na,
		units_ns(s1, sizeof(s1), (double)a->wall_ns), units_ns(s2, sizeof(s2), (double)b->wall_ns),
		nb, b->wall_ns ? 100.0 * ((double)a->wall_ns - b->wall_ns) / b->wall_ns : 0);
}

void compare_print(FILE *f, const struct session *a, const struct session *b)
{
	char d[200];

	report_describe(d, sizeof(d), &a->cfg);
	fprintf(f, "\nCompare %s with %s at the same settings\n  (%s)\n", a->cfg.workload,
		b->cfg.workload, strchr(d, ',') ? strchr(d, ',') + 2 : d);
	if (a->res.interrupted || b->res.interrupted)
		fprintf(f, "INTERRUPTED: partial results, %s was stopped early\n",
			a->res.interrupted ? a->cfg.workload : b->cfg.workload);
	print_terms(f, a, b);
	if (a->traced && b->traced)
		print_story(f, a, b);
	else
		fprintf(f, "(timing only: the term-by-term account needs the kernel view)\n");
}

struct json_object *compare_json(const struct session *a, const struct session *b)
{
	struct json_object *o = json_object_new_object(), *t = json_object_new_array();

	json_object_object_add(o, "a", json_object_new_string(a->cfg.workload));
	json_object_object_add(o, "b", json_object_new_string(b->cfg.workload));
	for (size_t i = 0; i < NTERMS; i++) {
		struct json_object *row = json_object_new_object();

		json_object_object_add(row, "term", json_object_new_string(terms[i].name));
		json_object_object_add(row, "a", json_object_new_double(terms[i].get(&a->model)));
		json_object_object_add(row, "b", json_object_new_double(terms[i].get(&b->model)));
		json_object_array_add(t, row);
	}
	json_object_object_add(o, "terms", t);
	return o;
}

struct json_object *compare_document(const struct session *a, const struct session *b)
{
	struct json_object *doc = json_object_new_object(), *runs = json_object_new_array();

	json_object_object_add(doc, "schema_version", json_object_new_int(1));
	json_object_object_add(doc, "command", json_object_new_string("compare"));
	json_object_object_add(doc, "interrupted",
			       json_object_new_boolean(a->res.interrupted || b->res.interrupted));
	json_object_array_add(runs, report_json_run(a));
	json_object_array_add(runs, report_json_run(b));
	json_object_object_add(doc, "runs", runs);
	json_object_object_add(doc, "compare", compare_json(a, b));
	return doc;
}
