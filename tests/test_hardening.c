/*
 * test_hardening.c - the fctrace binary under abuse, as a user would see
 * it: interrupted at random moments it exits 130/143, detaches every
 * program and leaves no file behind; a symlink planted where it writes
 * leaves its victim untouched; without root it says what it needs, and
 * --no-bpf works as nobody.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <json-c/json.h>
#include "binutil.h"
#include "bpfutil.h"
#include "testutil.h"

/* fctrace programs (named fct_*) loaded anywhere in the kernel. */
static int fct_programs_loaded(void)
{
	__u32 id = 0;
	int n = 0;

	while (!bpf_prog_get_next_id(id, &id)) {
		struct bpf_prog_info info = { 0 };
		__u32 len = sizeof(info);
		int fd = bpf_prog_get_fd_by_id(id);

		if (fd < 0)
			continue;
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) && !strncmp(info.name, "fct_", 4))
			n++;
		close(fd);
	}
	return n;
}

static void test_signals_at_random_points(void **state)
{
	struct spawn_opts quiet = { .uid = -1 };
	int before, after = -1;

	BPF_TEST_REQUIRE();
	before = fct_programs_loaded();
	quiet.errfd = open("/dev/null", O_WRONLY);
	srand((unsigned)time(NULL));
	for (int i = 0; i < 12; i++) {
		char *dir = test_dir_make();
		char *argv[] = { (char *)fctrace_binary(), "run", "--workload", "fcp", "--files", "60",
				 "--ops", "20000", "--quiet", "--dir", dir, NULL };
		int sig = i % 2 ? SIGTERM : SIGINT, rc;
		pid_t pid = spawn_fctrace(argv, &quiet);

		usleep((useconds_t)(rand() % 400) * 1000);
		kill(pid, sig);
		rc = wait_exit(pid);
		if (rc != 0 && rc != 128 + sig)
			fail_msg("iteration %d: exit %d after signal %d", i, rc, sig);
		if (!test_dir_is_empty(dir))
			fail_msg("iteration %d: files left in %s", i, dir);
		test_dir_remove(dir);
	}
	close(quiet.errfd);
	/* program release is deferred in the kernel: give it a moment */
	for (int tries = 0; tries < 40 && (after = fct_programs_loaded()) > before; tries++)
		usleep(100 * 1000);
	assert_true(after <= before);
}

static void test_planted_symlink_leaves_victim_alone(void **state)
{
	char *dir = test_dir_make(), victim[512], link[512], buf[16] = { 0 };
	char *argv[] = { (char *)fctrace_binary(), "run", "--workload", "fc", "--files", "4",
			 "--ops", "200", "--threads", "2", "--no-bpf", "--quiet", "--dir", dir, NULL };
	struct stat before, after;
	int fd;

	snprintf(victim, sizeof(victim), "%s.victim", dir);
	fd = open(victim, O_CREAT | O_EXCL | O_WRONLY, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "precious", 8), 8);
	close(fd);
	assert_int_equal(stat(victim, &before), 0);
	snprintf(link, sizeof(link), "%s/f000000", dir);
	assert_int_equal(symlink(victim, link), 0);
	assert_int_equal(wait_exit(spawn_fctrace(argv, NULL)), 0);
	assert_int_equal(stat(victim, &after), 0);
	fd = open(victim, O_RDONLY);
	assert_int_equal(read(fd, buf, sizeof(buf) - 1), 8);
	close(fd);
	assert_string_equal(buf, "precious");
	assert_int_equal(after.st_mtime, before.st_mtime);
	assert_int_equal(after.st_size, 8);
	assert_int_equal(lstat(link, &after), 0);	/* still there, not ours */
	assert_true(S_ISLNK(after.st_mode));
	unlink(link);
	unlink(victim);
	test_dir_remove(dir);
}

static void test_unprivileged(void **state)
{
	char dir[] = "/tmp/fctrace-test-XXXXXX", err[512] = { 0 };
	char *traced[] = { (char *)fctrace_binary(), "run", "--ops", "100", NULL };
	char *untraced[] = { (char *)fctrace_binary(), "run", "--ops", "500", "--threads", "2",
			     "--no-bpf", "--quiet", "--dir", dir, NULL };
	struct spawn_opts nobody = { .uid = 65534, .errfd = -1 };

	if (geteuid() != 0) {
		print_message("skip: needs root to switch to the nobody user\n");
		skip();
	}
	assert_non_null(mkdtemp(dir));
	assert_int_equal(chmod(dir, 01777), 0);
	assert_int_equal(run_fctrace(traced, &nobody, err, sizeof(err)), 1);
	assert_non_null(strstr(err, "sudo"));
	assert_non_null(strstr(err, "--no-bpf"));
	assert_non_null(strchr(err, '\n'));
	assert_null(strchr(strchr(err, '\n') + 1, '\n'));	/* one line */
	assert_int_equal(wait_exit(spawn_fctrace(untraced, &nobody)), 0);
	assert_true(test_dir_is_empty(dir));
	rmdir(dir);
}

/* Every thread of the document made exactly `ops` opens: nobody else's counted. */
static void assert_own_threads(const char *path, int ops)
{
	struct json_object *doc = json_object_from_file(path), *threads, *t, *v;

	assert_non_null(doc);
	assert_true(json_object_object_get_ex(doc, "threads", &threads));
	assert_int_equal(json_object_array_length(threads), 3);
	for (size_t i = 0; i < json_object_array_length(threads); i++) {
		t = json_object_array_get_idx(threads, i);
		assert_true(json_object_object_get_ex(t, "syscalls", &v));
		assert_true(json_object_object_get_ex(v, "openat", &v));
		assert_true(json_object_object_get_ex(v, "count", &v));
		assert_int_equal(json_object_get_int64(v), ops);
	}
	json_object_put(doc);
}

static void test_concurrent_runs_stay_apart(void **state)
{
	char *dir = test_dir_make(), a[512], b[512];
	char *argv_a[] = { (char *)fctrace_binary(), "run", "--workload", "fc", "--files", "20",
			   "--threads", "3", "--ops", "5000", "--quiet", "--dir", dir,
			   "--json", a, NULL };
	char *argv_b[] = { (char *)fctrace_binary(), "run", "--workload", "fc", "--files", "20",
			   "--threads", "3", "--ops", "7000", "--quiet", "--dir", dir,
			   "--json", b, NULL };
	pid_t pa, pb;

	BPF_TEST_REQUIRE();
	snprintf(a, sizeof(a), "%s.a.json", dir);
	snprintf(b, sizeof(b), "%s.b.json", dir);
	pa = spawn_fctrace(argv_a, NULL);
	pb = spawn_fctrace(argv_b, NULL);
	assert_int_equal(wait_exit(pa), 0);
	assert_int_equal(wait_exit(pb), 0);
	assert_own_threads(a, 5000);
	assert_own_threads(b, 7000);
	unlink(a);
	unlink(b);
	test_dir_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signals_at_random_points),
		cmocka_unit_test(test_planted_symlink_leaves_victim_alone),
		cmocka_unit_test(test_unprivileged),
		cmocka_unit_test(test_concurrent_runs_stay_apart),
	};

	if (require_fctrace_binary("test_hardening"))
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
