/*
 * test_target_cli.c - `fctrace run -- CMD` and `fctrace attach` from the
 * command line, as a user would meet them: bad input gets one line and
 * exit status 2 (127/126 for a command that cannot run, as shells say);
 * CMD's own exit status and signal pass through; Ctrl-C during either
 * detaches every probe (attach then exits 0 with its report written), and attach leaves its target running, not
 * stopped.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <json-c/json.h>
#include "binutil.h"
#include "bpfutil.h"
#include "jsonutil.h"
#include "testutil.h"

#define TARGET ".output/tests/target_prog"

static int one_line(const char *err)
{
	const char *nl = strchr(err, '\n');

	return nl && !nl[1] && !strncmp(err, "fctrace: ", 9);
}

/* Run fctrace with args; its status, and one line on stderr checked. */
static int refused(char *const argv[])
{
	struct spawn_opts so = { .uid = -1, .errfd = -1 };
	char err[1024];
	int rc = run_fctrace(argv, &so, err, sizeof(err));

	if (!one_line(err))
		fail_msg("not one line: '%s'", err);
	return rc;
}

#define ARGV(...) ((char *const[]){ (char *)fctrace_binary(), __VA_ARGS__, NULL })

static void test_bad_input(void **state)
{
	char self[64];

	if (require_fctrace_binary("test_bad_input"))
		skip();
	assert_int_equal(refused(ARGV("run", "--")), 2);
	assert_int_equal(refused(ARGV("attach")), 2);
	assert_int_equal(refused(ARGV("attach", "-p", "0")), 2);
	assert_int_equal(refused(ARGV("attach", "-p", "4194303")), 2);	/* no such process */
	assert_int_equal(refused(ARGV("attach", "-p", "2")), 2);	/* kthreadd */
	assert_int_equal(refused(ARGV("attach", "-p", "1", "--duration", "-1")), 2);
	assert_int_equal(refused(ARGV("attach", "-p", "1", "--", "true")), 2);
	assert_int_equal(refused(ARGV("run", "--workload", "fc", "--", "true")), 2);
	assert_int_equal(refused(ARGV("run", "--files", "10", "--", "true")), 2);
	assert_int_equal(refused(ARGV("run", "--duration", "1", "--", "true")), 2);
	assert_int_equal(refused(ARGV("sweep", "--", "true")), 2);
	assert_int_equal(refused(ARGV("run", "--follow")), 2);
	/* -p lists: a bad item, an empty one, a pid twice, one missing */
	assert_int_equal(refused(ARGV("attach", "-p", "1,x")), 2);
	assert_int_equal(refused(ARGV("attach", "-p", "1,,2")), 2);
	assert_int_equal(refused(ARGV("attach", "-p", "1,")), 2);
	assert_int_equal(refused(ARGV("attach", "-p", ",1")), 2);
	assert_int_equal(refused(ARGV("attach", "-p", "1,2K")), 2);
	assert_int_equal(refused(ARGV("attach", "-p", "1", "-p", "1")), 2);
	assert_int_equal(refused(ARGV("attach", "-p", "1,4194303")), 2);
	assert_int_equal(refused(ARGV("attach", "-p", "1", "-p", "2")), 2);	/* kthreadd */
	assert_int_equal(refused(ARGV("run", "-p", "1,2", "--", "true")), 2);
	/* fctrace's own pid: the shell's, which exec makes fctrace's */
	snprintf(self, sizeof(self), "exec %s attach -p $$", fctrace_binary());
	{
		char *argv[] = { "/bin/sh", "-c", self, NULL };
		struct spawn_opts so = { .uid = -1, .errfd = -1 };
		char err[512];

		assert_int_equal(run_fctrace(argv, &so, err, sizeof(err)), 2);
		assert_non_null(strstr(err, "fctrace itself"));
	}
}

static void test_cmd_cannot_run(void **state)
{
	BPF_TEST_REQUIRE();
	assert_int_equal(refused(ARGV("run", "-q", "--", "/nonexistent/cmd")), 127);
	assert_int_equal(refused(ARGV("run", "-q", "--", "/etc/passwd")), 126);
}

