/*
 * test_join.c - join_run's join (join/join.c) without root: models built
 * from kernel views recorded from real traced runs (tests/join/fixtures/,
 * written by tests/join/record_join.c), with the full and the light probe
 * set. Each figure is checked against the recorded inputs, summed the
 * plain way here.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <cmocka.h>
#include "acctutil.h"
#include "jvm/jvm.h"
#include "join/lockname.h"
#include "join/join.h"
#include "session/session.h"
#include "join_fixture.h"

/* The fixture's inputs, in the loader's and the runner's shapes (owned
 * copies: the tests change them). Room for two extra kernel entries. */
struct inputs {
	struct wl_result res;
	struct subject_timings own;	/* res as the workload driver hands it in */
	struct kview kv;
};

static void *dup_array(const void *src, size_t n, size_t size, size_t extra)
{
	void *p = calloc(n + extra ? n + extra : 1, size);

	assert_non_null(p);
	if (n)
		memcpy(p, src, n * size);
	return p;
}

static void load(struct inputs *in, const struct join_fixture *fx)
{
	memset(in, 0, sizeof(*in));
	in->res.wall_ns = fx->wall_ns;
	in->res.nthreads = fx->nuser;
	in->res.threads = dup_array(fx->user, fx->nuser, sizeof(*fx->user), 0);
	assert_true(fx->nlocks <= WL_MAX_LOCKS);
	memcpy(in->res.locks, fx->locks, (size_t)fx->nlocks * sizeof(*fx->locks));
	in->res.nlocks = fx->nlocks;
	in->kv.groups = fx->groups;
	in->kv.time_every = fx->time_every;
	in->kv.threads = dup_array(fx->kthreads, fx->nkthreads, sizeof(*fx->kthreads), 2);
	in->kv.nthreads = fx->nkthreads;
	for (int i = 0; i < fx->nkthreads; i++)	/* kview_scale writes them */
		assert_int_equal(acct_nr_own(&in->kv.threads[i], &in->kv.nr_arena), 0);
	in->kv.sc_hists = dup_array(fx->sc_hists, fx->nsc_hists, sizeof(*fx->sc_hists), 2);
	in->kv.nsc_hists = fx->nsc_hists;
	kview_sort_sc_hists(&in->kv);
	in->kv.futex = dup_array(fx->futex, fx->nfutex, sizeof(*fx->futex), 2);
	in->kv.nfutex = fx->nfutex;
	in->kv.klock = dup_array(fx->klock, fx->nklock, sizeof(*fx->klock), 2);
	in->kv.nklock = fx->nklock;
	in->kv.pc = dup_array(fx->pc, fx->npc, sizeof(*fx->pc), 0);
	in->kv.npc = fx->npc;
}

static void unload(struct inputs *in)
{
	kview_free(&in->kv);
	wl_result_free(&in->res);
	subject_timings_free(&in->own);
}

/* The join of the workers' timings as they are now, over kv (NULL:
 * timing only). */
static int join_inputs(struct joined_run *m, struct inputs *in, const struct kview *kv)
{
	struct run_attachments att = { .subject = "fcp", .timings = &in->own };

	subject_timings_free(&in->own);
	if (session_workload_timings(&in->own, &in->res, &in->res.cfg))
		return -1;
	return join_run(m, kv, in->kv.groups, &att);
}

static const struct fct_thread *kernel_of(const struct join_fixture *fx, pid_t tid)
{
	for (int i = 0; i < fx->nkthreads; i++)
		if (fx->kthreads[i].tid == (uint32_t)tid)
			return &fx->kthreads[i];
	return NULL;
}

/* The futex time of tid inside the workload's lock objects. */
static uint64_t lock_futex_ns(const struct inputs *in, pid_t tid, uint64_t *waits)
{
	uint64_t ns = 0;

	*waits = 0;
	for (int i = 0; i < in->kv.nfutex; i++) {
		const struct kv_futex *f = &in->kv.futex[i];

		if (f->key.tid != (uint32_t)tid)
			continue;
		for (int l = 0; l < in->res.nlocks; l++)
			if (f->key.uaddr >= in->res.locks[l].addr &&
			    f->key.uaddr < in->res.locks[l].addr + in->res.locks[l].size) {
				ns += f->val.wait_ns;
				*waits += f->val.waits;
			}
	}
	return ns;
}

