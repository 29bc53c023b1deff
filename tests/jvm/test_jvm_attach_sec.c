/*
 * test_jvm_attach_sec.c - the JVM attach against a hostile target's owner
 * (as root; nobody plays the attacker). Each test reproduces one way a
 * target's owner made root fctrace act for them, or held it:
 *
 *   socket_swap     the agent's socket swapped for a symlink between bind
 *                   and chmod/chown (strace holds the window open): a
 *                   root file must not change owner or mode
 *   foreign_socket  .java_pid<A> a symlink to another process's socket:
 *                   no byte may reach it
 *   pending_copy    a JVM that never answers the load: the path sent must
 *                   still name fctrace's copy, in a directory only root
 *                   can write
 *   stalls          a listener that never accepts, trickles, floods or
 *                   stalls: every call ends by its deadline, answers capped
 *   interrupt       a signal ends a wait with no deadline near
 *   refusal_text    a JVM's refusal with terminal escapes: shown safe
 *   foreign_lock    another user holding the old per-JVM lock file
 *   trigger_cwd     a target in /etc: no root-owned .attach_pid there
 *   agent_flood     the agent's data channel flooded: kept capped
 *
 * The fake targets are forked processes that drop to nobody; they are in
 * fctrace's pid namespace, so their pid is their NSpid.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include "bpfutil.h"
#include "testutil.h"
#include "base/deadline.h"
#include "base/signals.h"
#include "base/as_target.h"
#include "jvm/jvm.h"

#define WATCHDOG_S	60	/* a call still running then hangs */

static uid_t nobody_uid;
static gid_t nobody_gid;

static int setup(void **state)
{
	struct passwd *pw = getpwnam("nobody");

	(void)state;
	nobody_uid = pw ? pw->pw_uid : 65534;
	nobody_gid = pw ? pw->pw_gid : 65534;
	return 0;
}

#define REQUIRE_ROOT()								\
	do {									\
		if (geteuid() != 0) {						\
			if (bpf_test_required())				\
				fail_msg("root required");			\
			print_message("skip: needs root (setuid nobody)\n");	\
			skip();							\
		}								\
	} while (0)

/* nobody, dumpable again as after an exec (a setuid leaves a process
 * undumpable, and its /proc/PID/root closed to its own user) */
static void become_nobody(void)
{
	if (setgroups(0, NULL) || setgid(nobody_gid) || setuid(nobody_uid) ||
	    prctl(PR_SET_DUMPABLE, 1))
		_exit(99);
}

/* --- fake targets ------------------------------------------------------------ */

enum listener_mode {
	L_ANSWER,	/* "0\nreturn code: 0\n" */
	L_STALL,	/* read the request, answer nothing, keep it open */
	L_TRICKLE,	/* one byte every 200 ms, forever */
	L_FLOOD,	/* bytes as fast as they go */
	L_NEVER_ACCEPT,	/* a full queue: connects cannot complete */
	L_HOSTILE,	/* a refusal carrying escapes */
};

/* the request's arguments, sent to the test on fd report */
static void read_request(int c, int report)
{
	char buf[4096];
	ssize_t n = 0, r;

	while (n < (ssize_t)sizeof(buf) && (r = read(c, buf + n, sizeof(buf) - n)) > 0) {
		int nul = 0;

		n += r;
		for (ssize_t i = 0; i < n; i++)
			nul += !buf[i];
		if (nul >= 5)
			break;
	}
	if (report >= 0 && n > 0 && write(report, buf, (size_t)n) < 0)
		_exit(98);
}

static void serve(int c, enum listener_mode m, int report)
{
	static const char hostile[] = "1\n\x1b]0;pwned\x07\x1b[2J agent loaded OK\r\n";
	static char flood[1 << 16];

	read_request(c, report);
	switch (m) {
	case L_ANSWER:
		dprintf(c, "0\nreturn code: 0\n");
		break;
	case L_HOSTILE:
		if (write(c, hostile, sizeof(hostile) - 1) < 0)
			_exit(98);
		break;
	case L_TRICKLE:
		for (;;) {
			if (write(c, "0", 1) != 1)
				_exit(0);
			usleep(200000);
		}
	case L_FLOOD:
		memset(flood, 'x', sizeof(flood));
		flood[0] = '0';
		flood[1] = '\n';
		while (write(c, flood, sizeof(flood)) > 0)
			;
		_exit(0);
	default:
		pause();
	}
}

