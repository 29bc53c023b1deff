/*
 * test_bpf_blocked.c - the wait flame graph's sleeps in syscalls, on a
 * program fctrace did not write (tests/target_prog coldread): thread
 * "reader" reads pages its own fadvise(DONTNEED) dropped, 3 from
 * load_index for each 1 from load_blob, and writes the time each path
 * slept inside pread64 (its wall time less its CPU and run-queue time,
 * from its own clocks and schedstat): the ground truth. The folded
 * stacks hold both paths under "[blocked in pread64]" down to the
 * kernel's page wait, each with its true share of the sleep within a
 * tenth; the pread64 stacks add up to the JSON's blocked_ns of pread64
 * exactly, and the pprof file's total to the JSON's wait_ns. And a
 * thread's naps in an idle call, sampled less and less.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>
#include "bpfutil.h"
#include "flameutil.h"
#include "testutil.h"
#include "base/sysnames.h"
#include "report/flame.h"
#include "report/report.h"
#include "session/session.h"

/* 20 000 cold reads: the smaller path's share within a tenth of itself
 * (its samples' noise ~3 %; at half as many one CI run was 10.5 % off) */
#define ROUNDS		5000
#define PREAD_LOCK	"[blocked in pread64]"

/* Run coldread; truth[0] load_index's sleep, truth[1] load_blob's. */
static void run_coldread(struct session *s, uint64_t truth[2])
{
	char n[16], *out = test_at("truth"), *argv[] = {
		(char *)target_prog(), "coldread", n, out, NULL };
	struct trace_opts t = { .probes = PG_FULL, .sleep_stacks = true };
	struct target_opts to = { .mode = TGT_EXEC, .argv = argv };
	unsigned long long a = 0, b = 0;
	FILE *f;

	snprintf(n, sizeof(n), "%d", ROUNDS);
	assert_int_equal(session_run_target(&t, &to, s), 0);
	assert_int_equal(target_exit_status(&s->target), 0);
	f = fopen(out, "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%llu %llu", &a, &b), 2);
	fclose(f);
	unlink(out);
	truth[0] = a, truth[1] = b;
}

/* The wait stacks on lock: the time they stand for, or (samples) the
 * samples they were drawn from. */
static uint64_t lock_stacks_sum(const struct stack_set *ss, const char *lock, bool samples)
{
	uint64_t sum = 0;

	for (int i = 0; i < ss->n; i++)
		if (ss->stacks[i].kind == STK_WAIT && !strcmp(ss->stacks[i].lock, lock))
			sum += samples ? ss->stacks[i].samples : ss->stacks[i].ns;
	return sum;
}

static uint64_t lock_stacks_ns(const struct stack_set *ss, const char *lock)
{
	return lock_stacks_sum(ss, lock, false);
}

static uint64_t lock_stacks_samples(const struct stack_set *ss, const char *lock)
{
	return lock_stacks_sum(ss, lock, true);
}

/* A path's share of the sleep against the program's own, within 10 % of
 * it or 3.5 standard errors of a share estimated from n samples, the
 * larger: the sampler takes fewer as a thread sends many (bstack.bpf.h),
 * and the split's error is that of their count. */
static void assert_share(const char *what, uint64_t got, uint64_t total, uint64_t truth,
			 uint64_t truth_total, uint64_t n)
{
	double share = (double)got / (double)total, want = (double)truth / (double)truth_total;
	double tol = fmax(0.1 * want, 3.5 * sqrt(want * (1 - want) / (double)(n ? n : 1)));

	print_message("%s: %.1f %% of pread64's sleep (truth %.1f %%, %llu samples, "
		      "tolerance %.1f points)\n", what, 100 * share, 100 * want,
		      (unsigned long long)n, 100 * tol);
	assert_true(fabs(share - want) < tol);
}

static void test_two_paths_to_the_disk(void **state)
{
	struct flame_opts fo = { 0 };
	const char *folded = test_at("r.folded");
	uint64_t truth[2], idx, blob, kernel, n;
	struct session s;
	int nr = syscall_nr("pread64");

	BPF_TEST_REQUIRE();
	run_coldread(&s, truth);
	assert_true(truth[0] > 0 && truth[1] > 0);
	assert_int_equal(flame_folded_write(&s.stacks, &fo, folded), 0);
	/* coldread, static and called once, is inlined into main (DWARF says) */
	idx = folded_ns(folded, "main;coldread;load_index;read_page;", PREAD_LOCK);
	blob = folded_ns(folded, "main;coldread;load_blob;read_page;", PREAD_LOCK);
	kernel = folded_ns(folded, PREAD_LOCK, "filemap_read_[k]");
	assert_true(idx > 0 && blob > 0);
	/* down to the kernel's wait for the page */
	assert_true(folded_ns(folded, "filemap_read_[k]", "folio_wait") +
		    folded_ns(folded, "filemap_read_[k]", "io_schedule") > 0);
	n = lock_stacks_samples(&s.stacks, PREAD_LOCK);
	assert_share("load_index", idx, idx + blob, truth[0], truth[0] + truth[1], n);
	assert_share("load_blob", blob, idx + blob, truth[1], truth[0] + truth[1], n);
	print_message("%.1f %% of the pread64 sleep has its kernel frames\n",
		      100.0 * (double)kernel / (double)folded_ns(folded, PREAD_LOCK, NULL));
	/* all of the thread's blocked time in pread64, to the nanosecond */
	assert_true(nr >= 0);
	assert_int_equal(lock_stacks_ns(&s.stacks, PREAD_LOCK), s.joined.nr_total[nr].blocked_ns);
	assert_int_equal(folded_ns(folded, PREAD_LOCK, NULL), s.joined.nr_total[nr].blocked_ns);
	unlink(folded);
	session_free(&s);
}

