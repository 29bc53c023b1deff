/*
 * test_bpf_handles.c - the handles' stream and the caches it finds
 * (probe group "handles": bpf/fileuse.bpf.c, user/trace/fileuse.c,
 * user/join/caches.c), against programs that know their own figures:
 * tests/fdcache_prog.c, an LRU of open descriptors over a file set, which
 * counts its accesses, misses and stack distances itself; and the
 * built-in workloads, fc's stream predicting fcp's pool, fcp's own
 * counters checking the stream's; bcache's misses as the blocks stream,
 * and as the Why's block_cache_too_small when its budget is too small.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "binutil.h"
#include "bpfutil.h"
#include "jsonutil.h"
#include "testutil.h"

static const char *fdcache_prog(void)
{
	const char *env = getenv("FCTRACE_FDCACHE_PROG");

	return env ? env : ".output/tests/fdcache_prog";
}

/* What fdcache_prog counted of itself (its one line of output). */
struct truth {
	unsigned long accesses, misses, hits;
	int files, max_open, fix;
};

/* fctrace run --json J -- fdcache_prog DIR files size accesses seed:
 * the program's own figures, and the run document */
static struct json_object *run_budget(int files, int size, const char *accesses,
				      const char *budget, struct truth *t)
{
	char nf[16], ns[16], out[256], err[4096];
	char *json = test_at("handles.json"), *dir = test_at("files");
	struct spawn_opts so = { .uid = -1, .errfd = -1 };

	snprintf(nf, sizeof(nf), "%d", files);
	snprintf(ns, sizeof(ns), "%d", size);
	if (mkdir(dir, 0700) && errno != EEXIST)
		fail_msg("mkdir %s", dir);
	char *const argv[] = { (char *)fctrace_binary(), "run", "--quiet", "--budget",
			       (char *)budget, "--json", json, "--", (char *)fdcache_prog(), dir, nf,
			       ns, (char *)accesses, "7", NULL };
	if (run_fctrace_out(argv, &so, out, sizeof(out), err, sizeof(err)))
		fail_msg("fctrace run failed: %s", err);
	if (sscanf(out, "%lu %lu %d %d %lu %d", &t->accesses, &t->misses, &t->files, &t->max_open,
		   &t->hits, &t->fix) != 6)
		fail_msg("fdcache_prog said '%s'", out);
	return json_file(json);
}

/* Exact figures: no budget, so the file stream never stops. */
static struct json_object *run_fdcache(int files, int size, int accesses, struct truth *t)
{
	char na[16];

	snprintf(na, sizeof(na), "%d", accesses);
	return run_budget(files, size, na, "0", t);
}

/* The curve's hit ratio at exactly size items (the test fails if absent). */
static double mrc_at(struct json_object *cache, uint64_t size)
{
	struct json_object *mrc = json_at(cache, "mrc");

	for (size_t i = 0; mrc && i < json_object_array_length(mrc); i++) {
		struct json_object *p = json_object_array_get_idx(mrc, i);

		if (json_u64_at(p, "size_items") == size)
			return json_num_at(p, "hit_ratio");
	}
	fail_msg("no point of the curve at %llu", (unsigned long long)size);
	return -1;
}

/* The run's handle cache (one process traced), of process comm. */
static struct json_object *cache_of(struct json_object *doc, const char *comm)
{
	struct json_object *c = json_find(doc, "caches", "kind", "handles");

	if (!c)
		fail_msg("no handle cache in the run's caches");
	if (comm)
		assert_string_equal(json_str_at(c, "comm"), comm);
	return c;
}

/* An LRU of 30 over 40 files: every figure is the program's own. */
static void check_lru_exact(void)
{
	struct truth t;
	struct json_object *doc, *c;

	doc = run_fdcache(40, 30, 20000, &t);
	c = cache_of(doc, "fdcache_prog");
	assert_string_equal(json_str_at(c, "object"), "files/ (40 files)");
	assert_int_equal(json_u64_at(c, "accesses"), t.accesses);
	assert_int_equal(json_u64_at(c, "misses"), t.misses);
	assert_int_equal(json_u64_at(c, "working_set.items"), t.files);
	assert_int_equal(json_u64_at(c, "working_set.bytes"), 4096ull * t.files);
	assert_int_equal(json_u64_at(c, "size_now.items"), t.max_open);
	assert_true(fabs(json_num_at(c, "size_now.hit_ratio") -
			 (1.0 - (double)t.misses / (double)t.accesses)) < 1e-9);
	/* its own cache is an LRU of 30: the curve at 30 is what it had */
	assert_true(fabs(mrc_at(c, 30) - (double)t.hits / (double)t.accesses) < 1e-9);
	assert_int_equal(json_u64_at(c, "fix_size.items"), t.fix);
	assert_true(json_num_at(c, "sample_rate") == 1.0);
	json_object_put(doc);
}

