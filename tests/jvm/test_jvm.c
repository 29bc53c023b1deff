/*
 * test_jvm.c - the JVM helpers that need neither root nor a JVM: thread
 * groups by name, the monitor flag as options set it, JAVA_TOOL_OPTIONS,
 * finding libjvm.so beside a launcher, class names; the agent's dump and
 * a thread dump parsed into names, linear in their length, and stopped
 * by Ctrl-C.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <signal.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "base/signals.h"
#include "jvm/jvm.h"
#include "testutil.h"

static void test_thread_groups(void **state)
{
	static const struct {
		const char *name;
		enum jvm_group g;
	} cases[] = {
		{ "main", JVM_G_APP }, { "java", JVM_G_APP }, { "pool-worker-0", JVM_G_APP },
		{ "GC Thread#0", JVM_G_GC }, { "GC Thread#12", JVM_G_GC },
		{ "G1 Main Marker", JVM_G_GC }, { "G1 Conc#0", JVM_G_GC },
		{ "G1 Refine#3", JVM_G_GC }, { "G1 Service", JVM_G_GC },
		{ "ZWorker#1", JVM_G_GC }, { "ZDirector", JVM_G_GC },
		{ "C2 CompilerThread0", JVM_G_JIT }, { "C1 CompilerThre", JVM_G_JIT },
		{ "Sweeper thread", JVM_G_JIT },
		{ "VM Thread", JVM_G_RUNTIME }, { "VM Periodic Task Thread", JVM_G_RUNTIME },
		{ "VM Periodic Tas", JVM_G_RUNTIME }, { "Signal Dispatch", JVM_G_RUNTIME },
		{ "Signal Dispatcher", JVM_G_RUNTIME }, { "Service Thread", JVM_G_RUNTIME },
		{ "Monitor Deflati", JVM_G_RUNTIME }, { "Notification Th", JVM_G_RUNTIME },
		{ "Attach Listener", JVM_G_RUNTIME },
		{ "Reference Handl", JVM_G_LIBRARY }, { "Reference Handler", JVM_G_LIBRARY },
		{ "Finalizer", JVM_G_LIBRARY }, { "Common-Cleaner", JVM_G_LIBRARY },
		/* look-alikes stay the application's */
		{ "Finalizer-pool", JVM_G_APP }, { "VM Threads", JVM_G_APP },
		{ "Zookeeper-io", JVM_G_APP }, { "Service Thread pool", JVM_G_APP },
		{ "", JVM_G_APP },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		if (jvm_thread_group(cases[i].name, false) != cases[i].g)
			fail_msg("\"%s\": %s, not %s", cases[i].name,
				 jvm_group_name(jvm_thread_group(cases[i].name, false)),
				 jvm_group_name(cases[i].g));
	}
	assert_int_equal(jvm_thread_group("java", true), JVM_G_LAUNCHER);
	assert_int_equal(jvm_thread_group(NULL, false), JVM_G_APP);
	assert_string_equal(jvm_group_name(JVM_G_GC), "GC");
	assert_string_equal(jvm_group_name(JVM_G_N), "?");
}

/* cmdline as /proc shows it: NUL-separated, NUL-ended */
#define CMD(s) s, sizeof(s)

