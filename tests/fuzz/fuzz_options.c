/*
 * fuzz_options.c - libFuzzer target for the command line (options.c, and
 * through it numlist.c, probes.c and the workload names).
 *
 * The input is argv: elements separated by NUL or newline bytes, after an
 * argv[0] of "fctrace". Beyond memory safety it checks what docs/commands.md
 * promises: bad input gets exactly one line on stderr and status 2, good
 * input prints nothing, a help request is answered and returns -1 (never
 * exit: libFuzzer reports that as a crash), and every run a good command
 * line implies (each workload x files x threads cell) passes the
 * workloads' own check.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/options.h"
#include "wl_internal.h"

#define MAX_ARGS 256

/* Did the line ask for help, usage, the version or the options' list?
 * (argp answers the first three with its own text on stdout, `fctrace
 * help [CMD]` and --list-options answer first; options_parse returns -1.) */
static int asks_help(int argc, char **argv)
{
	static const char *const asks[] = { "--help", "-?", "--usage", "--version", "-V" };

	if (argc > 1 && (!strcmp(argv[1], "help") || !strcmp(argv[1], "--list-options")))
		return 1;
	for (int i = 1; i < argc; i++)
		for (size_t j = 0; j < sizeof(asks) / sizeof(asks[0]); j++)
			if (!strcmp(argv[i], asks[j]))
				return 1;
	return 0;
}

static int split_args(char *buf, size_t n, char **argv)
{
	int argc = 0;

	argv[argc++] = "fctrace";
	for (size_t i = 0, start = 0; i <= n && argc < MAX_ARGS; i++) {
		if (i < n && buf[i] != '\n' && buf[i] != '\0')
			continue;
		buf[i] = '\0';
		argv[argc++] = buf + start;
		start = i + 1;
	}
	argv[argc] = NULL;
	return argc;
}

/* where the messages nobody reads go */
static FILE *quiet(void)
{
	static FILE *null;

	if (!null)
		null = fopen("/dev/null", "w");
	return null;
}

/* Every cell the command would run must be one the workloads accept. */
static void check_cells(const struct options *o)
{
	struct wl_config c = o->wl;

	if (!o->nworkloads || o->nworkloads > OPT_MAX_WORKLOADS || !o->files.n || !o->threads.n)
		abort();
	for (unsigned w = 0; w <= o->nworkloads; w++) {
		c.workload = w < o->nworkloads ? o->workloads[w] : o->compare_with;
		if (!c.workload)
			continue;
		for (unsigned f = 0; f < o->files.n; f++)
			for (unsigned t = 0; t < o->threads.n; t++) {
				c.files = (unsigned)o->files.v[f];
				c.threads = (unsigned)o->threads.v[t];
				if (wl_config_check(&c))
					abort();	/* accepted here, refused at run time */
			}
	}
}

static void check_message(int rc, const char *msg, int help)
{
	const char *nl = strchr(msg, '\n');

	if (rc != 2 && *msg)
		abort();			/* good input and help say nothing on stderr */
	if (rc == 2 && (strncmp(msg, "fctrace: ", 9) || !nl || nl[1]))
		abort();			/* bad input: exactly one line */
	if (rc == -1 && !help)
		abort();			/* -1 only answers a help request */
	if (rc != 0 && rc != 2 && rc != -1)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char msg[4096];
	char *buf = malloc(size + 1), *argv[MAX_ARGS + 1];
	FILE *saved_err = stderr, *saved_out = stdout, *mem;
	struct options o;
	int argc, help, rc;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	argc = split_args(buf, size, argv);
	help = asks_help(argc, argv);		/* before options_parse rewrites argv[1] */
	memset(msg, 0, sizeof(msg));
	if (!(mem = fmemopen(msg, sizeof(msg) - 1, "w")) || !quiet())
		abort();
	stderr = mem;
	stdout = quiet();			/* argp's help text */
	rc = options_parse(argc, argv, &o);	/* never exits: libFuzzer would say so */
	stdout = saved_out;
	stderr = saved_err;
	fclose(mem);
	check_message(rc, msg, help);
	if (rc == 0) {
		stderr = quiet();
		check_cells(&o);
		stderr = saved_err;
	}
	free(buf);
	return 0;
}
