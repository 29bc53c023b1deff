/*
 * test_saved.c - the saved run's three descriptions checked against each
 * other, field by field (issue 38): the writer (report/report_json.c and
 * its helpers), the reader (session/load_run.c and its helpers) and
 * docs/fctrace.schema.json. Runs of several kinds are made through the
 * binary: timing-only runs of a pool and of a cache, a comparison and a
 * sweep; as root also a traced fcp run with a timeline and stacks, run --
 * CMD on tests/target_prog (its locks, their holders and the chain between
 * them, the page cache's evictions, a run that lost threads, two processes
 * setting each other's latch, reads through an io_uring ring), run -- CMD on
 * tests/pool_prog (a pool of 4 for 16 threads), on tests/conn_prog (new
 * connections to two peers) and a JVM
 * with fctrace's agent (when a JDK is there). Of each run:
 *   - round trip: `fctrace report FILE --json AGAIN` writes FILE again,
 *     byte for byte (a sweep is not reported: report refuses it);
 *   - each field read: every value of the file (of an array, one element)
 *     is changed in turn, the file read (load_run) and written again
 *     (report_json_run); the changed value must come back, or the reader
 *     refuse the file (it checked the field). A byte-equal round trip
 *     alone misses a field the reader drops whose value is the default.
 *     Fields the writer derives from others are in DERIVED, with what
 *     they are derived from. A path (its indexes as #) is checked in the
 *     first document that has it: one reader entry serves it in all;
 *   - schema: every document validates (schema_check.py), every key
 *     written is described and every property described is written by one
 *     of the runs, but for the commented few of schema_coverage.py's
 *     NEVER_WRITTEN (schema_coverage.py).
 * The traced runs skip without root (fail under FCTRACE_REQUIRE_BPF=1 or
 * CI=true), and then the schema's properties written only by them are not
 * asked for.
 */
#include <fnmatch.h>
#include <libgen.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <cmocka.h>
#include <json-c/json.h>
#include "binutil.h"
#include "bpfutil.h"
#include "javautil.h"
#include "testutil.h"
#include "report/report.h"
#include "session/load_json.h"
#include "session/load_run.h"

#define TARGET		".output/tests/target_prog"
#define POOL_PROG	".output/tests/pool_prog"
#define CONN_PROG	".output/tests/conn_prog"
#define OUT_MAX		(1 << 16)
#define MAX_DOCS	24
#define MAX_DEPTH	16

#define ARGV(...) ((char *const[]){ (char *)fctrace_binary(), __VA_ARGS__, NULL })

static char docs[MAX_DOCS][512];	/* every document made, for the schema */
static int ndocs;
static bool traced_made;		/* the traced runs were made too */

/*
 * The fields the writer computes from others, so that changing one in
 * the file cannot come back: a path, with # for any array index and * for
 * any run of characters (fnmatch).
 */
static const char *const DERIVED[] = {
	"*.mean_ns",			/* total_ns / count (timed) */
	"*.p50_ns", "*.p99_ns",		/* of the histogram */
	"threads#.wall_ns",		/* end_ns - start_ns */
	"pool.hit_ratio", "cache.hit_ratio",	/* hits / (hits + misses) */
	"lost_events.total",		/* the sum of the others */
	"lost_events.timeline_drops",	/* timeline.dropped */
	"machine_cpu.threads_oncpu_ns",	/* the threads' oncpu_ns */
	"syscalls_by_number#.name",	/* of nr */
	"cpu_split.method", "cpu_split.hz",	/* of the groups and the figures */
	"kernel_lock_sites.attribution",	/* a constant sentence */
	"locks#.stack_ids*",		/* the stacks of the lock, by its name */
	"stacks.scaling",		/* a constant sentence: how the stacks are weighed */
	"locks#.holders.method",	/* of the lock's kind and figures */
	"locks#.holders.while_waited.handoff_ns",	/* waiter_ns less the states' */
	"threads#.name",		/* comm, when the thread has no name of its own */
	/* what-ifs: fitted again from the saved figures, as a run fits them */
	"whatif*", "why.model*",
	/* the run-wide syscalls: the threads' summed (join_retotal), as a run sums them */
	"syscalls.*",
	"caches#.mrc#.size_bytes",	/* size_items x the working set's bytes per item */
	"locks#.root*",			/* the wait chain: found again from the holders */
	"wait_graph*",			/* from the rows' waits and the locks' wakers */
	/* the confidence floor: of each cause's confidence (explain_floor) */
	"diagnosis#.ranked", "why.also_seen",
	"overhead.share", "overhead.bpf_est_ns",	/* of the sampled figures */
};

