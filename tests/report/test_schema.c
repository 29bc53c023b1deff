/*
 * test_schema.c - the JSON documents against docs/fctrace.schema.json: a
 * run (traced and timing-only, pool and cache), a compare and a sweep
 * document, all built from hand-made runs, must validate; the same
 * documents with a required key removed or mistyped must not. Validation
 * is tests/schema_check.py (python3-jsonschema): skipped when that is
 * missing, unless CI=true or FCTRACE_REQUIRE_SCHEMA=1.
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
#include <sys/wait.h>
#include <sys/syscall.h>
#include <cmocka.h>
#include <json-c/json.h>
#include "acctutil.h"
#include "report/compare.h"
#include "report/report.h"
#include "report/sweep_print.h"
#include "join/timeline.h"
#include "joinutil.h"
#include "jsonutil.h"

#define NT	2
#define WALL	500000000ull

struct fx {
	struct session s;
	struct wl_result res;		/* the workload's, before the driver takes it */
	struct wl_thread_stats ts[NT];
	struct fct_thread kt[NT];
};

/* A run as session_run leaves it; kernel = the full probe set's view. */
static struct fx *fx_run(const char *workload, bool kernel, bool cache)
{
	struct fx *x = calloc(1, sizeof(*x));
	struct session *s = &x->s;

	wl_config_defaults(&s->cfg);
	s->cfg.workload = workload;
	s->cfg.threads = NT;
	x->res = (struct wl_result){ .cfg = s->cfg, .wall_ns = WALL, .nthreads = NT,
		.threads = x->ts, .totals = { .has_pool = !cache, .has_cache = cache,
		.hits = 90, .misses = 10, .cache_bytes = 1 << 20, .cache_blocks = 256 } };
	for (unsigned i = 0; i < NT; i++) {
		x->ts[i] = (struct wl_thread_stats){ .tid = 500 + (pid_t)i, .index = i, .ops = 50,
			.end_ns = WALL, .lat_max_ns = 9000, .lat_total_ns = 200000,
			.lat_timed = 50 };
		x->ts[i].lat_hist[12] = 50;
		/* derived: half the wall in user space, half in syscalls */
		x->kt[i] = (struct fct_thread){ .tid = 500 + i, .oncpu_ns = WALL,
			.sys_on_est_ns = WALL / 2, .pages_asked = 12 };
		*au_nr(&x->kt[i], __NR_pread64) = (struct fct_nr_stats){ .count = 50, .total_ns = 50000 };
	}
	s->kv = (struct kview){ .groups = PG_FULL, .threads = x->kt, .nthreads = NT, .nprobes = 1 };
	s->kv.probes[0] = (struct probe_status){ .name = "tp_btf/sched_switch", .group = PG_SCHED, .state = PROBE_OK, .reason = "" };
	s->traced = kernel;
	assert_int_equal(join_workload(s, &x->res, kernel ? &s->kv : NULL,
				     kernel ? PG_FULL : 0), 0);
	explain_run(&s->joined, &s->diag);
	return x;
}

static void fx_free(struct fx *x)
{
	if (x->s.timeline)
		timeline_free(x->s.timeline);
	free(x->s.timeline);
	join_free(&x->s.joined);
	subject_timings_free(&x->s.timings);
	free(x);
}

static struct json_object *sweep_doc(void)
{
	static struct sweep_cell cells[2] = {
		{ .workload = "fc", .files = 60, .threads = 8, .pool = 50, .wall_ns = 9000000,
		  .run_wall_ns = { 8500000, 9500000 }, .runs = 2,
		  .ops = 800, .hit_ratio = -1, .top_cause = "healthy" },
		{ .workload = "fcp", .files = 60, .threads = 8, .pool = 50, .wall_ns = 12000000,
		  .run_wall_ns = { 12000000 }, .runs = 1, .ops = 800, .hit_ratio = 0.83, .lock_share = 0.5, .runq_share = 0.3,
		  .syscalls_in_lock_per_op = 0.5, .top_cause = "pool_lock_serialisation",
		  .predicted_wall_ns = 11500000 },
	};
	struct sweep sw = { .cells = cells, .n = 2 };

