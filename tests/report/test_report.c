/*
 * test_report.c - saved runs, through the binary as a user meets them:
 * `fctrace report FILE` prints exactly the text the run printed (its
 * tables and Why) and writes back the same JSON and HTML, for a timing-
 * only run, traced runs with several probe sets and a failed probe, a
 * compare document, a program run with `run -- CMD`, a program attached
 * to, and a JVM; `fctrace diff A B` prints exactly the comparison
 * `compare` printed of the same two runs, and writes its JSON, and
 * compares two runs of a program on the same terms. Every bad
 * input is one line naming the file, status 2, never a crash; nobody (no
 * privilege) reports a traced run's file as root does. The traced
 * tests skip without root (fail under FCTRACE_REQUIRE_BPF=1 or CI=true).
 */
#include <setjmp.h>
#include <signal.h>
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

#define TARGET	".output/tests/target_prog"
#define OUT_MAX	(1 << 19)

static char printed[OUT_MAX], reported[OUT_MAX], err[8192];
#define ARGV(...) ((char *const[]){ (char *)fctrace_binary(), __VA_ARGS__, NULL })

/* Run argv; its status, its stdout in out (or its stderr, for run -- CMD). */
static int run(char *const argv[], char *out, bool table_on_stderr)
{
	struct spawn_opts so = { .uid = -1, .errfd = -1 };
	char *table;
	int rc;

	if (!table_on_stderr)
		return run_fctrace_out(argv, &so, out, OUT_MAX, err, sizeof(err));
	rc = run_fctrace(argv, &so, out, OUT_MAX);
	err[0] = '\0';
	/* what CMD said on stderr before the report (a JVM's "Picked up
	 * JAVA_TOOL_OPTIONS", fctrace's notices) is not the report */
	if ((table = strstr(out, "fctrace run --: ")) || (table = strstr(out, "fctrace attach: ")))
		memmove(out, table, strlen(table) + 1);
	return rc;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = malloc(OUT_MAX * 8);

	assert_non_null(f);
	assert_non_null(buf);
	*len = fread(buf, 1, OUT_MAX * 8, f);
	fclose(f);
	return buf;
}

static void assert_same_file(const char *a, const char *b)
{
	size_t na, nb;
	char *x = slurp(a, &na), *y = slurp(b, &nb);

	if (na != nb || memcmp(x, y, na))
		fail_msg("%s and %s differ (%zu and %zu bytes)", a, b, na, nb);
	free(x);
	free(y);
}

static void assert_same_text(const char *want, const char *got)
{
	size_t i = 0;

	while (want[i] && want[i] == got[i])
		i++;
	if (want[i] || got[i])
		fail_msg("the report differs from the run at byte %zu:\n--- run:\n%.300s\n"
			 "--- report:\n%.300s", i, want + (i > 80 ? i - 80 : 0),
			 got + (i > 80 ? i - 80 : 0));
}

/* `report J` prints what the run printed (printed), and `report J --json
 * --html` writes back the run's own files. */
static void assert_reports_as_run(const char *json, const char *html)
{
	assert_int_equal(run(ARGV("report", (char *)json), reported, false), 0);
	assert_same_text(printed, reported);
	assert_int_equal(run(ARGV("report", (char *)json, "-q", "--json", test_at("again.json"),
				  "--html", test_at("again.html")), reported, false), 0);
	assert_string_equal(reported, "");
	assert_same_file(json, test_at("again.json"));
	if (html)
		assert_same_file(html, test_at("again.html"));
}

/* ---- round trips --------------------------------------------------------- */

static void test_timing_only_run(void **state)
{
	if (require_fctrace_binary("test_timing_only_run"))
		skip();
	assert_int_equal(run(ARGV("run", "--no-bpf", "--ops", "2000", "--threads", "3",
				  "--json", test_at("r.json"), "--html", test_at("r.html")), printed, false), 0);
	assert_non_null(strstr(printed, "Why fcp takes"));
	assert_reports_as_run(test_at("r.json"), test_at("r.html"));
}

/* A cache workload's run: the other totals, other rules in the Why. */
static void test_timing_only_cache_run(void **state)
{
	if (require_fctrace_binary("test_timing_only_cache_run"))
		skip();
	assert_int_equal(run(ARGV("run", "--no-bpf", "--workload", "bcache", "--ops", "2000",
				  "--threads", "2", "--json", test_at("c.json")), printed, false), 0);
	assert_non_null(strstr(printed, "cache: "));
	assert_reports_as_run(test_at("c.json"), NULL);
}