static void test_flag_from_options(void **state)
{
	assert_int_equal(jvm_flag_from_options(NULL, NULL, NULL, 0, NULL), JVM_FLAG_OFF);
	assert_int_equal(jvm_flag_from_options(NULL, NULL, CMD("java\0-cp\0x\0Main"), NULL),
			 JVM_FLAG_OFF);
	assert_int_equal(jvm_flag_from_options("-Xmx1g  -XX:+DTraceMonitorProbes", NULL, NULL, 0,
					       NULL), JVM_FLAG_ON);
	assert_int_equal(jvm_flag_from_options(NULL, NULL,
			 CMD("java\0-XX:+ExtendedDTraceProbes\0Main"), NULL), JVM_FLAG_ON);
	/* the command line wins over JAVA_TOOL_OPTIONS, _JAVA_OPTIONS over both */
	assert_int_equal(jvm_flag_from_options("-XX:+DTraceMonitorProbes", NULL,
			 CMD("java\0-XX:-DTraceMonitorProbes\0Main"), NULL), JVM_FLAG_OFF);
	assert_int_equal(jvm_flag_from_options(NULL, NULL, CMD("java\0-XX:+DTraceMonitorProbes\0M"),
					       "-XX:-DTraceMonitorProbes"), JVM_FLAG_OFF);
	assert_int_equal(jvm_flag_from_options(NULL, "-XX:+DTraceMonitorProbes", NULL, 0, NULL),
			 JVM_FLAG_ON);
	/* +Extended sets it where it stands; a later - turns it off; -Extended does nothing */
	assert_int_equal(jvm_flag_from_options("-XX:+ExtendedDTraceProbes -XX:-DTraceMonitorProbes",
					       NULL, NULL, 0, NULL), JVM_FLAG_OFF);
	assert_int_equal(jvm_flag_from_options("-XX:+DTraceMonitorProbes -XX:-ExtendedDTraceProbes",
					       NULL, NULL, 0, NULL), JVM_FLAG_ON);
	/* the program's own arguments are not the JVM's */
	assert_int_equal(jvm_flag_from_options(NULL, NULL,
			 CMD("java\0Main\0-XX:+DTraceMonitorProbes"), NULL), JVM_FLAG_OFF);
	assert_int_equal(jvm_flag_from_options(NULL, NULL,
			 CMD("java\0-jar\0app.jar\0-XX:+DTraceMonitorProbes"), NULL), JVM_FLAG_OFF);
	/* an option's value is not the main class */
	assert_int_equal(jvm_flag_from_options(NULL, NULL,
			 CMD("java\0-cp\0lib\0-XX:+DTraceMonitorProbes\0Main"), NULL), JVM_FLAG_ON);
	/* an options file could say anything */
	assert_int_equal(jvm_flag_from_options(NULL, NULL, CMD("java\0@opts\0Main"), NULL),
			 JVM_FLAG_UNKNOWN);
	assert_int_equal(jvm_flag_from_options("-XX:Flags=f", NULL, NULL, 0, NULL), JVM_FLAG_UNKNOWN);
	assert_int_equal(jvm_flag_from_options("-XX:VMOptionsFile=f -XX:+DTraceMonitorProbes", NULL,
					       NULL, 0, NULL), JVM_FLAG_ON);
	/* a cut-off command line */
	assert_int_equal(jvm_flag_from_options(NULL, NULL, "java\0-cp", 8, NULL), JVM_FLAG_OFF);
}

static void test_tool_options(void **state)
{
	static char big[JVM_ENV_MAX + 1];
	char *buf;

	unsetenv("JAVA_TOOL_OPTIONS");
	assert_non_null(buf = jvm_tool_options());
	assert_string_equal(buf, "-XX:+DTraceMonitorProbes");
	free(buf);
	setenv("JAVA_TOOL_OPTIONS", "-Xmx64m -XX:-DTraceMonitorProbes", 1);
	assert_non_null(buf = jvm_tool_options());
	assert_string_equal(buf, "-Xmx64m -XX:-DTraceMonitorProbes -XX:+DTraceMonitorProbes");
	assert_int_equal(jvm_flag_from_options(buf, NULL, NULL, 0, NULL), JVM_FLAG_ON);
	free(buf);
	/* issue 33: 5000 bytes (a 4096-byte buffer dropped the JVM without a word) */
	memset(big, 'x', 5000);
	memcpy(big, "-Dp=", 4);
	setenv("JAVA_TOOL_OPTIONS", big, 1);
	assert_non_null(buf = jvm_tool_options());
	assert_int_equal(strlen(buf), 5000 + 1 + strlen(JVM_MONITOR_FLAG));
	free(buf);
	/* what exec cannot pass: refused, with the reason */
	memset(big, 'x', JVM_ENV_MAX - 30);
	setenv("JAVA_TOOL_OPTIONS", big, 1);
	errno = 0;
	assert_null(jvm_tool_options());
	assert_int_equal(errno, E2BIG);
	setenv("JAVA_TOOL_OPTIONS", "", 1);
	assert_non_null(buf = jvm_tool_options());
	assert_string_equal(buf, "-XX:+DTraceMonitorProbes");
	free(buf);
	unsetenv("JAVA_TOOL_OPTIONS");
	assert_string_equal(jvm_flag_name(JVM_FLAG_UNKNOWN), "unknown");
	assert_string_equal(jvm_flag_name(JVM_FLAG_OFF), "off");
}