static uint64_t row_sum(const struct thread_row *r)
{
	uint64_t s = 0;

	for (int b = 0; b < ACCT_N; b++)
		s += r->acct_ns[b];
	return s;
}

/* What holds for either set: every worker joined to its own account by
 * tid, over the same window, the buckets tiling it; the syscall and page
 * figures are the kernel's, summed. */
static void check_common(const struct joined_run *m, const struct join_fixture *fx)
{
	uint64_t ops = 0, sc[FCT_NR_MAX] = { 0 }, rows[SC_ROW_N] = { 0 }, hits = 0, misses = 0;

	assert_int_equal(m->nrows, fx->nuser);
	assert_int_equal(m->wall_ns, fx->wall_ns);
	for (unsigned i = 0; i < m->nrows; i++) {
		const struct thread_row *r = &m->rows[i];
		const struct fct_thread *k = kernel_of(fx, r->tid);

		assert_non_null(k);
		assert_true(r->has_kernel);
		assert_int_equal(r->k.tid, r->tid);
		/* the marks pass the thread's own clock readings */
		assert_int_equal(k->begin_ns, r->start_ns);
		assert_int_equal(k->end_ns, r->end_ns);
		assert_int_equal(row_sum(r), k->end_ns - k->begin_ns);
		assert_true(r->accounted_ratio == 1.0);
		assert_int_equal(r->acct_ns[ACCT_CPU_USER], kview_derived(k).cpu_user_ns);
		assert_int_equal(r->acct_ns[ACCT_CPU_SYS], kview_derived(k).cpu_sys_ns);
		assert_int_equal(r->acct_ns[ACCT_RUNQ], k->runq_ns);
		assert_int_equal(r->pagecache_misses, k->pages_added);
		assert_int_equal(r->pagecache_hits, k->pages_asked - k->pages_added);
		ops += row_own(r)->ops;
		hits += r->pagecache_hits;
		misses += r->pagecache_misses;
		uint64_t mine[SC_ROW_N] = { 0 };
		struct sc_stats calls[SC_ROW_N];

		join_row_calls(m, r, calls);
		for (unsigned n = 0; n < FCT_NR_MAX; n++) {
			sc[n] += acct_nr(k, n)->count;
			mine[sc_row_of(n)] += acct_nr(k, n)->count;
		}
		/* the saved run's rows: the thread's numbers, summed by row */
		for (int s = 0; s < SC_ROW_N; s++) {
			assert_int_equal(calls[s].count, mine[s]);
			rows[s] += mine[s];
		}
	}
	assert_int_equal(m->ops, ops);
	assert_int_equal(m->pagecache_hits, hits);
	assert_int_equal(m->pagecache_misses, misses);
	for (unsigned n = 0; n < FCT_NR_MAX; n++)
		assert_int_equal(m->nr_total[n].count, sc[n]);
	for (int s = 0; s < SC_ROW_N; s++)
		assert_int_equal(m->sc_total[s].count, rows[s]);
}

