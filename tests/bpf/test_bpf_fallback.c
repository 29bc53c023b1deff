/*
 * test_bpf_fallback.c - a probe the kernel will not take is reported
 * unavailable with its reason, its fallback form runs where it has one,
 * and everything else still runs and counts exactly (needs root). The
 * failures are injected with the loader's test hook
 * FCTRACE_TEST_FAIL_PROBE, which makes the kernel refuse the program.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <json-c/json.h>
#include <sys/syscall.h>
#include "binutil.h"
#include "bpfutil.h"
#include "testutil.h"

#define N_OPENS	500
#define HOLDERS	"holders (in sys_enter/exit and sched_switch)"	/* its row */

static void open_close(struct marked *m)
{
	for (int i = 0; i < N_OPENS; i++) {
		int fd = open("/dev/null", O_RDONLY);

		if (fd < 0)
			m->user[0]++;
		else
			close(fd);
	}
}

/* tp_btf/sys_enter and sys_exit refused: the raw_tp forms take over,
 * and the counts are as exact as ever; the holders code, which rides
 * only in the tp_btf forms, says so. */
static void test_syscalls_fall_back_to_raw_tp(void **state)
{
	const struct probe_status *ps;
	struct bpf_fixture fx;
	struct marked m[3];

	BPF_TEST_REQUIRE();
	setenv("FCTRACE_TEST_FAIL_PROBE", "fct_sys_enter,tp_btf/sys_exit", 1);
	bpf_fixture_start(&fx, PG_FULL);
	unsetenv("FCTRACE_TEST_FAIL_PROBE");
	assert_non_null(ps = probe_named(&fx.kv, "tp_btf/sys_enter"));
	assert_int_equal(ps->state, PROBE_FAILED);
	assert_string_equal(ps->reason, "load failed: Invalid argument; ran as raw_tp/sys_enter");
	assert_non_null(ps = probe_named(&fx.kv, "tp_btf/sys_exit"));
	assert_string_equal(ps->reason, "load failed: Invalid argument; ran as raw_tp/sys_exit");
	assert_non_null(ps = probe_named(&fx.kv, "raw_tp/sys_enter"));
	assert_int_equal(ps->state, PROBE_OK);
	assert_non_null(ps = probe_named(&fx.kv, "raw_tp/sys_exit"));
	assert_int_equal(ps->state, PROBE_OK);
	assert_non_null(ps = probe_named(&fx.kv, HOLDERS));
	assert_int_equal(ps->state, PROBE_FAILED);
	assert_string_equal(ps->reason, "tp_btf/sys_enter did not run: the holders code rides in it");
	assert_int_equal(fx.kv.groups, PG_FULL & ~PG_MASK(PG_HOLDERS));

	run_marked(m, 3, open_close, NULL);
	bpf_fixture_read(&fx);
	for (int i = 0; i < 3; i++) {
		const struct fct_thread *t = kview_thread(&fx.kv, m[i].tid);

		assert_int_equal(m[i].user[0], 0);
		assert_non_null(t);
		assert_int_equal(acct_nr(t, __NR_openat)->count, N_OPENS);
		assert_int_equal(acct_nr(t, __NR_close)->count, N_OPENS);
	}
	bpf_fixture_done(&fx);
}

/* The holders code refused: the programs it rides in load again
 * without it (the rodata flag cleared), its row says why, and the rest
 * runs and counts exactly. */
static void test_holders_reload_without_it(void **state)
{
	const struct probe_status *ps;
	struct bpf_fixture fx;
	struct marked m[2];

	BPF_TEST_REQUIRE();
	setenv("FCTRACE_TEST_FAIL_PROBE", "fct_holders", 1);
	bpf_fixture_start(&fx, PG_FULL);
	unsetenv("FCTRACE_TEST_FAIL_PROBE");
	assert_non_null(ps = probe_named(&fx.kv, HOLDERS));
	assert_int_equal(ps->state, PROBE_FAILED);
	assert_string_equal(ps->reason, "load failed: Invalid argument; the rest ran without it");
	assert_non_null(ps = probe_named(&fx.kv, "tp_btf/sys_enter"));
	assert_int_equal(ps->state, PROBE_OK);
	assert_non_null(ps = probe_named(&fx.kv, "tp_btf/sched_switch"));
	assert_int_equal(ps->state, PROBE_OK);
	assert_int_equal(fx.kv.groups, PG_FULL & ~PG_MASK(PG_HOLDERS));

	run_marked(m, 2, open_close, NULL);
	bpf_fixture_read(&fx);
	for (int i = 0; i < 2; i++) {
		const struct fct_thread *t = kview_thread(&fx.kv, m[i].tid);

		assert_non_null(t);
		assert_int_equal(acct_nr(t, __NR_openat)->count, N_OPENS);
		assert_int_equal(acct_nr(t, __NR_close)->count, N_OPENS);
	}
	bpf_fixture_done(&fx);
}

