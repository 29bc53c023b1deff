/*
 * test_options.c - the command line: good input parses to the expected
 * settings; bad input gets exactly one line on stderr naming the option,
 * and exit status 2.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <cmocka.h>
#include "cli/options.h"

/* Parse a command line given as one string; capture what went to stderr. */
static int parse_line(const char *line, struct options *o, char *err, size_t errlen)
{
	char buf[512], *argv[32], *save = NULL;
	int argc = 0, saved = dup(STDERR_FILENO), rc;
	FILE *tmp = tmpfile();
	size_t n;

	snprintf(buf, sizeof(buf), "fctrace %s", line);
	for (char *t = strtok_r(buf, " ", &save); t && argc < 31; t = strtok_r(NULL, " ", &save))
		argv[argc++] = t;
	argv[argc] = NULL;
	fflush(stderr);
	dup2(fileno(tmp), STDERR_FILENO);
	rc = options_parse(argc, argv, o);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(tmp);
	n = fread(err, 1, errlen - 1, tmp);
	err[n] = '\0';
	fclose(tmp);
	return rc;
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void test_defaults_are_seed_000(void **state)
{
	struct options o;
	char err[512];

	assert_int_equal(parse_line("run", &o, err, sizeof(err)), 0);
	assert_int_equal(o.cmd, CMD_RUN);
	assert_string_equal(o.wl.workload, "fcp");
	assert_int_equal(o.wl.files, 60);
	assert_int_equal(o.wl.threads, 8);
	assert_int_equal(o.wl.ops, 100000);
	assert_int_equal(o.wl.file_size, 100000);
	assert_int_equal(o.wl.chunk, 10000);
	assert_int_equal(o.wl.pool, 50);
	assert_int_equal(o.wl.block, 4096);
	assert_false(o.trace.no_bpf);
	assert_string_equal(err, "");
}

static void test_run_options(void **state)
{
	struct options o;
	char err[512];

	assert_int_equal(parse_line("run --workload bcache-sharded --files 100 --threads 3 "
				    "--ops 5k --cache-size 4M --block 8192 --cache cold "
				    "--no-bpf --json -", &o, err, sizeof(err)), 0);
	assert_string_equal(o.wl.workload, "bcache-sharded");
	assert_int_equal(o.wl.files, 100);
	assert_int_equal(o.wl.threads, 3);
	assert_int_equal(o.wl.ops, 5 * 1024);
	assert_int_equal(o.wl.cache_size, 4 << 20);
	assert_int_equal(o.wl.block, 8192);
	assert_int_equal(o.wl.cache, WL_CACHE_COLD);
	assert_true(o.trace.no_bpf);
	assert_string_equal(o.json, "-");
	assert_int_equal(parse_line("run --workload nio --shared-file --handle locked",
				    &o, err, sizeof(err)), 0);
	assert_string_equal(o.wl.workload, "nio");
	assert_int_equal(o.wl.handle, WL_HANDLE_LOCKED);
	/* a setting one of the chosen workloads reads is fine */
	assert_int_equal(parse_line("sweep --workload fc,fcp --pool 10", &o, err, sizeof(err)), 0);
	assert_int_equal(parse_line("run --workload fc --compare fcp --pool 10", &o, err,
				    sizeof(err)), 0);
	assert_int_equal(parse_line("run --json ./-x", &o, err, sizeof(err)), 0);
	assert_string_equal(o.json, "./-x");
}

/* -p A,B and -p again: every process, in order; bad lists, one line. */
static void test_pid_lists(void **state)
{
	static const char *const bad[] = {
		"attach -p 1,,2", "attach -p 1,", "attach -p ,1", "attach -p 1,x", "attach -p 1,2K",
		"attach -p 1 -p 1", "attach -p 1,0", "attach -p 99999999", "run -p 1 -- true",
	};
	struct options o;
	char err[512];

	assert_int_equal(parse_line("attach -p 12,34 -p 56", &o, err, sizeof(err)), 0);
	assert_int_equal(o.target.npids, 3);
	assert_int_equal(o.target.pid, 12);
	assert_int_equal(o.target.pids[1], 34);
	assert_int_equal(o.target.pids[2], 56);
	assert_int_equal(parse_line("attach -p 7 --follow", &o, err, sizeof(err)), 0);
	assert_int_equal(o.target.npids, 1);
	assert_true(o.target.follow);
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		assert_int_equal(parse_line(bad[i], &o, err, sizeof(err)), 2);
		if (count_lines(err) != 1 || strncmp(err, "fctrace: ", 9))
			fail_msg("%s: '%s'", bad[i], err);
	}
}

