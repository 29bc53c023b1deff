/*
 * test_bpf_loader.c - probe groups, the loader's lifecycle (what gets
 * attached, what finish leaves behind, load time), kernel-lock callers.
 * The parser and symbol tests run anywhere; the rest needs root.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include "bpfutil.h"
#include "ksyms.h"
#include "workload.h"

/* The derived buckets tile what the scheduler edges booked, whatever the
 * estimate of syscall time says (no root needed). */
static void test_derive_tiles_the_window(void **state)
{
	struct fct_thread t = { .oncpu_ns = 1000, .runq_ns = 300, .blocked_ns = 200,
				.futex_off_ns = 500, .futex_on_ns = 100, .sys_on_est_ns = 400 };
	uint64_t booked = t.oncpu_ns + t.runq_ns + t.blocked_ns + t.futex_off_ns;

	kview_derive(&t);
	assert_int_equal(t.futex_wait_ns, 600);
	assert_int_equal(t.cpu_sys_ns, 400);
	assert_int_equal(t.cpu_user_ns, 500);
	assert_int_equal(acct_sum(&t), booked);

	t.sys_on_est_ns = 5000;		/* an estimate above what is left */
	kview_derive(&t);
	assert_int_equal(t.cpu_sys_ns, 900);
	assert_int_equal(t.cpu_user_ns, 0);
	assert_int_equal(acct_sum(&t), booked);

	t.futex_on_ns = 2000;		/* more than all on-CPU time */
	kview_derive(&t);
	assert_int_equal(t.futex_wait_ns, 1500);
	assert_int_equal(t.cpu_sys_ns + t.cpu_user_ns, 0);
	assert_int_equal(acct_sum(&t), booked);
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

static void test_unselected_groups_not_attached(void **state)
{
	struct bpf_fixture fx;
	int nsel = 0;

	BPF_TEST_REQUIRE();
	bpf_fixture_start(&fx, PG_MASK(PG_SCHED));
	assert_int_equal(fx.kv.groups, PG_MASK(PG_SCHED) | PG_MASK(PG_MARKS));
	for (int i = 0; i < fx.kv.nprobes; i++) {
		const struct probe_status *ps = &fx.kv.probes[i];

		if (ps->group == PG_SCHED || ps->group == PG_MARKS) {
			assert_int_equal(ps->state, PROBE_OK);
			assert_string_equal(probe_status_text(ps), "ok");
			nsel++;
		} else {
			assert_int_equal(ps->state, PROBE_NOT_SELECTED);
			assert_string_equal(probe_status_text(ps), "not selected");
		}
	}
	assert_int_equal(nsel, 5);
	assert_non_null(probe_named(&fx.kv, "tp_btf/contention_begin"));
	assert_int_equal(bpf_fct_prog_ids(NULL, 0), 5);	/* nothing else loaded */
	bpf_fixture_done(&fx);
}

static void test_finish_leaves_nothing_loaded(void **state)
{
	struct tracer_opts o = { .groups = PG_FULL | PG_MASK(PG_PC_LOOKUPS), .tgid = getpid() };
	struct kview kv = { 0 };
	struct tracer *t;
	uint32_t ids[16];
	uint64_t t0;

	BPF_TEST_REQUIRE();
	assert_int_equal(bpf_fct_prog_ids(NULL, 0), 0);
	t0 = wl_now_ns();
	assert_int_equal(tracer_prepare(&t, &o, &kv), 0);
	t0 = wl_now_ns() - t0;
	print_message("load+attach of every group: %.1f ms\n", t0 / 1e6);
	assert_true(t0 < 1000000000ull);
	assert_int_equal(kv.groups, o.groups);
	assert_int_equal(bpf_fct_prog_ids(ids, 16), 11);
	tracer_finish(t);
	assert_int_equal(bpf_fct_prog_ids(NULL, 0), 0);
	/* unloaded from the kernel, not just closed (release may be deferred) */
	for (int i = 0, tries = 0; i < 11; i++) {
		while (bpf_prog_id_exists(ids[i]) && tries++ < 200)
			usleep(10000);
		assert_false(bpf_prog_id_exists(ids[i]));
	}
	tracer_finish(t);		/* idempotent */
	tracer_finish(NULL);
	kview_free(&kv);
}

/* A process without the marks: prepare fails and leaves nothing behind. */
static void test_no_marks_fails_cleanly(void **state)
{
	struct tracer_opts o = { .groups = PG_FULL };
	struct kview kv = { 0 };
	struct tracer *t = (struct tracer *)&o;
	pid_t child;

	BPF_TEST_REQUIRE();
	child = fork();
	assert_true(child >= 0);
	if (!child) {
		execlp("sleep", "sleep", "10", (char *)NULL);
		_exit(127);
	}
	usleep(100000);		/* let it exec */
	o.tgid = child;
	assert_int_not_equal(tracer_prepare(&t, &o, &kv), 0);
	assert_null(t);
	assert_int_equal(probe_named(&kv, "uprobe/fctrace_thread_begin")->state, PROBE_FAILED);
	assert_int_equal(bpf_fct_prog_ids(NULL, 0), 0);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	kview_free(&kv);
}

/* Threads mapping and unmapping in one address space contend on its
 * mmap lock in the kernel. */
static void map_unmap(struct marked *m)
{
	uint64_t t0 = wl_now_ns();

	while (wl_now_ns() - t0 < 300000000ull) {
		void *p = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

		if (p != MAP_FAILED)
			munmap(p, 1 << 20);
	}
}

static void test_kernel_lock_contention_named(void **state)
{
	struct bpf_fixture fx;
	struct marked m[4];

	BPF_TEST_REQUIRE();
	bpf_fixture_start(&fx, PG_FULL);
	run_marked(m, 4, map_unmap, NULL);
	bpf_fixture_read(&fx);
	for (int i = 0; i < fx.kv.nklock; i++) {
		const struct kv_klock *k = &fx.kv.klock[i];

		if (i < 5)
			print_message("klock tid %u flags %#x: %llu waits, %.3f ms, at %s\n",
				      k->key.tid, k->key.flags, (unsigned long long)k->val.waits,
				      k->val.wait_ns / 1e6, k->caller);
		assert_true(k->val.max_ns <= k->val.wait_ns);
		if (k->key.ips[0]) {
			assert_string_not_equal(k->caller, "?");
			assert_false(ksym_is_locking(k->caller));
		}
	}
	/* every wait counted; stacks sampled (the first FCT_KLOCK_WARMUP,
	 * then one in FCT_KLOCK_EVERY), each weighted by what it stands for */
	uint64_t all = 0;
	for (int i = 0; i < 4; i++) {
		uint64_t n = kview_thread(&fx.kv, m[i].tid)->klock_waits, sampled = 0, weight = 0;

		for (int j = 0; j < fx.kv.nklock; j++) {
			if (fx.kv.klock[j].key.tid != (uint32_t)m[i].tid)
				continue;
			sampled += fx.kv.klock[j].val.sampled;
			weight += fx.kv.klock[j].val.waits;
		}
		assert_int_equal(sampled, sampled_count(n, FCT_KLOCK_WARMUP, FCT_KLOCK_EVERY));
		assert_int_equal(weight, sampled_weight(n, FCT_KLOCK_WARMUP, FCT_KLOCK_EVERY));
		all += n;
	}
	assert_true(all > 0);
	assert_int_equal(fx.kv.lost.klock_map_full, 0);
	bpf_fixture_done(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_derive_tiles_the_window),
		cmocka_unit_test(test_probe_groups_parse),
		cmocka_unit_test(test_ksyms_first_non_locking_caller),
		cmocka_unit_test(test_ksyms_none_usable),
		cmocka_unit_test(test_unselected_groups_not_attached),
		cmocka_unit_test(test_finish_leaves_nothing_loaded),
		cmocka_unit_test(test_no_marks_fails_cleanly),
		cmocka_unit_test(test_kernel_lock_contention_named),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