static void touch(const char *path, mode_t mode)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fclose(f);
	assert_int_equal(chmod(path, mode), 0);
}

/* a fake JDK: DIR/jdk/bin/java, DIR/jdk/lib/server/libjvm.so, and
 * DIR/bin/java -> ../jdk/bin/java as Debian's alternatives do it */
static void test_libjvm_for_exe(void **state)
{
	char *dir = test_dir_make(), p[PATH_MAX], lib[PATH_MAX], want[PATH_MAX], path_env[PATH_MAX];
	const char *subdirs[] = { "jdk", "jdk/bin", "jdk/lib", "jdk/lib/server", "bin" };
	char *old_path = getenv("PATH") ? strdup(getenv("PATH")) : NULL;

	assert_non_null(dir);
	for (size_t i = 0; i < sizeof(subdirs) / sizeof(*subdirs); i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, subdirs[i]);
		assert_int_equal(mkdir(p, 0755), 0);
	}
	snprintf(p, sizeof(p), "%s/jdk/bin/java", dir);
	touch(p, 0755);
	snprintf(p, sizeof(p), "%s/jdk/lib/server/libjvm.so", dir);
	touch(p, 0644);
	assert_non_null(realpath(p, want));
	snprintf(p, sizeof(p), "%s/bin/java", dir);
	assert_int_equal(symlink("../jdk/bin/java", p), 0);

	assert_int_equal(jvm_libjvm_for_exe(p, lib, sizeof(lib)), 0);
	assert_string_equal(lib, want);
	/* by name, through PATH */
	snprintf(path_env, sizeof(path_env), "/nonexistent:%s/bin", dir);
	setenv("PATH", path_env, 1);
	assert_int_equal(jvm_libjvm_for_exe("java", lib, sizeof(lib)), 0);
	assert_string_equal(lib, want);
	assert_int_equal(jvm_libjvm_for_exe("no-such-program", lib, sizeof(lib)), -ENOENT);
	assert_int_equal(jvm_libjvm_for_exe("java", lib, 4), -ENAMETOOLONG);
	if (old_path)
		setenv("PATH", old_path, 1);
	free(old_path);
	/* not a JVM launcher: nothing beside it */
	assert_int_equal(jvm_libjvm_for_exe("/bin/sh", lib, sizeof(lib)), -ENOENT);

	snprintf(p, sizeof(p), "%s/bin/java", dir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/jdk/bin/java", dir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/jdk/lib/server/libjvm.so", dir);
	unlink(p);
	for (int i = (int)(sizeof(subdirs) / sizeof(*subdirs)) - 1; i >= 0; i--) {
		snprintf(p, sizeof(p), "%s/%s", dir, subdirs[i]);
		assert_int_equal(rmdir(p), 0);
	}
	test_dir_remove(dir);
}

static void test_find_libjvm_not_a_jvm(void **state)
{
	assert_int_equal(jvm_open_libjvm(getpid()), -ENOENT);
	assert_int_equal(jvm_open_libjvm(0x3fffffff), -ESRCH);
	/* nothing to read the flag from: unknown, never a guess */
	assert_int_equal(jvm_monitor_probes(0x3fffffff, -1), JVM_FLAG_UNKNOWN);
	/* a FIFO, a directory, a device: refused at once, never opened for reading */
	assert_int_equal(jvm_open_path("/dev/null"), -ENOEXEC);
	assert_int_equal(jvm_open_path("/"), -ENOEXEC);
}

