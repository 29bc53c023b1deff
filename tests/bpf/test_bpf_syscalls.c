/*
 * test_bpf_syscalls.c - the syscall table, futex waits and pages asked,
 * against sequences the test threads make themselves (needs root).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include "bpfutil.h"
#include "workload.h"

#define T_THREADS	4
#define N_OPS		300

struct files {
	char dir[256];
	char path[300];
	char missing[300];
};

static void files_make(struct files *f, size_t size)
{
	char buf[4096];
	int fd;

	snprintf(f->dir, sizeof(f->dir), "%s/fct-bpf-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->path, sizeof(f->path), "%s/data", f->dir);
	snprintf(f->missing, sizeof(f->missing), "%s/missing", f->dir);
	fd = open(f->path, O_CREAT | O_RDWR | O_TRUNC, 0600);
	assert_true(fd >= 0);
	memset(buf, 'x', sizeof(buf));
	for (size_t done = 0; done < size; done += sizeof(buf))
		assert_int_equal(write(fd, buf, sizeof(buf)), sizeof(buf));
	close(fd);
}

static void files_remove(struct files *f)
{
	unlink(f->path);
	rmdir(f->dir);
}

/* N x open(O_RDWR) + pread(4096 at 0) + close, then one failing open. */
static void open_pread_close(struct marked *m)
{
	const struct files *f = m->arg;
	char buf[4096];

	for (int i = 0; i < N_OPS; i++) {
		int fd = open(f->path, O_RDWR);

		if (fd < 0)
			return;
		if (pread(fd, buf, sizeof(buf), 0) != sizeof(buf))
			m->user[0]++;
		close(fd);
	}
	if (open(f->missing, O_RDONLY) >= 0)
		m->user[0]++;
}

static uint64_t hist_sum(const struct fct_sc_hist *s)
{
	uint64_t h = 0;

	for (int i = 0; s && i < FCT_HIST_SLOTS; i++)
		h += s->hist[i];
	return h;
}

/* Counts are exact whatever is timed; with time_every 1 every call is
 * timed, otherwise the first FCT_SC_WARMUP and then one in time_every,
 * each weighted by the calls it stands for. */
static void syscall_counts(unsigned time_every)
{
	unsigned every = time_every ? time_every : FCT_SC_EVERY_DEFAULT;
	struct marked m[T_THREADS];
	struct bpf_fixture fx;
	struct files f;

	BPF_TEST_REQUIRE();
	files_make(&f, 8192);
	bpf_fixture_start_every(&fx, PG_FULL, time_every);
	run_marked(m, T_THREADS, open_pread_close, &f);
	getpid();			/* an unmarked thread: not counted */
	bpf_fixture_read(&fx);

	for (int i = 0; i < T_THREADS; i++) {
		const struct fct_thread *t = kview_thread(&fx.kv, m[i].tid);
		const struct fct_sc_hist *ph = kview_sc_hist(&fx.kv, m[i].tid, __NR_pread64);
		const struct fct_nr_stats *pr;

		assert_int_equal(m[i].user[0], 0);
		assert_non_null(t);
		assert_non_null(ph);
		pr = acct_nr(t, __NR_pread64);
		assert_int_equal(t->begin_ns, m[i].begin_ns);
		assert_int_equal(t->end_ns, m[i].end_ns);
		assert_int_equal(t->how, FCT_HOW_MARK);	/* begun and ended by the marks */
		assert_int_equal(acct_nr(t, __NR_openat)->count, N_OPS + 1);
		assert_int_equal(acct_nr(t, __NR_openat)->errors, 1);
		assert_int_equal(pr->count, N_OPS);
		assert_int_equal(pr->errors, 0);
		assert_int_equal(acct_nr(t, __NR_close)->count, N_OPS);
		assert_int_equal(t->pages_asked, N_OPS);
		assert_int_equal(pr->timed, sampled_count(N_OPS, FCT_SC_WARMUP, every));
		assert_int_equal(hist_sum(ph), sampled_weight(N_OPS, FCT_SC_WARMUP, every));
		assert_int_equal(acct_nr(t, __NR_openat)->timed,
				 sampled_count(N_OPS + 1, FCT_SC_WARMUP, every));
		assert_int_equal(hist_sum(kview_sc_hist(&fx.kv, m[i].tid, __NR_openat)),
				 sampled_weight(N_OPS + 1, FCT_SC_WARMUP, every));
		assert_true(ph->min_ns > 0);
		assert_true(ph->min_ns <= ph->max_ns);
		assert_true(pr->total_ns >= pr->count * ph->min_ns);
		assert_true(pr->total_ns <= pr->count * ph->max_ns);
	}
	assert_null(kview_thread(&fx.kv, getpid()));
	assert_int_equal(fx.kv.lost.slot_full, 0);
	assert_int_equal(fx.kv.lost.sc_hist_full, 0);
	bpf_fixture_done(&fx);
	files_remove(&f);
}

static void test_syscall_counts_exact(void **state)
{
	syscall_counts(0);
}

