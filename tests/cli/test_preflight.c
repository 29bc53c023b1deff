/*
 * test_preflight.c - bad outputs, an unsafe --dir and a too-low fd limit
 * are refused before any work: exit 2, one line naming the culprit, and
 * nothing made (no data directory, no output file). A low soft fd limit
 * with room under the hard one is raised instead.
 */
#include <errno.h>
#include <fcntl.h>
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

/* "--json PATH: WHY", the part of the line after "fctrace: " */
static const char *why(char *buf, size_t len, const char *opt, const char *path, const char *w)
{
	snprintf(buf, len, "%s %s: %s", opt, path, w);
	return buf;
}

static void test_bad_outputs(void **state)
{
	char *dir = test_dir_make(), file[512], path[600], w[1024];
	int fd;

	assert_refused(dir, NULL, why(w, sizeof(w), "--json", "/nonexistent-dir/out.json",
				      "its directory does not exist"),
		       "--json", "/nonexistent-dir/out.json");
	assert_refused(dir, NULL, why(w, sizeof(w), "--json", dir, "is a directory"), "--json", dir);
	assert_refused(dir, NULL, why(w, sizeof(w), "--html", "/nonexistent-dir/r.html",
				      "its directory does not exist"),
		       "--html", "/nonexistent-dir/r.html");
	assert_refused(dir, NULL, "--html '': must name a file", "--html", "");
	snprintf(path, sizeof(path), "%s.new/", dir);		/* not there, and a directory */
	assert_refused(dir, NULL, why(w, sizeof(w), "--json", path, "names a directory"),
		       "--json", path);
	snprintf(file, sizeof(file), "%s.file", dir);		/* a file as a directory */
	assert_true((fd = open(file, O_CREAT | O_EXCL | O_WRONLY, 0644)) >= 0);
	close(fd);
	snprintf(path, sizeof(path), "%s/out.json", file);
	assert_refused(dir, NULL, why(w, sizeof(w), "--json", path, "Not a directory"),
		       "--json", path);
	unlink(file);
	test_dir_remove(dir);
}

/* sweep --csv FILE is checked like the others, before the first cell */
static void test_bad_csv(void **state)
{
	char *dir = test_dir_make(), err[512];
	char *argv[] = { (char *)fctrace_binary(), "sweep", "--workload", "fc", "--files", "2,3",
			 "--threads", "1", "--ops", "10", "--no-bpf", "--quiet", "--dir", dir,
			 "--csv", "/nonexistent-dir/s.csv", NULL };

	assert_int_equal(run_fctrace(argv, NULL, err, sizeof(err)), 2);
	assert_string_equal(err, "fctrace: --csv /nonexistent-dir/s.csv: its directory does not exist\n");
	assert_true(test_dir_is_empty(dir));
	test_dir_remove(dir);
}

/* Without --no-bpf and without privileges, a bad output is still what is
 * reported (exit 2): it is checked before anything needs the kernel. */
static void test_outputs_checked_before_bpf(void **state)
{
	char *dir = test_dir_make(), err[512];
	char *argv[] = { (char *)fctrace_binary(), "run", "--ops", "10", "--quiet", "--dir", dir,
			 "--json", "/nonexistent-dir/out.json", NULL };
	struct spawn_opts o = { .uid = geteuid() == 0 ? 65534 : -1, .errfd = -1 };

	assert_int_equal(chmod(dir, 01777), 0);
	assert_int_equal(run_fctrace(argv, &o, err, sizeof(err)), 2);
	assert_string_equal(err, "fctrace: --json /nonexistent-dir/out.json: its directory does "
			    "not exist\n");
	assert_true(test_dir_is_empty(dir));
	test_dir_remove(dir);
}

