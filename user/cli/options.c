/*
 * options.c - `fctrace COMMAND [OPTION...]`, from the table of options
 * (option_table.c). argp parses with its rows; `fctrace --help` and
 * `fctrace CMD --help` (or `fctrace help CMD`) print them; an option that
 * a command does not take is refused from them; `fctrace --list-options
 * [CMD]` prints them for the bash completion and for the check of the man
 * page and the README (tests/options_check.py).
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
#include "trace/probes.h"
#include "cli/option_table.h"
#include "cli/options.h"

const char *argp_program_version = "fctrace 0.1";
const char *argp_program_bug_address = NULL;

/* The commands, in --help's order (enum command's). */
static const struct command_row {
	const char *name;
	enum opt_place place;	/* run: AT_RUN, or AT_EXEC with -- CMD */
	const char *args;	/* what follows [OPTION...] in its usage line */
	const char *summary;
} commands[] = {
	[CMD_RUN] = { "run", AT_RUN, "[-- CMD [ARG...]]",
		      "run one workload with the kernel view and explain where time went" },
	[CMD_SWEEP] = { "sweep", AT_SWEEP, "",
			"run workloads over a matrix of file-set sizes and thread counts" },
	[CMD_COMPARE] = { "compare", AT_COMPARE, "",
			  "run two workloads at the same settings, compared term by term" },
	[CMD_LIST] = { "list", AT_LIST, "", "the workloads and the options each one reads" },
	[CMD_ATTACH] = { "attach", AT_ATTACH, "-p PID",
			 "trace a running process (-p PID): where its threads' time went" },
	[CMD_REPORT] = { "report", AT_REPORT, "FILE.json",
			 "print a saved run (FILE.json from --json) again: its tables and Why" },
	[CMD_DIFF] = { "diff", AT_DIFF, "A.json B.json",
		       "compare two saved runs (A.json B.json) term by term" },
};
#define NCOMMANDS	((int)(sizeof(commands) / sizeof(commands[0])))

/* Every place but list: the options any run, or a saved one, takes. */
#define EVERY_RUN	((TAKES(AT_N) - 1) & ~TAKES(AT_LIST))

static const char *const headings[] = {
	[G_WORKLOAD] = "Workload (run, sweep, compare):",
	[G_TARGET] = "Other programs (run [OPTION...] -- CMD [ARG...], attach -p PID):",
	[G_TRACING] = "Tracing:",
	[G_OUTPUT] = "Output:",
};

/* The places where a command's options are looked up: run's are both
 * run's and run -- CMD's, for its --help and completion. */
static unsigned command_places(enum command cmd)
{
	return cmd == CMD_RUN ? TAKES(AT_RUN) | TAKES(AT_EXEC) : TAKES(commands[cmd].place);
}

/* "run, sweep, compare, ... or help", for the messages that list them. */
static const char *command_names(void)
{
	static char names[160];
	size_t n = 0;

	for (int c = 0; c < NCOMMANDS; c++)
		n += (size_t)snprintf(names + n, sizeof(names) - n, "%s, ", commands[c].name);
	snprintf(names + n - 2, sizeof(names) - n + 2, " or help");
	return names;
}

static int command_named(const char *s, enum command *cmd)
{
	for (int c = 0; c < NCOMMANDS; c++)
		if (!strcmp(s, commands[c].name)) {
			*cmd = (enum command)c;
			return 0;
		}
	return -1;
}

static int not_a_command(const char *word)
{
	char what[200];

	snprintf(what, sizeof(what), "is not a command: use %s", command_names());
	return opt_bad(word, what);
}

/* The places in mask, each as fmt says, joined by sep and, before the
 * last, by last. */