/* A nobody process listening on its /tmp/.java_pid<pid>, as a JVM's
 * attach listener would; requests it reads go to report. */
static void fake_listener(enum listener_mode m, int report, int ready)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd, c;

	become_nobody();
	snprintf(a.sun_path, sizeof(a.sun_path), "/tmp/.java_pid%d", (int)getpid());
	unlink(a.sun_path);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    listen(fd, m == L_NEVER_ACCEPT ? 0 : 4))
		_exit(97);
	if (m == L_NEVER_ACCEPT)	/* fill the queue with connects of its own */
		for (int i = 0; i < 4; i++) {
			int s = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);

			connect(s, (struct sockaddr *)&a, sizeof(a));
		}
	if (write(ready, "r", 1) != 1)
		_exit(96);
	if (m == L_NEVER_ACCEPT)
		pause();
	while ((c = accept(fd, NULL, NULL)) >= 0) {
		serve(c, m, report);
		close(c);
	}
	_exit(0);
}

struct target {
	pid_t pid;
	int report;	/* what it read of requests, or -1 */
};

/* fork a fake target running body(arg..., ready); wait for its "r" */
static struct target start_listener(enum listener_mode m)
{
	int rep[2], rdy[2];
	struct target t = { .report = -1 };
	char c;

	assert_int_equal(pipe(rep), 0);
	assert_int_equal(pipe(rdy), 0);
	t.pid = fork();
	assert_true(t.pid >= 0);
	if (!t.pid) {
		close(rep[0]);
		close(rdy[0]);
		fake_listener(m, rep[1], rdy[1]);
	}
	close(rep[1]);
	close(rdy[1]);
	assert_int_equal(read(rdy[0], &c, 1), 1);
	close(rdy[0]);
	t.report = rep[0];
	fcntl(t.report, F_SETFL, O_NONBLOCK);
	return t;
}

static void stop_target(struct target *t)
{
	char path[64];

	if (t->pid > 0) {
		kill(t->pid, SIGKILL);
		waitpid(t->pid, NULL, 0);
		snprintf(path, sizeof(path), "/tmp/.java_pid%d", (int)t->pid);
		unlink(path);
	}
	if (t->report >= 0)
		close(t->report);
}

/* --- a call under a watchdog ---------------------------------------------- */

/* Run fn in a child with signals installed as fctrace has them; its exit
 * status, failing the test if it is still running after WATCHDOG_S. */
static int in_child(int (*fn)(void *), void *arg, pid_t signal_me_after_ms_target)
{
	pid_t c = fork();
	int st = 0;

	assert_true(c >= 0);
	if (!c) {
		signals_install(NULL);
		_exit(fn(arg));
	}
	if (signal_me_after_ms_target) {
		usleep((useconds_t)signal_me_after_ms_target * 1000);
		kill(c, SIGINT);
	}
	for (int i = 0; i < WATCHDOG_S * 10; i++) {
		if (waitpid(c, &st, WNOHANG) == c)
			return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		usleep(100000);
	}
	kill(c, SIGKILL);
	waitpid(c, NULL, 0);
	fail_msg("the call still ran after %d s: it hangs", WATCHDOG_S);
	return -1;
}

struct call {
	pid_t pid;
	int deadline_ms;	/* 0: a minute */
	size_t max;
	enum { C_OK, C_TIMEOUT, C_CAPPED, C_CLEAN_WHY, C_REFUSED } expect;
};

