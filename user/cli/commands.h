/* commands.h - one function per `fctrace COMMAND`; each returns the exit status. */
#ifndef FCTRACE_COMMANDS_H
#define FCTRACE_COMMANDS_H

#include "cli/options.h"
#include "session/sweep.h"

struct session;

int cmd_run(const struct options *o);
int cmd_compare(const struct options *o);
int cmd_sweep(const struct options *o);
int cmd_list(const struct options *o);
/* run -- CMD and attach -p PID (cmd_target.c) */
int cmd_target(const struct options *o);
/* saved runs: report FILE and diff A B (cmd_report.c) */
int cmd_report(const struct options *o);
int cmd_diff(const struct options *o);

/* 0 with --no-bpf or when BPF can run here; else 1, after one line on
 * stderr saying why and how to run (as root, or with --no-bpf). */
int cli_check_privileges(const struct options *o);

/* The sweep the command line asks for (cmd_sweep.c): its settings from
 * o, the one conversion between the two. */
struct sweep_settings cli_sweep_settings(const struct options *o);

/* A run's --json and --html (with other: both runs and their comparison,
 * as compare writes them): 0, or 1 after one line on stderr. */
int cmd_write_outputs(const struct options *o, const struct session *s,
		      const struct session *other);

#endif
