/*
 * sudo_caller.c - SUDO_UID, SUDO_GID and SUDO_USER read strictly
 * (sudo_caller.h). strtoul would take "", "abc", "-0", "0x10" and
 * "4294967296" (as 0: root), and " 65534" or "65534abc" as 65534.
 */
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/sudo_caller.h"
#include "base/termsafe.h"

#define ID_MAX	(UINT32_MAX - 1)	/* (uid_t)-1 means "no change" to setuid */

/* Decimal digits only, no leading zero, at most ID_MAX. */
static bool parse_id(const char *s, uint32_t *out)
{
	uint64_t v = 0;
	size_t len = strlen(s);

	if (!len || len > 10 || (s[0] == '0' && len > 1))
		return false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (v > ID_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

static int refuse(char *why, size_t n, const char *var, const char *value, const char *what)
{
	char shown[64];

	snprintf(why, n, "%s=\"%s\" %s", var, term_safe(shown, sizeof(shown), value), what);
	return -1;
}

int sudo_caller_parse(const char *uid_s, const char *gid_s, const char *user,
		      struct sudo_caller *c, char *why, size_t n)
{
	static const char not_id[] = "is not an id (decimal digits, at most 4294967294)";
	struct passwd *pw;
	uint32_t uid, gid;

	memset(c, 0, sizeof(*c));
	if (!uid_s)
		return 0;
	if (!parse_id(uid_s, &uid))
		return refuse(why, n, "SUDO_UID", uid_s, not_id);
	if (!gid_s)
		return snprintf(why, n, "SUDO_UID is set but SUDO_GID is not"), -1;
	if (!parse_id(gid_s, &gid))
		return refuse(why, n, "SUDO_GID", gid_s, not_id);
	if (user && (!*user || strlen(user) >= sizeof(c->user)))
		return refuse(why, n, "SUDO_USER", user, "is not a user name");
	if (user && (!(pw = getpwnam(user)) || pw->pw_uid != uid)) {
		char what[96];

		if (pw)
			snprintf(what, sizeof(what), "names uid %u, not SUDO_UID %u",
				 (unsigned)pw->pw_uid, uid);
		else
			snprintf(what, sizeof(what), "is not in the passwd database");
		return refuse(why, n, "SUDO_USER", user, what);
	}
	c->set = true;
	c->uid = uid;
	c->gid = gid;
	if (user)
		strcpy(c->user, user);
	return 0;
}

int sudo_caller_from_env(struct sudo_caller *c, char *why, size_t n)
{
	return sudo_caller_parse(getenv("SUDO_UID"), getenv("SUDO_GID"), getenv("SUDO_USER"),
				 c, why, n);
}
