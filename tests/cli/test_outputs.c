/*
 * test_outputs.c - what fctrace writes, checked as a user would see it:
 * a report that cannot be written (full tmpfs, a closed or full standard
 * output) exits 1 with one line and leaves no file; a FIFO, a device or a
 * link to one as the destination is refused (exit 2) and never written
 * into; a symlink
 * planted where it writes is replaced, never followed; an output named
 * like an option is refused; run --compare fails with its compared run
 * and writes both runs; every catchable ending signal cleans up; a
 * stopped run says so; and every table line fits 100 columns.
 */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include <json-c/json.h>
#include "binutil.h"
#include "bpfutil.h"
#include "jsonutil.h"
#include "testutil.h"

#define NOBODY	65534

/* Root only: mount, chown. Skipped otherwise, failed in CI. */
#define ROOT_REQUIRE()								\
	do {									\
		if (geteuid() != 0) {						\
			if (bpf_test_required())				\
				fail_msg("root required");			\
			print_message("skip: needs root\n");			\
			skip();							\
		}								\
	} while (0)

/* the binary, absolute: some runs start in another directory */
static char *fct(void)
{
	static char abs[4096];

	if (!abs[0] && !realpath(fctrace_binary(), abs))
		snprintf(abs, sizeof(abs), "%s", fctrace_binary());
	return abs;
}

/* exactly one line, containing want */
static void assert_one_line(const char *err, const char *want)
{
	const char *nl = strchr(err, '\n');

	if (!nl || nl[1] || !strstr(err, want))
		fail_msg("want one line with \"%s\", got \"%s\"", want, err);
}

/* the names in dir, but for keep, joined by spaces ("" if none) */
static void names_in(const char *dir, const char *keep, char *buf, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	assert_non_null(d);
	buf[0] = '\0';
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    (!keep || strcmp(e->d_name, keep)))
			n += (size_t)snprintf(buf + n, len - n, "%s ", e->d_name);
	closedir(d);
}

/* A small run: fc, no BPF, into data directory dir, --quiet. */
#define SMALL_RUN(dir) fct(), "run", "--workload", "fc", "--files", "4", "--ops", "200", \
	"--threads", "2", "--no-bpf", "--dir", dir

/* A 1 MiB tmpfs, filled: every report on it fails for want of space. */
static void test_full_tmpfs(void **state)
{
	char *dir = test_dir_make(), mnt[512], json[600], csv[600], html[600], err[1024], left[700];
	char *run[] = { SMALL_RUN(dir), "--quiet", "--json", json, "--html", html, NULL };
	char *sweep[] = { fct(), "sweep", "--workload", "fc", "--files", "2", "--threads", "1",
			  "--ops", "100", "--no-bpf", "--dir", dir, "--quiet", "--csv", csv, NULL };
	char *sweep_json[] = { fct(), "sweep", "--workload", "fc", "--files", "2", "--threads", "1",
			       "--ops", "100", "--no-bpf", "--dir", dir, "--quiet", "--json", json, NULL };
	static char block[4096];
	int fd;

	ROOT_REQUIRE();
	snprintf(mnt, sizeof(mnt), "%s.mnt", dir);
	assert_int_equal(mkdir(mnt, 0755), 0);
	assert_int_equal(mount("tmpfs", mnt, "tmpfs", 0, "size=1m"), 0);
	snprintf(json, sizeof(json), "%s/r.json", mnt);
	snprintf(csv, sizeof(csv), "%s/r.csv", mnt);
	snprintf(html, sizeof(html), "%s/r.html", mnt);
	snprintf(left, sizeof(left), "%s/filler", mnt);
	fd = open(left, O_CREAT | O_WRONLY, 0600);
	assert_true(fd >= 0);
	memset(block, 'x', sizeof(block));
	while (write(fd, block, sizeof(block)) > 0)
		;
	close(fd);
	assert_int_equal(run_fctrace(run, NULL, err, sizeof(err)), 1);
	assert_one_line(err, "fctrace: --json ");
	assert_non_null(strstr(err, "No space left on device"));
	assert_int_equal(run_fctrace(sweep, NULL, err, sizeof(err)), 1);
	assert_one_line(err, "fctrace: --csv ");
	assert_int_equal(run_fctrace(sweep_json, NULL, err, sizeof(err)), 1);
	assert_one_line(err, "No space left on device");
	names_in(mnt, "filler", left, sizeof(left));
	assert_string_equal(left, "");			/* no report, no temporary */
	assert_int_equal(umount(mnt), 0);
	rmdir(mnt);
	assert_true(test_dir_is_empty(dir));
	test_dir_remove(dir);
}

