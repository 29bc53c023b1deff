/* commands.h - one function per `fctrace COMMAND`; each returns the exit status. */
#ifndef FCTRACE_COMMANDS_H
#define FCTRACE_COMMANDS_H

#include "options.h"

int cmd_run(const struct options *o);
int cmd_compare(const struct options *o);
int cmd_sweep(const struct options *o);
int cmd_list(const struct options *o);
/* run -- CMD and attach -p PID (cmd_target.c) */
int cmd_target(const struct options *o);
/* saved runs: report FILE and diff A B (cmd_report.c) */
int cmd_report(const struct options *o);
int cmd_diff(const struct options *o);

#endif
