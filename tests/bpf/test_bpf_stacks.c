/*
 * test_bpf_stacks.c - the flame graphs of a program fctrace did not write
 * (tests/target_prog paths, built with -fomit-frame-pointer): 8 threads
 * wait on one mutex 4 times each, 3 times from handle_get and once from
 * handle_put (32 waits, every one sampled). The folded stacks hold both
 * paths, from the thread's entry down to the wait, with 3/4 and 1/4 of
 * the lock's time (within a tenth of each share); the pprof file decodes
 * with protoc against pprof's own profile.proto and its total is the
 * JSON's, which is the lock table's and the sleeps' in syscalls; the HTML flame graph renders in
 * headless Chromium (its frames in the DOM, its colours in a screenshot);
 * a saved run read back gives the same folded file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libgen.h>
#include <sys/wait.h>
#include <json-c/json.h>
#include "bpfutil.h"
#include "flameutil.h"
#include "testutil.h"
#include "report/flame.h"
#include "report/report.h"
#include "session/load_run.h"
#include "session/session.h"

#define WORKERS		8
#define LOCK		"paths_lock (mutex)"

static void run_paths(struct session *s)
{
	char n[8], *argv[] = { (char *)target_prog(), "paths", n, NULL };
	struct trace_opts t = { .probes = PG_FULL, .sleep_stacks = true };
	struct target_opts to = { .mode = TGT_EXEC, .argv = argv };

	snprintf(n, sizeof(n), "%d", WORKERS);
	assert_int_equal(session_run_target(&t, &to, s), 0);
	assert_int_equal(target_exit_status(&s->target), 0);
}

static const struct lock_total *lock_named(const struct joined_run *m, const char *name)
{
	for (int i = 0; i < m->nlocks; i++)
		if (!strcmp(m->locks[i].name, name))
			return &m->locks[i];
	return NULL;
}

static void test_two_paths_split(void **state)
{
	struct flame_opts fo = { 0 };
	const char *folded = test_at("w.folded");
	const struct lock_total *l;
	struct session s;
	uint64_t get, put, samples = 0;
	double share;

	BPF_TEST_REQUIRE();
	run_paths(&s);
	l = lock_named(&s.joined, LOCK);
	assert_non_null(l);
	assert_int_equal(l->waits, 4 * WORKERS);	/* the ground truth */
	for (int i = 0; i < s.stacks.n; i++)
		if (!strcmp(s.stacks.stacks[i].lock, LOCK))
			samples += s.stacks.stacks[i].samples;
	assert_int_equal(samples, 4 * WORKERS);		/* every wait sampled */
	assert_int_equal(flame_folded_write(&s.stacks, &fo, folded), 0);
	/* from the thread's entry to the wait, in the thread's name */
	get = folded_ns(folded, "start_thread;paths_worker;handle_get;lookup_locked;"
				"pthread_mutex_lock", NULL);
	put = folded_ns(folded, "start_thread;paths_worker;handle_put;lookup_locked;"
				"pthread_mutex_lock", NULL);
	assert_true(get > 0 && put > 0);
	assert_int_equal(get + put, l->wait_ns);	/* the lock's time, all of it */
	share = (double)get / (double)(get + put);
	print_message("handle_get %.1f %% of %s's wait time (3 waits in 4)\n", 100 * share, LOCK);
	assert_true(share > 0.75 * 0.9 && share < 0.75 * 1.1);
	assert_true(1 - share > 0.25 * 0.9 && 1 - share < 0.25 * 1.1);
	unlink(folded);
	session_free(&s);
}

/* The JSON's stacks.wait_ns, or another member of "stacks". */
static uint64_t json_stacks_u64(const char *path, const char *key)
{
	struct json_object *doc = json_object_from_file(path), *st, *ns;
	uint64_t v;

	assert_non_null(doc);
	assert_true(json_object_object_get_ex(doc, "stacks", &st));
	assert_true(json_object_object_get_ex(st, key, &ns));
	v = json_object_get_uint64(ns);
	json_object_put(doc);
	return v;
}

static uint64_t json_wait_total(const char *path)
{
	return json_stacks_u64(path, "wait_ns");
}

static uint64_t lock_table_total(const struct joined_run *m)
{
	uint64_t sum = 0;

	for (int i = 0; i < m->nlocks; i++)
		sum += m->locks[i].wait_ns;
	return sum;
}

