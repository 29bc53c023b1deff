/*
 * option_table.h - every option of fctrace, one row each: its names, its
 * value, its help, the commands that take it and how its value is read.
 * options.c parses and prints the help from these rows; `fctrace
 * --list-options` prints them for the bash completion and for
 * tests/options_check.py, which holds the man page and the README to them.
 */
#ifndef FCTRACE_OPTION_TABLE_H
#define FCTRACE_OPTION_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include "cli/options.h"

/* Where an option can be given: each command, with run split in two, as
 * `run` of a workload and `run -- CMD` take different options. */
enum opt_place {
	AT_RUN, AT_EXEC, AT_ATTACH, AT_SWEEP, AT_COMPARE, AT_REPORT, AT_DIFF, AT_LIST, AT_N
};
#define TAKES(p)	(1u << (p))

/* The headings of --help, in their order. */
enum opt_group { G_WORKLOAD = 1, G_TARGET, G_TRACING, G_OUTPUT };

/* Row flags */
#define OPT_WL_SETTING	1u	/* a workload reads it: refused when none chosen does */
#define OPT_TIMELINE	2u	/* giving it turns --timeline on */
#define OPT_OUTPUT	4u	/* a file written (checked before any work) */

struct opt_row;
/* Reads arg (NULL for a flag) into o: 0, or 2 after one line on stderr. */
typedef int (*opt_reader)(const struct opt_row *r, char *arg, struct options *o);

struct opt_row {
	const char *name;	/* --name */
	char letter;		/* -l, or 0 */
	const char *arg;	/* its value's name in the help; NULL: a flag.
				 * Words with '|' are the choices (read_choice) */
	enum opt_group group;
	unsigned takes;		/* TAKES() of the places that take it */
	unsigned flags;		/* OPT_* */
	const char *help;
	opt_reader read;
	size_t field, size;	/* where in struct options read writes */
	uint64_t lo, hi;	/* a number's range */
};

#define OPT_ROWS_MAX	64	/* options.c keeps the rows given in a uint64_t */

extern const struct opt_row opt_rows[];
extern const int opt_nrows;

/* One line on stderr, "fctrace: OPT WHAT"; returns 2, bad input's status. */
int opt_bad(const char *opt, const char *what);
/* The file an OPT_OUTPUT row names in o, or NULL. */
const char *opt_output(const struct opt_row *r, const struct options *o);
/* "--name", for messages. */
const char *opt_dashed(const struct opt_row *r);
/* What a place is called in messages and --list-options: "run -- CMD". */
const char *opt_place_name(enum opt_place p);

#endif
