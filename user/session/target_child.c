/*
 * target_child.c - run -- CMD's child (target_int.h): who it runs as -
 * under sudo the caller, with the caller's groups, never root again -,
 * forked and held before its exec while the probes load, let go inside
 * the window, or abandoned when fctrace gives up first.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "session/target_int.h"
#include "base/signals.h"
#include "base/sudo_caller.h"
#include "base/termsafe.h"

/* 0, or -1 after one line: a SUDO_* value that is not strictly an id
 * (sudo_caller.h) is refused, never read as root. preflight.c said so
 * already; this is the same check where the ids are used. */
int run_as_caller(const struct target_opts *to, struct run_as *ra)
{
	struct sudo_caller c;
	char why[320], shown[160];
	int n = 0;

	ra->ngroups = -1;
	if (to->as_root || getuid() != 0)
		return 0;
	if (sudo_caller_from_env(&c, why, sizeof(why))) {
		fprintf(stderr, "fctrace: %s\n", why);
		return -1;
	}
	if (!c.set || c.uid == 0)
		return 0;
	ra->uid = c.uid;
	ra->gid = c.gid;
	ra->ngroups = 0;	/* no SUDO_USER: no supplementary groups */
	if (!c.user[0])
		return 0;
	getgrouplist(c.user, c.gid, NULL, &n);	/* -1, and n set to how many */
	if (n < 1 || !(ra->groups = calloc((size_t)n, sizeof(gid_t))) ||
	    getgrouplist(c.user, c.gid, ra->groups, &n) < 0) {
		fprintf(stderr, "fctrace: cannot list the groups of SUDO_USER %s\n",
			term_safe(shown, sizeof(shown), c.user));
		return -1;
	}
	ra->ngroups = n;
	return 0;
}

static int become(const struct run_as *ra)
{
	if (ra->ngroups < 0)
		return 0;
	if (setgroups((size_t)ra->ngroups, ra->groups) || setgid(ra->gid) || setuid(ra->uid))
		return -1;
	/* no way back: a uid that could be regained was not dropped */
	if (setuid(0) == 0) {
		errno = EPERM;
		return -1;
	}
	return 0;
}

/* The child: wait for the go byte, then become CMD. Its exec failure
 * goes back through err_fd (close-on-exec: EOF means it ran). */
static void child_main(int go_fd, int err_fd, const struct target_opts *to,
		       const struct run_as *ra, const char *jvm_env)
{
	char go;
	int err;

	if (read(go_fd, &go, 1) != 1)
		_exit(127);	/* fctrace gave up before the probes were ready */
	close(go_fd);
	signals_restore_for_exec();	/* the caller's dispositions and mask, as exec gives them */
	if ((jvm_env && setenv("JAVA_TOOL_OPTIONS", jvm_env, 1)) ||
	    (to->debuginfod_urls && setenv("DEBUGINFOD_URLS", to->debuginfod_urls, 1))) {
		err = errno;
		(void)!write(err_fd, &err, sizeof(err));
		_exit(126);
	}
	if (become(ra)) {
		err = errno;
		(void)!write(err_fd, &err, sizeof(err));
		_exit(126);
	}
	execvp(to->argv[0], to->argv);
	err = errno;
	(void)!write(err_fd, &err, sizeof(err));
	_exit(err == ENOENT ? 127 : 126);
}


int child_spawn(const struct target_opts *to, const struct run_as *ra, const char *jvm_env,
		struct child *c)
{
	int go[2], err[2];

	if (pipe2(go, O_CLOEXEC) || pipe2(err, O_CLOEXEC))
		return -errno;
	c->pid = fork();
	if (c->pid < 0)
		return -errno;
	if (c->pid == 0) {
		close(go[1]);
		close(err[0]);
		child_main(go[0], err[1], to, ra, jvm_env);
	}
	close(go[0]);
	close(err[1]);
	c->go_fd = go[1];
	c->err_fd = err[0];
	return 0;
}

/* Let the child exec; 0 when CMD runs, else the errno of its exec. */
int child_release(struct child *c)
{
	int err = 0;

	(void)!write(c->go_fd, "g", 1);
	close(c->go_fd);
	if (read(c->err_fd, &err, sizeof(err)) != (ssize_t)sizeof(err))
		err = 0;
	close(c->err_fd);
	return err;
}

void child_abandon(struct child *c)
{
	close(c->go_fd);	/* EOF: the child exits without exec */
	close(c->err_fd);
	waitpid(c->pid, NULL, 0);
}

void child_note_status(struct target_info *ti, int status)
{
	ti->exited = true;
	if (WIFSIGNALED(status))
		ti->term_signal = WTERMSIG(status);
	else
		ti->exit_status = WEXITSTATUS(status);
}
