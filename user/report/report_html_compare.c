/*
 * report_html_compare.c - two runs on one HTML page: the term-by-term
 * chart and text of compare.c, then each run's own page side by side.
 */
#include <stdlib.h>
#include <json-c/json.h>
#include "report/compare.h"
#include "report/compare_int.h"
#include "report/html.h"
#include "base/outfile.h"
#include "report/report_html_int.h"
#include "report/svg.h"

static char *compare_text(const struct session *a, const struct session *b)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	if (!mem)
		return NULL;
	compare_print(mem, a, b);
	fclose(mem);
	return text;
}

static void term_row(FILE *f, int i, const char *name, double va, double vb, double bar_w)
{
	double top = va > vb ? va : vb, y = 24 + i * 34;
	double sh[2][1] = { { top ? va / top : 0 }, { top ? vb / top : 0 } };
	char tip[2][96], d[32];
	const char *tp;

	snprintf(tip[0], sizeof(tip[0]), "a: %.0f", va);
	snprintf(tip[1], sizeof(tip[1]), "b: %.0f", vb);
	fprintf(f, "<text x=\"224\" y=\"%.1f\" text-anchor=\"end\">", y + 15);
	html_esc(f, name);
	fputs("</text>\n", f);
	for (int k = 0; k < 2; k++) {
		tp = tip[k];
		svg_hstack(f, 230, y + k * 13, bar_w, 11, sh[k], &wl_colours[k], &tp, 1);
	}
	if (vb > 0)
		snprintf(d, sizeof(d), "%+.0f %%", 100 * (va - vb) / vb);
	else
		snprintf(d, sizeof(d), va > 0 ? "new" : "-");
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", 236 + bar_w, y + 15, d);
}

/* compare.c's terms, each pair as two bars scaled to the larger: the
 * terms have different units, so only the two bars of a row compare. */
static void term_chart(FILE *f, const struct session *a, const struct session *b, double w)
{
	struct json_object *cj = compare_json(a, b), *terms = NULL;
	int n = 0, shown;

	if (json_object_object_get_ex(cj, "terms", &terms))
		n = (int)json_object_array_length(terms);
	shown = a->traced && b->traced ? n : (n < 2 ? n : 2);	/* as compare_print does */
	fprintf(f, "<svg class=\"chart\" width=\"%.0f\" height=\"%d\" viewBox=\"0 0 %.0f %d\" "
		"role=\"img\" aria-label=\"terms\">\n<text class=\"t\" x=\"8\" y=\"16\">"
		"a against b, term by term (bars scaled to the larger of each pair)</text>\n",
		w, 30 + shown * 34, w, 30 + shown * 34);
	for (int i = 0; i < shown; i++) {
		struct json_object *row = json_object_array_get_idx(terms, i), *t, *va, *vb;

		if (json_object_object_get_ex(row, "term", &t) && json_object_object_get_ex(row, "a", &va) &&
		    json_object_object_get_ex(row, "b", &vb))
			term_row(f, i, json_object_get_string(t), json_object_get_double(va),
				 json_object_get_double(vb), w - 300);
	}
	fputs("</svg>\n", f);
	json_object_put(cj);
}

static void compare_column(FILE *f, const char *which, const struct session *s)
{
	char d[600];

	if (s->target.mode != TGT_NONE)	/* a program (fctrace diff): no settings */
		snprintf(d, sizeof(d), "%s (pid %d)", s->target.cmdline, (int)s->target.pid);
	else
		report_describe(d, sizeof(d), s);
	fprintf(f, "<div><h2 style=\"border:0\">%s: ", which);
	html_esc(f, d);
	fputs("</h2>\n", f);
	html_run_body(f, s, HALF_W);
	fputs("</div>\n", f);
}

int report_html_compare(const char *path, const struct session *a, const struct session *b)
{
	struct outfile out;
	FILE *f = outfile_open(&out, "--html", path);
	struct cmp_pair p;
	const char *names[2];
	char title[240], *text;

	if (!f)
		return -1;
	cmp_pair_of(&p, a, b);	/* the runs as the text names them */
	names[0] = p.a.name;
	names[1] = p.b.name;
	snprintf(title, sizeof(title), "fctrace compare: %s against %s", p.a.name, p.b.name);
	html_page_begin(f, title);
	html_h1(f, title);
	fputs("<h2>Term by term</h2>\n", f);
	html_legend(f, names, wl_colours, 2);
	term_chart(f, a, b, PAGE_W);
	text = compare_text(a, b);
	html_pre(f, "compare", text ? text : "(the comparison could not be captured: out of memory)");
	free(text);
	fputs("<div class=\"cols\">\n", f);
	compare_column(f, "a", a);
	compare_column(f, "b", b);
	fputs("</div>\n", f);
	html_page_end(f);
	return outfile_close(&out);
}