/* Two outputs naming one file, however spelt, or both standard output */
static void test_same_output_twice(void **state)
{
	char *dir = test_dir_make(), path[512], other[1024], err[512];
	char *argv[] = { (char *)fctrace_binary(), "run", "--no-bpf", "--ops", "10", "--quiet",
			 "--dir", dir, "--json", path, "--html", other, NULL };
	struct stat st;
	const char *base;

	snprintf(path, sizeof(path), "%s.out", dir);
	snprintf(other, sizeof(other), "%s", path);
	assert_int_equal(run_fctrace(argv, NULL, err, sizeof(err)), 2);
	assert_non_null(strstr(err, "--json"));
	assert_non_null(strstr(err, "is also the --html file"));
	base = strrchr(dir, '/') + 1;			/* DIR/../DIR.out: the same file */
	snprintf(other, sizeof(other), "%s/../%s.out", dir, base);
	assert_int_equal(run_fctrace(argv, NULL, err, sizeof(err)), 2);
	assert_non_null(strstr(err, "is also the --html file"));
	assert_true(test_dir_is_empty(dir));
	assert_int_equal(stat(path, &st), -1);			/* not created */
	strcpy(path, "-");
	strcpy(other, "-");
	assert_int_equal(run_fctrace(argv, NULL, err, sizeof(err)), 2);
	assert_string_equal(err, "fctrace: --json -: is also the --html output (standard output)\n");
	test_dir_remove(dir);
}

static json_object *json_file(const char *path)
{
	json_object *doc = json_object_from_file(path), *v;

	assert_non_null(doc);
	assert_true(json_object_object_get_ex(doc, "ops", &v));
	assert_int_equal(json_object_get_int64(v), 20);
	return doc;
}

/* What must keep working: "-" for stdout, a bare name in the current
 * directory, and an existing file of the user's, overwritten. */
static void test_good_outputs(void **state)
{
	char *dir = test_dir_make(), *cwd = test_dir_make(), bin[4096], path[600];
	char out[65536], err[512], *json = "-";
	char *argv[] = { bin, "run", "--no-bpf", "--ops", "10", "--threads", "2", "--quiet",
			 "--dir", dir, "--json", NULL, NULL };
	struct spawn_opts o = { .uid = -1, .errfd = -1, .cwd = cwd };
	json_object *doc;
	int fd;

	assert_non_null(realpath(fctrace_binary(), bin));
	argv[11] = json;
	assert_int_equal(run_fctrace_out(argv, NULL, out, sizeof(out), err, sizeof(err)), 0);
	assert_non_null(doc = json_tokener_parse(out));	/* stdout is the document */
	json_object_put(doc);

	argv[11] = "out.json";				/* relative to the cwd */
	assert_int_equal(run_fctrace(argv, &o, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/out.json", cwd);
	json_object_put(json_file(path));
	unlink(path);

	snprintf(path, sizeof(path), "%s/mine.json", cwd);	/* the user's file */
	assert_true((fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0644)) >= 0);
	assert_int_equal(write(fd, "old", 3), 3);
	close(fd);
	argv[11] = path;
	assert_int_equal(run_fctrace(argv, NULL, err, sizeof(err)), 0);
	json_object_put(json_file(path));
	unlink(path);
	assert_true(test_dir_is_empty(dir));
	test_dir_remove(dir);
	test_dir_remove(cwd);
}

/* As nobody: a directory nobody cannot write, an existing file nobody
 * cannot write */
static void test_unwritable_outputs(void **state)
{
	char *dir = test_dir_make(), sub[512], path[600], w[1024];
	struct spawn_opts nobody = { .uid = 65534, .errfd = -1 };
	int fd;

	if (geteuid() != 0) {
		print_message("skip: needs root to switch to the nobody user\n");
		skip();
	}
	snprintf(sub, sizeof(sub), "%s.ro", dir);
	assert_int_equal(mkdir(sub, 0755), 0);			/* root's, not nobody's */
	snprintf(path, sizeof(path), "%s/out.json", sub);
	assert_int_equal(chmod(dir, 01777), 0);
	assert_refused(dir, &nobody, why(w, sizeof(w), "--json", path,
					 "its directory is not writable"), "--json", path);
	assert_true((fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0644)) >= 0);
	close(fd);						/* root's, 0644 */
	assert_refused(dir, &nobody, why(w, sizeof(w), "--json", path, "Permission denied"),
		       "--json", path);
	unlink(path);
	rmdir(sub);
	test_dir_remove(dir);
}

/* `fctrace run --dir d` (fast, --no-bpf): its exit status, stderr in err */
static int run_in(const char *d, const struct spawn_opts *o, char *err, size_t len)
{
	char *argv[] = { (char *)fctrace_binary(), "run", "--no-bpf", "--ops", "10", "--quiet",
			 "--dir", (char *)d, NULL };

	return run_fctrace(argv, o, err, len);
}

