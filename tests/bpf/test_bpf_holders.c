/*
 * test_bpf_holders.c - the holders probes, in the full set, against a
 * program fctrace did not write that times its own holds
 * (tests/holdprog: 8 threads, one static mutex over a handle table whose
 * misses stat, open and close files inside it), run through the tracer
 * API from its exec to its exit (holdutil.c, as `make holdcheck` does):
 *   locked   held within 25 %, the syscall share of the hold within 10
 *            points (SC_POINTS), the syscalls made inside the lock by
 *            name as the program counted them (see EARLY_CALLS);
 *   fixed    the syscalls moved out: their share of the hold under 10 %;
 *   preempt  long holds, more runnable threads than CPUs: the preempted
 *            share shows;
 *   cold     the files' pages dropped, a miss reads inside the lock:
 *            the blocked share shows.
 * Needs root; fails (not skips) when the holders code did not run.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <json-c/json.h>
#include "binutil.h"
#include "bpfutil.h"
#include "holdutil.h"
#include "jsonutil.h"
#include "testutil.h"

/*
 * A syscall is charged to a lock only if its word was watched when the
 * call began, and a word is watched from the first futex wait on it that
 * finds a traced owner. Holdprog's workers start together at a barrier
 * (its spinners after it), so on a quiet machine the lock is contended
 * within its first holds and the calls of those holds are the ones not
 * charged: 0 to 4 of a name in 12 runs of the four modes (a miss makes
 * one of each). On a machine loaded by other work (load average 8-9)
 * the other workers were scheduled late and the first holder went on
 * alone longer: up to 340 of 26 649 calls of a name (1.3 %) in the
 * locked mode, 14 of 412 (3.4 %) in the preempt mode, and beside two
 * CPU hogs in a full suite 52 of 868 (6.0 %) in the cold mode, whose
 * first holds wait for the disk. So: at most EARLY_CALLS of a name, or
 * EARLY_PCT % of the program's count if that is more.
 */
#define EARLY_CALLS	25
#define EARLY_PCT	10

/* The syscalls' share of the hold against the program's own clock, in
 * points: on holds that are all syscalls, 0.6-2.6 points under it quiet
 * and beside two CPU hogs (docs/holders.md) since the spans between
 * charged calls are timed; 4-10 quiet and 10-14 busy before. */
#define SC_POINTS	10

static char prog[4096];

static char *holdprog(void)
{
	const char *env = getenv("FCTRACE_HOLDPROG");

	snprintf(prog, sizeof(prog), "%s", env ? env : ".output/tests/holdprog");
	return prog;
}

/* Run holdprog with args (NULL-terminated, at most 8) under the full set;
 * the lock its holders held longest. */
static const struct fct_hold_lock *run(struct hold_run *r, const char *const *args)
{
	char *argv[10] = { holdprog() };
	const struct fct_hold_lock *h;

	for (int i = 0; args[i] && i < 8; i++)
		argv[i + 1] = (char *)args[i];
	assert_int_equal(hold_run(argv, PG_FULL, NULL, r), 0);
	assert_true(WIFEXITED(r->status));
	assert_int_equal(WEXITSTATUS(r->status), 0);
	if (r->holders.state != PROBE_OK)
		fail_msg("the holders code did not run: %s", probe_status_text(&r->holders));
	hold_print(stderr, r);
	assert_true(r->truth.nsc > 0);		/* its JSON was read */
	h = hold_main_lock(r);
	assert_non_null(h);
	assert_int_equal(h->sc_unconfirmed, 0);
	return h;
}

/* Every name the program counted, charged as often (less the calls made
 * before the word was watched), and nothing else charged. */
static void assert_syscalls_by_name(const struct fct_hold_lock *h, const struct hold_truth *tr)
{
	uint64_t named = 0;

	for (int i = 0; i < tr->nsc; i++) {
		uint64_t bpf = hold_sc_count(h, tr->sc_name[i]), own = (uint64_t)tr->sc_count[i];

		print_message("  %-10s in lock: program %llu, bpf %llu\n", tr->sc_name[i],
			      (unsigned long long)own, (unsigned long long)bpf);
		assert_true(bpf <= own);
		assert_true(own - bpf <= EARLY_CALLS || own - bpf <= own * EARLY_PCT / 100);
		named += bpf;
	}
	assert_int_equal(h->sc_count, named);
}

