/*
 * report_html_sweep.c - a sweep on one HTML page: wall time against
 * threads per file set (pool capacity in the title, what-if predictions
 * dashed), hit ratio and lock share against the file set, every cell.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report/compare.h"
#include "report/html.h"
#include "base/outfile.h"
#include "report/report_html_int.h"
#include "report/svg.h"
#include "base/units.h"
#include "session/sweep.h"

/* The matrix's dimensions, read off the cells (sorted, distinct). */
struct sweep_axes {
	const char *wl[NCOLOURS];
	unsigned nwl;
	double files[NUMLIST_MAX], threads[NUMLIST_MAX];
	unsigned nfiles, nthreads;
	unsigned pool;		/* the pool workloads' capacity, 0 when none ran */
	bool predicted;		/* some cell has a what-if prediction */
};

static void add_sorted(double *v, unsigned *n, double x)
{
	unsigned i = 0;

	while (i < *n && v[i] < x)
		i++;
	if ((i < *n && v[i] == x) || *n == NUMLIST_MAX)
		return;
	memmove(&v[i + 1], &v[i], (*n - i) * sizeof(*v));
	v[i] = x;
	(*n)++;
}

static int wl_index(const struct sweep_axes *ax, const char *wl)
{
	for (unsigned i = 0; i < ax->nwl; i++)
		if (!strcmp(ax->wl[i], wl))
			return (int)i;
	return -1;
}

static void axes_of(const struct sweep *sw, struct sweep_axes *ax)
{
	memset(ax, 0, sizeof(*ax));
	for (unsigned i = 0; i < sw->n; i++) {
		const struct sweep_cell *c = &sw->cells[i];

		if (wl_index(ax, c->workload) < 0 && ax->nwl < NCOLOURS)
			ax->wl[ax->nwl++] = c->workload;
		add_sorted(ax->files, &ax->nfiles, c->files);
		add_sorted(ax->threads, &ax->nthreads, c->threads);
		if (!strncmp(c->workload, "fcp", 3))	/* the pools: fcp, fcp-fixed */
			ax->pool = c->pool;
		ax->predicted |= c->predicted_wall_ns > 0;
	}
}

/* "60 files (pool 50: 10 over capacity)" */
static void files_title(char *buf, size_t n, unsigned files, unsigned pool)
{
	if (!pool)
		snprintf(buf, n, "%u file%s", files, units_plural(files));
	else if (files > pool)
		snprintf(buf, n, "%u files (pool %u: %u over capacity)", files, pool, files - pool);
	else if (files == pool)
		snprintf(buf, n, "%u files (pool %u: exactly at capacity)", files, pool);
	else
		snprintf(buf, n, "%u files (pool %u: fits, %u spare)", files, pool, pool - files);
}

/* An axis over the values v[0..n) (and extra, if > 0), padded a little. */
static struct svg_axis value_axis(const double *v, unsigned n, double extra, const char *label)
{
	double lo = v[0], hi = v[n - 1], pad;

	if (extra > 0) {
		lo = extra < lo ? extra : lo;
		hi = extra > hi ? extra : hi;
	}
	pad = hi > lo ? (hi - lo) * 0.04 : 1;
	return (struct svg_axis){ lo - pad, hi + pad, label, NULL, v, (int)n };
}

/* One workload's wall times (ms) over the thread counts; predicted too. */
static int wall_series(const struct sweep *sw, const struct sweep_axes *ax, const char *wl,
		       double files, double *x, double *ms, double *pred, int *npred)
{
	int n = 0;

	*npred = 0;
	for (unsigned t = 0; t < ax->nthreads; t++) {
		const struct sweep_cell *c = sweep_cell_at(sw, wl, (unsigned)files, (unsigned)ax->threads[t]);

		if (!c)
			continue;
		x[n] = ax->threads[t];
		ms[n] = c->wall_ns / 1e6;
		if (c->predicted_wall_ns > 0)
			pred[(*npred)++] = c->predicted_wall_ns / 1e6;
		n++;
	}
	if (*npred != n)	/* a dashed line only where every point has one */
		*npred = 0;
	return n;
}