	return sweep_json(&sw);
}

/* ---- validation ------------------------------------------------------ */

static bool required(void)
{
	const char *ci = getenv("CI"), *req = getenv("FCTRACE_REQUIRE_SCHEMA");

	return (ci && !strcmp(ci, "true")) || (req && !strcmp(req, "1"));
}

/*
 * Documents are queued and checked together at the end of each test, by
 * one python3 (importing jsonschema costs a second or more here; one
 * process per document made this the slowest test of the suite).
 * schema_check.py prefixes every error with its document's path.
 */
#define MAX_DOCS	32

struct queued {
	char path[32];
	const char *why;	/* NULL: must validate; else a word of the error */
};

static struct queued queue[MAX_DOCS];
static int nqueued;

static void enqueue(struct json_object *doc, const char *why)
{
	struct queued *q = &queue[nqueued];
	int fd;

	assert_true(nqueued < MAX_DOCS);
	snprintf(q->path, sizeof(q->path), "/tmp/fct-schema-XXXXXX");
	fd = mkstemp(q->path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(report_json_write(doc, q->path), 0);
	json_object_put(doc);
	q->why = why;
	nqueued++;
}

static void assert_valid(struct json_object *doc)
{
	enqueue(doc, NULL);
}

/* Invalid, and the reason names what was broken. */
static void assert_invalid(struct json_object *doc, const char *why)
{
	enqueue(doc, why);
}

/* One document's verdict from the batch's output. */
static void verdict(const struct queued *q, const char *out)
{
	char prefix[64];
	const char *line = out;
	bool any = false, named = false;

	snprintf(prefix, sizeof(prefix), "%.*s: ", (int)sizeof(q->path), q->path);
	while ((line = strstr(line, prefix)) != NULL) {
		const char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line) : strlen(line);

		any = true;
		named |= q->why && memmem(line, len, q->why, strlen(q->why)) != NULL;
		line += len;
	}
	if (!q->why && any)
		fail_msg("%s does not validate:\n%s", q->path, out);
	if (q->why && !any)
		fail_msg("%s validates, but should not (%s)", q->path, q->why);
	if (q->why && !named)
		fail_msg("expected '%s' in:\n%s", q->why, out);
}

static void check_queued(void)
{
	static char out[65536];
	char src[] = __FILE__, cmd[4096];
	const char *dir = dirname(dirname(src));
	size_t len, got;
	FILE *p;
	int status, n;

	len = (size_t)snprintf(cmd, sizeof(cmd), "python3 %s/schema_check.py "
			       "%s/../docs/fctrace.schema.json", dir, dir);
	for (int i = 0; i < nqueued; i++)
		len += (size_t)snprintf(cmd + len, sizeof(cmd) - len, " %s", queue[i].path);
	assert_true(len + 8 < sizeof(cmd));
	snprintf(cmd + len, sizeof(cmd) - len, " 2>&1");
	p = popen(cmd, "r");
	assert_non_null(p);
	got = fread(out, 1, sizeof(out) - 1, p);
	out[got] = 0;
	status = pclose(p);
	for (int i = 0; i < nqueued; i++)
		unlink(queue[i].path);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 3 || WEXITSTATUS(status) == 127) {
		nqueued = 0;
		if (required())
			fail_msg("python3-jsonschema is required here but missing: %s", out);
		print_message("python3 or its jsonschema module is missing: %s", out);
		skip();
	}
	n = nqueued;
	nqueued = 0;	/* a failed verdict ends the test: the next starts afresh */
	assert_true(WEXITSTATUS(status) <= 1);
	for (int i = 0; i < n; i++)
		verdict(&queue[i], out);
}

/* ---- the tests ------------------------------------------------------- */

