/*
 * report_html_caches.c - the run page's caches: the text report's row of
 * each (caches_print.h's cells, one figure in both) and its miss-ratio
 * curve drawn whole: the hit ratio an LRU of each size would have had on
 * the run's own stream, the size now and the fix size marked.
 */
#include <stdio.h>
#include "base/units.h"
#include "report/caches_print.h"
#include "report/html.h"
#include "report/report_html_int.h"
#include "report/svg.h"
#include "trace/probes.h"

#define CURVE_H		220

static char *count_tick(char *buf, size_t n, double v)
{
	return units_count(buf, n, v);
}

static void curve_svg(FILE *f, const struct cache_entry *c, double w)
{
	double x[FU_MRC_MAX], y[FU_MRC_MAX], xmax = 1;
	struct svg_plot p;
	char title[240], fix[64];
	bool more = cache_sizes_relative(c);

	if (c->nmrc < 2)
		return;
	for (int i = 0; i < c->nmrc; i++) {
		x[i] = (double)c->mrc[i].size;
		y[i] = c->mrc[i].hit_ratio;
		if (x[i] > xmax)
			xmax = x[i];
	}
	svg_plot_init(&p, f, w, CURVE_H);
	p.x = (struct svg_axis){ .min = 0, .max = xmax, .fmt = count_tick,
				 .label = more ? "size: items more than now" : "size: items" };
	p.y = (struct svg_axis){ .min = 0, .max = 1, .fmt = html_pct0, .label = "hit ratio" };
	snprintf(title, sizeof(title), "%s (%d): %s cache, the hit ratio at each size", c->comm,
		 (int)c->pid, cache_kind_name(c->kind));
	svg_plot_begin(&p, title);
	svg_line(&p, x, y, c->nmrc, "#3b6fb6", NULL, NULL);
	if (c->size_known && (double)c->size_items <= xmax)
		svg_vmarker(&p, (double)c->size_items, "#888", "now");
	if ((double)c->fix_items <= xmax) {
		snprintf(fix, sizeof(fix), "fix %s%llu", more ? "+" : "",
			 (unsigned long long)c->fix_items);
		svg_vmarker(&p, (double)c->fix_items, "#c0392b", fix);
	}
	svg_plot_end(&p);
}

static void cache_row(FILE *f, const struct cache_entry *c)
{
	struct cache_cells x;

	cache_cells(c, &x);
	fputs("<tr>", f);
	html_td(f, x.name);
	html_td(f, c->object);
	html_td_num(f, x.accesses);
	html_td_num(f, x.hit_now);
	html_td_num(f, x.size_now);
	html_td_num(f, x.ws);
	html_td_num(f, x.fix);
	html_td_num(f, x.cost);
	fputs("</tr>\n", f);
}

void html_caches_section(FILE *f, const struct joined_run *m, double w)
{
	if (!(m->groups & PG_MASK(PG_HANDLES)) || !m->ncaches)
		return;
	fputs("<h2>Caches the programs keep</h2>\n<p class=\"note\">As the kernel saw each process "
	      "use them. Fix: the size that serves nearly all an unbounded cache would, and its "
	      "hit ratio; +N: that much more than the cache has now, which is not seen from "
	      "outside (a block cache's hits make no syscall). Misses: their time now.</p>\n"
	      "<table><tr><th>process and kind</th><th>what</th><th>accesses</th><th>hit now</th>"
	      "<th>size now</th><th>working set</th><th>fix: hit</th><th>misses</th></tr>\n", f);
	for (int i = 0; i < m->ncaches; i++)
		cache_row(f, &m->caches[i]);
	fputs("</table>\n", f);
	for (int i = 0; i < m->ncaches; i++)
		curve_svg(f, &m->caches[i], w);
}