static void test_full_set(void **state)
{
	const struct join_fixture *fx = &fixture_fcp_full;
	struct inputs in;
	struct joined_run m;

	load(&in, fx);
	assert_int_equal(join_inputs(&m, &in, &in.kv), 0);
	assert_string_equal(m.probe_set, "full");
	assert_int_equal(m.time_every, fx->time_every);
	check_common(&m, fx);
	/* the run's openat row as the per-kind table had it: the four
	 * threads' figures summed, min and max of theirs, each number's
	 * histogram from the (thread, number) table */
	assert_int_equal(m.sc_total[SC_ROW_OPENAT].count, 710 + 666 + 676 + 657);
	assert_int_equal(m.sc_total[SC_ROW_OPENAT].timed, 145 + 140 + 141 + 139);
	assert_int_equal(m.sc_total[SC_ROW_OPENAT].total_ns, 1758004 + 1529596 + 1486173 + 1588285);
	assert_int_equal(m.sc_total[SC_ROW_OPENAT].min_ns, 1733);
	assert_int_equal(m.sc_total[SC_ROW_OPENAT].max_ns, 30476);
	assert_int_equal(m.sc_total[SC_ROW_OPENAT].hist[64], 394 + 482 + 346 + 301);
	assert_memory_equal(&m.nr_total[__NR_openat], &m.sc_total[SC_ROW_OPENAT],
			    sizeof(struct sc_stats));
	for (unsigned i = 0; i < m.nrows; i++) {
		const struct thread_row *r = &m.rows[i];
		uint64_t waits, named = lock_futex_ns(&in, r->tid, &waits);

		struct sc_stats calls[SC_ROW_N];

		/* fcp: one pread64 per op, counted exactly by the kernel */
		join_row_calls(&m, r, calls);
		assert_int_equal(acct_nr(&r->k, __NR_pread64)->count, row_own(r)->ops);
		assert_int_equal(calls[SC_ROW_PREAD64].count, row_own(r)->ops);
		assert_int_equal(r->acct_ns[ACCT_LOCK_NAMED], named);
		assert_int_equal(r->acct_ns[ACCT_FUTEX_OTHER], r->d.futex_wait_ns - named);
		assert_int_equal(r->acct_ns[ACCT_BLOCKED], r->k.blocked_ns);
		if (waits) {
			assert_int_equal(r->nlocks, 1);
			assert_string_equal(r->locks[0].name, "fcp.pool");
			assert_int_equal(r->locks[0].waits, waits);
			assert_int_equal(r->locks[0].wait_ns, named);
		}
	}
	join_free(&m);
	unload(&in);
}

/* A thread whose futex time came out below its lock's waits (the two come
 * from different hooks): the lock keeps its exact figure in the table and
 * the account (one figure for one wait, as the flame graph's stacks weigh
 * it), and the excess leaves the other buckets (an account that tiled its
 * window still does). */
static void test_lock_waits_capped_by_futex_time(void **state)
{
	const struct join_fixture *fx = &fixture_fcp_full;
	struct inputs in;
	struct joined_run m;
	uint64_t waits = 0, named = 0, locks = 0;
	pid_t tid = 0;

	load(&in, fx);
	for (int i = 0; i < in.kv.nthreads && !waits; i++) {
		tid = (pid_t)in.kv.threads[i].tid;
		named = lock_futex_ns(&in, tid, &waits);
		if (waits) {	/* its futex time now half its lock waits */
			in.kv.threads[i].futex_off_ns = named / 2;
			in.kv.threads[i].futex_on_ns = 0;
		}
	}
	assert_true(waits > 0);
	assert_int_equal(join_inputs(&m, &in, &in.kv), 0);
	for (unsigned i = 0; i < m.nrows; i++) {
		const struct thread_row *r = &m.rows[i];

		if (r->tid != tid)
			continue;
		assert_int_equal(r->acct_ns[ACCT_LOCK_NAMED], named);
		assert_int_equal(r->acct_ns[ACCT_FUTEX_OTHER], 0);
		assert_int_equal(r->locks[0].wait_ns, named);
		/* the doctored input tiles no more; the excess made it no worse */
		assert_true(row_sum(r) <= r->end_ns - r->start_ns);
	}
	for (int l = 0; l < m.nlocks; l++)
		if (m.locks[l].is_lock && !m.locks[l].kernel)
			locks += m.locks[l].wait_ns;
	assert_int_equal(locks, m.acct_total_ns[ACCT_LOCK_NAMED]);
	join_free(&m);
	unload(&in);
}

/* A ring's reaper asleep in io_uring_enter is idle but for the time one
 * of its requests was on the disk; an io_uring worker's interruptible
 * sleep is idle, its uninterruptible sleep is its I/O. */