static void test_run_traced(void **state)
{
	struct fx *x = fx_run("fcp", true, false);
	struct json_object *doc = report_json_run(&x->s), *lat;

	/* the histogram layout, and how the user/sys and lock figures came */
	assert_int_equal(json_object_get_int(json_must_at(doc, "hist_sub_buckets")), FCT_HIST_SUB);
	lat = json_must_at(doc, "threads.0.latency");
	assert_int_equal(json_object_array_length(json_must_at(lat, "hist")), WL_HIST_SLOTS);
	assert_int_equal(json_u64_at(lat, "hist.12"), 50);
	assert_int_equal(json_u64_at(lat, "p99_ns"), 12);	/* slot 12 holds 12 ns */
	assert_string_equal(json_str_at(doc, "cpu_split.method"),
			    "syscall hooks");		/* no samples in the fixture */
	assert_non_null(json_str_at(doc, "kernel_lock_sites.attribution"));
	assert_valid(doc);
	fx_free(x);
	check_queued();
}

/* --timeline: a hand-off between the two threads, recorded in 1 ms. */
static void fx_timeline(struct fx *x)
{
	static const struct fct_tl_event ev[] = {
		{ .ts = 100, .tid = 500, .kind = FCT_TL_SYS_ENTER, .nr = 202, .op = 1, .arg = 0x10 },
		{ .ts = 200, .tid = 501, .kind = FCT_TL_WAKEUP, .nr = 202, .op = 500,
		  .flags = FCT_TL_F_FUTEX_WAIT, .arg = 0x10 },
		{ .ts = 300, .tid = 500, .kind = FCT_TL_SYS_EXIT, .nr = 202 },
	};
	static const struct tl_lock lock = { .addr = 0x10, .size = 4, .name = "fcp.pool" };
	struct tl_input in = { .begin_ns = 0, .end_ns = 1000000, .locks = &lock, .nlocks = 1 };

	x->s.timeline = calloc(1, sizeof(*x->s.timeline));
	assert_non_null(x->s.timeline);
	assert_int_equal(timeline_build(x->s.timeline, ev, 3, &in), 0);
	x->s.kv.tl = (struct kv_timeline){ .on = true, .end_ns = 1000000, .ring_bytes = 65536 };
}

static void test_run_timeline(void **state)
{
	struct fx *x = fx_run("fcp", true, false);
	struct json_object *doc;

	doc = report_json_run(&x->s);
	assert_true(json_object_is_type(json_must_at(doc, "timeline"), json_type_null));
	json_object_put(doc);
	fx_timeline(x);
	doc = report_json_run(&x->s);
	assert_int_equal(json_object_get_int(json_must_at(doc, "timeline.handoffs")), 1);
	assert_valid(doc);
	doc = report_json_run(&x->s);
	/* null or the object */
	json_object_object_del(json_must_at(doc, "timeline"), "dropped");
	assert_invalid(doc, "timeline: {'events': 3, 'begin_ns'");
	doc = report_json_run(&x->s);
	json_object_object_del(json_must_at(doc, "lost_events"), "timeline_drops");
	assert_invalid(doc, "lost_events: {'slot_full'");
	fx_free(x);
	check_queued();
}

static void test_run_timing_only_cache(void **state)
{
	struct fx *x = fx_run("bcache", false, true);
	struct json_object *doc = report_json_run(&x->s);

	assert_true(json_object_is_type(json_must_at(doc, "syscalls"), json_type_null));
	assert_valid(doc);
	fx_free(x);
	check_queued();
}

static void test_compare(void **state)
{
	struct fx *a = fx_run("fcp", true, false), *b = fx_run("fc", true, false);
	struct json_object *doc;

	b->s.timings.totals.has_pool = false;
	assert_valid(compare_document(&a->s, &b->s));
	b->s.interrupted = true;			/* cut in the second run */
	doc = compare_document(&a->s, &b->s);
	assert_true(json_bool_at(doc, "interrupted"));
	assert_valid(doc);
	fx_free(a);
	fx_free(b);
	check_queued();
}

