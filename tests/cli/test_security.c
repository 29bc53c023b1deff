/*
 * test_security.c - what a root fctrace promises about its data
 * directory, tried as an unprivileged user (nobody, in a forked child)
 * would: the data directory, or --dir itself, swapped for a look-alike
 * full of links to a root-only file before the files are made, during
 * the run and before cleanup opens, changes and removes nothing outside
 * fctrace's own directory; a --dir below a directory another user may
 * write is refused; files moved or replaced in the data directory are
 * removed by identity; a dead run's directory is reaped and nothing
 * else; a failed run says so in one line; tmpfs cannot be cold; a full
 * disk is called full.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <cmocka.h>
#include "binutil.h"
#include "testutil.h"
#include "wl_internal.h"

#define NOBODY 65534
#define NFILES 6

static bool require_root(void)
{
	if (geteuid() == 0)
		return true;
	print_message("skip: needs root (to act as nobody and to mount tmpfs)\n");
	return false;
}

static void sh(const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	assert_int_equal(system(cmd), 0);
}

static void write_file(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_CREAT | O_EXCL | O_WRONLY, mode);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static unsigned count_entries(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	unsigned n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		n += !strncmp(e->d_name, prefix, strlen(prefix));
	closedir(d);
	return n;
}

/* The one fctrace.* entry in dir, or "" */
static void find_data_dir(const char *dir, char *name, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	name[0] = '\0';
	assert_non_null(d);
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "fctrace.", 8))
			snprintf(name, len, "%.63s", e->d_name);
	closedir(d);
}

/* ---- the swap ---------------------------------------------------------- */

enum moment { BEFORE_FILES, DURING_RUN, BEFORE_CLEANUP };
enum target { SWAP_DATA_DIR, SWAP_DIR_ARG };

struct swap {
	char root[256];		/* T: the test's, root 0755 */
	char above[300];	/* T/a: handed to nobody at the moment */
	char dir[320];		/* T/a/p: --dir */
	char victim[300];	/* T/victim: root's, 0600 */
	char decoy[600];	/* the look-alike nobody puts in place */
	enum moment when;
	enum target what;
	int ino;		/* inotify on the victim */
	bool swapped;
};

/* As nobody, in a child: move the real directory away and put a
 * look-alike in its place whose data files are links to the victim. */
static void nobody_swaps(struct swap *s, const char *data_name)
{
	char from[512], to[512], link[700];
	pid_t pid;

	if (s->what == SWAP_DATA_DIR) {
		snprintf(from, sizeof(from), "%s/%s", s->dir, data_name);
		snprintf(to, sizeof(to), "%s/away", s->dir);
		snprintf(s->decoy, sizeof(s->decoy), "%s", from);
	} else {
		snprintf(from, sizeof(from), "%s", s->dir);
		snprintf(to, sizeof(to), "%s.away", s->dir);
		snprintf(s->decoy, sizeof(s->decoy), "%s/%s", s->dir, data_name);
	}
	/* an ancestor that changes hands after fctrace checked the path */
	assert_int_equal(chown(s->what == SWAP_DATA_DIR ? s->dir : s->above, NOBODY, NOBODY), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int ok = !setresgid(NOBODY, NOBODY, NOBODY) && !setresuid(NOBODY, NOBODY, NOBODY) &&
			 !rename(from, to);

		if (ok && s->what == SWAP_DIR_ARG)
			ok = !mkdir(s->dir, 0755);
		ok = ok && !mkdir(s->decoy, 0700);
		for (int i = 0; ok && i < NFILES; i++) {
			snprintf(link, sizeof(link), "%s/f%06d", s->decoy, i);
			ok = !symlink(s->victim, link);
		}
		_exit(ok ? 0 : 1);
	}
	assert_int_equal(wait_exit(pid), 0);
	s->swapped = true;
}

static void swap_now(struct swap *s, enum moment m)
{
	char name[64];

	if (s->when != m || s->swapped)
		return;
	find_data_dir(s->dir, name, sizeof(name));
	assert_true(name[0]);
	nobody_swaps(s, name);
}

static void at_dir_made(void *arg, const char *data_dir)
{
	swap_now(arg, BEFORE_FILES);
}