static double wall_max(const struct sweep *sw, double files)
{
	double top = 0;

	for (unsigned i = 0; i < sw->n; i++) {
		const struct sweep_cell *c = &sw->cells[i];

		if (c->files != files)
			continue;
		top = fmax(top, c->wall_ns / 1e6);
		top = fmax(top, c->predicted_wall_ns / 1e6);
	}
	return top > 0 ? top * 1.05 : 1;
}

static void wall_chart(FILE *f, const struct sweep *sw, const struct sweep_axes *ax, double files)
{
	double x[NUMLIST_MAX], ms[NUMLIST_MAX], pred[NUMLIST_MAX];
	char title[96], tip[192];
	struct svg_plot p;
	int n, np;

	files_title(title, sizeof(title), (unsigned)files, ax->pool);
	svg_plot_init(&p, f, 550, 300);
	p.x = value_axis(ax->threads, ax->nthreads, 0, "threads");
	p.y = (struct svg_axis){ 0, wall_max(sw, files), "wall time (ms)", NULL, NULL, 0 };
	svg_plot_begin(&p, title);
	for (unsigned w = 0; w < ax->nwl; w++) {
		n = wall_series(sw, ax, ax->wl[w], files, x, ms, pred, &np);
		snprintf(tip, sizeof(tip), "%s, %s: measured", ax->wl[w], title);
		if (n)
			svg_line(&p, x, ms, n, wl_colours[w], NULL, tip);
		snprintf(tip, sizeof(tip), "%s, %s: what-if prediction", ax->wl[w], title);
		if (np)
			svg_line(&p, x, pred, np, wl_colours[w], "6 4", tip);
	}
	svg_plot_end(&p);
}

/* Hit ratio (hit = true) or lock share over the file counts at `threads`. */
static void share_chart(FILE *f, const struct sweep *sw, const struct sweep_axes *ax,
			double threads, bool hit)
{
	static const double pct_ticks[] = { 0, 0.25, 0.5, 0.75, 1 };
	double x[NUMLIST_MAX], y[NUMLIST_MAX];
	char title[96], mark[32];
	struct svg_plot p;

	snprintf(title, sizeof(title), "%s at %.0f threads", hit ? "Pool/cache hit ratio" :
		 "Share of thread time waiting on the workload's lock", threads);
	svg_plot_init(&p, f, 550, 300);
	p.x = value_axis(ax->files, ax->nfiles, ax->pool, "files in the active set");
	p.y = (struct svg_axis){ 0, 1, hit ? "hit ratio" : "lock share", html_pct0, pct_ticks, 5 };
	svg_plot_begin(&p, title);
	if (ax->pool) {
		snprintf(mark, sizeof(mark), "pool %u", ax->pool);
		svg_vmarker(&p, ax->pool, "#555", mark);
	}
	for (unsigned w = 0; w < ax->nwl; w++) {
		int n = 0;

		for (unsigned i = 0; i < ax->nfiles; i++) {
			const struct sweep_cell *c = sweep_cell_at(sw, ax->wl[w], (unsigned)ax->files[i],
									   (unsigned)threads);

			if (c && (!hit || c->hit_ratio >= 0)) {
				x[n] = ax->files[i];
				y[n++] = hit ? c->hit_ratio : c->lock_share;
			}
		}
		if (n)
			svg_line(&p, x, y, n, wl_colours[w], NULL, ax->wl[w]);
	}
	svg_plot_end(&p);
}