static bool derived(const char *path)
{
	for (size_t i = 0; i < sizeof(DERIVED) / sizeof(*DERIVED); i++)
		if (!fnmatch(DERIVED[i], path, 0))
			return true;
	return false;
}

/* Run argv to its end (stdin from /dev/null, or "go" for the Java
 * programs, which wait for it); 0 or the status after saying why. */
static void run_ok(char *const argv[], bool go)
{
	static char out[OUT_MAX], err[OUT_MAX];
	struct spawn_opts so = { .uid = -1, .errfd = -1 };
	int in[2] = { -1, -1 }, saved = -1, rc;

	if (go) {
		assert_int_equal(pipe(in), 0);
		assert_int_equal(write(in[1], "go\n", 3), 3);
		close(in[1]);
		saved = dup(0);
		dup2(in[0], 0);
	}
	rc = run_fctrace_out(argv, &so, out, sizeof(out), err, sizeof(err));
	if (go) {
		dup2(saved, 0);
		close(saved);
		close(in[0]);
	}
	if (rc != 0)
		fail_msg("%s %s: status %d\n%s", argv[1], argv[2], rc, err);
}

static void keep(const char *path)
{
	assert_true(ndocs < MAX_DOCS);
	snprintf(docs[ndocs++], sizeof(docs[0]), "%s", path);
}

/* ---- round trip ---------------------------------------------------------- */

static void assert_same_file(const char *a, const char *b)
{
	char cmd[1200];

	snprintf(cmd, sizeof(cmd), "cmp -s %s %s", a, b);
	if (system(cmd) == 0)
		return;
	/* the lines that differ say more than a byte offset */
	snprintf(cmd, sizeof(cmd), "diff %s %s | head -20 >&2", a, b);
	if (system(cmd) < 0)
		print_message("diff failed\n");
	fail_msg("%s and %s differ: the reader or the writer lost or changed a field", a, b);
}

static void assert_round_trip(const char *json)
{
	char again[600];

	snprintf(again, sizeof(again), "%s.again", json);
	run_ok(ARGV("report", (char *)json, "-q", "--json", again), false);
	assert_same_file(json, again);
	unlink(again);
}

/* The writer that makes and writes a run's threads one at a time
 * (report_json_write_run) writes, byte for byte, what json-c prints of
 * the whole document (report_json_run). */
static void assert_streamed_same(const char *json)
{
	char streamed[600], whole[600], why[320];
	struct json_object *doc;
	struct session s;

	assert_int_equal(load_run_file(json, &s, why, sizeof(why)), 0);
	snprintf(streamed, sizeof(streamed), "%s.streamed", json);
	snprintf(whole, sizeof(whole), "%s.whole", json);
	assert_int_equal(report_json_write_run(&s, streamed), 0);
	doc = report_json_run(&s);
	assert_int_equal(report_json_write(doc, whole), 0);
	json_object_put(doc);
	session_free(&s);
	assert_same_file(streamed, whole);
	unlink(streamed);
	unlink(whole);
}

/* ---- each field read ----------------------------------------------------- */

/* Where a value is: each step a key, or (key NULL) an array index. */
struct step {
	const char *key;
	size_t idx;
};

struct fields {
	struct json_object *doc;
	struct step path[MAX_DEPTH];
	int depth;
	unsigned changed, refused;
	char bad[4096];		/* the fields that did not come back */
	size_t nbad;
};

/* "threads#.syscalls.pread64.count": the path with any index as #. */
static void path_text(const struct fields *f, char *buf, size_t n)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < f->depth && len < n; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s%s", f->path[i].key && i ? "." : "",
					f->path[i].key ? f->path[i].key : "#");
}

static struct json_object *follow(struct json_object *o, const struct step *path, int depth)
{
	for (int i = 0; i < depth && o; i++) {
		struct json_object *next = NULL;

		if (path[i].key)
			json_object_object_get_ex(o, path[i].key, &next);
		else if (json_object_is_type(o, json_type_array))
			next = json_object_array_get_idx(o, path[i].idx);
		o = next;
	}
	return o;
}

