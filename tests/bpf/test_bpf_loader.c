/*
 * test_bpf_loader.c - the loader's lifecycle (what gets attached, what
 * finish leaves behind, load time) and kernel-lock callers; needs root.
 * What needs no root is in test_probes.c.
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
#include "trace/ksyms.h"	/* ksym_is_locking */
#include "workload.h"

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
	assert_int_equal(nsel, 6);
	assert_non_null(probe_named(&fx.kv, "tp_btf/contention_begin"));
	assert_int_equal(bpf_fct_prog_ids(NULL, 0), 6);	/* nothing else loaded */
	bpf_fixture_done(&fx);
}

static void test_finish_leaves_nothing_loaded(void **state)
{
	struct tracer_opts o = { .groups = PG_FULL | PG_MASK(PG_PC_LOOKUPS), .tgid = getpid() };
	struct kview kv = { 0 };
	struct tracer *t;
	uint32_t ids[32];
	uint64_t t0;

	BPF_TEST_REQUIRE();
	assert_int_equal(bpf_fct_prog_ids(NULL, 0), 0);
	t0 = wl_now_ns();
	assert_int_equal(tracer_prepare(&t, &o, &kv), 0);
	t0 = wl_now_ns() - t0;
	print_message("load+attach of every group: %.1f ms\n", t0 / 1e6);	/* make bench times it */
	assert_int_equal(kv.groups, o.groups);
	/* 23 programs, less the handles' two riding in the syscall ones */
	assert_int_equal(bpf_fct_prog_ids(ids, 32), 21);
	tracer_finish(t);
	assert_int_equal(bpf_fct_prog_ids(NULL, 0), 0);
	/* unloaded from the kernel, not just closed (release may be deferred) */
	for (int i = 0, tries = 0; i < 21; i++) {
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
		assert_true(k->val.max_ns <= k->est_wait_ns);	/* the split may scale below */
		if (k->key.ips[0]) {
			assert_string_not_equal(k->caller, "?");
			assert_false(ksym_is_locking(k->caller));
		}
	}
	/* every wait counted; stacks sampled (the first FCT_KLOCK_WARMUP,
	 * then one in FCT_KLOCK_EVERY), each weighted by what it stands for;
	 * the sites then carry the thread's exact totals, to the unit */
	uint64_t all = 0;
	for (int i = 0; i < 4; i++) {
		const struct fct_thread *th = kview_thread(&fx.kv, m[i].tid);
		uint64_t n = th->klock_waits, sampled = 0, weight = 0, waits = 0, ns = 0;

		for (int j = 0; j < fx.kv.nklock; j++) {
			if (fx.kv.klock[j].key.tid != (uint32_t)m[i].tid)
				continue;
			sampled += fx.kv.klock[j].val.sampled;
			weight += fx.kv.klock[j].est_waits;
			waits += fx.kv.klock[j].val.waits;
			ns += fx.kv.klock[j].val.wait_ns;
		}
		assert_int_equal(sampled, sampled_count(n, FCT_KLOCK_WARMUP, FCT_KLOCK_EVERY));
		assert_int_equal(weight, sampled_weight(n, FCT_KLOCK_WARMUP, FCT_KLOCK_EVERY));
		if (n) {
			assert_int_equal(waits, n);
			assert_int_equal(ns, th->klock_wait_ns);
		}
		all += n;
	}
	assert_true(all > 0);
	assert_int_equal(fx.kv.lost.klock_map_full, 0);
	bpf_fixture_done(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unselected_groups_not_attached),
		cmocka_unit_test(test_finish_leaves_nothing_loaded),
		cmocka_unit_test(test_no_marks_fails_cleanly),
		cmocka_unit_test(test_kernel_lock_contention_named),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