/* A --dir that fctrace cannot safely own: exit 2, "--dir D: why", and
 * nothing made in it (or, for a symlink, in what it points to). */
static void test_unsafe_dir(void **state)
{
	char *dir = test_dir_make(), sub[512], link[512], file[512], w[1024];
	int fd;

	snprintf(sub, sizeof(sub), "%s/open", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	assert_int_equal(chmod(sub, 0777), 0);		/* everyone writes, no sticky bit */
	assert_refused(sub, NULL, why(w, sizeof(w), "--dir", sub, "is writable by others without "
				      "the sticky bit"), "--dir", sub);
	assert_int_equal(chmod(sub, 0770), 0);		/* the group too */
	assert_refused(sub, NULL, why(w, sizeof(w), "--dir", sub, "is writable by others"),
		       "--dir", sub);

	snprintf(link, sizeof(link), "%s/link", dir);	/* a symlink to a good directory */
	assert_int_equal(chmod(sub, 0700), 0);
	assert_int_equal(symlink(sub, link), 0);
	assert_refused(sub, NULL, why(w, sizeof(w), "--dir", link, "is a symbolic link"),
		       "--dir", link);
	snprintf(w, sizeof(w), "%s/", link);		/* with a slash it is the directory */
	assert_refused(sub, NULL, "is a symbolic link", "--dir", w);
	unlink(link);

	snprintf(file, sizeof(file), "%s/file", dir);
	assert_true((fd = open(file, O_CREAT | O_EXCL | O_WRONLY, 0600)) >= 0);
	close(fd);
	assert_refused(sub, NULL, why(w, sizeof(w), "--dir", file, "is not a directory"),
		       "--dir", file);
	unlink(file);
	assert_refused(sub, NULL, why(w, sizeof(w), "--dir", file, "No such file or directory"),
		       "--dir", file);

	if (geteuid() == 0) {				/* another user's directory */
		snprintf(file, sizeof(file), "%s/theirs", dir);
		assert_int_equal(mkdir(file, 0755), 0);
		assert_int_equal(chown(file, 65534, 65534), 0);
		assert_refused(file, NULL, why(w, sizeof(w), "--dir", file, "belongs to uid 65534"),
			       "--dir", file);
		rmdir(file);
	}
	rmdir(sub);
	test_dir_remove(dir);
}

/* What fctrace can own: a directory of its user's (0700 or 0755), a
 * world-writable one with the sticky bit as /tmp is, and a path through
 * a symlink as long as the last component is the directory itself. */
static void test_safe_dirs(void **state)
{
	char *dir = test_dir_make(), sub[512], link[512], via[600], err[512];

	assert_int_equal(run_in(dir, NULL, err, sizeof(err)), 0);
	assert_true(test_dir_is_empty(dir));
	snprintf(sub, sizeof(sub), "%s/shared", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	assert_int_equal(chmod(sub, 01777), 0);
	assert_int_equal(run_in(sub, NULL, err, sizeof(err)), 0);
	assert_true(test_dir_is_empty(sub));
	snprintf(link, sizeof(link), "%s.link", dir);
	assert_int_equal(symlink(dir, link), 0);
	snprintf(via, sizeof(via), "%s/shared", link);
	assert_int_equal(run_in(via, NULL, err, sizeof(err)), 0);
	assert_true(test_dir_is_empty(sub));
	if (geteuid() == 0) {				/* nobody in a sticky /tmp-like dir */
		struct spawn_opts nobody = { .uid = 65534, .errfd = -1 };

		assert_int_equal(chmod(dir, 0755), 0);	/* nobody may pass through */
		assert_int_equal(run_in(sub, &nobody, err, sizeof(err)), 0);
		assert_true(test_dir_is_empty(sub));
	}
	unlink(link);
	rmdir(sub);
	test_dir_remove(dir);
}

/* Skip unless the hard fd limit leaves room to raise the soft one into. */
static void require_hard_fd_limit(rlim_t need)
{
	struct rlimit rl;

	assert_int_equal(getrlimit(RLIMIT_NOFILE, &rl), 0);
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need) {
		print_message("skip: the hard fd limit (%llu) leaves no room to raise into\n",
			      (unsigned long long)rl.rlim_max);
		skip();
	}
}

/* bcache keeps a handle per file: 300 files need 3 + 300 + 300 + 128 */
static void test_fd_limit(void **state)
{
	char *dir = test_dir_make();
	char *argv[] = { (char *)fctrace_binary(), "run", "--workload", "bcache", "--files", "300",
			 "--file-size", "8192", "--chunk", "1000", "--ops", "200", "--threads", "2",
			 "--no-bpf", "--quiet", "--dir", dir, NULL };
	struct rlimit low = { 200, 200 }, soft_low = { 200, 1024 };
	struct spawn_opts o = { .uid = -1, .errfd = -1, .nofile = &low };
	char err[512];

	require_hard_fd_limit(1024);
	assert_refused(dir, &o, "this run needs 731 file descriptors but RLIMIT_NOFILE's hard "
		       "limit is 200", NULL, NULL);
	o.nofile = &soft_low;				/* room under the hard limit */
	assert_int_equal(run_fctrace(argv, &o, err, sizeof(err)), 0);
	assert_true(test_dir_is_empty(dir));
	test_dir_remove(dir);
}

/* The pool's channels count: fcp with 400 files and a 300-channel pool
 * needs 3 + 400 + 300 + 4 + 1 + 128 = 836. One less is refused; exactly
 * that is enough for the run, probes included when they can load. */
static void test_fd_limit_pool(void **state)
{
	char *dir = test_dir_make(), err[512];
	bool bpf = !bpf_test_unavailable();
	char *argv[] = { (char *)fctrace_binary(), "run", "--workload", "fcp", "--files", "400",
			 "--pool", "300", "--file-size", "8192", "--chunk", "1000", "--ops", "2000",
			 "--threads", "4", "--quiet", "--dir", dir, bpf ? NULL : "--no-bpf", NULL };
	struct rlimit short_by_one = { 835, 835 }, exact = { 200, 836 };
	struct spawn_opts o = { .uid = -1, .errfd = -1, .nofile = &short_by_one };

	require_hard_fd_limit(836);
	assert_int_equal(run_fctrace(argv, &o, err, sizeof(err)), 2);
	assert_string_equal(err, "fctrace: this run needs 836 file descriptors but RLIMIT_NOFILE's "
			    "hard limit is 835 (raise it: ulimit -Hn), or use fewer "
			    "--files/--pool/--threads\n");
	assert_true(test_dir_is_empty(dir));
	o.nofile = &exact;
	if (run_fctrace(argv, &o, err, sizeof(err)) != 0)
		fail_msg("%s with 836 fds: %s", bpf ? "traced" : "--no-bpf", err);
	assert_true(test_dir_is_empty(dir));
	test_dir_remove(dir);
}

/* A sweep is checked at its largest cell, wherever it is in the list */
static void test_fd_limit_sweep(void **state)
{
	char *dir = test_dir_make(), err[512];
	char *argv[] = { (char *)fctrace_binary(), "sweep", "--workload", "bcache", "--files",
			 "300,10", "--threads", "2,1", "--file-size", "8192", "--chunk", "1000",
			 "--ops", "200", "--no-bpf", "--quiet", "--dir", dir, NULL };
	struct rlimit low = { 400, 400 };
	struct spawn_opts o = { .uid = -1, .errfd = -1, .nofile = &low };

	assert_int_equal(run_fctrace(argv, &o, err, sizeof(err)), 2);
	assert_non_null(strstr(err, "needs 731 file descriptors"));
	assert_true(test_dir_is_empty(dir));
	test_dir_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_outputs),
		cmocka_unit_test(test_bad_csv),
		cmocka_unit_test(test_outputs_checked_before_bpf),
		cmocka_unit_test(test_same_output_twice),
		cmocka_unit_test(test_good_outputs),
		cmocka_unit_test(test_unwritable_outputs),
		cmocka_unit_test(test_unsafe_dir),
		cmocka_unit_test(test_safe_dirs),
		cmocka_unit_test(test_fd_limit),
		cmocka_unit_test(test_fd_limit_pool),
		cmocka_unit_test(test_fd_limit_sweep),
	};

	if (require_fctrace_binary("test_preflight"))
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
