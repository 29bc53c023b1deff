/*
 * test_probes.c - the loader's pieces that need no root: the --probes
 * parser and each program's status text, the derived buckets of a
 * kernel account (kview_derived), kernel symbols and lock callers, the
 * machine's CPU time from /proc/stat.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "trace/kview.h"
#include "trace/ksyms.h"

static uint64_t acct_sum(const struct fct_thread *t, const struct kv_derived *d)
{
	return d->cpu_user_ns + d->cpu_sys_ns + t->runq_ns + t->blocked_ns + d->futex_wait_ns;
}

/* The derived buckets tile what the scheduler edges booked, whatever the
 * estimate of syscall time says (no root needed). */
static void test_derive_tiles_the_window(void **state)
{
	struct fct_thread t = { .oncpu_ns = 1000, .runq_ns = 300, .blocked_ns = 200,
				.futex_off_ns = 500, .futex_on_ns = 100, .sys_on_est_ns = 400 };
	uint64_t booked = t.oncpu_ns + t.runq_ns + t.blocked_ns + t.futex_off_ns;
	struct kv_derived d;

	d = kview_derived(&t);
	assert_int_equal(d.futex_wait_ns, 600);
	assert_int_equal(d.cpu_sys_ns, 400);
	assert_int_equal(d.cpu_user_ns, 500);
	assert_int_equal(acct_sum(&t, &d), booked);

	t.sys_on_est_ns = 5000;		/* an estimate above what is left */
	d = kview_derived(&t);
	assert_int_equal(d.cpu_sys_ns, 900);
	assert_int_equal(d.cpu_user_ns, 0);
	assert_int_equal(acct_sum(&t, &d), booked);

	t.futex_on_ns = 2000;		/* more than all on-CPU time */
	d = kview_derived(&t);
	assert_int_equal(d.futex_wait_ns, 1500);
	assert_int_equal(d.cpu_sys_ns + d.cpu_user_ns, 0);
	assert_int_equal(acct_sum(&t, &d), booked);
}

/* With enough cpu-clock samples, on-CPU time outside futex waits splits
 * by their ratio, whatever the syscall hooks estimated; with too few,
 * by the hooks' estimate. */
static void test_derive_splits_by_samples(void **state)
{
	struct fct_thread t = { .oncpu_ns = 1000, .futex_on_ns = 100, .sys_on_est_ns = 50,
				.cpu_samples_user = 30, .cpu_samples_sys = 10,
				.cpu_samples_futex = 7 };
	struct kv_derived d;

	d = kview_derived(&t);
	assert_int_equal(d.cpu_split_sampled, 1);
	assert_int_equal(d.cpu_sys_ns, 225);		/* 900 * 10 / 40 */
	assert_int_equal(d.cpu_user_ns, 675);
	assert_int_equal(d.futex_wait_ns, 100);

	t.cpu_samples_user = FCT_CPU_MIN_SAMPLES - 2;
	t.cpu_samples_sys = 1;
	d = kview_derived(&t);
	assert_int_equal(d.cpu_split_sampled, 0);
	assert_int_equal(d.cpu_sys_ns, 50);
	assert_int_equal(d.cpu_user_ns, 850);
}

static void test_probe_groups_parse(void **state)
{
	unsigned m = 0;

	assert_int_equal(probe_groups_parse("full", &m), 0);
	assert_int_equal(m, PG_FULL);
	assert_int_equal(probe_groups_parse("light", &m), 0);
	assert_int_equal(m, PG_LIGHT);
	assert_int_equal(probe_groups_parse("sched,klock", &m), 0);
	assert_int_equal(m, PG_MASK(PG_SCHED) | PG_MASK(PG_KLOCK) | PG_MASK(PG_MARKS));
	assert_int_equal(probe_groups_parse("full,pc-lookups", &m), 0);
	assert_int_equal(m, PG_FULL | PG_MASK(PG_PC_LOOKUPS));
	assert_int_equal(probe_groups_parse("pagecache,pc-evict", &m), 0);
	assert_int_equal(m, PG_MASK(PG_PAGECACHE) | PG_MASK(PG_PC_EVICT) | PG_MASK(PG_MARKS));
	assert_true(PG_FULL & PG_LIGHT & PG_MASK(PG_PC_EVICT));
	assert_int_equal(probe_groups_parse("none", &m), 0);
	assert_int_equal(m, 0);
	assert_int_equal(probe_groups_parse("sched,", &m), -1);
	assert_int_equal(probe_groups_parse("", &m), -1);
	assert_int_equal(probe_groups_parse("sched,bogus", &m), -1);
	assert_int_equal(probe_groups_parse("schedx", &m), -1);
	for (int g = 0; g < PG_N; g++) {
		assert_int_equal(probe_groups_parse(probe_group_name(g), &m), 0);
		assert_true(m & PG_MASK(g));
	}
}

