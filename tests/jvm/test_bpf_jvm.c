/*
 * test_bpf_jvm.c - HotSpot's USDT probes against Java programs of known
 * behaviour (tests/java/, needs root and a JDK): the contended monitor
 * named by its class with waits inside what the program measured itself,
 * Java thread names on the kernel's tids, park waits, GC pauses, and a
 * JVM without the monitor flag. Only bpf/jvm.bpf.c's programs load.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "bpfutil.h"
#include "javautil.h"
#include "fctrace.skel.h"
#include "jvm/jvm.h"

struct jvm_fx {
	struct fctrace_bpf *skel;
	struct jvm_links links;
	struct jvm_view view;
	struct java_proc java;
	char libjvm[PATH_MAX];	/* /proc/self/fd/N: libjvm_fd's name */
	int libjvm_fd;
	char out[16384];
};

/* The skeleton with only the JVM programs, attached to pid's libjvm,
 * the window open. */
static void fx_attach(struct jvm_fx *f, pid_t pid)
{
	struct bpf_program *p;

	f->skel = fctrace_bpf__open();
	assert_non_null(f->skel);
	bpf_object__for_each_program(p, f->skel->obj)
		bpf_program__set_autoload(p, false);
	jvm_set_autoload(f->skel, true);
	jvm_set_target(f->skel, pid);
	assert_int_equal(fctrace_bpf__load(f->skel), 0);
	jvm_attach(f->skel, pid, f->libjvm, &f->links);
	for (int i = 0; i < JVM_NPROBES; i++)
		if (f->links.err[i])
			print_message("%s: %s\n", jvm_probe_shown(i), strerror(-f->links.err[i]));
	assert_int_equal(f->links.nattached, JVM_NPROBES);
	__atomic_store_n(&f->skel->bss->enabled, 1, __ATOMIC_SEQ_CST);
}

/* A running JVM (ready, waiting for go), then the probes, as attach -p. */
static void fx_start_running(struct jvm_fx *f, const char *tool_opts, const char *const *jvm_opts,
			     const char *main, const char *const *args)
{
	memset(f, 0, sizeof(*f));
	assert_int_equal(java_spawn(&f->java, tool_opts, jvm_opts, main, args, false), 0);
	assert_int_equal(java_await_ready(&f->java), 0);
	f->libjvm_fd = jvm_open_libjvm(f->java.pid);
	assert_true(f->libjvm_fd >= 0);
	jvm_fd_name(f->libjvm_fd, f->libjvm, sizeof(f->libjvm));
	fx_attach(f, f->java.pid);
}

/* The probes first, on the launcher's libjvm and the child's pid, then
 * the exec: as `run -- java` does. */
static void fx_start_before_exec(struct jvm_fx *f, const char *tool_opts,
				 const char *const *jvm_opts, const char *main,
				 const char *const *args)
{
	memset(f, 0, sizeof(*f));
	assert_int_equal(jvm_libjvm_for_exe("java", f->libjvm, sizeof(f->libjvm)), 0);
	f->libjvm_fd = jvm_open_path(f->libjvm);
	assert_true(f->libjvm_fd >= 0);
	jvm_fd_name(f->libjvm_fd, f->libjvm, sizeof(f->libjvm));
	assert_int_equal(java_spawn(&f->java, tool_opts, jvm_opts, main, args, true), 0);
	fx_attach(f, f->java.pid);
	java_release(&f->java);
	assert_int_equal(java_await_ready(&f->java), 0);
}

/* go, run to the end, read the maps */
static void fx_run(struct jvm_fx *f)
{
	java_go(&f->java);
	assert_int_equal(java_finish(&f->java, f->out, sizeof(f->out)), 0);
	__atomic_store_n(&f->skel->bss->enabled, 0, __ATOMIC_SEQ_CST);
	assert_int_equal(jvm_read(f->skel, 0, &f->view), 0);
	if (getenv("FCTRACE_TEST_VERBOSE"))
		fprintf(stderr, "%s", f->out);
}

static void fx_done(struct jvm_fx *f)
{
	java_kill(&f->java);
	jvm_detach(&f->links);
	fctrace_bpf__destroy(f->skel);
	jvm_view_free(&f->view);
	if (f->libjvm_fd > 0)
		close(f->libjvm_fd);
}

static const struct jvm_thread_info *thread_named(const struct jvm_view *v, const char *name)
{
	for (int i = 0; i < v->nthreads; i++)
		if (v->threads[i].java_name && !strcmp(v->threads[i].name, name))
			return &v->threads[i];
	return NULL;
}

/* Object.wait calls of thread tid, over every monitor class. */
static uint64_t monitor_waits(const struct jvm_view *v, uint32_t tid)
{
	uint64_t n = 0;

	for (int i = 0; i < v->nmonitors; i++) {
		const struct jvm_monitor_row *r = jvm_monitor_row(&v->monitors[i], tid);

		n += r ? r->v.waits : 0;
	}
	return n;
}

