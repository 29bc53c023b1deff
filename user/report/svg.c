/*
 * svg.c - inline-SVG charts for the HTML reports. Numbers are written
 * with one decimal: enough for a pixel grid and small files.
 */
#include <math.h>
#include "report/html.h"
#include "report/svg.h"

#define TICK_MIN_GAP	46	/* px between labelled x ticks: labels must not collide */

void svg_plot_init(struct svg_plot *p, FILE *f, double w, double h)
{
	*p = (struct svg_plot){ .f = f, .w = w, .h = h, .l = 64, .r = 16, .t = 30, .b = 44 };
}

double svg_px(const struct svg_plot *p, double x)
{
	double span = p->x.max - p->x.min;

	return p->l + (span > 0 ? (x - p->x.min) / span : 0.5) * (p->w - p->l - p->r);
}

double svg_py(const struct svg_plot *p, double y)
{
	double span = p->y.max - p->y.min;

	return p->h - p->b - (span > 0 ? (y - p->y.min) / span : 0) * (p->h - p->t - p->b);
}

/* 1, 2 or 5 times a power of ten, so that span / step is about target. */
static double nice_step(double span, int target)
{
	double raw = span / target, mag, frac;

	if (!(raw > 0))
		return 1;
	mag = pow(10, floor(log10(raw)));
	frac = raw / mag;
	return (frac <= 1 ? 1 : frac <= 2 ? 2 : frac <= 5 ? 5 : 10) * mag;
}

static void tick_text(const struct svg_axis *a, double v, char *buf, size_t n)
{
	if (a->fmt)
		a->fmt(buf, n, v);
	else
		snprintf(buf, n, "%g", v);
}

static void text_at(FILE *f, double x, double y, const char *anchor, const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", x, y, anchor);
	html_esc(f, s);
	fputs("</text>\n", f);
}

static void y_tick(const struct svg_plot *p, double v)
{
	char buf[32];
	double y = svg_py(p, v);

	fprintf(p->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e3e7eb\"/>\n",
		p->l, y, p->w - p->r, y);
	tick_text(&p->y, v, buf, sizeof(buf));
	text_at(p->f, p->l - 6, y + 4, "end", buf);
}

static void y_ticks(struct svg_plot *p)
{
	if (p->y.ticks) {
		for (int i = 0; i < p->y.nticks; i++)
			y_tick(p, p->y.ticks[i]);
		return;
	}
	p->ystep = nice_step(p->y.max - p->y.min, 5);
	p->y.max = p->y.min + ceil((p->y.max - p->y.min) / p->ystep - 1e-9) * p->ystep;
	if (p->y.max <= p->y.min)
		p->y.max = p->y.min + p->ystep;
	for (double v = p->y.min; v <= p->y.max + p->ystep / 2; v += p->ystep)
		y_tick(p, v);
}

static void x_tick(const struct svg_plot *p, double v, double *last_label)
{
	char buf[32];
	double x = svg_px(p, v), y = p->h - p->b;

	fprintf(p->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#888\"/>\n",
		x, y, x, y + 4);
	if (x - *last_label < TICK_MIN_GAP)
		return;
	tick_text(&p->x, v, buf, sizeof(buf));
	text_at(p->f, x, y + 16, "middle", buf);
	*last_label = x;
}

static void x_ticks(const struct svg_plot *p)
{
	double last = -1e9, step;

	if (p->x.ticks) {
		for (int i = 0; i < p->x.nticks; i++)
			x_tick(p, p->x.ticks[i], &last);
		return;
	}
	step = nice_step(p->x.max - p->x.min, 6);
	for (double v = ceil(p->x.min / step) * step; v <= p->x.max + step / 1e6; v += step)
		x_tick(p, v, &last);
}

static void axis_labels(const struct svg_plot *p)
{
	double cy = p->t + (p->h - p->t - p->b) / 2;

	if (p->x.label)
		text_at(p->f, p->l + (p->w - p->l - p->r) / 2, p->h - 8, "middle", p->x.label);
	if (!p->y.label)
		return;
	fprintf(p->f, "<text transform=\"translate(14 %.1f) rotate(-90)\" text-anchor=\"middle\">", cy);
	html_esc(p->f, p->y.label);
	fputs("</text>\n", p->f);
}