/* v changed: another number, the other boolean, a longer string; NULL for
 * null and containers. */
static struct json_object *changed(struct json_object *v)
{
	char text[1024];

	switch (json_object_get_type(v)) {
	case json_type_int:
		return json_object_new_uint64(json_object_get_uint64(v) + 1);
	case json_type_double:
		return json_object_new_double(json_object_get_double(v) + 0.25);
	case json_type_boolean:
		return json_object_new_boolean(!json_object_get_boolean(v));
	case json_type_string:
		snprintf(text, sizeof(text), "%sx", json_object_get_string(v));
		return json_object_new_string(text);
	default:
		return NULL;
	}
}

/* Put v where the path ends (the parent's key or index); v's reference
 * goes to the parent. */
static void put(struct fields *f, struct json_object *v)
{
	struct json_object *parent = follow(f->doc, f->path, f->depth - 1);
	const struct step *last = &f->path[f->depth - 1];

	if (last->key)
		json_object_object_add(parent, last->key, v);
	else
		json_object_array_put_idx(parent, last->idx, v);
}

/* Whether the path (as path_text writes it) was checked before, in this
 * document or an earlier one; remembered when not. Each check reads and
 * writes the whole run, and the runs share most of their paths. */
static bool seen_before(const char *path)
{
	static char seen[4096][160];
	static size_t nseen;

	for (size_t i = 0; i < nseen; i++)
		if (!strcmp(seen[i], path))
			return true;
	if (nseen < 4096 && strlen(path) < sizeof(seen[0]))
		snprintf(seen[nseen++], sizeof(seen[0]), "%s", path);
	return false;
}

/* The file read with the field changed, and written again: does the new
 * value come back? */
static void check_field(struct fields *f, struct json_object *was)
{
	struct json_object *now, *out, *back;
	struct session s;
	char why[320], path[512];

	path_text(f, path, sizeof(path));
	if (seen_before(path) || !(now = changed(was)))
		return;
	json_object_get(was);
	put(f, json_object_get(now));
	f->changed++;
	if (load_run(f->doc, &s, why, sizeof(why))) {
		f->refused++;		/* the reader looked at it */
	} else {
		out = report_json_run(&s);
		back = follow(out, f->path, f->depth);
		if (!json_object_equal(back, now) && !derived(path) &&
		    f->nbad < sizeof(f->bad) - 200)
			f->nbad += (size_t)snprintf(f->bad + f->nbad, sizeof(f->bad) - f->nbad,
					"  %s: changed to %s, written back as %s\n", path,
					json_object_to_json_string(now),
					back ? json_object_to_json_string(back) : "(absent)");
		json_object_put(out);
	}
	session_free(&s);
	put(f, was);		/* the file as it was, for the next field */
	json_object_put(now);
}

static void visit(struct fields *f, struct json_object *v);

static void visit_step(struct fields *f, const char *key, size_t idx, struct json_object *v)
{
	assert_true(f->depth < MAX_DEPTH);
	f->path[f->depth++] = (struct step){ key, idx };
	visit(f, v);
	f->depth--;
}

/* Every member of an object; of an array, its middle element when it
 * holds values (a histogram), its first and last when it holds objects. */
static void visit(struct fields *f, struct json_object *v)
{
	size_t n;

	if (json_object_is_type(v, json_type_object)) {
		json_object_object_foreach(v, key, member)
			visit_step(f, key, 0, member);
	} else if (json_object_is_type(v, json_type_array)) {
		n = json_object_array_length(v);
		if (!n)
			return;
		if (!json_object_is_type(json_object_array_get_idx(v, 0), json_type_object)) {
			visit_step(f, NULL, n / 2, json_object_array_get_idx(v, n / 2));
			return;
		}
		visit_step(f, NULL, 0, json_object_array_get_idx(v, 0));
		if (n > 1)
			visit_step(f, NULL, n - 1, json_object_array_get_idx(v, n - 1));
	} else {
		check_field(f, v);
	}
}

/* The fields of json the reader dropped, each said (print_message: cmocka
 * cuts a long failure message); 0 when every one came back. */
