/*
 * test_html.c - the HTML reports from hand-built runs and sweeps (no root):
 * each page is one well-formed, self-contained file with a chart where the
 * data says there is one, every string from outside escaped, the timing-only
 * fallback said out loud, and errors reported as "fctrace: --html PATH: ...".
 * Then headless Chromium renders the pages (tests/html_check.sh) when it is
 * installed; CI=true or FCTRACE_REQUIRE_BROWSER=1 make it required.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libgen.h>
#include <sys/syscall.h>
#include <cmocka.h>
#include "report/html.h"
#include "report/report.h"
#include "session/sweep.h"
#include "join/caches.h"
#include "join/timeline.h"
#include "joinutil.h"

#define NT	4			/* threads in the run fixtures */
#define WALL	1000000000ull		/* 1 s */
#define NASTY	"fcp<b>&'\""		/* a workload name that needs escaping */
#define NASTY_ESC "fcp&lt;b&gt;&amp;&#39;&quot;"
#define KSYM	"<script>alert(1)</script>"	/* a "kernel symbol" */
/* Names a target chooses (issue 37): two thread names that made one
 * <img onerror> when the hand-off tooltip joined them unescaped, a lock
 * and a frame that close an attribute and open an element. Run, each
 * payload marks the page (data-pwned), which tests/dom_check.py looks for. */
#define EVIL_A		"<img src=x"
#define EVIL_B		"onerror=id='P'"
#define EVIL_LOCK	"<img src=x onerror=document.body.setAttribute('data-pwned',1)>"
#define EVIL_LOCK_ESC	"&lt;img src=x onerror=document.body.setAttribute(&#39;data-pwned&#39;,1)&gt;"
#define EVIL_FRAME	"\"><svg onload=document.body.setAttribute('data-pwned',2)>"

/* One run, built by hand the way session_run would have left it. */
struct fx {
	struct session s;
	struct wl_result res;		/* the workload's, before the driver takes it */
	struct wl_thread_stats ts[NT];
	struct fct_thread kt[NT];
	struct kv_sc_hist sc_hists[NT * 5];
	int nsc_hists;
	struct kv_futex futex[NT];
	struct kv_klock klock[1];
	char dir[64];
};

static void fx_clocks(struct fx *x)
{
	for (unsigned i = 0; i < NT; i++) {
		struct wl_thread_stats *u = &x->ts[i];

		*u = (struct wl_thread_stats){ .tid = 1000 + (pid_t)i, .index = i, .ops = 1000,
			.end_ns = WALL - i * 10000000ull, .lock_wait_ns = 400000000,
			.lock_hold_ns = 100000000, .read_ns = 200000000, .lock_acquires = 1000,
			.hits = 750, .misses = 250, .syscalls_in_lock = 750,
			.lat_min_ns = 1100, .lat_max_ns = 1500000, .lat_total_ns = 1000000000 };
		u->lat_hist[10] = 600;
		u->lat_hist[12] = 300;
		u->lat_hist[20] = 100;
	}
}

static void fx_sc(struct fx *x, struct fct_thread *k, unsigned nr, uint64_t n, uint64_t mean)
{
	struct sc_stats s = { .count = n, .total_ns = n * mean, .min_ns = mean / 2,
			      .max_ns = mean * 8 };

	s.hist[10] = (uint32_t)n;
	ju_calls(k, x->sc_hists, &x->nsc_hists, nr, &s);
}