static void test_time_every(void **state)
{
	struct options o;
	char err[512];

	assert_int_equal(parse_line("run", &o, err, sizeof(err)), 0);
	assert_int_equal(o.trace.time_every, 0);		/* the BPF side's default */
	assert_int_equal(parse_line("run --time-every 1", &o, err, sizeof(err)), 0);
	assert_int_equal(o.trace.time_every, 1);
	assert_int_equal(parse_line("run --probes syscalls,sched --time-every 64",
				    &o, err, sizeof(err)), 0);
	assert_int_equal(o.trace.time_every, 64);
}

static void test_timeline(void **state)
{
	struct options o;
	char err[512];

	assert_int_equal(parse_line("run", &o, err, sizeof(err)), 0);
	assert_int_equal(o.trace.tl_window_ms, 0);
	assert_int_equal(parse_line("run --timeline", &o, err, sizeof(err)), 0);
	assert_int_not_equal(o.trace.tl_window_ms, 0);
	assert_int_equal(o.trace.tl_window_ms, 20);
	assert_int_equal(o.trace.tl_start_ms, 200);
	assert_null(o.timeline_out);
	/* any --timeline-* option turns it on */
	assert_int_equal(parse_line("run --timeline-out t.json --timeline-window 5 "
				    "--timeline-start 0", &o, err, sizeof(err)), 0);
	assert_int_not_equal(o.trace.tl_window_ms, 0);
	assert_string_equal(o.timeline_out, "t.json");
	assert_int_equal(o.trace.tl_window_ms, 5);
	assert_int_equal(o.trace.tl_start_ms, 0);
	assert_int_equal(parse_line("attach -p 1 --timeline", &o, err, sizeof(err)), 0);
	assert_int_not_equal(o.trace.tl_window_ms, 0);
}

static void test_sweep_lists(void **state)
{
	struct options o;
	char err[512];

	assert_int_equal(parse_line("sweep --workload fc,fcp --files 10,50,60,100 --threads 1-8",
				    &o, err, sizeof(err)), 0);
	assert_int_equal(o.nworkloads, 2);
	assert_int_equal(o.files.n, 4);
	assert_int_equal(o.files.v[3], 100);
	assert_int_equal(o.threads.n, 8);
	assert_int_equal(o.threads.v[7], 8);
	assert_int_equal(parse_line("sweep --predict --fit saved.json", &o, err, sizeof(err)), 0);
	assert_true(o.predict);
	assert_string_equal(o.fit_path, "saved.json");
}

