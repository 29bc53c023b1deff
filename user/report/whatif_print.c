/*
 * whatif_print.c - the fitted model in words and in JSON: what one op
 * costs alone, what contention cost in the run, and what-ifs that the
 * user can check by running them (the same settings with one changed),
 * as explain/whatif.c answered them when it fitted the run.
 */
#include <json-c/json.h>
#include <math.h>
#include "base/units.h"
#include "report/whatif_print.h"

static void case_label(char *buf, size_t n, const struct whatif_params *p,
		       const struct whatif_case *w)
{
	const struct whatif_cell *c = &w->cell;

	if (c->pool != p->pool)
		snprintf(buf, n, "a pool of %u, one channel per file", c->pool);
	else if (c->kind != p->kind)
		snprintf(buf, n, "%s", whatif_kind_name(c->kind));
	else if (c->threads != p->threads)
		snprintf(buf, n, "%u thread%s", c->threads, c->threads == 1 ? "" : "s");
	else
		snprintf(buf, n, "%u CPU%s", c->ncpus, c->ncpus == 1 ? "" : "s");
}

/* The calibration's figures: what one thread and fc cells are costed at. */
static void print_solo(FILE *f, const struct whatif_params *p)
{
	char h[24], m[24], c[24];

	if (!(p->have & WHATIF_HAVE_SOLO)) {
		fputs("One thread alone was not measured: one-thread cells and fc are costed as "
		      "the ops above.\n", f);
		return;
	}
	fprintf(f, "One thread alone (short runs just before this one, probes attached): a hit %s, a "
		"miss "
		"%s, an fc op %s; one-thread cells and fc are costed so.\n",
		units_ns(h, sizeof(h), p->solo_hit_ns), units_ns(m, sizeof(m), p->solo_miss_ns),
		units_ns(c, sizeof(c), p->solo_fc_ns));
}

static void print_costs(FILE *f, const struct whatif_params *p)
{
	char h[24], m[24], s[24], o[24], c[24];

	fprintf(f, "Model (whatif.c), fitted to this run: an op that did not wait cost %s when "
		"its get hit", units_ns(h, sizeof(h), p->hit_ns));
	if (p->miss_ns > 0)
		fprintf(f, " and %s when it missed%s", units_ns(m, sizeof(m), p->miss_ns),
			p->have & WHATIF_HAVE_MISS ? "" : " (no misses timed: a hit plus stat, "
			"open and close)");
	else
		fputs(" (no misses, and no syscall times to cost one: settings that miss are not "
		      "predicted)", f);
	if (p->have & WHATIF_HAVE_SYSCALLS)
		fprintf(f, "; stat %s, open %s, close %s with their way in and out",
			units_ns(s, sizeof(s), p->stat_ns), units_ns(o, sizeof(o), p->open_ns),
			units_ns(c, sizeof(c), p->close_ns));
	fputs(".\n", f);
	print_solo(f, p);
}

static void print_contention(FILE *f, const struct whatif_params *p)
{
	char w[24], hh[24], hm[24], hp[24];

	if (!(p->have & WHATIF_HAVE_CONTENTION)) {
		fprintf(f, "Contention: not measured (%s). The what-ifs leave futex waits out and "
			"take a lock held across syscalls to stand idle whenever its holder is "
			"outside it (the worst case).\n", p->threads < 2 ? "one thread" :
			p->ncpus < 2 ? "one CPU" : "needs the scheduler probes");
		return;
	}
	fprintf(f, "Contention, as measured: the lock was held %s by a get that hit, %s by one "
		"that missed and %s by a put; each futex wait on it cost %s of CPU (%.3f waits per "
		"op)", units_ns(hh, sizeof(hh), p->hold_hit_ns), units_ns(hm, sizeof(hm), p->hold_miss_ns),
		units_ns(hp, sizeof(hp), p->hold_put_ns), units_ns(w, sizeof(w), p->wait_cpu_ns),
		p->waits_per_op);
	if (p->have & WHATIF_HAVE_IDLE)
		fprintf(f, ", and the lock stood idle %.0f %% of the time its holder spent "
			"outside it while the waiters slept", 100 * p->idle_share);
	else
		fputs(" (no hold across syscalls here, so no convoy to measure: a what-if with "
		      "one takes the worst, the lock idle whenever its holder is outside it)", f);
	fputs(". The last figures are solved so that the model gives back this run's CPU "
	      "time, waits and wall per op.\n", f);
}

