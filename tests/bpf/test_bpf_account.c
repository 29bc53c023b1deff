/*
 * test_bpf_account.c - the time account: every thread's disjoint
 * buckets tile its window; sleeping, spinning and lock waits land in the
 * right bucket; light mode (no syscall hooks) still accounts (needs root).
 */
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include "bpfutil.h"
#include "workload.h"

#define MS 1000000ull

static void sleep_100ms(struct marked *m)
{
	struct timespec ts = { 0, 100 * MS };
	uint64_t t0 = wl_now_ns();

	nanosleep(&ts, NULL);
	m->user[0] = wl_now_ns() - t0;
}

/* spin on the vDSO clock: no syscalls, no sleeping */
static void spin_100ms(struct marked *m)
{
	uint64_t t0 = wl_now_ns();

	while (wl_now_ns() - t0 < 100 * MS)
		;
}

static void io_loop(struct marked *m)
{
	char buf[4096];

	for (int i = 0; i < 2000; i++) {
		int fd = open("/proc/self/exe", O_RDONLY);

		if (fd < 0)
			return;
		if (pread(fd, buf, sizeof(buf), 0) < 0)
			m->user[0]++;
		close(fd);
	}
}

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int lock_takers;		/* arrived at the start line */

/* the lock takers (every 4th thread) take turns holding a mutex across
 * a 5 ms sleep, starting together: they meet at a start line, spinning
 * rather than waiting in a futex; *arg says how many there are */
static void lock_turns(struct marked *m)
{
	struct timespec ts = { 0, 5 * MS };
	int n = *(const int *)m->arg;

	__atomic_add_fetch(&lock_takers, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&lock_takers, __ATOMIC_SEQ_CST) < n)
		sched_yield();
	for (int i = 0; i < 5; i++) {
		pthread_mutex_lock(&mu);
		nanosleep(&ts, NULL);
		pthread_mutex_unlock(&mu);
	}
}

/* run the function for this thread's index, from the array in arg */
static void run_indexed(struct marked *m)
{
	void (**fns)(struct marked *) = m->arg;

	fns[m->index](m);
}

static void mixed(struct marked *m)
{
	switch (m->index % 4) {
	case 0: sleep_100ms(m); break;
	case 1: spin_100ms(m); break;
	case 2: io_loop(m); break;
	default: lock_turns(m); break;
	}
}

/* time thread tid waited in futexes on mu */
static uint64_t mutex_wait_ns(const struct kview *kv, pid_t tid)
{
	uint64_t ns = 0;

	for (int i = 0; i < kv->nfutex; i++)
		if (kv->futex[i].key.tid == (uint32_t)tid &&
		    kv->futex[i].key.uaddr >= (uintptr_t)&mu &&
		    kv->futex[i].key.uaddr < (uintptr_t)&mu + sizeof(mu))
			ns += kv->futex[i].val.wait_ns;
	return ns;
}

static void assert_tiles(const struct fct_thread *t, const struct marked *m)
{
	uint64_t wall = m->end_ns - m->begin_ns, sum = acct_sum(t);
	double err = (double)(sum > wall ? sum - wall : wall - sum) / wall;

	if (err > 0.01)
		print_message("thread %u: buckets %llu ns vs wall %llu ns (%.2f %%): user %llu sys %llu runq %llu blocked %llu futex %llu\n",
			      m->index, (unsigned long long)sum, (unsigned long long)wall, err * 100,
			      (unsigned long long)kview_derived(t).cpu_user_ns, (unsigned long long)kview_derived(t).cpu_sys_ns,
			      (unsigned long long)t->runq_ns, (unsigned long long)t->blocked_ns,
			      (unsigned long long)kview_derived(t).futex_wait_ns);
	assert_true(err <= 0.01);
	/* the totals partition the same window by scheduler state alone */
	sum = t->oncpu_ns + t->offcpu_ns + t->runq_total_ns;
	assert_true((double)(sum > wall ? sum - wall : wall - sum) / wall <= 0.01);
}

static void test_buckets_tile_every_window(void **state)
{
	struct bpf_fixture fx;
	struct marked m[8];
	int takers = 2;

	BPF_TEST_REQUIRE();
	bpf_fixture_start(&fx, PG_FULL);
	lock_takers = 0;
	run_marked(m, 8, mixed, &takers);
	bpf_fixture_read(&fx);
	for (int i = 0; i < 8; i++) {
		const struct fct_thread *t = kview_thread(&fx.kv, m[i].tid);

		assert_non_null(t);
		assert_tiles(t, &m[i]);
		if (i % 4 == 3)		/* lock waits are futex time, not "blocked" */
			assert_true(kview_derived(t).futex_wait_ns >= mutex_wait_ns(&fx.kv, m[i].tid));
		if (i % 4 == 2)
			assert_true(kview_derived(t).cpu_sys_ns > 0);
	}
	/* the two lock takers were started together: one waited for the other */
	assert_true(mutex_wait_ns(&fx.kv, m[3].tid) + mutex_wait_ns(&fx.kv, m[7].tid) > MS);
	bpf_fixture_done(&fx);
}

