/*
 * sudo_caller.h - who called sudo, from SUDO_UID, SUDO_GID and SUDO_USER,
 * read strictly: `run -- CMD` under sudo runs CMD as that user, so a value
 * read loosely ("abc", "4294967296", "65534abc") must never turn into a
 * silent run as root or as someone else.
 */
#ifndef FCTRACE_SUDO_CALLER_H
#define FCTRACE_SUDO_CALLER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct sudo_caller {
	bool set;		/* SUDO_UID is there: CMD is to run as uid */
	uid_t uid;		/* 0: root called sudo, nothing to drop */
	gid_t gid;
	char user[256];		/* SUDO_USER, "" when unset */
};

/* The caller from these values (the environment's, or NULL when unset):
 * a uid is decimal digits only (no sign, space, leading zero or
 * anything after), at most 4294967294 ((uid_t)-1 is no one); a gid the
 * same; SUDO_GID must be there when SUDO_UID is; SUDO_USER, when set,
 * must name a passwd entry with that uid. 0, or -1 with why (one line,
 * the values shown escaped). c->set is false when uid_s is NULL. */
int sudo_caller_parse(const char *uid_s, const char *gid_s, const char *user,
		      struct sudo_caller *c, char *why, size_t n);
/* The same from SUDO_UID, SUDO_GID and SUDO_USER. */
int sudo_caller_from_env(struct sudo_caller *c, char *why, size_t n);

#endif