/* The handles' code inside the syscall programs (the default). */
static void test_lru_exact(void **state)
{
	(void)state;
	BPF_TEST_REQUIRE();
	check_lru_exact();
}

/* And in programs of its own: the same stream, the same figures. */
static void test_lru_exact_apart(void **state)
{
	(void)state;
	BPF_TEST_REQUIRE();
	setenv("FCTRACE_HANDLES_APART", "1", 1);
	check_lru_exact();
	unsetenv("FCTRACE_HANDLES_APART");
}

/* A cache that holds the whole set misses each file once: a cache entry,
 * no finding. */
static void test_fits(void **state)
{
	struct truth t;
	struct json_object *doc, *c, *why;

	(void)state;
	BPF_TEST_REQUIRE();
	doc = run_fdcache(40, 40, 5000, &t);
	c = cache_of(doc, "fdcache_prog");
	assert_int_equal(t.misses, 40);
	assert_int_equal(json_u64_at(c, "misses"), 40);
	assert_int_equal(json_u64_at(c, "size_now.items"), 40);
	why = json_at(doc, "diagnosis");
	for (size_t i = 0; why && i < json_object_array_length(why); i++)
		assert_string_not_equal(json_str_at(json_object_array_get_idx(why, i), "cause"),
					"cache_too_small");
	json_object_put(doc);
}

/* fctrace run --workload wl over 60 files; cache_size: bcache's budget
 * (NULL: its default, 64M, more than the 6 MB of blocks) */
static struct json_object *run_workload_cache(const char *wl, const char *cache_size)
{
	char *json = test_at(wl), err[4096];
	struct spawn_opts so = { .uid = -1, .errfd = -1 };
	char *const argv[] = { (char *)fctrace_binary(), "run", "--quiet", "--workload", (char *)wl,
			       "--files", "60", "--threads", "2", "--ops", "30000", "--json", json,
			       cache_size ? "--cache-size" : NULL, (char *)cache_size, NULL };

	if (run_fctrace(argv, &so, err, sizeof(err)))
		fail_msg("fctrace run --workload %s failed: %s", wl, err);
	return json_file(json);
}

static struct json_object *run_workload(const char *wl)
{
	return run_workload_cache(wl, NULL);
}

/* fc opens every file on every use: its stream predicts the hit ratio of
 * fcp's pool of 50 (an LRU) within 2 points; fcp's own counters check the
 * stream's misses and the most it kept open. */
static void test_builtin(void **state)
{
	struct json_object *fc, *fcp, *c;
	double predicted, pool;

	(void)state;
	BPF_TEST_REQUIRE();
	fc = run_workload("fc");
	fcp = run_workload("fcp");
	predicted = mrc_at(cache_of(fc, NULL), 50);
	pool = json_num_at(fcp, "pool.hit_ratio");
	print_message("fc's curve at 50: %.4f, fcp's pool: %.4f\n", predicted, pool);
	assert_true(fabs(predicted - pool) < 0.02);
	c = cache_of(fcp, NULL);
	/* a file's first open is not a miss of the set: 60 first opens */
	assert_int_equal(json_u64_at(c, "misses"), json_u64_at(fcp, "pool.misses") - 60);
	assert_int_equal(json_u64_at(c, "size_now.items"), json_u64_at(fcp, "pool.max_open"));
	assert_int_equal(json_u64_at(c, "working_set.items"), 60);
	json_object_put(fc);
	json_object_put(fcp);
}

/* bcache's misses are its preads: the blocks stream is exactly them, and
 * its size and hit ratio are said unknown (its hits make no syscall). Its
 * cache holds 2 MiB of the 6 MB of blocks, so it evicts and reads blocks
 * again: with the default 64 MiB every block fits, and a block read twice
 * (what makes the stream a cache's misses) came only from two threads
 * missing it at once, a race a run could lose (seen in full suites). */
static void test_blocks_bcache(void **state)
{
	struct json_object *doc, *c;

	(void)state;
	BPF_TEST_REQUIRE();
	doc = run_workload_cache("bcache", "2M");
	c = json_find(doc, "caches", "kind", "blocks");
	if (!c)	/* say what the run had */
		fail_msg("no blocks entry; caches %s; losses %s; cache %s",
			 json_object_to_json_string(json_at(doc, "caches")),
			 json_object_to_json_string(json_at(doc, "losses")),
			 json_object_to_json_string(json_at(doc, "cache")));
	assert_int_equal(json_u64_at(c, "accesses"), json_u64_at(doc, "cache.misses"));
	assert_int_equal(json_u64_at(c, "misses"), json_u64_at(doc, "cache.misses"));
	assert_null(json_at(c, "size_now.items"));
	assert_non_null(json_at(c, "size_now.why_unknown"));
	json_object_put(doc);
}

