/*
 * as_target.h - file work in a target's filesystem done with the
 * target's own credentials, never root's.
 *
 * A target's owner decides what its /tmp and cwd are (its own mount
 * namespace, a symlink, a bind mount over /etc): whatever fctrace
 * creates, opens or removes there by path must be what that user could
 * do alone. fn runs on a short-lived thread whose credentials (raw
 * setgroups/setresgid/setresuid: per thread in Linux, unlike glibc's,
 * which change every thread) and umask (CLONE_FS unshared) are the
 * target's; fctrace's other threads keep root. Nothing it creates is
 * root's, nothing it follows reaches further than the target could.
 */
#ifndef FCTRACE_AS_TARGET_H
#define FCTRACE_AS_TARGET_H

#include <stdbool.h>
#include <sys/types.h>

#define AS_TARGET_MAX_GROUPS	64

/* Whose credentials: the effective ids and supplementary groups. */
struct target_cred {
	uid_t uid;
	gid_t gid;
	gid_t groups[AS_TARGET_MAX_GROUPS];
	int ngroups;
};

/* The effective uid, gid and groups of process pid (/proc/PID/status):
 * 0 or -errno. */
int target_cred_of(pid_t pid, struct target_cred *c);
/* uid and gid with no supplementary groups (a command fctrace runs as
 * the user who called sudo gets that user's groups from run_as). */
void target_cred_plain(struct target_cred *c, uid_t uid, gid_t gid);

/* fn(arg) on a thread with c's credentials and umask 077: what fn
 * returns, or -errno when the thread could not be made (or could not
 * take them: fctrace is not root and c is not its own). */
int as_target(const struct target_cred *c, int (*fn)(void *), void *arg);

#endif /* FCTRACE_AS_TARGET_H */
