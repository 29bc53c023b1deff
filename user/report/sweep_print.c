/*
 * sweep_print.c - a sweep as a table (ms per thread count, one row per
 * workload x file set), the findings across the matrix, the what-if
 * model's predictions beside the measurements, CSV and JSON.
 */
#include <errno.h>
#include <string.h>
#include <json-c/json.h>
#include "base/outfile.h"
#include "report/report.h"
#include "report/sweep_print.h"
#include "report/why.h"
#include "report/whatif_print.h"
#include "base/termsafe.h"
#include "base/units.h"

static void print_table(FILE *f, const struct sweep *sw)
{
	const struct sweep_settings *o = &sw->set;

	fprintf(f, "\nWall time in ms, %llu ops per thread; columns: threads\n%-20s",
		(unsigned long long)o->wl.ops, "");
	for (unsigned t = 0; t < o->threads.n; t++)
		fprintf(f, " %7llu", (unsigned long long)o->threads.v[t]);
	fputc('\n', f);
	for (unsigned fi = 0; fi < o->files.n; fi++) {
		fprintf(f, "%llu file%s:\n", (unsigned long long)o->files.v[fi],
			units_plural((double)o->files.v[fi]));
		for (unsigned w = 0; w < o->nworkloads; w++) {
			fprintf(f, "  %-18s", o->workloads[w]);
			for (unsigned t = 0; t < o->threads.n; t++) {
				const struct sweep_cell *c = sweep_cell_at(sw, o->workloads[w],
					(unsigned)o->files.v[fi], (unsigned)o->threads.v[t]);
				if (c)
					fprintf(f, " %6.0f%c", c->wall_ns / 1e6,
						c->interrupted ? '*' : ' ');
				else
					fprintf(f, " %7s", "-");
			}
			fputc('\n', f);
		}
	}
	if (sw->interrupted)
		fprintf(f, "INTERRUPTED: partial results, %u of %u cells run (* stopped early, "
			"- not run)\n", sw->n, sw->total);
}

/* One line per workload x file set, at the largest thread count. */
static void print_cell_finding(FILE *f, const struct sweep_cell *c)
{
	char name[24], hit[16], lock[16], runq[16];

	/* a cell cut short is marked as in the table above */
	snprintf(name, sizeof(name), "%s%s", c->workload, c->interrupted ? "*" : "");
	fprintf(f, "  %-15s %6u %6s %9s %8.2f %9s  %s\n", name, c->files,
		c->hit_ratio < 0 ? "-" : units_pct(hit, sizeof(hit), c->hit_ratio),
		units_pct(lock, sizeof(lock), c->lock_share), c->syscalls_in_lock_per_op,
		c->traced ? units_pct(runq, sizeof(runq), c->runq_share) : "-",
		c->top_cause[0] ? c->top_cause : "-");
}

/* The first file-set size where a workload is slower than a reference. */
static void print_crossovers(FILE *f, const struct sweep *sw, unsigned threads)
{
	const struct sweep_settings *o = &sw->set;

	for (unsigned w = 0; w < o->nworkloads; w++)
		for (unsigned r = 0; r < o->nworkloads; r++) {
			const char *a = o->workloads[w], *b = o->workloads[r];

			if (w == r || strcmp(b, "fc") || !strcmp(a, "fc"))
				continue;
			for (unsigned fi = 0; fi < o->files.n; fi++) {
				unsigned files = (unsigned)o->files.v[fi];
				const struct sweep_cell *ca = sweep_cell_at(sw, a, files, threads);
				const struct sweep_cell *cb = sweep_cell_at(sw, b, files, threads);

				if (ca && cb && ca->wall_ns > cb->wall_ns) {
					fprintf(f, "%s is first slower than %s at %u file%s with %u "
						"thread%s (%.0f ms vs %.0f ms; pool %u)\n", a, b, files,
						units_plural(files), threads, units_plural(threads),
						ca->wall_ns / 1e6, cb->wall_ns / 1e6, ca->pool);
					break;
				}
			}
		}
}

