/*
 * option_table.c - the rows of option_table.h and the readers of their
 * values. A reader checks its value against the row (its range, its
 * choices) and says what is wrong in one line naming the option.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fctrace.h"	/* FCT_SC_EVERY_MAX, FCT_SLOTS_MAX */
#include "trace/probes.h"
#include "cli/option_table.h"
#include "session/sweep.h"

int opt_bad(const char *opt, const char *what)
{
	fprintf(stderr, "fctrace: %s %s\n", opt, what);
	return 2;
}

const char *opt_dashed(const struct opt_row *r)
{
	static char name[40];

	snprintf(name, sizeof(name), "--%s", r->name);
	return name;
}

const char *opt_place_name(enum opt_place p)
{
	static const char *const names[AT_N] = {
		[AT_RUN] = "run", [AT_EXEC] = "run -- CMD", [AT_ATTACH] = "attach",
		[AT_SWEEP] = "sweep", [AT_COMPARE] = "compare", [AT_REPORT] = "report",
		[AT_DIFF] = "diff", [AT_LIST] = "list",
	};
	return names[p];
}

static void *field_of(const struct opt_row *r, struct options *o)
{
	return (char *)o + r->field;
}

const char *opt_output(const struct opt_row *r, const struct options *o)
{
	return *(const char *const *)((const char *)o + r->field);
}

/* A number into the row's field: an unsigned or a uint64_t. */
static void store_number(const struct opt_row *r, struct options *o, uint64_t v)
{
	unsigned u = (unsigned)v;

	if (r->size == sizeof(uint64_t))
		memcpy(field_of(r, o), &v, sizeof(v));
	else
		memcpy(field_of(r, o), &u, sizeof(u));
}

static int read_flag(const struct opt_row *r, char *arg, struct options *o)
{
	*(bool *)field_of(r, o) = true;
	return 0;
}

/* One number within [lo, hi], with K/M/G suffixes allowed. */
static int read_number(const struct opt_row *r, char *arg, struct options *o)
{
	char what[96];
	uint64_t v;

	if (parse_size(arg, &v) || v < r->lo || v > r->hi) {
		snprintf(what, sizeof(what), "must be between %llu and %llu (got '%s')",
			 (unsigned long long)r->lo, (unsigned long long)r->hi, arg);
		return opt_bad(opt_dashed(r), what);
	}
	store_number(r, o, v);
	return 0;
}

/* --block, --time-every: a power of two within [lo, hi] (the BPF side
 * samples syscalls with a mask; the cache's blocks are aligned). */
static int read_pow2(const struct opt_row *r, char *arg, struct options *o)
{
	char what[96];
	uint64_t v;

	if (parse_size(arg, &v) || v < r->lo || v > r->hi || (v & (v - 1))) {
		snprintf(what, sizeof(what), "must be a power of two from %llu to %llu (got '%s')",
			 (unsigned long long)r->lo, (unsigned long long)r->hi, arg);
		return opt_bad(opt_dashed(r), what);
	}
	store_number(r, o, v);
	return 0;
}

/* --files, --threads: a number or (for sweeps) a list of them */
static int read_list(const struct opt_row *r, char *arg, struct options *o)
{
	char err[96], what[160];

	if (numlist_parse(arg, r->lo, r->hi, field_of(r, o), err, sizeof(err)) == 0)
		return 0;
	snprintf(what, sizeof(what), "%s (got '%s')", err, arg);
	return opt_bad(opt_dashed(r), what);
}

/* The index of arg among the words of choices ("warm|cold"), or -1. */
static int choice_index(const char *choices, const char *arg)
{
	size_t len = strlen(arg);

	for (int i = 0; ; i++) {
		size_t wl = strcspn(choices, "|");

		if (wl == len && !strncmp(choices, arg, len))
			return i;
		if (!choices[wl])
			return -1;
		choices += wl + 1;
	}
}

/* "warm or cold", "shared, per-thread or locked" */
static void choices_said(const char *choices, char *buf, size_t len)
{
	size_t n = 0;

	for (const char *w = choices; n < len; w += strcspn(w, "|") + 1) {
		size_t wl = strcspn(w, "|");

		n += (size_t)snprintf(buf + n, len - n, "%s%.*s", w == choices ? "" :
				      w[wl] ? ", " : " or ", (int)wl, w);
		if (!w[wl])
			break;
	}
}

/* --handle, --cache: one of the words of r->arg, whose index is the
 * enum's value */