/* The kernel's account: full probe set, one futex word in the pool lock. */
static void fx_kernel(struct fx *x)
{
	struct kview *kv = &x->s.kv;

	for (unsigned i = 0; i < NT; i++) {
		struct fct_thread *k = &x->kt[i];

		/* derived: 150 ms user, 100 ms sys, 400 ms in futex waits */
		*k = (struct fct_thread){ .tid = 1000 + i, .sys_on_est_ns = 100000000,
			.runq_ns = 250000000, .blocked_ns = 50000000,
			.futex_off_ns = 400000000, .oncpu_ns = 250000000, .pages_asked = 1000,
			.pages_added = 10, .futex_waits = 100 };
		fx_sc(x, k, __NR_openat, 250, 1500);
		fx_sc(x, k, __NR_close, 250, 800);
		fx_sc(x, k, __NR_newfstatat, 250, 1400);
		fx_sc(x, k, __NR_pread64, 1000, 6000);
		fx_sc(x, k, __NR_futex, 100, 4000000);
		x->futex[i] = (struct kv_futex){ .key = { .tid = 1000 + i, .uaddr = 0x1008 },
			.val = { .waits = 100, .wait_ns = 400000000, .max_ns = 9000000 } };
	}
	x->klock[0] = (struct kv_klock){ .key = { .tid = 1000, .flags = 1 },
					 .val = { .waits = 5, .wait_ns = 50000, .max_ns = 20000 },
					 .est_waits = 8, .est_wait_ns = 40000 };
	x->kt[0].klock_waits = 5;		/* the exact totals the site was given */
	x->kt[0].klock_wait_ns = 50000;
	snprintf(x->klock[0].caller, sizeof(x->klock[0].caller), "%s", KSYM);
	*kv = (struct kview){ .groups = PG_FULL, .threads = x->kt, .nthreads = NT,
			      .futex = x->futex, .nfutex = NT, .klock = x->klock, .nklock = 1,
			      .sc_hists = x->sc_hists, .nsc_hists = x->nsc_hists, .nprobes = 2 };
	kview_sort_sc_hists(kv);
	kv->probes[0] = (struct probe_status){ .name = "tp_btf/sched_switch", .group = PG_SCHED, .state = PROBE_OK, .reason = "" };
	kv->probes[1] = (struct probe_status){ .name = "kprobe/x<y>", .group = PG_KLOCK, .state = PROBE_FAILED, .reason = "attach failed: -EPERM" };
}

static struct fx *fx_run(const char *workload, bool traced)
{
	struct fx *x = calloc(1, sizeof(*x));
	struct session *s = &x->s;

	wl_config_defaults(&s->cfg);
	s->cfg.workload = workload;
	s->cfg.threads = NT;
	s->cfg.ops = 1000;
	x->res = (struct wl_result){ .cfg = s->cfg, .wall_ns = WALL, .nthreads = NT,
		.threads = x->ts, .nlocks = 1, .totals = { .has_pool = true, .hits = 3000,
		.misses = 1000, .evictions = 1000, .max_open = 51 } };
	x->res.locks[0] = (struct wl_lock_desc){ "fcp.pool", 0x1000, 64, LK_MUTEX };
	fx_clocks(x);
	if (traced)
		fx_kernel(x);
	s->traced = traced;
	s->prepare_ns = 120000000;
	assert_int_equal(join_workload(s, &x->res, traced ? &s->kv : NULL,
				     traced ? s->kv.groups : 0), 0);
	assert_true(explain_run(&s->joined, &s->diag) >= 1);
	/* diagnosis text is data too: it must come out escaped */
	snprintf(s->diag.causes[0].title, sizeof(s->diag.causes[0].title), "a < b & \"c\"");
	return x;
}

/*
 * A convoy on the pool lock's word for the timeline: every 480 µs the
 * holder's futex wake hands the lock to the next thread, which waits
 * 150 µs for a CPU; the holder reads, then sleeps on the lock again.
 */
#define TL_HANDOFFS	40
#define TL_WORD		0x1008

static void tl_add(struct tl_events *e, uint64_t ts, uint32_t tid, int kind, int nr, int op,
		   int flags, uint64_t arg)
{
	struct fct_tl_event ev = { .ts = ts, .tid = tid, .kind = kind, .nr = nr, .op = op,
				   .flags = flags, .arg = arg };

	assert_int_equal(tl_events_add(e, &ev), 0);
}