/* What the reports print for each fate: the enum, not a string compare. */
static void test_probe_status_text(void **state)
{
	struct probe_status ps = { .name = "tp_btf/sched_switch", .group = PG_SCHED,
				   .state = PROBE_OK };

	assert_string_equal(probe_status_text(&ps), "ok");
	ps.state = PROBE_NOT_SELECTED;
	assert_string_equal(probe_status_text(&ps), "not selected");
	ps.state = PROBE_FAILED;
	assert_string_equal(probe_status_text(&ps), "failed");	/* no reason recorded */
	snprintf(ps.reason, sizeof(ps.reason), "attach failed: -EPERM");
	assert_string_equal(probe_status_text(&ps), "attach failed: -EPERM");
	ps.state = PROBE_OK;		/* a stale reason is not shown */
	assert_string_equal(probe_status_text(&ps), "ok");
}

static void test_ksyms_first_non_locking_caller(void **state)
{
	char path[] = "/tmp/fct-kallsyms-XXXXXX", caller[96];
	uint64_t ips[] = { 0x1010, 0x2008, 0x3004, 0x4100, 0 };
	struct ksyms *ks;
	uint64_t off;
	FILE *f;
	int fd;

	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs("0000000000004000 T ext4_da_write_begin\n"
	      "0000000000001000 t __bpf_trace_contention_begin\n"
	      "0000000000002000 T queued_spin_lock_slowpath\n"
	      "0000000000003000 T _raw_spin_lock\n"
	      "0000000000005000 D some_data\n", f);
	fclose(f);
	ks = ksyms_load(path);
	unlink(path);
	assert_non_null(ks);
	assert_string_equal(ksyms_find(ks, 0x3004, &off), "_raw_spin_lock");
	assert_int_equal(off, 4);
	assert_null(ksyms_find(ks, 0x10, &off));
	ksyms_caller(ks, ips, 5, caller, sizeof(caller));
	assert_string_equal(caller, "ext4_da_write_begin+0x100");
	ksyms_caller(ks, ips, 3, caller, sizeof(caller));
	assert_string_equal(caller, "?");
	assert_true(ksym_is_locking("rwsem_down_write_slowpath"));
	assert_true(ksym_is_locking("mutex_lock"));
	assert_false(ksym_is_locking("do_mmap"));
	ksyms_free(ks);
}

/* No usable symbol (empty, or every address hidden by kptr_restrict):
 * NULL, without sorting a NULL array (found by tests/fuzz/fuzz_ksyms). */
static void test_ksyms_none_usable(void **state)
{
	static const char *const texts[] = { "", "0000000000000000 T _stext\n" };

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		char path[] = "/tmp/fct-kallsyms-XXXXXX";
		int fd = mkstemp(path);

		assert_true(fd >= 0);
		assert_int_equal(write(fd, texts[i], strlen(texts[i])), (int)strlen(texts[i]));
		close(fd);
		assert_null(ksyms_load(path));
		unlink(path);
	}
}

/* /proc/stat's cpu line: busy, idle and steal in ns; a window's difference. */
static void test_cpustat(void **state)
{
	struct cpustat a, b, d;

	assert_int_equal(cpustat_parse("cpu  100 5 50 1000 20 3 2 7 0 0\ncpu0 1 2 3 4\n", 100,
				       &a), 0);
	assert_true(a.valid);
	assert_int_equal(a.busy_ns, 160ull * 10000000);	/* user nice system irq softirq */
	assert_int_equal(a.idle_ns, 1020ull * 10000000);	/* idle iowait */
	assert_int_equal(a.steal_ns, 7ull * 10000000);
	/* an old kernel's four fields */
	assert_int_equal(cpustat_parse("cpu 1 2 3 4\n", 100, &b), 0);
	assert_int_equal(b.busy_ns, 6ull * 10000000);
	assert_int_equal(b.steal_ns, 0);
	assert_int_equal(cpustat_parse("cpu0 1 2 3 4\n", 100, &b), -1);
	assert_false(b.valid);
	assert_int_equal(cpustat_parse("cpu  x\n", 100, &b), -1);
	assert_int_equal(cpustat_parse(NULL, 100, &b), -1);
	assert_int_equal(cpustat_parse("cpu 1 2 3 4", 0, &b), -1);

	assert_int_equal(cpustat_parse("cpu  200 5 60 1100 20 3 2 9\n", 100, &b), 0);
	d = cpustat_diff(&a, &b);
	assert_true(d.valid);
	assert_int_equal(d.busy_ns, 110ull * 10000000);
	assert_int_equal(d.idle_ns, 100ull * 10000000);
	assert_int_equal(d.steal_ns, 2ull * 10000000);
	d = cpustat_diff(&b, &a);			/* backwards: not a window */
	assert_false(d.valid);
	assert_int_equal(cpustat_read(&a), 0);	/* this machine's, every Linux has it */
	assert_true(a.valid && a.busy_ns + a.idle_ns > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_derive_tiles_the_window),
		cmocka_unit_test(test_derive_splits_by_samples),
		cmocka_unit_test(test_probe_groups_parse),
		cmocka_unit_test(test_probe_status_text),
		cmocka_unit_test(test_ksyms_first_non_locking_caller),
		cmocka_unit_test(test_ksyms_none_usable),
		cmocka_unit_test(test_cpustat),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
