/*
 * options.c - argp for `fctrace COMMAND [OPTION...]`.
 *
 * Every mistake gets one line naming the option and what it accepts, and
 * exit status 2: argp's own two-line messages are switched off
 * (ARGP_NO_ERRS) and replaced by ours.
 */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fctrace.h"	/* FCT_SC_EVERY_MAX */
#include "trace/probes.h"
#include "cli/options.h"
#include "session/sweep.h"

const char *argp_program_version = "fctrace 0.1";
const char *argp_program_bug_address = NULL;

enum {
	O_FILES = 'f', O_THREADS = 't', O_WORKLOAD = 'w', O_JSON = 'j',
	O_QUIET = 'q', O_VERBOSE = 'v',
	O_OPS = 256, O_FILE_SIZE, O_CHUNK, O_POOL, O_BLOCK, O_CACHE_SIZE,
	O_SEED, O_SHARED, O_HANDLE, O_CACHE, O_PRESSURE, O_DIR, O_NO_BPF,
	O_PROBES, O_CSV, O_HTML, O_COMPARE, O_PREDICT, O_FIT, O_REPEAT, O_TIME_EVERY, O_NAMES,
	O_PID = 'p', O_DURATION = 300, O_FOLLOW, O_AS_ROOT, O_DEBUGINFOD,
	O_TIMELINE, O_TL_WINDOW, O_TL_START, O_TL_OUT, O_MAX_THREADS,
	O_FOLDED, O_PPROF, O_NO_THREAD_FRAME, O_CPU_STACKS,
};

static const struct argp_option option_table[] = {
	{ NULL, 0, NULL, 0, "Workload:", 1 },
	{ "workload", O_WORKLOAD, "NAME[,NAME]", 0,
	  "see `fctrace list`", 1 },	/* the names: help_filter */
	{ "files", O_FILES, "N|LIST", 0, "active file set size (default 60; sweeps: 10,50,60,100)", 1 },
	{ "threads", O_THREADS, "N|LIST", 0, "worker threads (default 8; sweeps: 1-8)", 1 },
	{ "ops", O_OPS, "N", 0, "operations per thread (default 100000)", 1 },
	{ "file-size", O_FILE_SIZE, "BYTES", 0, "size of each data file (default 100000)", 1 },
	{ "chunk", O_CHUNK, "BYTES", 0, "bytes per read (default 10000)", 1 },
	{ "pool", O_POOL, "N", 0, "fcp capacity in channels (default 50)", 1 },
	{ "block", O_BLOCK, "BYTES", 0, "bcache block size (default 4096)", 1 },
	{ "cache-size", O_CACHE_SIZE, "BYTES", 0, "bcache budget, K/M/G suffixes (default 64M)", 1 },
	{ "seed", O_SEED, "N", 0, "seed of the per-thread random streams (default 1)", 1 },
	{ "shared-file", O_SHARED, NULL, 0, "every thread reads one file (one shared handle or file)", 1 },
	{ "handle", O_HANDLE, "shared|per-thread|locked", 0, "with --shared-file: one handle or one per "
	  "thread; locked: one, seek + read under its lock (Java's RandomAccessFile)", 1 },
	{ "cache", O_CACHE, "warm|cold", 0, "cold: evict the data files from the page cache first", 1 },
	{ "pressure", O_PRESSURE, "PAGES/S", 0, "drop data-file pages at this rate while running", 1 },
	{ "dir", O_DIR, "DIR", 0, "where the data directory is made (default $TMPDIR or /tmp)", 1 },
	{ NULL, 0, NULL, 0, "Other programs (run [OPTION...] -- CMD [ARG...], attach -p PID):", 2 },
	{ "pid", O_PID, "PID[,PID...]", 0, "attach: the running process(es) to trace (-p again adds more)", 2 },
	{ "duration", O_DURATION, "SECONDS", 0, "attach: stop after this long (default: Ctrl-C "
	  "or the process's exit)", 2 },
	{ "follow", O_FOLLOW, NULL, 0, "also the processes it forks (attach: and its descendants already running; run: until all have exited)", 2 },
	{ "as-root", O_AS_ROOT, NULL, 0, "run -- under sudo: run CMD as root, not as the sudo "
	  "caller", 2 },
	{ "debuginfod", O_DEBUGINFOD, NULL, 0, "fetch debug info the target lacks from "
	  "DEBUGINFOD_URLS (off by default: no network; 5 s a file)", 2 },
	{ NULL, 0, NULL, 0, "Tracing:", 3 },
	{ "no-bpf", O_NO_BPF, NULL, 0, "timing only: no BPF, no root needed", 3 },
	{ "probes", O_PROBES, "SET", 0,
	  "full (default), light, or a list of syscalls,sched,klock,pagecache,cpuclock,"
	  "holders,pc-evict,pc-lookups", 3 },
	{ "time-every", O_TIME_EVERY, "N", 0,
	  "time one syscall in N (1, 2, 4 ... 64; default 8): counts stay exact", 3 },
	{ "max-threads", O_MAX_THREADS, "N", 0, "room for N threads at once (default: twice the "
	  "target's at the start, at least 1024; ~19 KiB of kernel memory each)", 3 },
	{ "timeline", O_TIMELINE, NULL, 0, "record every thread's state edges for a window "
	  "(swimlanes in --html, --timeline-out)", 3 },
	{ "timeline-window", O_TL_WINDOW, "MS", 0, "the timeline's length (default 20)", 3 },
	{ "timeline-start", O_TL_START, "MS", 0, "when it opens, after the measured window "
	  "(default 200)", 3 },
	{ "timeline-out", O_TL_OUT, "FILE", 0, "the timeline as Chrome trace JSON "
	  "(Perfetto, chrome://tracing)", 3 },
	{ "cpu-stacks", O_CPU_STACKS, NULL, 0, "run -- CMD, attach: on-CPU stacks from the "
	  "cpu-clock samples too", 3 },
	{ NULL, 0, NULL, 0, "Output:", 4 },
	{ "json", O_JSON, "FILE|-", 0, "write the results as JSON", 4 },
	{ "csv", O_CSV, "FILE|-", 0, "sweep: one row per cell", 4 },
	{ "html", O_HTML, "FILE", 0, "self-contained HTML report", 4 },
	{ "folded", O_FOLDED, "FILE|-", 0, "run -- CMD, attach: the wait (and --cpu-stacks) "
	  "flame graph as collapsed stacks (flamegraph.pl, inferno, speedscope)", 4 },
	{ "pprof", O_PPROF, "FILE", 0, "the same as a gzipped pprof profile "
	  "(wait/nanoseconds, cpu/nanoseconds)", 4 },
	{ "no-thread-frame", O_NO_THREAD_FRAME, NULL, 0, "flame graphs: no thread name as "
	  "the root frame (threads of one name merged anyway)", 4 },
	{ "compare", O_COMPARE, "WORKLOAD", 0, "run: also run WORKLOAD at the same settings and compare", 4 },
	{ "predict", O_PREDICT, NULL, 0, "sweep: check the what-if model's predictions", 4 },
	{ "fit", O_FIT, "FILE", 0, "sweep --predict: fit the model to this saved run (run --json "
	  "of fcp or fcp-fixed), e.g. one made on more CPUs", 4 },
	{ "repeat", O_REPEAT, "N", 0, "sweep: run the matrix N times (default 1); the cells' walls are "
	  "the means, and --predict prints how far the runs of a cell differ: the machine's noise", 4 },
	{ "quiet", O_QUIET, NULL, 0, "no tables on stdout (files still written)", 4 },
	{ "verbose", O_VERBOSE, NULL, 0, "libbpf's messages and more detail", 4 },
	{ "names", O_NAMES, NULL, 0, "list: only the workload names, one a line (completion)", 4 },
	{ 0 }
};

