/*
 * preflight.c - checks before any work: an output that cannot be
 * written, a --dir fctrace cannot safely own (or too full for the data,
 * or on tmpfs for a cold cache), or a file-descriptor limit too low for
 * the largest run would otherwise fail only after the run (or in the
 * middle of it, with the probes attached).
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include "base/outfile.h"
#include "base/sudo_caller.h"
#include "cli/option_table.h"
#include "cli/preflight.h"

static int refuse(const char *opt, const char *path, const char *why)
{
	fprintf(stderr, "fctrace: %s %s: %s\n", opt, path, why);
	return 2;
}

/* An output file: "-" (stdout), an existing writable file, or a new
 * file in an existing writable directory. Nothing is created here.
 * Access is checked with the effective ids, as the open will be. */
int preflight_output(const char *opt, const char *path)
{
	char buf[PATH_MAX];
	const char *dir;
	struct stat st;

	if (!path || !strcmp(path, "-"))
		return 0;
	if (!*path)
		return refuse(opt, "''", "must name a file");
	if (!stat(path, &st)) {
		if (S_ISDIR(st.st_mode))
			return refuse(opt, path, "is a directory");
		if (faccessat(AT_FDCWD, path, W_OK, AT_EACCESS))
			return refuse(opt, path, strerror(errno));
		return 0;
	}
	if (errno != ENOENT)
		return refuse(opt, path, strerror(errno));
	if (path[strlen(path) - 1] == '/')
		return refuse(opt, path, "names a directory, not a file");
	if (strlen(path) >= sizeof(buf))
		return refuse(opt, path, "path too long");
	strcpy(buf, path);
	dir = dirname(buf);	/* "." for a bare name: not always buf itself */
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return refuse(opt, path, "its directory does not exist");
	if (faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS))
		return refuse(opt, path, "its directory is not writable");
	return 0;
}

/* Where an output will land: the file itself if it exists, else its
 * directory and name (so "out.json" and "./out.json" are one file). */
struct out_id {
	dev_t dev;
	ino_t ino;
	bool exists;
	char name[NAME_MAX + 1];
};

static void out_id(const char *path, struct out_id *id)
{
	char dir[PATH_MAX], base[PATH_MAX];
	struct stat st;

	memset(id, 0, sizeof(*id));
	if (!stat(path, &st)) {
		id->exists = true;
	} else {
		snprintf(dir, sizeof(dir), "%s", path);
		snprintf(base, sizeof(base), "%s", path);
		snprintf(id->name, sizeof(id->name), "%s", basename(base));
		if (stat(dirname(dir), &st))
			return;
	}
	id->dev = st.st_dev;
	id->ino = st.st_ino;
}

static bool same_file(const char *a, const char *b)
{
	struct out_id ia, ib;

	if (!strcmp(a, "-") || !strcmp(b, "-"))
		return !strcmp(a, b);
	out_id(a, &ia);
	out_id(b, &ib);
	return ia.exists == ib.exists && ia.dev == ib.dev && ia.ino == ib.ino &&
	       !strcmp(ia.name, ib.name);
}

/* Two outputs naming one file (or both standard output) would overwrite
 * or interleave each other. */
/* Two output options naming one file (or both standard output). */
static int same_output(const struct opt_row *ra, const struct opt_row *rb,
		       const struct options *o)
{
	const char *a = opt_output(ra, o), *b = opt_output(rb, o);
	char a_opt[40], why[64];

	if (!a || !b || !same_file(a, b))
		return 0;
	snprintf(a_opt, sizeof(a_opt), "%s", opt_dashed(ra));	/* opt_dashed's buffer is one */
	snprintf(why, sizeof(why), "is also the %s %s", opt_dashed(rb),
		 strcmp(a, "-") ? "file" : "output (standard output)");
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

/* The largest value of a list, which need not ascend ("100,10") */
static uint64_t list_max(const struct numlist *l, uint64_t dflt)
{
	uint64_t most = l->n ? 0 : dflt;

	for (unsigned i = 0; i < l->n; i++)
		if (l->v[i] > most)
			most = l->v[i];
	return most;
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

/* --dir: a secure path (the whole of it), room for the largest data set
 * this command makes, and pages a cold cache or pressure can drop. */
static int check_dir(const struct options *o)
{
	struct wl_config c = o->wl;
	char why[200];
	int fd, err;

	c.files = (unsigned)list_max(&o->files, c.files);
	if ((fd = wl_dir_open(o->wl.dir, why, sizeof(why))) < 0)
		return refuse("--dir", o->wl.dir ? o->wl.dir : "''", why);
	err = wl_dir_fit_check(fd, &c, why, sizeof(why));
	close(fd);
	return err ? refuse("--dir", o->wl.dir, why) : 0;
}

/* run -- CMD as root under sudo runs CMD as sudo's caller: SUDO_UID,
 * SUDO_GID and SUDO_USER must say who that is exactly, or nothing runs
 * (read loosely, "abc" or "4294967296" ran CMD as root). */
int preflight_sudo(const struct options *o)
{
	struct sudo_caller c;
	char why[320];

	if (o->target.mode != TGT_EXEC || o->target.as_root || getuid() != 0 || !getenv("SUDO_UID"))
		return 0;
	if (!sudo_caller_from_env(&c, why, sizeof(why)))
		return 0;
	fprintf(stderr, "fctrace: %s: CMD would not run as sudo's caller (--as-root runs it "
		"as root)\n", why);
	return 2;
}

/* Every output file the line names (the table's OPT_OUTPUT rows): each
 * one writable, and no two of them the same file. */
static int check_outputs(const struct options *o)
{
	int rc;

	for (int i = 0; i < opt_nrows; i++)
		if ((opt_rows[i].flags & OPT_OUTPUT) &&
		    (rc = preflight_output(opt_dashed(&opt_rows[i]), opt_output(&opt_rows[i], o))))
			return rc;
	for (int i = 0; i < opt_nrows; i++)
		if ((opt_rows[i].flags & OPT_OUTPUT) &&
		    (rc = outfile_check(opt_dashed(&opt_rows[i]), opt_output(&opt_rows[i], o))))
			return rc;
	for (int i = 0; i < opt_nrows; i++)
		for (int j = i + 1; j < opt_nrows; j++)
			if ((opt_rows[i].flags & opt_rows[j].flags & OPT_OUTPUT) &&
			    (rc = same_output(&opt_rows[i], &opt_rows[j], o)))
				return rc;
	return 0;
}

int preflight(const struct options *o)
{
	int rc;

	if (o->cmd == CMD_LIST)
		return 0;
	if ((rc = preflight_sudo(o)))
		return rc;
	if ((rc = check_outputs(o)))
		return rc;
	if (o->target.mode != TGT_NONE || o->cmd == CMD_REPORT || o->cmd == CMD_DIFF)
		return 0;	/* no data directory, no workload fds */
	if ((rc = check_dir(o)))
		return rc;
	return preflight_fds(fds_needed(o));
}
