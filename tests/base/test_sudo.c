/*
 * test_sudo.c - SUDO_UID, SUDO_GID and SUDO_USER, which decide who
 * `run -- CMD` runs CMD as under sudo, read strictly: the parser alone
 * (no root), then the binary as root with each malformed value the
 * issue found (abc, "", 0x10, -0, 4294967296 and friends, a SUDO_USER of
 * another uid): exit 2, one line, before anything loads, and CMD never
 * runs (it would have made a file). A good caller still gets CMD as its
 * own uid; --as-root still runs it as root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "base/sudo_caller.h"
#include "binutil.h"
#include "bpfutil.h"
#include "testutil.h"

#define NOBODY	65534

static const char *const bad_ids[] = {
	"abc", "", "0x10", "-0", "+1", "4294967296", "4294967295", "18446744073709551616",
	"65534abc", " 65534", "65534 ", "065534", "1e3", "65534\n", "\x1b[31m",
};

static void test_parse_ids(void **state)
{
	struct sudo_caller c;
	char why[256];

	for (size_t i = 0; i < sizeof(bad_ids) / sizeof(*bad_ids); i++) {
		if (sudo_caller_parse(bad_ids[i], "65534", NULL, &c, why, sizeof(why)) != -1)
			fail_msg("SUDO_UID \"%s\" taken as %u", bad_ids[i], (unsigned)c.uid);
		assert_non_null(strstr(why, "SUDO_UID"));
		assert_null(strchr(why, '\n'));
		assert_null(strchr(why, '\x1b'));
		if (sudo_caller_parse("65534", bad_ids[i], NULL, &c, why, sizeof(why)) != -1)
			fail_msg("SUDO_GID \"%s\" taken as %u", bad_ids[i], (unsigned)c.gid);
		assert_non_null(strstr(why, "SUDO_GID"));
	}
	assert_int_equal(sudo_caller_parse("65534", "65534", NULL, &c, why, sizeof(why)), 0);
	assert_true(c.set);
	assert_int_equal(c.uid, 65534);
	assert_int_equal(c.gid, 65534);
	assert_int_equal(sudo_caller_parse("4294967294", "0", NULL, &c, why, sizeof(why)), 0);
	assert_int_equal(c.uid, 4294967294u);
	assert_int_equal(sudo_caller_parse("0", "0", "root", &c, why, sizeof(why)), 0);
	assert_int_equal(c.uid, 0);		/* root called sudo: nothing to drop */
	assert_int_equal(sudo_caller_parse(NULL, NULL, NULL, &c, why, sizeof(why)), 0);
	assert_false(c.set);			/* not under sudo */
	assert_int_equal(sudo_caller_parse("65534", NULL, NULL, &c, why, sizeof(why)), -1);
	assert_string_equal(why, "SUDO_UID is set but SUDO_GID is not");
}

static void test_parse_user(void **state)
{
	struct sudo_caller c;
	char why[256];

	assert_int_equal(sudo_caller_parse("65534", "65534", "nobody", &c, why, sizeof(why)), 0);
	assert_string_equal(c.user, "nobody");
	assert_int_equal(sudo_caller_parse("65534", "65534", "root", &c, why, sizeof(why)), -1);
	assert_string_equal(why, "SUDO_USER=\"root\" names uid 0, not SUDO_UID 65534");
	assert_int_equal(sudo_caller_parse("1000", "1000", "no-such-user-here", &c, why,
					   sizeof(why)), -1);
	assert_non_null(strstr(why, "is not in the passwd database"));
	assert_int_equal(sudo_caller_parse("65534", "65534", "", &c, why, sizeof(why)), -1);
}

/* ---- the binary, as root ------------------------------------------------ */

static char *saved[3];
static const char *const vars[] = { "SUDO_UID", "SUDO_GID", "SUDO_USER" };