static const char doc[] =
	"fctrace -- why a file-handle pool or a block cache is slow, from the kernel's view\v"
	"Commands:\n"
	"  run      run one workload with the kernel view and explain where time went\n"
	"  sweep    run workloads over file-set sizes and thread counts (a matrix of runs)\n"
	"  compare  run two workloads at the same settings and compare them term by term\n"
	"  list     the workloads and the options each one reads\n"
	"  attach   trace a running process (-p PID) and explain where its threads' time went\n"
	"  report   print a saved run (FILE.json from --json) again: its tables and Why\n"
	"  diff     compare two saved runs (A.json B.json) term by term\n"
	"\n"
	"  fctrace run [OPTION...] -- CMD [ARG...] traces any program from its exec to its exit.\n";

static int bad(const char *opt, const char *what)
{
	fprintf(stderr, "fctrace: %s %s\n", opt, what);
	return 2;
}

/* One number within [lo, hi], with K/M/G suffixes allowed. */
static int num_opt(const char *opt, const char *arg, uint64_t lo, uint64_t hi,
		   uint64_t *out)
{
	char what[96];

	if (parse_size(arg, out) || *out < lo || *out > hi) {
		snprintf(what, sizeof(what), "must be between %llu and %llu (got '%s')",
			 (unsigned long long)lo, (unsigned long long)hi, arg);
		return bad(opt, what);
	}
	return 0;
}

static int list_opt(const char *opt, const char *arg, uint64_t lo, uint64_t hi,
		    struct numlist *l)
{
	char err[96], what[160];

	if (numlist_parse(arg, lo, hi, l, err, sizeof(err)) == 0)
		return 0;
	snprintf(what, sizeof(what), "%s (got '%s')", err, arg);
	return bad(opt, what);
}