static void test_class_names(void **state)
{
	struct fct_jvm_mon_key k = { .tid = 1 };
	char out[FCT_JVM_NAME_LEN + 4];

	memcpy(k.cls, "org/example/FileChannelPool", 27);
	jvm_class_name(&k, out, sizeof(out));
	assert_string_equal(out, "org.example.FileChannelPool");
	memset(k.cls, 0, sizeof(k.cls));
	memset(k.cls, 'a', FCT_JVM_NAME_LEN);	/* full, no NUL */
	k.flags = FCT_JVM_F_TRUNCATED;
	jvm_class_name(&k, out, sizeof(out));
	assert_int_equal(strlen(out), 3 + FCT_JVM_NAME_LEN);
	assert_memory_equal(out, "...aaa", 6);
}

static void test_probe_names(void **state)
{
	assert_string_equal(jvm_probe_shown(JVM_P_MON_ENTER), "usdt/hotspot:monitor__contended__enter");
	assert_string_equal(jvm_probe_shown(JVM_P_SAFEPOINT_END), "usdt/hs_private:safepoint__end");
	assert_true(jvm_probe_needs_flag(JVM_P_MON_WAITED));
	assert_false(jvm_probe_needs_flag(JVM_P_PARK_BEGIN));
	assert_string_equal(jvm_probe_shown(JVM_NPROBES), "?");
}

/* ---- dumps into names ------------------------------------------------- */

/* text grown by printf: the dumps below are built line by line */
struct text {
	char *s;
	size_t len, cap;
};

static void add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->cap - t->len < 256) {
		t->cap = t->cap ? 2 * t->cap : 1 << 16;
		t->s = realloc(t->s, t->cap);
		assert_non_null(t->s);
	}
	va_start(ap, fmt);
	n = vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
	va_end(ap);
	assert_true(n > 0 && (size_t)n < t->cap - t->len);
	t->len += (size_t)n;
}

static const char *name_of(const struct jvm_view *v, uint32_t tid)
{
	const struct jvm_thread_info *t = jvm_view_thread(v, tid);

	return t ? t->name : "(none)";
}

/* The thread dump's header lines name threads by nid; other lines are
 * skipped; a name the probes' thread__start gave stays. pid 0: tids are
 * the host's (no namespace to map). */
static void test_dump_names(void **state)
{
	struct jvm_thread_info seen = { .tid = 300, .name = "from-probes", .java_name = true };
	struct jvm_view v = { 0 };
	const char *dump =
		"2026-01-01 00:00:00\nFull thread dump OpenJDK 64-Bit Server VM:\n\n"
		"\"main\" #1 prio=5 os_prio=0 cpu=1.00ms elapsed=2.00s tid=0x7f nid=0x64 waiting\n"
		"   java.lang.Thread.State: WAITING\n"
		"\"worker \\\" 1\" #22 daemon prio=5 os_prio=0 tid=0x7e nid=200 runnable\n"
		"\"renamed\" #23 prio=5 nid=300 runnable\n"
		"\"no nid\" #24 prio=5\n";

	v.threads = malloc(sizeof(seen));
	v.threads[0] = seen;
	v.nthreads = 1;
	v.sites.rows = calloc(1, sizeof(*v.sites.rows));
	v.sites.rows[0] = (struct jvm_site_row){ .kind = 'p', .jid = 22 };
	v.sites.nrows = 1;
	assert_int_equal(jvm_names_from_dump(dump, 0, &v), 0);
	assert_int_equal(v.nthreads, 3);
	assert_string_equal(name_of(&v, 100), "main");
	assert_string_equal(name_of(&v, 200), "worker \\\" 1");
	assert_string_equal(name_of(&v, 300), "from-probes");
	assert_int_equal(v.sites.rows[0].tid, 200);	/* its Java id's tid */
	jvm_view_free(&v);
}

/*
 * One thread named "x\n" x 500 000 (issue 37): the parser searched to the
 * dump's end from each line, 39.6 s for a 2 s run. Linear, this is a
 * moment; the threads after the name are still found.
 */