static void test_syscall_counts_every_call_timed(void **state)
{
	syscall_counts(1);
}

/* Harmless calls by number: more distinct numbers than a slot's table
 * holds (FCT_NR_SLOT), the rest spilled to their own map. The errors:
 * the calls on descriptor -1. */
static const long many_nrs[] = {
	SYS_getppid, SYS_getpid, SYS_getuid, SYS_geteuid, SYS_getgid, SYS_getegid, SYS_gettid,
	SYS_getpgrp, SYS_getsid, SYS_getpgid, SYS_sched_yield, SYS_getpriority, SYS_getrusage,
	SYS_times, SYS_uname, SYS_sysinfo, SYS_getcwd, SYS_getrlimit, SYS_getitimer,
	SYS_sched_getaffinity, SYS_sched_getscheduler, SYS_sched_getparam, SYS_getresuid,
	SYS_getresgid, SYS_getgroups, SYS_prctl, SYS_personality, SYS_time, SYS_clock_gettime,
	SYS_gettimeofday, SYS_clock_getres, SYS_sched_get_priority_max,
	SYS_sched_get_priority_min, SYS_sched_rr_get_interval, SYS_sigaltstack, SYS_getcpu,
	SYS_lseek, SYS_fstat, SYS_dup, SYS_fcntl, SYS_fsync, SYS_flock, SYS_fdatasync,
};
#define MANY_NRS	(sizeof(many_nrs) / sizeof(many_nrs[0]))
#define MANY_EACH	3
#define MANY_BADFD	7	/* the last ones: on fd -1, each fails */

static void many_calls(struct marked *m)
{
	char buf[512];

	memset(buf, 0, sizeof(buf));
	for (int k = 0; k < MANY_EACH; k++)
		for (size_t i = 0; i < MANY_NRS; i++) {
			long nr = many_nrs[i];

			if (i + MANY_BADFD >= MANY_NRS)
				syscall(nr, -1, 0, 0);
			else if (nr == SYS_getcwd || nr == SYS_sched_getaffinity)
				syscall(nr, 0, sizeof(buf) / 2, buf);
			else if (nr == SYS_prctl)
				syscall(nr, PR_GET_DUMPABLE, 0, 0, 0, 0);
			else if (nr == SYS_personality)
				syscall(nr, 0xffffffffUL);
			else if (nr == SYS_getsid || nr == SYS_getpgid || nr == SYS_sched_getscheduler)
				syscall(nr, 0);
			else
				syscall(nr, 0, buf, buf + 128);
		}
}

/* A thread that calls 43 numbers: every count exact, the 11 past the
 * slot's 32 from the spill map. */
static void test_spilled_numbers_exact(void **state)
{
	struct bpf_fixture fx;
	struct marked m;

	BPF_TEST_REQUIRE();
	assert_true(MANY_NRS > FCT_NR_SLOT);
	bpf_fixture_start(&fx, PG_FULL);
	run_marked(&m, 1, many_calls, NULL);
	bpf_fixture_read(&fx);
	assert_int_equal(fx.kv.lost.nr_spill_full, 0);
	assert_non_null(kview_thread(&fx.kv, m.tid));
	for (size_t i = 0; i < MANY_NRS; i++) {
		const struct fct_nr_stats *s = acct_nr(kview_thread(&fx.kv, m.tid), many_nrs[i]);

		if (s->count != MANY_EACH)
			fail_msg("syscall %ld (#%zu called): %llu calls counted, not %d", many_nrs[i],
				 i + 1, (unsigned long long)s->count, MANY_EACH);
		if (i + MANY_BADFD >= MANY_NRS)
			assert_int_equal(s->errors, MANY_EACH);
	}
	bpf_fixture_done(&fx);
}

/* preads that straddle page boundaries ask for every page they touch */
static void misaligned_preads(struct marked *m)
{
	const struct files *f = m->arg;
	char buf[3 * 4096];
	int fd = open(f->path, O_RDONLY);

	if (fd < 0)
		return;
	m->user[0] += pread(fd, buf, 200, 4000) == 200 ? 2 : 0;		/* pages 0,1 */
	m->user[0] += pread(fd, buf, 4096, 4096) == 4096 ? 1 : 0;	/* page 1 */
	m->user[0] += pread(fd, buf, 8194, 4095) == 8194 ? 4 : 0;	/* pages 0..3 */
	m->user[0] += pread(fd, buf, 100, 5 * 4096) == 0 ? 0 : 100;	/* EOF: none */
	close(fd);
}

static void test_pages_asked_by_span(void **state)
{
	struct bpf_fixture fx;
	struct marked m[1];
	struct files f;

	BPF_TEST_REQUIRE();
	files_make(&f, 4 * 4096);
	bpf_fixture_start(&fx, PG_FULL);
	run_marked(m, 1, misaligned_preads, &f);
	bpf_fixture_read(&fx);
	assert_int_equal(m[0].user[0], 7);
	assert_non_null(kview_thread(&fx.kv, m[0].tid));
	assert_int_equal(kview_thread(&fx.kv, m[0].tid)->pages_asked, 7);
	assert_int_equal(acct_nr(kview_thread(&fx.kv, m[0].tid), __NR_pread64)->count, 4);
	bpf_fixture_done(&fx);
	files_remove(&f);
}