static void print_findings(FILE *f, const struct sweep *sw)
{
	const struct sweep_settings *o = &sw->set;
	unsigned tmax = (unsigned)o->threads.v[o->threads.n - 1];

	fprintf(f, "\nAcross the matrix at %u thread%s (lock = share of thread time waiting on "
		"the workload's lock;\nsys/op = stat+open+close made while holding it, per op)\n", tmax,
		units_plural(tmax));
	fprintf(f, "  %-15s %6s %6s %9s %8s %9s  %s\n", "workload", "files", "hits", "lock",
		"sys/op", "runqueue", "first cause");
	for (unsigned w = 0; w < o->nworkloads; w++)
		for (unsigned fi = 0; fi < o->files.n; fi++) {
			const struct sweep_cell *c = sweep_cell_at(sw, o->workloads[w], (unsigned)o->files.v[fi], tmax);

			if (c)
				print_cell_finding(f, c);
		}
	print_crossovers(f, sw, tmax);
}

int sweep_write_csv(const struct sweep *sw, const char *path)
{
	struct outfile out;
	FILE *f = outfile_open(&out, "--csv", path);

	if (!f)
		return -1;
	fprintf(f, "workload,files,threads,pool,ops,wall_ns,ops_per_s,hit_ratio,lock_share,"
		"runqueue_share,blocked_share,cpu_sys_share,cpu_user_share,syscalls_in_lock_per_op,"
		"openat,close,stat,accounted_ratio,top_cause,predicted_wall_ns,traced,interrupted\n");
	for (unsigned i = 0; i < sw->n; i++) {
		const struct sweep_cell *c = &sw->cells[i];
		char pool[16] = "", hit[16] = "";	/* empty: not this workload's */

		if (c->has_pool)
			snprintf(pool, sizeof(pool), "%u", c->pool);
		if (c->hit_ratio >= 0)
			snprintf(hit, sizeof(hit), "%.4f", c->hit_ratio);
		fprintf(f, "%s,%u,%u,%s,%llu,%llu,%.1f,%s,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,"
			"%llu,%llu,%llu,%.4f,%s,%.0f,%d,%d\n", c->workload, c->files, c->threads,
			pool, (unsigned long long)c->ops, (unsigned long long)c->wall_ns,
			c->wall_ns ? c->ops * 1e9 / c->wall_ns : 0, hit, c->lock_share,
			c->runq_share, c->blocked_share, c->sys_share, c->user_share,
			c->syscalls_in_lock_per_op, (unsigned long long)c->openat,
			(unsigned long long)c->close, (unsigned long long)c->stat, c->accounted_ratio,
			c->top_cause, c->predicted_wall_ns, c->traced, c->interrupted);
	}
	return outfile_close(&out);
}

/* Each round's wall of the cell, in run order (one with no --repeat). */
static struct json_object *run_walls_json(const struct sweep_cell *c)
{
	struct json_object *a = json_object_new_array();

	for (unsigned i = 0; i < c->runs; i++)
		json_object_array_add(a, json_object_new_uint64(c->run_wall_ns[i]));
	return a;
}

struct json_object *sweep_json(const struct sweep *sw)
{
	struct json_object *doc = json_object_new_object(), *a = json_object_new_array();

	json_object_object_add(doc, "schema_version", json_object_new_int(SCHEMA_VERSION));
	json_object_object_add(doc, "command", json_object_new_string("sweep"));
	json_object_object_add(doc, "interrupted", json_object_new_boolean(sw->interrupted));
	for (unsigned i = 0; i < sw->n; i++) {
		const struct sweep_cell *c = &sw->cells[i];
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "workload", json_object_new_string(c->workload));
		json_object_object_add(o, "files", json_object_new_int((int)c->files));
		json_object_object_add(o, "threads", json_object_new_int((int)c->threads));
		json_object_object_add(o, "pool", json_object_new_int((int)c->pool));
		json_object_object_add(o, "ncpus", json_object_new_int((int)c->ncpus));
		json_object_object_add(o, "wall_ns", json_object_new_uint64(c->wall_ns));
		json_object_object_add(o, "run_wall_ns", run_walls_json(c));
		json_object_object_add(o, "ops", json_object_new_uint64(c->ops));
		json_object_object_add(o, "hit_ratio", c->hit_ratio < 0 ? NULL : json_object_new_double(c->hit_ratio));
		json_object_object_add(o, "lock_share", json_object_new_double(c->lock_share));
		json_object_object_add(o, "runqueue_share", json_object_new_double(c->runq_share));
		json_object_object_add(o, "syscalls_in_lock_per_op", json_object_new_double(c->syscalls_in_lock_per_op));
		json_object_object_add(o, "top_cause", json_object_new_string(c->top_cause));
		json_object_object_add(o, "predicted_wall_ns", c->predicted_wall_ns > 0 ?
				       json_object_new_double(c->predicted_wall_ns) : NULL);
		json_object_object_add(o, "interrupted", json_object_new_boolean(c->interrupted));
		json_object_array_add(a, o);
	}
	json_object_object_add(doc, "cells", a);
	json_object_object_add(doc, "prediction", sweep_fit_json(sw));
	return doc;
}