static int do_command(void *arg)
{
	struct call *c = arg;
	const char *const args[3] = { "/nonexistent/agent.so", "true", "sock=/x" };
	struct target_cred cred;
	struct jvm_answer ans;
	char why[400];
	bool answered;
	int rc;

	if (target_cred_of(c->pid, &cred))
		return 50;
	if (c->expect == C_CLEAN_WHY) {
		rc = jvm_attach_load(c->pid, &cred, args[0], args[2],
				     deadline_in_ms(c->deadline_ms), &answered, why, sizeof(why));
		return rc == -EPERM && !strpbrk(why, "\x1b\r\a") && strstr(why, "\\x1b") ? 0 : 51;
	}
	rc = jvm_attach_command(c->pid, &cred, "load", args, c->max ? c->max : 4096,
				deadline_in_ms(c->deadline_ms ? c->deadline_ms : 60000), &ans, why,
				sizeof(why));
	switch (c->expect) {
	case C_OK:
		return rc == 0 && ans.closed ? 0 : 52;
	case C_TIMEOUT:
		return rc < 0 || !ans.closed ? 0 : 53;
	case C_CAPPED:
		return ans.len <= c->max && ans.truncated ? 0 : 54;
	case C_REFUSED:
		return rc == -EPERM || rc == -EACCES ? 0 : 55;
	default:
		return 56;
	}
}

static void test_stalls(void **state)
{
	static const struct { enum listener_mode m; int expect; } cases[] = {
		{ L_ANSWER, C_OK }, { L_STALL, C_TIMEOUT }, { L_TRICKLE, C_TIMEOUT },
		{ L_NEVER_ACCEPT, C_TIMEOUT }, { L_FLOOD, C_CAPPED },
	};

	(void)state;
	REQUIRE_ROOT();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct target t = start_listener(cases[i].m);
		struct call c = { .pid = t.pid, .deadline_ms = 1500, .max = 1 << 20,
				  .expect = cases[i].expect };
		int rc = in_child(do_command, &c, 0);

		stop_target(&t);
		if (rc)
			fail_msg("listener mode %d: the call returned %d", (int)cases[i].m, rc);
	}
}

static void test_interrupt(void **state)
{
	struct target t;
	struct call c;

	(void)state;
	REQUIRE_ROOT();
	t = start_listener(L_TRICKLE);
	c = (struct call){ .pid = t.pid, .deadline_ms = 0, .expect = C_TIMEOUT };
	assert_int_equal(in_child(do_command, &c, 500), 0);
	stop_target(&t);
}

static void test_refusal_text(void **state)
{
	struct target t;
	struct call c;

	(void)state;
	REQUIRE_ROOT();
	t = start_listener(L_HOSTILE);
	c = (struct call){ .pid = t.pid, .deadline_ms = 3000, .expect = C_CLEAN_WHY };
	assert_int_equal(in_child(do_command, &c, 0), 0);
	stop_target(&t);
}

/* --- another process's socket behind the target's name ------------------ */

/* A root process listening on path (mode 0777: anyone may connect) that
 * exits with how many bytes it was sent within two seconds. */
static pid_t bystander(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd, c, ready[2];
	pid_t p;
	char x;

	assert_int_equal(pipe(ready), 0);
	if ((p = fork()))
		goto wait_ready;
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	unlink(path);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) || chmod(path, 0777) ||
	    listen(fd, 4) || write(ready[1], "r", 1) != 1)
		_exit(99);
	alarm(4);
	if ((c = accept(fd, NULL, NULL)) >= 0) {
		char buf[256];
		ssize_t n = read(c, buf, sizeof(buf));

		_exit(n > 0 ? 1 : 0);
	}
	_exit(0);
wait_ready:
	assert_true(p > 0);
	assert_int_equal(read(ready[0], &x, 1), 1);
	close(ready[0]);
	close(ready[1]);
	return p;
}

static pid_t symlinker(const char *to, int ready)
{
	pid_t p = fork();
	char link[64];

	if (p)
		return p;
	become_nobody();
	snprintf(link, sizeof(link), "/tmp/.java_pid%d", (int)getpid());
	unlink(link);
	if (symlink(to, link) || write(ready, "r", 1) != 1)
		_exit(99);
	pause();
	_exit(0);
}