static void test_exit_status_passes_through(void **state)
{
	struct spawn_opts so = { .uid = -1, .errfd = -1 };
	char err[256];

	BPF_TEST_REQUIRE();
	assert_int_equal(run_fctrace(ARGV("run", "-q", "--", "/bin/sh", "-c", "exit 3"), &so,
				     err, sizeof(err)), 3);
	assert_int_equal(run_fctrace(ARGV("run", "-q", "--", "/bin/sh", "-c", "kill -9 $$"), &so,
				     err, sizeof(err)), 128 + 9);
}

/* The BPF programs process pid holds, by id (from its fds' fdinfo). */
static int progs_of(pid_t pid, uint32_t *ids, int max)
{
	char path[64], line[128];
	int n = 0;

	for (int fd = 0; fd < 1024 && n < max; fd++) {
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", (int)pid, fd);
		if (!(f = fopen(path, "re")))
			continue;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "prog_id: %u", &ids[n]) == 1 && ++n == max)
				break;
		fclose(f);
	}
	return n;
}

/* None of ids is loaded any more (the kernel frees a program a moment
 * after its last reference goes: wait up to 2 s for it). */
static void assert_detached(const uint32_t *ids, int n)
{
	for (int i = 0; i < n; i++) {
		for (int tries = 0; bpf_prog_id_exists(ids[i]) && tries < 200; tries++)
			usleep(10000);
		if (bpf_prog_id_exists(ids[i]))
			fail_msg("program %u still loaded", ids[i]);
	}
}

static void test_ctrl_c_during_run(void **state)
{
	struct spawn_opts so = { .uid = -1, .errfd = -1 };
	uint32_t ids[64];
	pid_t pid;
	int n;

	BPF_TEST_REQUIRE();
	pid = spawn_fctrace(ARGV("run", "-q", "--", TARGET, "sleep", "20000"), &so);
	test_sleep_ms(1500);
	n = progs_of(pid, ids, 64);
	assert_true(n > 0);
	kill(pid, SIGINT);
	/* passed on to CMD, which dies of it: 128 + SIGINT, as a shell says */
	assert_int_equal(wait_exit(pid), 130);
	assert_detached(ids, n);
}

static void test_ctrl_c_during_attach(void **state)
{
	struct spawn_opts so = { .uid = -1, .errfd = -1 };
	pid_t target, pid;
	uint32_t ids[64];
	char p[16], json[64];
	struct json_object *doc;
	int n;

	BPF_TEST_REQUIRE();
	target = fork();
	if (target == 0) {
		execl(TARGET, TARGET, "sleep", "20000", (char *)NULL);
		_exit(127);
	}
	snprintf(p, sizeof(p), "%d", (int)target);
	snprintf(json, sizeof(json), "/tmp/fctrace-attach-int-%d.json", (int)getpid());
	unlink(json);
	pid = spawn_fctrace(ARGV("attach", "-q", "-p", p, "--json", json), &so);
	test_sleep_ms(1500);
	n = progs_of(pid, ids, 64);
	assert_true(n > 0);
	kill(pid, SIGINT);
	/* Ctrl-C is how attach is meant to end: 0 once its report is written,
	 * as perf and bpftrace exit */
	assert_int_equal(wait_exit(pid), 0);
	assert_non_null(doc = json_object_from_file(json));
	assert_non_null(json_object_object_get(doc, "target"));
	assert_non_null(json_object_object_get(doc, "why"));
	json_object_put(doc);
	unlink(json);
	assert_detached(ids, n);
	assert_int_equal(test_proc_state(target), 'S');	/* running on, not stopped */
	kill(target, SIGKILL);
	waitpid(target, NULL, 0);
}

static void test_attach_duration(void **state)
{
	struct spawn_opts so = { .uid = -1, .errfd = -1 };
	char p[16], err[512];
	pid_t target;

	BPF_TEST_REQUIRE();
	target = fork();
	if (target == 0) {
		execl(TARGET, TARGET, "sleep", "20000", (char *)NULL);
		_exit(127);
	}
	test_sleep_ms(100);
	snprintf(p, sizeof(p), "%d", (int)target);
	assert_int_equal(run_fctrace(ARGV("attach", "-q", "-p", p, "--duration", "0.5"), &so,
				     err, sizeof(err)), 0);
	assert_int_equal(test_proc_state(target), 'S');
	kill(target, SIGKILL);
	waitpid(target, NULL, 0);
}