static void test_idle_in_completion_waits(void **state)
{
	struct thread_row r;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.acct_ns[ACCT_BLOCKED] = 9000000000ull;
	au_nr(&r.k, __NR_io_uring_enter)->blocked_ns = 8000000000ull;
	au_nr(&r.k, __NR_nanosleep)->blocked_ns = 500000000ull;
	r.disk.read_ns = 3000000000ull;
	r.disk.write_ns = 1000000000ull;
	assert_int_equal(join_idle_ns(&r), 500000000ull + 4000000000ull);
	r.disk.read_ns = 9000000000ull;	/* always a request in flight: none idle */
	assert_int_equal(join_idle_ns(&r), 500000000ull);

	memset(&r, 0, sizeof(r));
	snprintf(r.k.comm, sizeof(r.k.comm), "iou-wrk-4242");
	r.acct_ns[ACCT_BLOCKED] = r.k.blocked_ns = 7000000000ull;
	r.k.blocked_io_ns = 2000000000ull;
	assert_int_equal(join_idle_ns(&r), 5000000000ull);
	snprintf(r.k.comm, sizeof(r.k.comm), "mariadbd");	/* any other thread: not so */
	assert_int_equal(join_idle_ns(&r), 0);
}

/* light: no syscall hooks, so no futex table and no syscall counts; the
 * lock's share of "blocked" comes from the workload's own lock clock. */
static void test_light_set(void **state)
{
	const struct join_fixture *fx = &fixture_fcp_light;
	struct inputs in;
	struct joined_run m;

	load(&in, fx);
	/* recorded before light had the cpu-clock sampler, pc-evict and disk */
	assert_int_equal(in.kv.groups | PG_MASK(PG_CPUCLOCK) | PG_MASK(PG_PC_EVICT) | PG_MASK(PG_DISK),
			 PG_LIGHT);
	assert_int_equal(in.kv.nfutex, 0);
	assert_int_equal(join_inputs(&m, &in, &in.kv), 0);
	assert_string_equal(m.probe_set, "light");
	check_common(&m, fx);
	for (unsigned i = 0; i < m.nrows; i++) {
		const struct thread_row *r = &m.rows[i];
		uint64_t named = row_own(r)->lock_wait_ns < r->k.blocked_ns ?
				 row_own(r)->lock_wait_ns : r->k.blocked_ns;

		assert_int_equal(acct_nr(&r->k, __NR_pread64)->count, 0);
		assert_int_equal(r->acct_ns[ACCT_CPU_SYS], 0);	/* no syscall edges */
		assert_int_equal(r->acct_ns[ACCT_CPU_USER], r->k.oncpu_ns);
		assert_int_equal(r->acct_ns[ACCT_LOCK_NAMED], named);
		assert_int_equal(r->acct_ns[ACCT_BLOCKED], r->k.blocked_ns - named);
		assert_int_equal(r->acct_ns[ACCT_FUTEX_OTHER], 0);
		assert_int_equal(r->nlocks, 0);
	}
	join_free(&m);
	unload(&in);
}

/* Kernel lock sites are summed over the workers only, named by type and
 * caller. */
static void test_kernel_lock_totals(void **state)
{
	const struct join_fixture *fx = &fixture_fcp_light;
	struct inputs in;
	struct joined_run m;
	uint64_t waits = 3, ns = 300, got_waits = 0, got_ns = 0;
	bool seen = false;

	load(&in, fx);
	/* a worker's mutex wait, and one of a thread that is no worker */
	in.kv.klock[in.kv.nklock++] = (struct kv_klock){
		.key = { .tid = (uint32_t)in.res.threads[0].tid, .flags = 32 },
		.val = { .waits = 3, .wait_ns = 300 }, .caller = "added_caller" };
	in.kv.klock[in.kv.nklock++] = (struct kv_klock){
		.key = { .tid = 1, .flags = 32 }, .val = { .waits = 5, .wait_ns = 500 },
		.caller = "not_a_worker" };
	for (int i = 0; i < fx->nklock; i++) {
		waits += fx->klock[i].val.waits;
		ns += fx->klock[i].val.wait_ns;
	}
	assert_int_equal(join_inputs(&m, &in, &in.kv), 0);
	for (int i = 0; i < m.nlocks; i++) {
		assert_true(m.locks[i].kernel);
		seen |= !strcmp(m.locks[i].name, "mutex @ added_caller");
		assert_null(strstr(m.locks[i].name, "not_a_worker"));
		assert_non_null(strstr(m.locks[i].name, " @ "));
		got_waits += m.locks[i].waits;
		got_ns += m.locks[i].wait_ns;
	}
	assert_true(seen);
	assert_int_equal(got_waits, waits);
	assert_int_equal(got_ns, ns);
	join_free(&m);
	unload(&in);
}