/* Each bad line: exit 2, one line, and the line names the culprit. */
static void test_bad_input_one_line_exit_2(void **state)
{
	static const char *const bad[][2] = {
		{ "run --files 0", "--files" },
		{ "run --timeline --no-bpf", "--timeline" },
		{ "run --timeline --probes syscalls", "--timeline" },
		{ "sweep --timeline", "--timeline" },
		{ "run --timeline --compare fc", "--timeline" },
		{ "run --timeline-window 0", "--timeline-window" },
		{ "run --timeline-window 1001", "--timeline-window" },
		{ "run --timeline-start x", "--timeline-start" },
		{ "run --timeline-out --json", "--timeline-out" },
		{ "run --files 100001", "--files" },
		{ "run --threads 0", "--threads" },
		{ "run --threads 1000", "--threads" },
		{ "run --threads x", "--threads" },
		{ "run --ops -5", "--ops" },
		{ "run --ops 99999999999", "--ops" },
		{ "run --workload nope", "--workload" },
		{ "run --workload fc,fcp", "--workload" },
		{ "run --chunk 200000", "--chunk" },
		{ "run --workload bcache --block 1000", "--block" },
		{ "run --cache lukewarm", "--cache" },
		{ "run --handle per-thread", "--handle" },
		{ "run --handle locke", "--handle" },
		{ "run --workload fc --handle per-thread", "--handle" },
		/* issue 19: options no chosen workload reads, stray commas, a
		 * missing value at the end, an output named like an option */
		{ "run --workload fc --block 8192", "--block does not apply to fc" },
		{ "run --workload fc --pool 10", "--pool does not apply to fc" },
		{ "run --workload fcp --shared-file --handle per-thread", "--handle does not apply" },
		{ "sweep --workload fc,fcp --cache-size 1M", "--cache-size does not apply" },
		{ "run --workload fcp,", "empty name" },
		{ "compare --workload ,fc,fcp", "empty name" },
		{ "run -j", "-j needs a value" },
		{ "run --threads", "--threads needs a value" },
		{ "run --json --no-bpf", "./--no-bpf" },
		{ "sweep --csv -x", "./-x" },
		{ "run --pressure -1", "--pressure" },
		{ "run --probes bogus", "--probes" },
		{ "run --no-bpf --probes light", "--probes" },
		{ "run --time-every 3", "--time-every" },
		{ "run --time-every 0", "--time-every" },
		{ "run --time-every 128", "--time-every" },
		{ "run --time-every 4 --probes light", "--time-every" },
		{ "run --time-every 4 --no-bpf", "--time-every" },
		{ "run --csv out.csv", "--csv" },
		{ "sweep --fit run.json", "--fit" },
		{ "run --predict", "--predict" },
		{ "sweep --predict --fit=", "--fit" },
		{ "run --files 1-8", "--files" },
		{ "run --bogus", "--bogus" },
		{ "run extra", "extra" },
		{ "frobnicate", "frobnicate" },
		{ "sweep --threads 8-1", "--threads" },
		{ "run --files 100000 --file-size 1G", "--files" },
		{ "compare --workload fcp", "--workload" },
		/* found by tests/fuzz/fuzz_options */
		{ "run --dir=", "--dir" },
		{ "sweep --files 2000,1 --file-size 8M", "--files" },
		{ "run -qV", "-qV" },
		/* argp's own options, which ARGP_NO_HELP takes away: --HANG slept
		 * for an hour, the abbreviations were silently ignored */
		{ "list --HANG=1", "--HANG" },
		{ "run --he", "--he" },
		{ "run --program-name=x", "--program-name" },
		/* issue 38: an option a command does not take, from its row */
		{ "list --json x", "--json does not apply to `fctrace list`" },
		{ "sweep --folded x", "--folded only applies to `fctrace run -- CMD`, `fctrace "
		  "attach` or `fctrace report`" },
		{ "compare --folded x", "--folded" },
		{ "run --folded x", "--folded only applies to `fctrace run -- CMD`" },
		{ "attach -p 1 --no-bpf", "--no-bpf sets up fctrace's own workloads" },
		{ "run --repeat 1", "--repeat only applies to `fctrace sweep`" },
		{ "compare --timeline-window 5", "--timeline-window only applies to" },
		{ "run --cpu-stacks", "--cpu-stacks only applies to `fctrace run -- CMD` or "
		  "`fctrace attach`" },
		{ "report a.json --timeline", "--timeline does not apply to `fctrace report`" },
		/* issue 43: help CMD */
		{ "help nope", "nope is not a command" },
		{ "help run sweep", "help takes one command" },
		{ "--list-options nope", "nope is not a command" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct options o;
		char err[512];
		int rc = parse_line(bad[i][0], &o, err, sizeof(err));

		if (rc != 2 || count_lines(err) != 1 || !strstr(err, bad[i][1]) ||
		    strncmp(err, "fctrace: ", 9))
			fail_msg("'%s' gave rc %d and '%s'", bad[i][0], rc, err);
	}
}

/* --help, --usage and --version answer and return -1, whatever else is
 * on the line: options_parse never exits, main does. */
static void test_help_returns(void **state)
{
	static const char *const asks[] = { "--help", "run --help", "run --files abc --help",
					    "sweep --bogus --usage", "list -V", "--version", "help",
					    "help attach", "--list-options", "--list-options diff" };
	int saved = dup(STDOUT_FILENO), null = open("/dev/null", O_WRONLY);

	assert_true(saved >= 0 && null >= 0);
	for (size_t i = 0; i < sizeof(asks) / sizeof(asks[0]); i++) {
		struct options o;
		char err[512];
		int rc;

		fflush(stdout);
		dup2(null, STDOUT_FILENO);
		rc = parse_line(asks[i], &o, err, sizeof(err));
		fflush(stdout);
		dup2(saved, STDOUT_FILENO);
		if (rc != -1 || err[0])
			fail_msg("'%s' gave rc %d and '%s'", asks[i], rc, err);
	}
	close(null);
	close(saved);
}

/* What `fctrace LINE` prints on stdout (a help text), into buf. */
static void help_text(const char *line, char *buf, size_t len)
{
	FILE *tmp = tmpfile();
	int saved = dup(STDOUT_FILENO);
	struct options o;
	char err[512];
	size_t n;

	assert_non_null(tmp);
	fflush(stdout);
	dup2(fileno(tmp), STDOUT_FILENO);
	assert_int_equal(parse_line(line, &o, err, sizeof(err)), -1);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	rewind(tmp);
	n = fread(buf, 1, len - 1, tmp);
	buf[n] = '\0';
	fclose(tmp);
}

/* A command's --help lists the options it reads and no other; every
 * heading shown has options under it. */
static void test_help_per_command(void **state)
{
	static const struct { const char *line, *has[4], *lacks[4]; } cases[] = {
		{ "attach --help", { "--pid", "--duration", "--max-threads", "--json" },
		  { "--files", "--csv", "--as-root", "Workload (" } },
		{ "run --help", { "--files", "--follow", "--timeline", "--compare" },
		  { "--pid", "--csv", "--names", "--duration" } },
		{ "sweep --help", { "--files", "--csv", "--predict", "--probes" },
		  { "--pid", "--timeline", "--follow", "Other programs" } },
		{ "report --help", { "--html", "--json", "--quiet", "Usage: fctrace report" },
		  { "--probes", "--files", "Tracing:", "Workload (" } },
		{ "list --help", { "--names", NULL }, { "--json=", "--files", "Tracing:", NULL } },
	};
	char buf[16384];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		help_text(cases[i].line, buf, sizeof(buf));
		for (int j = 0; j < 4; j++) {
			if (cases[i].has[j] && !strstr(buf, cases[i].has[j]))
				fail_msg("'%s' lacks %s", cases[i].line, cases[i].has[j]);
			if (cases[i].lacks[j] && strstr(buf, cases[i].lacks[j]))
				fail_msg("'%s' shows %s", cases[i].line, cases[i].lacks[j]);
		}
	}
	/* the whole list: "Other programs" has its options under it */
	help_text("--help", buf, sizeof(buf));
	{
		const char *other = strstr(buf, "Other programs"), *tracing = strstr(buf, "Tracing:");

		assert_non_null(other);
		assert_non_null(tracing);
		assert_true(strstr(other, "--pid") && strstr(other, "--pid") < tracing);
		assert_true(strstr(other, "--debuginfod") < tracing);
	}
}