static int at_window_open(void *arg, const struct wl_thread_stats *t, unsigned n)
{
	swap_now(arg, DURING_RUN);
	return 0;
}

static void at_window_close(void *arg)
{
	swap_now(arg, BEFORE_CLEANUP);
}

static void swap_setup(struct swap *s)
{
	char *t = test_dir_make();

	assert_non_null(t);
	memset(s, 0, sizeof(*s));
	snprintf(s->root, sizeof(s->root), "%s", t);
	free(t);
	assert_int_equal(chmod(s->root, 0755), 0);	/* nobody may pass through */
	snprintf(s->above, sizeof(s->above), "%s/a", s->root);
	snprintf(s->dir, sizeof(s->dir), "%s/p", s->above);
	snprintf(s->victim, sizeof(s->victim), "%s/victim", s->root);
	assert_int_equal(mkdir(s->above, 0755), 0);
	assert_int_equal(mkdir(s->dir, 0755), 0);
	write_file(s->victim, "precious", 0600);
	s->ino = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	assert_true(s->ino >= 0);
	assert_true(inotify_add_watch(s->ino, s->victim, IN_ALL_EVENTS) >= 0);
}

/* Nothing touched the victim or the look-alike; fctrace's own directory
 * (moved away) holds none of its files any more. */
static void swap_check(struct swap *s)
{
	char buf[4096] __attribute__((aligned(8))), real[512];
	ssize_t n = read(s->ino, buf, sizeof(buf));
	int fd;

	if (n > 0) {
		const struct inotify_event *e = (const void *)buf;

		fail_msg("the victim was touched (inotify mask %#x) by a swap %s", e->mask,
			 s->when == BEFORE_FILES ? "before the files" :
			 s->when == DURING_RUN ? "during the run" : "before cleanup");
	}
	assert_true(s->swapped);
	fd = open(s->victim, O_RDONLY);
	assert_int_equal(read(fd, buf, sizeof(buf)), 8);
	assert_memory_equal(buf, "precious", 8);
	close(fd);
	assert_int_equal(count_entries(s->decoy, "f0"), NFILES);	/* links left alone */
	if (s->what == SWAP_DATA_DIR)
		snprintf(real, sizeof(real), "%s/away", s->dir);
	else
		snprintf(real, sizeof(real), "%s.away/%s", s->dir, strrchr(s->decoy, '/') + 1);
	assert_int_equal(count_entries(real, "f0"), 0);
	assert_int_equal(count_entries(real, ".fctrace"), 0);
	close(s->ino);
	sh("rm -rf '%s'", s->root);
}

static void test_swap(void **state)
{
	static const char *const wls[] = { "fc", "fcp", "bcache" };

	if (!require_root())
		skip();
	for (int what = SWAP_DATA_DIR; what <= SWAP_DIR_ARG; what++)
		for (int when = BEFORE_FILES; when <= BEFORE_CLEANUP; when++)
			for (int w = 0; w < 3; w++) {
				struct swap s;
				struct wl_config cfg;
				struct wl_result res;
				struct wl_hooks hooks = {
					.window_open = at_window_open,
					.window_close = at_window_close,
					.arg = &s, .dir_made = at_dir_made,
				};

				swap_setup(&s);
				s.when = (enum moment)when;
				s.what = (enum target)what;
				wl_config_defaults(&cfg);
				cfg.workload = wls[w];
				cfg.dir = s.dir;
				cfg.files = NFILES;
				cfg.pool = 2;
				cfg.threads = 2;
				cfg.ops = 500;
				/* every op reads fctrace's own files, swap or not */
				assert_int_equal(wl_run(&cfg, NULL, &hooks, &res), 0);
				wl_result_free(&res);
				swap_check(&s);
			}
}

/* ---- the path above --dir ----------------------------------------------- */

