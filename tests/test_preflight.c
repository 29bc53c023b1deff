/*
 * test_preflight.c - bad outputs, an unsafe --dir and a too-low fd limit
 * are refused before any work: exit 2, one line naming the culprit, and
 * nothing made (no data directory, no output file). A low soft fd limit
 * with room under the hard one is raised instead. A run interrupted in
 * its window still writes its results, marked interrupted.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <json-c/json.h>
#include "binutil.h"
#include "bpfutil.h"
#include "testutil.h"

/* `fctrace run ... EXTRA` (a fast --no-bpf run in dir) is refused: exit
 * 2, one line that names `culprit`, and nothing made in dir. */
static void assert_refused(const char *dir, const struct spawn_opts *o, const char *culprit,
			   const char *extra1, const char *extra2)
{
	char *argv[] = { (char *)fctrace_binary(), "run", "--workload", "bcache", "--files", "300",
			 "--ops", "50", "--threads", "2", "--no-bpf", "--quiet", "--dir", (char *)dir,
			 (char *)extra1, (char *)extra2, NULL };
	char err[1024];
	int rc = run_fctrace(argv, o, err, sizeof(err));

	if (rc != 2 || !strstr(err, culprit) || !strchr(err, '\n') ||
	    strchr(err, '\n')[1] || strncmp(err, "fctrace: ", 9))
		fail_msg("%s %s: exit %d, stderr '%s'", extra1 ? extra1 : "", extra2 ? extra2 : "",
			 rc, err);
	if (!test_dir_is_empty(dir))
		fail_msg("%s %s: something was made in %s", extra1, extra2 ? extra2 : "", dir);
}

static void test_bad_outputs(void **state)
{
	char *dir = test_dir_make();

	assert_refused(dir, NULL, "--json", "--json", "/nonexistent-dir/out.json");
	assert_refused(dir, NULL, "--json", "--json", dir);		/* a directory */
	assert_refused(dir, NULL, "--html", "--html", "/nonexistent-dir/r.html");
	assert_refused(dir, NULL, "--html", "--html", "");
	test_dir_remove(dir);
}

/* --json and --html naming one file: refused (needs both on the line) */
static void test_same_output_twice(void **state)
{
	char *dir = test_dir_make(), path[512], err[512];
	char *argv[] = { (char *)fctrace_binary(), "run", "--no-bpf", "--ops", "10", "--quiet",
			 "--dir", dir, "--json", path, "--html", path, NULL };
	struct stat st;

	snprintf(path, sizeof(path), "%s.out", dir);
	assert_int_equal(run_fctrace(argv, NULL, err, sizeof(err)), 2);
	assert_non_null(strstr(err, "--json"));
	assert_non_null(strstr(err, "--html"));
	assert_true(test_dir_is_empty(dir));
	assert_int_equal(stat(path, &st), -1);			/* not created */
	test_dir_remove(dir);
}

static void test_unwritable_output_dir(void **state)
{
	char *dir = test_dir_make(), sub[512], path[600];
	struct spawn_opts nobody = { .uid = 65534, .errfd = -1 };

	if (geteuid() != 0) {
		print_message("skip: needs root to switch to the nobody user\n");
		skip();
	}
	snprintf(sub, sizeof(sub), "%s.ro", dir);
	assert_int_equal(mkdir(sub, 0755), 0);			/* root's, not nobody's */
	snprintf(path, sizeof(path), "%s/out.json", sub);
	assert_int_equal(chmod(dir, 01777), 0);
	assert_refused(dir, &nobody, "not writable", "--json", path);
	rmdir(sub);
	test_dir_remove(dir);
}

