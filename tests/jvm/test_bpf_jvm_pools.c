/*
 * test_bpf_jvm_pools.c - a JVM's pools of N (join/pools_jvm.c) against a
 * Java program that times its own waits and holds (tests/java/JPoolBench:
 * 12 threads take one of 3 items 100 times each and hold it 2 ms asleep),
 * run as `run -- java ...` through the whole pipeline, as root:
 *   wait  a free count under a monitor, Object.wait while none is free:
 *         the pool named by its class and call site, capacity 3 (the
 *         threads not queued, "at most"), its waits the program's
 *         Object.wait calls exactly, its mean hold within 25 % of the
 *         program's, and the Why's first cause pool_too_small;
 *   sem   a java.util.concurrent.Semaphore of 3 permits: the park on it
 *         a pool of capacity 3.
 * Fails (not skips) in CI when a probe cannot load or no JDK is there.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>
#include "bpfutil.h"
#include "javautil.h"
#include "jsonutil.h"

#define THREADS		"12"
#define CAPACITY	3
#define TAKES		"100"
#define HOLD_MS		"2"

struct truth {
	long long waits, wait_ns, takes, hold_ns, wall_ns;
};

static void read_truth(const char *path, struct truth *t)
{
	char line[512] = "";
	FILE *f = fopen(path, "re");

	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	fclose(f);
	t->waits = java_stat(line, "pool", "all", "waits");
	t->wait_ns = java_stat(line, "pool", "all", "wait_ns");
	t->takes = java_stat(line, "pool", "all", "takes");
	t->hold_ns = java_stat(line, "pool", "all", "hold_ns");
	t->wall_ns = java_stat(line, "pool", "all", "wall_ns");
	print_message("  program: %s", line);
	assert_true(t->waits > 0 && t->takes > 0 && t->hold_ns > 0);
}

/* ./fctrace run --json -- java JPoolBench MODE ... (the agent beside
 * ./fctrace names the waits by class and site): the run's document, and
 * the program's own figures in t. */
static struct json_object *run(const char *mode, struct truth *t)
{
	char dir[] = "/tmp/fct-jpool-XXXXXX", cmd[1024];
	struct json_object *doc;

	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "./fctrace run --quiet --json %s/run.json -- java -cp %s "
		 "JPoolBench %s " THREADS " %d " TAKES " " HOLD_MS " %s/truth > %s/out 2>&1",
		 dir, java_classpath(), mode, CAPACITY, dir, dir);
	if (system(cmd) != 0) {
		snprintf(cmd, sizeof(cmd), "cat %s/out", dir);
		(void)!system(cmd);
		fail_msg("fctrace run failed");
	}
	snprintf(cmd, sizeof(cmd), "%s/truth", dir);
	read_truth(cmd, t);
	snprintf(cmd, sizeof(cmd), "%s/run.json", dir);
	doc = json_file(cmd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	return doc;
}

static struct json_object *pool_named(struct json_object *doc, const char *prefix)
{
	struct json_object *pools = json_must_at(doc, "pools");

	assert_non_null(pools);
	for (size_t i = 0; i < json_object_array_length(pools); i++) {
		struct json_object *p = json_object_array_get_idx(pools, i);
		const char *name = json_str_at(p, "name");

		print_message("  pool %s: capacity %s (%.2f, %s), %llu waits, hold %.2f ms\n",
			      name, json_object_get_string(json_at(p, "capacity")),
			      json_num_at(p, "capacity_estimate"), json_str_at(p, "capacity_method"),
			      (unsigned long long)json_u64_at(p, "waits"),
			      json_num_at(p, "hold_ns_mean") / 1e6);
		if (!strncmp(name, prefix, strlen(prefix)))
			return p;
	}
	fail_msg("no pool named %s... (%zu pools)", prefix, json_object_array_length(pools));
	return NULL;
}

static void test_object_wait_pool(void **state)
{
	struct truth t;
	struct json_object *doc, *p;
	double prog_hold, hold;

	(void)state;
	JAVA_REQUIRE();
	doc = run("wait", &t);
	p = pool_named(doc, "Object.wait on JPoolBench$Pool @ JPoolBench$Pool.take");
	assert_string_equal(json_str_at(p, "kind"), "object_wait");
	assert_string_equal(json_str_at(p, "capacity_method"), "not_queued");
	assert_int_equal(json_u64_at(p, "capacity"), CAPACITY);
	assert_int_equal(json_u64_at(p, "threads"), 12);
	/* the agent saw every Object.wait the program made */
	assert_int_equal((long long)json_u64_at(p, "waits"), t.waits);
	prog_hold = (double)t.hold_ns / (double)t.takes;
	hold = json_num_at(p, "hold_ns_mean");
	print_message("  hold: fctrace %.3f ms, program %.3f ms\n", hold / 1e6, prog_hold / 1e6);
	assert_true(fabs(hold / prog_hold - 1) <= 0.25);
	/* the hold is asleep (Thread.sleep), not preempted or on CPU */
	assert_true(json_num_at(p, "hold_state.blocked_ns") > hold / 2);
	assert_string_equal(json_str_at(doc, "diagnosis.0.cause"), "pool_too_small");
	/* the cause's figures are this pool's */
	assert_int_equal(json_u64_at(doc, "diagnosis.0.figures.capacity"), CAPACITY);
	assert_int_equal(json_u64_at(doc, "diagnosis.0.figures.threads"), 12);
	assert_int_equal(json_u64_at(doc, "diagnosis.0.figures.waits"), t.waits);
	json_object_put(doc);
}

static void test_semaphore_pool(void **state)
{
	struct truth t;
	struct json_object *doc, *p;

	(void)state;
	JAVA_REQUIRE();
	doc = run("sem", &t);
	p = pool_named(doc, "park java.util.concurrent.Semaphore");
	assert_string_equal(json_str_at(p, "kind"), "park");
	assert_int_equal(json_u64_at(p, "capacity"), CAPACITY);
	json_object_put(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_object_wait_pool),
		cmocka_unit_test(test_semaphore_pool),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