/* report needs no privilege: nobody prints a traced run's file as well
 * (from a copy it may read: the test's directory is private). */
static void assert_reports_as_nobody(const char *json)
{
	char copy[] = "/tmp/fctrace-saved-XXXXXX";
	struct spawn_opts nobody = { .uid = 65534, .errfd = -1 };
	int fd = mkstemp(copy), rc;
	size_t len;
	char *text = slurp(json, &len);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	assert_int_equal(fchmod(fd, 0644), 0);
	close(fd);
	free(text);
	rc = run_fctrace_out(ARGV("report", copy), &nobody, reported, OUT_MAX, err, sizeof(err));
	unlink(copy);
	if (rc != 0)
		fail_msg("report as nobody: status %d, %s", rc, err);
	assert_same_text(printed, reported);
}

static void test_traced_runs(void **state)
{
	static const char *const sets[] = { "full", "light", "syscalls,klock", "full,pc-lookups" };

	BPF_TEST_REQUIRE();
	for (size_t i = 0; i < sizeof(sets) / sizeof(*sets); i++) {
		assert_int_equal(run(ARGV("run", "--ops", "20000", "--probes", (char *)sets[i],
					  "--json", test_at("t.json"), "--html", test_at("t.html")),
				     printed, false), 0);
		assert_non_null(strstr(printed, "Probes: "));
		assert_reports_as_run(test_at("t.json"), test_at("t.html"));
	}
	assert_reports_as_nobody(test_at("t.json"));
}

/* --timeline: its summary line and JSON object come back (the lanes are
 * the trace file's, not the saved run's). */
static void test_traced_run_with_a_timeline(void **state)
{
	BPF_TEST_REQUIRE();
	assert_int_equal(run(ARGV("run", "--ops", "20000", "--timeline", "--timeline-start", "5",
				  "--json", test_at("tl.json")), printed, false), 0);
	assert_non_null(strstr(printed, "Timeline: "));
	assert_reports_as_run(test_at("tl.json"), NULL);
}

/* A probe that failed: "unavailable here" and the probe's reason again. */
static void test_traced_run_with_a_failed_probe(void **state)
{
	BPF_TEST_REQUIRE();
	setenv("FCTRACE_TEST_FAIL_PROBE", "fct_pc_add", 1);
	assert_int_equal(run(ARGV("run", "--ops", "20000", "--json", test_at("f.json")), printed,
			     false), 0);
	unsetenv("FCTRACE_TEST_FAIL_PROBE");
	assert_non_null(strstr(printed, "unavailable here: pagecache"));
	assert_reports_as_run(test_at("f.json"), NULL);
}

/* ---- comparisons --------------------------------------------------------- */

/* The runs of compare document path, each saved alone as DIR/a.json, b.json. */
static void split_compare(const char *path)
{
	struct json_object *doc = json_object_from_file(path), *runs = NULL;

	assert_non_null(doc);
	assert_true(json_object_object_get_ex(doc, "runs", &runs));
	assert_int_equal(json_object_to_file_ext(test_at("a.json"), json_object_array_get_idx(runs, 0),
						 JSON_C_TO_STRING_PRETTY), 0);
	assert_int_equal(json_object_to_file_ext(test_at("b.json"), json_object_array_get_idx(runs, 1),
						 JSON_C_TO_STRING_PRETTY), 0);
	json_object_put(doc);
}

/* compare, then report its document, and diff its two runs saved apart. */
static void check_compare(char *const compare_argv[])
{
	const char *terms;

	assert_int_equal(run(compare_argv, printed, false), 0);
	assert_non_null(terms = strstr(printed, "\nCompare "));
	/* the document prints as compare printed it: both tables, the terms */
	assert_reports_as_run(test_at("cmp.json"), test_at("cmp.html"));
	split_compare(test_at("cmp.json"));
	assert_int_equal(run(ARGV("diff", test_at("a.json"), test_at("b.json"), "--json", test_at("d.json"),
				  "--html", test_at("d.html")), reported, false), 0);
	assert_same_text(terms, reported);
	assert_same_file(test_at("cmp.json"), test_at("d.json"));
	assert_same_file(test_at("cmp.html"), test_at("d.html"));
}

static void test_timing_only_compare_and_diff(void **state)
{
	if (require_fctrace_binary("test_timing_only_compare_and_diff"))
		skip();
	check_compare(ARGV("compare", "--no-bpf", "--ops", "2000", "--threads", "2",
			   "--json", test_at("cmp.json"), "--html", test_at("cmp.html")));
}