#define LONG_LINES	500000

static void test_dump_long_name(void **state)
{
	struct text t = { 0 };
	struct jvm_view v = { 0 };

	add(&t, "\"main\" #1 prio=5 nid=0x64 waiting\n\"");
	for (int i = 0; i < LONG_LINES; i++)
		add(&t, "x\n");
	add(&t, "\" #12 prio=5 nid=0x65 runnable\n");
	add(&t, "\"after\" #13 prio=5 nid=0x66 runnable\n");
	assert_int_equal(jvm_names_from_dump(t.s, 0, &v), 0);
	assert_int_equal(v.nthreads, 2);
	assert_string_equal(name_of(&v, 0x64), "main");
	assert_string_equal(name_of(&v, 0x66), "after");
	jvm_view_free(&v);
	free(t.s);
}

/*
 * The agent's dump with 10 000 threads' park rows and names among
 * 480 000 other lines: each name was sorted in and given to the rows one
 * by one, each line's sscanf measured the rest of the text. Every row
 * gets its thread's tid, every thread its name.
 */
#define SITE_THREADS	10000

static void test_sites_many(void **state)
{
	struct text t = { 0 };
	struct jvm_view v = { 0 };
	char want[32];

	for (int i = 0; i < SITE_THREADS; i++)
		add(&t, "R\tp\t0\t%d\t5\t5000\t5\t1000\tjava.util.concurrent.locks."
		    "ReentrantLock$NonfairSync\tapp.Work.run(Work.java:%d)\n", 1000 + i, i);
	for (int i = 0; i < LONG_LINES - 2 * SITE_THREADS; i++)
		add(&t, "#\n");
	for (int i = SITE_THREADS - 1; i >= 0; i--)
		add(&t, "N\t%d\t%d\tpool-1-thread-%d\n", 1000 + i, 50000 + i, i);
	add(&t, "L\t0\t7\t3\t10\t20\n");
	assert_int_equal(jvm_sites_parse(t.s, 0, NULL, 0, &v), 0);
	assert_int_equal(v.sites.nrows, SITE_THREADS);
	assert_int_equal(v.nthreads, SITE_THREADS);
	for (int i = 0; i < SITE_THREADS; i++) {
		assert_int_equal(v.sites.rows[i].tid, 50000 + i);
		snprintf(want, sizeof(want), "pool-1-thread-%d", i);
		assert_string_equal(name_of(&v, 50000 + (uint32_t)i), want);
	}
	assert_true(v.sites.loaded);
	assert_int_equal(v.sites.park_walks, 7);
	jvm_view_free(&v);
	free(t.s);
}

/* Ctrl-C during a parse ends it: -EINTR, nothing more read. The last
 * test here: the caught signal stays caught. */
static void test_dump_stops(void **state)
{
	struct jvm_view v = { 0 };

	signals_install(NULL);
	raise(SIGINT);
	assert_int_not_equal(signals_caught(), 0);
	assert_int_equal(jvm_names_from_dump("\"main\" #1 prio=5 nid=0x64 waiting\n", 0, &v),
			 -EINTR);
	assert_int_equal(v.nthreads, 0);
	assert_int_equal(jvm_sites_parse("N\t1\t100\tmain\n", 0, NULL, 0, &v), -EINTR);
	assert_int_equal(v.nthreads, 0);
	jvm_view_free(&v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thread_groups),
		cmocka_unit_test(test_flag_from_options),
		cmocka_unit_test(test_tool_options),
		cmocka_unit_test(test_libjvm_for_exe),
		cmocka_unit_test(test_find_libjvm_not_a_jvm),
		cmocka_unit_test(test_class_names),
		cmocka_unit_test(test_probe_names),
		cmocka_unit_test(test_dump_names),
		cmocka_unit_test(test_dump_long_name),
		cmocka_unit_test(test_sites_many),
		cmocka_unit_test(test_dump_stops),	/* last: it leaves a signal caught */
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
