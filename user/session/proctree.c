/*
 * proctree.c - the processes of a server at attach: the ones listed and
 * their descendants already running, found by their parent in /proc.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "session/proctree.h"

pid_t proctree_ppid(pid_t pid)
{
	char path[64], buf[512], *p;
	int ppid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (!(f = fopen(path, "re")))
		return -1;
	/* after "pid (comm)", where comm may hold ')' and spaces: state ppid */
	p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
	fclose(f);
	if (!p || sscanf(p + 1, " %*c %d", &ppid) != 1)
		return -1;
	return (pid_t)ppid;
}

static int has(const struct proctree *pt, pid_t pid)
{
	for (int i = 0; i < pt->n; i++)
		if (pt->pids[i] == pid)
			return 1;
	return 0;
}

static int take_one(struct proctree *pt, pid_t pid, proctree_add_fn add, void *arg)
{
	pid_t *p;

	if (has(pt, pid))
		return 0;
	if (add && add(arg, pid)) {
		pt->full++;
		return 0;
	}
	if (pt->n == pt->cap) {
		p = realloc(pt->pids, (size_t)(pt->cap ? pt->cap * 2 : 16) * sizeof(*p));
		if (!p)
			return -ENOMEM;
		pt->pids = p;
		pt->cap = pt->cap ? pt->cap * 2 : 16;
	}
	pt->pids[pt->n++] = pid;
	return 1;
}

/* One pass over /proc: the processes whose parent is taken in. Returns
 * how many were new, or -ENOMEM. */
static int scan_children(struct proctree *pt, proctree_add_fn add, void *arg)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int added = 0, r;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);

		if (*end || pid <= 0 || has(pt, (pid_t)pid) || !has(pt, proctree_ppid((pid_t)pid)))
			continue;
		if ((r = take_one(pt, (pid_t)pid, add, arg)) < 0) {
			added = r;
			break;
		}
		added += r;
	}
	closedir(d);
	return added;
}

int proctree_take(struct proctree *pt, const pid_t *roots, int n, int descendants,
		  proctree_add_fn add, void *arg)
{
	int r = 0;

	memset(pt, 0, sizeof(*pt));
	for (int i = 0; i < n; i++)
		if ((r = take_one(pt, roots[i], add, arg)) < 0)
			return r;
	pt->nroots = pt->n;
	while (descendants && (r = scan_children(pt, add, arg)) > 0)
		;
	return descendants && r < 0 ? r : 0;
}

void proctree_free(struct proctree *pt)
{
	free(pt->pids);
	memset(pt, 0, sizeof(*pt));
}