static void test_pprof_and_json_totals(void **state)
{
	struct flame_opts fo = { .duration_ns = 1 };
	const char *gz = test_at("w.pb.gz"), *js = test_at("w.json");
	const char *f1 = test_at("a.folded"), *f2 = test_at("b.folded");
	struct session s, back;
	char why[256], cmd[512];
	int64_t pp;

	BPF_TEST_REQUIRE();
	run_paths(&s);
	assert_int_equal(flame_pprof_write(&s.stacks, &fo, gz), 0);
	assert_int_equal(report_json_write(report_json_run(&s), js), 0);
	assert_int_equal(json_wait_total(js), stacks_total(&s.stacks, STK_WAIT));
	/* the wait stacks: the lock table's, and the sleeps in syscalls */
	assert_int_equal(json_wait_total(js) - json_stacks_u64(js, "blocked_ns"),
			 lock_table_total(&s.joined));
	pp = pprof_wait_total(gz);
	if (pp < 0) {
		print_message("protoc is not installed (apt-get install protobuf-compiler)\n");
	} else {
		print_message("pprof wait total %lld ns = JSON's\n", (long long)pp);
		assert_int_equal((uint64_t)pp, json_wait_total(js));
	}
	/* read back, drawn again: the same folded stacks */
	assert_int_equal(load_run_file(js, &back, why, sizeof(why)), 0);
	assert_int_equal(flame_folded_write(&s.stacks, &fo, f1), 0);
	assert_int_equal(flame_folded_write(&back.stacks, &fo, f2), 0);
	snprintf(cmd, sizeof(cmd), "cmp -s %s %s", f1, f2);
	assert_int_equal(system(cmd), 0);
	unlink(gz), unlink(js), unlink(f1), unlink(f2);
	session_free(&back);
	session_free(&s);
}

static bool browser_required(void)
{
	const char *ci = getenv("CI"), *req = getenv("FCTRACE_REQUIRE_BROWSER");

	return (ci && !strcmp(ci, "true")) || (req && !strcmp(req, "1"));
}

static void test_html_flame_renders(void **state)
{
	const char *with = test_at("with.html"), *without = test_at("without.html");
	char cmd[1024], src[] = __FILE__;
	struct session s;
	int rc;

	BPF_TEST_REQUIRE();
	run_paths(&s);
	assert_int_equal(report_html_run(with, &s), 0);
	stacks_free(&s.stacks);
	assert_int_equal(report_html_run(without, &s), 0);
	snprintf(cmd, sizeof(cmd), "sh %s/flame_check.sh %s %s 20000 handle_get handle_put "
		 "lookup_locked start_thread worker", dirname(dirname(src)), with, without);
	rc = system(cmd);
	unlink(with), unlink(without);
	session_free(&s);
	if (WIFEXITED(rc) && WEXITSTATUS(rc) == 77) {
		if (browser_required())
			fail_msg("chromium is required here but not installed");
		skip();
	}
	assert_int_equal(rc, 0);
}

/* One pid, two images: target_prog spins 1.2 s of CPU in
 * spin_before_exec, execs itself and spins 1.2 s of CPU in
 * spin_after_exec (CPU time, so a busy machine samples both alike). The maps are read
 * again at most once a second past the first: without the image in each
 * sample, most of the second image's samples were unwound with the first
 * image's maps (795 ms of 1.2 s as "[no user stack]"). Each sample now
 * says which image it ran, and its maps are read again when they are of
 * another: both spins are named, as much of one as of the other. */
static void test_exec_two_images(void **state)
{
	char *argv[] = { (char *)target_prog(), "execspin", "1200", NULL };
	struct trace_opts t = { .probes = PG_FULL, .cpu_stacks = true };
	struct target_opts to = { .mode = TGT_EXEC, .argv = argv };
	struct flame_opts fo = { 0 };
	const char *folded = test_at("x.folded");
	struct session s;
	uint64_t before, after;

	BPF_TEST_REQUIRE();
	assert_int_equal(session_run_target(&t, &to, &s), 0);
	assert_int_equal(target_exit_status(&s.target), 0);
	assert_int_equal(flame_folded_write(&s.stacks, &fo, folded), 0);
	before = folded_ns(folded, "execspin;spin_before_exec", NULL);
	after = folded_ns(folded, "main;spin_after_exec", NULL);
	print_message("CPU stacks: %.1f ms in spin_before_exec, %.1f ms in spin_after_exec\n",
		      before / 1e6, after / 1e6);
	assert_true(before > 0);
	assert_true(after >= before * 3 / 4);	/* the same CPU, sampled alike */
	assert_int_equal(folded_ns(folded, "execspin;spin_after_exec", NULL), 0);
	unlink(folded);
	session_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_paths_split),
		cmocka_unit_test(test_pprof_and_json_totals),
		cmocka_unit_test(test_html_flame_renders),
		cmocka_unit_test(test_exec_two_images),
	};

	return cmocka_run_group_tests(tests, test_scratch_setup, test_scratch_teardown_empty);
}
