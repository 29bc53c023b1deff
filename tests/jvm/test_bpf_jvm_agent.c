/*
 * test_bpf_jvm_agent.c - fctrace's JVMTI agent end to end, through the
 * ./fctrace binary (the agent is found beside it), as root, on JVMs
 * started with no -XX flag at all (tests/java/SiteBench.java):
 *   - attach -p names the synchronized block on a plain Object field by
 *     its call site, the ReentrantLock's parks by ReentrantLock and the
 *     caller, and a thread started before the attach by its Java name;
 *     after the detach the agent's thread is gone, the JVM runs on and
 *     exits with status 0, and no file of fctrace's is left;
 *   - run -- java gives the same names;
 *   - a second attach while one runs, a JVM whose attach mechanism is
 *     off and a JVM that exits meanwhile: one line each, nothing left.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <json-c/json.h>
#include "bpfutil.h"
#include "javautil.h"
#include "testutil.h"

#define FCTRACE	"./fctrace"
#define WAIT_MS	30000

static char text[1 << 16];

/* ./fctrace ARGS..., stdin from in_fd (-1: /dev/null), stdout and
 * stderr into the file out. */
static pid_t fct_spawn(const char *const *args, int in_fd, const char *out)
{
	pid_t pid = fork();

	if (pid == 0) {
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int null = open("/dev/null", O_RDONLY);
		const char *argv[24] = { FCTRACE };
		int n = 1;

		dup2(in_fd >= 0 ? in_fd : null, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		for (int i = 0; args[i] && n < 23; i++)
			argv[n++] = args[i];
		execv(FCTRACE, (char *const *)argv);
		_exit(127);
	}
	return pid;
}

static const char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	size_t n = 0;

	text[0] = '\0';
	if (f) {
		n = fread(text, 1, sizeof(text) - 1, f);
		fclose(f);
	}
	text[n] = '\0';
	return text;
}

/* Wait until the file holds s (true), or WAIT_MS pass. */
static bool await_text(const char *path, const char *s)
{
	for (int ms = 0; ms < WAIT_MS; ms += 50, test_sleep_ms(50))
		if (strstr(slurp(path), s))
			return true;
	return false;
}

static int reap(pid_t pid)
{
	int st = 0;

	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* the first lock whose name starts with prefix */
static struct json_object *lock_with(struct json_object *doc, const char *prefix)
{
	struct json_object *locks, *l, *name;

	if (!json_object_object_get_ex(doc, "locks", &locks))
		return NULL;
	for (size_t i = 0; i < json_object_array_length(locks); i++) {
		l = json_object_array_get_idx(locks, i);
		if (json_object_object_get_ex(l, "name", &name) &&
		    !strncmp(json_object_get_string(name), prefix, strlen(prefix)))
			return l;
	}
	return NULL;
}

static uint64_t u64_of(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) ? (uint64_t)json_object_get_int64(v) : 0;
}

/* Every site of lock l starts with site_prefix, and they add up to it. */
static void check_sites(struct json_object *l, const char *site_prefix)
{
	struct json_object *sites, *s, *name;
	uint64_t waits = 0;

	assert_non_null(l);
	assert_true(json_object_object_get_ex(l, "sites", &sites));
	assert_true(json_object_array_length(sites) >= 1);
	for (size_t i = 0; i < json_object_array_length(sites); i++) {
		s = json_object_array_get_idx(sites, i);
		assert_true(json_object_object_get_ex(s, "site", &name));
		if (strncmp(json_object_get_string(name), site_prefix, strlen(site_prefix)))
			fail_msg("site %s is not %s...", json_object_get_string(name), site_prefix);
		waits += u64_of(s, "waits");
	}
	assert_true(u64_of(l, "waits") > 0);
	/* each site rounded on its own: within one per site */
	assert_true(waits + json_object_array_length(sites) >= u64_of(l, "waits") &&
		    waits <= u64_of(l, "waits") + json_object_array_length(sites));
}

static bool thread_named(struct json_object *doc, const char *want)
{
	struct json_object *threads, *t, *name;

	if (!json_object_object_get_ex(doc, "threads", &threads))
		return false;
	for (size_t i = 0; i < json_object_array_length(threads); i++) {
		t = json_object_array_get_idx(threads, i);
		if (json_object_object_get_ex(t, "name", &name) &&
		    !strcmp(json_object_get_string(name), want))
			return true;
	}
	return false;
}

/* The monitor's holders, measured from outside with no JVM flag: every
 * hold of Store.touch sleeps HOLD_MS (a futex wait on the thread's own
 * park event), so asleep is most of the time held, and none of it is
 * "waiting for another lock". */