static void fx_timeline_of(struct fx *x, const char *lock_name)
{
	struct tl_lock lock = { .addr = 0x1000, .size = 64 };
	struct tl_input in = { .begin_ns = 0, .end_ns = 20000000, .locks = &lock, .nlocks = 1 };
	struct tl_events e = { 0 };

	snprintf(lock.name, sizeof(lock.name), "%s", lock_name);
	for (uint32_t k = 0; k < TL_HANDOFFS; k++) {
		uint64_t t = 100000 + k * 480000ull;
		uint32_t h = 1000 + k % NT, n = 1000 + (k + 1) % NT;

		tl_add(&e, t, h, FCT_TL_SYS_ENTER, 202, 1, 0, TL_WORD);
		tl_add(&e, t + 3000, n, FCT_TL_WAKEUP, 202, h, FCT_TL_F_FUTEX_WAIT, TL_WORD);
		tl_add(&e, t + 5000, h, FCT_TL_SYS_EXIT, 202, 0, 0, 0);
		tl_add(&e, t + 20000, h, FCT_TL_SYS_ENTER, 17, 0, 0, 0);
		tl_add(&e, t + 60000, h, FCT_TL_SYS_EXIT, 17, 0, 0, 0);
		tl_add(&e, t + 100000, h, FCT_TL_SYS_ENTER, 202, 0, FCT_TL_F_FUTEX_WAIT, TL_WORD);
		tl_add(&e, t + 110000, h, FCT_TL_SWITCH_OUT, 202, FCT_ST_BLOCKED,
		       FCT_TL_F_FUTEX_WAIT, TL_WORD);
		tl_add(&e, t + 150000, n, FCT_TL_SWITCH_IN, 202, 0, FCT_TL_F_FUTEX_WAIT, TL_WORD);
		tl_add(&e, t + 160000, n, FCT_TL_SYS_EXIT, 202, 0, FCT_TL_F_FUTEX_WAIT, TL_WORD);
	}
	x->s.timeline = calloc(1, sizeof(*x->s.timeline));
	assert_non_null(x->s.timeline);
	assert_int_equal(timeline_build(x->s.timeline, e.ev, e.n, &in), 0);
	x->s.kv.tl = (struct kv_timeline){ .on = true, .end_ns = in.end_ns, .ring_bytes = 1 << 16 };
	tl_events_free(&e);
}

static void fx_timeline(struct fx *x)
{
	fx_timeline_of(x, "fcp.pool");
}

/* Two caches of process 77 (comm): descriptors of 60 files holding 51,
 * hit 83.1 % (60 would hit 100 %), and a block cache seen only by its
 * misses, 1320 blocks of working set, 1315 more serving 99.3 %. */
static void fx_caches(struct fx *x, const char *comm, const char *object)
{
	struct joined_run *m = &x->s.joined;
	struct cache_entry *c = calloc(2, sizeof(*c));

	assert_non_null(c);
	c[0] = (struct cache_entry){ .kind = CACHE_HANDLES, .pid = 77, .accesses = 786600,
		.misses = 133200, .ws_items = 60, .ws_bytes = 6000000, .size_known = true,
		.size_items = 51, .hit_ratio_now = 0.831, .fix_items = 60, .hit_ratio_fix = 1.0,
		.miss_ns = 715600000, .sample_rate = 1 };
	for (int i = 0; i < 64; i++)
		c[0].mrc[c[0].nmrc++] = (struct fu_point){ (uint64_t)i + 1, i >= 59 ? 1.0 :
							  (i + 1) / 60.0 };
	c[1] = (struct cache_entry){ .kind = CACHE_BLOCKS, .pid = 77, .accesses = 800000,
		.misses = 800000, .ws_items = 1320, .ws_bytes = 1320 * 4096ull, .fix_items = 1315,
		.hit_ratio_fix = 0.993, .miss_ns = 956000000, .sample_rate = 1 };
	snprintf(c[1].why_unknown, sizeof(c[1].why_unknown), "only its misses are seen");
	c[1].mrc[c[1].nmrc++] = (struct fu_point){ 100, 0.075 };
	c[1].mrc[c[1].nmrc++] = (struct fu_point){ 1315, 0.993 };
	for (int i = 0; i < 2; i++) {
		snprintf(c[i].comm, sizeof(c[i].comm), "%s", comm);
		snprintf(c[i].object, sizeof(c[i].object), "%s", object);
	}
	free(m->caches);
	m->caches = c;
	m->ncaches = 2;
	m->groups |= PG_MASK(PG_HANDLES);
}

/* Another program's run whose threads, lock and frames are named by the
 * EVIL_ payloads: the timeline, the lock table and both flame graphs. */
static struct fx *fx_hostile(void)
{
	struct fx *x = fx_run("fcp", true);
	struct stack_set *ss = &x->s.stacks;
	uint32_t fr[2];