void svg_plot_begin(struct svg_plot *p, const char *title)
{
	FILE *f = p->f;

	fprintf(f, "<svg class=\"chart\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		"role=\"img\" aria-label=\"", p->w, p->h, p->w, p->h);
	html_esc(f, title);
	fputs("\">\n<title>", f);
	html_esc(f, title);
	fputs("</title>\n<text class=\"t\" x=\"8\" y=\"18\">", f);
	html_esc(f, title);
	fputs("</text>\n", f);
	y_ticks(p);
	x_ticks(p);
	fprintf(f, "<path d=\"M%.1f %.1fV%.1fH%.1f\" fill=\"none\" stroke=\"#555\"/>\n",
		p->l, p->t, p->h - p->b, p->w - p->r);
	axis_labels(p);
}

void svg_plot_end(const struct svg_plot *p)
{
	fputs("</svg>\n", p->f);
}

static void tip(FILE *f, const char *text)
{
	if (!text)
		return;
	fputs("<title>", f);
	html_esc(f, text);
	fputs("</title>", f);
}

void svg_line(const struct svg_plot *p, const double *x, const double *y, int n,
	      const char *colour, const char *dash, const char *tiptext)
{
	FILE *f = p->f;

	fprintf(f, "<g><polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s%s%s points=\"",
		colour, dash ? " stroke-dasharray=\"" : "", dash ? dash : "", dash ? "\"" : "");
	for (int i = 0; i < n; i++)
		fprintf(f, "%s%.1f,%.1f", i ? " " : "", svg_px(p, x[i]), svg_py(p, y[i]));
	fputs("\">", f);
	tip(f, tiptext);
	fputs("</polyline>\n", f);
	for (int i = 0; i < n; i++)
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n",
			svg_px(p, x[i]), svg_py(p, y[i]), dash ? "#fff" : colour);
	fputs("</g>\n", f);
}

void svg_vbar(const struct svg_plot *p, double x0, double x1, double y,
	      const char *colour, const char *tiptext)
{
	double px0 = svg_px(p, x0), px1 = svg_px(p, x1), top = svg_py(p, y);
	double h = svg_py(p, p->y.min) - top;

	if (y > p->y.min && h < 1) {	/* a few ops among millions: still visible */
		top -= 1 - h;
		h = 1;
	}

	fprintf(p->f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">",
		px0, top, px1 - px0 > 1 ? px1 - px0 : 1, h > 0 ? h : 0, colour);
	tip(p->f, tiptext);
	fputs("</rect>\n", p->f);
}

void svg_vmarker(const struct svg_plot *p, double x, const char *colour, const char *label)
{
	double px = svg_px(p, x);

	fprintf(p->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
		"stroke-width=\"1.5\" stroke-dasharray=\"3 3\"/>\n", px, p->t, px, p->h - p->b, colour);
	if (label)
		text_at(p->f, px + 4, p->t + 10, "start", label);
}

void svg_hstack(FILE *f, double x, double y, double w, double h, const double *shares,
		const char *const *colours, const char *const *tips, int n)
{
	for (int i = 0; i < n; i++) {
		double sw = (shares[i] > 0 ? shares[i] : 0) * w;

		if (sw <= 0)
			continue;
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">",
			x, y, sw, h, colours[i]);
		tip(f, tips ? tips[i] : NULL);
		fputs("</rect>\n", f);
		x += sw;
	}
}

void svg_share_bar(FILE *f, double w, double h, double share, const char *colour)
{
	double s = share < 0 ? 0 : share > 1 ? 1 : share;

	fprintf(f, "<svg class=\"bar\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">"
		"<rect width=\"%.0f\" height=\"%.0f\" fill=\"#eceff2\"/>"
		"<rect width=\"%.1f\" height=\"%.0f\" fill=\"%s\"/></svg>", w, h, w, h, w, h,
		s * w > 0.5 || s == 0 ? s * w : 1, h, colour);
}