/* Write the sysctl fs.protected_fifos (value "0".."2"); the old one in old. */
static void protected_fifos(const char *value, char *old, size_t len)
{
	FILE *f = fopen("/proc/sys/fs/protected_fifos", "r+");

	if (!f)
		return;
	if (old && !fgets(old, (int)len, f))
		old[0] = '\0';
	rewind(f);
	fputs(value, f);
	fclose(f);
}

/* A destination that is not a regular file (a device, a FIFO another
 * user made in a sticky directory - with and without a reader, under
 * fs.protected_fifos 0 and 2 -, a link to one, a link into /proc) is
 * refused before any work: exit 2, one line, nothing written into it,
 * and no wait for a reader (alarm: a hang fails the test). */
static void test_not_a_file(void **state)
{
	char *dir = test_dir_make(), err[1024], pub[512], fifo[600], link[600], proc[600];
	char old[8] = "", buf[64];
	char *dev[] = { SMALL_RUN(dir), "--quiet", "--json", "/dev/full", NULL };
	char *html[] = { SMALL_RUN(dir), "--quiet", "--html", "/dev/null", NULL };
	char *to_fifo[] = { SMALL_RUN(dir), "--quiet", "--json", fifo, NULL };
	char *to_link[] = { SMALL_RUN(dir), "--quiet", "--json", link, NULL };
	char *to_proc[] = { SMALL_RUN(dir), "--quiet", "--html", proc, NULL };
	int rd;

	alarm(60);
	assert_int_equal(run_fctrace(dev, NULL, err, sizeof(err)), 2);
	assert_one_line(err, "fctrace: --json /dev/full: is a character device, not a regular "
			"file");
	assert_int_equal(run_fctrace(html, NULL, err, sizeof(err)), 2);
	assert_one_line(err, "fctrace: --html /dev/null: is a character device");
	snprintf(pub, sizeof(pub), "%s.pub", dir);
	assert_int_equal(mkdir(pub, 0777), 0);
	assert_int_equal(chmod(pub, 01777), 0);
	snprintf(fifo, sizeof(fifo), "%s/report.json", pub);
	assert_int_equal(mkfifo(fifo, 0666), 0);
	if (geteuid() == 0)
		assert_int_equal(lchown(fifo, NOBODY, NOBODY), 0);	/* nobody's FIFO */
	for (int pass = 0; pass < 2; pass++) {
		if (pass && geteuid() == 0)
			protected_fifos("2", old, sizeof(old));
		/* nobody reading: it used to block after the run */
		assert_int_equal(run_fctrace(to_fifo, NULL, err, sizeof(err)), 2);
		assert_one_line(err, "is a FIFO, not a regular file (use - for standard output)");
		/* nobody reading as it runs: it used to stream the report in */
		rd = open(fifo, O_RDONLY | O_NONBLOCK);
		assert_true(rd >= 0);
		assert_int_equal(run_fctrace(to_fifo, NULL, err, sizeof(err)), 2);
		assert_int_equal(read(rd, buf, sizeof(buf)), 0);	/* no writer ever came */
		close(rd);
		if (pass && old[0])
			protected_fifos(old, NULL, 0);
	}
	snprintf(link, sizeof(link), "%s/tl.json", pub);
	assert_int_equal(symlink(fifo, link), 0);
	assert_int_equal(run_fctrace(to_link, NULL, err, sizeof(err)), 2);
	assert_one_line(err, "is a link to a FIFO");
	snprintf(proc, sizeof(proc), "%s/stdout", pub);
	assert_int_equal(symlink("/proc/self/fd/1", proc), 0);
	assert_int_equal(run_fctrace(to_proc, NULL, err, sizeof(err)), 2);
	assert_one_line(err, "is a link into /proc");
	alarm(0);
	unlink(proc);
	unlink(link);
	unlink(fifo);
	rmdir(pub);
	assert_true(test_dir_is_empty(dir));
	test_dir_remove(dir);
}

