/*
 * as_target.c - run file work with a target's credentials (as_target.h).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "base/as_target.h"

/* "Uid:\treal\teffective\tsaved\tfs": the second field */
static int second_id(const char *line, unsigned long *out)
{
	unsigned long real, eff;

	if (sscanf(line, "%lu %lu", &real, &eff) != 2)
		return -1;
	*out = eff;
	return 0;
}

static void read_groups(const char *list, struct target_cred *c)
{
	char *end;

	c->ngroups = 0;
	while (c->ngroups < AS_TARGET_MAX_GROUPS) {
		unsigned long g = strtoul(list, &end, 10);

		if (end == list)
			break;
		c->groups[c->ngroups++] = (gid_t)g;
		list = end;
	}
}

int target_cred_of(pid_t pid, struct target_cred *c)
{
	char path[64], line[1024];
	unsigned long id;
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (!(f = fopen(path, "re")))
		return -errno;
	memset(c, 0, sizeof(*c));
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Uid:", 4) && !second_id(line + 4, &id)) {
			c->uid = (uid_t)id;
			found |= 1;
		} else if (!strncmp(line, "Gid:", 4) && !second_id(line + 4, &id)) {
			c->gid = (gid_t)id;
			found |= 2;
		} else if (!strncmp(line, "Groups:", 7)) {
			read_groups(line + 7, c);
		}
	}
	fclose(f);
	return found == 3 ? 0 : -ESRCH;
}

void target_cred_plain(struct target_cred *c, uid_t uid, gid_t gid)
{
	memset(c, 0, sizeof(*c));
	c->uid = uid;
	c->gid = gid;
}

struct job {
	const struct target_cred *c;
	int (*fn)(void *);
	void *arg;
	int rc;
};

/* This thread only: its own umask, then the target's ids (groups and
 * gid first, while it may still change them). */
static int become(const struct target_cred *c)
{
	if (unshare(CLONE_FS))
		return -errno;
	umask(077);
	if (geteuid() != 0)	/* not root: only our own files, as we are */
		return c->uid == geteuid() ? 0 : -EPERM;
	if (syscall(SYS_setgroups, (size_t)c->ngroups, c->groups) ||
	    syscall(SYS_setresgid, c->gid, c->gid, c->gid) ||
	    syscall(SYS_setresuid, c->uid, c->uid, c->uid))
		return -errno;
	return 0;
}

static void *run_job(void *arg)
{
	struct job *j = arg;

	j->rc = become(j->c);
	if (!j->rc)
		j->rc = j->fn(j->arg);
	return NULL;
}

int as_target(const struct target_cred *c, int (*fn)(void *), void *arg)
{
	struct job j = { .c = c, .fn = fn, .arg = arg, .rc = -EAGAIN };
	pthread_t t;
	int err;

	if ((err = pthread_create(&t, NULL, run_job, &j)))
		return -err;
	pthread_join(t, NULL);
	return j.rc;
}
