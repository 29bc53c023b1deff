/*
 * test_bpf_target_jvm.c - `run -- java ...` and `attach -p` to a JVM,
 * through session_run_target as root, against what the Java programs
 * (tests/java/) measure of themselves: PoolBench's synchronized pool is
 * a lock named by its class, with the waits its threads timed; its
 * threads carry their Java names and the JVM's own are set aside;
 * ParkBench's ReentrantLock parks; GcBench's collections are the JVM's
 * own count; a JVM started without the flag is still measured.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "bpfutil.h"
#include "javautil.h"
#include "session/session.h"


/* What run -- java printed on its stdout. */
static char out[65536];

/* Run `java -cp CP [opts] MAIN args` under fctrace, "go" on its stdin. */
static int run_java(const char *const *jvm_opts, const char *main, const char *const *args,
		    struct session *s)
{
	char *argv[32];
	int n = 0, in[2], saved_in = dup(0), saved_out = dup(1), rc;
	struct trace_opts t = { .probes = PG_FULL };
	struct target_opts to = { .mode = TGT_EXEC };
	FILE *tmp = tmpfile();

	argv[n++] = "java";
	for (int i = 0; jvm_opts && jvm_opts[i]; i++)
		argv[n++] = (char *)jvm_opts[i];
	argv[n++] = "-cp";
	argv[n++] = (char *)java_classpath();
	argv[n++] = (char *)main;
	for (int i = 0; args && args[i]; i++)
		argv[n++] = (char *)args[i];
	argv[n] = NULL;
	to.argv = argv;
	assert_int_equal(pipe(in), 0);
	assert_int_equal(write(in[1], "go\n", 3), 3);
	close(in[1]);
	dup2(in[0], 0);
	dup2(fileno(tmp), 1);
	rc = session_run_target(&t, &to, s);
	fflush(stdout);
	dup2(saved_in, 0);
	dup2(saved_out, 1);
	close(in[0]);
	rewind(tmp);
	out[fread(out, 1, sizeof(out) - 1, tmp)] = '\0';
	fclose(tmp);
	return rc;
}

static const struct thread_row *row_named(const struct joined_run *m, const char *name)
{
	for (unsigned i = 0; i < m->nrows; i++)
		if (!strcmp(m->rows[i].name, name))
			return &m->rows[i];
	return NULL;
}

static const struct lock_use *use_named(const struct thread_row *r, const char *name)
{
	static const struct lock_use none;

	for (int i = 0; i < r->nlocks; i++)
		if (!strcmp(r->locks[i].name, name))
			return &r->locks[i];
	return &none;
}

static const struct lock_total *lock_named(const struct joined_run *m, const char *name)
{
	for (int i = 0; i < m->nlocks; i++)
		if (!strcmp(m->locks[i].name, name))
			return &m->locks[i];
	return NULL;
}

static void test_monitor_is_a_lock_by_class(void **state)
{
	const char *args[] = { "4", "20", "5", NULL };
	const struct lock_total *pool;
	long long own = 0;
	struct session s;
	char name[32];

	JAVA_REQUIRE();
	assert_int_equal(run_java(NULL, "PoolBench", args, &s), 0);
	assert_int_equal(target_exit_status(&s.target), 0);
	assert_true(s.joined.jvm);
	assert_true(s.joined.jvm_monitors);
	pool = lock_named(&s.joined, "monitor PoolBench$Pool");
	assert_non_null(pool);
	assert_true(pool->is_lock);
	for (int i = 0; i < 4; i++) {
		const struct thread_row *r;

		snprintf(name, sizeof(name), "pool-worker-%d", i);
		r = row_named(&s.joined, name);
		assert_non_null(r);
		assert_false(r->aside);
		assert_string_equal(r->group, "application");
		own += java_stat(out, "thread", name, "wait_ns");
		/* its monitor waits are in its lock bucket, not "other futex" */
		assert_true(r->acct_ns[ACCT_LOCK_NAMED] >=
			    use_named(r, "monitor PoolBench$Pool")->wait_ns / 2);
	}
	assert_true(own > 0);
	/* the threads' own clocks time a little more than the kernel sees:
	 * the spin before the block, the return to Java after it */
	assert_in_range(pool->wait_ns, (uint64_t)(own * 0.6), (uint64_t)(own * 1.05));
	assert_true(s.joined.aside_rows > 0);		/* GC, JIT, VM Thread ... */
	assert_non_null(row_named(&s.joined, "VM Thread"));
	assert_true(row_named(&s.joined, "VM Thread")->aside);
	session_free(&s);
}

static void test_park_named(void **state)
{
	const char *args[] = { "4", "20", "2", NULL };
	const struct lock_total *park;
	struct session s;

	JAVA_REQUIRE();
	assert_int_equal(run_java(NULL, "ParkBench", args, &s), 0);
	park = lock_named(&s.joined, "park (java.util.concurrent)");
	assert_non_null(park);
	assert_false(park->is_lock);
	assert_true(park->waits > 0);
	assert_true(park->threads >= 2);
	assert_non_null(row_named(&s.joined, "lock-worker-0"));
	session_free(&s);
}

static void test_gc_counted(void **state)
{
	const char *opts[] = { "-Xmx16m", "-XX:+UseSerialGC", NULL };
	const char *args[] = { "256", NULL };
	long long young, old;
	struct session s;

	JAVA_REQUIRE();
	assert_int_equal(run_java(opts, "GcBench", args, &s), 0);
	young = java_stat(out, "gc", "Copy", "count");
	old = java_stat(out, "gc", "MarkSweepCompact", "count");
	assert_true(young > 0);
	assert_in_range(s.joined.gcs, (uint64_t)young, (uint64_t)(young + (old > 0 ? old : 0)));
	assert_true(s.joined.safepoint_ns >= s.joined.gc_ns / 2);
	session_free(&s);
}

static void go_now(void *arg)
{
	java_go(arg);
}

/* A JVM started without the flag: attached, measured, monitors off. */
static void test_attach_without_flag(void **state)
{
	const char *args[] = { "4", "40", "5", NULL };
	struct trace_opts t = { .probes = PG_FULL };
	struct target_opts to = { .mode = TGT_ATTACH, .on_window = go_now };
	struct java_proc p;
	struct session s;

	JAVA_REQUIRE();
	assert_int_equal(java_spawn(&p, NULL, NULL, "PoolBench", args, false), 0);
	assert_int_equal(java_await_ready(&p), 0);
	to.pid = p.pid;
	to.window_arg = &p;	/* go once attached: its threads start in the window */
	assert_int_equal(session_run_target(&t, &to, &s), 0);
	assert_true(s.joined.jvm);
	assert_false(s.joined.jvm_monitors);
	assert_null(lock_named(&s.joined, "monitor PoolBench$Pool"));
	assert_non_null(row_named(&s.joined, "pool-worker-0"));	/* comm: 15 bytes */
	assert_true(s.joined.nrows > 4);
	session_free(&s);
	java_kill(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_monitor_is_a_lock_by_class),
		cmocka_unit_test(test_park_named),
		cmocka_unit_test(test_gc_counted),
		cmocka_unit_test(test_attach_without_flag),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