static void test_sleeper_is_blocked(void **state)
{
	struct bpf_fixture fx;
	struct marked m[1];
	const struct fct_thread *t;

	BPF_TEST_REQUIRE();
	bpf_fixture_start(&fx, PG_FULL);
	run_marked(m, 1, sleep_100ms, NULL);
	bpf_fixture_read(&fx);
	t = kview_thread(&fx.kv, m[0].tid);
	assert_non_null(t);
	print_message("sleeper: own %.2f ms, blocked %.2f ms, vol %llu\n", m[0].user[0] / 1e6,
		      t->blocked_ns / 1e6, (unsigned long long)t->vol_switches);
	assert_true(t->blocked_ns >= 99 * MS);
	assert_true(t->blocked_ns <= m[0].user[0]);
	assert_true(t->vol_switches >= 1);
	assert_int_equal(kview_derived(t).futex_wait_ns, 0);
	assert_tiles(t, &m[0]);
	bpf_fixture_done(&fx);
}

static void test_spinner_is_on_cpu(void **state)
{
	struct bpf_fixture fx;
	struct marked m[1];
	const struct fct_thread *t;
	uint64_t wall;

	BPF_TEST_REQUIRE();
	bpf_fixture_start(&fx, PG_FULL);
	run_marked(m, 1, spin_100ms, NULL);
	bpf_fixture_read(&fx);
	t = kview_thread(&fx.kv, m[0].tid);
	assert_non_null(t);
	wall = m[0].end_ns - m[0].begin_ns;
	print_message("spinner: wall %.2f ms, user %.2f ms, runq %.2f ms, sys %.3f ms\n",
		      wall / 1e6, kview_derived(t).cpu_user_ns / 1e6, t->runq_ns / 1e6, kview_derived(t).cpu_sys_ns / 1e6);
	/* on a shared 2-CPU machine it may have to wait for a CPU, for
	 * any share of the time: only on-CPU or runnable, never asleep */
	assert_true(kview_derived(t).cpu_user_ns + kview_derived(t).cpu_sys_ns + t->runq_ns >= wall * 0.99);
	assert_true(kview_derived(t).cpu_user_ns > 0);
	assert_int_equal(kview_derived(t).cpu_user_ns + kview_derived(t).cpu_sys_ns, t->oncpu_ns);
	assert_true(t->blocked_ns < wall / 100);
	assert_tiles(t, &m[0]);
	bpf_fixture_done(&fx);
}

#define ZERO_CHUNK	(256 << 10)

/* read /dev/zero in big chunks: nearly all of it is the kernel's copy */
static void read_zero_300ms(struct marked *m)
{
	static __thread char buf[ZERO_CHUNK];
	uint64_t t0 = wl_now_ns();
	int fd = open("/dev/zero", O_RDONLY);

	while (fd >= 0 && wl_now_ns() - t0 < 300 * MS)
		if (read(fd, buf, sizeof(buf)) < 0)
			m->user[0]++;
	if (fd >= 0)
		close(fd);
}

/* spins 300 ms in user space; user[1], user[2]: the kernel's own user and
 * system time of the thread (on a loaded machine interrupts and switches
 * charge a spinning thread system time too) */
static void spin_300ms(struct marked *m)
{
	uint64_t t0 = wl_now_ns();
	struct rusage ru;

	while (wl_now_ns() - t0 < 300 * MS)
		;
	if (!getrusage(RUSAGE_THREAD, &ru)) {
		m->user[1] = (uint64_t)ru.ru_utime.tv_sec * 1000000000ull +
			     (uint64_t)ru.ru_utime.tv_usec * 1000;
		m->user[2] = (uint64_t)ru.ru_stime.tv_sec * 1000000000ull +
			     (uint64_t)ru.ru_stime.tv_usec * 1000;
	}
}

