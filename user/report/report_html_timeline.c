/*
 * report_html_timeline.c - the run page's --timeline section: one SVG
 * swimlane per thread over the recorded window, coloured by state, the
 * lock hand-offs drawn from the holder that released the lock (a
 * triangle on its lane) to the waiter it woke, each lane's shares
 * beside it and the window's convoy figures under it.
 *
 * A lane is drawn per pixel column, in the state that filled most of the
 * column (20 ms over ~740 px is 27 µs a column, longer than most
 * syscalls): the page stays small whatever the event rate, and
 * Perfetto (--timeline-out) has every interval.
 */
#include <stdlib.h>
#include <string.h>
#include "report/html.h"
#include "report/report.h"
#include "report/report_html_int.h"
#include "base/units.h"

#define LABEL_W	150.0
#define AGG_W	250.0
#define LANE_H	18.0
#define LANE_GAP 6.0
#define TOP	26.0
#define BOTTOM	8.0

/* the account's colours (report_html.c), state by state */
static const char *const state_colours[TL_NSTATES] = {
	"#4c9f38", "#2f74c0", "#d62728", "#f08c00", "#e8b923", "#8e5ea2",
};
static const char *const state_short[TL_NSTATES] = {
	"user", "sys", "lock", "futex", "runq", "blocked",
};

struct lanes {
	const struct timeline *tl;
	double x0, w;		/* the plotting area, px */
	double ns_per_px;
	int cols;
};

static double lane_y(int i)
{
	return TOP + i * (LANE_H + LANE_GAP);
}

static double px(const struct lanes *L, uint64_t ns)
{
	return L->x0 + (double)(ns - L->tl->begin_ns) / L->ns_per_px;
}

/* Spread the intervals of lane tid over the columns: ns per state. */
static void bin_lane(const struct lanes *L, uint32_t tid, double (*acc)[TL_NSTATES])
{
	const struct timeline *tl = L->tl;

	for (size_t k = 0; k < tl->niv; k++) {
		const struct tl_interval *v = &tl->iv[k];
		double a, b;

		if (v->tid != tid)
			continue;
		a = (double)(v->start_ns - tl->begin_ns) / L->ns_per_px;
		b = (double)(v->end_ns - tl->begin_ns) / L->ns_per_px;
		for (int c = (int)a; c < L->cols && c < b; c++)
			acc[c][v->state] += (b < c + 1 ? b : c + 1) - (a > c ? a : c);
	}
}

/* The state that filled most of column c, or -1 (outside the lane). */
static int col_state(double (*acc)[TL_NSTATES], int c)
{
	int best = -1;

	for (int s = 0; s < TL_NSTATES; s++)
		if (acc[c][s] > 1e-9 && (best < 0 || acc[c][s] > acc[c][best]))
			best = s;
	return best;
}

/* Runs of columns in one state, one rect each, with a tooltip. */
static void draw_lane(FILE *f, const struct lanes *L, int lane, double (*acc)[TL_NSTATES])
{
	char d[32];

	for (int c = 0, run; c < L->cols; c = run) {
		int st = col_state(acc, c);

		for (run = c + 1; run < L->cols && col_state(acc, run) == st; run++)
			;
		if (st < 0)
			continue;
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%.0f\" fill=\"%s\">"
			"<title>%s, %s</title></rect>\n", L->x0 + c, lane_y(lane), run - c, LANE_H,
			state_colours[st], tl_state_name(st),
			units_ns(d, sizeof(d), (run - c) * L->ns_per_px));
	}
}

/* Beside a lane: its three largest shares of the window. */
static void lane_shares(FILE *f, const struct lanes *L, int lane)
{
	const struct tl_thread *t = &L->tl->threads[lane];
	uint64_t total = 0;
	bool used[TL_NSTATES] = { false };

	for (int s = 0; s < TL_NSTATES; s++)
		total += t->state_ns[s];
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"tl-agg\">", L->x0 + L->w + 8,
		lane_y(lane) + LANE_H - 5);
	for (int k = 0; k < 3 && total; k++) {
		int best = -1;

		for (int s = 0; s < TL_NSTATES; s++)
			if (!used[s] && (best < 0 || t->state_ns[s] > t->state_ns[best]))
				best = s;
		used[best] = true;
		if (t->state_ns[best])
			fprintf(f, "%s%s %.0f %%", k ? " · " : "", state_short[best],
				100.0 * (double)t->state_ns[best] / (double)total);
	}
	fputs("</text>\n", f);
}

static int lane_of(const struct timeline *tl, uint32_t tid)
{
	const struct tl_thread *t = timeline_thread(tl, tid);

	return t ? (int)(t - tl->threads) : -1;
}