/* Standard output full or closed: the tables, or --json -, did not get out. */
static void test_stdout_errors(void **state)
{
	char *dir = test_dir_make(), err[1024], json[600];
	char *table[] = { SMALL_RUN(dir), NULL };
	char *to_stdout[] = { SMALL_RUN(dir), "--quiet", "--json", "-", NULL };
	char *to_file[] = { SMALL_RUN(dir), "--quiet", "--json", json, NULL };
	struct spawn_opts full = { .uid = -1, .outfd = open("/dev/full", O_WRONLY) };
	struct spawn_opts closed = { .uid = -1, .outfd = SPAWN_STDOUT_CLOSED };
	struct stat st;

	assert_true(full.outfd > 0);
	snprintf(json, sizeof(json), "%s.json", dir);
	assert_int_equal(run_fctrace(table, &full, err, sizeof(err)), 1);
	assert_one_line(err, "fctrace: writing standard output: No space left on device");
	assert_int_equal(run_fctrace(to_stdout, &full, err, sizeof(err)), 1);
	assert_one_line(err, "fctrace: --json -: writing standard output: No space left");
	assert_int_equal(run_fctrace(table, &closed, err, sizeof(err)), 1);
	assert_one_line(err, "fctrace: writing standard output: Bad file descriptor");
	assert_int_equal(run_fctrace(to_stdout, &closed, err, sizeof(err)), 1);
	assert_one_line(err, "fctrace: --json -: writing standard output: Bad file descriptor");
	/* nothing for stdout: a closed one is no error, and no file takes fd 1 */
	assert_int_equal(run_fctrace(to_file, &closed, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_int_equal(stat(json, &st), 0);
	assert_true(st.st_size > 100);
	unlink(json);
	close(full.outfd);
	assert_true(test_dir_is_empty(dir));
	test_dir_remove(dir);
}

static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0644);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static void assert_file_is(const char *path, const char *text)
{
	char buf[64] = { 0 };
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_true(read(fd, buf, sizeof(buf) - 1) >= 0);
	close(fd);
	assert_string_equal(buf, text);
}

/* path is now a regular file holding a JSON run document */
static void assert_report_at(const char *path)
{
	struct json_object *doc;
	struct stat st;

	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_non_null(doc = json_object_from_file(path));
	json_object_put(doc);
}

/* In a sticky world-writable directory, as /tmp: a link nobody planted
 * and one of our own are both replaced by the report (rename), their
 * targets untouched; a directory link nobody planted is not followed
 * (exit 2, before any work), one of ours is. */
static void test_links(void **state)
{
	char *dir = test_dir_make(), pub[512], victim[600], out[600], err[1024];
	char vdir[600], via[700], mine[600], via_mine[700], left[256];
	char *argv[] = { SMALL_RUN(dir), "--quiet", "--json", out, NULL };

	ROOT_REQUIRE();
	snprintf(pub, sizeof(pub), "%s.pub", dir);
	assert_int_equal(mkdir(pub, 0777), 0);
	assert_int_equal(chmod(pub, 01777), 0);
	snprintf(victim, sizeof(victim), "%s.victim", dir);
	write_file(victim, "precious");
	for (int owner = 0; owner < 2; owner++) {	/* nobody's link, then ours */
		snprintf(out, sizeof(out), "%s/out.json", pub);
		assert_int_equal(symlink(victim, out), 0);
		if (!owner)
			assert_int_equal(lchown(out, NOBODY, NOBODY), 0);
		assert_int_equal(run_fctrace(argv, NULL, err, sizeof(err)), 0);
		assert_file_is(victim, "precious");
		assert_report_at(out);
		unlink(out);
	}
	snprintf(vdir, sizeof(vdir), "%s.vdir", dir);
	assert_int_equal(mkdir(vdir, 0700), 0);
	snprintf(via, sizeof(via), "%s/d", pub);
	assert_int_equal(symlink(vdir, via), 0);
	assert_int_equal(lchown(via, NOBODY, NOBODY), 0);
	snprintf(out, sizeof(out), "%s/d/out.json", pub);
	assert_int_equal(run_fctrace(argv, NULL, err, sizeof(err)), 2);
	assert_one_line(err, "another user's symlink in a sticky world-writable directory");
	names_in(vdir, NULL, left, sizeof(left));
	assert_string_equal(left, "");
	snprintf(mine, sizeof(mine), "%s/mine", pub);
	assert_int_equal(symlink(vdir, mine), 0);
	snprintf(out, sizeof(out), "%s/mine/out.json", pub);
	assert_int_equal(run_fctrace(argv, NULL, err, sizeof(err)), 0);
	snprintf(via_mine, sizeof(via_mine), "%s/out.json", vdir);
	assert_report_at(via_mine);
	names_in(vdir, NULL, left, sizeof(left));
	assert_string_equal(left, "out.json ");		/* and no temporary */
	unlink(via_mine);
	unlink(via);
	unlink(mine);
	rmdir(vdir);
	rmdir(pub);
	unlink(victim);
	assert_true(test_dir_is_empty(dir));
	test_dir_remove(dir);
}

/* `--json --no-bpf` would write a file named --no-bpf and run traced. */
static void test_output_named_like_an_option(void **state)
{
	char *dir = test_dir_make(), err[1024], left[256];
	char *argv[] = { SMALL_RUN(dir), "--json", "--no-bpf", NULL };
	struct spawn_opts in_dir = { .uid = -1, .cwd = dir };

	assert_int_equal(run_fctrace(argv, &in_dir, err, sizeof(err)), 2);
	assert_one_line(err, "fctrace: --json --no-bpf: looks like an option");
	assert_non_null(strstr(err, "./--no-bpf"));
	names_in(dir, NULL, left, sizeof(left));
	assert_string_equal(left, "");
	argv[sizeof(argv) / sizeof(argv[0]) - 2] = "./--no-bpf";	/* as it says */
	assert_int_equal(run_fctrace(argv, &in_dir, err, sizeof(err)), 0);
	names_in(dir, NULL, left, sizeof(left));
	assert_string_equal(left, "--no-bpf ");
	snprintf(left, sizeof(left), "%s/--no-bpf", dir);
	unlink(left);
	test_dir_remove(dir);
}

/* The first data directory in dir other than *first (set on the first call). */
static bool second_data_dir(const char *dir, char *first, size_t len, char *second)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool found = false;

	assert_non_null(d);
	while ((e = readdir(d)) && !found)
		if (!strncmp(e->d_name, "fctrace.", 8)) {
			if (!first[0])
				snprintf(first, len, "%s", e->d_name);
			else if (strcmp(first, e->d_name)) {
				snprintf(second, 256, "%s", e->d_name);
				found = true;
			}
		}
	closedir(d);
	return found;
}

