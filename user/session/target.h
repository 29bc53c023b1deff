/*
 * target.h - a program fctrace did not write, as a session's subject:
 *   `run -- CMD`   fork, hold the child until every probe is attached and
 *                  its pid is filtered on, then exec CMD; the window is
 *                  exec -> exit (with --follow: of every process it forks)
 *   `attach -p`    a running process, from the attach until --duration,
 *                  Ctrl-C or its exit; threads already running or asleep
 *                  are taken over where they are
 */
#ifndef FCTRACE_TARGET_H
#define FCTRACE_TARGET_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

enum target_mode { TGT_NONE, TGT_EXEC, TGT_ATTACH };

/* attach -p A,B,...: processes one list may name */
#define TARGET_MAX_PIDS	64

/* What the user asked for. */
struct target_opts {
	enum target_mode mode;
	char *const *argv;		/* TGT_EXEC: CMD ARGS..., NULL-terminated */
	pid_t pid;			/* TGT_ATTACH: the first process listed */
	int pids[TARGET_MAX_PIDS];	/* TGT_ATTACH: every one (pids[0] == pid), */
	int npids;			/* or 0: pid alone */
	uint64_t duration_ns;		/* TGT_ATTACH: 0 = until Ctrl-C or exit */
	bool follow;			/* child processes too */
	bool as_root;			/* under sudo: keep root for CMD */
	const char *debuginfod_urls;	/* CMD's DEBUGINFOD_URLS (fctrace unsets its
					 * own without --debuginfod), or NULL */
	/* called once the window is open and the target runs (tests act
	 * on the target at a known point with it); may be NULL */
	void (*on_window)(void *arg);
	void *window_arg;
};

/* What happened to it (the report's `target`). */
struct target_info {
	enum target_mode mode;
	char cmdline[512];		/* argv joined, or /proc/PID/cmdline */
	char comm[16];
	pid_t pid;
	bool exited;			/* it ended inside the window */
	/* attach -p A,B: each process listed, and which ended in the window
	 * (npids 0: one process, or a saved run) */
	int npids;
	pid_t pids[TARGET_MAX_PIDS];
	bool ended[TARGET_MAX_PIDS];
	int exit_status;		/* exited normally: its status */
	int term_signal;		/* killed by this signal, or 0 */
	uid_t uid;			/* the real uid and gid it ran with, from */
	gid_t gid;			/* /proc/PID/status while it lived */
	uint64_t stacks_received, stacks_unwound;	/* sampled futex waits */
	uint64_t stacks_dropped;	/* received, but not unwound in time: dropped */
	uint64_t words_unnamed;		/* futex words named by address only: out of time */
	char unsymbolised[400];		/* objects the names needed but could not read
					 * (named object@offset), and why; "" if none */
	char libjvm[4096];		/* a JVM: its libjvm.so, as the name of fctrace's fd
					 * (/proc/self/fd/N); "" for other programs */
	uint64_t window_start_ns;	/* when the watch began and ended: the run's */
	uint64_t window_end_ns;		/* span if no thread of it was seen */
};

/* The exit status `fctrace run -- CMD` passes on: CMD's own, or 128 + N
 * when signal N killed it, as a shell reports it. */
int target_exit_status(const struct target_info *ti);

/* The real uid and gid of process pid (/proc/PID/status: a zombie's are
 * still there until it is reaped): 0, or -1 when unreadable. */
int target_creds(pid_t pid, uid_t *uid, gid_t *gid);

/* Check opts before anything is loaded: 0, or 2 with one line printed
 * (no such process, a kernel thread, fctrace itself, ...). */
int target_check(const struct target_opts *opts);

#endif /* FCTRACE_TARGET_H */
