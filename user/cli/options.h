/* options.h - the command line: one struct, filled from one table of
 * options (options.c), validated once. */
#ifndef FCTRACE_OPTIONS_H
#define FCTRACE_OPTIONS_H

#include <stdbool.h>
#include "base/numlist.h"
#include "session/session.h"
#include "session/target.h"
#include "workload.h"

enum command { CMD_RUN, CMD_SWEEP, CMD_COMPARE, CMD_LIST, CMD_ATTACH, CMD_REPORT, CMD_DIFF };

#define OPT_MAX_WORKLOADS 8

/*
 * What the command line asked for. The parser writes the tracing and the
 * target settings straight into the structs the sessions take (trace,
 * target), so that no command copies them field by field.
 */
struct options {
	enum command cmd;
	struct wl_config wl;		/* one run's settings */
	const char *workloads[OPT_MAX_WORKLOADS];
	unsigned nworkloads;
	struct numlist files;		/* sweeps: every value; run: one */
	struct numlist threads;
	struct trace_opts trace;	/* how every session of the command traces;
					 * trace.tl_window_ms is 0 without --timeline */
	const char *probe_set;		/* "full", "light" or "custom" */
	const char *json, *csv, *html;
	const char *folded, *pprof;	/* flame graphs' files (report/flame.h) */
	bool no_thread_frame;		/* --no-thread-frame */
	const char *compare_with;	/* run --compare W */
	bool quiet, predict;
	const char *fit_path;		/* sweep --fit: a saved run to fit the model to */
	unsigned repeat;		/* sweep --repeat: rounds of the matrix */
	bool names_only;		/* list --names */
	/* other programs: `run [OPTION...] -- CMD [ARG...]` (target.mode
	 * TGT_EXEC, target.argv CMD ARG...) and `attach -p PID` (TGT_ATTACH);
	 * TGT_NONE for fctrace's own workloads */
	struct target_opts target;
	bool debuginfod;		/* --debuginfod: fetch missing debug info */
	const char *timeline_out;	/* --timeline-out: Chrome trace JSON */
	/* saved runs: `report FILE`, `diff A B` */
	const char *inputs[2];
	unsigned ninputs;
};

#define TL_DEFAULT_WINDOW_MS	20
#define TL_DEFAULT_START_MS	200
#define LIM_TL_WINDOW_MS	1000
#define LIM_TL_START_MS		3600000

/* Parse argv; on bad input prints one line to stderr and returns 2.
 * Returns 0 to go on, or -1 when --help/--usage/--version, `fctrace help
 * [CMD]` or --list-options was answered (on stdout). Never exits. */
int options_parse(int argc, char **argv, struct options *o);

/* Limits, shared with the error messages and docs/commands.md. */
#define LIM_FILES	WL_MAX_FILES
#define LIM_THREADS	WL_MAX_THREADS
#define LIM_OPS		1000000000ull
#define LIM_FILE_SIZE	(1ull << 30)
#define LIM_DATA	(8ull << 30)	/* files x file-size */
#define LIM_CACHE	(16ull << 30)
#define LIM_POOL	100000
#define LIM_PRESSURE	10000000.0

#endif