/* The checks of a run with syscalls inside the lock. */
static void assert_agrees(const struct fct_hold_lock *h, const struct hold_truth *tr,
			  struct hold_cmp *c)
{
	hold_compare(h, tr, c);
	print_message("  held %+.1f %%, syscall share bpf %.1f %% program %.1f %%, preempted "
		      "%.1f %%, blocked %.1f %%\n", c->held_err, c->sc_share_bpf, c->sc_share_prog,
		      c->preempted_share, c->blocked_share);
	assert_true(fabs(c->held_err) <= 25);
	assert_true(fabs(c->sc_share_bpf - c->sc_share_prog) <= SC_POINTS);
	assert_syscalls_by_name(h, tr);
}

/*
 * Holds that are all syscalls, no user spin (newfstatat, openat, close:
 * the program finds ~91 % of the hold in them by its own clock, the rest
 * its clock reads and loop). The BPF share counts the paths outside the
 * tracepoints: the spans between two charged calls (exact), the kernel
 * samples elsewhere, those in fctrace's own syscall programs, a
 * preemption on the way back or between two calls, and the late samples
 * the calibration finds (holders.c). Within SC_POINTS of the program's
 * own clock quiet and beside two CPU hogs (docs/holders.md).
 */
static void test_locked(void **state)
{
	static const char *const args[] = { "--ops", "20000", NULL };
	static struct hold_run r;
	const struct fct_hold_lock *h;
	struct hold_cmp c;

	BPF_TEST_REQUIRE();
	h = run(&r, args);
	assert_agrees(h, &r.truth, &c);
	assert_true(c.sc_share_prog > 80);	/* the program's design: all syscalls */
	assert_true(h->gaps > 0);		/* the spans between its calls were measured */
	assert_true(h->spans > 0);		/* and timed */
}

static void test_fixed(void **state)
{
	static const char *const args[] = { "--ops", "10000", "--fixed", NULL };
	static struct hold_run r;
	const struct fct_hold_lock *h;
	struct hold_cmp c;

	BPF_TEST_REQUIRE();
	h = run(&r, args);
	hold_compare(h, &r.truth, &c);
	print_message("  held %+.1f %%, syscall share bpf %.1f %%\n", c.held_err, c.sc_share_bpf);
	assert_true(c.sc_share_bpf < 10);
	assert_syscalls_by_name(h, &r.truth);	/* none, on either side */
}

static void test_preempt(void **state)
{
	/* holds of 3 ms, longer than a scheduler slice, and 8 spinners: with
	 * 200 us holds and 4 the woken next holder ran at once often enough
	 * that quiet runs found 13-19 % preempted; now 71-75 % in five */
	static const char *const args[] = { "--ops", "20", "--preempt", "--hold-us", "3000",
					    "--spinners", "8", NULL };
	static struct hold_run r;
	const struct fct_hold_lock *h;
	struct hold_cmp c;

	BPF_TEST_REQUIRE();
	h = run(&r, args);
	assert_agrees(h, &r.truth, &c);
	assert_true(c.preempted_share > 20);	/* a holder and 8 spinners on 2 CPUs */
}

/* The disk requests the holders waited for inside the lock (the disk
 * group's completions joined to the charged syscalls): the program's
 * cold reads made them (one each, less those merged into another's:
 * 91-92 % here), and their time is inside the calls the program timed
 * inside the lock. */
static void check_disk_in_lock(const struct fct_hold_lock *h, const struct hold_truth *tr)
{
	double preads = 0;

	for (int i = 0; i < tr->nsc; i++)
		if (!strcmp(tr->sc_name[i], "pread64"))
			preads = tr->sc_count[i];
	print_message("  disk in the lock: %llu requests, %.1f ms; the program's %.0f cold reads, "
		      "%.1f ms in its calls inside the lock\n", (unsigned long long)h->disk_ios,
		      h->disk.ns / 1e6, preads, tr->sc_ns / 1e6);
	assert_true(preads > 0);
	assert_true((double)h->disk_ios >= 0.5 * preads);
	assert_true((double)h->disk_ios <= 4 * preads);
	assert_true((double)h->disk.ns <= 1.05 * tr->sc_ns);
	assert_true(h->disk.ns > 0);
}