static int workload_opt(struct options *o, char *arg)
{
	char *save = NULL, *name;

	o->nworkloads = 0;
	if (arg[0] == ',' || strstr(arg, ",,") || (*arg && arg[strlen(arg) - 1] == ','))
		return bad("--workload", "has an empty name (a stray comma)");
	for (name = strtok_r(arg, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		if (!wl_find(name)) {
			char names[160], what[180];

			snprintf(what, sizeof(what), "must be one of %s",
				 wl_names(names, sizeof(names), ", "));
			return bad("--workload", what);
		}
		if (o->nworkloads == OPT_MAX_WORKLOADS)
			return bad("--workload", "takes at most 8 names");
		o->workloads[o->nworkloads++] = name;
	}
	return o->nworkloads ? 0 : bad("--workload", "needs a name");
}

static int choice_opt(const char *opt, const char *arg, const char *a,
		      const char *b, int *out)
{
	char what[96];

	if (!strcmp(arg, a) || !strcmp(arg, b)) {
		*out = !strcmp(arg, b);
		return 0;
	}
	snprintf(what, sizeof(what), "must be %s or %s (got '%s')", a, b, arg);
	return bad(opt, what);
}

static int probes_opt(struct options *o, const char *arg)
{
	if (probe_groups_parse(arg, &o->probes))
		return bad("--probes", "must be full, light, or a list of "
			   "syscalls,sched,klock,pagecache,cpuclock,holders,pc-evict,pc-lookups");
	o->probe_set = !strcmp(arg, "full") ? "full" :
		       !strcmp(arg, "light") ? "light" : "custom";
	return 0;
}

/* --max-threads: the BPF thread table's size, rounded up to a power of two */
static int max_threads_opt(struct options *o, const char *arg)
{
	uint64_t v;
	int rc = num_opt("--max-threads", arg, 64, FCT_SLOTS_MAX, &v);

	o->max_threads = (unsigned)v;
	return rc;
}

/* --time-every: the BPF side samples with a mask, so a power of two */
static int time_every_opt(struct options *o, const char *arg)
{
	uint64_t v;
	char what[96];

	if (parse_size(arg, &v) || v < 1 || v > FCT_SC_EVERY_MAX || (v & (v - 1))) {
		snprintf(what, sizeof(what), "must be a power of two from 1 to %d (got '%s')",
			 FCT_SC_EVERY_MAX, arg);
		return bad("--time-every", what);
	}
	o->time_every = (unsigned)v;
	return 0;
}

/* --timeline-window, --timeline-start: milliseconds; they turn --timeline on */
static int timeline_ms_opt(struct options *o, const char *opt, const char *arg,
			   uint64_t lo, uint64_t hi, unsigned *out)
{
	uint64_t v;
	int rc = num_opt(opt, arg, lo, hi, &v);

	if (!rc)
		*out = (unsigned)v;
	o->timeline = true;
	return rc;
}

static int size_or_fail(int rc, uint64_t v, uint64_t *dst)
{
	if (!rc)
		*dst = v;
	return rc;
}

/* The options that only carry a number into struct wl_config. */
static int config_number(int key, const char *arg, struct options *o)
{
	struct wl_config *c = &o->wl;
	uint64_t v = 0;
	int rc;

	switch (key) {
	case O_OPS:
		rc = num_opt("--ops", arg, 1, LIM_OPS, &v);
		return size_or_fail(rc, v, &c->ops);
	case O_FILE_SIZE:
		rc = num_opt("--file-size", arg, 1, LIM_FILE_SIZE, &v);
		return size_or_fail(rc, v, &c->file_size);
	case O_CHUNK:
		rc = num_opt("--chunk", arg, 1, LIM_FILE_SIZE, &v);
		return size_or_fail(rc, v, &c->chunk);
	case O_POOL:
		rc = num_opt("--pool", arg, 1, LIM_POOL, &v);
		c->pool = (unsigned)v;
		return rc;
	case O_BLOCK:
		rc = num_opt("--block", arg, 512, 1 << 20, &v);
		if (!rc && (v & (v - 1)))
			return bad("--block", "must be a power of two between 512 and 1048576");
		return size_or_fail(rc, v, &c->block);
	case O_CACHE_SIZE:
		rc = num_opt("--cache-size", arg, 4096, LIM_CACHE, &v);
		return size_or_fail(rc, v, &c->cache_size);
	case O_SEED:
		rc = num_opt("--seed", arg, 0, UINT64_MAX, &v);
		return size_or_fail(rc, v, &c->seed);
	}
	return ARGP_ERR_UNKNOWN;
}

static int parse_pressure(const char *arg, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(arg, &end);
	if (errno || end == arg || *end || !(*out >= 0) || *out > LIM_PRESSURE)
		return bad("--pressure", "must be a rate between 0 and 10000000 pages/s");
	return 0;
}

/* attach --duration: seconds, fractions allowed, at most a day */
static int duration_opt(struct options *o, const char *arg)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || !(v > 0) || v > 86400)
		return bad("--duration", "must be a number of seconds above 0, at most 86400");
	o->duration_ns = (uint64_t)(v * 1e9);
	return 0;
}

/* One process id of a -p list into o->pids: 0, or 2 with one line. */
static int pid_one(struct options *o, const char *arg, const char *s, size_t len)
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
	for (int i = 0; i < o->npids; i++)
		if (o->pids[i] == (int)v) {
			fprintf(stderr, "fctrace: -p %s: process %s is listed twice\n", arg, word);
			return 2;
		}
	if (o->npids == TARGET_MAX_PIDS) {
		fprintf(stderr, "fctrace: -p %s: at most %d processes can be listed (--follow "
			"takes in a parent's children)\n", arg, TARGET_MAX_PIDS);
		return 2;
	}
	o->pids[o->npids++] = (int)v;
	o->pid = o->pids[0];
	return 0;
}