static void test_foreign_socket(void **state)
{
	char sock[64], link[64], x;
	int ready[2], st = 0;
	pid_t b, a;
	struct call c;

	(void)state;
	REQUIRE_ROOT();
	snprintf(sock, sizeof(sock), "/tmp/fct-bystander-%d.sock", (int)getpid());
	b = bystander(sock);
	assert_int_equal(pipe(ready), 0);
	a = symlinker(sock, ready[1]);
	assert_int_equal(read(ready[0], &x, 1), 1);
	c = (struct call){ .pid = a, .deadline_ms = 1000, .expect = C_REFUSED };
	assert_int_equal(in_child(do_command, &c, 0), 0);
	kill(a, SIGKILL);
	waitpid(a, NULL, 0);
	waitpid(b, &st, 0);
	snprintf(link, sizeof(link), "/tmp/.java_pid%d", (int)a);
	unlink(link);
	unlink(sock);
	close(ready[0]);
	close(ready[1]);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);	/* not a byte reached it */
}

/* --- the agent's copy while the JVM holds the request --------------------- */

static const char *agent_source(void)
{
	static char path[PATH_MAX];

	if (realpath(JVM_AGENT_NAME, path))
		return path;
	return "/etc/hostname";	/* any file: the copy is what is checked */
}

static void test_pending_copy(void **state)
{
	struct target t;
	struct target_cred cred;
	struct jvm_agent *a;
	char why[400], got[4096] = "", dir[PATH_MAX];
	const char *sent;
	struct stat st;
	ssize_t n;

	(void)state;
	REQUIRE_ROOT();
	t = start_listener(L_STALL);
	assert_int_equal(target_cred_of(t.pid, &cred), 0);
	a = jvm_agent_listen(t.pid, true, &cred, why, sizeof(why));
	assert_non_null(a);
	assert_int_not_equal(jvm_agent_load(a, agent_source(), deadline_in_ms(1500), why,
					    sizeof(why)), 0);
	assert_non_null(jvm_agent_copy_left(a));
	jvm_agent_close(a);
	/* the path the stalled JVM holds: "1\0load\0PATH\0..." */
	n = read(t.report, got, sizeof(got) - 1);
	assert_true(n > 7);
	sent = got + strlen(got) + 1;
	sent += strlen(sent) + 1;
	assert_int_equal(stat(sent, &st), 0);	/* still there, still ours */
	assert_int_equal(st.st_uid, 0);
	snprintf(dir, sizeof(dir), "%s", sent);
	*strrchr(dir, '/') = '\0';
	assert_int_equal(stat(dir, &st), 0);
	assert_int_equal(st.st_uid, 0);
	assert_int_equal(st.st_mode & 0777, 0755);	/* no one else writes there */
	stop_target(&t);
	unlink(sent);
	rmdir(dir);
}

/* --- the old per-JVM lock held by another user ------------------------------ */

static void test_foreign_lock(void **state)
{
	struct target t;
	struct target_cred cred;
	struct jvm_agent *a;
	char lock[64], why[400], x;
	int ready[2];
	pid_t holder;

	(void)state;
	REQUIRE_ROOT();
	t = start_listener(L_ANSWER);
	snprintf(lock, sizeof(lock), "/tmp/.fctrace-jvm-%d.lock", (int)t.pid);
	assert_int_equal(pipe(ready), 0);
	if (!(holder = fork())) {
		int fd;

		become_nobody();
		fd = open(lock, O_RDWR | O_CREAT, 0644);
		if (fd < 0 || flock(fd, LOCK_EX) || write(ready[1], "r", 1) != 1)
			_exit(99);
		pause();
		_exit(0);
	}
	assert_int_equal(read(ready[0], &x, 1), 1);
	assert_int_equal(target_cred_of(t.pid, &cred), 0);
	a = jvm_agent_listen(t.pid, true, &cred, why, sizeof(why));
	if (!a)
		fail_msg("another user's lock file stopped the agent: %s", why);
	jvm_agent_close(a);
	kill(holder, SIGKILL);
	waitpid(holder, NULL, 0);
	unlink(lock);
	close(ready[0]);
	close(ready[1]);
	stop_target(&t);
}

/* --- the trigger file of a target in /etc ----------------------------------- */

static void on_quit(int sig)
{
	(void)sig;
}