static void test_cold(void **state)
{
	static const char *const args[] = { "--ops", "600", "--cold", NULL };
	static struct hold_run r;
	const struct fct_hold_lock *h;
	struct hold_cmp c;

	BPF_TEST_REQUIRE();
	h = run(&r, args);
	assert_agrees(h, &r.truth, &c);
	assert_true(c.blocked_share > 15);	/* a miss's read from disk: 40-65 % */
	check_disk_in_lock(h, &r.truth);
}

/*
 * The budget's third step: past a budget nothing keeps to (0.001 %), the
 * holders are followed for the 2 locks waited on most and the others'
 * holders figures are dropped. target_prog mutexes: 4 mutexes, the
 * first in 4 of each 10 turns, the last in 1, so the two it keeps are
 * the two most waited on at the end too. The steps begin at the second
 * sampled second (5 s) and take a second each: an 11 s run.
 */
static void test_budget_narrows_holders(void **state)
{
	char *json = test_at("mutexes.json"), err[4096];
	struct spawn_opts so = { .uid = -1, .errfd = -1 };
	char *const argv[] = { (char *)fctrace_binary(), "run", "--quiet", "--budget", "0.001",
			       "--probes", "syscalls,sched,cpuclock,holders", "--json", json, "--",
			       (char *)target_prog(), "mutexes", "4", "11000", NULL };
	struct json_object *doc, *locks;
	uint64_t kept_least = UINT64_MAX, dropped_most = 0;
	int kept = 0, dropped = 0;

	(void)state;
	BPF_TEST_REQUIRE();
	if (run_fctrace(argv, &so, err, sizeof(err)))
		fail_msg("fctrace run -- target_prog mutexes failed: %s", err);
	doc = json_file(json);
	assert_true(json_u64_at(doc, "overhead.holders_narrowed_at_ns") > 0);
	assert_int_equal(json_u64_at(doc, "overhead.holders_kept"), 2);
	assert_int_equal(json_u64_at(doc, "overhead.holders_dropped"), 2);
	locks = json_at(doc, "locks");
	for (size_t i = 0; i < json_object_array_length(locks); i++) {
		struct json_object *l = json_object_array_get_idx(locks, i), *h;
		uint64_t waits = json_u64_at(l, "waits");

		if (!strstr(json_object_get_string(json_object_object_get(l, "name")), "(mutex)"))
			continue;
		h = json_object_object_get(l, "holders");
		if (h && !json_object_is_type(h, json_type_null)) {
			kept++;
			kept_least = waits < kept_least ? waits : kept_least;
		} else {
			dropped++;
			dropped_most = waits > dropped_most ? waits : dropped_most;
		}
	}
	print_message("  holders kept for %d mutexes (least waits %llu), dropped for %d (most "
		      "%llu)\n", kept, (unsigned long long)kept_least, dropped,
		      (unsigned long long)dropped_most);
	assert_int_equal(kept, 2);
	assert_int_equal(dropped, 2);
	assert_true(kept_least > dropped_most);
	json_object_put(doc);
	/* a run without the disk group saves its holders' disk_ns as null:
	 * its report is printed again (it was refused once) */
	char *const report[] = { (char *)fctrace_binary(), "report", json, NULL };
	if (run_fctrace(report, &so, err, sizeof(err)))
		fail_msg("fctrace report of the saved run failed: %s", err);
	unlink(json);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_locked),
		cmocka_unit_test(test_fixed),
		cmocka_unit_test(test_preempt),
		cmocka_unit_test(test_cold),
		cmocka_unit_test(test_budget_narrows_holders),
	};

	return cmocka_run_group_tests(tests, test_scratch_setup, test_scratch_teardown);
}