static const char *json_str(struct json_object *o, const char *k1, const char *k2)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, k1, &v) || (k2 && !json_object_object_get_ex(v, k2, &v)))
		return NULL;
	return json_object_get_string(v);
}

static int64_t json_int(struct json_object *o, const char *k1, const char *k2, const char *k3)
{
	struct json_object *v;

	assert_true(json_object_object_get_ex(o, k1, &v));
	assert_true(!k2 || json_object_object_get_ex(v, k2, &v));
	assert_true(!k3 || json_object_object_get_ex(v, k3, &v));
	assert_non_null(v);
	return json_object_get_int64(v);
}

/* Is there a line in text that begins with line_start? */
static bool has_line(const char *text, const char *line_start)
{
	size_t n = strlen(line_start);

	for (const char *p = text; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, line_start, n))
			return true;
	return false;
}

/* `fctrace run` of fc, 2 threads x 300 ops, with FCTRACE_TEST_FAIL_PROBE
 * set to fail: exit status, the table in out, the JSON in *doc. */
static int run_failing(const char *fail, char *out, size_t outlen, char *err, size_t errlen,
		       struct json_object **doc)
{
	char path[] = "/tmp/fct-fallback-XXXXXX", *dir = test_dir_make();
	char *argv[] = { (char *)fctrace_binary(), "run", "--workload", "fc", "--files", "10",
			 "--threads", "2", "--ops", "300", "--dir", dir, "--json", path, NULL };
	int fd = mkstemp(path), rc;

	assert_true(fd >= 0);
	close(fd);
	setenv("FCTRACE_TEST_FAIL_PROBE", fail, 1);
	rc = run_fctrace_out(argv, NULL, out, outlen, err, errlen);
	unsetenv("FCTRACE_TEST_FAIL_PROBE");
	*doc = rc == 0 ? json_object_from_file(path) : NULL;
	unlink(path);
	assert_true(test_dir_is_empty(dir));
	test_dir_remove(dir);
	return rc;
}

/* The page-cache probe refused: the run succeeds, the table and the JSON
 * say which probe and why, the page-cache figures are absent (not 0),
 * and every other figure is there: syscall counts exact. */
static void test_missing_probe_reported_rest_runs(void **state)
{
	static char out[65536];
	struct json_object *doc, *t, *v;
	char err[1024];

	BPF_TEST_REQUIRE();
	assert_int_equal(run_failing("tp_btf/mm_filemap_add_to_page_cache", out, sizeof(out),
				     err, sizeof(err), &doc), 0);
	assert_true(has_line(out, "unavailable here: pagecache (their probes failed"));
	assert_true(has_line(out, "  tp_btf/mm_filemap_add_to_page_cache: load failed: "
			     "Invalid argument"));
	assert_non_null(strstr(out, " set, 22 attached, 1 failed, "));	/* the Probes line */
	assert_false(has_line(out, "Page cache:"));
	assert_true(has_line(out, "openat            600 "));
	assert_true(has_line(out, "close             600 "));
	assert_true(has_line(out, "Time account per thread"));

	assert_non_null(doc);
	assert_string_equal(json_str(doc, "probes", "tp_btf/mm_filemap_add_to_page_cache"),
			    "load failed: Invalid argument");
	assert_string_equal(json_str(doc, "probes", "tp_btf/sched_switch"), "ok");
	assert_string_equal(json_str(doc, "probes", "tp_btf/sys_enter"), "ok");
	assert_int_equal(json_int(doc, "syscalls", "openat", "count"), 600);
	assert_int_equal(json_int(doc, "syscalls", "close", "count"), 600);
	assert_true(json_object_object_get_ex(doc, "threads", &t));
	assert_int_equal(json_object_array_length(t), 2);
	t = json_object_array_get_idx(t, 0);
	assert_true(json_object_object_get_ex(t, "pagecache_misses", &v));
	assert_null(v);					/* not measured, not 0 */
	assert_true(json_int(t, "oncpu_ns", NULL, NULL) > 0);
	assert_int_equal(json_int(t, "syscalls", "openat", "count"), 300);
	json_object_put(doc);
}

/* Both forms of sys_enter refused (the raw_tp one at attach): the
 * syscalls group is unavailable, the rest still measured. */