/* Each thread's exact kernel lock totals are split over its sites by
 * their sampled estimates, to the unit; a tid without an account keeps
 * its estimates. */
static void test_kernel_lock_attribution(void **state)
{
	struct fct_thread th[2] = {
		{ .tid = 10, .klock_waits = 17, .klock_wait_ns = 1000 },
		{ .tid = 20, .klock_waits = 5, .klock_wait_ns = 10 },
	};
	struct kv_klock k[6] = {
		{ .key = { .tid = 10 }, .val = { .waits = 8, .wait_ns = 300 } },
		{ .key = { .tid = 20 }, .val = { .waits = 1, .wait_ns = 7 } },
		{ .key = { .tid = 10 }, .val = { .waits = 8, .wait_ns = 100 } },
		{ .key = { .tid = 30 }, .val = { .waits = 2, .wait_ns = 50 } },
		{ .key = { .tid = 20 }, .val = { .waits = 1, .wait_ns = 7 } },
		{ .key = { .tid = 20 }, .val = { .waits = 1, .wait_ns = 7 } },
	};
	struct kview kv = { .threads = th, .nthreads = 2, .klock = k, .nklock = 6 };

	kview_klock_attribute(&kv);
	assert_int_equal(k[0].val.wait_ns, 750);	/* 1000 * 300 / 400 */
	assert_int_equal(k[2].val.wait_ns, 250);
	assert_int_equal(k[0].val.waits, 8);		/* 17 * 8 / 16, rounded down */
	assert_int_equal(k[2].val.waits, 9);		/* the rest */
	/* three equal sites of 10 ns: 3, 3 and 4, no nanosecond lost */
	assert_int_equal(k[1].val.wait_ns, 3);
	assert_int_equal(k[4].val.wait_ns, 3);
	assert_int_equal(k[5].val.wait_ns, 4);
	assert_int_equal(k[1].val.waits + k[4].val.waits + k[5].val.waits, 5);
	assert_int_equal(k[3].val.wait_ns, 50);
	assert_int_equal(k[3].val.waits, 2);
	assert_int_equal(k[0].est_wait_ns, 300);
	assert_int_equal(k[2].est_waits, 8);
}

/* No sampled wait took a measurable time: split by the weighted waits. */
static void test_kernel_lock_attribution_by_waits(void **state)
{
	struct fct_thread th = { .tid = 10, .klock_waits = 4, .klock_wait_ns = 90 };
	struct kv_klock k[2] = {
		{ .key = { .tid = 10 }, .val = { .waits = 1 } },
		{ .key = { .tid = 10 }, .val = { .waits = 2 } },
	};
	struct kview kv = { .threads = &th, .nthreads = 1, .klock = k, .nklock = 2 };

	kview_klock_attribute(&kv);
	assert_int_equal(k[0].val.wait_ns, 30);
	assert_int_equal(k[1].val.wait_ns, 60);
	assert_int_equal(k[0].val.waits + k[1].val.waits, 4);
}

/* The join is by tid: a stranger's account and futex words outside the
 * workload's locks stay out of the named lock; a reused tid's later
 * window wins; a worker with no account has no kernel figures. */