static void test_unsafe_ancestor_refused(void **state)
{
	char *t = test_dir_make(), u[512], x[600], err[1024], want[1200];
	char *argv[] = { (char *)fctrace_binary(), "run", "--workload", "fc", "--ops", "50",
			 "--no-bpf", "--quiet", "--dir", x, NULL };
	struct wl_config cfg;
	struct wl_result res;

	if (!require_root())
		skip();
	snprintf(u, sizeof(u), "%s/u", t);
	snprintf(x, sizeof(x), "%s/x", u);
	assert_int_equal(mkdir(u, 0755), 0);
	assert_int_equal(mkdir(x, 0755), 0);
	assert_int_equal(chown(u, NOBODY, NOBODY), 0);		/* nobody's, above root's x */
	assert_int_equal(run_fctrace(argv, NULL, err, sizeof(err)), 2);
	snprintf(want, sizeof(want), "fctrace: --dir %s: %s: belongs to uid %d, not to root "
		 "or to you\n", x, u, NOBODY);
	assert_string_equal(err, want);
	assert_int_equal(chown(u, 0, 0), 0);
	assert_int_equal(chmod(u, 0775), 0);			/* group-writable */
	assert_int_equal(run_fctrace(argv, NULL, err, sizeof(err)), 2);
	assert_non_null(strstr(err, "is writable by others without the sticky bit"));
	assert_non_null(strstr(err, u));
	wl_config_defaults(&cfg);				/* the library refuses too */
	cfg.dir = x;
	cfg.ops = 10;
	assert_int_equal(wl_run(&cfg, NULL, NULL, &res), -EINVAL);
	wl_result_free(&res);
	assert_int_equal(count_entries(x, "fctrace."), 0);
	assert_int_equal(chmod(u, 01777), 0);			/* sticky, root's: as /tmp */
	assert_int_equal(run_fctrace(argv, NULL, err, sizeof(err)), 0);
	assert_int_equal(count_entries(x, ""), 2);		/* . and .. */
	sh("rm -rf '%s'", t);
	free(t);
}

/* ---- removal by identity ------------------------------------------------ */

static char moved_dir[512];

/* mv D/f000005 D/keep; echo x >D/f000005, just before cleanup */
static void replace_one(void *arg)
{
	char name[64], a[700], b[700];

	find_data_dir(arg, name, sizeof(name));
	snprintf(moved_dir, sizeof(moved_dir), "%s/%s", (char *)arg, name);
	snprintf(a, sizeof(a), "%s/f000005", moved_dir);
	snprintf(b, sizeof(b), "%s/keep", moved_dir);
	assert_int_equal(rename(a, b), 0);
	write_file(a, "x\n", 0644);
}

static void test_cleanup_by_identity(void **state)
{
	char *t = test_dir_make(), path[700], buf[8] = { 0 };
	struct wl_hooks hooks = { .window_close = replace_one, .arg = t };
	struct wl_config cfg;
	struct wl_result res;
	int fd;

	wl_config_defaults(&cfg);
	cfg.workload = "fc";
	cfg.dir = t;
	cfg.files = NFILES;
	cfg.ops = 100;
	assert_int_equal(wl_run(&cfg, NULL, &hooks, &res), 0);
	wl_result_free(&res);
	/* its own file, renamed, is gone; the replacement is not its own */
	snprintf(path, sizeof(path), "%s/keep", moved_dir);
	assert_int_not_equal(access(path, F_OK), 0);
	snprintf(path, sizeof(path), "%s/f000005", moved_dir);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(read(fd, buf, sizeof(buf)), 2);
	close(fd);
	assert_string_equal(buf, "x\n");
	assert_int_equal(count_entries(moved_dir, ""), 3);	/* ., .., f000005 */
	sh("rm -rf '%s'", t);
	free(t);
}

/* ---- stale directories -------------------------------------------------- */

static pid_t hold_live_dir(const char *path)
{
	int ready[2];
	pid_t pid;
	char c;

	assert_int_equal(pipe(ready), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char mark[1000];
		int fd;

		snprintf(mark, sizeof(mark), "%s/%s", path, WL_OWNER_MARK);
		if (mkdir(path, 0700) || (fd = open(mark, O_CREAT | O_RDWR, 0600)) < 0 ||
		    flock(fd, LOCK_EX))
			_exit(1);
		(void)!write(ready[1], "r", 1);
		pause();
		_exit(0);
	}
	close(ready[1]);
	assert_int_equal(read(ready[0], &c, 1), 1);
	close(ready[0]);
	return pid;
}