static int read_choice(const struct opt_row *r, char *arg, struct options *o)
{
	int i = choice_index(r->arg, arg);
	char words[96], what[160];

	if (i >= 0) {
		memcpy(field_of(r, o), &i, sizeof(i));
		return 0;
	}
	choices_said(r->arg, words, sizeof(words));
	snprintf(what, sizeof(what), "must be %s (got '%s')", words, arg);
	return opt_bad(opt_dashed(r), what);
}

/* An output path. One that begins with '-' is refused: getopt hands an
 * option's argument the next word, so `--json --no-bpf` would otherwise
 * write a file named --no-bpf and run traced. */
static int read_output(const struct opt_row *r, char *arg, struct options *o)
{
	*(const char **)field_of(r, o) = arg;
	if (arg[0] != '-' || !arg[1])
		return 0;
	fprintf(stderr, "fctrace: %s %s: looks like an option, not a file name "
		"(to name such a file, write ./%s)\n", opt_dashed(r), arg, arg);
	return 2;
}

static int read_workloads(const struct opt_row *r, char *arg, struct options *o)
{
	char *save = NULL, *name;

	o->nworkloads = 0;
	if (arg[0] == ',' || strstr(arg, ",,") || (*arg && arg[strlen(arg) - 1] == ','))
		return opt_bad("--workload", "has an empty name (a stray comma)");
	for (name = strtok_r(arg, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		if (!wl_find(name)) {
			char names[160], what[180];

			snprintf(what, sizeof(what), "must be one of %s",
				 wl_names(names, sizeof(names), ", "));
			return opt_bad("--workload", what);
		}
		if (o->nworkloads == OPT_MAX_WORKLOADS)
			return opt_bad("--workload", "takes at most 8 names");
		o->workloads[o->nworkloads++] = name;
	}
	return o->nworkloads ? 0 : opt_bad("--workload", "needs a name");
}

/* --budget: a percentage, fractions allowed */
static int read_budget(const struct opt_row *r, char *arg, struct options *o)
{
	char *end;

	errno = 0;
	o->trace.budget_pct = strtod(arg, &end);
	if (errno || end == arg || *end || !(o->trace.budget_pct >= 0) ||
	    o->trace.budget_pct > 100)
		return opt_bad("--budget", "must be a percentage between 0 and 100 (0: none)");
	return 0;
}

static int read_pressure(const struct opt_row *r, char *arg, struct options *o)
{
	char *end;

	errno = 0;
	o->wl.pressure = strtod(arg, &end);
	if (errno || end == arg || *end || !(o->wl.pressure >= 0) ||
	    o->wl.pressure > LIM_PRESSURE)
		return opt_bad("--pressure", "must be a rate between 0 and 10000000 pages/s");
	return 0;
}

static int read_dir(const struct opt_row *r, char *arg, struct options *o)
{
	o->wl.dir = arg;
	return *arg ? 0 : opt_bad("--dir", "must name a directory");
}

static int read_probes(const struct opt_row *r, char *arg, struct options *o)
{
	if (probe_groups_parse(arg, &o->trace.probes))
		return opt_bad("--probes", "must be full, light, or a list of "
			       "syscalls,sched,klock,pagecache,cpuclock,holders,pc-evict,handles,disk,"
			       "pc-lookups");
	o->probe_set = !strcmp(arg, "full") ? "full" :
		       !strcmp(arg, "light") ? "light" : "custom";
	return 0;
}

/* attach --duration: seconds, fractions allowed, at most a day */
static int read_duration(const struct opt_row *r, char *arg, struct options *o)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || !(v > 0) || v > 86400)
		return opt_bad("--duration", "must be a number of seconds above 0, at most 86400");
	o->target.duration_ns = (uint64_t)(v * 1e9);
	return 0;
}

