/*
 * html.c - escaping and the page skeleton of the HTML reports. Everything
 * a page shows is inside the file: the CSS is inline and nothing refers to
 * another resource, so a report opens the same offline, mailed or archived.
 */
#include <string.h>
#include "report/html.h"

void html_esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc(*s, f);
		}
	}
}

/* Colours are set per element in the SVG, so the CSS only lays out text. */
static const char page_css[] =
	"body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:#1d232b;"
	"background:#fff;margin:0 auto;max-width:1180px;padding:16px 24px}\n"
	"h1{font-size:21px;margin:8px 0}h2{font-size:17px;margin:26px 0 8px;"
	"border-bottom:1px solid #d5dae0;padding-bottom:3px}h3{font-size:15px;margin:14px 0 6px}\n"
	".facts{display:flex;flex-wrap:wrap;gap:6px 22px;margin:6px 0}"
	".facts b{font-weight:600}\n"
	".note{background:#fff7e0;border-left:4px solid #e0a800;padding:6px 10px;margin:8px 0}\n"
	"table{border-collapse:collapse;margin:6px 0;font-size:13px}"
	"th,td{padding:3px 9px;border-bottom:1px solid #e4e8ec;text-align:left;vertical-align:top}"
	"th{background:#f3f5f7;font-weight:600}td.n{text-align:right;"
	"font-variant-numeric:tabular-nums;white-space:nowrap}\n"
	"pre{background:#f6f8fa;border:1px solid #e1e4e8;padding:10px;overflow-x:auto;"
	"font:12.5px/1.4 ui-monospace,'DejaVu Sans Mono',monospace;white-space:pre}\n"
	".legend{display:flex;flex-wrap:wrap;gap:4px 16px;font-size:13px;margin:4px 0}"
	".sw{display:inline-block;width:12px;height:12px;margin-right:5px;"
	"vertical-align:-1px;border-radius:2px}\n"
	".cols{display:grid;grid-template-columns:1fr 1fr;gap:24px}"
	".cols>div{min-width:0}\n"
	".charts{display:flex;flex-wrap:wrap;gap:12px}"
	"svg{display:block;max-width:100%;height:auto}svg.bar{display:inline-block;vertical-align:middle}svg text{font:11px system-ui,sans-serif;fill:#333}"
	"svg text.t{font-size:13px;font-weight:600}\n"
	"svg text.tl-lane{text-anchor:end}svg text.tl-tick{text-anchor:middle;fill:#6a737d}"
	"svg text.tl-agg{fill:#444}.tl-handoff path{fill:#111;fill-opacity:.7}"
	".tl-handoff polyline{stroke:#111;stroke-opacity:.45;stroke-width:.8;fill:none}\n"
	"footer{color:#6a737d;font-size:12px;margin-top:30px}\n";

void html_page_begin(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>", f);
	html_esc(f, title);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", page_css);
}

void html_page_end(FILE *f)
{
	fputs("<footer>Made by fctrace. Self-contained: no scripts, fonts or images are "
	      "fetched.</footer>\n</body>\n</html>\n", f);
}

void html_pre(FILE *f, const char *cls, const char *text)
{
	if (!text)
		return;
	fprintf(f, "<pre class=\"%s\">", cls);
	html_esc(f, text);
	fputs("</pre>\n", f);
}

void html_legend(FILE *f, const char *const *names, const char *const *colours, int n)
{
	fputs("<div class=\"legend\">", f);
	for (int i = 0; i < n; i++) {
		fprintf(f, "<span><i class=\"sw\" style=\"background:%s\"></i>", colours[i]);
		html_esc(f, names[i]);
		fputs("</span>", f);
	}
	fputs("</div>\n", f);
}

void html_td(FILE *f, const char *text)
{
	fputs("<td>", f);
	html_esc(f, text);
	fputs("</td>", f);
}

void html_td_num(FILE *f, const char *text)
{
	fputs("<td class=\"n\">", f);
	html_esc(f, text);
	fputs("</td>", f);
}