/* `fctrace help CMD` is `fctrace CMD --help`; `fctrace help`, `--help`. */
static void test_help_command(void **state)
{
	static const char *const cmds[] = { "run", "sweep", "compare", "list", "attach",
					    "report", "diff" };
	static char a[16384], b[16384];

	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		char line[64];

		snprintf(line, sizeof(line), "help %s", cmds[i]);
		help_text(line, a, sizeof(a));
		snprintf(line, sizeof(line), "%s --help", cmds[i]);
		help_text(line, b, sizeof(b));
		assert_string_equal(a, b);
	}
	help_text("help", a, sizeof(a));
	help_text("--help", b, sizeof(b));
	assert_string_equal(a, b);
	/* the general help says which commands take an option */
	assert_non_null(strstr(b, "[sweep]"));
}

/* --list-options CMD: the rows CMD takes, tab separated, nothing else */
static void test_list_options(void **state)
{
	static char buf[16384];

	help_text("--list-options attach", buf, sizeof(buf));
	assert_non_null(strstr(buf, "--pid\t-p\tPID[,PID...]\tattach\n"));
	assert_non_null(strstr(buf, "--follow\t-\t-\trun -- CMD,attach\n"));
	assert_null(strstr(buf, "--files"));
	assert_null(strstr(buf, "--no-bpf"));
	help_text("--list-options", buf, sizeof(buf));
	assert_non_null(strstr(buf, "--csv\t-\tFILE|-\tsweep\n"));
	assert_non_null(strstr(buf, "--names\t-\t-\tlist\n"));
}

/* The parser fills the structs the sessions take: no copies between. */
static void test_settings_in_place(void **state)
{
	struct options o;
	char err[512];

	assert_int_equal(parse_line("attach -p 7,8 --duration 1.5 --follow --max-threads 100 "
				    "--time-every 2 --cpu-stacks -v", &o, err, sizeof(err)), 0);
	assert_int_equal(o.target.mode, TGT_ATTACH);
	assert_int_equal(o.target.npids, 2);
	assert_int_equal(o.target.pids[1], 8);
	assert_int_equal(o.target.duration_ns, 1500000000ull);
	assert_true(o.target.follow);
	assert_int_equal(o.trace.max_threads, 100);
	assert_int_equal(o.trace.time_every, 2);
	assert_true(o.trace.cpu_stacks && o.trace.verbose);
	assert_false(o.trace.sleep_stacks);
	assert_int_equal(parse_line("run --json x.json -- true", &o, err, sizeof(err)), 0);
	assert_int_equal(o.target.mode, TGT_EXEC);
	assert_string_equal(o.target.argv[0], "true");
	assert_true(o.trace.sleep_stacks);	/* a flame graph may be drawn from it */
	assert_int_equal(parse_line("run --no-bpf", &o, err, sizeof(err)), 0);
	assert_int_equal(o.target.mode, TGT_NONE);
	assert_true(o.trace.no_bpf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_are_seed_000),
		cmocka_unit_test(test_run_options),
		cmocka_unit_test(test_time_every),
		cmocka_unit_test(test_pid_lists),
		cmocka_unit_test(test_timeline),
		cmocka_unit_test(test_sweep_lists),
		cmocka_unit_test(test_bad_input_one_line_exit_2),
		cmocka_unit_test(test_help_returns),
		cmocka_unit_test(test_help_per_command),
		cmocka_unit_test(test_help_command),
		cmocka_unit_test(test_list_options),
		cmocka_unit_test(test_settings_in_place),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