static void set_sudo(const char *uid, const char *gid, const char *user)
{
	const char *v[] = { uid, gid, user };

	for (int i = 0; i < 3; i++)
		if (v[i])
			setenv(vars[i], v[i], 1);
		else
			unsetenv(vars[i]);
}

/* `fctrace run -q -- touch MARK` with these SUDO_* is refused: exit 2,
 * one line that names var, and MARK never made. */
static void assert_refused(const char *dir, const char *uid, const char *gid, const char *user,
			   const char *var)
{
	char mark[600], err[1024];
	char *argv[] = { (char *)fctrace_binary(), "run", "-q", "--", "/usr/bin/touch", mark, NULL };
	int rc;

	snprintf(mark, sizeof(mark), "%s/ran", dir);
	set_sudo(uid, gid, user);
	rc = run_fctrace(argv, NULL, err, sizeof(err));
	set_sudo(NULL, NULL, NULL);
	if (rc != 2 || strncmp(err, "fctrace: ", 9) || !strstr(err, var) ||
	    strchr(err, '\n') != err + strlen(err) - 1)
		fail_msg("SUDO_UID=\"%s\" SUDO_GID=\"%s\": exit %d, stderr '%s'", uid ? uid : "(unset)",
			 gid ? gid : "(unset)", rc, err);
	if (!access(mark, F_OK))
		fail_msg("SUDO_UID=\"%s\" SUDO_GID=\"%s\": CMD ran", uid, gid ? gid : "(unset)");
}

static void test_malformed_refused(void **state)
{
	char *dir;

	if (geteuid() != 0 || require_fctrace_binary("test_malformed_refused")) {
		if (bpf_test_required())
			fail_msg("root required");
		skip();
	}
	dir = test_dir_make();
	for (size_t i = 0; i < sizeof(bad_ids) / sizeof(*bad_ids); i++) {
		assert_refused(dir, bad_ids[i], "65534", NULL, "SUDO_UID");
		assert_refused(dir, "65534", bad_ids[i], NULL, "SUDO_GID");
	}
	assert_refused(dir, "65534", NULL, NULL, "SUDO_GID");
	assert_refused(dir, "65534", "65534", "root", "SUDO_USER");
	assert_refused(dir, "0", "0", "nobody", "SUDO_USER");
	assert_refused(dir, "65534", "65534", "no-such-user-here", "SUDO_USER");
	assert_true(test_dir_is_empty(dir));
	test_dir_remove(dir);
}

/* A well-formed caller: CMD runs as that uid; --as-root keeps root. */
static void test_good_caller(void **state)
{
	char *argv[] = { (char *)fctrace_binary(), "run", "-q", "--", "/usr/bin/id", "-u", NULL };
	char *as_root[] = { (char *)fctrace_binary(), "run", "-q", "--as-root", "--", "/usr/bin/id",
			    "-u", NULL };
	char out[64], err[1024];

	if (geteuid() != 0)
		skip();
	BPF_TEST_REQUIRE();
	set_sudo("65534", "65534", "nobody");
	assert_int_equal(run_fctrace_out(argv, NULL, out, sizeof(out), err, sizeof(err)), 0);
	assert_string_equal(out, "65534\n");
	set_sudo("abc", "abc", "x");
	assert_int_equal(run_fctrace_out(as_root, NULL, out, sizeof(out), err, sizeof(err)), 0);
	assert_string_equal(out, "0\n");
	set_sudo(NULL, NULL, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_ids),
		cmocka_unit_test(test_parse_user),
		cmocka_unit_test(test_malformed_refused),
		cmocka_unit_test(test_good_caller),
	};
	int rc;

	for (int i = 0; i < 3; i++)	/* the test may itself run under sudo */
		if (getenv(vars[i]))
			saved[i] = strdup(getenv(vars[i]));
	set_sudo(NULL, NULL, NULL);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	set_sudo(saved[0], saved[1], saved[2]);
	return rc;
}