/* Remove every file of data directory sub of dir, then sub. */
static void remove_data_dir(const char *dir, const char *sub)
{
	char path[1024];
	DIR *d;
	struct dirent *e;

	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	if (!(d = opendir(path)))
		return;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s/%s", dir, sub, e->d_name);
			unlink(path);
		}
	closedir(d);
	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	rmdir(path);
}

/* Wait for run --compare's second run, then act on it: remove its data
 * directory (sig 0) or send sig. The exit status. */
static int into_second_run(char *argv[], const char *dir, int sig, char *err, size_t errlen)
{
	FILE *ferr = tmpfile();
	struct spawn_opts o = { .uid = -1, .errfd = fileno(ferr) };
	char first[256] = "", second[256];
	pid_t pid = spawn_fctrace(argv, &o);
	int rc;
	size_t n;

	for (int i = 0; i < 60000 && !second_data_dir(dir, first, sizeof(first), second); i++)
		usleep(1000);
	usleep(200 * 1000);
	if (sig)
		kill(pid, sig);
	else
		remove_data_dir(dir, second);
	rc = wait_exit(pid);
	rewind(ferr);
	n = fread(err, 1, errlen - 1, ferr);
	err[n] = '\0';
	fclose(ferr);
	return rc;
}

/* run --compare: a failed compared run is a failure with no file; one
 * that ran writes both runs; cut in the second run, the file says so. */
