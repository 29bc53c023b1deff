/*
 * progwalk.c - the fctrace programs this process holds (see progwalk.h).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "progwalk.h"

/* Is fd a BPF program's? Its /proc link says so. */
static int is_prog_fd(const char *fdname)
{
	char link[300], target[64];
	ssize_t l;

	snprintf(link, sizeof(link), "/proc/self/fd/%s", fdname);
	l = readlink(link, target, sizeof(target) - 1);
	if (l < 0)
		return 0;
	target[l] = '\0';
	return !strcmp(target, "anon_inode:bpf-prog");
}

int fct_progs_each(fct_prog_fn fn, void *arg)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		struct bpf_prog_info info = { 0 };
		__u32 len = sizeof(info);
		int fd = atoi(de->d_name);

		if (!is_prog_fd(de->d_name) || bpf_obj_get_info_by_fd(fd, &info, &len) ||
		    strncmp(info.name, "fct_", 4))
			continue;
		if (fn)
			fn(fd, &info, arg);
		n++;
	}
	closedir(d);
	return n;
}