/* One process id of a -p list into o->target: 0, or 2 with one line. */
static int pid_one(struct target_opts *t, const char *arg, const char *s, size_t len)
{
	char word[16];
	uint64_t v;

	if (!len || len >= sizeof(word)) {
		fprintf(stderr, "fctrace: -p %s: %s\n", arg, len ? "a process id is at most 7 "
			"digits" : "an empty item in the list (write -p A,B or -p A -p B)");
		return 2;
	}
	memcpy(word, s, len);
	word[len] = '\0';
	if (strspn(word, "0123456789") != len || parse_size(word, &v) || v < 1 || v > 4194304) {
		fprintf(stderr, "fctrace: -p %s: '%s' is not a process id (1 to 4194304)\n",
			arg, word);
		return 2;
	}
	for (int i = 0; i < t->npids; i++)
		if (t->pids[i] == (int)v) {
			fprintf(stderr, "fctrace: -p %s: process %s is listed twice\n", arg, word);
			return 2;
		}
	if (t->npids == TARGET_MAX_PIDS) {
		fprintf(stderr, "fctrace: -p %s: at most %d processes can be listed (--follow "
			"takes in a parent's children)\n", arg, TARGET_MAX_PIDS);
		return 2;
	}
	t->pids[t->npids++] = (int)v;
	t->pid = t->pids[0];
	return 0;
}

/* -p PID, -p A,B, and -p given again: every process listed is traced. */
static int read_pids(const struct opt_row *r, char *arg, struct options *o)
{
	const char *s = arg;
	int rc;

	for (;;) {
		size_t len = strcspn(s, ",");

		if ((rc = pid_one(&o->target, arg, s, len)))
			return rc;
		if (!s[len])
			return 0;
		s += len + 1;
	}
}

static int read_compare(const struct opt_row *r, char *arg, struct options *o)
{
	o->compare_with = arg;
	return wl_find(arg) ? 0 : opt_bad("--compare", "must name a workload (see fctrace list)");
}

static int read_fit(const struct opt_row *r, char *arg, struct options *o)
{
	o->fit_path = arg;
	return *arg ? 0 : opt_bad("--fit", "must name a saved run");
}

/* Where in struct options a row's reader writes. */
#define AT(f)		.field = offsetof(struct options, f), \
			.size = sizeof(((struct options *)0)->f)
#define RANGE(a, b)	.lo = (a), .hi = (b)

/* Which places take a row. */
#define OWN		(TAKES(AT_RUN) | TAKES(AT_SWEEP) | TAKES(AT_COMPARE))	/* fctrace's workloads */
#define PROGRAM		(TAKES(AT_EXEC) | TAKES(AT_ATTACH))		/* other programs */
#define TRACED		(OWN | PROGRAM)
#define ONE_RUN		(TAKES(AT_RUN) | PROGRAM)			/* one traced run */
#define SAVED		(TAKES(AT_REPORT) | TAKES(AT_DIFF))
#define FLAMES		(PROGRAM | TAKES(AT_REPORT))	/* programs' runs have stacks */
#define SWEEP		TAKES(AT_SWEEP)

/* A workload setting: read by a workload, given to the commands that
 * run fctrace's own. */
#define WL(nm, ltr, meta, hlp)	.name = nm, .letter = ltr, .arg = meta, .group = G_WORKLOAD, \
				.takes = OWN, .flags = OPT_WL_SETTING, .help = hlp