static void test_sweep(void **state)
{
	static struct sweep_cell cell = { .workload = "fc", .files = 10, .threads = 1, .pool = 50,
					  .wall_ns = 1000000, .run_wall_ns = { 1000000 }, .runs = 1,
					  .ops = 100, .hit_ratio = -1, .interrupted = true };
	struct sweep sw = { .cells = &cell, .n = 1, .total = 4, .interrupted = true };
	struct json_object *doc;

	assert_valid(sweep_doc());
	doc = sweep_json(&sw);
	assert_true(json_bool_at(doc, "interrupted"));
	assert_true(json_bool_at(doc, "cells.0.interrupted"));
	assert_valid(doc);
	check_queued();
}

static void test_missing_or_mistyped_keys_fail(void **state)
{
	struct fx *x = fx_run("fcp", true, false), *y = fx_run("fc", false, false);
	struct json_object *doc, *log2;

	doc = report_json_run(&x->s);
	json_object_object_del(doc, "wall_ns");
	assert_invalid(doc, "'wall_ns' is a required property");
	doc = report_json_run(&x->s);
	json_object_object_add(doc, "ops", json_object_new_string("many"));
	assert_invalid(doc, "'many' is not of type 'integer'");
	doc = report_json_run(&x->s);
	json_object_object_del(json_must_at(doc, "threads.0"), "account_ns");
	assert_invalid(doc, "'account_ns' is a required property");
	doc = report_json_run(&x->s);
	json_object_object_del(doc, "hist_sub_buckets");
	assert_invalid(doc, "'hist_sub_buckets' is a required property");
	doc = report_json_run(&x->s);		/* a log2 histogram of schema 1 */
	log2 = json_object_new_array();
	for (int i = 0; i < 40; i++)
		json_object_array_add(log2, json_object_new_int(0));
	json_object_object_add(json_must_at(doc, "threads.0.latency"),
			       "hist", log2);
	assert_invalid(doc, "latency: {");	/* too short: neither the object nor null */
	doc = report_json_run(&x->s);
	json_object_object_add(json_must_at(doc, "cpu_split"), "method",
			       json_object_new_string("guess"));
	assert_invalid(doc, "is not valid under any of the given schemas");
	doc = report_json_run(&x->s);
	json_object_object_del(doc, "kernel_lock_sites");
	assert_invalid(doc, "'kernel_lock_sites' is a required property");
	/* version 2: what `fctrace report` prints a saved run again from */
	doc = report_json_run(&x->s);
	json_object_object_del(doc, "why");
	assert_invalid(doc, "'why' is a required property");
	doc = report_json_run(&x->s);
	json_object_object_del(json_must_at(doc, "syscalls.pread64"), "hist");
	assert_invalid(doc, "syscalls: ");	/* no branch of its oneOf fits */
	doc = report_json_run(&x->s);
	json_object_object_add(doc, "schema_version", json_object_new_int(1));
	assert_invalid(doc, "2 was expected");
	doc = compare_document(&x->s, &y->s);
	json_object_object_del(json_must_at(doc, "runs.1.config"), "seed");
	assert_invalid(doc, "'seed' is a required property");
	doc = compare_document(&x->s, &y->s);
	json_object_object_del(doc, "interrupted");
	assert_invalid(doc, "'interrupted' is a required property");
	doc = sweep_doc();
	json_object_object_del(json_must_at(doc, "cells.1"), "workload");
	assert_invalid(doc, "'workload' is a required property");
	doc = sweep_doc();
	json_object_object_del(doc, "interrupted");
	assert_invalid(doc, "'interrupted' is a required property");
	doc = sweep_doc();
	json_object_object_del(json_must_at(doc, "cells.0"), "interrupted");
	assert_invalid(doc, "'interrupted' is a required property");
	doc = sweep_doc();
	json_object_object_add(json_must_at(doc, "cells.0"), "hit_ratio",
			       json_object_new_string("0.5"));
	assert_invalid(doc, "is not of type 'number', 'null'");
	fx_free(x);
	fx_free(y);
	check_queued();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_traced),
		cmocka_unit_test(test_run_timeline),
		cmocka_unit_test(test_run_timing_only_cache),
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_sweep),
		cmocka_unit_test(test_missing_or_mistyped_keys_fail),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