static uint64_t json_u64(struct json_object *o, const char *key)
{
	struct json_object *v;

	assert_true(json_object_object_get_ex(o, key, &v));
	return json_object_get_uint64(v);
}

/* syscalls_by_number's blocked_ns of name. */
static uint64_t json_blocked(struct json_object *doc, const char *name)
{
	struct json_object *a, *o, *n;

	assert_true(json_object_object_get_ex(doc, "syscalls_by_number", &a));
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		o = json_object_array_get_idx(a, i);
		if (json_object_object_get_ex(o, "name", &n) &&
		    !strcmp(json_object_get_string(n), name))
			return json_u64(o, "blocked_ns");
	}
	fail_msg("no %s in syscalls_by_number", name);
	return 0;
}

static void test_totals_are_the_json(void **state)
{
	struct flame_opts fo = { .duration_ns = 1 };
	const char *gz = test_at("r.pb.gz"), *js = test_at("r.json");
	struct json_object *doc, *st;
	struct session s;
	uint64_t truth[2];
	int64_t pp;

	BPF_TEST_REQUIRE();
	run_coldread(&s, truth);
	assert_int_equal(flame_pprof_write(&s.stacks, &fo, gz), 0);
	assert_int_equal(report_json_write(report_json_run(&s), js), 0);
	doc = json_object_from_file(js);
	assert_non_null(doc);
	assert_true(json_object_object_get_ex(doc, "stacks", &st));
	assert_int_equal(lock_stacks_ns(&s.stacks, PREAD_LOCK), json_blocked(doc, "pread64"));
	assert_int_equal(json_u64(st, "blocked_ns"), stacks_blocked_total(&s.stacks));
	pp = pprof_wait_total(gz);
	if (pp < 0)
		print_message("protoc is not installed (apt-get install protobuf-compiler)\n");
	else
		assert_int_equal((uint64_t)pp, json_u64(st, "wait_ns"));
	json_object_put(doc);
	unlink(gz), unlink(js);
	session_free(&s);
}


/* A thread asleep in an idle call again and again (tests/pool_prog, one
 * thread: NAPS naps of 1 ms in nanosleep between its ops) sends its
 * first stacks at once, then fewer: the threshold, 200 us, doubles with
 * every 64 of them, so the first 3 x 64 naps are all sampled and the
 * rest less and less (each would be, at a fixed 200 us). The naps'
 * stacks still add up to the exact blocked time. */
#define NAPS		600
#define NAP_LOCK	"[blocked in clock_nanosleep]"

static void test_idle_sleeps_sampled_less_and_less(void **state)
{
	char n[16], *argv[] = { getenv("FCTRACE_POOL_PROG") ? getenv("FCTRACE_POOL_PROG") :
				".output/tests/pool_prog", "sem", "1", "1", n, "0", "1000", "sleep",
				NULL };
	struct trace_opts t = { .probes = PG_FULL, .sleep_stacks = true };
	struct target_opts to = { .mode = TGT_EXEC, .argv = argv };
	struct session s;
	uint64_t samples;

	BPF_TEST_REQUIRE();
	snprintf(n, sizeof(n), "%d", NAPS);
	setenv("POOL_PROG_OUT", test_at("naps"), 1);
	assert_int_equal(session_run_target(&t, &to, &s), 0);
	unsetenv("POOL_PROG_OUT");
	unlink(test_at("naps"));
	assert_int_equal(target_exit_status(&s.target), 0);
	samples = lock_stacks_samples(&s.stacks, NAP_LOCK);
	print_message("  %d naps of 1 ms: %llu sampled\n", NAPS, (unsigned long long)samples);
	assert_true(samples >= 3 * FCT_BSTACK_DOUBLE);
	assert_true(samples < NAPS * 5 / 6);
	assert_int_equal(s.kv.lost.flame_stack_drops, 0);
	assert_int_equal(lock_stacks_ns(&s.stacks, NAP_LOCK),
			 s.joined.nr_total[syscall_nr("clock_nanosleep")].blocked_ns);
	session_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_paths_to_the_disk),
		cmocka_unit_test(test_totals_are_the_json),
		cmocka_unit_test(test_idle_sleeps_sampled_less_and_less),
	};

	return cmocka_run_group_tests(tests, test_scratch_setup, test_scratch_teardown_empty);
}
