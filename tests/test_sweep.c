/*
 * test_sweep.c - the sweep driver (no root: --no-bpf): a cell that could
 * not run stays out of the sweep, so the reporters never see an empty one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "cli/commands.h"
#include "report/sweep_print.h"
#include "testutil.h"

/* fctrace sweep on a --dir that does not exist: the first cell fails. */
static void test_failed_cell_is_left_out(void **state)
{
	char line[] = "fctrace sweep --no-bpf --workload fcp,fc --files 1,2 --threads 1 "
		      "--ops 10 --dir /nonexistent/fctrace-test-sweep";
	char *argv[24], *save = NULL;
	struct options o;
	struct sweep_settings set;
	struct sweep sw;
	FILE *out = tmpfile();
	char *dir = test_dir_make(), csv[600];
	int argc = 0;

	for (char *t = strtok_r(line, " ", &save); t && argc < 23; t = strtok_r(NULL, " ", &save))
		argv[argc++] = t;
	argv[argc] = NULL;
	assert_non_null(out);
	assert_int_equal(options_parse(argc, argv, &o), 0);
	set = cli_sweep_settings(&o);
	assert_int_not_equal(sweep_run(&set, &sw), 0);
	assert_int_equal(sw.n, 0);
	/* these used to strcmp the failed cell's NULL workload */
	sweep_print_table(out, &sw);
	sweep_print_findings(out, &sw);
	snprintf(csv, sizeof(csv), "%s/sweep.csv", dir);	/* not /dev/null: refused */
	assert_int_equal(sweep_write_csv(&sw, csv), 0);
	unlink(csv);
	test_dir_remove(dir);
	sweep_free(&sw);
	fclose(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_failed_cell_is_left_out),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
