/*
 * binutil.c - running the fctrace binary from a test (binutil.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "binutil.h"

const char *fctrace_binary(void)
{
	const char *b = getenv("FCTRACE_BIN");

	return b ? b : "./fctrace";
}

int require_fctrace_binary(const char *test)
{
	if (!access(fctrace_binary(), X_OK))
		return 0;
	fprintf(stderr, "%s: %s: %s (build fctrace first)\n", test, fctrace_binary(),
		strerror(errno));
	return 1;
}

pid_t spawn_fctrace(char *const argv[], const struct spawn_opts *o)
{
	pid_t pid = fork();

	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(o && o->outfd > 0 ? o->outfd : null, STDOUT_FILENO);
		if (o && o->outfd == SPAWN_STDOUT_CLOSED)
			close(STDOUT_FILENO);
		if (o && o->cwd && chdir(o->cwd))
			_exit(96);
		if (o && o->errfd >= 0)
			dup2(o->errfd, STDERR_FILENO);
		if (o && o->nofile && setrlimit(RLIMIT_NOFILE, o->nofile))
			_exit(97);
		if (o && o->as && setrlimit(RLIMIT_AS, o->as))
			_exit(97);
		if (o && o->uid >= 0 && (setgid((gid_t)o->uid) || setuid((uid_t)o->uid)))
			_exit(99);
		execv(argv[0], argv);
		_exit(98);
	}
	return pid;
}

int wait_exit(pid_t pid)
{
	int st;

	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* All of f, from its start, into buf (NUL-ended). */
static void read_back(FILE *f, char *buf, size_t len)
{
	size_t n;

	rewind(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
}

int run_fctrace_out(char *const argv[], const struct spawn_opts *o, char *out, size_t outlen,
		    char *err, size_t errlen)
{
	struct spawn_opts so = o ? *o : (struct spawn_opts){ .uid = -1 };
	FILE *ferr = tmpfile(), *fout = out ? tmpfile() : NULL;
	int rc = -1;

	if (!ferr || (out && !fout))
		goto done;
	so.errfd = fileno(ferr);
	if (fout)
		so.outfd = fileno(fout);
	rc = wait_exit(spawn_fctrace(argv, &so));
	read_back(ferr, err, errlen);
	if (fout)
		read_back(fout, out, outlen);
done:
	if (ferr)
		fclose(ferr);
	if (fout)
		fclose(fout);
	return rc;
}

int run_fctrace(char *const argv[], const struct spawn_opts *o, char *err, size_t len)
{
	return run_fctrace_out(argv, o, NULL, 0, err, len);
}
