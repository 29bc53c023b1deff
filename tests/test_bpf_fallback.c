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
#include <json-c/json.h>
#include "binutil.h"
#include "bpfutil.h"

#define N_OPENS	500

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
 * and the counts are as exact as ever. */
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
	assert_false(ps->ok);
	assert_non_null(strstr(ps->reason, "load failed"));
	assert_non_null(ps = probe_named(&fx.kv, "raw_tp/sys_enter"));
	assert_true(ps->ok);
	assert_non_null(ps = probe_named(&fx.kv, "raw_tp/sys_exit"));
	assert_true(ps->ok);
	assert_int_equal(fx.kv.groups, PG_FULL);

	run_marked(m, 3, open_close, NULL);
	bpf_fixture_read(&fx);
	for (int i = 0; i < 3; i++) {
		const struct fct_thread *t = kview_thread(&fx.kv, m[i].tid);

		assert_int_equal(m[i].user[0], 0);
		assert_non_null(t);
		assert_int_equal(t->sc[FCT_SC_OPENAT].count, N_OPENS);
		assert_int_equal(t->sc[FCT_SC_CLOSE].count, N_OPENS);
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

/* The page-cache probe refused: the run succeeds, says which probe and
 * why, has no page-cache figures, and has every other one. */
static void test_missing_probe_reported_rest_runs(void **state)
{
	char path[] = "/tmp/fct-fallback-XXXXXX", err[1024];
	char *argv[] = { (char *)fctrace_binary(), "run", "--workload", "fc", "--files", "10",
			 "--threads", "2", "--ops", "300", "--quiet", "--json", path, NULL };
	struct json_object *doc, *threads, *t, *v;
	int fd = mkstemp(path);

	BPF_TEST_REQUIRE();
	assert_true(fd >= 0);
	close(fd);
	setenv("FCTRACE_TEST_FAIL_PROBE", "tp_btf/mm_filemap_add_to_page_cache", 1);
	assert_int_equal(run_fctrace(argv, NULL, err, sizeof(err)), 0);
	unsetenv("FCTRACE_TEST_FAIL_PROBE");
	assert_non_null(doc = json_object_from_file(path));
	assert_non_null(strstr(json_str(doc, "probes", "tp_btf/mm_filemap_add_to_page_cache"),
			       "load failed"));
	assert_string_equal(json_str(doc, "probes", "tp_btf/sched_switch"), "ok");
	assert_string_equal(json_str(doc, "probes", "tp_btf/sys_enter"), "ok");
	assert_true(json_object_object_get_ex(doc, "syscalls", &v));
	assert_non_null(v);
	assert_true(json_object_object_get_ex(doc, "threads", &threads));
	assert_int_equal(json_object_array_length(threads), 2);
	t = json_object_array_get_idx(threads, 0);
	assert_true(json_object_object_get_ex(t, "pagecache_misses", &v));
	assert_null(v);					/* not measured, not 0 */
	assert_true(json_object_object_get_ex(t, "oncpu_ns", &v));
	assert_true(json_object_get_int64(v) > 0);
	json_object_put(doc);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_syscalls_fall_back_to_raw_tp),
		cmocka_unit_test(test_missing_probe_reported_rest_runs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
