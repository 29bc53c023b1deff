/*
 * report_html.c - a run as one self-contained HTML page: inline SVG charts
 * and CSS, the same figures as the terminal report and the same "Why"
 * text (why_print, captured), every string escaped. The compare and
 * sweep pages are in report_html_compare.c and report_html_sweep.c, the
 * markup helpers in html.c, the chart primitives in svg.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "base/hist.h"
#include "report/html.h"
#include "base/outfile.h"
#include "report/report.h"
#include "report/why.h"
#include "report/report_html_int.h"
#include "report/svg.h"
#include "base/units.h"


/* The kernel account's buckets, then what it did not account for. */
static const char *const acct_colours[ACCT_N + 1] = {
	"#4c9f38", "#2f74c0", "#d62728", "#f08c00", "#8e5ea2", "#e8b923", "#ced4da",
};
static const char *const acct_labels[ACCT_N + 1] = {
	"on CPU, user", "on CPU, syscalls", "waiting on locks",
	"other futex waits", "blocked (I/O, other)", "waiting for a CPU", "not accounted",
};

/* The threads' own clocks, when there is no kernel account. */
#define CLK_N 6
static const char *const clock_colours[CLK_N] = {
	"#d62728", "#ff9896", "#2f74c0", "#9467bd", "#8c564b", "#ced4da",
};
static const char *const clock_labels[CLK_N] = {
	"waiting for the lock", "holding the lock", "reading data",
	"cache lookups (beyond the lock)", "reading missed blocks", "rest (user work, other)",
};

const char *const wl_colours[NCOLOURS] = {
	"#1f6fb4", "#d9480f", "#2b8a3e", "#7048e8", "#c2255c", "#0b7285", "#e67700", "#495057",
};

/* "42 %": a whole-percent label, also an axis tick formatter */
char *html_pct0(char *buf, size_t n, double ratio)
{
	snprintf(buf, n, "%.0f %%", ratio * 100);
	return buf;
}

static uint64_t thread_wall(const struct thread_row *r)
{
	return r->end_ns - r->start_ns;
}

static bool has_account(const struct session *s)
{
	return s->traced && (s->joined.groups & PG_MASK(PG_SCHED));
}

/* ---- run: header ---------------------------------------------------- */

static void fact(FILE *f, const char *name, const char *value)
{
	fputs("<span>", f);
	html_esc(f, name);
	fputs(" <b>", f);
	html_esc(f, value);
	fputs("</b></span>", f);
}

static void totals_facts(FILE *f, const struct subject_totals *t)
{
	char a[32], b[32];
	uint64_t gets = t->hits + t->misses;

	if (!t->has_pool && !t->has_cache)
		return;
	fact(f, t->has_pool ? "pool hits" : "cache hits", units_count(a, sizeof(a), (double)t->hits));
	fact(f, "hit ratio", units_pct(b, sizeof(b), gets ? (double)t->hits / gets : 0));
	fact(f, "misses", units_count(a, sizeof(a), (double)t->misses));
	fact(f, "evictions", units_count(a, sizeof(a), (double)t->evictions));
	if (t->has_pool) {
		fact(f, "most open at once", units_count(a, sizeof(a), (double)t->max_open));
		fact(f, "over capacity", units_count(b, sizeof(b), (double)t->over_capacity));
	} else {
		fact(f, "cached", units_bytes(a, sizeof(a), (double)t->cache_bytes));
	}
}

static void run_header(FILE *f, const struct session *s)
{
	const struct joined_run *m = &s->joined;
	const char *cost = probe_set_cost(m->probe_set);
	char a[32], probes[64];

	fputs("<div class=\"facts\">", f);
	fact(f, "wall", units_ns(a, sizeof(a), (double)m->wall_ns));
	fact(f, "ops", units_count(a, sizeof(a), (double)m->ops));
	fact(f, "ops/s", units_count(a, sizeof(a), m->wall_ns ? m->ops * 1e9 / m->wall_ns : 0));
	fact(f, "CPUs", units_count(a, sizeof(a), m->ncpus));
	snprintf(probes, sizeof(probes), "%s%s%s%s",
		 m->probe_set ? m->probe_set : "none", cost ? " (expected " : "",
		 cost ? cost : "", cost ? ")" : "");
	fact(f, "probes", probes);
	if (s->traced)
		fact(f, "loaded in", units_ns(a, sizeof(a), (double)s->prepare_ns));
	totals_facts(f, &s->timings.totals);
	fputs("</div>\n", f);
	if (s->interrupted)
		fputs("<p class=\"note\">Interrupted: these are partial results.</p>\n", f);
}

