/*
 * test_bpf_binaries.c - programs whose file is not where maps says, as
 * a service's is after an upgrade or in a container, attached to as
 * root: tests/target_prog serve (a static mutex held with a thread
 * asleep on it, "ready", and on at a line on stdin), run
 *   - from a copy deleted after it started,
 *   - from a tmpfs mounted in its own mount namespace (unshare -m) that
 *     fctrace's namespace does not see,
 *   - as nobody, from a copy it may run but not read (mode 0711), whose
 *     path is then swapped for a FIFO or for a symlink to a root-only
 *     file: no hang, nothing read through the path, the program named
 *     object@offset, and the report says why.
 * The first two are named as if they were on disk: the lock by its
 * symbol, the call sites with lines.
 */
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include "bpfutil.h"
#include "session/session.h"

#define NOBODY	65534

/* Copy the test program to path, mode 0755 (or mode). */
static void copy_prog(const char *path, mode_t mode)
{
	char cmd[8300];

	snprintf(cmd, sizeof(cmd), "cp '%s' '%s' && chmod %o '%s'", target_prog(), path,
		 (unsigned)mode, path);
	assert_int_equal(system(cmd), 0);
}

enum how { PLAIN, OWN_MOUNT, AS_NOBODY };

/* what the child runs, and how */
struct serve_how {
	const char *path, *dir;
	enum how how;
};

/* The child: its namespace and user as how says, then exec path serve. */
static void child(void *arg)
{
	const struct serve_how *h = arg;

	if (h->how == OWN_MOUNT) {
		if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    mount("tmpfs", h->dir, "tmpfs", 0, "size=16m"))
			_exit(126);
		copy_prog(h->path, 0755);
	}
	if (h->how == AS_NOBODY && (setgid(NOBODY) || setuid(NOBODY)))
		_exit(126);
	execl(h->path, h->path, "serve", "200", (char *)NULL);
	_exit(127);
}

static void serve_start(struct gated *sv, const char *path, const char *dir, enum how how)
{
	struct serve_how h = { path, dir, how };

	gated_start_fn(sv, child, &h);
}

static void attach(struct gated *sv, struct session *s)
{
	struct trace_opts t = { .probes = PG_FULL };
	struct target_opts to = { .mode = TGT_ATTACH, .pid = sv->pid, .on_window = gated_go,
				  .window_arg = sv };

	assert_int_equal(session_run_target(&t, &to, s), 0);
	assert_true(s->target.exited);
	gated_end(sv);
}

static bool lock_has(const struct session *s, const char *text)
{
	if (getenv("TEST_VERBOSE"))
		for (int i = 0; i < s->joined.nlocks; i++)
			print_message("lock: %s\n", s->joined.locks[i].name);
	for (int i = 0; i < s->joined.nlocks; i++)
		if (!s->joined.locks[i].kernel && strstr(s->joined.locks[i].name, text))
			return true;
	return false;
}

static bool site_has(const struct session *s, const char *text)
{
	for (int i = 0; i < s->nnames; i++)
		if (strstr(s->names[i].site, text))
			return true;
	return false;
}

/* Named as on disk: the lock by its symbol, its waiter's call site with
 * its line. */
static void assert_named_as_on_disk(const struct session *s)
{
	assert_true(lock_has(s, "session_table_lock (mutex)"));
	assert_true(site_has(s, "static_waiter+0x"));
	assert_true(site_has(s, "(target_prog.c:"));
	assert_string_equal(s->target.unsymbolised, "");
}

static void test_deleted_binary(void **state)
{
	char dir[] = "/tmp/fctrace-bin.XXXXXX", path[64];
	struct gated sv;
	struct session s;

	BPF_TEST_REQUIRE();
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/s2-up", dir);
	copy_prog(path, 0755);
	serve_start(&sv, path, dir, PLAIN);
	assert_int_equal(unlink(path), 0);	/* the upgrade removed it */
	attach(&sv, &s);
	assert_named_as_on_disk(&s);
	rmdir(dir);
	session_free(&s);
}

static void test_own_mount_namespace(void **state)
{
	char dir[] = "/tmp/fctrace-ns.XXXXXX", path[64];
	struct gated sv;
	struct session s;
	struct stat st;

	BPF_TEST_REQUIRE();
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/s2", dir);
	serve_start(&sv, path, dir, OWN_MOUNT);
	assert_int_equal(stat(path, &st), -1);	/* not in fctrace's namespace */
	attach(&sv, &s);
	assert_named_as_on_disk(&s);
	rmdir(dir);
	session_free(&s);
}

/* nobody runs a copy it cannot read; its path then becomes swap_to. */
static void run_only_swapped(const char *swap_to)
{
	char dir[] = "/tmp/fctrace-ro.XXXXXX", path[64], tmp[80];
	const char *secret = "/tmp/fctrace-secret";
	struct gated sv;
	struct session s;

	assert_non_null(mkdtemp(dir));
	assert_int_equal(chmod(dir, 0755), 0);
	assert_int_equal(chown(dir, NOBODY, NOBODY), 0);
	snprintf(path, sizeof(path), "%s/tp", dir);
	copy_prog(path, 0711);				/* root's, run-only for nobody */
	serve_start(&sv, path, dir, AS_NOBODY);
	snprintf(tmp, sizeof(tmp), "%s/swap", dir);
	if (!strcmp(swap_to, "fifo")) {
		assert_int_equal(mkfifo(tmp, 0666), 0);
	} else {
		FILE *f = fopen(secret, "w");

		assert_non_null(f);
		fputs("SECRET-not-for-nobody\n", f);
		fclose(f);
		assert_int_equal(chmod(secret, 0600), 0);
		assert_int_equal(symlink(secret, tmp), 0);
	}
	assert_int_equal(rename(tmp, path), 0);		/* the owner's swap */
	attach(&sv, &s);
	if (getenv("TEST_VERBOSE"))
		print_message("unsym '%s' names %d threads %d traced %d\n", s.target.unsymbolised,
			      s.nnames, s.kv.nthreads, s.traced);
	/* named while it ran: its owner may not read it; named after it exited
	 * (the lock's sampled stacks arrive late on a busy machine): its
	 * mapping was gone. Either way as tp@offset, with the reason, and
	 * never from the file its path now names. */
	if (lock_has(&s, "tp@0x"))
		assert_true(strstr(s.target.unsymbolised, "tp (deleted): its owner may run it but "
				   "not read it") ||
			    strstr(s.target.unsymbolised, "tp (deleted): its mapping was gone"));
	else
		print_message("note: no call site in tp was sampled in this run\n");
	assert_false(lock_has(&s, "session_table_lock"));	/* its symbols stay unread */
	assert_false(lock_has(&s, "SECRET"));
	unlink(path);
	unlink(secret);
	rmdir(dir);
	session_free(&s);
}

static void test_run_only_swapped_for_fifo(void **state)
{
	BPF_TEST_REQUIRE();
	run_only_swapped("fifo");
}

static void test_run_only_swapped_for_symlink(void **state)
{
	BPF_TEST_REQUIRE();
	run_only_swapped("symlink");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deleted_binary),
		cmocka_unit_test(test_own_mount_namespace),
		cmocka_unit_test(test_run_only_swapped_for_fifo),
		cmocka_unit_test(test_run_only_swapped_for_symlink),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