/* -p PID, -p A,B, and -p given again: every process listed is traced. */
static int pid_opt(struct options *o, const char *arg)
{
	const char *s = arg;
	int rc;

	for (;;) {
		size_t len = strcspn(s, ",");

		if ((rc = pid_one(o, arg, s, len)))
			return rc;
		if (!s[len])
			return 0;
		s += len + 1;
	}
}

/* Options that set up fctrace's own workloads: remembered, so that one
 * given with `run -- CMD` or `attach` is refused instead of ignored. */
static void note_workload_opt(struct options *o, int key)
{
	static const struct { int key; const char *name; } wl_opts[] = {
		{ O_WORKLOAD, "--workload" }, { O_FILES, "--files" }, { O_THREADS, "--threads" },
		{ O_OPS, "--ops" }, { O_FILE_SIZE, "--file-size" }, { O_CHUNK, "--chunk" },
		{ O_POOL, "--pool" }, { O_BLOCK, "--block" }, { O_CACHE_SIZE, "--cache-size" },
		{ O_SEED, "--seed" }, { O_SHARED, "--shared-file" }, { O_HANDLE, "--handle" },
		{ O_CACHE, "--cache" }, { O_PRESSURE, "--pressure" }, { O_DIR, "--dir" },
		{ O_COMPARE, "--compare" }, { O_NO_BPF, "--no-bpf" },
	};

	for (size_t i = 0; i < sizeof(wl_opts) / sizeof(*wl_opts); i++)
		if (wl_opts[i].key == key && !o->workload_opt)
			o->workload_opt = wl_opts[i].name;
}

/* An output path. One that begins with '-' is refused: getopt hands an
 * option's argument the next word, so `--json --no-bpf` would otherwise
 * write a file named --no-bpf and run traced. */
static int output_opt(const char *opt, char *arg, const char **out)
{
	*out = arg;
	if (arg[0] != '-' || !arg[1])
		return 0;
	fprintf(stderr, "fctrace: %s %s: looks like an option, not a file name "
		"(to name such a file, write ./%s)\n", opt, arg, arg);
	return 2;
}

static int parse_key(int key, char *arg, struct options *o)
{
	int pick = 0, rc;

	note_workload_opt(o, key);
	switch (key) {
	case O_PID: return pid_opt(o, arg);
	case O_DURATION: return duration_opt(o, arg);
	case O_FOLLOW: o->follow = true; return 0;
	case O_AS_ROOT: o->as_root = true; return 0;
	case O_DEBUGINFOD: o->debuginfod = true; return 0;
	case O_WORKLOAD: return workload_opt(o, arg);
	case O_FILES: return list_opt("--files", arg, 1, LIM_FILES, &o->files);
	case O_THREADS: return list_opt("--threads", arg, 1, LIM_THREADS, &o->threads);
	case O_SHARED: o->wl.shared_file = true; return 0;
	case O_HANDLE:
		if (!strcmp(arg, "locked")) {
			o->wl.handle = WL_HANDLE_LOCKED;
			return 0;
		}
		if (strcmp(arg, "shared") && strcmp(arg, "per-thread")) {
			char what[96];

			snprintf(what, sizeof(what), "must be shared, per-thread or locked "
				 "(got '%s')", arg);
			return bad("--handle", what);
		}
		o->wl.handle = strcmp(arg, "shared") ? WL_HANDLE_PER_THREAD : WL_HANDLE_SHARED;
		return 0;
	case O_CACHE:
		rc = choice_opt("--cache", arg, "warm", "cold", &pick);
		o->wl.cache = pick ? WL_CACHE_COLD : WL_CACHE_WARM;
		return rc;
	case O_PRESSURE: return parse_pressure(arg, &o->wl.pressure);
	case O_DIR: o->wl.dir = arg; return *arg ? 0 : bad("--dir", "must name a directory");
	case O_NO_BPF: o->no_bpf = true; return 0;
	case O_PROBES: return probes_opt(o, arg);
	case O_TIME_EVERY: return time_every_opt(o, arg);
	case O_MAX_THREADS: return max_threads_opt(o, arg);
	case O_TIMELINE: o->timeline = true; return 0;
	case O_TL_WINDOW: return timeline_ms_opt(o, "--timeline-window", arg, 1, LIM_TL_WINDOW_MS,
						 &o->tl_window_ms);
	case O_TL_START: return timeline_ms_opt(o, "--timeline-start", arg, 0, LIM_TL_START_MS,
						&o->tl_start_ms);
	case O_TL_OUT:
		o->timeline = true;
		return output_opt("--timeline-out", arg, &o->timeline_out);
	case O_JSON: return output_opt("--json", arg, &o->json);
	case O_CSV: return output_opt("--csv", arg, &o->csv);
	case O_HTML: return output_opt("--html", arg, &o->html);
	case O_FOLDED: return output_opt("--folded", arg, &o->folded);
	case O_PPROF: return output_opt("--pprof", arg, &o->pprof);
	case O_NO_THREAD_FRAME: o->no_thread_frame = true; return 0;
	case O_CPU_STACKS: o->cpu_stacks = true; return 0;
	case O_COMPARE:
		o->compare_with = arg;
		return wl_find(arg) ? 0 : bad("--compare", "must name a workload (see fctrace list)");
	case O_PREDICT: o->predict = true; return 0;
	case O_FIT:
		o->fit_path = arg;
		return *arg ? 0 : bad("--fit", "must name a saved run");
	case O_REPEAT: {
		uint64_t v = 0;
		int bad_repeat = num_opt("--repeat", arg, 1, SWEEP_MAX_REPEAT, &v);

		o->repeat = (unsigned)v;
		return bad_repeat;
	}
	case O_QUIET: o->quiet = true; return 0;
	case O_VERBOSE: o->verbose = true; return 0;
	case O_NAMES: o->names_only = true; return 0;
	}
	return config_number(key, arg, o);
}