static void test_traced_compare_and_diff(void **state)
{
	BPF_TEST_REQUIRE();
	check_compare(ARGV("compare", "--workload", "fcp,fcp-fixed", "--ops", "20000",
			   "--json", test_at("cmp.json"), "--html", test_at("cmp.html")));
	assert_non_null(strstr(reported, "term by term"));
}

/* Runs made at different settings: said before compare's heading, which
 * gives the first run's as both runs'. */
static void test_diff_of_different_settings(void **state)
{
	if (require_fctrace_binary("test_diff_of_different_settings"))
		skip();
	assert_int_equal(run(ARGV("run", "--no-bpf", "--ops", "500", "--threads", "2", "--files",
				  "100", "-q", "--json", test_at("f100.json")), printed, false), 0);
	assert_int_equal(run(ARGV("run", "--no-bpf", "--ops", "500", "--threads", "2", "-q",
				  "--json", test_at("f60.json")), printed, false), 0);
	assert_int_equal(run(ARGV("diff", test_at("f100.json"), test_at("f60.json")), reported, false), 0);
	assert_non_null(strstr(reported, "The runs' settings differ:\n"));
	assert_non_null(strstr(reported, "f100.json: fcp, 100 files, pool 50, 2 threads x 500 ops"));
	assert_non_null(strstr(reported, "f60.json: fcp, 60 files, pool 50, 2 threads x 500 ops"));
	/* two runs of fcp: each named by the time it began */
	assert_non_null(strstr(reported, "\nCompare fcp "));
	assert_non_null(strstr(reported, " with fcp "));
	assert_non_null(strstr(reported, " at the same settings"));
	/* the same settings: no such line (check_compare wants compare's text) */
	assert_int_equal(run(ARGV("diff", test_at("f60.json"), test_at("f60.json")), reported, false), 0);
	assert_null(strstr(reported, "settings differ"));
	assert_non_null(strstr(reported, "+0 %"));
}

/* ---- other programs ------------------------------------------------------ */

/* run -- CMD prints its table on stderr; report prints it on stdout. */
static void test_run_a_program(void **state)
{
	BPF_TEST_REQUIRE();
	assert_int_equal(run(ARGV("run", "--json", test_at("p.json"), "--html", test_at("p.html"), "--",
				  TARGET, "hold", "50"), printed, true), 0);
	assert_non_null(strstr(printed, "Lock names: "));
	assert_non_null(strstr(printed, "session_table_lock"));
	assert_reports_as_run(test_at("p.json"), test_at("p.html"));
	/* the same program, held longer: diff says what changed, without the
	 * workloads' settings and per-op figures (a program has neither) */
	assert_int_equal(run(ARGV("run", "--json", test_at("p2.json"), "--", TARGET, "hold", "150"),
			     printed, true), 0);
	assert_int_equal(run(ARGV("diff", test_at("p.json"), test_at("p2.json"), "--json", test_at("pd.json"),
				  "--html", test_at("pd.html")), reported, false), 0);
	/* two runs of one program, each named by the time it began; each ran
	 * to its end (its wall is its work): totals, and Net of the walls */
	assert_non_null(strstr(reported, "\nCompare target_prog "));
	assert_non_null(strstr(reported, " with target_prog "));
	assert_non_null(strstr(reported, "\n  (a: " TARGET " hold 50, window "));
	assert_null(strstr(reported, "fixed"));
	assert_non_null(strstr(reported, "   b: " TARGET " hold 150, window "));
	assert_non_null(strstr(reported, "  lock wait   it saves "));
	assert_non_null(strstr(reported, "Net: target_prog "));
	assert_non_null(strstr(reported, " takes "));
	assert_null(strstr(reported, "per op"));
	assert_null(strstr(reported, "0 files"));
	/* and its document prints again as diff printed it (report of a comparison) */
	assert_int_equal(run(ARGV("report", test_at("pd.json")), printed, false), 0);
	assert_non_null(strstr(printed, reported));
	/* a program against a workload: one line */
	assert_int_equal(run(ARGV("run", "--no-bpf", "--ops", "200", "--threads", "2", "-q",
				  "--json", test_at("w.json")), printed, false), 0);
	assert_int_equal(run(ARGV("diff", test_at("w.json"), test_at("p.json")), reported, false), 2);
	assert_non_null(strstr(err, "p.json: is a run of another program (run -- CMD, attach), "
			       "the other file a workload's"));
}