/* The Why's cause named id, or NULL. */
static struct json_object *cause_of(struct json_object *doc, const char *id)
{
	return json_find(doc, "diagnosis", "cause", id);
}

/* bcache with 1 MiB for its 6 MB of blocks re-reads most of them: the Why
 * says so for its process, with its working set and its option; with
 * its default 64 MiB every block fits and nothing is said. */
static void test_blocks_cause(void **state)
{
	struct json_object *small, *big, *c, *why;

	(void)state;
	BPF_TEST_REQUIRE();
	small = run_workload_cache("bcache", "1M");
	c = json_find(small, "caches", "kind", "blocks");
	assert_non_null(c);
	why = cause_of(small, "block_cache_too_small");
	assert_non_null(why);
	print_message("%s\n", json_str_at(why, "title"));
	/* the cause is this process's cache, its working set the entry's (6 MiB) */
	assert_int_equal(json_u64_at(why, "figures.pid"), json_u64_at(c, "pid"));
	assert_int_equal(json_u64_at(why, "figures.working_set_bytes"),
			 json_u64_at(c, "working_set.bytes"));
	assert_true(json_num_at(why, "figures.rereads") == json_num_at(c, "rereads"));
	/* the built-in workload's own option, at the working set's MiB */
	assert_string_equal(json_str_at(why, "knob"), "--cache-size");
	assert_int_equal(json_u64_at(why, "figures.fix_value"),
			 json_u64_at(c, "working_set.bytes") / (1024 * 1024) + 1);
	/* by its own counters it missed each block many times: it re-read them */
	assert_true(json_u64_at(small, "cache.misses") > 10 * json_u64_at(c, "working_set.items"));
	/* exact keys: every read past a block's first is a re-read */
	assert_true(json_num_at(c, "rereads") == (double)(json_u64_at(c, "accesses") -
							  json_u64_at(c, "working_set.items")));
	assert_int_equal(json_u64_at(c, "direct"), 0);
	big = run_workload("bcache");
	assert_null(cause_of(big, "block_cache_too_small"));
	json_object_put(small);
	json_object_put(big);
}

/* The budget (selfcost.h), against fdcache_prog's accesses for 9 s (the
 * budget acts from the second sample, 5 s into the window, and its trial
 * takes the next second: a count of accesses ended inside the trial on a
 * faster machine). A budget nothing keeps to: the stream stops for the
 * trial's second, which takes a measurable part of the share off (this
 * program's every call is on a file), so it stays stopped, and the share
 * still over, timing steps down. A budget between the two shares: the
 * stream stays stopped and timing is kept. The shares are fctrace's own
 * measure (checked against bpftool's run_time_ns in docs/overhead.md). */
#define BUDGET_SECONDS	"9s"

static uint64_t handles_accesses(struct json_object *doc)
{
	struct json_object *c = cache_of(doc, "fdcache_prog");

	return c ? json_u64_at(c, "accesses") : 0;
}

/* Still over the budget with the stream stopped: syscall timing went
 * from 1 call in 8 to 1 in 64 and the counts stayed exact. Timing 1 in 8
 * all along times count / 8 calls and more (each thread's first 64 of a
 * number are all timed): fewer means the step took. */
static void check_timing_step(struct json_object *doc)
{
	struct json_object *o = json_at(doc, "overhead");
	uint64_t count = json_u64_at(doc, "syscalls.pread64.count");
	uint64_t timed = json_u64_at(doc, "syscalls.pread64.timed");

	print_message("  timing 1 in %llu -> %llu at %.2f s (%.1f %% after); pread64 %llu calls, "
		      "%llu timed\n", (unsigned long long)json_u64_at(o, "time_every_before"),
		      (unsigned long long)json_u64_at(o, "time_every_after"),
		      json_u64_at(o, "timing_stepped_at_ns") / 1e9,
		      100 * json_num_at(o, "timing_share"), (unsigned long long)count,
		      (unsigned long long)timed);
	assert_true(json_u64_at(o, "timing_stepped_at_ns") > 0);
	assert_int_equal(json_u64_at(o, "time_every_before"), 8);
	assert_int_equal(json_u64_at(o, "time_every_after"), 64);
	assert_true(timed > 0 && timed * 8 < count);
}

