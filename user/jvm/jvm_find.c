/*
 * jvm_find.c - where a JVM's libjvm.so is: mapped in a running process,
 * or beside the java launcher a command will exec.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "jvm/jvm.h"
#include "base/tfile.h"

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

int jvm_open_libjvm(pid_t pid)
{
	char maps[64], line[PATH_MAX + 128];
	int fd = -ENOENT;
	FILE *f;

	snprintf(maps, sizeof(maps), "/proc/%d/maps", (int)pid);
	f = fopen(maps, "re");
	if (!f)
		return errno == ENOENT ? -ESRCH : -errno;
	/* the name only tells which mapping is libjvm; the file is the one
	 * mapped, through map_files, never the name */
	while (fd == -ENOENT && fgets(line, sizeof(line), f)) {
		struct tmap m;

		line[strcspn(line, "\n")] = '\0';
		if (tfile_parse_maps(line, &m) || !m.ino || !ends_with(m.name, "/libjvm.so"))
			continue;
		fd = tfile_open_mapped(pid, &m, NULL);
		if (fd >= 0 && !tfile_is_elf(fd)) {
			close(fd);
			fd = -ENOEXEC;
		}
	}
	fclose(f);
	return fd;
}

int jvm_open_path(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY);
	struct stat st;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || !tfile_is_elf(fd)) {
		close(fd);
		return -ENOEXEC;
	}
	return fd;
}

void jvm_fd_name(int fd, char *buf, size_t len)
{
	snprintf(buf, len, "/proc/self/fd/%d", fd);
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