	fx_timeline_of(x, EVIL_LOCK);
	fx_caches(x, EVIL_A, EVIL_LOCK);
	x->s.target.mode = TGT_ATTACH;
	x->s.target.pid = 1000;
	snprintf(x->s.target.cmdline, sizeof(x->s.target.cmdline), "%s", EVIL_FRAME);
	for (unsigned i = 0; i < NT; i++)
		snprintf(x->s.joined.rows[i].name, sizeof(x->s.joined.rows[i].name), "%s",
			 i % 2 ? EVIL_B : EVIL_A);
	snprintf(x->s.joined.locks[0].name, sizeof(x->s.joined.locks[0].name), "%s", EVIL_LOCK);
	fr[0] = (uint32_t)stacks_frame(ss, "start_thread", "", 0);
	fr[1] = (uint32_t)stacks_frame(ss, EVIL_FRAME, "x.c", 1);
	assert_int_equal(stacks_add(ss, STK_WAIT, EVIL_A, EVIL_LOCK, fr, 2, 400000000, 40), 0);
	assert_int_equal(stacks_add(ss, STK_CPU, EVIL_B, "", fr, 2, 100000000, 10), 0);
	stacks_order(ss);
	return x;
}

static void fx_free(struct fx *x)
{
	if (x->s.timeline)
		timeline_free(x->s.timeline);
	free(x->s.timeline);
	stacks_free(&x->s.stacks);
	join_free(&x->s.joined);
	subject_timings_free(&x->s.timings);
	free(x);
}

/* ---- reading what was written --------------------------------------- */

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

static int count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static bool has(const char *hay, const char *needle)
{
	if (!strstr(hay, needle))
		print_error("'%s' is not in the page\n", needle);
	return strstr(hay, needle) != NULL;
}

/* A shape with some size: a rect wider than 0, or a line through points. */
static bool drawn(const char *svg, size_t len)
{
	const char *p = svg;

	while ((p = strstr(p, "<rect")) && (size_t)(p - svg) < len) {
		const char *w = strstr(p, "width=\"");

		if (w && (size_t)(w - svg) < len && atof(w + 7) > 0)
			return true;
		p += 5;
	}
	p = strstr(svg, "<polyline");
	return p && (size_t)(p - svg) < len && strstr(p, "points=\"") != NULL;
}

/* Every chart draws something; returns how many charts there are. */
static int charts_drawn(const char *page)
{
	int n = 0;

	for (const char *p = page; (p = strstr(p, "<svg class=\"chart\"")); p++) {
		const char *end = strstr(p, "</svg>");

		assert_non_null(end);
		if (!drawn(p, (size_t)(end - p)))
			fail_msg("chart %d draws nothing", n + 1);
		n++;
	}
	return n;
}

/* One page, one document, every element closed, nothing from outside. */
static void assert_page(const char *page)
{
	static const char *const pairs[][2] = {
		{ "<svg", "</svg>" }, { "<table", "</table>" }, { "<pre", "</pre>" },
		{ "<tr", "</tr>" }, { "<h2", "</h2>" }, { "<text", "</text>" }, { "<div", "</div>" },
	};

	assert_true(!strncmp(page, "<!DOCTYPE html>\n", 16));
	assert_int_equal(count(page, "</html>"), 1);
	assert_true(strlen(page) > 8 && !strcmp(page + strlen(page) - 8, "</html>\n"));
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
		if (count(page, pairs[i][0]) != count(page, pairs[i][1]))
			fail_msg("%d %s but %d %s", count(page, pairs[i][0]), pairs[i][0],
				 count(page, pairs[i][1]), pairs[i][1]);
	assert_int_equal(count(page, "http://"), 0);
	assert_int_equal(count(page, "https://"), 0);
	assert_int_equal(count(page, "<script"), 0);
	assert_int_equal(count(page, "<link"), 0);
	assert_int_equal(count(page, "src="), 0);
}

static char *page_path(struct fx *x, const char *name, char *buf, size_t n)
{
	snprintf(buf, n, "%s/%s", x->dir, name);
	return buf;
}