/* ---- run: where each thread's time went ------------------------------ */

/* Shares of the thread's wall time; the last one is what is left over. */
static void account_shares(const struct thread_row *r, double *sh)
{
	double wall = (double)thread_wall(r), sum = 0;

	for (int b = 0; b < ACCT_N; b++)
		sum += sh[b] = wall ? r->acct_ns[b] / wall : 0;
	for (int b = 0; sum > 1 && b < ACCT_N; b++)	/* over-counted: fit the bar */
		sh[b] /= sum;
	sh[ACCT_N] = sum < 1 ? 1 - sum : 0;
}

/* The own clocks overlap for caches (lookup_ns includes the lock): take
 * the lock out of it, and scale down if the parts still exceed the wall. */
static void clock_shares(const struct thread_row *r, double *sh)
{
	const struct thread_timings *u = row_own(r);
	double wall = (double)(r->end_ns - r->start_ns), sum = 0;
	double lock = (double)u->lock_wait_ns + (double)u->lock_hold_ns;
	double v[CLK_N - 1] = { (double)u->lock_wait_ns, (double)u->lock_hold_ns,
				(double)u->read_ns, u->lookup_ns > lock ? u->lookup_ns - lock : 0,
				(double)u->miss_read_ns };

	for (int i = 0; i < CLK_N - 1; i++)
		sum += v[i];
	for (int i = 0; i < CLK_N - 1; i++)
		sh[i] = wall ? v[i] / (sum > wall ? sum : wall) : 0;
	sh[CLK_N - 1] = wall && sum < wall ? 1 - sum / wall : 0;
}

static void bar_tips(char tips[][96], const char *const *labels, const double *sh,
		     int n, double wall, const char **out)
{
	char t[32], p[32];

	for (int i = 0; i < n; i++) {
		snprintf(tips[i], 96, "%s: %s (%s)", labels[i], units_ns(t, sizeof(t), sh[i] * wall),
			 units_pct(p, sizeof(p), sh[i]));
		out[i] = tips[i];
	}
}

#define ROW_H	18
#define ROW_GAP	6
#define LABEL_W	84

/* One stacked bar per thread, as shares of that thread's own wall time. */
static void thread_bars(FILE *f, const struct joined_run *m, double w, bool kernel)
{
	double bar_w = w - LABEL_W - 64, h = 40 + m->nrows * (ROW_H + ROW_GAP);
	int n = kernel ? ACCT_N + 1 : CLK_N;

	fprintf(f, "<svg class=\"chart\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		"role=\"img\" aria-label=\"time per thread\">\n", w, h, w, h);
	for (int q = 0; q <= 4; q++) {
		double x = LABEL_W + bar_w * q / 4;

		fprintf(f, "<line x1=\"%.1f\" y1=\"14\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#e3e7eb\"/>"
			"<text x=\"%.1f\" y=\"11\" text-anchor=\"middle\">%d %%</text>\n",
			x, x, h - 20, x, q * 25);
	}
	for (unsigned i = 0; i < m->nrows; i++) {
		const struct thread_row *r = &m->rows[i];
		double sh[ACCT_N + 1] = { 0 }, y = 20 + i * (ROW_H + ROW_GAP);
		char tips[ACCT_N + 1][96], pct[32];
		const char *tp[ACCT_N + 1];

		if (kernel)
			account_shares(r, sh);
		else
			clock_shares(r, sh);
		bar_tips(tips, kernel ? acct_labels : clock_labels, sh, n, (double)thread_wall(r), tp);
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">tid %d</text>\n",
			LABEL_W - 6, y + 13, (int)r->tid);
		svg_hstack(f, LABEL_W, y, bar_w, ROW_H, sh, kernel ? acct_colours : clock_colours, tp, n);
		if (kernel)
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", LABEL_W + bar_w + 6, y + 13,
				r->has_kernel ? units_pct(pct, sizeof(pct), r->accounted_ratio) : "no account");
	}
	fprintf(f, "<text x=\"%d\" y=\"%.0f\">share of each thread's wall time%s</text>\n</svg>\n",
		LABEL_W, h - 4, kernel ? "; right: accounted" : "");
}