struct parse_ctx {
	struct options *o;
	int exit_code;		/* 2 once a message was printed */
	uint64_t given;		/* bit i: option_table[i] was on the command line */
};

/* The option_table entry of key, or NULL. */
static int table_index(int key)
{
	for (int i = 0; option_table[i].name || option_table[i].doc; i++)
		if (option_table[i].key == key && option_table[i].name)
			return i;
	return -1;
}

/* Whether word (the last argv element) is an option that needs a value:
 * getopt then reports it as an error, but it is a missing value. */
static bool needs_value(const char *word)
{
	size_t len;

	if (word[0] != '-' || !word[1])
		return false;
	if (word[1] != '-') {
		int i = word[2] ? -1 : table_index((unsigned char)word[1]);

		return i >= 0 && option_table[i].arg;
	}
	len = strcspn(word + 2, "=");
	for (int i = 0; option_table[i].name || option_table[i].doc; i++)
		if (option_table[i].name && !strncmp(option_table[i].name, word + 2, len) &&
		    option_table[i].arg && len)
			return !word[2 + len];
	return false;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct parse_ctx *ctx = state->input;
	int rc;

	switch (key) {
	case ARGP_KEY_ARG:
		/* report and diff take their saved runs as arguments */
		if ((ctx->o->cmd == CMD_REPORT || ctx->o->cmd == CMD_DIFF) && ctx->o->ninputs < 2) {
			ctx->o->inputs[ctx->o->ninputs++] = arg;
			return 0;
		}
		ctx->exit_code = bad("unexpected argument", arg);
		return EINVAL;
	case ARGP_KEY_ERROR:
		if (!ctx->exit_code) {
			const char *word = state->argv[state->next > 1 ? state->next - 1 : 0];

			ctx->exit_code = state->next >= state->argc && needs_value(word) ?
				bad(word, "needs a value (see fctrace --help)") :
				bad(word, "is not a valid option here (see fctrace --help)");
		}
		return 0;
	case ARGP_KEY_INIT: case ARGP_KEY_NO_ARGS: case ARGP_KEY_END:
	case ARGP_KEY_SUCCESS: case ARGP_KEY_FINI: case ARGP_KEY_ARGS:
		return ARGP_ERR_UNKNOWN;
	}
	if (table_index(key) >= 0 && table_index(key) < 64)
		ctx->given |= 1ull << table_index(key);
	rc = parse_key(key, arg, ctx->o);
	if (rc == ARGP_ERR_UNKNOWN)
		return rc;
	if (rc) {
		ctx->exit_code = 2;
		return EINVAL;
	}
	return 0;
}

/* --workload's help lists the workloads from wl_all, not from a copy. */
static char *help_filter(int key, const char *text, void *input)
{
	char names[160], *s;

	if (key != O_WORKLOAD)
		return (char *)text;
	if (asprintf(&s, "%s (%s)", wl_names(names, sizeof(names), ", "), text) < 0)
		return (char *)text;
	return s;
}

static const struct argp argp_def = { option_table, parse_opt, "COMMAND", doc,
				      NULL, help_filter, NULL };

static int parse_command(const char *s, enum command *cmd)
{
	static const char *const names[] = { "run", "sweep", "compare", "list", "attach",
					     "report", "diff" };

	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i])) {
			*cmd = (enum command)i;
			return 0;
		}
	return -1;
}

static void set_defaults(struct options *o)
{
	memset(o, 0, sizeof(*o));
	wl_config_defaults(&o->wl);
	o->probes = PG_FULL;
	o->probe_set = "full";
	o->tl_window_ms = TL_DEFAULT_WINDOW_MS;
	o->tl_start_ms = TL_DEFAULT_START_MS;
}