static void test_attach_to_a_program(void **state)
{
	char *const prog[] = { TARGET, "sleep", "3000", NULL };
	char pid[16];
	pid_t child;

	BPF_TEST_REQUIRE();
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		execv(prog[0], prog);
		_exit(127);
	}
	snprintf(pid, sizeof(pid), "%d", (int)child);
	usleep(100000);		/* let it exec and go to sleep */
	/* on standard error, as run -- prints it */
	assert_int_equal(run(ARGV("attach", "-p", pid, "--duration", "0.3", "--json",
				  test_at("at.json")), printed, true), 0);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	assert_non_null(strstr(printed, "fctrace attach: "));
	assert_reports_as_run(test_at("at.json"), NULL);
	/* an attach's window is fixed: diff compares per second of it, and
	 * has no Net of the windows' lengths */
	assert_int_equal(run(ARGV("diff", test_at("at.json"), test_at("at.json")), reported, false), 0);
	assert_non_null(strstr(reported, " fixed, "));
	assert_non_null(strstr(reported, "\nwindow (fixed) "));
	assert_non_null(strstr(reported, "waiting on locks /s "));
	assert_null(strstr(reported, "operations /s"));	/* it counts none */
	assert_non_null(strstr(reported, "Net: fixed windows ("));
	assert_null(strstr(reported, " takes "));
}

/* run -- java with "go" on its stdin (the Java programs wait for it). */
static int run_java(char *const argv[])
{
	int in[2], saved = dup(0), rc;

	assert_int_equal(pipe(in), 0);
	assert_int_equal(write(in[1], "go\n", 3), 3);
	close(in[1]);
	dup2(in[0], 0);
	rc = run(argv, printed, true);
	dup2(saved, 0);
	close(saved);
	close(in[0]);
	return rc;
}

static void test_run_a_jvm(void **state)
{
	JAVA_REQUIRE();
	assert_int_equal(run_java(ARGV("run", "--json", test_at("j.json"), "--", "java", "-cp",
				       (char *)java_classpath(), "PoolBench", "4", "10", "2")), 0);
	assert_non_null(strstr(printed, "\nJVM: "));
	assert_non_null(strstr(printed, "PoolBench$Pool"));
	assert_reports_as_run(test_at("j.json"), NULL);
}

/* ---- bad input ----------------------------------------------------------- */

