/*
 * preflight.c - checks before any work: an output that cannot be
 * written, a --dir fctrace cannot safely own, or a file-descriptor limit
 * too low for the largest run would otherwise fail only after the run
 * (or in the middle of it, with the probes attached).
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include "preflight.h"

static int refuse(const char *opt, const char *path, const char *why)
{
	fprintf(stderr, "fctrace: %s %s: %s\n", opt, path, why);
	return 2;
}

/* An output file: "-" (stdout), an existing writable file, or a new
 * file in an existing writable directory. Nothing is created here. */
int preflight_output(const char *opt, const char *path)
{
	char dir[PATH_MAX];
	struct stat st;

	if (!path || !strcmp(path, "-"))
		return 0;
	if (!*path)
		return refuse(opt, "''", "must name a file");
	if (!stat(path, &st)) {
		if (S_ISDIR(st.st_mode))
			return refuse(opt, path, "is a directory");
		return access(path, W_OK) ? refuse(opt, path, strerror(errno)) : 0;
	}
	if (errno != ENOENT)
		return refuse(opt, path, strerror(errno));
	if (strlen(path) >= sizeof(dir))
		return refuse(opt, path, "path too long");
	strcpy(dir, path);
	if (stat(dirname(dir), &st) || !S_ISDIR(st.st_mode))
		return refuse(opt, path, "its directory does not exist");
	if (access(dir, W_OK | X_OK))
		return refuse(opt, path, "its directory is not writable");
	return 0;
}

static int same_output(const char *a_opt, const char *a, const char *b_opt, const char *b)
{
	char why[64];

	if (!a || !b || !strcmp(a, "-") || strcmp(a, b))
		return 0;
	snprintf(why, sizeof(why), "is also the %s file", b_opt);
	return refuse(a_opt, a, why);
}

/* Raise the soft RLIMIT_NOFILE to cover needed fds, or refuse. */
int preflight_fds(uint64_t needed)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return 0;	/* unknown: let the run find out */
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < needed) {
		if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < needed) {
			fprintf(stderr, "fctrace: this run needs %llu file descriptors but "
				"RLIMIT_NOFILE's hard limit is %llu (raise it: ulimit -Hn), or use "
				"fewer --files/--pool/--threads\n", (unsigned long long)needed,
				(unsigned long long)rl.rlim_max);
			return 2;
		}
		rl.rlim_cur = needed;
		if (setrlimit(RLIMIT_NOFILE, &rl)) {
			fprintf(stderr, "fctrace: raising RLIMIT_NOFILE to %llu: %s\n",
				(unsigned long long)needed, strerror(errno));
			return 2;
		}
	}
	return 0;
}

static uint64_t list_max(const struct numlist *l, uint64_t dflt)
{
	return l->n ? l->v[l->n - 1] : dflt;	/* lists are ascending */
}

/* The most fds any run of this command holds: every workload it runs at
 * its largest file set and thread count. */
static uint64_t fds_needed(const struct options *o)
{
	struct wl_config c = o->wl;
	uint64_t most = 0, n;

	c.files = (unsigned)list_max(&o->files, c.files);
	c.threads = (unsigned)list_max(&o->threads, c.threads);
	for (unsigned i = 0; i <= o->nworkloads; i++) {
		c.workload = i < o->nworkloads ? o->workloads[i] : o->compare_with;
		if (c.workload && (n = wl_fds_needed(&c)) > most)
			most = n;
	}
	return most + PREFLIGHT_FD_RESERVE;
}

int preflight(const struct options *o)
{
	char why[160];
	int rc;

	if (o->cmd == CMD_LIST)
		return 0;
	if ((rc = preflight_output("--json", o->json)) ||
	    (rc = preflight_output("--csv", o->csv)) ||
	    (rc = preflight_output("--html", o->html)) ||
	    (rc = same_output("--json", o->json, "--csv", o->csv)) ||
	    (rc = same_output("--json", o->json, "--html", o->html)) ||
	    (rc = same_output("--csv", o->csv, "--html", o->html)))
		return rc;
	if (wl_dir_check(o->wl.dir, why, sizeof(why)))
		return refuse("--dir", o->wl.dir, why);
	return preflight_fds(fds_needed(o));
}