/* A run killed by SIGKILL once its data directory is complete. */
static void leave_dead_dir(const char *dir)
{
	char *argv[] = { (char *)fctrace_binary(), "run", "--workload", "fc", "--files",
			 "3", "--ops", "100000000", "--threads", "1", "--no-bpf", "--quiet",
			 "--dir", (char *)dir, NULL };
	pid_t pid = spawn_fctrace(argv, NULL);
	char name[64], path[700];

	for (int tries = 0; tries < 5000; tries++) {
		find_data_dir(dir, name, sizeof(name));
		snprintf(path, sizeof(path), "%s/%s/f000002", dir, name);
		if (name[0] && !access(path, F_OK))
			break;
		usleep(2000);
	}
	usleep(100 * 1000);
	kill(pid, SIGKILL);
	assert_int_equal(wait_exit(pid), 128 + SIGKILL);
}

static void test_stale_dirs_reaped(void **state)
{
	char *t = test_dir_make(), dead[64], p[900], q[1000], err[1024];
	char *argv[] = { (char *)fctrace_binary(), "run", "--workload", "fc", "--ops", "50",
			 "--no-bpf", "--quiet", "--dir", t, NULL };
	pid_t live;

	if (!require_root())
		skip();
	leave_dead_dir(t);
	find_data_dir(t, dead, sizeof(dead));
	assert_true(dead[0]);
	snprintf(p, sizeof(p), "%s/%s/%s", t, dead, WL_OWNER_MARK);
	assert_int_equal(access(p, F_OK), 0);
	/* a look-alike without the marker, holding a data-file name */
	snprintf(p, sizeof(p), "%s/fctrace.NoMark", t);
	assert_int_equal(mkdir(p, 0700), 0);
	snprintf(q, sizeof(q), "%s/f000000", p);
	write_file(q, "mine", 0600);
	/* nobody's look-alike, marker and all, unlocked */
	snprintf(p, sizeof(p), "%s/fctrace.Nobody", t);
	assert_int_equal(mkdir(p, 0700), 0);
	snprintf(q, sizeof(q), "%s/%s", p, WL_OWNER_MARK);
	write_file(q, "", 0600);
	assert_int_equal(chown(q, NOBODY, NOBODY), 0);
	assert_int_equal(chown(p, NOBODY, NOBODY), 0);
	/* a live owner's */
	snprintf(p, sizeof(p), "%s/fctrace.LiveOn", t);
	live = hold_live_dir(p);

	assert_int_equal(run_fctrace(argv, NULL, err, sizeof(err)), 0);
	snprintf(q, sizeof(q), "fctrace: removed 1 data directory left in %s by runs that "
		 "died\n", t);
	assert_string_equal(err, q);
	snprintf(p, sizeof(p), "%s/%s", t, dead);
	assert_int_not_equal(access(p, F_OK), 0);
	snprintf(p, sizeof(p), "%s/fctrace.NoMark/f000000", t);
	assert_int_equal(access(p, F_OK), 0);
	snprintf(p, sizeof(p), "%s/fctrace.Nobody/%s", t, WL_OWNER_MARK);
	assert_int_equal(access(p, F_OK), 0);
	snprintf(p, sizeof(p), "%s/fctrace.LiveOn/%s", t, WL_OWNER_MARK);
	assert_int_equal(access(p, F_OK), 0);
	assert_int_equal(count_entries(t, "fctrace."), 3);
	/* the next run is quiet: nothing left to reap while the owner lives */
	assert_int_equal(run_fctrace(argv, NULL, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	kill(live, SIGKILL);
	wait_exit(live);
	sh("rm -rf '%s'", t);
	free(t);
}

/* ---- a failed run ------------------------------------------------------- */

/* Wait (inotify) for the data directory's last file to be made, then
 * rename every data file away inside it: each op's open fails. */
static void files_vanish(const char *dir, pid_t pid)
{
	int ino = inotify_init1(IN_CLOEXEC);
	char name[64], path[700], to[720];

	assert_true(inotify_add_watch(ino, dir, IN_CREATE) >= 0);
	do {
		find_data_dir(dir, name, sizeof(name));
		if (!name[0]) {
			char ev[512];

			assert_true(read(ino, ev, sizeof(ev)) > 0);
		}
	} while (!name[0]);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	for (int tries = 0; tries < 100000; tries++) {
		snprintf(to, sizeof(to), "%s/f000001", path);
		if (!access(to, F_OK))
			break;
		usleep(200);
	}
	for (int i = 0; i < 2; i++) {
		char from[720];

		snprintf(from, sizeof(from), "%s/f%06d", path, i);
		snprintf(to, sizeof(to), "%s/moved%d", path, i);
		assert_int_equal(rename(from, to), 0);
	}
	close(ino);
}

static void test_failed_run_one_line(void **state)
{
	char *t = test_dir_make(), *out = test_dir_make(), json[600], html[600];
	char err[2048] = { 0 }, so[256] = { 0 };
	char *argv[] = { (char *)fctrace_binary(), "run", "--workload", "fc", "--files", "2",
			 "--file-size", "64M", "--ops", "300", "--threads", "2", "--no-bpf",
			 "--dir", t, "--json", json, "--html", html, NULL };
	int efd[2], ofd[2];
	struct spawn_opts o = { .uid = -1 };
	pid_t pid;
	ssize_t n;

	snprintf(json, sizeof(json), "%s/r.json", out);
	snprintf(html, sizeof(html), "%s/r.html", out);
	assert_int_equal(pipe(efd), 0);
	assert_int_equal(pipe(ofd), 0);
	o.errfd = efd[1];
	o.outfd = ofd[1];
	pid = spawn_fctrace(argv, &o);
	close(efd[1]);
	close(ofd[1]);
	files_vanish(t, pid);
	assert_int_equal(wait_exit(pid), 1);
	n = read(efd[0], err, sizeof(err) - 1);
	assert_true(n > 0);
	assert_string_equal(err, "fctrace: fc: 600 of 600 operations failed (first: No such "
			    "file or directory)\n");
	assert_int_equal(read(ofd[0], so, sizeof(so)), 0);	/* no table at all */
	close(efd[0]);
	close(ofd[0]);
	assert_int_not_equal(access(json, F_OK), 0);
	assert_int_not_equal(access(html, F_OK), 0);
	assert_true(test_dir_is_empty(t));	/* its moved files found by identity */
	test_dir_remove(t);
	test_dir_remove(out);
}

/* ---- filesystems -------------------------------------------------------- */

static char *mount_tmpfs(const char *size)
{
	char *m = test_dir_make(), opts[64];

	snprintf(opts, sizeof(opts), "size=%s,mode=0755", size);
	if (mount("tmpfs", m, "tmpfs", 0, opts)) {
		fail_msg("mounting a tmpfs on %s: %s", m, strerror(errno));
	}
	return m;
}

static void unmount(char *m)
{
	assert_int_equal(umount(m), 0);
	test_dir_remove(m);
}

/* An overlay on tmpfs is not tmpfs by its type, but its pages stay all
 * the same: the mincore check after dropping file 0 catches it. */
static void overlay_cold_refused(const char *m)
{
	char opts[1024], o[300], err[1024];
	char *argv[] = { (char *)fctrace_binary(), "run", "--workload", "fc", "--files", "4",
			 "--ops", "50", "--cache", "cold", "--no-bpf", "--quiet", "--dir", o,
			 NULL };

	sh("mkdir %s/l %s/u %s/w %s/o", m, m, m, m);
	snprintf(o, sizeof(o), "%s/o", m);
	snprintf(opts, sizeof(opts), "lowerdir=%s/l,upperdir=%s/u,workdir=%s/w", m, m, m);
	if (mount("overlay", o, "overlay", 0, opts)) {
		print_message("note: no overlayfs here (%s): its check not run\n", strerror(errno));
		sh("rm -rf %s/l %s/u %s/w %s/o", m, m, m, m);
		return;
	}
	assert_int_equal(chmod(o, 0755), 0);
	assert_int_equal(run_fctrace(argv, NULL, err, sizeof(err)), 2);
	assert_non_null(strstr(err, "its pages stay in memory after being dropped"));
	assert_true(test_dir_is_empty(o));
	assert_int_equal(umount(o), 0);
	sh("rm -rf %s/l %s/u %s/w %s/o", m, m, m, m);
}

static void test_tmpfs_cold_refused(void **state)
{
	char *m, err[1024], want[1200];
	char *argv[] = { (char *)fctrace_binary(), "run", "--workload", "fc", "--files", "4",
			 "--ops", "50", "--cache", "cold", "--no-bpf", "--quiet", "--dir", NULL,
			 NULL };
	struct wl_config cfg;
	struct wl_result res;

	if (!require_root())
		skip();
	m = mount_tmpfs("16m");
	argv[13] = m;
	assert_int_equal(run_fctrace(argv, NULL, err, sizeof(err)), 2);
	snprintf(want, sizeof(want), "fctrace: --dir %s: is on tmpfs, whose pages stay in "
		 "memory: --cache cold cannot drop them; give a --dir on a disk filesystem\n", m);
	assert_string_equal(err, want);
	argv[8] = "--pressure";
	argv[9] = "1000";
	assert_int_equal(run_fctrace(argv, NULL, err, sizeof(err)), 2);
	assert_non_null(strstr(err, "--pressure cannot drop them"));
	wl_config_defaults(&cfg);
	cfg.dir = m;
	cfg.cache = WL_CACHE_COLD;
	assert_int_equal(wl_run(&cfg, NULL, NULL, &res), -EINVAL);
	wl_result_free(&res);
	assert_true(test_dir_is_empty(m));
	cfg.cache = WL_CACHE_WARM;			/* warm is what tmpfs is */
	cfg.ops = 100;
	assert_int_equal(wl_run(&cfg, NULL, NULL, &res), 0);
	wl_result_free(&res);
	overlay_cold_refused(m);
	unmount(m);
}

static char *filler_dir;

/* Fill the disk after the space check, before the files: ENOSPC */
static void fill_disk(void *arg, const char *data_dir)
{
	char path[600], buf[65536] = { 0 };
	int fd;

	snprintf(path, sizeof(path), "%s/filler", filler_dir);
	fd = open(path, O_CREAT | O_WRONLY, 0600);
	assert_true(fd >= 0);
	while (write(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
}

static void test_enospc(void **state)
{
	char *m, err[1024], want[1200], path[600];
	char *argv[] = { (char *)fctrace_binary(), "run", "--workload", "fc", "--files", "50",
			 "--ops", "50", "--no-bpf", "--quiet", "--dir", NULL, NULL };
	struct wl_hooks hooks = { .dir_made = fill_disk };
	struct wl_config cfg;
	struct wl_result res;

	if (!require_root())
		skip();
	m = mount_tmpfs("2m");
	argv[11] = m;
	assert_int_equal(run_fctrace(argv, NULL, err, sizeof(err)), 2);
	snprintf(want, sizeof(want), "fctrace: --dir %s: no space for the data files: they "
		 "need 4.9 MiB, 2.0 MiB is free (fewer --files or a smaller --file-size)\n", m);
	assert_string_equal(err, want);
	assert_true(test_dir_is_empty(m));
	argv[5] = "10";					/* 1 MiB: fits */
	assert_int_equal(run_fctrace(argv, NULL, err, sizeof(err)), 0);
	assert_true(test_dir_is_empty(m));
	wl_config_defaults(&cfg);
	cfg.dir = m;
	cfg.files = 10;
	filler_dir = m;
	assert_int_equal(wl_run(&cfg, NULL, &hooks, &res), -ENOSPC);
	wl_result_free(&res);
	snprintf(path, sizeof(path), "%s/filler", m);
	assert_int_equal(unlink(path), 0);
	assert_true(test_dir_is_empty(m));
	unmount(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_swap),
		cmocka_unit_test(test_unsafe_ancestor_refused),
		cmocka_unit_test(test_cleanup_by_identity),
		cmocka_unit_test(test_stale_dirs_reaped),
		cmocka_unit_test(test_failed_run_one_line),
		cmocka_unit_test(test_tmpfs_cold_refused),
		cmocka_unit_test(test_enospc),
	};

	if (require_fctrace_binary("test_security"))
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
