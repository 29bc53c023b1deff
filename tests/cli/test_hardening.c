/*
 * test_hardening.c - the fctrace binary under abuse, as a user would see
 * it: interrupted at random moments it exits 130/143, detaches every
 * program and leaves no file behind; interrupted in a run, a sweep or a
 * compare, what it prints and writes is marked partial; a symlink
 * planted where it writes leaves its victim untouched; without root it
 * says what it needs, and --no-bpf works as nobody.
 */
#include <dirent.h>
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
#include "jsonutil.h"
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
	/* program release is deferred in the kernel: give it a moment (4 s
	 * once fell short in a full suite) */
	for (int tries = 0; tries < 150 && (after = fct_programs_loaded()) > before; tries++)
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

/* argv started with stdout to a file; SIGINT once `ready` says so (or
 * after a delay); the exit status, stdout in out, stderr in err. */
static int interrupt(char *const argv[], bool (*ready)(pid_t pid, void *arg), void *arg,
		     char *out, size_t outlen, char *err, size_t errlen)
{
	FILE *fout = tmpfile(), *ferr = tmpfile();
	struct spawn_opts o = { .uid = -1, .outfd = fileno(fout), .errfd = fileno(ferr) };
	pid_t pid = spawn_fctrace(argv, &o);
	int rc;

	for (int i = 0; i < 60000 && ready && !ready(pid, arg); i++)
		usleep(1000);
	usleep(ready ? 300 * 1000 : 1500 * 1000);	/* into the (next) window */
	kill(pid, SIGINT);
	rc = wait_exit(pid);
	for (int i = 0; i < 2; i++) {
		FILE *f = i ? ferr : fout;
		char *buf = i ? err : out;
		size_t n, len = i ? errlen : outlen;

		rewind(f);
		n = fread(buf, 1, len - 1, f);
		buf[n] = '\0';
		fclose(f);
	}
	return rc;
}

/* Have pid's workers begun their reads? Its read calls (/proc/PID/io
 * syscr) pass what the set-up and the probes' load make: a fixed wait
 * fell short of the window on a busy machine. */
static bool workers_reading(pid_t pid, void *arg)
{
	char path[64], line[128];
	unsigned long long n = 0;
	FILE *f;

	(void)arg;
	snprintf(path, sizeof(path), "/proc/%d/io", (int)pid);
	if (!(f = fopen(path, "re")))
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "syscr: %llu", &n) == 1)
			break;
	fclose(f);
	return n > 20000;
}

/* SIGINT inside a traced run's window: exit 130, the table's header and
 * the JSON say the results are partial, and what was measured is there. */
static void test_interrupted_run_is_partial(void **state)
{
	static char out[65536];
	char *dir = test_dir_make(), path[512], err[1024];
	char *argv[] = { (char *)fctrace_binary(), "run", "--workload", "fcp", "--ops", "100000000",
			 "--dir", dir, "--json", path, NULL };
	struct json_object *doc;

	BPF_TEST_REQUIRE();
	snprintf(path, sizeof(path), "%s.json", dir);
	assert_int_equal(interrupt(argv, workers_reading, NULL, out, sizeof(out), err,
				   sizeof(err)), 130);
	assert_non_null(strstr(out, "  [INTERRUPTED: partial results]\n"));
	assert_non_null(strstr(out, "\nTime account per thread"));	/* the kernel view too */
	assert_non_null(doc = json_object_from_file(path));
	assert_true(json_bool_at(doc, "interrupted"));
	assert_true(json_object_get_int64(json_must_at(doc, "ops")) > 0);
	assert_true(json_u64_at(doc, "syscalls.pread64.count") > 0);
	json_object_put(doc);
	unlink(path);
	assert_true(test_dir_is_empty(dir));
	test_dir_remove(dir);
}

/* SIGINT in a sweep's first cell: that cell is kept and marked, the
 * others are missing, and the table, JSON and CSV all say so. */