/* the user share of a thread's on-CPU time, from its samples */
static double user_share(const struct fct_thread *t)
{
	print_message("tid %u: samples user %llu sys %llu futex %llu; cpu user %.1f ms sys %.1f ms\n",
		      t->tid, (unsigned long long)t->cpu_samples_user,
		      (unsigned long long)t->cpu_samples_sys, (unsigned long long)t->cpu_samples_futex,
		      kview_derived(t).cpu_user_ns / 1e6, kview_derived(t).cpu_sys_ns / 1e6);
	assert_int_equal(kview_derived(t).cpu_split_sampled, 1);
	return (double)kview_derived(t).cpu_user_ns / (double)(kview_derived(t).cpu_user_ns + kview_derived(t).cpu_sys_ns);
}

/* The cpu-clock sampler splits on-CPU time by the mode it interrupts: a
 * loop in user space (no syscalls) is user time; a loop of /dev/zero
 * reads is kernel time, where the syscall hooks' clock would have seen
 * only the part between them. Both run at once, on the shared CPUs. */
static void test_sampler_splits_user_and_sys(void **state)
{
	void (*fns[2])(struct marked *) = { spin_300ms, read_zero_300ms };
	const struct fct_thread *spin, *rd;
	struct bpf_fixture fx;
	struct marked m[2];

	BPF_TEST_REQUIRE();
	bpf_fixture_start(&fx, PG_FULL);
	assert_true(fx.kv.groups & PG_MASK(PG_CPUCLOCK));
	assert_int_equal(probe_named(&fx.kv, "perf_event/cpu-clock")->state, PROBE_OK);
	run_marked(m, 2, run_indexed, fns);
	bpf_fixture_read(&fx);
	spin = kview_thread(&fx.kv, m[0].tid);
	rd = kview_thread(&fx.kv, m[1].tid);
	assert_non_null(spin);
	assert_non_null(rd);
	/* all user, but for what the kernel itself charged it as system */
	assert_true(user_share(spin) >= fmin(0.95, (double)m[0].user[1] /
					      (double)(m[0].user[1] + m[0].user[2] + 1) - 0.10));
	assert_true(user_share(rd) <= 0.40);	/* perf cpu-clock: 14 % user */
	assert_int_equal(m[1].user[0], 0);
	assert_tiles(spin, &m[0]);
	assert_tiles(rd, &m[1]);
	bpf_fixture_done(&fx);
}

/* Light mode: no syscall hooks, sleep all "blocked"; on-CPU time is
 * split by the sampler alone (all "user" for a thread with too few samples). */
static void test_light_mode(void **state)
{
	struct bpf_fixture fx;
	struct marked m[4];
	const struct probe_status *ps;
	int takers = 1;

	BPF_TEST_REQUIRE();
	bpf_fixture_start(&fx, PG_LIGHT);
	assert_int_equal(fx.kv.groups & PG_MASK(PG_SYSCALLS), 0);
	assert_true(fx.kv.groups & PG_MASK(PG_SCHED));
	ps = probe_named(&fx.kv, "tp_btf/sys_enter");
	assert_non_null(ps);
	assert_int_equal(ps->state, PROBE_NOT_SELECTED);
	assert_string_equal(probe_status_text(ps), "not selected");
	ps = probe_named(&fx.kv, "tp_btf/sched_switch");
	assert_non_null(ps);
	assert_int_equal(ps->state, PROBE_OK);

	lock_takers = 0;
	run_marked(m, 4, mixed, &takers);
	bpf_fixture_read(&fx);
	for (int i = 0; i < 4; i++) {
		const struct fct_thread *t = kview_thread(&fx.kv, m[i].tid);

		assert_non_null(t);
		if (!kview_derived(t).cpu_split_sampled)
			assert_int_equal(kview_derived(t).cpu_sys_ns, 0);
		assert_int_equal(kview_derived(t).futex_wait_ns, 0);
		assert_int_equal(acct_nr(t, __NR_openat)->count, 0);
		assert_tiles(t, &m[i]);
	}
	assert_true(kview_thread(&fx.kv, m[0].tid)->blocked_ns >= 99 * MS);
	/* the spinner was on CPU or waiting for one (the sampled split may put
	 * a timer interrupt's samples in sys) */
	assert_true(kview_derived(kview_thread(&fx.kv, m[1].tid)).cpu_user_ns +
		    kview_derived(kview_thread(&fx.kv, m[1].tid)).cpu_sys_ns +
		    kview_thread(&fx.kv, m[1].tid)->runq_ns >= 99 * MS);
	assert_true(kview_thread(&fx.kv, m[3].tid)->blocked_ns > 5 * MS);
	bpf_fixture_done(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets_tile_every_window),
		cmocka_unit_test(test_sleeper_is_blocked),
		cmocka_unit_test(test_spinner_is_on_cpu),
		cmocka_unit_test(test_light_mode),
		cmocka_unit_test(test_sampler_splits_user_and_sys),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