static void make_dir(char *dir, size_t n)
{
	snprintf(dir, n, "%s/fct-html-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	assert_non_null(mkdtemp(dir));
}

/* ---- sweeps ---------------------------------------------------------- */

static const char *const sweep_wls[] = { "fc", "fcp", "fcp-fixed" };
static const unsigned sweep_files[] = { 10, 50, 60, 100 };
static const unsigned sweep_threads[] = { 1, 2, 4, 8 };
#define NCELLS (3 * 4 * 4)

/* fcp slows down past its pool of 50; fc does not; fcp has predictions. */
static void sweep_fill(struct sweep *sw, struct sweep_cell *cells)
{
	unsigned n = 0;

	for (unsigned w = 0; w < 3; w++)
		for (unsigned f = 0; f < 4; f++)
			for (unsigned t = 0; t < 4; t++) {
				struct sweep_cell *c = &cells[n++];
				unsigned files = sweep_files[f], threads = sweep_threads[t];
				double over = files > 50 ? (files - 50.0) / files : 0;

				*c = (struct sweep_cell){ .workload = sweep_wls[w], .files = files,
					.threads = threads, .pool = 50, .ops = 100000ull * threads,
					.hit_ratio = w ? 1 - over : -1, .lock_share = w == 1 ? over : 0.01,
					.traced = true };
				c->wall_ns = (uint64_t)(2e8 * threads * (1 + (w == 1 ? 4 * over : 0)) /
							(threads > 2 ? 2 : threads));
				c->predicted_wall_ns = w == 1 ? c->wall_ns * 1.1 : 0;
				snprintf(c->top_cause, sizeof(c->top_cause), "%s",
					 w == 1 && over ? "<pool_lock>" : "healthy");
			}
	*sw = (struct sweep){ .cells = cells, .n = n };
}

/* ---- the tests ------------------------------------------------------- */

static void test_escape(void **state)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	html_esc(mem, "<a href='x'>\"&\"</a>");
	html_esc(mem, NULL);
	fclose(mem);
	assert_string_equal(text, "&lt;a href=&#39;x&#39;&gt;&quot;&amp;&quot;&lt;/a&gt;");
	free(text);
}

static void test_run_page(void **state)
{
	struct fx *x = fx_run(NASTY, true);
	char path[128], *page;

	make_dir(x->dir, sizeof(x->dir));
	assert_int_equal(report_html_run(page_path(x, "run.html", path, sizeof(path)), &x->s), 0);
	page = slurp(path);
	assert_page(page);
	assert_int_equal(charts_drawn(page), 2);	/* time per thread, latency */
	assert_true(count(page, "<svg class=\"bar\"") >= 3);	/* lock and cause shares */
	assert_true(has(page, NASTY_ESC));
	assert_int_equal(count(page, "fcp<b>"), 0);
	assert_true(has(page, "&lt;script&gt;alert(1)&lt;/script&gt;"));
	assert_true(has(page, "kprobe/x&lt;y&gt;"));
	assert_true(has(page, "a &lt; b &amp; &quot;c&quot;"));
	assert_int_equal(count(page, "a < b"), 0);
	assert_true(has(page, "waiting on locks"));	/* the account's legend */
	assert_true(has(page, "tid 1003"));
	assert_true(has(page, "Syscalls (all workers)"));
	assert_true(has(page, "newfstatat"));
	assert_true(has(page, "fcp.pool"));
	assert_true(has(page, "<pre class=\"why\">"));
	assert_true(has(page, "latency of one operation"));
	assert_true(has(page, "percentiles are the midpoints of buckets 8 to a power of two"));
	/* how the figures were made: no cpu-clock samples, a kernel lock site */
	assert_true(has(page, "User and sys: syscall hooks (0 of 4 threads sampled"));
	assert_true(has(page, "Kernel lock sites: each thread's exact wait time and count, split "
			"over its sites by its sampled stacks (the samples alone estimated 80.0 %"));
	assert_int_equal(count(page, "Timing only"), 0);
	free(page);
	unlink(path);
	rmdir(x->dir);
	fx_free(x);
}