static void check_holders(struct json_object *l)
{
	struct json_object *h, *method;

	assert_non_null(l);
	assert_true(json_object_object_get_ex(l, "holders", &h));
	if (!h)
		fail_msg("the monitor's holders were not measured");
	assert_true(json_object_object_get_ex(h, "method", &method));
	assert_non_null(strstr(json_object_get_string(method), "ObjectMonitor"));
	print_message("  holders: held %.1f ms, asleep %.1f ms, waiting %.1f ms\n",
		      u64_of(h, "held_ns") / 1e6, u64_of(h, "blocked_ns") / 1e6,
		      u64_of(h, "waiting_ns") / 1e6);
	assert_true(u64_of(h, "held_ns") > 0);
	assert_true(u64_of(h, "blocked_ns") * 2 > u64_of(h, "held_ns"));
	assert_true(u64_of(h, "waiting_ns") * 10 < u64_of(h, "held_ns"));
}

/* The names a SiteBench run must have. */
static void check_names(const char *json_path, bool early)
{
	struct json_object *doc = json_object_from_file(json_path);

	assert_non_null(doc);
	check_sites(lock_with(doc, "monitor java.lang.Object @ SiteBench$Store.touch("),
		    "SiteBench$Store.touch(SiteBench.java:");
	check_holders(lock_with(doc, "monitor java.lang.Object @ SiteBench$Store.touch("));
	check_sites(lock_with(doc, "park java.util.concurrent.locks.ReentrantLock"),
		    "SiteBench$Store.guarded(SiteBench.java:");
	if (early)
		assert_true(thread_named(doc, "early-bird"));
	assert_true(thread_named(doc, "mon-worker-0"));
	json_object_put(doc);
}

/* A task of pid whose comm is comm? */
static bool has_task(pid_t pid, const char *comm)
{
	char path[96], c[32];
	struct dirent *d;
	bool found = false;
	DIR *dir;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if (!(dir = opendir(path)))
		return false;
	while (!found && (d = readdir(dir))) {
		snprintf(path, sizeof(path), "/proc/%d/task/%.20s/comm", (int)pid, d->d_name);
		if (d->d_name[0] == '.' || !(f = fopen(path, "r")))
			continue;
		found = fgets(c, sizeof(c), f) && !strncmp(c, comm, strlen(comm));
		fclose(f);
	}
	closedir(dir);
	return found;
}

/* No file of fctrace process fpid's is left in /tmp. */
static void nothing_left(pid_t fpid, pid_t jvm)
{
	char pat[96];
	glob_t g;

	snprintf(pat, sizeof(pat), "/tmp/.fctrace-%d-*", (int)fpid);
	assert_int_equal(glob(pat, 0, NULL, &g), GLOB_NOMATCH);
	snprintf(pat, sizeof(pat), "/tmp/.fctrace-jvm-%d.lock", (int)jvm);
	assert_int_equal(access(pat, F_OK), -1);
	snprintf(pat, sizeof(pat), "/tmp/.attach_pid%d", (int)jvm);
	assert_int_equal(access(pat, F_OK), -1);
}

static void require(void)
{
	const char *why;

	BPF_TEST_REQUIRE();
	if ((why = java_unavailable())) {
		print_message("skip: %s\n", why);
		skip();
	}
	if (access(FCTRACE, X_OK) || access("fctrace-jvmti.so", R_OK)) {
		print_message("skip: ./fctrace and fctrace-jvmti.so not built (make)\n");
		skip();
	}
}

static void test_attach_names_and_detach(void **state)
{
	const char *const args[] = { "3", "30", "5", "wait", NULL };
	const char *json = "/tmp/fct-agent-attach.json", *log = "/tmp/fct-agent-attach.log";
	struct java_proc p;
	char pid[16];
	pid_t f;

	require();
	assert_int_equal(java_spawn(&p, NULL, NULL, "SiteBench", args, false), 0);
	assert_int_equal(java_await_ready(&p), 0);
	snprintf(pid, sizeof(pid), "%d", (int)p.pid);
	f = fct_spawn((const char *const[]){ "attach", "-p", pid, "--duration", "6", "--json",
					      json, "--quiet", NULL }, -1, log);
	if (!await_text(log, "agent loaded"))
		fail_msg("no agent: %s", slurp(log));
	java_go(&p);
	assert_int_equal(reap(f), 0);
	check_names(json, true);
	/* detached: the agent's thread ends, the JVM runs on */
	for (int ms = 0; ms < 5000 && has_task(p.pid, "fctrace-agent"); ms += 50)
		test_sleep_ms(50);
	assert_false(has_task(p.pid, "fctrace-agent"));
	assert_int_equal(kill(p.pid, 0), 0);
	nothing_left(f, p.pid);
	java_go(&p);
	assert_int_equal(java_finish(&p, text, sizeof(text)), 0);
	assert_true(java_stat(text, "thread", "rl-worker-2", "acquires") == 30);
	unlink(json);
	unlink(log);
}