static void test_trigger_cwd(void **state)
{
	int in = inotify_init1(IN_NONBLOCK), ready[2];
	char buf[4096], x;
	struct call c;
	bool made = false;
	ssize_t n;
	pid_t t;

	(void)state;
	REQUIRE_ROOT();
	assert_true(in >= 0);
	assert_true(inotify_add_watch(in, "/etc", IN_CREATE) >= 0);
	assert_int_equal(pipe(ready), 0);
	if (!(t = fork())) {	/* takes SIGQUIT, as a JVM does; never listens */
		signal(SIGQUIT, on_quit);
		become_nobody();
		if (chdir("/etc") || write(ready[1], "r", 1) != 1)
			_exit(99);
		for (;;)
			pause();
	}
	assert_int_equal(read(ready[0], &x, 1), 1);
	c = (struct call){ .pid = t, .deadline_ms = 800, .expect = C_TIMEOUT };
	assert_int_equal(in_child(do_command, &c, 0), 0);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		for (char *p = buf; p < buf + n;) {
			struct inotify_event *e = (struct inotify_event *)p;

			made |= e->len && !strncmp(e->name, ".attach_pid", 11);
			p += sizeof(*e) + e->len;
		}
	kill(t, SIGKILL);
	waitpid(t, NULL, 0);
	snprintf(buf, sizeof(buf), "/tmp/.attach_pid%d", (int)t);
	unlink(buf);
	close(in);
	close(ready[0]);
	close(ready[1]);
	assert_false(made);
}

/* --- the agent's data channel flooded ---------------------------------------- */

static void test_agent_flood(void **state)
{
	struct target_cred cred;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct jvm_agent *a;
	char why[400], *opt, *sock;
	int st, go[2];
	pid_t f;

	(void)state;
	REQUIRE_ROOT();
	target_cred_plain(&cred, nobody_uid, nobody_gid);
	a = jvm_agent_listen(0, false, &cred, why, sizeof(why));
	assert_non_null(a);
	opt = jvm_agent_option(a, "x");
	sock = strstr(opt, "sock=") + 5;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%.*s", (int)strcspn(sock, ","), sock);
	assert_int_equal(pipe(go), 0);
	if (!(f = fork())) {	/* the "agent": 128 MiB of thread lines */
		static char line[1 << 16];
		int fd = socket(AF_UNIX, SOCK_STREAM, 0);
		char x;

		become_nobody();
		if (read(go[0], &x, 1) != 1)	/* once it is the one expected */
			_exit(97);
		for (size_t i = 0; i < sizeof(line); i += 8)
			memcpy(line + i, "N\t1\t42\n\n", 8);
		if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
			_exit(99);
		for (int i = 0; i < 2048; i++)
			if (write(fd, line, sizeof(line)) != sizeof(line))
				_exit(98);
		_exit(0);
	}
	jvm_agent_set_pid(a, f);
	assert_int_equal(write(go[1], "g", 1), 1);
	assert_int_equal(waitpid(f, &st, 0), f);
	close(go[0]);
	close(go[1]);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	/* the writer is done once the last of it is in the socket's buffer:
	 * the reader thread takes that last part later (a dump returns at the
	 * first whole report, not at the data's end), so wait for it - 10 s
	 * at most, for a busy machine's reader */
	for (int i = 0; i < 1000 && jvm_agent_dropped(a) < (64u << 20); i++)
		usleep(10000);
	free(jvm_agent_dump(a, deadline_in_ms(1000)));
	assert_true(jvm_agent_dropped(a) >= (64u << 20));	/* 128 MiB sent, 64 kept */
	free(opt);
	jvm_agent_close(a);
}

/* --- the socket swapped between bind and what follows -------------------------- */

/* fctrace's side, in a process of its own for strace: listen for the
 * agent of JVM pid, then end (the socket removed). */
static int listen_once(pid_t pid)
{
	struct target_cred cred;
	struct jvm_agent *a;
	char why[400];

	if (target_cred_of(pid, &cred) || !(a = jvm_agent_listen(pid, true, &cred, why,
								     sizeof(why))))
		return 1;
	jvm_agent_close(a);
	return 0;
}