const struct opt_row opt_rows[] = {
	{ .name = "workload", .letter = 'w', .arg = "NAME[,NAME]", .group = G_WORKLOAD,
	  .takes = OWN, .help = "see `fctrace list`", .read = read_workloads },
	{ WL("files", 'f', "N|LIST", "active file set size (default 60; sweeps: 10,50,60,100)"),
	  .read = read_list, AT(files), RANGE(1, LIM_FILES) },
	{ WL("threads", 't', "N|LIST", "worker threads (default 8; sweeps: 1-8)"),
	  .read = read_list, AT(threads), RANGE(1, LIM_THREADS) },
	{ WL("ops", 0, "N", "operations per thread (default 100000)"),
	  .read = read_number, AT(wl.ops), RANGE(1, LIM_OPS) },
	{ WL("file-size", 0, "BYTES", "size of each data file (default 100000)"),
	  .read = read_number, AT(wl.file_size), RANGE(1, LIM_FILE_SIZE) },
	{ WL("chunk", 0, "BYTES", "bytes per read (default 10000)"),
	  .read = read_number, AT(wl.chunk), RANGE(1, LIM_FILE_SIZE) },
	{ WL("pool", 0, "N", "fcp capacity in channels (default 50)"),
	  .read = read_number, AT(wl.pool), RANGE(1, LIM_POOL) },
	{ WL("block", 0, "BYTES", "bcache block size (default 4096)"),
	  .read = read_pow2, AT(wl.block), RANGE(512, 1 << 20) },
	{ WL("cache-size", 0, "BYTES", "bcache budget, K/M/G suffixes (default 64M)"),
	  .read = read_number, AT(wl.cache_size), RANGE(4096, LIM_CACHE) },
	{ WL("seed", 0, "N", "seed of the per-thread random streams (default 1)"),
	  .read = read_number, AT(wl.seed), RANGE(0, UINT64_MAX) },
	{ WL("shared-file", 0, NULL, "every thread reads one file (one shared handle or file)"),
	  .read = read_flag, AT(wl.shared_file) },
	{ WL("handle", 0, "shared|per-thread|locked", "with --shared-file: one handle or one per "
	     "thread; locked: one, seek + read under its lock (Java's RandomAccessFile)"),
	  .read = read_choice, AT(wl.handle) },
	{ WL("cache", 0, "warm|cold", "cold: evict the data files from the page cache first"),
	  .read = read_choice, AT(wl.cache) },
	{ WL("pressure", 0, "PAGES/S", "drop data-file pages at this rate while running"),
	  .read = read_pressure },
	{ WL("dir", 0, "DIR", "where the data directory is made (default $TMPDIR or /tmp)"),
	  .read = read_dir },

	{ .name = "pid", .letter = 'p', .arg = "PID[,PID...]", .group = G_TARGET,
	  .takes = TAKES(AT_ATTACH), .help = "the running process(es) to trace (-p again adds "
	  "more)", .read = read_pids },
	{ .name = "duration", .arg = "SECONDS", .group = G_TARGET, .takes = TAKES(AT_ATTACH),
	  .help = "stop after this long (default: Ctrl-C or the process's exit)",
	  .read = read_duration },
	{ .name = "follow", .group = G_TARGET, .takes = PROGRAM,
	  .help = "also the processes it forks (attach: and its descendants already running; "
	  "run: until all have exited)", .read = read_flag, AT(target.follow) },
	{ .name = "as-root", .group = G_TARGET, .takes = TAKES(AT_EXEC),
	  .help = "under sudo: run CMD as root, not as the sudo caller",
	  .read = read_flag, AT(target.as_root) },
	{ .name = "debuginfod", .group = G_TARGET, .takes = PROGRAM,
	  .help = "fetch debug info the target lacks from DEBUGINFOD_URLS (off by default: no "
	  "network; 5 s a file)", .read = read_flag, AT(debuginfod) },

	{ .name = "no-bpf", .group = G_TRACING, .takes = OWN,
	  .help = "timing only: no BPF, no root needed", .read = read_flag, AT(trace.no_bpf) },
	{ .name = "probes", .arg = "SET", .group = G_TRACING, .takes = TRACED,
	  .help = "full (default), light, or a list of syscalls,sched,klock,pagecache,cpuclock,"
	  "holders,pc-evict,handles,disk,pc-lookups", .read = read_probes },
	{ .name = "time-every", .arg = "N", .group = G_TRACING, .takes = TRACED,
	  .help = "time one syscall in N (1, 2, 4 ... 64; default 8): counts stay exact",
	  .read = read_pow2, AT(trace.time_every), RANGE(1, FCT_SC_EVERY_MAX) },
	{ .name = "budget", .arg = "PCT", .group = G_TRACING, .takes = PROGRAM,
	  .help = "keep fctrace's measured cost under PCT % of the traced processes' CPU: "
	  "past it the handles' file stream stops (default 5; 0: no budget)",
	  .read = read_budget },
	{ .name = "max-threads", .arg = "N", .group = G_TRACING, .takes = TRACED,
	  .help = "room for N threads at once (default: twice the target's at the start, at "
	  "least 16384; ~2.8 KiB of kernel memory each)",
	  .read = read_number, AT(trace.max_threads), RANGE(64, FCT_SLOTS_MAX) },
	{ .name = "timeline", .group = G_TRACING, .takes = ONE_RUN, .flags = OPT_TIMELINE,
	  .help = "record every thread's state edges for a window (swimlanes in --html, "
	  "--timeline-out)" },
	{ .name = "timeline-window", .arg = "MS", .group = G_TRACING, .takes = ONE_RUN,
	  .flags = OPT_TIMELINE, .help = "the timeline's length (default 20)",
	  .read = read_number, AT(trace.tl_window_ms), RANGE(1, LIM_TL_WINDOW_MS) },
	{ .name = "timeline-start", .arg = "MS", .group = G_TRACING, .takes = ONE_RUN,
	  .flags = OPT_TIMELINE, .help = "when it opens, after the measured window (default 200)",
	  .read = read_number, AT(trace.tl_start_ms), RANGE(0, LIM_TL_START_MS) },
	{ .name = "timeline-out", .arg = "FILE", .group = G_TRACING, .takes = ONE_RUN,
	  .flags = OPT_TIMELINE | OPT_OUTPUT,
	  .help = "the timeline as Chrome trace JSON (Perfetto, chrome://tracing)",
	  .read = read_output, AT(timeline_out) },
	{ .name = "cpu-stacks", .group = G_TRACING, .takes = PROGRAM,
	  .help = "on-CPU stacks from the cpu-clock samples too",
	  .read = read_flag, AT(trace.cpu_stacks) },

	{ .name = "json", .letter = 'j', .arg = "FILE|-", .group = G_OUTPUT,
	  .takes = TRACED | SAVED, .flags = OPT_OUTPUT, .help = "write the results as JSON",
	  .read = read_output, AT(json) },
	{ .name = "csv", .arg = "FILE|-", .group = G_OUTPUT, .takes = SWEEP, .flags = OPT_OUTPUT,
	  .help = "one row per cell", .read = read_output, AT(csv) },
	{ .name = "html", .arg = "FILE", .group = G_OUTPUT, .takes = TRACED | SAVED,
	  .flags = OPT_OUTPUT, .help = "self-contained HTML report", .read = read_output,
	  AT(html) },
	{ .name = "folded", .arg = "FILE|-", .group = G_OUTPUT,
	  .takes = FLAMES, .flags = OPT_OUTPUT,
	  .help = "the wait (and --cpu-stacks) flame graph as collapsed stacks (flamegraph.pl, "
	  "inferno, speedscope)", .read = read_output, AT(folded) },
	{ .name = "pprof", .arg = "FILE", .group = G_OUTPUT, .takes = FLAMES,
	  .flags = OPT_OUTPUT, .help = "the same as a gzipped pprof profile (wait/nanoseconds, "
	  "cpu/nanoseconds)", .read = read_output, AT(pprof) },
	{ .name = "no-thread-frame", .group = G_OUTPUT, .takes = FLAMES,
	  .help = "flame graphs: no thread name as the root frame (threads of one name merged "
	  "anyway)", .read = read_flag, AT(no_thread_frame) },
	{ .name = "compare", .arg = "WORKLOAD", .group = G_OUTPUT,
	  .takes = TAKES(AT_RUN) | TAKES(AT_COMPARE),
	  .help = "also run WORKLOAD at the same settings and compare", .read = read_compare },
	{ .name = "predict", .group = G_OUTPUT, .takes = SWEEP,
	  .help = "check the what-if model's predictions", .read = read_flag, AT(predict) },
	{ .name = "fit", .arg = "FILE", .group = G_OUTPUT, .takes = SWEEP,
	  .help = "with --predict: fit the model to this saved run (run --json of fcp or "
	  "fcp-fixed), e.g. one made on more CPUs", .read = read_fit },
	{ .name = "repeat", .arg = "N", .group = G_OUTPUT, .takes = SWEEP,
	  .help = "run the matrix N times (default 1); the cells' walls are the means, and "
	  "--predict prints how far the runs of a cell differ: the machine's noise",
	  .read = read_number, AT(repeat), RANGE(1, SWEEP_MAX_REPEAT) },
	{ .name = "quiet", .letter = 'q', .group = G_OUTPUT, .takes = TRACED | SAVED,
	  .help = "no tables on stdout (files still written)", .read = read_flag, AT(quiet) },
	{ .name = "verbose", .letter = 'v', .group = G_OUTPUT, .takes = TRACED | SAVED,
	  .help = "libbpf's messages and more detail", .read = read_flag, AT(trace.verbose) },
	{ .name = "names", .group = G_OUTPUT, .takes = TAKES(AT_LIST),
	  .help = "only the workload names, one a line (completion)", .read = read_flag,
	  AT(names_only) },
};

const int opt_nrows = (int)(sizeof(opt_rows) / sizeof(opt_rows[0]));

/* options.c keeps which rows were given in a 64-bit mask; read_choice
 * writes an enum as an int */
_Static_assert(sizeof(opt_rows) / sizeof(opt_rows[0]) <= OPT_ROWS_MAX, "too many rows");
_Static_assert(sizeof(enum wl_handle_mode) == sizeof(int) &&
	       sizeof(enum wl_cache_mode) == sizeof(int), "read_choice writes an int");