static void test_join_by_tid(void **state)
{
	const struct join_fixture *fx = &fixture_fcp_full;
	struct inputs in;
	struct joined_run m;
	struct fct_thread stale;
	pid_t w0, w1;
	uint64_t waits, before;

	load(&in, fx);
	w0 = in.res.threads[0].tid;
	w1 = in.res.threads[1].tid;
	before = lock_futex_ns(&in, w0, &waits);
	/* an earlier window of worker 0's tid, with nonsense in it */
	stale = *kernel_of(fx, w0);
	stale.begin_ns -= 1000000;
	stale.oncpu_ns = 123;
	in.kv.threads[in.kv.nthreads++] = stale;
	/* a futex word of worker 0 outside every lock object */
	in.kv.futex[in.kv.nfutex++] = (struct kv_futex){ .key = { (uint32_t)w0, 0, 0x10 },
							  .val = { .waits = 1, .wait_ns = 7000 } };
	/* worker 1's account lost */
	for (int i = 0; i < in.kv.nthreads; i++)
		if (in.kv.threads[i].tid == (uint32_t)w1)
			in.kv.threads[i].tid = 999999;
	assert_int_equal(join_inputs(&m, &in, &in.kv), 0);

	assert_int_equal(m.rows[0].k.begin_ns, in.res.threads[0].start_ns);
	assert_int_equal(m.rows[0].acct_ns[ACCT_CPU_USER], kview_derived(kernel_of(fx, w0)).cpu_user_ns);
	assert_int_equal(m.rows[0].acct_ns[ACCT_LOCK_NAMED], before);
	assert_int_equal(m.rows[0].futex_other_waits, 1);
	assert_int_equal(m.rows[0].futex_other_ns, 7000);
	assert_false(m.rows[1].has_kernel);
	assert_int_equal(row_sum(&m.rows[1]), 0);
	assert_int_equal(m.nr_total[__NR_pread64].count,
			 (uint64_t)(fx->nuser - 1) * in.res.threads[0].ops);
	join_free(&m);
	unload(&in);
}

/* Timing only: the same result, no kernel view. */
static void test_timing_only(void **state)
{
	struct inputs in;
	struct joined_run m;

	load(&in, &fixture_fcp_full);
	assert_int_equal(join_inputs(&m, &in, NULL), 0);
	assert_string_equal(m.probe_set, "none");
	assert_int_equal(m.groups, 0);
	assert_int_equal(m.nrows, in.res.nthreads);
	for (unsigned i = 0; i < m.nrows; i++)
		assert_false(m.rows[i].has_kernel);
	assert_int_equal(m.nlocks, 0);
	join_free(&m);
	unload(&in);
}

/*
 * A JVM's monitor waits land in a fresh lock use: the futex use HotSpot's
 * EnterI was named by is dropped first (the probes name that time), and
 * its slot must not lend its figures to the monitor's row (a run once
 * showed 44 waits where the JVM counted 3).
 */
static void test_jvm_monitor_use_is_fresh(void **state)
{
	struct jvm_thread_info th = { .tid = 100, .name = "pool-worker-0", .java_name = true };
	struct jvm_monitor_row jr = { .tid = 100, .v = { .enters = 3, .enter_ns = 5000,
							  .enter_max_ns = 3000 } };
	struct jvm_monitor mon = { .cls = "PoolBench$Pool", .enters = 3, .enter_ns = 5000,
				   .rows = &jr, .nrows = 1 };
	struct jvm_view v = { .threads = &th, .nthreads = 1, .monitors = &mon, .nmonitors = 1 };
	struct joined_run m = { .nrows = 1 };
	struct thread_row *r;

	m.rows = calloc(1, sizeof(*m.rows));
	assert_non_null(m.rows);
	r = &m.rows[0];
	r->tid = 100;
	r->has_kernel = true;
	r->k.tid = 100;
	r->k.tgid = 99;
	r->acct_ns[ACCT_FUTEX_OTHER] = 9000;
	r->locks[0] = (struct lock_use){ .name = "condvar @ JavaThread::sleep+0x10",
					 .waits = 2, .wait_ns = 1000 };
	r->locks[1] = (struct lock_use){ .name = "condvar @ ObjectMonitor::EnterI+0x4",
					 .waits = 41, .wait_ns = 7000 };
	r->nlocks = 2;

	join_add_jvm(&m, &v, true);
	assert_int_equal(r->nlocks, 2);
	assert_string_equal(r->locks[0].name, "Thread.sleep");
	assert_string_equal(r->locks[1].name, "monitor PoolBench$Pool");
	assert_true(r->locks[1].is_lock);
	assert_int_equal(r->locks[1].waits, 3);
	assert_int_equal(r->locks[1].wait_ns, 5000);
	assert_int_equal(r->locks[1].max_ns, 3000);
	assert_int_equal(r->acct_ns[ACCT_LOCK_NAMED], 5000);
	assert_int_equal(r->acct_ns[ACCT_FUTEX_OTHER], 4000);
	assert_int_equal(m.acct_total_ns[ACCT_LOCK_NAMED], 5000);
	join_free(&m);
}