/* The attacker: nobody, with a /tmp of its own (its own mount namespace,
 * a directory of nobody's bound there), swapping fctrace's socket for a
 * symlink to victim the moment it appears. */
static void swapper(const char *own_tmp, const char *victim, int ready)
{
	char buf[4096], path[300];
	int in;

	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount(own_tmp, "/tmp", NULL, MS_BIND, NULL))
		_exit(99);
	become_nobody();
	if ((in = inotify_init()) < 0 || inotify_add_watch(in, "/tmp", IN_CREATE) < 0 ||
	    symlink(victim, "/tmp/.swap") || write(ready, "r", 1) != 1)
		_exit(98);
	for (;;) {
		ssize_t n = read(in, buf, sizeof(buf));

		for (char *p = buf; n > 0 && p < buf + n;) {
			struct inotify_event *e = (struct inotify_event *)p;

			if (e->len && strstr(e->name, ".sock")) {
				snprintf(path, sizeof(path), "/tmp/%s", e->name);
				renameat2(AT_FDCWD, "/tmp/.swap", AT_FDCWD, path, RENAME_EXCHANGE);
			}
			p += sizeof(*e) + e->len;
		}
	}
}

static void test_socket_swap(void **state)
{
	char victim[64], own[64], self[PATH_MAX], pidarg[16], x;
	struct stat st;
	int ready[2], sst;
	ssize_t n;
	pid_t t, s;

	(void)state;
	REQUIRE_ROOT();
	if (access("/usr/bin/strace", X_OK)) {
		if (bpf_test_required())
			fail_msg("strace required (make deps-test installs it)");
		skip();
	}
	snprintf(victim, sizeof(victim), "/var/tmp/fct-victim-%d", (int)getpid());
	snprintf(own, sizeof(own), "/tmp/fct-own-tmp-%d", (int)getpid());
	close(open(victim, O_WRONLY | O_CREAT | O_TRUNC, 0644));
	assert_int_equal(chmod(victim, 0644), 0);
	assert_int_equal(mkdir(own, 0700), 0);
	assert_int_equal(chown(own, nobody_uid, nobody_gid), 0);
	assert_int_equal(pipe(ready), 0);
	if (!(t = fork()))
		swapper(own, victim, ready[1]);
	assert_int_equal(read(ready[0], &x, 1), 1);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	assert_true(n > 0);
	self[n] = '\0';
	snprintf(pidarg, sizeof(pidarg), "%d", (int)t);
	/* strace holds bind's return for 1.5 s: the window the swap needs */
	if (!(s = fork())) {
		execl("/usr/bin/strace", "strace", "-f", "-qq", "-o", "/dev/null", "-e",
		      "trace=bind", "-e", "inject=bind:delay_exit=1500000", self, "--listen",
		      pidarg, (char *)NULL);
		_exit(127);
	}
	assert_int_equal(waitpid(s, &sst, 0), s);
	kill(t, SIGKILL);
	waitpid(t, NULL, 0);
	assert_int_equal(stat(victim, &st), 0);
	unlink(victim);
	snprintf(self, sizeof(self), "rm -rf %s", own);
	assert_int_equal(system(self), 0);
	close(ready[0]);
	close(ready[1]);
	assert_int_equal(st.st_uid, 0);		/* root's file kept its owner */
	assert_int_equal(st.st_mode & 0777, 0644);	/* and its mode */
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_socket_swap),
		cmocka_unit_test(test_foreign_socket),
		cmocka_unit_test(test_pending_copy),
		cmocka_unit_test(test_stalls),
		cmocka_unit_test(test_interrupt),
		cmocka_unit_test(test_refusal_text),
		cmocka_unit_test(test_foreign_lock),
		cmocka_unit_test(test_trigger_cwd),
		cmocka_unit_test(test_agent_flood),
	};

	if (argc == 3 && !strcmp(argv[1], "--listen"))
		return listen_once((pid_t)atoi(argv[2]));
	test_signals_default();
	return cmocka_run_group_tests(tests, setup, NULL);
}