/* --timeline: the swimlanes, a lane per worker, the hand-offs marked. */
static void test_run_page_timeline(void **state)
{
	struct fx *x = fx_run(NASTY, true);
	char path[128], *page;

	fx_timeline(x);
	assert_int_equal(x->s.timeline->nthreads, NT);
	make_dir(x->dir, sizeof(x->dir));
	assert_int_equal(report_html_run(page_path(x, "run.html", path, sizeof(path)), &x->s), 0);
	page = slurp(path);
	assert_page(page);
	assert_int_equal(charts_drawn(page), 3);
	assert_true(has(page, "<h2>Timeline</h2>"));
	assert_int_equal(count(page, "class=\"tl-lane\""), NT);
	assert_true(has(page, ">worker 3 (tid 1003)</text>"));
	assert_int_equal(count(page, "<g class=\"tl-handoff\">"), TL_HANDOFFS);
	assert_true(has(page, "<title>worker 1 (tid 1001) released fcp.pool at 583.0 µs and "
			"woke worker 2 (tid 1002)</title>"));
	assert_true(has(page, "<b>40</b> lock hand-offs"));
	assert_true(has(page, "waited <b>147.0 µs</b> on average for a CPU"));
	assert_true(has(page, "lock wait, "));		/* a lane's tooltip */
	assert_true(has(page, "<td>timeline records dropped</td>"));
	free(page);
	unlink(path);
	rmdir(x->dir);
	fx_free(x);
}

/* Hostile names stay text in every context: tooltips, lane labels, the
 * flame graph's attributes, the lock table; the one script is the page's. */
static void test_run_page_hostile(void **state)
{
	struct fx *x = fx_hostile();
	char path[128], *page;

	make_dir(x->dir, sizeof(x->dir));
	assert_int_equal(report_html_run(page_path(x, "run.html", path, sizeof(path)), &x->s), 0);
	page = slurp(path);
	assert_int_equal(count(page, "<g class=\"tl-handoff\">"), TL_HANDOFFS);
	assert_true(count(page, "<svg class=\"chart flame\"") == 2);
	assert_int_equal(count(page, "<script"), 1);		/* the flame graphs' own */
	assert_int_equal(count(page, "<img"), 0);
	assert_int_equal(count(page, "<svg onload"), 0);
	assert_int_equal(count(page, EVIL_B), 0);
	assert_int_equal(count(page, "released <"), 0);
	assert_true(has(page, "released " EVIL_LOCK_ESC " at "));
	assert_true(has(page, "<td>" EVIL_LOCK_ESC "</td>"));
	assert_true(has(page, "onerror=id=&#39;P&#39; (tid 1001)"));
	assert_true(has(page, "data-n=\"&quot;&gt;&lt;svg onload="));
	assert_true(has(page, "<td>" EVIL_LOCK_ESC "</td><td class=\"n\">786.6 k</td>"));
	assert_true(has(page, "&lt;img src=x (77): handles cache, the hit ratio at each size"));
	free(page);
	unlink(path);
	rmdir(x->dir);
	fx_free(x);
}

/* The caches: the text report's cells, each curve drawn whole with the
 * size now and the fix marked; none without the handles probes. */
static void test_run_page_caches(void **state)
{
	struct fx *x = fx_run("fcp", true);
	char path[128], *page;

	(void)state;
	fx_caches(x, "nginx", "html/ (60 files)");
	make_dir(x->dir, sizeof(x->dir));
	assert_int_equal(report_html_run(page_path(x, "run.html", path, sizeof(path)), &x->s), 0);
	page = slurp(path);
	assert_page(page);
	assert_int_equal(charts_drawn(page), 4);	/* time, latency, two curves */
	assert_true(has(page, "<h2>Caches the programs keep</h2>"));
	assert_true(has(page, "<td>nginx (77) handles</td><td>html/ (60 files)</td>"
			"<td class=\"n\">786.6 k</td><td class=\"n\">83.1 %</td>"
			"<td class=\"n\">51</td><td class=\"n\">60 (5.7 MiB)</td>"
			"<td class=\"n\">60: 100.0 %</td><td class=\"n\">715.6 ms</td>"));
	assert_true(has(page, "<td class=\"n\">?</td><td class=\"n\">?</td>"
			"<td class=\"n\">1320 (5.2 MiB)</td><td class=\"n\">+1315: 99.3 %</td>"));
	assert_true(has(page, ">now</text>"));
	assert_true(has(page, ">fix 60</text>"));
	assert_true(has(page, ">fix +1315</text>"));
	assert_true(has(page, "size: items more than now"));
	free(page);
	x->s.joined.groups &= ~PG_MASK(PG_HANDLES);
	assert_int_equal(report_html_run(path, &x->s), 0);
	page = slurp(path);
	assert_int_equal(count(page, "Caches the programs keep"), 0);
	free(page);
	unlink(path);
	rmdir(x->dir);
	fx_free(x);
}