#define N_PPID	300

static void getppids(struct marked *m)
{
	for (int i = 0; i < N_PPID; i++)
		syscall(SYS_getppid);
}

/* Any number has the whole table, not only the built-in workloads'
 * calls: counts, timings sampled the same way, and its histogram. */
static void test_any_number_timed(void **state)
{
	struct bpf_fixture fx;
	struct marked m[1];
	const struct fct_thread *t;
	const struct fct_sc_hist *h;

	BPF_TEST_REQUIRE();
	bpf_fixture_start(&fx, PG_FULL);
	run_marked(m, 1, getppids, NULL);
	bpf_fixture_read(&fx);
	t = kview_thread(&fx.kv, m[0].tid);
	assert_non_null(t);
	h = kview_sc_hist(&fx.kv, m[0].tid, __NR_getppid);
	assert_non_null(h);
	assert_int_equal(acct_nr(t, __NR_getppid)->count, N_PPID);
	assert_int_equal(acct_nr(t, __NR_getppid)->errors, 0);
	assert_int_equal(acct_nr(t, __NR_getppid)->timed,
			 sampled_count(N_PPID, FCT_SC_WARMUP, FCT_SC_EVERY_DEFAULT));
	assert_int_equal(hist_sum(h), sampled_weight(N_PPID, FCT_SC_WARMUP, FCT_SC_EVERY_DEFAULT));
	assert_true(h->min_ns > 0 && h->min_ns <= h->max_ns);
	bpf_fixture_done(&fx);
}

/* A holder keeps the mutex HOLD_MS while asleep; the waiter measures
 * its own pthread_mutex_lock. */
#define HOLD_MS 200

struct mutex_case {
	pthread_mutex_t m;
	volatile int held;
};

static void *holder(void *p)
{
	struct mutex_case *c = p;

	pthread_mutex_lock(&c->m);
	c->held = 1;
	usleep(HOLD_MS * 1000);
	pthread_mutex_unlock(&c->m);
	return NULL;
}

static void waiter(struct marked *m)
{
	struct mutex_case *c = m->arg;
	uint64_t t0;

	while (!c->held)
		;
	t0 = wl_now_ns();
	pthread_mutex_lock(&c->m);
	m->user[0] = wl_now_ns() - t0;
	pthread_mutex_unlock(&c->m);
}

static void test_futex_wait_on_mutex(void **state)
{
	struct mutex_case c = { .m = PTHREAD_MUTEX_INITIALIZER };
	const struct kv_futex *found = NULL;
	struct bpf_fixture fx;
	struct marked m[1];
	pthread_t h;

	BPF_TEST_REQUIRE();
	bpf_fixture_start(&fx, PG_FULL);
	assert_int_equal(pthread_create(&h, NULL, holder, &c), 0);
	run_marked(m, 1, waiter, &c);
	pthread_join(h, NULL);
	bpf_fixture_read(&fx);

	for (int i = 0; i < fx.kv.nfutex; i++) {
		const struct kv_futex *k = &fx.kv.futex[i];

		if (k->key.tid == (uint32_t)m[0].tid && k->key.uaddr >= (uintptr_t)&c.m &&
		    k->key.uaddr < (uintptr_t)&c.m + sizeof(c.m))
			found = k;
	}
	assert_non_null(found);
	assert_int_equal(found->key.op, 0);		/* FUTEX_WAIT */
	assert_true(found->val.waits >= 1);
	print_message("waiter: own %.1f ms, futex %.1f ms in %llu waits\n",
		      m[0].user[0] / 1e6, found->val.wait_ns / 1e6,
		      (unsigned long long)found->val.waits);
	assert_true(m[0].user[0] > HOLD_MS * 1000000ull / 2);
	assert_true(found->val.wait_ns <= m[0].user[0]);
	assert_true(found->val.wait_ns >= m[0].user[0] * 0.97);
	assert_true(found->val.max_ns <= found->val.wait_ns);

	const struct fct_thread *t = kview_thread(&fx.kv, m[0].tid);
	assert_non_null(t);
	assert_true(t->futex_waits >= 1);
	assert_true(kview_derived(t).futex_wait_ns >= found->val.wait_ns);
	assert_int_equal(fx.kv.lost.futex_map_full, 0);
	bpf_fixture_done(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_syscall_counts_exact),
		cmocka_unit_test(test_syscall_counts_every_call_timed),
		cmocka_unit_test(test_spilled_numbers_exact),
		cmocka_unit_test(test_pages_asked_by_span),
		cmocka_unit_test(test_any_number_timed),
		cmocka_unit_test(test_futex_wait_on_mutex),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