static void test_run_java_same_names(void **state)
{
	const char *json = "/tmp/fct-agent-run.json", *log = "/tmp/fct-agent-run.log";
	int in[2];
	pid_t f;

	require();
	assert_int_equal(pipe(in), 0);
	assert_int_equal(write(in[1], "go\n", 3), 3);
	close(in[1]);
	f = fct_spawn((const char *const[]){ "run", "--json", json, "--quiet", "--", "java", "-cp",
					      java_classpath(), "SiteBench", "3", "30", "5", NULL },
		      in[0], log);
	close(in[0]);
	assert_int_equal(reap(f), 0);
	check_names(json, false);
	nothing_left(f, 0);
	unlink(json);
	unlink(log);
}

static void test_attach_twice(void **state)
{
	const char *const args[] = { "2", "10", "5", NULL };
	const char *log1 = "/tmp/fct-agent-1.log", *log2 = "/tmp/fct-agent-2.log";
	struct java_proc p;
	char pid[16];
	pid_t f1, f2;

	require();
	assert_int_equal(java_spawn(&p, NULL, NULL, "SiteBench", args, false), 0);
	assert_int_equal(java_await_ready(&p), 0);
	snprintf(pid, sizeof(pid), "%d", (int)p.pid);
	f1 = fct_spawn((const char *const[]){ "attach", "-p", pid, "--duration", "8", "--quiet",
					       NULL }, -1, log1);
	assert_true(await_text(log1, "agent loaded"));
	f2 = fct_spawn((const char *const[]){ "attach", "-p", pid, "--duration", "1", "--quiet",
					       NULL }, -1, log2);
	assert_int_equal(reap(f2), 0);
	assert_non_null(strstr(slurp(log2), "another fctrace is attached to JVM"));
	/* the first has shown what it had to: Ctrl-C ends it, cleanly, and
	 * (its report written) with 0, as attach's documented end */
	kill(f1, SIGINT);
	assert_int_equal(reap(f1), 0);
	nothing_left(f1, p.pid);
	nothing_left(f2, p.pid);
	java_go(&p);
	assert_int_equal(java_finish(&p, text, sizeof(text)), 0);
	unlink(log1);
	unlink(log2);
}

/* -XX:+DisableAttachMechanism: read from its memory, no SIGQUIT sent
 * (it would print a thread dump on the JVM's stdout) */
static void test_jvm_without_attach(void **state)
{
	const char *const opts[] = { "-XX:+DisableAttachMechanism", NULL };
	const char *const args[] = { "2", "10", "5", NULL };
	const char *log = "/tmp/fct-agent-noattach.log";
	struct java_proc p;
	char pid[16];
	pid_t f;

	require();
	assert_int_equal(java_spawn(&p, NULL, opts, "SiteBench", args, false), 0);
	assert_int_equal(java_await_ready(&p), 0);
	snprintf(pid, sizeof(pid), "%d", (int)p.pid);
	f = fct_spawn((const char *const[]){ "attach", "-p", pid, "--duration", "1", "--quiet",
					      NULL }, -1, log);
	assert_int_equal(reap(f), 0);
	assert_non_null(strstr(slurp(log), "it runs with -XX:+DisableAttachMechanism"));
	nothing_left(f, p.pid);
	java_go(&p);
	assert_int_equal(java_finish(&p, text, sizeof(text)), 0);
	assert_null(strstr(text, "Full thread dump"));
	unlink(log);
}

/* The JVM ends inside the window: the agent's last dump, sent as it
 * exited, still names the sites. */
static void test_jvm_exits_meanwhile(void **state)
{
	const char *const args[] = { "3", "30", "5", NULL };
	const char *json = "/tmp/fct-agent-exit.json", *log = "/tmp/fct-agent-exit.log";
	struct java_proc p;
	char pid[16];
	pid_t f;

	require();
	assert_int_equal(java_spawn(&p, NULL, NULL, "SiteBench", args, false), 0);
	assert_int_equal(java_await_ready(&p), 0);
	snprintf(pid, sizeof(pid), "%d", (int)p.pid);
	f = fct_spawn((const char *const[]){ "attach", "-p", pid, "--duration", "60", "--json",
					      json, "--quiet", NULL }, -1, log);
	assert_true(await_text(log, "agent loaded"));
	java_go(&p);
	assert_int_equal(java_finish(&p, text, sizeof(text)), 0);
	assert_int_equal(reap(f), 0);
	check_names(json, true);
	nothing_left(f, p.pid);
	unlink(json);
	unlink(log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attach_names_and_detach),
		cmocka_unit_test(test_run_java_same_names),
		cmocka_unit_test(test_attach_twice),
		cmocka_unit_test(test_jvm_without_attach),
		cmocka_unit_test(test_jvm_exits_meanwhile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