static void assert_named_on_own_tid(const struct jvm_thread_info *t)
{
	assert_non_null(t);
	assert_true(t->k.started);
}

#define THREADS	4
#define ITERS	10
#define HOLD_MS	"5"
#define SIGNALS	5
#define LONG_CLASS "PoolBench$SignalWithAClassNameLongerThanFctraceKeepsSoOnlyItsTail"

static void test_monitor_contention_named(void **state)
{
	const char *args[] = { "4", "10", HOLD_MS, "5", NULL };
	const struct jvm_monitor *m;
	uint64_t bpf_sum = 0, java_sum = 0;
	bool main_seen = false;
	struct jvm_fx f;
	char name[32], tail[80];

	JAVA_REQUIRE();
	fx_start_running(&f, JVM_MONITOR_FLAG, NULL, "PoolBench", args);
	assert_int_equal(jvm_monitor_probes(f.java.pid, f.libjvm_fd), JVM_FLAG_ON);
	fx_run(&f);

	m = jvm_view_monitor(&f.view, "PoolBench$Pool");
	assert_non_null(m);
	assert_true(m->enters > 0);
	assert_true(m->exits > 0);	/* holders left it with waiters queued */
	for (int i = 0; i < THREADS; i++) {
		const struct jvm_thread_info *t;
		const struct jvm_monitor_row *r;
		long long jw;

		snprintf(name, sizeof(name), "pool-worker-%d", i);
		t = thread_named(&f.view, name);
		assert_named_on_own_tid(t);
		assert_int_equal(t->group, JVM_G_APP);
		jw = java_stat(f.out, "thread", name, "wait_ns");
		assert_true(jw > 0);
		r = jvm_monitor_row(m, t->tid);
		if (!r)
			continue;	/* this one never found the monitor taken */
		assert_true(r->v.enters <= ITERS);
		/* contended-enter -> entered lies inside the program's own
		 * interval (same clock: CLOCK_MONOTONIC) */
		assert_true(r->v.enter_ns <= (uint64_t)jw);
		bpf_sum += r->v.enter_ns;
		java_sum += jw;
	}
	/* most of what the program waited is blocked time the probes saw
	 * (the rest: spinning before blocking, the fast path); here it is
	 * over 99 % */
	assert_true(java_sum > 0 && bpf_sum >= java_sum / 4 * 3);

	/* Object.wait: signal-waiter waits on a monitor whose class name
	 * is too long to keep whole: its last 63 bytes are kept */
	snprintf(tail, sizeof(tail), "...%s", LONG_CLASS + strlen(LONG_CLASS) - 63);
	m = jvm_view_monitor(&f.view, tail);
	assert_non_null(m);
	{
		const struct jvm_thread_info *w = thread_named(&f.view, "signal-waiter");
		const struct jvm_monitor_row *r;

		assert_named_on_own_tid(w);
		r = jvm_monitor_row(m, w->tid);
		assert_non_null(r);
		assert_true(r->v.waits >= 1 && r->v.waits <= SIGNALS);
		assert_true(r->v.wait_ns > 0);
	}
	/* the launcher's main thread is attached through JNI: no
	 * thread__start, so its comm names it; it waited in join() */
	for (int i = 0; i < f.view.nthreads; i++) {
		const struct jvm_thread_info *t = &f.view.threads[i];

		if (!t->java_name && !strcmp(t->name, "java") && monitor_waits(&f.view, t->tid))
			main_seen = true;
	}
	assert_true(main_seen);
	assert_int_equal(f.skel->bss->lost.jvm_threads_full + f.skel->bss->lost.jvm_monitors_full, 0);
	fx_done(&f);
}

static void test_park_waits_before_exec(void **state)
{
	const char *args[] = { "3", "10", HOLD_MS, NULL };
	uint64_t bpf_sum = 0, java_sum = 0;
	const struct jvm_thread_info *t;
	struct jvm_fx f;
	char name[32];

	JAVA_REQUIRE();
	fx_start_before_exec(&f, NULL, NULL, "ParkBench", args);
	fx_run(&f);
	for (int i = 0; i < 3; i++) {
		long long jw;

		snprintf(name, sizeof(name), "lock-worker-%d", i);
		t = thread_named(&f.view, name);
		assert_named_on_own_tid(t);
		jw = java_stat(f.out, "thread", name, "wait_ns");
		assert_true(jw > 0);
		/* Thread.sleep does not park: every park is a lock() wait */
		assert_true(t->k.park_ns <= (uint64_t)jw);
		assert_int_equal(t->k.parks_timed, 0);
		bpf_sum += t->k.park_ns;
		java_sum += jw;
	}
	assert_true(bpf_sum >= java_sum / 2);
	/* attached before exec: the JVM's own Java threads were named too */
	t = thread_named(&f.view, "Reference Handler");
	assert_non_null(t);
	assert_int_equal(t->group, JVM_G_LIBRARY);
	t = thread_named(&f.view, "Signal Dispatcher");
	assert_non_null(t);
	assert_int_equal(t->group, JVM_G_RUNTIME);
	fx_done(&f);
}

