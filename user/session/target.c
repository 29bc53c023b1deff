/*
 * target.c - the checks on a target before anything is loaded, and how
 * its end is reported.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "session/target.h"

int target_exit_status(const struct target_info *ti)
{
	if (ti->term_signal)
		return 128 + ti->term_signal;
	return ti->exit_status;
}

int target_creds(pid_t pid, uid_t *uid, gid_t *gid)
{
	char path[64], line[256];
	unsigned long u, g;
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (!(f = fopen(path, "re")))
		return -1;
	while (found != 3 && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Uid: %lu", &u) == 1)
			found |= 1;
		else if (sscanf(line, "Gid: %lu", &g) == 1)
			found |= 2;
	}
	fclose(f);
	if (found != 3)
		return -1;
	*uid = (uid_t)u;
	*gid = (gid_t)g;
	return 0;
}

/* PF_KTHREAD in /proc/PID/stat's flags (the 9th field). */
#define PF_KTHREAD	0x00200000u

static int is_kernel_thread(pid_t pid)
{
	char path[64], buf[512], *p;
	unsigned flags = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
	fclose(f);
	/* after "pid (comm)": state ppid pgrp session tty tpgid flags */
	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %u", &flags) != 1)
		return 0;
	return (flags & PF_KTHREAD) != 0;
}

/* The state letter of /proc/PID[/task/TID]/stat ('Z': a zombie), or 0. */
static char stat_state(const char *path)
{
	char buf[512], *p, st = 0;
	FILE *f = fopen(path, "re");

	if (!f)
		return 0;
	p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
	fclose(f);
	if (!p || sscanf(p + 1, " %c", &st) != 1)
		return 0;
	return st;
}

/* Threads of pid that have not exited (not zombies, not dead). */
static int live_threads(pid_t pid)
{
	char path[300];
	struct dirent *d;
	int n = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if (!(dir = opendir(path)))
		return 0;
	while ((d = readdir(dir))) {
		char st;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/stat", (int)pid, d->d_name);
		st = stat_state(path);
		n += st && st != 'Z' && st != 'X';
	}
	closedir(dir);
	return n;
}

/* A zombie has nothing left to trace: refused. A leader that exited
 * while its other threads run is traced through them, and says so. */
static int check_zombie(pid_t pid)
{
	char path[64];
	int live;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (stat_state(path) != 'Z')
		return 0;
	live = live_threads(pid);
	if (!live) {
		fprintf(stderr, "fctrace: -p %d is a zombie: it has exited and waits for its "
			"parent to reap it; nothing to trace\n", (int)pid);
		return 2;
	}
	fprintf(stderr, "fctrace: -p %d: its main thread has exited (a zombie); its %d live "
		"thread%s traced\n", (int)pid, live, live == 1 ? " is" : "s are");
	return 0;
}

static int check_attach(pid_t pid)
{
	char path[64];

	if (pid <= 0) {
		fprintf(stderr, "fctrace: -p needs a process id above 0\n");
		return 2;
	}
	if (pid == getpid()) {
		fprintf(stderr, "fctrace: -p %d is fctrace itself\n", (int)pid);
		return 2;
	}
	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	if (access(path, F_OK)) {
		fprintf(stderr, "fctrace: -p %d: no such process\n", (int)pid);
		return 2;
	}
	if (is_kernel_thread(pid)) {
		fprintf(stderr, "fctrace: -p %d is a kernel thread: it has no user space to "
			"profile\n", (int)pid);
		return 2;
	}
	return check_zombie(pid);
}

int target_check(const struct target_opts *opts)
{
	int rc;

	if (opts->mode == TGT_ATTACH && opts->npids > 1) {
		for (int i = 0; i < opts->npids; i++)
			if ((rc = check_attach(opts->pids[i])))
				return rc;
		return 0;
	}
	if (opts->mode == TGT_ATTACH)
		return check_attach(opts->pid);
	if (opts->mode == TGT_EXEC && (!opts->argv || !opts->argv[0] || !opts->argv[0][0])) {
		fprintf(stderr, "fctrace: run -- needs a command after --\n");
		return 2;
	}
	return 0;
}