static void time_section(FILE *f, const struct session *s, double w)
{
	bool kernel = has_account(s);
	const char *how = join_cpu_split(&s->joined);

	fputs("<h2>Where each thread's time went</h2>\n", f);
	if (!s->traced)
		fputs("<p class=\"note\">Timing only: there is no kernel view of this run (--no-bpf, "
		      "or the probes could not load). The bars are the threads' own clocks, not the "
		      "kernel's account.</p>\n", f);
	else if (!kernel)
		fputs("<p class=\"note\">The kernel's time account needs the sched probes (--probes "
		      "full or light): the bars are the threads' own clocks.</p>\n", f);
	else if (how && strcmp(how, "cpu-clock samples"))
		fprintf(f, "<p class=\"note\">User and sys: %s (%u of %u thread%s sampled by the "
			"cpu-clock; the others by their time inside syscalls, which leaves out the "
			"entry and exit, interrupts and page faults).</p>\n",
			how, s->joined.cpu_split_sampled, s->joined.cpu_split_rows,
			units_plural(s->joined.cpu_split_rows));
	html_legend(f, kernel ? acct_labels : clock_labels, kernel ? acct_colours : clock_colours,
		    kernel ? ACCT_N + 1 : CLK_N);
	thread_bars(f, &s->joined, w, kernel);
}

/* ---- run: latency ---------------------------------------------------- */

static char *slot_label(char *buf, size_t n, double slot)
{
	return units_ns(buf, n, ldexp(1, (int)slot));
}

static void latency_summary(FILE *f, const uint64_t *hist, uint64_t max)
{
	char a[32], b[32], c[32];

	fprintf(f, "<p>p50 &asymp; <b>%s</b>, p99 &asymp; <b>%s</b>, max <b>%s</b> (all threads; "
		"percentiles are the midpoints of buckets %u to a power of two)</p>\n",
		units_ns(a, sizeof(a), (double)hist_percentile(hist, OWN_HIST_SLOTS, 0.5, max)),
		units_ns(b, sizeof(b), (double)hist_percentile(hist, OWN_HIST_SLOTS, 0.99, max)),
		units_ns(c, sizeof(c), (double)max), FCT_HIST_SUB);
}

static void latency_bars(struct svg_plot *p, const uint64_t *hist, int lo, int hi)
{
	char tip[96], a[32], b[32];

	for (int i = lo; i <= hi; i++) {
		snprintf(tip, sizeof(tip), "%s to %s: %llu ops", units_ns(a, sizeof(a), ldexp(1, i)),
			 units_ns(b, sizeof(b), ldexp(1, i + 1)), (unsigned long long)hist[i]);
		svg_vbar(p, i - 0.4, i + 0.4, (double)hist[i], "#2f74c0", tip);
	}
}

/* the chart's bars: one per power of two of the op latencies' range */
#define LAT_POWERS	40

static void latency_section(FILE *f, const struct joined_run *m, double w)
{
	uint64_t hist[OWN_HIST_SLOTS] = { 0 }, pow2[LAT_POWERS], max = 0, top = 0;
	double ticks[LAT_POWERS];
	int lo = LAT_POWERS, hi = -1;
	struct svg_plot p;

	for (unsigned i = 0; i < m->nrows; i++) {
		for (int b = 0; b < OWN_HIST_SLOTS; b++)
			hist[b] += row_own(&m->rows[i])->lat_hist[b];
		if (row_own(&m->rows[i])->lat_max_ns > max)
			max = row_own(&m->rows[i])->lat_max_ns;
	}
	hist_fold_log2(hist, OWN_HIST_SLOTS, pow2, LAT_POWERS);
	for (int b = 0; b < LAT_POWERS; b++)
		if (pow2[b]) {
			lo = b < lo ? b : lo;
			hi = b;
			top = pow2[b] > top ? pow2[b] : top;
		}
	fputs("<h2>Operation latency</h2>\n", f);
	if (hi < 0) {
		fputs("<p>No operations were timed.</p>\n", f);
		return;
	}
	for (int b = lo; b <= hi; b++)
		ticks[b - lo] = b;
	svg_plot_init(&p, f, w, 260);
	p.x = (struct svg_axis){ lo - 0.6, hi + 0.6, "latency of one operation (log2 buckets, "
				 "lower bound)", slot_label, ticks, hi - lo + 1 };
	p.y = (struct svg_axis){ 0, (double)top, "operations", units_count, NULL, 0 };
	svg_plot_begin(&p, "Operation latency, all threads");
	latency_bars(&p, pow2, lo, hi);
	svg_plot_end(&p);
	latency_summary(f, hist, max);
}