static void test_fallback_fails_too(void **state)
{
	static char out[65536];
	struct json_object *doc, *t, *v;
	char err[1024];

	BPF_TEST_REQUIRE();
	assert_int_equal(run_failing("tp_btf/sys_enter,raw_tp/sys_enter", out, sizeof(out),
				     err, sizeof(err), &doc), 0);
	/* the holders code rides in tp_btf/sys_enter */
	assert_true(has_line(out, "unavailable here: syscalls holders (their probes failed"));
	assert_true(has_line(out, "  tp_btf/sys_enter: load failed: Invalid argument"));
	assert_true(has_line(out, "  raw_tp/sys_enter: attach failed: No such file or directory"));
	assert_false(has_line(out, "Syscalls (all workers"));
	assert_non_null(doc);
	assert_string_equal(json_str(doc, "probes", "raw_tp/sys_enter"),
			    "attach failed: No such file or directory");
	assert_true(json_object_object_get_ex(doc, "syscalls", &v));
	assert_null(v);
	assert_true(json_object_object_get_ex(doc, "threads", &t));
	t = json_object_array_get_idx(t, 0);
	assert_int_equal(json_int(t, "ops", NULL, NULL), 300);
	assert_true(json_int(t, "oncpu_ns", NULL, NULL) > 0);	/* sched still ran */
	json_object_put(doc);
}

/* The cpu-clock event cannot be opened: the run goes on, the probe says
 * why and that the split falls back, and the JSON names the method. */
static void test_cpuclock_falls_back_to_hooks(void **state)
{
	static char out[65536];
	struct json_object *doc, *t;
	char err[1024];

	BPF_TEST_REQUIRE();
	assert_int_equal(run_failing("perf_event/cpu-clock", out, sizeof(out), err, sizeof(err),
				     &doc), 0);
	assert_true(has_line(out, "unavailable here: cpuclock (their probes failed"));
	assert_true(has_line(out, "  perf_event/cpu-clock: cannot open a cpu-clock event: No such "
			     "file or directory; user/sys split from the syscall hooks"));
	assert_true(has_line(out, "user/sys split: syscall hooks (0 of 2 threads sampled at 997 "
			     "Hz; the others by time"));
	assert_true(has_line(out, "  inside syscalls, which leaves out their entry and exit, "
			     "interrupts and page faults)"));
	assert_non_null(doc);
	assert_string_equal(json_str(doc, "cpu_split", "method"), "syscall hooks");
	assert_int_equal(json_int(doc, "cpu_split", "samples_user", NULL), 0);
	assert_int_equal(json_int(doc, "cpu_split", "threads_sampled", NULL), 0);
	assert_string_equal(json_str(doc, "probe_set", NULL), "full");
	assert_true(json_object_object_get_ex(doc, "threads", &t));
	t = json_object_array_get_idx(t, 0);
	assert_true(json_int(t, "oncpu_ns", NULL, NULL) > 0);
	json_object_put(doc);
}

/* Without the marks nothing can be measured: exit 1 with one line, and
 * neither the JSON nor a data file is left behind. */
static void test_failed_run_leaves_nothing(void **state)
{
	char path[] = "/tmp/fct-fallback-XXXXXX", err[1024], *dir = test_dir_make();
	char *argv[] = { (char *)fctrace_binary(), "run", "--workload", "fc", "--files", "10",
			 "--ops", "300", "--quiet", "--dir", dir, "--json", path, NULL };
	struct stat st;

	BPF_TEST_REQUIRE();
	assert_non_null(mkdtemp(path));			/* a fresh name, then gone */
	rmdir(path);
	setenv("FCTRACE_TEST_FAIL_PROBE", "fct_mark_begin", 1);
	assert_int_equal(run_fctrace(argv, NULL, err, sizeof(err)), 1);
	unsetenv("FCTRACE_TEST_FAIL_PROBE");
	assert_non_null(strstr(err, "cannot attach uprobes"));
	assert_non_null(strchr(err, '\n'));
	assert_int_equal(strchr(err, '\n')[1], '\0');		/* one line */
	assert_int_equal(stat(path, &st), -1);
	assert_true(test_dir_is_empty(dir));
	test_dir_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_syscalls_fall_back_to_raw_tp),
		cmocka_unit_test(test_holders_reload_without_it),
		cmocka_unit_test(test_missing_probe_reported_rest_runs),
		cmocka_unit_test(test_fallback_fails_too),
		cmocka_unit_test(test_cpuclock_falls_back_to_hooks),
		cmocka_unit_test(test_failed_run_leaves_nothing),
	};

	if (require_fctrace_binary("test_bpf_fallback"))
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