static size_t fields_dropped(const char *json)
{
	struct fields f = { .doc = json_object_from_file(json) };

	if (!f.doc) {
		print_message("%s: not JSON\n", json);
		return 1;
	}
	visit(&f, f.doc);
	json_object_put(f.doc);
	print_message("%s: %u fields changed, %u refused by the reader\n", json, f.changed,
		      f.refused);
	if (f.nbad)
		print_message("%s: fields the reader dropped (or DERIVED misses):\n%s", json, f.bad);
	return f.nbad;
}

static void assert_each_field_read(const char *json)
{
	if (fields_dropped(json))
		fail_msg("%s: a field did not come back", json);
}

/* A run made, read back whole, and kept for the schema. */
static void check_run(const char *json)
{
	keep(json);
	assert_round_trip(json);
	assert_streamed_same(json);
	assert_each_field_read(json);
}

/* ---- the runs ------------------------------------------------------------ */

static void test_timing_only_runs(void **state)
{
	if (require_fctrace_binary("test_timing_only_runs"))
		skip();
	run_ok(ARGV("run", "--no-bpf", "--ops", "2000", "--threads", "3", "-q", "--json",
		    test_at("pool.json")), false);
	check_run(test_at("pool.json"));
	run_ok(ARGV("run", "--no-bpf", "--workload", "bcache", "--ops", "2000", "--threads", "2",
		    "-q", "--json", test_at("cache.json")), false);
	check_run(test_at("cache.json"));
}

/* A comparison's runs are run documents (checked above): its own keys
 * and the round trip here. A sweep is not read back: the schema only. */
static void test_compare_and_sweep(void **state)
{
	if (require_fctrace_binary("test_compare_and_sweep"))
		skip();
	run_ok(ARGV("compare", "--no-bpf", "--ops", "1000", "--threads", "2", "-q", "--json",
		    test_at("cmp.json")), false);
	keep(test_at("cmp.json"));
	assert_round_trip(test_at("cmp.json"));
	run_ok(ARGV("sweep", "--no-bpf", "--files", "10,60", "--threads", "2", "--ops", "500",
		    "--predict", "-q", "--json", test_at("sweep.json")), false);
	keep(test_at("sweep.json"));
}

static void test_traced_runs(void **state)
{
	BPF_TEST_REQUIRE();
	/* the built-in workload: every group, a timeline, the stacks */
	run_ok(ARGV("run", "--ops", "20000", "--threads", "4", "--timeline", "-q", "--json",
		    test_at("fcp.json")), false);
	check_run(test_at("fcp.json"));
	/* a comparison of two traced runs: its story of figures */
	run_ok(ARGV("compare", "--ops", "1000", "--threads", "2", "-q", "--json",
		    test_at("cmp_traced.json")), false);
	keep(test_at("cmp_traced.json"));
	assert_round_trip(test_at("cmp_traced.json"));
	/* another program: its named locks */
	run_ok(ARGV("run", "-q", "--json", test_at("prog.json"), "--", TARGET, "hold", "50"), false);
	check_run(test_at("prog.json"));
	/* the holders of two locks, one waited for holding the other */
	run_ok(ARGV("run", "--probes", "full,holders", "-q", "--json", test_at("chain.json"), "--",
		    TARGET, "chain", "100"), false);	/* 50 once showed no chain */
	check_run(test_at("chain.json"));
	/* pages dropped by fadvise and read again */
	run_ok(ARGV("run", "--probes", "full,pc-evict", "-q", "--json", test_at("evict.json"), "--",
		    TARGET, "coldread", "10", test_at("coldread.out")), false);
	check_run(test_at("evict.json"));
	/* a pool of 4 for 16 threads: the pools, their holds and what-ifs */
	run_ok(ARGV("run", "-q", "--json", test_at("pool.json"), "--", POOL_PROG, "sem", "4", "16",
		    "800", "1000", "0", "sleep"), false);
	check_run(test_at("pool.json"));
	/* two processes setting each other's latch: the sleeps a sibling
	 * ended, by the waker's call before it (sibling_wakers) */
	run_ok(ARGV("run", "--follow", "-q", "--json", test_at("latch.json"), "--", TARGET, "latch",
		    "20"), false);
	check_run(test_at("latch.json"));
	/* reads through an io_uring ring: the disk's rings */
	run_ok(ARGV("run", "-q", "--json", test_at("uring.json"), "--", TARGET, "uring", "8"),
	       false);
	check_run(test_at("uring.json"));
	/* new connections to two peers of its own: the connections' entries */
	assert_int_equal(mkdir(test_at("csock"), 0700), 0);
	run_ok(ARGV("run", "-q", "--json", test_at("conns.json"), "--", CONN_PROG,
		    test_at("csock"), "20", "2", "3", "0"), false);
	check_run(test_at("conns.json"));
	/* more threads alive at once than the table holds: a loss */
	run_ok(ARGV("run", "--max-threads", "64", "-q", "--json", test_at("lost.json"), "--", TARGET,
		    "threads", "100", "together"), false);
	check_run(test_at("lost.json"));
	traced_made = true;
}