static void test_run_compare(void **state)
{
	char *dir = test_dir_make(), json[600], err[2048];
	char *argv[] = { fct(), "run", "--workload", "bcache", "--compare", "fc", "--files", "1",
			 "--threads", "1", "--ops", "3000000", "--no-bpf", "--quiet", "--dir", dir,
			 "--json", json, NULL };
	struct json_object *doc, *runs;
	struct stat st;

	snprintf(json, sizeof(json), "%s.json", dir);
	assert_int_equal(into_second_run(argv, dir, 0, err, sizeof(err)), 1);
	assert_non_null(strstr(err, "fctrace: the compared run (fc) failed: no comparison, so no "
			       "--json/--html file\n"));
	assert_int_equal(stat(json, &st), -1);

	assert_int_equal(into_second_run(argv, dir, SIGINT, err, sizeof(err)), 130);
	assert_non_null(doc = json_object_from_file(json));
	assert_string_equal(json_str_at(doc, "command"), "compare");
	assert_true(json_bool_at(doc, "interrupted"));
	runs = json_must_at(doc, "runs");
	assert_int_equal(json_object_array_length(runs), 2);
	assert_true(json_bool_at(doc, "runs.1.interrupted"));
	json_object_put(doc);
	unlink(json);

	argv[11] = "100";
	assert_int_equal(run_fctrace(argv, NULL, err, sizeof(err)), 0);
	assert_non_null(doc = json_object_from_file(json));
	runs = json_must_at(doc, "runs");
	assert_int_equal(json_object_array_length(runs), 2);
	assert_string_equal(json_str_at(doc, "runs.1.config.workload"), "fc");
	assert_false(json_bool_at(doc, "interrupted"));
	json_object_put(doc);
	unlink(json);
	assert_true(test_dir_is_empty(dir));
	test_dir_remove(dir);
}

/* SIGQUIT, SIGUSR1 and the rest clean up as Ctrl-C does: 128 + sig, no files. */
static void test_other_signals(void **state)
{
	static const int sigs[] = { SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, 0 };
	char *dir = test_dir_make();
	char *argv[] = { fct(), "run", "--workload", "fc", "--files", "10", "--threads", "1",
			 "--ops", "100000000", "--no-bpf", "--quiet", "--dir", dir, NULL };
	struct spawn_opts quiet = { .uid = -1, .errfd = open("/dev/null", O_WRONLY) };

	for (int i = 0; sigs[i]; i++) {
		int sig = i == 4 ? SIGRTMIN : sigs[i];
		pid_t pid = spawn_fctrace(argv, &quiet);

		usleep(800 * 1000);
		kill(pid, sig);
		assert_int_equal(wait_exit(pid), 128 + sig);
		assert_true(test_dir_is_empty(dir));
	}
	close(quiet.errfd);
	test_dir_remove(dir);
}

/* SIGSTOP for a while, then SIGCONT: the table and the JSON say so. */
static void test_stopped_run(void **state)
{
	char *dir = test_dir_make(), json[600], out[16384] = "";
	char *argv[] = { fct(), "run", "--workload", "fc", "--files", "10", "--threads", "1",
			 "--ops", "300000", "--no-bpf", "--dir", dir, "--json", json, NULL };
	FILE *fout = tmpfile();
	struct spawn_opts o = { .uid = -1, .outfd = fileno(fout) };
	struct json_object *doc;
	pid_t pid;
	size_t n;

	snprintf(json, sizeof(json), "%s.json", dir);
	pid = spawn_fctrace(argv, &o);
	usleep(300 * 1000);
	kill(pid, SIGSTOP);
	usleep(500 * 1000);
	kill(pid, SIGCONT);
	assert_int_equal(wait_exit(pid), 0);
	rewind(fout);
	n = fread(out, 1, sizeof(out) - 1, fout);
	out[n] = '\0';
	fclose(fout);
	assert_non_null(strstr(out, "\nSTOPPED: the run was stopped and continued (SIGCONT x1)"));
	assert_non_null(doc = json_object_from_file(json));
	assert_int_equal(json_object_get_int64(json_must_at(doc, "stopped")), 1);
	json_object_put(doc);
	unlink(json);
	assert_true(test_dir_is_empty(dir));
	test_dir_remove(dir);
}