static void write_text(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* A member of an object, or (part all digits) an element of an array. */
static struct json_object *member(struct json_object *o, const char *part)
{
	struct json_object *v = NULL;

	if (json_object_is_type(o, json_type_array))
		return json_object_array_get_idx(o, (size_t)atoi(part));
	assert_true(json_object_object_get_ex(o, part, &v));
	return v;
}

/* A saved run with one change: key (members joined by '.', an array's
 * elements by their index) set to value (JSON text; NULL: removed). */
static void edited(const char *from, const char *to, const char *key, const char *value)
{
	struct json_object *doc = json_object_from_file(from), *o = doc;
	char path[128], *save = NULL, *parts[8];
	int n = 0;

	assert_non_null(doc);
	snprintf(path, sizeof(path), "%s", key);
	for (char *p = strtok_r(path, ".", &save); p && n < 8; p = strtok_r(NULL, ".", &save))
		parts[n++] = p;
	for (int i = 0; i < n - 1; i++)
		o = member(o, parts[i]);
	if (json_object_is_type(o, json_type_array))
		json_object_array_put_idx(o, (size_t)atoi(parts[n - 1]), json_tokener_parse(value));
	else if (value)
		json_object_object_add(o, parts[n - 1], json_tokener_parse(value));
	else
		json_object_object_del(o, parts[n - 1]);
	assert_int_equal(json_object_to_file(to, doc), 0);
	json_object_put(doc);
}

/* fctrace report path: status 2 and one line, "fctrace: PATH: ...why...". */
static void assert_refused(const char *cmd, const char *path, const char *why)
{
	char want[600];
	int rc = cmd[0] == 'r' ? run(ARGV("report", (char *)path), reported, false)
			       : run(ARGV("diff", test_at("r.json"), (char *)path), reported, false);
	const char *nl = strchr(err, '\n');

	snprintf(want, sizeof(want), "fctrace: %s: ", path);
	if (rc != 2 || strncmp(err, want, strlen(want)) || !nl || nl[1] || !strstr(err, why))
		fail_msg("%s %s: status %d, stderr '%s' (wanted one line with '%s')", cmd, path,
			 rc, err, why);
	assert_string_equal(reported, "");
}

static void test_bad_input(void **state)
{
	const char *saved = test_at("r.json");

	if (require_fctrace_binary("test_bad_input"))
		skip();
	assert_int_equal(run(ARGV("run", "--no-bpf", "--ops", "200", "--threads", "2",
				  "--json", (char *)saved, "-q"), printed, false), 0);
	assert_refused("report", test_at("missing.json"), "No such file or directory");
	assert_refused("report", test_scratch, "is a directory, not a saved run");
	write_text(test_at("empty.json"), "", 0);
	assert_refused("report", test_at("empty.json"), "is empty, not JSON");
	write_text(test_at("text.json"), "fctrace run: fcp\n", 17);
	assert_refused("report", test_at("text.json"), "is not JSON");
	write_text(test_at("two.json"), "{}\n{}\n", 6);
	assert_refused("report", test_at("two.json"), "is not one JSON document");
	write_text(test_at("nul.json"), "{\"schema_version\": 2}\0", 22);
	assert_refused("report", test_at("nul.json"), "is not one JSON document");
	write_text(test_at("array.json"), "[1, 2]", 6);
	assert_refused("report", test_at("array.json"), "not an fctrace document");
	write_text(test_at("other.json"), "{\"name\": \"x\"}", 13);
	assert_refused("report", test_at("other.json"), "not an fctrace document (no \"schema_version\")");
	{
		size_t len;
		char *text = slurp(saved, &len);

		write_text(test_at("cut.json"), text, len / 2);	/* truncated */
		free(text);
	}
	assert_refused("report", test_at("cut.json"), "is cut short");
	assert_refused("diff", test_at("cut.json"), "is cut short");
}

/* Documents that are JSON, but not a saved run this fctrace can print. */
static void test_wrong_documents(void **state)
{
	const char *saved = test_at("r.json"), *bad = test_at("bad.json");

	if (require_fctrace_binary("test_wrong_documents"))
		skip();
	assert_int_equal(run(ARGV("run", "--no-bpf", "--ops", "200", "--threads", "2",
				  "--json", (char *)saved, "-q"), printed, false), 0);
	edited(saved, bad, "schema_version", "1");
	assert_refused("report", bad, "has schema_version 1, this fctrace reads 2 only: an older");
	edited(saved, bad, "schema_version", "3");
	assert_refused("report", bad, "has schema_version 3, this fctrace reads 2 only: a newer");
	edited(saved, bad, "schema_version", "\"2\"");
	assert_refused("report", bad, "\"schema_version\" must be a whole number");
	edited(saved, bad, "why", NULL);
	assert_refused("report", bad, "\"why\" is missing");
	edited(saved, bad, "threads.1.ops", "-5");
	assert_refused("report", bad, "threads[1]: \"ops\" must be a whole number >= 0 (got a "
		       "negative one)");
	edited(saved, bad, "threads.0.latency.hist", "[1, 2]");
	assert_refused("report", bad, "threads[0].latency: \"hist\" must have 304 elements");
	/* an empty histogram stands for its zeros (a row nothing timed) */
	edited(saved, bad, "threads.0.latency.hist", "[]");
	assert_int_equal(run(ARGV("report", (char *)bad), reported, false), 0);
	edited(saved, bad, "threads.0.end_ns", "0");
	assert_refused("report", bad, "threads[0]: \"end_ns\" is before start_ns");
	edited(saved, bad, "threads.1", "\"x\"");
	assert_refused("report", bad, "threads[1]: must be an object");
	edited(saved, bad, "config.workload", "\"\"");
	assert_refused("report", bad, "\"config.workload\" must name the workload or the program");
	/* a workload of a newer fctrace: printed by its name */
	edited(saved, bad, "config.workload", "\"fcp-next\"");
	assert_int_equal(run(ARGV("report", (char *)bad), reported, false), 0);
	assert_true(!strncmp(reported, "fctrace run: fcp-next, 60 files, pool 50,", 41));
	edited(saved, bad, "config.cache", "\"tepid\"");
	assert_refused("report", bad, "config: \"cache\" must be one of warm cold");
	edited(saved, bad, "config.pressure", "\"high\"");
	assert_refused("report", bad, "config: \"pressure\" must be a number (got a string)");
	edited(saved, bad, "diagnosis.0.evidence", "{}");
	assert_refused("report", bad, "diagnosis[0]: \"evidence\" must be an array (got an object)");
	edited(saved, bad, "cache", "{}");
	assert_refused("report", bad, "has both pool and cache totals");
	edited(saved, bad, "probe_set", "\"most\"");
	assert_refused("report", bad, "\"probe_set\" must be one of full light custom floor none");
	assert_int_equal(run(ARGV("sweep", "--no-bpf", "--workload", "fc", "--files", "10",
				  "--threads", "1", "--ops", "100", "-q", "--json", test_at("sw.json")),
			     printed, false), 0);
	assert_refused("report", test_at("sw.json"), "is a sweep");
	assert_refused("diff", test_at("sw.json"), "is a sweep");
	assert_int_equal(run(ARGV("compare", "--no-bpf", "--ops", "200", "--threads", "2", "-q",
				  "--json", test_at("cmp.json")), printed, false), 0);
	assert_refused("diff", test_at("cmp.json"), "is a comparison already");
	edited(test_at("cmp.json"), bad, "runs.1.wall_ns", "null");
	assert_refused("report", bad, "runs[1]: \"wall_ns\" must be a whole number >= 0 (got null)");
}

/* The command line: the files, and only the output options. */
static void test_command_line(void **state)
{
	if (require_fctrace_binary("test_command_line"))
		skip();
	assert_int_equal(run(ARGV("report"), reported, false), 2);
	assert_string_equal(err, "fctrace: report takes one saved run: fctrace report FILE.json\n");
	assert_int_equal(run(ARGV("diff", "a.json"), reported, false), 2);
	assert_string_equal(err, "fctrace: diff takes two saved runs: fctrace diff A.json "
			    "B.json\n");
	assert_int_equal(run(ARGV("diff", "a", "b", "c"), reported, false), 2);
	assert_string_equal(err, "fctrace: unexpected argument c\n");
	assert_int_equal(run(ARGV("report", "a.json", "--files", "10"), reported, false), 2);
	assert_string_equal(err, "fctrace: --files does not apply to `fctrace report`: the run "
			    "is in the file (see fctrace --help)\n");
	assert_int_equal(run(ARGV("diff", "a", "b", "--no-bpf"), reported, false), 2);
	assert_non_null(strstr(err, "--no-bpf does not apply to `fctrace diff`"));
	assert_int_equal(run(ARGV("report", "a.json", "--csv", "x.csv"), reported, false), 2);
	/* the outputs are checked before anything is read */
	assert_int_equal(run(ARGV("report", "a.json", "--json", "/nonexistent/x.json"), reported,
			     false), 2);
	assert_non_null(strstr(err, "--json /nonexistent/x.json: its directory does not exist"));
}

/* attach -p A,B,C, some ended: the header says which, not "(pid A),
 * still running" after A exited; all or none ended: as for one. */
static void test_attach_list_end(void **state)
{
	struct target_info ti = { .mode = TGT_ATTACH, .pid = 10, .npids = 3,
				  .pids = { 10, 20, 30 }, .ended = { true, false, true } };
	char buf[256];

	(void)state;
	report_target_end(buf, sizeof(buf), &ti);
	assert_string_equal(buf, "10,30 exited during the attach, 20 still running");
	ti.ended[0] = ti.ended[2] = false;
	report_target_end(buf, sizeof(buf), &ti);
	assert_string_equal(buf, "still running");
	ti.ended[0] = ti.ended[1] = ti.ended[2] = ti.exited = true;
	report_target_end(buf, sizeof(buf), &ti);
	assert_string_equal(buf, "exited during the attach");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attach_list_end),
		cmocka_unit_test(test_timing_only_run),
		cmocka_unit_test(test_timing_only_cache_run),
		cmocka_unit_test(test_timing_only_compare_and_diff),
		cmocka_unit_test(test_diff_of_different_settings),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_wrong_documents),
		cmocka_unit_test(test_command_line),
		cmocka_unit_test(test_traced_runs),
		cmocka_unit_test(test_traced_run_with_a_failed_probe),
		cmocka_unit_test(test_traced_run_with_a_timeline),
		cmocka_unit_test(test_traced_compare_and_diff),
		cmocka_unit_test(test_run_a_program),
		cmocka_unit_test(test_attach_to_a_program),
		cmocka_unit_test(test_run_a_jvm),
	};

	return cmocka_run_group_tests(tests, test_scratch_setup, test_scratch_teardown);
}
