/*
 * preflight.h - what is checked before a command does any work, so that
 * bad input costs nothing and leaves nothing behind: output paths, --dir,
 * and the file descriptors the largest run will hold.
 */
#ifndef FCTRACE_PREFLIGHT_H
#define FCTRACE_PREFLIGHT_H

#include "cli/options.h"

/* fds fctrace itself may hold beside a workload's: BPF maps, programs,
 * links and uprobe perf events, stdio, the kallsyms and output files */
#define PREFLIGHT_FD_RESERVE	128

/* 0 to go on; 2 after one line on stderr. May raise RLIMIT_NOFILE's
 * soft limit (never above the hard one). */
int preflight(const struct options *o);

/* The parts, for tests: 0 or 2, with the line printed. */
int preflight_output(const char *opt, const char *path);
int preflight_fds(uint64_t needed);
int preflight_sudo(const struct options *o);

#endif