/* Columns of a UTF-8 line: its characters. */
static int columns(const char *s, size_t len)
{
	int n = 0;

	for (size_t i = 0; i < len; i++)
		n += ((unsigned char)s[i] & 0xc0) != 0x80;
	return n;
}

static void assert_fits(char *const argv[], const char *what)
{
	static char out[262144];
	char err[4096];
	const char *p;

	assert_int_equal(run_fctrace_out(argv, NULL, out, sizeof(out), err, sizeof(err)), 0);
	assert_true(strlen(out) > 100);
	for (p = out; *p; ) {
		size_t len = strcspn(p, "\n");

		if (columns(p, len) > 100)
			fail_msg("%s: %d columns: %.*s", what, columns(p, len), (int)len, p);
		p += len + (p[len] == '\n');
	}
}

/* Every reporter's lines fit 100 columns: traced when we can, else timing only. */
static void test_line_widths(void **state)
{
	char *dir = test_dir_make();
	char *nobpf = geteuid() == 0 ? "--probes=full" : "--no-bpf";
	char *list[] = { fct(), "list", NULL };
	char *run[] = { fct(), "run", "--workload", "fcp", "--ops", "2000", "--dir", dir, nobpf, NULL };
	char *run_cmp[] = { fct(), "run", "--workload", "bcache", "--compare", "fc", "--ops", "2000",
			    "--dir", dir, nobpf, NULL };
	char *cmp[] = { fct(), "compare", "--workload", "fcp,fc", "--ops", "1000", "--dir", dir,
			nobpf, NULL };
	char *sweep[] = { fct(), "sweep", "--files", "10,60", "--threads", "1,4", "--ops", "1000",
			  "--predict", "--dir", dir, nobpf, NULL };

	assert_fits(list, "list");
	assert_fits(run, "run");
	assert_fits(run_cmp, "run --compare");
	assert_fits(cmp, "compare");
	assert_fits(sweep, "sweep --predict");
	assert_true(test_dir_is_empty(dir));
	test_dir_remove(dir);
}

/* Field i (from 0) of a CSV line without quoting. */
static const char *field(const char *line, int i)
{
	static char buf[64];

	while (i-- > 0 && line)
		if ((line = strchr(line, ',')))
			line++;
	assert_non_null(line);
	snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(line, ",\n"), line);
	return buf;
}

/* The CSV leaves what a workload does not have empty (fc: no pool, no hits). */
static void test_csv_empty_fields(void **state)
{
	char *dir = test_dir_make(), csv[600], line[512];
	char *argv[] = { fct(), "sweep", "--workload", "fc,fcp", "--files", "2", "--threads", "1",
			 "--ops", "100", "--no-bpf", "--quiet", "--dir", dir, "--csv", csv, NULL };
	FILE *f;

	snprintf(csv, sizeof(csv), "%s.csv", dir);
	assert_int_equal(wait_exit(spawn_fctrace(argv, NULL)), 0);
	assert_non_null(f = fopen(csv, "r"));
	assert_non_null(fgets(line, sizeof(line), f));
	assert_non_null(fgets(line, sizeof(line), f));
	assert_true(!strncmp(line, "fc,2,1,,100,", 12));	/* pool */
	assert_string_equal(field(line, 7), "");		/* hit_ratio */
	assert_non_null(fgets(line, sizeof(line), f));
	assert_true(!strncmp(line, "fcp,2,1,50,100,", 15));
	fclose(f);
	unlink(csv);
	test_dir_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_tmpfs),
		cmocka_unit_test(test_not_a_file),
		cmocka_unit_test(test_stdout_errors),
		cmocka_unit_test(test_links),
		cmocka_unit_test(test_output_named_like_an_option),
		cmocka_unit_test(test_run_compare),
		cmocka_unit_test(test_other_signals),
		cmocka_unit_test(test_stopped_run),
		cmocka_unit_test(test_line_widths),
		cmocka_unit_test(test_csv_empty_fields),
	};

	if (require_fctrace_binary("test_outputs"))
		return 1;
	test_signals_default();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
