/*
 * test_bpf_crowd.c - a process with thousands of threads, attached to as
 * root: tests/target_prog crowd N makes N threads that wait together,
 * then each makes exactly 3 getppid calls. The thread table is sized
 * from the target's threads at the attach, so every one is accounted,
 * with its exact count; a table made too small (max_threads) loses
 * threads, counts them, and names those alive at the end.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "bpfutil.h"
#include "session/session.h"

#define CROWD		2500	/* well above the old fixed table of 1024 */
#define CROWD_CALLS	3	/* getppid calls per thread */

struct crowd {
	struct gated g;
	bool close_after_go;	/* the end too: the crowd exits */
};

/* target_prog crowd N, up to its "ready" (every thread made). */
static void crowd_start(struct crowd *c, int n)
{
	char num[16];
	const char *args[] = { "crowd", num, NULL };

	snprintf(num, sizeof(num), "%d", n);
	gated_start(&c->g, args);
}

static void go(void *arg)
{
	struct crowd *c = arg;

	gated_go(&c->g);
	if (c->close_after_go) {
		close(c->g.in_fd);
		c->g.in_fd = -1;
	}
}

static int attach(struct crowd *c, unsigned max_threads, uint64_t duration_ns,
		  struct session *s)
{
	struct trace_opts t = { .probes = PG_FULL, .max_threads = max_threads };
	struct target_opts to = { .mode = TGT_ATTACH, .pid = c->g.pid, .on_window = go,
				  .window_arg = c, .duration_ns = duration_ns };

	return session_run_target(&t, &to, s);
}

static unsigned getppids(const struct fct_thread *a)
{
	return (unsigned)acct_nr(a, SYS_getppid & (FCT_NR_MAX - 1))->count;
}

/* Every thread of the crowd accounted, each with exactly its 3 calls. */
static void test_crowd_every_thread(void **state)
{
	struct crowd c = { .close_after_go = true };
	unsigned crowd = 0;
	struct session s;

	BPF_TEST_REQUIRE();
	crowd_start(&c, CROWD);
	assert_int_equal(attach(&c, 0, 0, &s), 0);
	assert_true(s.target.exited);
	assert_int_equal(s.kv.lost.slot_full, 0);
	assert_true(s.kv.slots >= 2 * CROWD);	/* sized from the threads at the attach */
	assert_int_equal(s.kv.slots & (s.kv.slots - 1), 0);
	assert_true(s.kv.slots_bytes >= (uint64_t)s.kv.slots * sizeof(struct fct_account));
	for (int i = 0; i < s.kv.nthreads; i++) {
		const struct fct_thread *a = &s.kv.threads[i];

		if (a->tgid != (uint32_t)c.g.pid || strcmp(a->comm, "crowd"))
			continue;
		crowd++;
		assert_int_equal(getppids(a), CROWD_CALLS);
	}
	assert_int_equal(crowd, CROWD);
	gated_end(&c.g);
	session_free(&s);
}

/* A program started by fctrace (no threads to size the table from)
 * that makes 16 000 threads, each one getppid call: the default table
 * holds every one, with its exact count. */
#define MANY	16000

static void test_default_holds_16000_threads(void **state)
{
	char n[16], *argv[] = { (char *)target_prog(), "threads", n, NULL };
	struct trace_opts t = { .probes = PG_FULL };
	struct target_opts to = { .mode = TGT_EXEC, .argv = argv };
	unsigned made = 0;
	struct session s;

	BPF_TEST_REQUIRE();
	snprintf(n, sizeof(n), "%d", MANY);
	assert_int_equal(session_run_target(&t, &to, &s), 0);
	assert_true(s.target.exited);
	assert_int_equal(s.target.exit_status, 0);
	assert_int_equal(s.kv.slots, FCT_SLOTS_MIN);
	assert_int_equal(s.kv.lost.slot_full, 0);
	assert_int_equal(s.kv.lost.nr_spill_full, 0);
	for (int i = 0; i < s.kv.nthreads; i++) {
		const struct fct_thread *a = &s.kv.threads[i];

		if (a->tgid != (uint32_t)s.target.pid || a->tid == a->tgid)
			continue;
		made++;
		assert_int_equal(getppids(a), 1);
	}
	assert_int_equal(made, MANY);
	session_free(&s);
}

/* 600 threads one after another, never more than a few alive, in a table
 * of 256: ended threads' slots go to new ones while the run goes on, and
 * each thread is accounted once, with exactly its 3 calls. A pass takes
 * threads ended 100 ms before and comes at most every 100 ms: at a thread
 * each 5 ms that is 40 or so slots waiting, and the table leaves room for
 * the watch loop to be late by a second on a busy machine (128 lost 3 or 4
 * beside a second test suite). */
#define CHURN		600
#define CHURN_SLOTS	256