static void test_interrupted_sweep_is_partial(void **state)
{
	static char out[65536];
	char *dir = test_dir_make(), json[512], csv[512], err[1024], line[512];
	char *argv[] = { (char *)fctrace_binary(), "sweep", "--workload", "fc", "--files", "10",
			 "--threads", "1,2", "--ops", "100000000", "--no-bpf", "--dir", dir,
			 "--json", json, "--csv", csv, NULL };
	struct json_object *doc, *cells;
	FILE *f;

	snprintf(json, sizeof(json), "%s.json", dir);
	snprintf(csv, sizeof(csv), "%s.csv", dir);
	assert_int_equal(interrupt(argv, NULL, NULL, out, sizeof(out), err, sizeof(err)), 130);
	assert_non_null(strstr(out, "INTERRUPTED: partial results, 1 of 2 cells run "
			       "(* stopped early, - not run)\n"));
	assert_non_null(strstr(out, "*       -\n"));		/* the 1-thread cell, then none */
	assert_non_null(doc = json_object_from_file(json));
	assert_true(json_bool_at(doc, "interrupted"));
	cells = json_must_at(doc, "cells");
	assert_int_equal(json_object_array_length(cells), 1);
	assert_true(json_bool_at(doc, "cells.0.interrupted"));
	assert_true(json_u64_at(doc, "cells.0.ops") > 0);
	json_object_put(doc);
	assert_non_null(f = fopen(csv, "r"));
	assert_non_null(fgets(line, sizeof(line), f));		/* header */
	assert_non_null(strstr(line, ",interrupted\n"));
	assert_non_null(fgets(line, sizeof(line), f));
	assert_non_null(strstr(line, ",1\n"));
	assert_null(fgets(line, sizeof(line), f));		/* and no second cell */
	fclose(f);
	unlink(json);
	unlink(csv);
	assert_true(test_dir_is_empty(dir));
	test_dir_remove(dir);
}

/* Has a second data directory appeared in arg (the dir), the first gone? */
static bool second_run_started(pid_t pid, void *arg)
{
	static char first[256];
	DIR *d = opendir(arg);
	struct dirent *e;
	bool second = false;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "fctrace.", 8)) {
			if (!first[0])
				snprintf(first, sizeof(first), "%s", e->d_name);
			else if (strcmp(first, e->d_name))
				second = true;
		}
	closedir(d);
	if (second)
		first[0] = '\0';
	return second;
}

/* compare cut in its first run: that run's table, marked; no comparison
 * and so no file, said on stderr. Cut in its second (bcache is far
 * faster per op than fc): the JSON is written, and says which. */
static void test_interrupted_compare_is_partial(void **state)
{
	static char out[65536];
	char *dir = test_dir_make(), json[512], err[1024];
	char *argv[] = { (char *)fctrace_binary(), "compare", "--workload", "fc,bcache",
			 "--files", "1", "--threads", "1", "--ops", "100000000", "--no-bpf",
			 "--dir", dir, "--json", json, NULL };
	struct json_object *doc;
	struct stat st;

	snprintf(json, sizeof(json), "%s.json", dir);
	assert_int_equal(interrupt(argv, NULL, NULL, out, sizeof(out), err, sizeof(err)), 130);
	assert_non_null(strstr(out, "fctrace run: fc,"));
	assert_non_null(strstr(out, "  [INTERRUPTED: partial results]\n"));
	assert_null(strstr(out, "\nCompare "));
	assert_string_equal(err, "fctrace: interrupted before bcache ran: no comparison, so no "
			    "--json/--html file\n");
	assert_int_equal(stat(json, &st), -1);

	argv[3] = "bcache,fc";
	argv[9] = "1000000";
	assert_int_equal(interrupt(argv, second_run_started, dir, out, sizeof(out), err,
				   sizeof(err)), 130);
	assert_non_null(strstr(out, "INTERRUPTED: partial results, fc was stopped early\n"));
	assert_non_null(doc = json_object_from_file(json));
	assert_true(json_bool_at(doc, "interrupted"));
	assert_false(json_bool_at(doc, "runs.0.interrupted"));
	assert_true(json_bool_at(doc, "runs.1.interrupted"));
	json_object_put(doc);
	unlink(json);
	assert_true(test_dir_is_empty(dir));
	test_dir_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signals_at_random_points),
		cmocka_unit_test(test_planted_symlink_leaves_victim_alone),
		cmocka_unit_test(test_unprivileged),
		cmocka_unit_test(test_concurrent_runs_stay_apart),
		cmocka_unit_test(test_interrupted_run_is_partial),
		cmocka_unit_test(test_interrupted_sweep_is_partial),
		cmocka_unit_test(test_interrupted_compare_is_partial),
	};

	if (require_fctrace_binary("test_hardening"))
		return 1;
	test_signals_default();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