/* Fill what the user left out, per command. */
static void fill_lists(struct options *o)
{
	char err[8];

	if (!o->files.n)
		numlist_parse(o->cmd == CMD_SWEEP ? "10,50,60,100" : "60", 1, LIM_FILES,
			      &o->files, err, sizeof(err));
	if (!o->threads.n)
		numlist_parse(o->cmd == CMD_SWEEP ? "1-8" : "8", 1, LIM_THREADS,
			      &o->threads, err, sizeof(err));
	if (!o->nworkloads) {
		o->workloads[o->nworkloads++] = "fcp";
		if (o->cmd != CMD_RUN)
			o->workloads[o->nworkloads++] = "fc";
	}
	o->wl.workload = o->workloads[0];
	o->wl.files = (unsigned)o->files.v[0];
	o->wl.threads = (unsigned)o->threads.v[0];
}

static int check_single_run(const struct options *o)
{
	if (o->cmd == CMD_SWEEP)
		return 0;
	if (o->files.n > 1)
		return bad("--files", "takes one value here; lists are for `fctrace sweep`");
	if (o->threads.n > 1)
		return bad("--threads", "takes one value here; lists are for `fctrace sweep`");
	if (o->cmd == CMD_RUN && o->nworkloads > 1)
		return bad("--workload", "takes one name with run; use compare or sweep for more");
	if (o->cmd == CMD_COMPARE && o->nworkloads + !!o->compare_with != 2)
		return bad("--workload", "compare needs two names, e.g. --workload fcp,fc");
	return 0;
}

static int check_sizes(const struct options *o)
{
	const struct wl_config *c = &o->wl;
	uint64_t max_files = 0;

	for (unsigned i = 0; i < o->files.n; i++)	/* lists need not ascend */
		if (o->files.v[i] > max_files)
			max_files = o->files.v[i];

	if (c->chunk > c->file_size)
		return bad("--chunk", "must not be larger than --file-size");
	if (c->cache_size < c->block)
		return bad("--cache-size", "must hold at least one --block");
	if (max_files * c->file_size > LIM_DATA)
		return bad("--files", "x --file-size must stay within 8 GiB of data");
	return 0;
}

/* `run -- CMD` and `attach`: only the tracing and output options apply. */
static int check_target(const struct options *o)
{
	bool other = o->cmd_argv || o->cmd == CMD_ATTACH;
	const char *what = o->cmd == CMD_ATTACH ? "attach" : "run -- CMD";

	if (o->cmd == CMD_ATTACH && !o->pid)
		return bad("attach", "needs -p PID");
	if (o->cmd == CMD_ATTACH && o->cmd_argv)
		return bad("attach", "takes no command after --; use run -- CMD");
	if (o->cmd_argv && o->cmd != CMD_RUN)
		return bad("--", "and a command only apply to `fctrace run`");
	if (!other && (o->pid || o->duration_ns || o->follow || o->as_root || o->debuginfod))
		return bad(o->pid ? "-p" : o->duration_ns ? "--duration" : o->follow ? "--follow"
			   : o->as_root ? "--as-root" : "--debuginfod",
			   "only applies to `run -- CMD` or `attach`");
	if (!other && o->cpu_stacks && o->cmd != CMD_REPORT && o->cmd != CMD_DIFF)
		return bad("--cpu-stacks", "only applies to `run -- CMD` or `attach` (fctrace's "
			   "own workloads keep no stacks)");
	if (o->cmd == CMD_RUN && o->duration_ns)
		return bad("--duration", "only applies to `attach` (run -- CMD ends when CMD does)");
	if (o->cmd == CMD_RUN && o->pid)
		return bad("-p", "only applies to `attach` (run -- CMD traces CMD)");
	if (o->cmd == CMD_ATTACH && o->as_root)
		return bad("--as-root", "only applies to `run -- CMD`");
	if (other && o->workload_opt) {
		char why[96];

		snprintf(why, sizeof(why), "sets up fctrace's own workloads: it does not apply "
			 "to %s", what);
		return bad(o->workload_opt, why);
	}
	return 0;
}

/* One traced run with the scheduler probes: the timeline's edges. */
static int check_timeline(const struct options *o)
{
	if (!o->timeline)
		return 0;
	if (o->cmd != CMD_RUN && o->cmd != CMD_ATTACH)
		return bad("--timeline", "only applies to `fctrace run` and `attach`");
	if (o->compare_with)
		return bad("--timeline", "cannot be combined with --compare (one run)");
	if (o->no_bpf)
		return bad("--timeline", "needs the kernel view: not with --no-bpf");
	if (!(o->probes & PG_MASK(PG_SCHED)))
		return bad("--timeline", "needs the sched probes (--probes with sched)");
	return 0;
}

static int check_combinations(const struct options *o)
{
	if (o->wl.handle == WL_HANDLE_PER_THREAD && !o->wl.shared_file)
		return bad("--handle", "only applies with --shared-file");
	if (o->no_bpf && strcmp(o->probe_set, "full"))
		return bad("--probes", "cannot be combined with --no-bpf");
	if (o->time_every && (o->no_bpf || !(o->probes & PG_MASK(PG_SYSCALLS))))
		return bad("--time-every", "only applies when the syscalls probes run");
	if (o->max_threads && o->no_bpf)
		return bad("--max-threads", "cannot be combined with --no-bpf");
	if (o->csv && o->cmd != CMD_SWEEP)
		return bad("--csv", "only applies to `fctrace sweep`");
	if (o->predict && o->cmd != CMD_SWEEP)
		return bad("--predict", "only applies to `fctrace sweep`");
	if (o->repeat > 1 && o->cmd != CMD_SWEEP)
		return bad("--repeat", "only applies to `fctrace sweep`");
	if (o->fit_path && !o->predict)
		return bad("--fit", "only applies with `fctrace sweep --predict`");
	if (o->names_only && o->cmd != CMD_LIST)
		return bad("--names", "only applies to `fctrace list`");
	if (o->compare_with && o->cmd == CMD_SWEEP)
		return bad("--compare", "does not apply to `fctrace sweep`");
	return check_timeline(o);
}