/* ---- run: tables ----------------------------------------------------- */

static void syscall_section(FILE *f, const struct joined_run *m)
{
	char c[32], t[32], mean[32], mn[32], p99[32], mx[32], e[32];

	fputs("<h2>Syscalls (all workers)</h2>\n<table><tr><th>syscall</th><th>count</th>"
	      "<th>errors</th><th>total</th><th>mean</th><th>min</th><th>p99</th><th>max</th></tr>\n", f);
	for (int s = 0; s < SC_ROW_N; s++) {
		const struct sc_stats *st = &m->sc_total[s];

		if (!st->count)
			continue;
		fputs("<tr>", f);
		html_td(f, sc_row_name(s));
		html_td_num(f, units_count(c, sizeof(c), (double)st->count));
		html_td_num(f, units_count(e, sizeof(e), (double)st->errors));
		html_td_num(f, units_ns(t, sizeof(t), (double)st->total_ns));
		html_td_num(f, units_ns(mean, sizeof(mean), (double)st->total_ns / st->count));
		html_td_num(f, units_ns(mn, sizeof(mn), (double)st->min_ns));
		html_td_num(f, units_ns(p99, sizeof(p99), (double)hist32_percentile(st->hist,
			    FCT_HIST_SLOTS, 0.99, st->max_ns)));
		html_td_num(f, units_ns(mx, sizeof(mx), (double)st->max_ns));
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void share_cell(FILE *f, double share, const char *colour)
{
	char p[32];

	fputs("<td class=\"n\">", f);
	svg_share_bar(f, 80, 10, share, colour);
	fprintf(f, " %s</td>", units_pct(p, sizeof(p), share));
}

/* The lock's stacks in the flame graph: a link that lights them up. */
static void stacks_cell(FILE *f, const struct session *s, int i)
{
	int n = html_lock_stacks(s, s->joined.locks[i].name);

	if (!n) {
		html_td(f, "");
		return;
	}
	fprintf(f, "<td class=\"n\"><a class=\"stacks\" href=\"#flame\" data-lock=\"%d\">%d "
		"stack%s</a></td>", i, n, n == 1 ? "" : "s");
}

static void lock_row(FILE *f, const struct lock_total *l, uint64_t thread_wall_total)
{
	char w[32], t[32], mean[32], mx[32], th[32];

	fputs("<tr>", f);
	html_td(f, l->name);
	html_td(f, l->kernel ? "kernel" : "workload");
	html_td_num(f, units_count(th, sizeof(th), l->threads));
	html_td_num(f, units_count(w, sizeof(w), (double)l->waits));
	html_td_num(f, units_ns(t, sizeof(t), (double)l->wait_ns));
	html_td_num(f, units_ns(mean, sizeof(mean), l->waits ? (double)l->wait_ns / l->waits : 0));
	html_td_num(f, units_ns(mx, sizeof(mx), (double)l->max_ns));
	share_cell(f, thread_wall_total ? (double)l->wait_ns / thread_wall_total : 0,
		   acct_colours[ACCT_LOCK_NAMED]);
}

static void lock_section(FILE *f, const struct session *s)
{
	const struct joined_run *m = &s->joined;

	fputs("<h2>Lock waits</h2>\n", f);
	if (!m->nlocks) {
		fputs("<p>No waits on the workload's locks or on kernel locks.</p>\n", f);
		return;
	}
	fprintf(f, "<table><tr><th>lock</th><th>kind</th><th>threads</th><th>waits</th>"
		"<th>total</th><th>mean</th><th>max</th><th>share of thread time</th>%s</tr>\n",
		s->stacks.n ? "<th>flame graph</th>" : "");
	for (int i = 0; i < m->nlocks; i++) {
		lock_row(f, &m->locks[i], m->thread_wall_total_ns);
		if (s->stacks.n)
			stacks_cell(f, s, i);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	if (m->klock_exact_ns)
		fprintf(f, "<p class=\"note\">Kernel lock sites: each thread's exact wait time and "
			"count, split over its sites by its sampled stacks (the samples alone "
			"estimated %.1f %% of the exact time).</p>\n",
			100.0 * m->klock_est_ns / m->klock_exact_ns);
}

static void pagecache_section(FILE *f, const struct joined_run *m)
{
	char line[320];

	fputs("<h2>Page cache</h2>\n", f);
	if (!(m->groups & PG_MASK(PG_PAGECACHE))) {
		fputs("<p>Not measured: the pagecache probe was not in the set.</p>\n", f);
		return;
	}
	report_pagecache_text(line, sizeof(line), m);
	fprintf(f, "<p>%s.</p>\n", line);	/* numbers and words only: nothing to escape */
}

static void lost_row(FILE *f, const char *name, uint64_t v)
{
	char c[32];

	fputs(v ? "<tr style=\"color:#b00020\">" : "<tr>", f);
	html_td(f, name);
	html_td_num(f, units_count(c, sizeof(c), (double)v));
	fputs("</tr>", f);
}

static void probes_section(FILE *f, const struct session *s)
{
	const struct fct_lost *l = &s->kv.lost;

	fputs("<h2>Probes and lost events</h2>\n", f);
	if (!s->traced) {
		fputs("<p>None: timing only.</p>\n", f);
		return;
	}
	fputs("<div class=\"cols\"><div><table><tr><th>program</th><th>status</th></tr>\n", f);
	for (int i = 0; i < s->kv.nprobes; i++) {
		fputs(s->kv.probes[i].state == PROBE_OK ? "<tr>" : "<tr style=\"color:#6a737d\">", f);
		html_td(f, s->kv.probes[i].name);
		html_td(f, probe_status_text(&s->kv.probes[i]));
		fputs("</tr>\n", f);
	}
	fputs("</table></div><div><table><tr><th>lost</th><th>count</th></tr>\n", f);
	lost_row(f, "no free thread slot", l->slot_full);
	lost_row(f, "process table full (--follow)", l->tgids_full);
	lost_row(f, "futex map full", l->futex_map_full);
	lost_row(f, "kernel-lock map full", l->klock_map_full);
	lost_row(f, "page-cache map full", l->pc_map_full);
	lost_row(f, "page-cache removal tables full", l->pc_evict_full);
	lost_row(f, "syscall histogram table full", l->sc_hist_full);
	lost_row(f, "spilled syscall numbers' table full", l->nr_spill_full);
	lost_row(f, "wakers' table full", l->wake_after_full);
	lost_row(f, "pools' table full", l->pool_full);
	lost_row(f, "flame graph stacks dropped", l->flame_stack_drops);
	lost_row(f, "stacks lost", l->stack_lost);
	if (s->kv.tl.on)
		lost_row(f, "timeline records dropped", s->kv.tl.dropped);
	fputs("</table></div></div>\n", f);
}

static void own_clocks_section(FILE *f, const struct joined_run *m)
{
	char b[9][32];

	fputs("<h2>Threads' own clocks</h2>\n<table><tr><th>tid</th><th>ops</th><th>wall</th>"
	      "<th>lock wait</th><th>lock hold</th><th>read</th><th>lookup</th><th>miss read</th>"
	      "<th>p50</th><th>p99</th></tr>\n", f);
	for (unsigned i = 0; i < m->nrows; i++) {
		const struct thread_row *r = &m->rows[i];
		const struct thread_timings *u = row_own(r);
		double v[] = { (double)u->ops, (double)(r->end_ns - r->start_ns),
			(double)u->lock_wait_ns, (double)u->lock_hold_ns, (double)u->read_ns,
			(double)u->lookup_ns, (double)u->miss_read_ns,
			(double)hist_percentile(u->lat_hist, OWN_HIST_SLOTS, 0.5, u->lat_max_ns),
			(double)hist_percentile(u->lat_hist, OWN_HIST_SLOTS, 0.99, u->lat_max_ns) };

		fprintf(f, "<tr><td>%d</td>", (int)r->tid);
		for (int c = 0; c < 9; c++)
			html_td_num(f, c ? units_ns(b[c], 32, v[c]) : units_count(b[c], 32, v[c]));
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* ---- run: why -------------------------------------------------------- */

/* why_print's text, for a <pre>; NULL if memory ran out. */
static char *why_text(const struct session *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	if (!mem)
		return NULL;
	why_print(mem, &s->diag);
	fclose(mem);
	return text;
}

static void causes_table(FILE *f, const struct diagnosis *d)
{
	char c[32];

	fputs("<table><tr><th>#</th><th>cause</th><th>share of thread time (or as "
	      "said)</th><th>confidence</th><th>what was measured</th></tr>\n", f);
	for (int i = 0; i < d->n; i++) {
		/* under the confidence floor: listed, as the text's "Also seen", not numbered */
		if (d->causes[i].ranked)
			fprintf(f, "<tr><td>%d</td>", i + 1);
		else
			fputs("<tr><td>also seen</td>", f);
		html_td(f, d->causes[i].cause);
		share_cell(f, d->causes[i].share, i ? "#f08c00" : "#d62728");
		html_td_num(f, html_pct0(c, sizeof(c), d->causes[i].confidence));
		html_td(f, d->causes[i].title);
		fputs("</tr>\n", f);
		if (d->causes[i].share_of[0] && strcmp(d->causes[i].share_of, "thread time")) {
			/* a saved run's text: escaped like every other */
			fputs("<tr><td></td><td colspan=\"4\">the share is of ", f);
			html_esc(f, d->causes[i].share_of);
			fputs("</td></tr>\n", f);
		}
	}
	fputs("</table>\n", f);
}

static void why_section(FILE *f, const struct session *s)
{
	char *text = why_text(s);

	fputs("<h2>Why</h2>\n", f);
	if (s->diag.n) {
		fputs("<p><b>", f);
		html_esc(f, s->diag.headline);
		fputs("</b></p>\n", f);
		causes_table(f, &s->diag);
	}
	html_pre(f, "why", text ? text : "(the explanation could not be captured: out of memory)");
	free(text);
}

/* Everything about one run below its title: full page or one column. */
/* What the probes lost, first, as the terminal report says it. */
static void losses_banner(FILE *f, const struct joined_run *m)
{
	for (int i = 0; i < m->losses.n; i++) {
		const struct loss *l = &m->losses.l[i];

		fputs("<p style=\"color:#b00020\"><b>Lost:</b> ", f);
		html_esc(f, l->says);
		for (int k = 0; k < l->ntouches; k++) {
			fputs(k ? ", " : " (touches: ", f);
			html_esc(f, l->touches[k]);
		}
		fputs(l->ntouches ? ")</p>\n" : "</p>\n", f);
	}
}

void html_run_body(FILE *f, const struct session *s, double w)
{
	run_header(f, s);
	losses_banner(f, &s->joined);
	time_section(f, s, w);
	latency_section(f, &s->joined, w);
	if (s->traced && (s->joined.groups & PG_MASK(PG_SYSCALLS)))
		syscall_section(f, &s->joined);
	if (s->traced) {
		lock_section(f, s);
		html_flame_section(f, s, w);
		html_caches_section(f, &s->joined, w);
		pagecache_section(f, &s->joined);
	}
	why_section(f, s);
	html_timeline_section(f, s, w);
	own_clocks_section(f, &s->joined);
	probes_section(f, s);
}

static void title_of(char *buf, size_t n, const char *what, const struct session *s)
{
	char d[200];

	report_describe(d, sizeof(d), s);
	snprintf(buf, n, "fctrace %s: %s", what, d);
}

void html_h1(FILE *f, const char *text)
{
	fputs("<h1>", f);
	html_esc(f, text);
	fputs("</h1>\n", f);
}

int report_html_run(const char *path, const struct session *s)
{
	struct outfile out;
	FILE *f = outfile_open(&out, "--html", path);
	char title[240];

	if (!f)
		return -1;
	title_of(title, sizeof(title), "run", s);
	html_page_begin(f, title);
	html_h1(f, title);
	html_run_body(f, s, PAGE_W);
	html_page_end(f);
	return outfile_close(&out);
}