static void test_run_page_timing_only(void **state)
{
	struct fx *x = fx_run("fcp", false);
	char path[128], *page;

	make_dir(x->dir, sizeof(x->dir));
	assert_int_equal(report_html_run(page_path(x, "run.html", path, sizeof(path)), &x->s), 0);
	page = slurp(path);
	assert_page(page);
	assert_int_equal(charts_drawn(page), 2);
	assert_true(has(page, "Timing only"));
	assert_true(has(page, "threads' own clocks"));
	assert_true(has(page, "waiting for the lock"));		/* the clocks' legend */
	assert_int_equal(count(page, "waiting on locks"), 0);
	assert_int_equal(count(page, "Syscalls (all workers)"), 0);
	free(page);
	unlink(path);
	rmdir(x->dir);
	fx_free(x);
}

static void test_compare_page(void **state)
{
	struct fx *a = fx_run("fcp", true), *b = fx_run("fc<>", true);
	char path[128], *page;

	b->s.timings.totals.has_pool = false;
	make_dir(a->dir, sizeof(a->dir));
	assert_int_equal(report_html_compare(page_path(a, "cmp.html", path, sizeof(path)),
					     &a->s, &b->s), 0);
	page = slurp(path);
	assert_page(page);
	assert_int_equal(charts_drawn(page), 5);	/* terms, then 2 per run */
	assert_true(has(page, "fc&lt;&gt;"));
	assert_int_equal(count(page, "fc<>"), 0);
	assert_true(has(page, "Term by term"));
	assert_true(has(page, "<pre class=\"compare\">"));
	assert_true(has(page, "openat calls"));
	assert_int_equal(count(page, "<pre class=\"why\">"), 2);
	free(page);
	unlink(path);
	rmdir(a->dir);
	fx_free(a);
	fx_free(b);
}

static void test_sweep_page(void **state)
{
	struct sweep_cell cells[NCELLS];
	struct sweep sw;
	char dir[64], path[128], *page;

	sweep_fill(&sw, cells);
	make_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/sweep.html", dir);
	assert_int_equal(report_html_sweep(path, &sw), 0);
	page = slurp(path);
	assert_page(page);
	assert_int_equal(charts_drawn(page), 4 + 2);	/* one per file set, hits, locks */
	assert_true(has(page, "60 files (pool 50: 10 over capacity)"));
	assert_true(has(page, "100 files (pool 50: 50 over capacity)"));
	assert_true(has(page, "50 files (pool 50: exactly at capacity)"));
	assert_true(has(page, "10 files (pool 50: fits, 40 spare)"));
	assert_int_equal(count(page, "stroke-dasharray=\"6 4\""), 4);	/* fcp, predicted */
	assert_int_equal(count(page, ">pool 50</text>"), 2);		/* capacity markers */
	assert_true(has(page, "&lt;pool_lock&gt;"));
	assert_int_equal(count(page, "<tr>"), NCELLS + 1);
	free(page);
	unlink(path);
	rmdir(dir);
}

/* stderr into a file while fn runs; returns what was written. */
static char *stderr_of(int (*fn)(const char *), const char *arg, int *rc)
{
	char tmpl[] = "/tmp/fct-html-err-XXXXXX", *text;
	int fd = mkstemp(tmpl), saved = dup(STDERR_FILENO);

	assert_true(fd >= 0 && saved >= 0);
	fflush(stderr);
	dup2(fd, STDERR_FILENO);
	*rc = fn(arg);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	close(fd);
	text = slurp(tmpl);
	unlink(tmpl);
	return text;
}

static struct fx *err_fx;