static void print_one(FILE *f, const struct sweep_cell *c)
{
	fprintf(f, "  %-10s %6u %7u %5u %11.0f %11.0f %+8.0f %%\n", c->workload, c->files,
		c->threads, c->ncpus, c->wall_ns / 1e6, c->predicted_wall_ns / 1e6,
		100 * (c->wall_ns - c->predicted_wall_ns) / c->predicted_wall_ns);
}

static void print_predictions(FILE *f, const struct sweep *sw)
{
	const struct sweep_fit *fit = &sw->fit;

	fprintf(f, "\nWhat-if model fitted to one run (%s), against the measurements\n"
		"  %-10s %6s %7s %5s %11s %11s %10s\n", fit->ok ? fit->from : "none", "workload",
		"files", "threads", "CPUs", "measured ms", "model ms", "error");
	for (unsigned i = 0; i < sw->n; i++)
		if (sw->cells[i].predicted_wall_ns > 0)
			print_one(f, &sw->cells[i]);
	if (!fit->predicted) {
		fputs("  (nothing to predict: the model needs a cell of fcp or fcp-fixed, or "
		      "--fit with a saved run of one, and cells of fc, fcp or fcp-fixed)\n", f);
		return;
	}
	fprintf(f, "  absolute error over %u cells: mean %.1f %%, max %.1f %%; %u within 15 %%, "
		"%u within 30 %%%s\n", fit->predicted, 100 * fit->mean_abs_err,
		100 * fit->max_abs_err, fit->within15, fit->within30,
		fit->noise_cells ? " (against the mean of the runs)" : "");
	if (fit->noise_cells)
		fprintf(f, "  the machine's noise: the %u runs of a cell differ by mean %.1f %%, max "
			"%.1f %% (max - min over their mean): no model can do better than that\n",
			sw->cells[0].runs, 100 * fit->noise_mean, 100 * fit->noise_max);
	fputc('\n', f);
	why_print_model(f, &fit->wi);
}

/* Through term_stream, as every terminal reporter: a --fit file's strings
 * are not the terminal's. */
void sweep_print_table(FILE *out, const struct sweep *sw)
{
	FILE *f = term_stream(out);

	if (!f)
		return;
	print_table(f, sw);
	fclose(f);
}

void sweep_print_findings(FILE *out, const struct sweep *sw)
{
	FILE *f = term_stream(out);

	if (!f)
		return;
	print_findings(f, sw);
	fclose(f);
}

void sweep_print_predictions(FILE *out, const struct sweep *sw)
{
	FILE *f = term_stream(out);

	if (!f)
		return;
	print_predictions(f, sw);
	fclose(f);
}

struct json_object *sweep_fit_json(const struct sweep *sw)
{
	const struct sweep_fit *fit = &sw->fit;
	struct json_object *o;

	if (!fit->ok)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "fitted_to", json_object_new_string(fit->from));
	json_object_object_add(o, "model", whatif_json(&fit->wi));
	json_object_object_add(o, "cells_predicted", json_object_new_int64(fit->predicted));
	json_object_object_add(o, "mean_abs_error", fit->predicted ?
			       json_object_new_double(fit->mean_abs_err) : NULL);
	json_object_object_add(o, "max_abs_error", fit->predicted ?
			       json_object_new_double(fit->max_abs_err) : NULL);
	json_object_object_add(o, "noise_mean", fit->noise_cells ?
			       json_object_new_double(fit->noise_mean) : NULL);
	json_object_object_add(o, "noise_max", fit->noise_cells ?
			       json_object_new_double(fit->noise_max) : NULL);
	return o;
}