/*
 * Two HotSpot sleep sites both become "Thread.sleep": one entry of their
 * sums, as the saved run keys a thread's locks by name (a JVM run's
 * unjoined wait time once changed when read back, a use lost).
 */
static void test_jvm_renames_merge(void **state)
{
	struct jvm_thread_info th = { .tid = 100, .name = "sleeper", .java_name = true };
	struct jvm_view v = { .threads = &th, .nthreads = 1 };
	struct joined_run m = { .nrows = 1 };
	struct thread_row *r;

	(void)state;
	m.rows = calloc(1, sizeof(*m.rows));
	assert_non_null(m.rows);
	r = &m.rows[0];
	r->tid = r->k.tid = 100;
	r->k.tgid = 99;
	r->has_kernel = true;
	r->locks[0] = (struct lock_use){ .name = "condvar @ JavaThread::sleep+0x10 from A",
					 .waits = 2, .wait_ns = 1000, .max_ns = 600 };
	r->locks[1] = (struct lock_use){ .name = "mutex @ f+0x1", .waits = 1, .wait_ns = 5 };
	r->locks[2] = (struct lock_use){ .name = "condvar @ JavaThread::sleep+0x10 from B",
					 .waits = 3, .wait_ns = 2000, .max_ns = 900, .runq_ns = 7 };
	r->nlocks = 3;
	join_add_jvm(&m, &v, true);
	assert_int_equal(r->nlocks, 2);
	assert_string_equal(r->locks[0].name, "Thread.sleep");
	assert_int_equal(r->locks[0].waits, 5);
	assert_int_equal(r->locks[0].wait_ns, 3000);
	assert_int_equal(r->locks[0].max_ns, 900);
	assert_int_equal(r->locks[0].runq_ns, 7);
	assert_string_equal(r->locks[1].name, "mutex @ f+0x1");
	join_free(&m);
}

/* futex entries of process 10: waits (op 9, a condvar's) and wakes */
#define WAIT9(tid, addr)	{ .key = { tid, 9, addr }, .val = { .waits = 5, .wait_ns = 500 } }
#define WAKES(tid, addr, n)	{ .key = { tid, FCT_FUTEX_OP_WAKE, addr }, \
				  .val = { .wakes = n, .woken = n } }

static const struct lock_name *name_at(const struct lock_name *n, int count, uint64_t addr)
{
	for (int i = 0; i < count; i++)
		if (n[i].addr == addr)
			return &n[i];
	return NULL;
}