static void places_said(unsigned mask, const char *fmt, const char *sep, const char *last,
			char *buf, size_t len)
{
	int left = __builtin_popcount(mask);
	size_t n = 0;

	buf[0] = '\0';
	for (int p = 0; p < AT_N && n < len; p++) {
		if (!(mask & TAKES(p)))
			continue;
		n += (size_t)snprintf(buf + n, len - n, fmt, opt_place_name((enum opt_place)p));
		left--;
		if (left && n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s", left == 1 ? last : sep);
	}
}

/* argp's key of row i: its letter, or a number past the characters. */
static int key_of(int i)
{
	return opt_rows[i].letter ? opt_rows[i].letter : 256 + i;
}

static int row_of_key(int key)
{
	for (int i = 0; i < opt_nrows; i++)
		if (key_of(i) == key)
			return i;
	return -1;
}

/* argp's options: the rows places take, under their headings. */
static struct argp_option *argp_options(unsigned places)
{
	static struct argp_option out[OPT_ROWS_MAX + G_OUTPUT + 1];
	int n = 0;

	for (int g = G_WORKLOAD; g <= G_OUTPUT; g++) {
		bool headed = false;

		for (int i = 0; i < opt_nrows; i++) {
			const struct opt_row *r = &opt_rows[i];

			if (r->group != (enum opt_group)g || !(r->takes & places))
				continue;
			if (!headed)
				out[n++] = (struct argp_option){ NULL, 0, NULL, 0, headings[g], g };
			headed = true;
			out[n++] = (struct argp_option){ r->name, key_of(i), r->arg, 0, r->help, g };
		}
	}
	memset(&out[n], 0, sizeof(out[n]));
	return out;
}

/* The general help's text around the options: the commands, from commands[]. */
static const char *doc_text(void)
{
	static char doc[2048];
	size_t n = (size_t)snprintf(doc, sizeof(doc), "fctrace -- why a program takes as long as "
				    "it does: its threads' waits, locks, pools, caches and disk, from "
				    "the kernel's view\vCommands:\n");

	for (int c = 0; c < NCOMMANDS && n < sizeof(doc); c++)
		n += (size_t)snprintf(doc + n, sizeof(doc) - n, "  %-8s %s\n", commands[c].name,
				      commands[c].summary);
	if (n < sizeof(doc))
		snprintf(doc + n, sizeof(doc) - n, "\n  fctrace run [OPTION...] -- CMD [ARG...] "
			 "traces any program, exec to exit.\n  fctrace help CMD, as fctrace CMD "
			 "--help, lists only the options CMD takes.\n");
	return doc;
}

struct parse_ctx {
	struct options *o;
	enum opt_place at;	/* where the options are given */
	bool all_places;	/* the help of every command: say where each applies */
	int exit_code;		/* 2 once a message was printed */
	uint64_t given;		/* bit i: opt_rows[i] was on the command line */
};

/* --workload's help lists the workloads from wl_all, not from a copy;
 * `fctrace --help` says which commands take each option (a command's
 * own help lists only its options). */
static char *help_filter(int key, const char *text, void *input)
{
	const struct parse_ctx *ctx = input;
	int i = row_of_key(key);
	char names[160], where[160], *s;

	if (i < 0 || !text)
		return (char *)text;
	if (key == 'w') {
		if (asprintf(&s, "%s (%s)", wl_names(names, sizeof(names), ", "), text) < 0)
			return (char *)text;
		return s;
	}
	if (!ctx || !ctx->all_places || opt_rows[i].group == G_WORKLOAD ||
	    opt_rows[i].takes == EVERY_RUN)
		return (char *)text;
	places_said(opt_rows[i].takes, "%s", ", ", ", ", where, sizeof(where));
	if (asprintf(&s, "%s [%s]", text, where) < 0)
		return (char *)text;
	return s;
}

/* Whether word (the last argv element) is an option that needs a value:
 * getopt then reports it as an error, but it is a missing value. */
static bool needs_value(const char *word)
{
	size_t len;

	if (word[0] != '-' || !word[1])
		return false;
	if (word[1] != '-') {
		int i = word[2] ? -1 : row_of_key((unsigned char)word[1]);

		return i >= 0 && opt_rows[i].arg;
	}
	len = strcspn(word + 2, "=");
	for (int i = 0; i < opt_nrows; i++)
		if (!strncmp(opt_rows[i].name, word + 2, len) && opt_rows[i].arg && len)
			return !word[2 + len];
	return false;
}

/* An option given where its row says it does not apply: one line. */
static int refuse_here(const struct opt_row *r, enum opt_place at)
{
	const char *here = opt_place_name(at);
	char why[360], where[240];

	if (at == AT_REPORT || at == AT_DIFF)
		snprintf(why, sizeof(why), "does not apply to `fctrace %s`: the run is in the "
			 "file (see fctrace --help)", here);
	else if ((at == AT_EXEC || at == AT_ATTACH) && (r->takes & TAKES(AT_RUN)))
		snprintf(why, sizeof(why), "sets up fctrace's own workloads: it does not apply "
			 "to `fctrace %s`", here);
	else if (__builtin_popcount(r->takes) > 3)
		snprintf(why, sizeof(why), "does not apply to `fctrace %s` (see fctrace %s "
			 "--help)", here, at == AT_EXEC ? "run" : here);
	else {
		places_said(r->takes, "`fctrace %s`", ", ", " or ", where, sizeof(where));
		snprintf(why, sizeof(why), "only applies to %s", where);
	}
	return opt_bad(opt_dashed(r), why);
}

/* One option of the table: refused where it does not apply, else read. */
static int take_row(struct parse_ctx *ctx, int i, char *arg)
{
	const struct opt_row *r = &opt_rows[i];

	if (!(r->takes & TAKES(ctx->at)))
		return refuse_here(r, ctx->at);
	ctx->given |= 1ull << i;
	return r->read ? r->read(r, arg, ctx->o) : 0;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct parse_ctx *ctx = state->input;
	int i;

	switch (key) {
	case ARGP_KEY_ARG:
		/* report and diff take their saved runs as arguments */
		if ((ctx->at == AT_REPORT || ctx->at == AT_DIFF) && ctx->o->ninputs < 2) {
			ctx->o->inputs[ctx->o->ninputs++] = arg;
			return 0;
		}
		ctx->exit_code = opt_bad("unexpected argument", arg);
		return EINVAL;
	case ARGP_KEY_ERROR:
		if (!ctx->exit_code) {
			const char *word = state->argv[state->next > 1 ? state->next - 1 : 0];

			ctx->exit_code = state->next >= state->argc && needs_value(word) ?
				opt_bad(word, "needs a value (see fctrace --help)") :
				opt_bad(word, "is not a valid option here (see fctrace --help)");
		}
		return 0;
	}
	if ((i = row_of_key(key)) < 0)
		return ARGP_ERR_UNKNOWN;
	if ((ctx->exit_code = take_row(ctx, i, arg)))
		return EINVAL;
	return 0;
}

static void set_defaults(struct options *o)
{
	memset(o, 0, sizeof(*o));
	wl_config_defaults(&o->wl);
	o->trace.probes = PG_FULL;
	o->probe_set = "full";
	o->trace.tl_window_ms = TL_DEFAULT_WINDOW_MS;
	o->trace.tl_start_ms = TL_DEFAULT_START_MS;
	o->trace.budget_pct = TRACE_DEFAULT_BUDGET_PCT;
	o->repeat = 1;
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

/* report FILE and diff A B: their files (the rows refused the rest). */
static int check_saved(const struct options *o)
{
	if (o->cmd == CMD_REPORT && o->ninputs != 1)
		return opt_bad("report", "takes one saved run: fctrace report FILE.json");
	if (o->cmd == CMD_DIFF && o->ninputs != 2)
		return opt_bad("diff", "takes two saved runs: fctrace diff A.json B.json");
	return 0;
}

static int check_single_run(const struct options *o)
{
	if (o->cmd == CMD_SWEEP)
		return 0;
	if (o->files.n > 1)
		return opt_bad("--files", "takes one value here; lists are for `fctrace sweep`");
	if (o->threads.n > 1)
		return opt_bad("--threads", "takes one value here; lists are for `fctrace sweep`");
	if (o->cmd == CMD_RUN && o->nworkloads > 1)
		return opt_bad("--workload", "takes one name with run; use compare or sweep for "
			       "more");
	if (o->cmd == CMD_COMPARE && o->nworkloads + !!o->compare_with != 2)
		return opt_bad("--workload", "compare needs two names, e.g. --workload fcp,fc");
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
		return opt_bad("--chunk", "must not be larger than --file-size");
	if (c->cache_size < c->block)
		return opt_bad("--cache-size", "must hold at least one --block");
	if (max_files * c->file_size > LIM_DATA)
		return opt_bad("--files", "x --file-size must stay within 8 GiB of data");
	return 0;
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
	char what[160];

	for (int i = 0; i < opt_nrows; i++) {
		const struct opt_row *r = &opt_rows[i];
		bool read = false;

		if (!(given >> i & 1) || !(r->flags & OPT_WL_SETTING))
			continue;
		for (unsigned w = 0; w < o->nworkloads && !read; w++)
			read = reads(o->workloads[w], r->name);
		if (read || reads(o->compare_with, r->name))
			continue;
		snprintf(what, sizeof(what), "does not apply to %s%s (see fctrace list)",
			 o->workloads[0], o->nworkloads > 1 || o->compare_with ? " and the others" : "");
		return opt_bad(opt_dashed(r), what);
	}
	return 0;
}

/* Whether any row of a flag (OPT_*) was given. */
static bool given_any(uint64_t given, unsigned flag)
{
	for (int i = 0; i < opt_nrows; i++)
		if ((given >> i & 1) && (opt_rows[i].flags & flag))
			return true;
	return false;
}

/* One traced run with the scheduler probes: the timeline's edges. */
static int check_timeline(const struct options *o, uint64_t given)
{
	if (!given_any(given, OPT_TIMELINE))
		return 0;
	if (o->compare_with)
		return opt_bad("--timeline", "cannot be combined with --compare (one run)");
	if (o->trace.no_bpf)
		return opt_bad("--timeline", "needs the kernel view: not with --no-bpf");
	if (!(o->trace.probes & PG_MASK(PG_SCHED)))
		return opt_bad("--timeline", "needs the sched probes (--probes with sched)");
	return 0;
}

/* Options that each apply here but not together. */
static int check_combinations(const struct options *o, uint64_t given)
{
	const struct trace_opts *t = &o->trace;

	if (o->cmd == CMD_ATTACH && !o->target.pid)
		return opt_bad("attach", "needs -p PID");
	if (o->wl.handle == WL_HANDLE_PER_THREAD && !o->wl.shared_file)
		return opt_bad("--handle", "only applies with --shared-file");
	if (t->no_bpf && strcmp(o->probe_set, "full"))
		return opt_bad("--probes", "cannot be combined with --no-bpf");
	if (t->time_every && (t->no_bpf || !(t->probes & PG_MASK(PG_SYSCALLS))))
		return opt_bad("--time-every", "only applies when the syscalls probes run");
	if (t->max_threads && t->no_bpf)
		return opt_bad("--max-threads", "cannot be combined with --no-bpf");
	if (o->fit_path && !o->predict)
		return opt_bad("--fit", "only applies with `fctrace sweep --predict`");
	return check_timeline(o, given);
}

/* What the sessions take that follows from the options given. */
static void settle(struct options *o, uint64_t given)
{
	if (!given_any(given, OPT_TIMELINE))
		o->trace.tl_window_ms = 0;	/* no timeline */
	/* the sleeps' stacks cost (up to 1.4x a run of cold reads): only
	 * when a flame graph is drawn now or may be later */
	o->trace.sleep_stacks = o->folded || o->pprof || o->html || o->json;
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

/* Answer a help request with argp's own text, parsing the request alone
 * (the rest of the line neither stops nor changes the answer) and with
 * ARGP_NO_EXIT, so options_parse never exits: main does. A command's help
 * lists the options it takes (cmd < 0: every option, and where each
 * applies). */
static int answer_help(const char *prog, char *ask, int cmd)
{
	char name[32], *args[] = { name, ask, NULL };
	struct options o;
	struct parse_ctx ctx = { &o, AT_RUN, cmd < 0, 0, 0 };
	struct argp a = { NULL, parse_opt, "COMMAND", doc_text(), NULL, help_filter, NULL };

	set_defaults(&o);
	snprintf(name, sizeof(name), "%s", prog);
	a.options = argp_options(cmd < 0 ? TAKES(AT_N) - 1 : command_places((enum command)cmd));
	if (cmd >= 0)
		a.args_doc = commands[cmd].args;
	argp_parse(&a, 2, args, ARGP_NO_EXIT, NULL, &ctx);
	return -1;
}

/* `fctrace help [CMD]`: as `fctrace CMD --help`, or `fctrace --help`. */
static int help_command(int argc, char **argv)
{
	enum command cmd;
	char prog[32], ask[] = "--help";

	if (argc < 3)
		return answer_help(argv[0], ask, -1);
	if (command_named(argv[2], &cmd))
		return not_a_command(argv[2]);
	if (argc > 3)
		return opt_bad("help", "takes one command: fctrace help CMD");
	snprintf(prog, sizeof(prog), "fctrace %s", argv[2]);
	return answer_help(prog, ask, (int)cmd);
}

/* `fctrace --list-options [CMD]`, for the completion and the tests: one
 * line per option CMD takes (every option without CMD), tab separated:
 * --name, -l or -, the value's name or -, and the places that take it. */
static int list_options(int argc, char **argv)
{
	unsigned places = TAKES(AT_N) - 1;
	enum command cmd;
	char where[200];

	if (argc > 3)
		return opt_bad("--list-options", "takes at most one command");
	if (argc == 3 && command_named(argv[2], &cmd))
		return not_a_command(argv[2]);
	if (argc == 3)
		places = command_places(cmd);
	for (int i = 0; i < opt_nrows; i++) {
		const struct opt_row *r = &opt_rows[i];

		if (!(r->takes & places))
			continue;
		places_said(r->takes, "%s", ",", ",", where, sizeof(where));
		printf("--%s\t%s%c\t%s\t%s\n", r->name, r->letter ? "-" : "",
		       r->letter ? r->letter : '-', r->arg ? r->arg : "-", where);
	}
	return -1;
}

/* `run [OPTION...] -- CMD [ARG...]`: the command is everything after the
 * first "--", kept out of argp's sight. Returns the new argc. */
static int split_command(int argc, char **argv, struct options *o)
{
	for (int i = 2; i < argc; i++) {
		if (strcmp(argv[i], "--"))
			continue;
		o->target.argv = argv + i + 1;
		argv[i] = NULL;
		return i;
	}
	return argc;
}

/* The command a line names, its program after "--" and so where its
 * options are given: 0, or 2 after one line. */
static int find_place(int *argc, char **argv, struct options *o, enum opt_place *at)
{
	if (command_named(argv[1], &o->cmd))
		return not_a_command(argv[1]);
	*argc = split_command(*argc, argv, o);
	if (o->target.argv && !o->target.argv[0])
		return opt_bad("--", "needs a command after it: run -- CMD [ARG...]");
	if (o->target.argv && o->cmd == CMD_ATTACH)
		return opt_bad("attach", "takes no command after --; use run -- CMD");
	if (o->target.argv && o->cmd != CMD_RUN)
		return opt_bad("--", "and a command only apply to `fctrace run`");
	o->target.mode = o->cmd == CMD_ATTACH ? TGT_ATTACH : o->target.argv ? TGT_EXEC : TGT_NONE;
	*at = o->target.mode == TGT_EXEC ? AT_EXEC : commands[o->cmd].place;
	return 0;
}

int options_parse(int argc, char **argv, struct options *o)
{
	struct parse_ctx ctx = { o, AT_RUN, false, 0, 0 };
	struct argp a = { argp_options(TAKES(AT_N) - 1), parse_opt, NULL, NULL, NULL, NULL, NULL };
	char prog[32], *ask;
	int rc;

	set_defaults(o);
	if (argc >= 2 && !strcmp(argv[1], "--list-options"))
		return list_options(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "help"))
		return help_command(argc, argv);
	if (argc < 2 || argv[1][0] == '-') {
		/* `fctrace --help`, `--version`, or nothing at all */
		char what[200];

		if (argc >= 2 && (ask = help_request(argc, argv)))
			return answer_help(argv[0], ask, -1);
		snprintf(what, sizeof(what), "%s (see fctrace --help)", command_names());
		return opt_bad("needs a command:", what);
	}
	if ((rc = find_place(&argc, argv, o, &ctx.at)))
		return rc;
	snprintf(prog, sizeof(prog), "fctrace %s", argv[1]);
	argv[1] = prog;
	if ((ask = help_request(argc - 1, argv + 1)))
		return answer_help(prog, ask, (int)o->cmd);
	/* ARGP_NO_HELP: without it argp also takes --HANG (sleep an hour),
	 * --program-name, and -V or --he/--us/--vers abbreviations that
	 * print or exit in the middle of a command line */
	rc = argp_parse(&a, argc - 1, argv + 1, ARGP_NO_ERRS | ARGP_NO_HELP | ARGP_IN_ORDER,
			NULL, &ctx);
	if (ctx.exit_code || rc)
		return ctx.exit_code ? ctx.exit_code : opt_bad(argv[1], "could not parse its options");
	if ((rc = check_saved(o)))
		return rc;
	fill_lists(o);
	if ((rc = check_single_run(o)) || (rc = check_applies(o, ctx.given)) ||
	    (rc = check_sizes(o)) || (rc = check_combinations(o, ctx.given)))
		return rc;
	settle(o, ctx.given);
	return 0;
}
