/*
 * report_html_flame.c - the run page's flame graphs: the wait stacks (and
 * the on-CPU ones, when sampled) as inline SVG, root at the bottom, each
 * frame as wide as the time it stands for. A few lines of inline script
 * zoom on a clicked frame (the root resets) and light up a lock's stacks
 * when its "stacks" link in the lock table is clicked. Nothing is fetched.
 * A function the compiler inlined into its caller (DWARF) is a frame of
 * its own, blue-green as flamegraph.pl draws inlined ones, "(inlined)"
 * in its title.
 */
#include <stdlib.h>
#include <string.h>
#include "base/units.h"
#include "report/flame.h"
#include "report/html.h"
#include "report/report_html_int.h"

#define ROW_H		17
#define CHAR_W		6.6	/* 11 px monospace */
#define MIN_SHARE	(1.0 / 4000)	/* narrower frames are left out */

struct fnode {
	const char *name;
	bool inlined;		/* inlined into its parent (stacks.h) */
	uint64_t ns;
	uint64_t locks;		/* bit i: lock i of the lock table waits under it */
	int child, next;	/* first child, next sibling (-1: none) */
};

struct ftree {
	struct fnode *n;
	int len, cap;
};

static int node_new(struct ftree *t, const char *name, bool inlined)
{
	if (t->len == t->cap) {
		int cap = t->cap ? 2 * t->cap : 256;
		struct fnode *n = realloc(t->n, (size_t)cap * sizeof(*n));

		if (!n)
			return -1;
		t->n = n;
		t->cap = cap;
	}
	t->n[t->len] = (struct fnode){ .name = name, .inlined = inlined, .child = -1, .next = -1 };
	return t->len++;
}

/* parent's child called name, made if new */
static int child_of(struct ftree *t, int parent, const char *name, bool inlined)
{
	int c, prev = -1;

	for (c = t->n[parent].child; c >= 0; prev = c, c = t->n[c].next)
		if (!strcmp(t->n[c].name, name) && t->n[c].inlined == inlined)
			return c;
	if ((c = node_new(t, name, inlined)) < 0)
		return -1;
	if (prev < 0)
		t->n[parent].child = c;
	else
		t->n[prev].next = c;
	return c;
}

static int lock_index(const struct joined_run *m, const char *lock)
{
	for (int i = 0; lock[0] && i < m->nlocks && i < 64; i++)
		if (!strcmp(m->locks[i].name, lock))
			return i;
	return -1;
}

static int build(struct ftree *t, const struct session *s, enum stack_kind kind)
{
	const struct stack_set *ss = &s->stacks;

	if (node_new(t, "all", false) < 0)
		return -1;
	for (int i = 0; i < ss->n; i++) {
		const struct sstack *st = &ss->stacks[i];
		int li = lock_index(&s->joined, st->lock), at = 0;
		uint64_t bit = li >= 0 ? 1ull << li : 0;

		if (st->kind != kind)
			continue;
		t->n[0].ns += st->ns;
		t->n[0].locks |= bit;
		for (int k = -1; k < st->nframes && at >= 0; k++) {
			const struct sframe *f = k < 0 ? NULL : &ss->frames[st->frames[k]];

			at = f ? child_of(t, at, f->func, f->inlined)
			       : child_of(t, at, st->thread, false);
			if (at >= 0) {
				t->n[at].ns += st->ns;
				t->n[at].locks |= bit;
			}
		}
	}
	return 0;
}

struct draw {
	FILE *f;
	const struct ftree *t;
	double w, h;
	uint64_t total;
};

static const char *colour_of(const char *name, bool inlined, char *buf, size_t n)
{
	unsigned h = 2166136261u;

	for (const char *c = name; *c; c++)
		h = (h ^ (unsigned char)*c) * 16777619u;
	if (inlined)
		snprintf(buf, n, "rgb(%u,%u,%u)", 60 + h % 40, 190 + (h >> 8) % 40,
			 190 + (h >> 16) % 40);
	else if (strstr(name, "_[k]"))
		snprintf(buf, n, "rgb(%u,%u,%u)", 200 + h % 40, 120 + (h >> 8) % 50, 40);
	else
		snprintf(buf, n, "rgb(%u,%u,%u)", 215 + h % 40, 80 + (h >> 8) % 110, (h >> 16) % 55);
	return buf;
}

static void locks_attr(FILE *f, uint64_t locks)
{
	const char *sep = "";

	fputs(" data-l=\"", f);
	for (int i = 0; i < 64; i++)
		if (locks >> i & 1) {
			fprintf(f, "%s%d", sep, i);
			sep = " ";
		}
	fputc('"', f);
}