/* attach -p A,B and -p A -p B: both processes, in the JSON's threads. */
static bool json_has_tid(const char *path, pid_t tid)
{
	struct json_object *doc = json_file(path), *th = json_must_at(doc, "threads");
	bool found = false;

	for (size_t i = 0; i < json_object_array_length(th); i++)
		found |= json_u64_at(json_object_array_get_idx(th, i), "tid") == (uint64_t)tid;
	json_object_put(doc);
	return found;
}

static void test_attach_list(void **state)
{
	struct spawn_opts so = { .uid = -1, .errfd = -1 };
	char a[16], b[16], ab[40], err[512], json[] = "/tmp/fctrace-test-plist-XXXXXX";
	pid_t t[2];
	int fd;

	BPF_TEST_REQUIRE();
	for (int i = 0; i < 2; i++)
		if ((t[i] = fork()) == 0) {
			execl(TARGET, TARGET, "sleep", "20000", (char *)NULL);
			_exit(127);
		}
	test_sleep_ms(100);
	snprintf(a, sizeof(a), "%d", (int)t[0]);
	snprintf(b, sizeof(b), "%d", (int)t[1]);
	snprintf(ab, sizeof(ab), "%d,%d", (int)t[0], (int)t[1]);
	fd = mkstemp(json);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(run_fctrace(ARGV("attach", "-q", "-p", ab, "--duration", "0.3",
					  "--json", json), &so, err, sizeof(err)), 0);
	assert_true(json_has_tid(json, t[0]) && json_has_tid(json, t[1]));
	assert_int_equal(run_fctrace(ARGV("attach", "-q", "-p", a, "-p", b, "--duration", "0.3",
					  "--json", json), &so, err, sizeof(err)), 0);
	assert_true(json_has_tid(json, t[0]) && json_has_tid(json, t[1]));
	unlink(json);
	for (int i = 0; i < 2; i++) {
		kill(t[i], SIGKILL);
		waitpid(t[i], NULL, 0);
	}
}

/* The report of a program fctrace did not write fits 100 columns too. */
static void test_report_fits_100_columns(void **state)
{
	struct spawn_opts so = { .uid = -1, .errfd = -1 };
	static char err[65536];
	const char *line = err;

	BPF_TEST_REQUIRE();
	assert_int_equal(run_fctrace(ARGV("run", "--", TARGET, "hold", "20"), &so, err,
				     sizeof(err)), 0);
	assert_non_null(strstr(err, "Why target_prog took"));
	while (*line) {
		size_t n = strcspn(line, "\n");

		if (n > 100)
			fail_msg("%zu columns: %.*s", n, (int)n, line);
		line += n + (line[n] == '\n');
	}
}

/* attach -p 1: where no thread of it was traced (Linux 6.18's task walk
 * skips pid 1), a line says so before the table's "0 threads". */
static void test_attach_pid1_said(void **state)
{
	struct spawn_opts so = { .uid = -1, .errfd = -1 };
	static char err[1 << 16];

	(void)state;
	BPF_TEST_REQUIRE();
	assert_int_equal(run_fctrace(ARGV("attach", "-p", "1", "--duration", "0.3"), &so, err,
				     sizeof(err)), 0);
	if (!strstr(err, ", 0 threads on ")) {
		print_message("pid 1's threads were traced here: nothing to say\n");
		skip();
	}
	assert_non_null(strstr(err, "fctrace: -p 1: none of its "));
	assert_non_null(strstr(err, "threads was traced: the kernel's walk of its tasks"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attach_pid1_said),
		cmocka_unit_test(test_report_fits_100_columns),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_cmd_cannot_run),
		cmocka_unit_test(test_exit_status_passes_through),
		cmocka_unit_test(test_ctrl_c_during_run),
		cmocka_unit_test(test_ctrl_c_during_attach),
		cmocka_unit_test(test_attach_duration),
		cmocka_unit_test(test_attach_list),
	};

	test_signals_default();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