/* Whether a workload reads option name: its `fctrace list` options. */
static bool reads(const char *workload, const char *name)
{
	const struct workload *w = workload ? wl_find(workload) : NULL;
	const char *p = w ? w->options : NULL;
	size_t len = strlen(name);

	for (; p && (p = strstr(p, name)); p += len)
		if ((p == w->options || p[-1] == ' ') && (!p[len] || p[len] == ' '))
			return true;
	return false;
}

/* A workload setting that none of the chosen workloads reads (--block
 * with fc, --pool with bcache) is a mistake, not something to record. */
static int check_applies(const struct options *o, uint64_t given)
{
	char opt[40], what[160];

	for (int i = 0; option_table[i].name || option_table[i].doc; i++) {
		bool read = false;

		if (!(given >> i & 1) || option_table[i].group != 1 ||
		    option_table[i].key == O_WORKLOAD)
			continue;
		for (unsigned w = 0; w < o->nworkloads && !read; w++)
			read = reads(o->workloads[w], option_table[i].name);
		if (read || reads(o->compare_with, option_table[i].name))
			continue;
		snprintf(opt, sizeof(opt), "--%s", option_table[i].name);
		snprintf(what, sizeof(what), "does not apply to %s%s (see fctrace list)",
			 o->workloads[0], o->nworkloads > 1 || o->compare_with ? " and the others" : "");
		return bad(opt, what);
	}
	return 0;
}

/* report FILE and diff A B: the files, and only the options that say
 * where the outputs go (the run itself is in the files). */
static int check_saved(const struct options *o, uint64_t given)
{
	static const int applies[] = { O_JSON, O_HTML, O_QUIET, O_VERBOSE, O_FOLDED, O_PPROF,
				       O_NO_THREAD_FRAME };
	const char *what = o->cmd == CMD_REPORT ? "report" : "diff";
	char opt[40], why[96];

	if (o->cmd != CMD_REPORT && o->cmd != CMD_DIFF)
		return 0;
	if (o->ninputs != (o->cmd == CMD_REPORT ? 1u : 2u))
		return bad(what, o->cmd == CMD_REPORT ? "takes one saved run: fctrace report "
			   "FILE.json" : "takes two saved runs: fctrace diff A.json B.json");
	for (int i = 0; option_table[i].name || option_table[i].doc; i++) {
		bool ok = false;

		for (size_t j = 0; j < sizeof(applies) / sizeof(*applies); j++)
			ok |= option_table[i].key == applies[j];
		/* the flame graphs are a run's: report draws them, diff has none */
		if (o->cmd == CMD_DIFF && (option_table[i].key == O_FOLDED ||
					   option_table[i].key == O_PPROF ||
					   option_table[i].key == O_NO_THREAD_FRAME))
			ok = false;
		if (!(given >> i & 1) || ok)
			continue;
		snprintf(opt, sizeof(opt), "--%s", option_table[i].name);
		snprintf(why, sizeof(why), "does not apply to `fctrace %s`: the run is in the "
			 "file (see fctrace --help)", what);
		return bad(opt, why);
	}
	return 0;
}

/* The first --help, -?, --usage, --version or -V before "--", or NULL. */
static char *help_request(int argc, char **argv)
{
	static const char *const asks[] = { "--help", "-?", "--usage", "--version", "-V" };

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return NULL;
		for (size_t j = 0; j < sizeof(asks) / sizeof(asks[0]); j++)
			if (!strcmp(argv[i], asks[j]))
				return argv[i];
	}
	return NULL;
}

/* The commands that read an option (its key): what `fctrace CMD --help`
 * lists. The checks above refuse the rest on a command line. */
#define CM(c)		(1u << (c))
#define CM_OWN		(CM(CMD_RUN) | CM(CMD_SWEEP) | CM(CMD_COMPARE))	/* fctrace's workloads */
#define CM_TRACED	(CM_OWN | CM(CMD_ATTACH))
#define CM_SAVED	(CM(CMD_REPORT) | CM(CMD_DIFF))