/* parks that never block: exactly as many as the program made */
static void test_park_count_exact(void **state)
{
	const char *args[] = { "20000", NULL };
	const struct jvm_thread_info *t;
	struct jvm_fx f;

	JAVA_REQUIRE();
	fx_start_running(&f, NULL, NULL, "ParkLoop", args);
	fx_run(&f);
	t = thread_named(&f.view, "park-loop");
	assert_named_on_own_tid(t);
	assert_int_equal(java_stat(f.out, "thread", "park-loop", "parks"), 20000);
	assert_int_equal(t->k.parks, 20000);
	assert_int_equal(t->k.parks_timed, 0);
	assert_true(t->k.park_max_ns > 0 && t->k.park_ns >= t->k.park_max_ns);
	fx_done(&f);
}

static void test_gc_counted(void **state)
{
	const char *opts[] = { "-Xmx16m", "-XX:+UseSerialGC", NULL };
	const char *args[] = { "256", NULL };
	const struct jvm_thread_info *t;
	long long young, old;
	struct jvm_fx f;

	JAVA_REQUIRE();
	fx_start_running(&f, NULL, opts, "GcBench", args);
	fx_run(&f);
	young = java_stat(f.out, "gc", "Copy", "count");
	old = java_stat(f.out, "gc", "MarkSweepCompact", "count");
	assert_true(young > 0 && old >= 0);
	/* one pause per collection request: a young collection, possibly
	 * followed by a full one in the same pause, or a full one alone */
	assert_true(f.view.global.gcs >= (uint64_t)young);
	assert_true(f.view.global.gcs <= (uint64_t)(young + old));
	assert_true(f.view.global.gc_ns > 0 && f.view.global.gc_max_ns > 0);
	/* a collection runs inside a safepoint */
	assert_true(f.view.global.safepoints >= f.view.global.gcs);
	assert_true(f.view.global.safepoint_ns >= f.view.global.gc_ns);
	t = thread_named(&f.view, "allocator");
	assert_named_on_own_tid(t);
	fx_done(&f);
}

/* Without the flag the monitor probes stay silent; the rest is measured. */
static void test_no_flag_notice(void **state)
{
	const char *args[] = { "4", "10", HOLD_MS, "0", NULL };
	char notice[256];
	struct jvm_fx f;

	JAVA_REQUIRE();
	fx_start_running(&f, NULL, NULL, "PoolBench", args);
	assert_int_equal(jvm_monitor_probes(f.java.pid, f.libjvm_fd), JVM_FLAG_OFF);
	fx_run(&f);
	assert_int_equal(f.view.nmonitors, 0);
	assert_named_on_own_tid(thread_named(&f.view, "pool-worker-0"));
	assert_true(jvm_monitor_notice(notice, sizeof(notice)) < (int)sizeof(notice));
	assert_non_null(strstr(notice, "-XX:+DTraceMonitorProbes"));
	assert_null(strchr(notice, '\n'));
	fx_done(&f);
}

/* The flag read from the JVM's memory, whichever way it was set. */
static void test_flag_read_from_memory(void **state)
{
	static const struct {
		const char *tool;
		const char *opt;
		enum jvm_flag want;
	} cases[] = {
		{ NULL, "-XX:+ExtendedDTraceProbes", JVM_FLAG_ON },
		{ "-XX:+DTraceMonitorProbes", "-XX:-DTraceMonitorProbes", JVM_FLAG_OFF },
		{ "-XX:-DTraceMonitorProbes", "-XX:+DTraceMonitorProbes", JVM_FLAG_ON },
	};
	const char *args[] = { "1", "1", "1", NULL };

	JAVA_REQUIRE();
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		const char *opts[] = { cases[i].opt, NULL };
		struct java_proc j = { 0 };
		int fd;

		assert_int_equal(java_spawn(&j, cases[i].tool, opts, "PoolBench", args, false), 0);
		assert_int_equal(java_await_ready(&j), 0);
		fd = jvm_open_libjvm(j.pid);
		assert_true(fd >= 0);
		assert_int_equal(jvm_monitor_probes(j.pid, fd), cases[i].want);
		close(fd);
		java_kill(&j);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_monitor_contention_named),
		cmocka_unit_test(test_park_waits_before_exec),
		cmocka_unit_test(test_park_count_exact),
		cmocka_unit_test(test_gc_counted),
		cmocka_unit_test(test_no_flag_notice),
		cmocka_unit_test(test_flag_read_from_memory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