/* Taken in turns: most wakes by its own waiters, three or more of them. */
static void test_condvar_taken_in_turns(void **state)
{
	struct fct_thread th[4] = { { .tid = 1, .tgid = 10 }, { .tid = 2, .tgid = 10 },
				    { .tid = 3, .tgid = 10 }, { .tid = 4, .tgid = 10 } };
	struct kv_futex f[] = {
		/* 0x1000: three threads pass it round (wakes on the group word beside) */
		WAIT9(1, 0x1000), WAIT9(2, 0x1000), WAIT9(3, 0x1004),
		WAKES(1, 0x1000, 10), WAKES(2, 0x1000, 10), WAKES(3, 0x1000, 9),
		/* 0x2000: a producer (4) that never waits signals one consumer */
		WAIT9(1, 0x2000), WAKES(4, 0x2000, 40),
		/* 0x3000: two threads alternating: an event still */
		WAIT9(1, 0x3000), WAIT9(2, 0x3000), WAKES(1, 0x3000, 20), WAKES(2, 0x3000, 20),
		/* 0x4000: too few wakes to tell */
		WAIT9(1, 0x4000), WAIT9(2, 0x4000), WAIT9(3, 0x4000), WAKES(1, 0x4000, 3),
	};
	struct kview kv = { .threads = th, .nthreads = 4, .futex = f,
			    .nfutex = (int)(sizeof(f) / sizeof(*f)) };
	const struct lock_name *n;
	struct lock_name *names;
	int count = lockname_build(NULL, &kv, &names);

	assert_int_equal(count, 5);	/* 0x1000, 0x1004, 0x2000, 0x3000, 0x4000 */
	n = name_at(names, count, 0x1000);
	assert_true(n->turns && n->is_lock);
	assert_int_equal(n->wakes, 29);
	assert_int_equal(n->wakes_by_waiters, 29);
	assert_string_equal(n->name, "condvar taken in turns 0x1000");
	n = name_at(names, count, 0x2000);
	assert_false(n->turns || n->is_lock);
	assert_int_equal(n->wakes, 40);
	assert_int_equal(n->wakes_by_waiters, 0);
	assert_string_equal(n->name, "condvar 0x2000");
	n = name_at(names, count, 0x3000);
	assert_false(n->turns);
	assert_int_equal(n->wakes_by_waiters, 40);
	assert_false(name_at(names, count, 0x4000)->turns);
	free(names);
}

/*
 * A heap condvar at 0x5000: three consumers wait on its __g_signals[0]
 * (0x5028, op 9), a producer signals it and, switching groups, waits on
 * its __g_refs[0] (0x5010, op 0), which the consumers wake. The consumers'
 * wakes of __g_refs are the condvar's bookkeeping, not turns; __g_refs is
 * named as the condvar it serves.
 */
static void test_condvar_grefs_no_turns(void **state)
{
	struct fct_thread th[4] = { { .tid = 1, .tgid = 10 }, { .tid = 2, .tgid = 10 },
				    { .tid = 3, .tgid = 10 }, { .tid = 4, .tgid = 10 } };
	struct kv_futex f[] = {
		WAIT9(1, 0x5028), WAIT9(2, 0x5028), WAIT9(3, 0x5028), WAKES(4, 0x5028, 40),
		{ .key = { 4, 0, 0x5010 }, .val = { .waits = 30, .wait_ns = 300 } },
		WAKES(1, 0x5010, 10), WAKES(2, 0x5010, 10), WAKES(3, 0x5010, 10),
	};
	struct kview kv = { .threads = th, .nthreads = 4, .futex = f,
			    .nfutex = (int)(sizeof(f) / sizeof(*f)) };
	const struct lock_name *sig, *refs;
	struct lock_name *names;
	int count = lockname_build(NULL, &kv, &names);

	(void)state;
	assert_int_equal(count, 2);
	sig = name_at(names, count, 0x5028);
	refs = name_at(names, count, 0x5010);
	assert_false(sig->turns || sig->is_lock);
	assert_int_equal(sig->wakes, 40);
	assert_int_equal(sig->wakes_by_waiters, 0);
	assert_string_equal(sig->name, "condvar 0x5028");
	assert_string_equal(refs->name, "condvar 0x5028");	/* part of it */
	assert_false(refs->is_lock);
	free(names);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_set),
		cmocka_unit_test(test_lock_waits_capped_by_futex_time),
		cmocka_unit_test(test_idle_in_completion_waits),
		cmocka_unit_test(test_light_set),
		cmocka_unit_test(test_kernel_lock_totals),
		cmocka_unit_test(test_kernel_lock_attribution),
		cmocka_unit_test(test_kernel_lock_attribution_by_waits),
		cmocka_unit_test(test_join_by_tid),
		cmocka_unit_test(test_timing_only),
		cmocka_unit_test(test_jvm_monitor_use_is_fresh),
		cmocka_unit_test(test_jvm_renames_merge),
		cmocka_unit_test(test_condvar_taken_in_turns),
		cmocka_unit_test(test_condvar_grefs_no_turns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