static unsigned read_by(int key)
{
	switch (key) {
	case O_PID: case O_DURATION: return CM(CMD_ATTACH);
	case O_FOLLOW: case O_DEBUGINFOD: return CM(CMD_RUN) | CM(CMD_ATTACH);
	case O_AS_ROOT: return CM(CMD_RUN);
	case O_NO_BPF: case O_PROBES: case O_TIME_EVERY: case O_MAX_THREADS: return CM_TRACED;
	case O_TIMELINE: case O_TL_WINDOW: case O_TL_START: case O_TL_OUT:
		return CM(CMD_RUN) | CM(CMD_ATTACH);
	case O_JSON: case O_HTML: case O_QUIET: case O_VERBOSE: return CM_TRACED | CM_SAVED;
	case O_CSV: case O_PREDICT: case O_FIT: case O_REPEAT: return CM(CMD_SWEEP);
	case O_FOLDED: case O_PPROF: case O_NO_THREAD_FRAME:
		return CM(CMD_RUN) | CM(CMD_ATTACH) | CM(CMD_REPORT);
	case O_CPU_STACKS: return CM(CMD_RUN) | CM(CMD_ATTACH);
	case O_COMPARE: return CM(CMD_RUN) | CM(CMD_COMPARE);
	case O_NAMES: return CM(CMD_LIST);
	default: return CM_OWN;		/* the workload options */
	}
}

/* option_table with only cmd's options, and the headings that have some. */
static struct argp_option cmd_table[sizeof(option_table) / sizeof(option_table[0])];

static void filter_table(enum command cmd)
{
	const struct argp_option *heading = NULL;
	int n = 0;

	for (int i = 0; option_table[i].name || option_table[i].doc; i++) {
		const struct argp_option *e = &option_table[i];

		if (!e->name) {
			heading = e;
			continue;
		}
		if (!(read_by(e->key) & CM(cmd)))
			continue;
		if (heading)
			cmd_table[n++] = *heading;
		heading = NULL;
		cmd_table[n++] = *e;
	}
	memset(&cmd_table[n], 0, sizeof(cmd_table[n]));
}

/* What follows [OPTION...] in a command's usage line. */
static const char *cmd_args(enum command cmd)
{
	static const char *const args[] = { "[-- CMD [ARG...]]", "", "", "", "-p PID",
					    "FILE.json", "A.json B.json" };

	return args[cmd];
}

/* Answer a help request with argp's own text, parsing the request alone
 * (the rest of the line neither stops nor changes the answer) and with
 * ARGP_NO_EXIT, so options_parse never exits: main does. A command's help
 * lists the options it reads; `fctrace --help` lists them all. */
static int answer_help(char *prog, char *ask, struct parse_ctx *ctx, bool for_cmd)
{
	char *args[] = { prog, ask, NULL };
	struct argp a = argp_def;

	if (for_cmd) {
		filter_table(ctx->o->cmd);
		a.options = cmd_table;
		a.args_doc = cmd_args(ctx->o->cmd);
	}
	argp_parse(&a, 2, args, ARGP_NO_EXIT, NULL, ctx);
	return -1;
}

/* `run [OPTION...] -- CMD [ARG...]`: the command is everything after the
 * first "--", kept out of argp's sight. Returns the new argc. */
static int split_command(int argc, char **argv, struct options *o)
{
	for (int i = 2; i < argc; i++) {
		if (strcmp(argv[i], "--"))
			continue;
		o->cmd_argv = argv + i + 1;
		argv[i] = NULL;
		return i;
	}
	return argc;
}

int options_parse(int argc, char **argv, struct options *o)
{
	struct parse_ctx ctx = { o, 0, 0 };
	char prog[32], *ask;
	int rc;

	set_defaults(o);
	if (argc < 2 || argv[1][0] == '-') {
		/* `fctrace --help`, `--version`, or nothing at all */
		if (argc >= 2 && (ask = help_request(argc, argv)))
			return answer_help(argv[0], ask, &ctx, false);
		return bad("needs a command:", "run, sweep, compare, report, diff or list (see fctrace --help)");
	}
	if (parse_command(argv[1], &o->cmd))
		return bad(argv[1], "is not a command: use run, sweep, compare, report, diff or list");
	snprintf(prog, sizeof(prog), "fctrace %s", argv[1]);
	argv[1] = prog;
	argc = split_command(argc, argv, o);
	if (o->cmd_argv && !o->cmd_argv[0])
		return bad("--", "needs a command after it: run -- CMD [ARG...]");
	if ((ask = help_request(argc - 1, argv + 1)))
		return answer_help(prog, ask, &ctx, true);
	/* ARGP_NO_HELP: without it argp also takes --HANG (sleep an hour),
	 * --program-name, and -V or --he/--us/--vers abbreviations that
	 * print or exit in the middle of a command line */
	rc = argp_parse(&argp_def, argc - 1, argv + 1,
			ARGP_NO_ERRS | ARGP_NO_HELP | ARGP_IN_ORDER, NULL, &ctx);
	if (ctx.exit_code || rc)
		return ctx.exit_code ? ctx.exit_code : bad(argv[1], "could not parse its options");
	if ((rc = check_saved(o, ctx.given)))
		return rc;
	fill_lists(o);
	if ((rc = check_target(o)) || (rc = check_single_run(o)) ||
	    (rc = check_applies(o, ctx.given)) || (rc = check_sizes(o)) ||
	    (rc = check_combinations(o)))
		return rc;
	return 0;
}