static int run_to(const char *path)
{
	return report_html_run(path, &err_fx->s);
}

static void test_error(void **state)
{
	int rc;
	char *msg;

	err_fx = fx_run("fcp", false);
	msg = stderr_of(run_to, "/nonexistent-fctrace-dir/r.html", &rc);
	assert_int_equal(rc, -1);
	assert_string_equal(msg, "fctrace: --html /nonexistent-fctrace-dir/r.html: "
			    "No such file or directory\n");
	free(msg);
	/* a device is not written into (test_outputs fills a tmpfs instead) */
	msg = stderr_of(run_to, "/dev/full", &rc);
	assert_int_equal(rc, -1);
	assert_string_equal(msg, "fctrace: --html /dev/full: is a character device, not a regular "
			    "file (use - for standard output)\n");
	free(msg);
	fx_free(err_fx);
}

static bool browser_required(void)
{
	const char *ci = getenv("CI"), *req = getenv("FCTRACE_REQUIRE_BROWSER");

	return (ci && !strcmp(ci, "true")) || (req && !strcmp(req, "1"));
}

/* Write all four kinds of page into dir, and a run named by a hostile
 * target, for the browser. */
static void write_pages(const char *dir, struct sweep_cell *cells)
{
	struct fx *run = fx_run(NASTY, true), *plain = fx_run("fcp", false), *evil = fx_hostile();
	struct sweep sw;
	char path[160];

	fx_timeline(run);
	sweep_fill(&sw, cells);
	snprintf(path, sizeof(path), "%s/run.html", dir);
	assert_int_equal(report_html_run(path, &run->s), 0);
	snprintf(path, sizeof(path), "%s/timing.html", dir);
	assert_int_equal(report_html_run(path, &plain->s), 0);
	snprintf(path, sizeof(path), "%s/compare.html", dir);
	assert_int_equal(report_html_compare(path, &run->s, &plain->s), 0);
	snprintf(path, sizeof(path), "%s/sweep.html", dir);
	assert_int_equal(report_html_sweep(path, &sw), 0);
	snprintf(path, sizeof(path), "%s/hostile.html", dir);
	assert_int_equal(report_html_run(path, &evil->s), 0);
	fx_free(evil);
	fx_free(run);
	fx_free(plain);
}

static void test_browser(void **state)
{
	static const char *const pages[] = { "run", "timing", "compare", "sweep", "hostile" };
	struct sweep_cell cells[NCELLS];
	char dir[64], cmd[1100], src[] = __FILE__, path[160];
	int rc;

	make_dir(dir, sizeof(dir));
	write_pages(dir, cells);
#ifdef __SANITIZE_ADDRESS__
	/* the ASan build checks the writing (above); the pages are the plain
	 * build's bytes, which tests/report/test_html renders, and Chromium is not
	 * sanitized: rendering them again would only take Chromium's time */
	cmd[0] = '\0';
	(void)src;
#else
	snprintf(cmd, sizeof(cmd), "sh %s/html_check.sh %s/run.html:3 %s/timing.html:2 "
		 "%s/compare.html:5 %s/sweep.html:6 %s/hostile.html:3", dirname(dirname(src)), dir, dir,
		 dir, dir, dir);
#endif
	rc = cmd[0] ? system(cmd) : 0;
	for (size_t i = 0; i < sizeof(pages) / sizeof(pages[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s.html", dir, pages[i]);
		unlink(path);
	}
	rmdir(dir);
	if (WIFEXITED(rc) && WEXITSTATUS(rc) == 77) {
		if (browser_required())
			fail_msg("chromium is required here (CI=true or FCTRACE_REQUIRE_BROWSER=1) "
				 "but not installed: apt-get install chromium");
		print_message("chromium is not installed: the pages were not rendered\n");
		skip();
	}
	assert_int_equal(rc, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_run_page),
		cmocka_unit_test(test_run_page_timeline),
		cmocka_unit_test(test_run_page_hostile),
		cmocka_unit_test(test_run_page_caches),
		cmocka_unit_test(test_run_page_timing_only),
		cmocka_unit_test(test_compare_page),
		cmocka_unit_test(test_sweep_page),
		cmocka_unit_test(test_error),
		cmocka_unit_test(test_browser),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