static void test_ended_threads_slots_recycled(void **state)
{
	char n[16], *argv[] = { (char *)target_prog(), "churn", n, "5", NULL };
	struct trace_opts t = { .probes = PG_FULL, .max_threads = CHURN_SLOTS };
	struct target_opts to = { .mode = TGT_EXEC, .argv = argv };
	unsigned made = 0, mains = 0;
	struct session s;

	BPF_TEST_REQUIRE();
	snprintf(n, sizeof(n), "%d", CHURN);
	assert_int_equal(session_run_target(&t, &to, &s), 0);
	assert_int_equal(s.target.exit_status, 0);
	assert_int_equal(s.kv.slots, CHURN_SLOTS);
	assert_int_equal(s.kv.lost.slot_full, 0);
	assert_true(s.kv.slots_recycled >= CHURN + 1 - CHURN_SLOTS);
	for (int i = 0; i < s.kv.nthreads; i++) {
		const struct fct_thread *a = &s.kv.threads[i];

		if (a->tgid != (uint32_t)s.target.pid)
			continue;
		if (a->tid == a->tgid) {
			mains++;
			continue;
		}
		made++;
		assert_int_equal(getppids(a), CROWD_CALLS);
		assert_true(a->end_ns > a->begin_ns);
	}
	assert_int_equal(mains, 1);
	assert_int_equal(made, CHURN);
	session_free(&s);
}

/* The same churn, each thread calling 57 numbers, every call timed: 600
 * threads make 34 200 (thread, number) histograms, past the 16 384 the
 * map holds at once. The entries of recycled threads leave with them:
 * none lost, and every thread keeps its own. */
#define WIDE_NUMBERS	57

static void test_recycled_threads_map_entries_moved(void **state)
{
	char n[16], *argv[] = { (char *)target_prog(), "churn", n, "5", "wide", NULL };
	struct trace_opts t = { .probes = PG_FULL, .max_threads = CHURN_SLOTS, .time_every = 1 };
	struct target_opts to = { .mode = TGT_EXEC, .argv = argv };
	unsigned hists = 0;
	struct session s;

	BPF_TEST_REQUIRE();
	snprintf(n, sizeof(n), "%d", CHURN);
	assert_int_equal(session_run_target(&t, &to, &s), 0);
	assert_int_equal(s.target.exit_status, 0);
	assert_int_equal(s.kv.lost.slot_full, 0);
	assert_int_equal(s.kv.lost.sc_hist_full, 0);
	for (int i = 0; i < s.kv.nsc_hists; i++) {
		const struct kv_sc_hist *h = &s.kv.sc_hists[i];
		const struct fct_thread *a = kview_thread(&s.kv, h->key.tid);

		if (a && a->tgid == (uint32_t)s.target.pid && a->tid != a->tgid &&
		    h->key.nr == (SYS_getpgrp & (FCT_NR_MAX - 1)))
			hists++;
	}
	assert_int_equal(hists, CHURN);	/* one getpgrp histogram a thread */
	assert_true(s.kv.nsc_hists >= CHURN * WIDE_NUMBERS);
	session_free(&s);
}

/* A table of 1024 for 2501 threads: the rest are counted as lost, and
 * those alive at the end are named. */
static void test_crowd_too_small_names_missing(void **state)
{
	struct crowd c = { .close_after_go = false };
	struct session s;

	BPF_TEST_REQUIRE();
	crowd_start(&c, CROWD);
	assert_int_equal(attach(&c, 1024, 300000000ull, &s), 0);
	assert_false(s.target.exited);
	assert_int_equal(s.kv.slots, 1024);
	assert_true(s.kv.nthreads <= 1024);
	assert_int_equal(s.kv.nthreads + s.kv.lost.slot_full, CROWD + 1);
	assert_int_equal(s.kv.nmissing, KV_MISSING_MAX);
	assert_int_equal(s.kv.nmissing + s.kv.missing_more, s.kv.lost.slot_full);
	/* the crowd's threads, or its main thread (target_prog), which the
	 * attach may also find no room for */
	for (int i = 0; i < s.kv.nmissing; i++) {
		if (s.kv.missing[i].tid == (uint32_t)s.target.pid)
			assert_string_equal(s.kv.missing[i].comm, "target_prog");
		else
			assert_string_equal(s.kv.missing[i].comm, "crowd");
		assert_null(kview_thread(&s.kv, s.kv.missing[i].tid));
	}
	assert_true(s.joined.losses.n >= 1);
	/* the loss is the table's: its count and what was kept */
	assert_int_equal(s.joined.losses.l[0].count, s.kv.lost.slot_full);
	assert_float_equal(s.joined.losses.l[0].kept, (double)s.kv.nthreads /
			   (s.kv.nthreads + s.kv.lost.slot_full), 1e-9);
	gated_end(&c.g);
	session_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crowd_every_thread),
		cmocka_unit_test(test_crowd_too_small_names_missing),
		cmocka_unit_test(test_default_holds_16000_threads),
		cmocka_unit_test(test_ended_threads_slots_recycled),
		cmocka_unit_test(test_recycled_threads_map_entries_moved),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
