/*
 * test_sweep.c - the sweep driver (no root: --no-bpf): a cell that could
 * not run stays out of the sweep, so the reporters never see an empty one;
 * --repeat runs the matrix in rounds and keeps each round's wall.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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

static void parse_sweep(char *line, struct options *o)
{
	char *argv[24], *save = NULL;
	int argc = 0;

	for (char *t = strtok_r(line, " ", &save); t && argc < 23; t = strtok_r(NULL, " ", &save))
		argv[argc++] = t;
	argv[argc] = NULL;
	assert_int_equal(options_parse(argc, argv, o), 0);
}

/* --repeat 3: every cell runs three times, its wall is their mean, and
 * the noise is (max - min) / mean. */
static void test_repeat_rounds(void **state)
{
	char *dir = test_dir_make(), line[300];
	struct options o;
	struct sweep_settings set;
	struct sweep sw;

	snprintf(line, sizeof(line), "fctrace sweep --no-bpf --workload fc,fcp --files 5 "
		 "--threads 1,2 --ops 50 --repeat 3 --dir %s", dir);
	parse_sweep(line, &o);
	set = cli_sweep_settings(&o);
	assert_int_equal(set.repeat, 3);
	assert_int_equal(sweep_run(&set, &sw), 0);
	assert_int_equal(sw.n, 4);
	for (unsigned i = 0; i < sw.n; i++) {
		const struct sweep_cell *c = &sw.cells[i];
		uint64_t sum = 0, lo = UINT64_MAX, hi = 0;

		assert_int_equal(c->runs, 3);
		for (unsigned r = 0; r < 3; r++) {
			assert_true(c->run_wall_ns[r] > 0);
			sum += c->run_wall_ns[r];
			lo = c->run_wall_ns[r] < lo ? c->run_wall_ns[r] : lo;
			hi = c->run_wall_ns[r] > hi ? c->run_wall_ns[r] : hi;
		}
		assert_int_equal(c->wall_ns, sum / 3);
		assert_true(sweep_cell_noise(c) == (double)(hi - lo) / (double)(sum / 3));
	}
	sweep_free(&sw);
	test_dir_remove(dir);
}

static void test_repeat_bad_input(void **state)
{
	const char *bad[] = { "0", "11", "x", "-1" };

	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *argv[] = { "fctrace", "sweep", "--no-bpf", "--repeat", (char *)bad[i], NULL };
		struct options o;

		assert_int_equal(options_parse(5, argv, &o), 2);
	}
	{
		char *argv[] = { "fctrace", "run", "--no-bpf", "--repeat", "2", NULL };
		struct options o;

		assert_int_equal(options_parse(5, argv, &o), 2);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_failed_cell_is_left_out),
		cmocka_unit_test(test_repeat_rounds),
		cmocka_unit_test(test_repeat_bad_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