static void print_cases(FILE *f, const struct whatif_params *p)
{
	const struct whatif_answers *a = &p->answers;
	char label[64], t[24];

	fprintf(f, "What if, %s ops per thread as here (each can be checked with "
		"`fctrace run` at those settings):\n", units_count(t, sizeof(t), p->ops_per_thread));
	for (int i = 0; i < a->ncases; i++) {
		case_label(label, sizeof(label), p, &a->cases[i]);
		fprintf(f, "  - %s: ~%s\n", label, units_ns(t, sizeof(t), a->cases[i].wall_ns));
	}
}

static void print_crossover(FILE *f, const struct whatif_params *p)
{
	int here = p->answers.crossover_files, one = p->answers.crossover_files_one_cpu;

	if (!(p->have & WHATIF_HAVE_SYSCALLS)) {
		fputs("Crossover with fc: not estimated (needs the kernel's open and close times).\n", f);
		return;
	}
	fprintf(f, "fc overtakes fcp (pool %u, %u thread%s): ", p->pool, p->threads,
		p->threads == 1 ? "" : "s");
	if (here > 0)
		fprintf(f, "at %d file%s on %u CPU%s", here, units_plural(here), p->ncpus,
			units_plural(p->ncpus));
	else
		fprintf(f, "at no file count up to %d on %u CPU%s", WHATIF_MAX_FILES, p->ncpus,
			p->ncpus == 1 ? "" : "s");
	if (p->ncpus != 1)
		one > 0 ? fprintf(f, ", at %d on 1 CPU", one) : fprintf(f, ", never on 1 CPU");
	fputs(".\n", f);
}

void whatif_print(FILE *f, const struct whatif_params *p)
{
	print_costs(f, p);
	print_contention(f, p);
	print_cases(f, p);
	print_crossover(f, p);
}

static void put_double(struct json_object *o, const char *k, double v)
{
	json_object_object_add(o, k, json_object_new_double(v));
}

static struct json_object *cell_json(const char *what, const struct whatif_cell *c,
				     double wall_ns)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "what", json_object_new_string(what));
	json_object_object_add(o, "workload", json_object_new_string(whatif_kind_name(c->kind)));
	json_object_object_add(o, "pool", json_object_new_int64(c->pool));
	json_object_object_add(o, "files", json_object_new_int64(c->files));
	json_object_object_add(o, "threads", json_object_new_int64(c->threads));
	json_object_object_add(o, "ncpus", json_object_new_int64(c->ncpus));
	put_double(o, "wall_ns", wall_ns);
	return o;
}

static struct json_object *crossover_json(int n)
{
	return n > 0 ? json_object_new_int64(n) : NULL;
}

struct json_object *whatif_json(const struct whatif_params *p)
{
	struct json_object *o = json_object_new_object(), *cases = json_object_new_array();
	const struct whatif_answers *a = &p->answers;
	struct whatif_cell self = whatif_fitted_cell(p);

	put_double(o, "hit_ns", p->hit_ns);
	put_double(o, "miss_ns", p->miss_ns);
	put_double(o, "syscall_entry_ns", p->entry_ns);
	put_double(o, "open_ns", p->open_ns);
	put_double(o, "close_ns", p->close_ns);
	put_double(o, "stat_ns", p->stat_ns);
	put_double(o, "hold_hit_ns", p->hold_hit_ns);
	put_double(o, "hold_miss_ns", p->hold_miss_ns);
	put_double(o, "hold_put_ns", p->hold_put_ns);
	put_double(o, "wait_cpu_ns", p->wait_cpu_ns);
	put_double(o, "wait_rate", p->wait_rate);
	put_double(o, "idle_share", p->idle_share);
	put_double(o, "solo_hit_ns", p->solo_hit_ns);
	put_double(o, "solo_miss_ns", p->solo_miss_ns);
	put_double(o, "solo_fc_ns", p->solo_fc_ns);
	json_object_object_add(o, "contention_measured",
			       json_object_new_boolean(p->have & WHATIF_HAVE_CONTENTION));
	json_object_object_add(o, "fitted", cell_json("this_run", &self, a->fitted_wall_ns));
	for (int i = 0; i < a->ncases; i++)
		json_object_array_add(cases, cell_json(a->cases[i].what, &a->cases[i].cell,
						       a->cases[i].wall_ns));
	json_object_object_add(o, "what_if", cases);
	json_object_object_add(o, "crossover_files", crossover_json(a->crossover_files));
	json_object_object_add(o, "crossover_files_one_cpu",
			       crossover_json(a->crossover_files_one_cpu));
	return o;
}
