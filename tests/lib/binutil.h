/*
 * binutil.h - running the fctrace binary from a test, as a user would:
 * as another user, under a file-descriptor limit, with stderr captured.
 */
#ifndef FCTRACE_TEST_BINUTIL_H
#define FCTRACE_TEST_BINUTIL_H

#include <stddef.h>
#include <sys/resource.h>
#include <sys/types.h>

/* $FCTRACE_BIN or ./fctrace */
const char *fctrace_binary(void);
/* 0 if it is there to run; else 1, having said so for test */
int require_fctrace_binary(const char *test);

struct spawn_opts {
	int uid;			/* >= 0: switch to this uid and gid first */
	int errfd;			/* >= 0: stderr goes there */
	const struct rlimit *nofile;	/* set RLIMIT_NOFILE first */
	int outfd;			/* > 0: stdout goes there, else /dev/null */
#define SPAWN_STDOUT_CLOSED	(-2)	/* outfd: start with no stdout at all */
	const char *cwd;		/* run there (argv[0] must be absolute) */
	const struct rlimit *as;	/* set RLIMIT_AS first (ulimit -v) */
};

/* Start argv (NULL-terminated, argv[0] the binary); returns the pid, not
 * waited for. */
pid_t spawn_fctrace(char *const argv[], const struct spawn_opts *o);

/* The exit status, or 128 + the signal that ended it; -1 on error. */
int wait_exit(pid_t pid);

/* Run argv to its end; its exit status, its stderr in err (NUL-ended). */
int run_fctrace(char *const argv[], const struct spawn_opts *o, char *err, size_t len);
/* The same, with its stdout in out too (NUL-ended, cut at outlen - 1). */
int run_fctrace_out(char *const argv[], const struct spawn_opts *o, char *out, size_t outlen,
		    char *err, size_t errlen);

#endif
