/*
 * svg.h - the few inline-SVG charts the HTML reports draw: an x/y plot with
 * labelled axes (lines, bars, vertical markers) and a stacked horizontal
 * bar. Data coordinates in, pixels out; every text is escaped.
 */
#ifndef FCTRACE_SVG_H
#define FCTRACE_SVG_H

#include <stddef.h>
#include <stdio.h>

struct svg_axis {
	double min, max;
	const char *label;
	/* tick text (units_ns and units_pct fit); NULL = "%g" */
	char *(*fmt)(char *buf, size_t n, double v);
	const double *ticks;	/* where to put ticks; NULL = evenly, at round values */
	int nticks;
};

struct svg_plot {
	FILE *f;
	double w, h;		/* the whole chart, px */
	double l, r, t, b;	/* margins around the plotting area */
	struct svg_axis x, y;
	double ystep;		/* set by svg_plot_begin when y ticks are automatic */
};

/* A plot of w x h px with default margins; fill p->x, p->y, then begin. */
void svg_plot_init(struct svg_plot *p, FILE *f, double w, double h);
/* <svg>, the title, the frame, the grid, ticks and axis labels. When the
 * y ticks are automatic, y.max is first rounded up to a round value. */
void svg_plot_begin(struct svg_plot *p, const char *title);
void svg_plot_end(const struct svg_plot *p);

double svg_px(const struct svg_plot *p, double x);
double svg_py(const struct svg_plot *p, double y);

/* A line through n points with a marker at each; dash NULL = solid. */
void svg_line(const struct svg_plot *p, const double *x, const double *y, int n,
	      const char *colour, const char *dash, const char *tip);
/* A bar from y = 0 up to y, between x0 and x1. */
void svg_vbar(const struct svg_plot *p, double x0, double x1, double y,
	      const char *colour, const char *tip);
/* A dashed vertical line at x across the plot, labelled at its top. */
void svg_vmarker(const struct svg_plot *p, double x, const char *colour, const char *label);

/* Shares (0..1) side by side from (x, y) over at most w px, one rect each;
 * zero shares draw nothing. tips may be NULL. */
void svg_hstack(FILE *f, double x, double y, double w, double h, const double *shares,
		const char *const *colours, const char *const *tips, int n);

/* A standalone <svg> of one horizontal bar: share of w, on a grey track. */
void svg_share_bar(FILE *f, double w, double h, double share, const char *colour);

#endif /* FCTRACE_SVG_H */