/* A hand-off: a triangle on the holder's lane where its futex wake
 * released the lock, a line to the waiter it woke, an arrowhead there. */
static void draw_handoff(FILE *f, const struct session *s, const struct lanes *L,
			 const struct tl_wake *w)
{
	int from = lane_of(L->tl, w->waker), to = lane_of(L->tl, w->wakee);
	double x = px(L, w->ts), y0, y1, dir;
	char a[64], b[64], t[32];

	if (from < 0 || to < 0 || from == to)
		return;
	dir = to > from ? 1 : -1;
	y0 = lane_y(from) + (dir > 0 ? LANE_H : 0);
	y1 = lane_y(to) + (dir > 0 ? 0 : LANE_H);
	/* the lane and lock names are the target's: escaped, each of them */
	fputs("<g class=\"tl-handoff\"><title>", f);
	html_esc(f, report_lane_name(s, w->waker, a, sizeof(a)));
	fputs(" released ", f);
	html_esc(f, w->lock >= 0 ? L->tl->locks[w->lock].name : "the futex");
	fprintf(f, " at %s and woke ", units_ns(t, sizeof(t), (double)(w->ts - L->tl->begin_ns)));
	html_esc(f, report_lane_name(s, w->wakee, b, sizeof(b)));
	fputs("</title>", f);
	fprintf(f, "<path d=\"M%.1f %.1f l-3 %.0f h6 z\"/>", x, y0, -dir * 5);
	fprintf(f, "<polyline points=\"%.1f,%.1f %.1f,%.1f\"/>", x, y0, x, y1 - dir * 4);
	fprintf(f, "<path d=\"M%.1f %.1f l-2.5 %.0f h5 z\"/></g>\n", x, y1, -dir * 4);
}

/* Ticks along the top, in ms from the window's start. */
static void time_axis(FILE *f, const struct lanes *L, double height)
{
	double span_ms = L->w * L->ns_per_px / 1e6, step = 1;

	while (span_ms / step > 10)
		step *= step == 1 || step == 10 || step == 100 ? 2 : 2.5;
	for (double ms = 0; ms <= span_ms + 1e-9; ms += step) {
		double x = L->x0 + ms * 1e6 / L->ns_per_px;

		fprintf(f, "<polyline points=\"%.1f,%.1f %.1f,%.1f\" stroke=\"#dde\" "
			"fill=\"none\"/><text x=\"%.1f\" y=\"%.1f\" class=\"tl-tick\">%g ms</text>\n",
			x, TOP - 4, x, height - BOTTOM, x, TOP - 8, ms);
	}
}

static void lane_labels(FILE *f, const struct session *s, const struct lanes *L)
{
	char name[64];

	for (int i = 0; i < L->tl->nthreads; i++) {
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"tl-lane\">", L->x0 - 8,
			lane_y(i) + LANE_H - 5);
		html_esc(f, report_lane_name(s, L->tl->threads[i].tid, name, sizeof(name)));
		fputs("</text>\n", f);
	}
}

static void swimlanes(FILE *f, const struct session *s, double w)
{
	const struct timeline *tl = s->timeline;
	struct lanes L = { .tl = tl, .x0 = LABEL_W, .w = w - LABEL_W - AGG_W };
	double height = lane_y(tl->nthreads) - LANE_GAP + BOTTOM;
	double (*acc)[TL_NSTATES];

	L.cols = (int)L.w;
	L.ns_per_px = (double)(tl->end_ns - tl->begin_ns) / L.w;
	acc = calloc(L.cols, sizeof(*acc));
	if (!acc)
		return;
	fprintf(f, "<svg class=\"chart\" id=\"timeline\" width=\"%.0f\" height=\"%.0f\" "
		"viewBox=\"0 0 %.0f %.0f\" role=\"img\">\n", w, height, w, height);
	time_axis(f, &L, height);
	lane_labels(f, s, &L);
	for (int i = 0; i < tl->nthreads; i++) {
		memset(acc, 0, L.cols * sizeof(*acc));
		bin_lane(&L, tl->threads[i].tid, acc);
		draw_lane(f, &L, i, acc);
		lane_shares(f, &L, i);
	}
	for (size_t k = 0; k < tl->nwakes; k++)
		if (tl->wakes[k].handoff)
			draw_handoff(f, s, &L, &tl->wakes[k]);
	fputs("</svg>\n", f);
	free(acc);
}

/* The wakee's run-queue wait right after wake w, or 0. */
static uint64_t runq_after(const struct timeline *tl, const struct tl_wake *w)
{
	for (size_t k = 0; k < tl->niv; k++)
		if (tl->iv[k].tid == w->wakee && tl->iv[k].start_ns == w->ts &&
		    tl->iv[k].state == TL_RUNNABLE)
			return tl->iv[k].end_ns - tl->iv[k].start_ns;
	return 0;
}