static void cell_row(FILE *f, const struct sweep_cell *c)
{
	char b[8][32];

	fputs("<tr>", f);
	html_td(f, c->workload);
	fprintf(f, "<td class=\"n\">%u</td><td class=\"n\">%u</td><td class=\"n\">%u</td>",
		c->files, c->threads, c->pool);
	html_td_num(f, units_ns(b[0], 32, (double)c->wall_ns));
	html_td_num(f, units_count(b[1], 32, c->wall_ns ? c->ops * 1e9 / c->wall_ns : 0));
	html_td_num(f, c->hit_ratio < 0 ? "-" : units_pct(b[2], 32, c->hit_ratio));
	html_td_num(f, units_pct(b[3], 32, c->lock_share));
	html_td_num(f, c->traced ? units_pct(b[4], 32, c->runq_share) : "-");
	snprintf(b[5], 32, "%.2f", c->syscalls_in_lock_per_op);
	html_td_num(f, b[5]);
	html_td(f, c->top_cause[0] ? c->top_cause : "-");
	html_td_num(f, c->predicted_wall_ns > 0 ? units_ns(b[6], 32, c->predicted_wall_ns) : "-");
	if (c->predicted_wall_ns > 0)
		snprintf(b[7], 32, "%+.0f %%", 100 * (c->wall_ns - c->predicted_wall_ns) /
			 c->predicted_wall_ns);
	html_td_num(f, c->predicted_wall_ns > 0 ? b[7] : "-");
	fputs(c->interrupted ? "<td>interrupted</td></tr>\n" : "<td></td></tr>\n", f);
}

static void cells_table(FILE *f, const struct sweep *sw)
{
	fputs("<h2>Every cell</h2>\n<table><tr><th>workload</th><th>files</th><th>threads</th>"
	      "<th>pool</th><th>wall</th><th>ops/s</th><th>hits</th><th>lock</th><th>runqueue</th>"
	      "<th>syscalls in lock / op</th><th>first cause</th><th>predicted</th>"
	      "<th>measured vs predicted</th><th></th></tr>\n", f);
	for (unsigned i = 0; i < sw->n; i++)
		cell_row(f, &sw->cells[i]);
	fputs("</table>\n", f);
}

static void sweep_legend(FILE *f, const struct sweep_axes *ax)
{
	html_legend(f, ax->wl, wl_colours, (int)ax->nwl);
	if (ax->predicted)
		fputs("<p>Dashed lines: the what-if model's predictions (--predict), fitted to one "
		      "cell of each pool workload; solid lines are measured.</p>\n", f);
}

static void sweep_charts(FILE *f, const struct sweep *sw, const struct sweep_axes *ax)
{
	double tmax = ax->threads[ax->nthreads - 1];

	fputs("<h2>Wall time against threads, one chart per file set</h2>\n", f);
	sweep_legend(f, ax);
	fputs("<div class=\"charts\">\n", f);
	for (unsigned i = 0; i < ax->nfiles; i++)
		wall_chart(f, sw, ax, ax->files[i]);
	fputs("</div>\n<h2>Hits and lock waits against the file set</h2>\n<div class=\"charts\">\n", f);
	share_chart(f, sw, ax, tmax, true);
	share_chart(f, sw, ax, tmax, false);
	fputs("</div>\n", f);
}

int report_html_sweep(const char *path, const struct sweep *sw)
{
	struct outfile out;
	FILE *f;
	struct sweep_axes ax;

	if (!sw->n) {
		fprintf(stderr, "fctrace: --html %s: the sweep has no cells to show\n", path);
		return -1;
	}
	if (!(f = outfile_open(&out, "--html", path)))
		return -1;
	axes_of(sw, &ax);
	html_page_begin(f, "fctrace sweep");
	html_h1(f, "fctrace sweep");
	fprintf(f, "<div class=\"facts\"><span>cells <b>%u</b></span><span>workloads <b>%u</b>"
		"</span><span>file sets <b>%u</b></span><span>thread counts <b>%u</b></span>%s</div>\n",
		sw->n, ax.nwl, ax.nfiles, ax.nthreads, sw->cells[0].traced ? "" :
		"<span>timing only</span>");
	sweep_charts(f, sw, &ax);
	cells_table(f, sw);
	html_page_end(f);
	return outfile_close(&out);
}
