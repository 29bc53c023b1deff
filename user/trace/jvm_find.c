/*
 * jvm_find.c - where a JVM's libjvm.so is: mapped in a running process,
 * or beside the java launcher a command will exec.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "trace/jvm.h"

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && !strcmp(s + n - t, tail);
}

static int copy_out(const char *s, char *path, size_t len)
{
	if (strlen(s) >= len)
		return -ENAMETOOLONG;
	memcpy(path, s, strlen(s) + 1);
	return 0;
}

int jvm_find_libjvm(pid_t pid, char *path, size_t len)
{
	char maps[64], line[PATH_MAX + 128];
	int err = -ENOENT;
	FILE *f;

	snprintf(maps, sizeof(maps), "/proc/%d/maps", (int)pid);
	f = fopen(maps, "re");
	if (!f)
		return errno == ENOENT ? -ESRCH : -errno;
	while (err == -ENOENT && fgets(line, sizeof(line), f)) {
		char *p = strchr(line, '/');

		line[strcspn(line, "\n")] = '\0';
		if (p && ends_with(p, "/libjvm.so"))
			err = copy_out(p, path, len);
	}
	fclose(f);
	return err;
}

/* exe as execvp finds it: itself if it has a '/', else the first
 * executable of that name in PATH. */
static int search_path(const char *exe, char *out, size_t len)
{
	const char *path = getenv("PATH"), *p;

	if (strchr(exe, '/'))
		return copy_out(exe, out, len);
	for (p = path ? path : "/usr/local/bin:/usr/bin:/bin"; *p; ) {
		size_t n = strcspn(p, ":");

		if (n && (size_t)snprintf(out, len, "%.*s/%s", (int)n, p, exe) < len &&
		    access(out, X_OK) == 0)
			return 0;
		p += n + (p[n] == ':');
	}
	return -ENOENT;
}

/* Where a JDK's launcher (.../bin/java) keeps libjvm.so, relative to its bin/. */
static const char *const layouts[] = {
	"../lib/server/libjvm.so",		/* JDK 9 and later */
	"../lib/client/libjvm.so",
	"../jre/lib/amd64/server/libjvm.so",	/* JDK 8 */
	"../lib/amd64/server/libjvm.so",	/* JDK 8's jre/bin/java */
};

int jvm_libjvm_for_exe(const char *exe, char *path, size_t len)
{
	char found[PATH_MAX], real[PATH_MAX], cand[PATH_MAX + 64], lib[PATH_MAX];
	char *slash;
	int err = search_path(exe, found, sizeof(found));

	if (err)
		return err;
	if (!realpath(found, real))
		return -errno;
	slash = strrchr(real, '/');
	*slash = '\0';		/* realpath's result is absolute: there is one */
	for (size_t i = 0; i < sizeof(layouts) / sizeof(*layouts); i++) {
		snprintf(cand, sizeof(cand), "%s/%s", real, layouts[i]);
		if (realpath(cand, lib))
			return copy_out(lib, path, len);
	}
	return -ENOENT;
}