/* One frame and, above it, its callees, widest first as they were added. */
static void draw_node(const struct draw *d, int i, double x, int depth)
{
	const struct fnode *n = &d->t->n[i];
	double w = d->w * (double)n->ns / (double)d->total, cx = x;
	double y = d->h - (depth + 1) * ROW_H;
	char c[32], ns[32], pct[32];
	int fit = (int)((w - 6) / CHAR_W);

	if ((double)n->ns < MIN_SHARE * (double)d->total || y < 0)
		return;
	fprintf(d->f, "<g class=\"fl\" data-x=\"%.2f\" data-w=\"%.2f\" data-d=\"%d\"", x, w, depth);
	locks_attr(d->f, n->locks);
	fputs(" data-n=\"", d->f);
	html_esc(d->f, n->name);
	fputs("\"><title>", d->f);
	html_esc(d->f, n->name);
	fputs(n->inlined ? " (inlined)" : "", d->f);
	fprintf(d->f, " - %s (%s)</title><rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" "
		"fill=\"%s\" rx=\"2\"/>", units_ns(ns, sizeof(ns), (double)n->ns),
		units_pct(pct, sizeof(pct), (double)n->ns / (double)d->total), x, y, w, ROW_H - 1,
		colour_of(n->name, n->inlined, c, sizeof(c)));
	fprintf(d->f, "<text x=\"%.2f\" y=\"%.1f\">", x + 3, y + ROW_H - 5);
	if (fit >= 3 && strlen(n->name) <= (size_t)fit) {
		html_esc(d->f, n->name);
	} else if (fit >= 3) {
		char buf[256];

		snprintf(buf, sizeof(buf), "%.*s..", fit - 2 < 250 ? fit - 2 : 250, n->name);
		html_esc(d->f, buf);
	}
	fputs("</text></g>\n", d->f);
	for (int k = n->child; k >= 0; k = d->t->n[k].next) {
		draw_node(d, k, cx, depth + 1);
		cx += d->w * (double)d->t->n[k].ns / (double)d->total;
	}
}

static int tree_depth(const struct ftree *t, int i)
{
	int best = 0;

	for (int k = t->n[i].child; k >= 0; k = t->n[k].next) {
		int d = tree_depth(t, k);

		best = d > best ? d : best;
	}
	return best + 1;
}

/* Zoom: a clicked frame fills the width, its callers span it, the rest
 * hides; the root resets. A lock link lights its stacks up. */
static const char flame_js[] =
	"<script>(function(){\n"
	"function fit(g,x,w){var r=g.querySelector('rect'),t=g.querySelector('text'),"
	"n=g.getAttribute('data-n'),c=Math.floor((w-6)/6.6);"
	"r.setAttribute('x',x);r.setAttribute('width',Math.max(w,0));t.setAttribute('x',x+3);"
	"t.textContent=c<3?'':n.length<=c?n:n.slice(0,c-2)+'..';"
	"g.style.display=w<0.5?'none':'';}\n"
	"function zoom(svg,g){var W=+svg.getAttribute('data-w'),x0=+g.getAttribute('data-x'),"
	"w0=+g.getAttribute('data-w'),d0=+g.getAttribute('data-d');"
	"svg.querySelectorAll('g.fl').forEach(function(e){var x=+e.getAttribute('data-x'),"
	"w=+e.getAttribute('data-w'),d=+e.getAttribute('data-d');"
	"if(d<d0){fit(e,x<=x0+0.01&&x+w>=x0+w0-0.01?0:-1,x<=x0+0.01&&x+w>=x0+w0-0.01?W:-1);"
	"e.style.opacity=0.6;return;}e.style.opacity='';"
	"if(x+w<=x0+0.001||x>=x0+w0-0.001){fit(e,0,-1);return;}"
	"fit(e,(x-x0)*W/w0,w*W/w0);});}\n"
	"document.querySelectorAll('svg.flame').forEach(function(svg){"
	"svg.addEventListener('click',function(ev){var g=ev.target.closest('g.fl');"
	"if(g)zoom(svg,g);});});\n"
	"document.querySelectorAll('a.stacks').forEach(function(a){"
	"a.addEventListener('click',function(){var l=a.getAttribute('data-lock');"
	"document.querySelectorAll('svg.flame g.fl').forEach(function(e){"
	"var on=(' '+e.getAttribute('data-l')+' ').indexOf(' '+l+' ')>=0;"
	"e.querySelector('rect').style.stroke=on?'#1d232b':'';"
	"e.querySelector('rect').style.strokeWidth=on?'1.5':'';"
	"e.style.opacity=on?'':'0.35';});});});\n"
	"})();</script>\n";

static void flame_svg(FILE *f, const struct session *s, enum stack_kind kind, double w)
{
	struct ftree t = { 0 };
	struct draw d = { .f = f, .t = &t, .w = w };
	char total[32];

	if (build(&t, s, kind) || !t.n[0].ns) {
		free(t.n);
		return;
	}
	d.total = t.n[0].ns;
	d.h = ROW_H * (double)(tree_depth(&t, 0) > 60 ? 60 : tree_depth(&t, 0));
	fprintf(f, "<h3>%s: %s</h3>\n", kind == STK_CPU ? "On CPU" : "Waiting",
		units_ns(total, sizeof(total), (double)d.total));
	fprintf(f, "<svg class=\"chart flame\" id=\"flame-%s\" data-w=\"%.0f\" width=\"%.0f\" "
		"height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"monospace\" "
		"font-size=\"11\" role=\"img\">\n", stacks_kind_name(kind), w, w, d.h, w, d.h);
	draw_node(&d, 0, 0, 0);
	fputs("</svg>\n", f);
	free(t.n);
}

void html_flame_section(FILE *f, const struct session *s, double w)
{
	if (!s->stacks.n)
		return;
	fputs("<h2 id=\"flame\">Flame graphs</h2>\n<p class=\"note\">Each frame is as wide as "
	      "the time spent under it; the root is at the bottom, the thread's name above it. "
	      "Click a frame to zoom, the root to reset; a lock's \"stacks\" link above lights "
	      "its stacks up. Scaling: ", f);
	html_esc(f, STACKS_SCALING);
	fputs(".</p>\n", f);
	flame_svg(f, s, STK_WAIT, w);
	flame_svg(f, s, STK_CPU, w);
	fputs(flame_js, f);
}

int html_lock_stacks(const struct session *s, const char *lock)
{
	int n = 0;

	for (int i = 0; i < s->stacks.n; i++)
		n += s->stacks.stacks[i].kind == STK_WAIT && !strcmp(s->stacks.stacks[i].lock, lock);
	return n;
}