/* A JVM with fctrace's agent: its monitors, their call sites, parks. */
static void test_traced_jvm(void **state)
{
	const char *why;

	BPF_TEST_REQUIRE();
	if ((why = java_unavailable())) {
		if (bpf_test_required())
			fail_msg("JDK required but unavailable: %s", why);
		print_message("skip: %s\n", why);
		traced_made = false;	/* the JVM's properties go unwritten */
		skip();
	}
	run_ok(ARGV("run", "--probes", "full,holders", "-q", "--json", test_at("jvm.json"), "--",
		    "java", "-cp", (char *)java_classpath(), "SiteBench", "3", "30", "5"), true);
	check_run(test_at("jvm.json"));
}

/* ---- the schema ---------------------------------------------------------- */

/* python3 tests/SCRIPT [ARGS] SCHEMA DOCS...: its status (3: no jsonschema). */
static int script(const char *name, const char *args, char *out, size_t n)
{
	char src[] = __FILE__, cmd[8192];
	const char *tests = dirname(dirname(src));
	size_t len, got;
	FILE *p;
	int status;

	len = (size_t)snprintf(cmd, sizeof(cmd), "python3 %s/%s %s %s/../docs/fctrace.schema.json",
			       tests, name, args, tests);
	for (int i = 0; i < ndocs; i++)
		len += (size_t)snprintf(cmd + len, sizeof(cmd) - len, " %s", docs[i]);
	assert_true(len + 8 < sizeof(cmd));
	snprintf(cmd + len, sizeof(cmd) - len, " 2>&1");
	assert_non_null(p = popen(cmd, "r"));
	got = fread(out, 1, n - 1, p);
	out[got] = '\0';
	status = pclose(p);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static void test_schema_describes_what_is_written(void **state)
{
	static char out[1 << 16];
	const char *req = getenv("FCTRACE_REQUIRE_SCHEMA"), *ci = getenv("CI");
	int rc;

	if (!ndocs)
		skip();
	rc = script("schema_check.py", "", out, sizeof(out));
	if (rc == 3 || rc == 127) {
		if ((req && !strcmp(req, "1")) || (ci && !strcmp(ci, "true")))
			fail_msg("python3-jsonschema is required here but missing: %s", out);
		print_message("skip: %s", out);
		skip();
	}
	if (rc)
		fail_msg("the documents do not validate:\n%s", out);
	/* without the traced runs, only what the written keys say */
	if (!traced_made)
		print_message("the traced runs were not made: the schema's properties are not "
			      "all asked for\n");
	rc = script("schema_coverage.py", traced_made ? "" : "--written-only", out, sizeof(out));
	if (rc)
		fail_msg("the schema and the runs differ:\n%s", out);
}

/* test_saved FILE...: the fields of saved runs made elsewhere, each file
 * alone (no round trip: the binary is not needed). */
static int check_files(int argc, char **argv)
{
	size_t bad = 0;

	for (int i = 1; i < argc; i++)
		bad += fields_dropped(argv[i]);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timing_only_runs),
		cmocka_unit_test(test_compare_and_sweep),
		cmocka_unit_test(test_traced_runs),
		cmocka_unit_test(test_traced_jvm),
		cmocka_unit_test(test_schema_describes_what_is_written),
	};

	if (argc > 1)
		return check_files(argc, argv);
	return cmocka_run_group_tests(tests, test_scratch_setup, test_scratch_teardown);
}