static void test_unsafe_dir(void **state)
{
	char *dir = test_dir_make(), sub[512], link[512];
	char *argv[] = { (char *)fctrace_binary(), "run", "--no-bpf", "--ops", "10", "--quiet",
			 "--dir", sub, NULL };
	char err[512];

	snprintf(sub, sizeof(sub), "%s/open", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	assert_int_equal(chmod(sub, 0777), 0);		/* everyone writes, no sticky bit */
	assert_int_equal(run_fctrace(argv, NULL, err, sizeof(err)), 2);
	assert_non_null(strstr(err, "sticky"));
	assert_true(test_dir_is_empty(sub));
	assert_int_equal(chmod(sub, 01777), 0);		/* like /tmp: fine */
	assert_int_equal(run_fctrace(argv, NULL, err, sizeof(err)), 0);
	assert_true(test_dir_is_empty(sub));

	snprintf(link, sizeof(link), "%s/link", dir);
	assert_int_equal(symlink(sub, link), 0);
	strcpy(sub, link);
	assert_int_equal(run_fctrace(argv, NULL, err, sizeof(err)), 2);
	assert_non_null(strstr(err, "symbolic link"));
	unlink(link);

	if (geteuid() == 0) {				/* another user's directory */
		snprintf(sub, sizeof(sub), "%s/theirs", dir);
		assert_int_equal(mkdir(sub, 0755), 0);
		assert_int_equal(chown(sub, 65534, 65534), 0);
		assert_int_equal(run_fctrace(argv, NULL, err, sizeof(err)), 2);
		assert_non_null(strstr(err, "uid 65534"));
		assert_true(test_dir_is_empty(sub));
		rmdir(sub);
	}
	snprintf(sub, sizeof(sub), "%s/open", dir);
	rmdir(sub);
	test_dir_remove(dir);
}

/* bcache keeps a handle per file: 300 files need 300 + 300 + 2 + 128 */
static void test_fd_limit(void **state)
{
	char *dir = test_dir_make();
	char *argv[] = { (char *)fctrace_binary(), "run", "--workload", "bcache", "--files", "300",
			 "--file-size", "8192", "--chunk", "1000", "--ops", "200", "--threads", "2",
			 "--no-bpf", "--quiet", "--dir", dir, NULL };
	struct rlimit low = { 200, 200 }, soft_low;
	struct spawn_opts o = { .uid = -1, .errfd = -1, .nofile = &low };
	char err[512];

	assert_int_equal(getrlimit(RLIMIT_NOFILE, &soft_low), 0);
	if (soft_low.rlim_max != RLIM_INFINITY && soft_low.rlim_max < 1024) {
		print_message("skip: the hard fd limit (%llu) leaves no room to raise into\n",
			      (unsigned long long)soft_low.rlim_max);
		skip();
	}
	soft_low.rlim_cur = 200;

	assert_refused(dir, &o, "RLIMIT_NOFILE", NULL, NULL);
	o.nofile = &soft_low;				/* room under the hard limit */
	assert_int_equal(run_fctrace(argv, &o, err, sizeof(err)), 0);
	assert_true(test_dir_is_empty(dir));
	test_dir_remove(dir);
}

/* SIGINT inside the window: exit 130, and the JSON says interrupted */
static void test_interrupted_run_writes_partial(void **state)
{
	char *dir = test_dir_make(), path[512];
	char *argv[] = { (char *)fctrace_binary(), "run", "--workload", "fcp", "--ops", "100000000",
			 "--quiet", "--dir", dir, "--json", path, NULL };
	struct json_object *doc, *v;
	pid_t pid;

	BPF_TEST_REQUIRE();
	snprintf(path, sizeof(path), "%s.json", dir);
	pid = spawn_fctrace(argv, NULL);
	sleep(2);				/* past load and setup, into the window */
	kill(pid, SIGINT);
	assert_int_equal(wait_exit(pid), 130);
	assert_non_null(doc = json_object_from_file(path));
	assert_true(json_object_object_get_ex(doc, "interrupted", &v));
	assert_true(json_object_get_boolean(v));
	assert_true(json_object_object_get_ex(doc, "ops", &v));
	assert_true(json_object_get_int64(v) > 0);
	json_object_put(doc);
	unlink(path);
	assert_true(test_dir_is_empty(dir));
	test_dir_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_outputs),
		cmocka_unit_test(test_same_output_twice),
		cmocka_unit_test(test_unwritable_output_dir),
		cmocka_unit_test(test_unsafe_dir),
		cmocka_unit_test(test_fd_limit),
		cmocka_unit_test(test_interrupted_run_writes_partial),
	};

	if (require_fctrace_binary("test_preflight"))
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