struct convoy {
	uint64_t handoffs, runq_ns;	/* hand-offs, the wakees' run-queue waits after them */
	uint64_t sleeps, sleep_ns;	/* lock sleeps a wakeup ended */
	int lock;			/* the lock most hand-offs were of, or -1 */
};

static struct convoy convoy_of(const struct timeline *tl)
{
	struct convoy c = { .lock = -1 };

	for (size_t k = 0; k < tl->nwakes; k++) {
		if (!tl->wakes[k].handoff)
			continue;
		c.handoffs++;
		c.runq_ns += runq_after(tl, &tl->wakes[k]);
		if (tl->wakes[k].lock >= 0)
			c.lock = tl->wakes[k].lock;
	}
	for (size_t k = 0; k < tl->niv; k++)
		if (tl->iv[k].state == TL_LOCK && tl->iv[k].woken_by) {
			c.sleeps++;
			c.sleep_ns += tl->iv[k].end_ns - tl->iv[k].start_ns;
		}
	return c;
}

/* The run's own figure for the same lock, from the aggregates. */
static const struct lock_total *run_lock(const struct joined_run *m, const char *name)
{
	for (int i = 0; i < m->nlocks; i++)
		if (!m->locks[i].kernel && !strcmp(m->locks[i].name, name))
			return &m->locks[i];
	return NULL;
}

static void convoy_text(FILE *f, const struct session *s)
{
	const struct timeline *tl = s->timeline;
	struct convoy c = convoy_of(tl);
	const struct lock_total *lt = c.lock >= 0 ? run_lock(&s->joined, tl->locks[c.lock].name) : NULL;
	char a[32], b[32], d[32];

	fprintf(f, "<p class=\"tl-figures\">In this window: <b>%llu</b> lock hand-offs",
		(unsigned long long)c.handoffs);
	if (c.handoffs)
		fprintf(f, "; after each, the woken waiter waited <b>%s</b> on average for a CPU",
			units_ns(a, sizeof(a), (double)c.runq_ns / (double)c.handoffs));
	if (c.sleeps)
		fprintf(f, "; a lock sleep lasted <b>%s</b> on average (%llu ended here)",
			units_ns(b, sizeof(b), (double)c.sleep_ns / (double)c.sleeps),
			(unsigned long long)c.sleeps);
	if (lt && lt->waits) {
		fputs(". Over the whole run each wait on ", f);
		html_esc(f, lt->name);
		fprintf(f, " lasted <b>%s</b> (%s waits)", units_ns(d, sizeof(d),
			(double)lt->wait_ns / (double)lt->waits), units_count(a, sizeof(a),
			(double)lt->waits));
	}
	fprintf(f, ". Records: %llu, dropped: <b%s>%llu</b>.</p>\n",
		(unsigned long long)tl->events, tl->dropped ? " style=\"color:#b00020\"" : "",
		(unsigned long long)tl->dropped);
}

static void timeline_intro(FILE *f, const struct session *s)
{
	const struct timeline *tl = s->timeline;
	uint64_t from = s->joined.start_ns && s->joined.start_ns <= tl->begin_ns ?
			tl->begin_ns - s->joined.start_ns : 0;
	char a[32], b[32];

	fputs("<h2>Timeline</h2>\n", f);
	fprintf(f, "<p>Every thread's state over <b>%s</b>, from %s into the run: one lane per "
		"thread, each pixel in the state that filled most of it. A triangle marks a lock "
		"holder's futex wake (it released the lock); the line goes to the waiter it woke. "
		"Every interval is in <code>--timeline-out</code> (Perfetto).</p>\n",
		units_ns(a, sizeof(a), (double)(tl->end_ns - tl->begin_ns)),
		units_ns(b, sizeof(b), (double)from));
}

void html_timeline_section(FILE *f, const struct session *s, double w)
{
	const char *names[TL_NSTATES];

	if (!s->timeline)
		return;
	timeline_intro(f, s);
	if (s->timeline->end_ns == s->timeline->begin_ns) {
		fputs("<p>Nothing was recorded: the run ended before the window opened "
		      "(see <code>--timeline-start</code>).</p>\n", f);
		return;
	}
	if (!s->timeline->nthreads) {	/* e.g. every thread waited for a CPU throughout */
		fputs("<p>No thread changed state in the window.</p>\n", f);
		return;
	}
	for (int i = 0; i < TL_NSTATES; i++)
		names[i] = i == TL_SYSCALL ? "syscall (on CPU)" : i == TL_USER ?
			   "user (on CPU)" : tl_state_name(i);
	html_legend(f, names, state_colours, TL_NSTATES);
	swimlanes(f, s, w);
	convoy_text(f, s);
}