static void test_budget(void **state)
{
	struct json_object *doc, *o;
	struct truth t;
	double with, without;
	char mid[32];

	BPF_TEST_REQUIRE();
	doc = run_budget(20, 10, BUDGET_SECONDS, "0.001", &t);
	o = json_at(doc, "overhead");
	assert_non_null(o);
	assert_true(json_u64_at(o, "samples") >= 2);
	assert_true(json_u64_at(o, "bpf_ns") > 0 && json_u64_at(o, "bpf_runs") > 0);
	assert_true(json_u64_at(o, "target_cpu_ns") > 0);
	with = json_num_at(o, "with_files_share");
	without = json_num_at(o, "without_files_share");
	print_message("  budget 0.001 %%: with the file stream %.1f %%, without %.1f %%\n",
		      100 * with, 100 * without);
	assert_true(with > without && without > 0.00001);
	assert_true(json_u64_at(o, "files_stopped_at_ns") > 0);	/* stays stopped */
	assert_int_equal(json_u64_at(o, "files_trial_ns"), 0);
	assert_true(handles_accesses(doc) > 0 && handles_accesses(doc) < t.accesses);
	check_timing_step(doc);
	json_object_put(doc);

	snprintf(mid, sizeof(mid), "%f", 100 * (with + without) / 2);
	doc = run_budget(20, 10, BUDGET_SECONDS, mid, &t);
	o = json_at(doc, "overhead");
	assert_non_null(o);
	print_message("  budget %s %%: with %.1f %%, without %.1f %%, stopped at %.2f s\n", mid,
		      100 * json_num_at(o, "with_files_share"),
		      100 * json_num_at(o, "without_files_share"),
		      json_u64_at(o, "files_stopped_at_ns") / 1e9);
	assert_true(json_u64_at(o, "files_stopped_at_ns") > 0);
	assert_int_equal(json_u64_at(o, "files_trial_ns"), 0);
	assert_true(handles_accesses(doc) < t.accesses);
	assert_int_equal(json_u64_at(o, "timing_stepped_at_ns"), 0);	/* kept to it */
	json_object_put(doc);
}

/* target_prog sharedpool: "pool-a" then "pool-b" read the same 300
 * pages once each. Sharing a writable mapping (one pool, as PostgreSQL's
 * backends), their reads are one stream: b's 300 are re-reads of a's;
 * sharing none, each is a cache of its own that read every page once. */
static struct json_object *run_sharedpool(const char *shared)
{
	char *json = test_at("sharedpool.json"), err[4096];
	struct spawn_opts so = { .uid = -1, .errfd = -1 };
	char *const argv[] = { (char *)fctrace_binary(), "run", "--quiet", "--follow",
			       "--budget", "0", "--json", json, "--", (char *)target_prog(),
			       "sharedpool", "300",
			       (char *)shared, NULL };

	if (run_fctrace(argv, &so, err, sizeof(err)))
		fail_msg("fctrace run -- target_prog sharedpool failed: %s", err);
	return json_file(json);
}

static void test_shared_pool(void **state)
{
	struct json_object *doc, *c;
	uint64_t parent;

	(void)state;
	BPF_TEST_REQUIRE();
	doc = run_sharedpool("1");
	c = json_find(doc, "caches", "kind", "blocks");
	assert_non_null(c);
	/* the parent's dynamic loader reads libc's program headers twice
	 * (pread64 of 784 bytes at 64: one block, then a re-read); when the
	 * stream has them (it may start after), the parent's maps are read
	 * after it made the pool, and it joins it with those 2 reads */
	parent = json_u64_at(c, "accesses") - 600;
	print_message("  the parent's reads in the pool: %llu\n", (unsigned long long)parent);
	assert_true(parent == 0 || parent == 2);
	assert_int_equal(json_u64_at(c, "processes"), 2 + (parent > 0));
	assert_true(json_u64_at(c, "shared_bytes") >= (2u << 20));
	assert_int_equal(json_u64_at(c, "working_set.items"), 300 + (parent > 0));
	assert_true(json_num_at(c, "rereads") == 300 + (parent > 0));
	assert_int_equal(json_u64_at(c, "direct"), 0);
	json_object_put(doc);

	doc = run_sharedpool("0");
	assert_null(json_find(doc, "caches", "kind", "blocks"));	/* no block read twice */
	json_object_put(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lru_exact),
		cmocka_unit_test(test_lru_exact_apart),
		cmocka_unit_test(test_fits),
		cmocka_unit_test(test_builtin),
		cmocka_unit_test(test_blocks_bcache),
		cmocka_unit_test(test_blocks_cause),
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_shared_pool),
	};

	return cmocka_run_group_tests(tests, test_scratch_setup, test_scratch_teardown);
}
