/*
 * jvm_attach.c - HotSpot's dynamic attach protocol, the one jcmd and
 * jstack speak, in C (a JRE-only machine has no jcmd):
 *
 *   1. the JVM listens on the UNIX socket /tmp/.java_pid<NSPID> once its
 *      Attach Listener runs; if it does not yet, a file .attach_pid<NSPID>
 *      in its cwd (or /tmp) and a SIGQUIT start it;
 *   2. a request is "1\0<cmd>\0<arg0>\0<arg1>\0<arg2>\0";
 *   3. the answer is the result code on its first line, then the
 *      command's output, until the JVM closes the socket.
 *
 * Every path is taken through /proc/PID/root and /proc/PID/cwd, so a JVM
 * in another mount namespace (a container) is reached as it sees its own
 * files, and NSPID is its pid in its own pid namespace.
 *
 * The JVM's owner decides what those paths are: everything done there by
 * path (the connect, the trigger file made and removed) is done with the
 * JVM's own credentials (as_target.h), so HotSpot sees its own user as
 * the peer, and a symlink leads nowhere that user could not go alone. A
 * socket is used only when SO_PEERCRED says the target process itself
 * listens on it: a .java_pid link to another JVM's socket is refused
 * before a byte is sent. Every wait ends at the caller's deadline or at
 * a signal, and an answer is kept up to a cap.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include "base/deadline.h"
#include "base/termsafe.h"
#include "base/as_target.h"
#include "jvm/jvm.h"

#define ATTACH_WAIT_MS	10000	/* jcmd waits as long for the listener */
#define ANSWER_WAIT_MS	10000
#define SLICE_MS	100	/* a wait's slice: signals are seen within it */

/* The last NSpid entry of /proc/PID/status: the pid in its own namespace. */
pid_t jvm_ns_pid(pid_t pid, pid_t tid)
{
	char path[80], line[256];
	pid_t ns = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", (int)pid, (int)tid);
	if (!(f = fopen(path, "re")))
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *p, *end;

		if (strncmp(line, "NSpid:", 6))
			continue;
		for (p = line + 6; *p; p = end) {
			long v = strtol(p, &end, 10);

			if (end == p)
				break;
			ns = (pid_t)v;
		}
	}
	fclose(f);
	return ns;
}

/* --- connecting, as the JVM's own user ------------------------------------- */

struct connect_job {
	char path[128];
	int fd;			/* out: the connected socket */
};

/* A non-blocking connect: a listener whose queue is full (it never
 * accepts) answers EAGAIN at once instead of holding the caller. */
static int connect_as_target(void *arg)
{
	struct connect_job *j = arg;
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(j->path) >= sizeof(a.sun_path))
		return -ENAMETOOLONG;
	memcpy(a.sun_path, j->path, strlen(j->path));
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		int err = -errno;

		close(fd);
		return err;
	}
	j->fd = fd;
	return 0;
}

/* Is the listener the target itself, run by its owner? */
static bool peer_is_target(int fd, pid_t pid, uid_t uid, char *why, size_t wlen)
{
	struct ucred c;
	socklen_t l = sizeof(c);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &c, &l)) {
		snprintf(why, wlen, "cannot tell who listens on its attach socket: %s",
			 strerror(errno));
		return false;
	}
	if (c.pid == pid && c.uid == uid)
		return true;
	snprintf(why, wlen, "its attach socket is not its own (process %d, uid %u listens "
		 "there): refused", (int)c.pid, (unsigned)c.uid);
	return false;
}

/* One try at the JVM's socket: the fd, or -errno (-EPERM with why said
 * when another process listens there). */
static int connect_listener(pid_t pid, pid_t ns, const struct target_cred *cred, char *why,
			    size_t wlen)
{
	struct connect_job j = { .fd = -1 };
	int err;

	snprintf(j.path, sizeof(j.path), "/proc/%d/root/tmp/.java_pid%d", (int)pid, (int)ns);
	if ((err = as_target(cred, connect_as_target, &j)))
		return err;
	if (!peer_is_target(j.fd, pid, cred->uid, why, wlen)) {
		close(j.fd);
		return -EPERM;
	}
	return j.fd;
}

/* --- starting the listener ---------------------------------------------------- */

static bool takes_sigquit(pid_t pid)
{
	char path[64], line[256];
	unsigned long long cgt = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (!(f = fopen(path, "re")))
		return false;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "SigCgt:", 7))
			cgt = strtoull(line + 7, NULL, 16);
	fclose(f);
	return cgt & (1ull << (SIGQUIT - 1));
}

struct trigger_job {
	pid_t pid, ns;
	char path[128];		/* out: the file made, "" if none */
	bool remove;		/* remove path instead */
};

/* The trigger file, made by the JVM's user in its cwd or else its /tmp
 * (HotSpot takes one its own user owns): where that user may not write,
 * nothing is made. */
static int trigger_as_target(void *arg)
{
	struct trigger_job *j = arg;
	const char *dirs[] = { "cwd", "root/tmp" };
	int err = -ENOENT;

	if (j->remove)
		return unlink(j->path) ? -errno : 0;
	for (int i = 0; i < 2; i++) {
		int fd;

		snprintf(j->path, sizeof(j->path), "/proc/%d/%s/.attach_pid%d", (int)j->pid,
			 dirs[i], (int)j->ns);
		fd = open(j->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
		if (fd >= 0) {
			close(fd);
			return 0;
		}
		err = -errno;
	}
	j->path[0] = '\0';
	return err;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/* Connect until the deadline while the started listener comes up. */
static int await_listener(pid_t pid, pid_t ns, const struct target_cred *cred, uint64_t until,
			  char *why, size_t wlen)
{
	int fd = -ENOENT, ms;

	while (fd < 0 && fd != -EPERM && (ms = deadline_left_ms(until, 50)) > 0) {
		sleep_ms(ms);
		fd = connect_listener(pid, ns, cred, why, wlen);
		if (kill(pid, 0) && errno == ESRCH)
			break;
	}
	if (fd < 0 && fd != -EPERM)
		snprintf(why, wlen, "its attach listener did not answer %s (%s)",
			 signals_caught() ? "before fctrace was interrupted" : "in time",
			 kill(pid, 0) ? "the JVM is gone" : "not HotSpot, or a stalled JVM?");
	return fd;
}

/* A connection to the JVM's attach listener, started if need be. */
static int open_listener(pid_t pid, const struct target_cred *cred, uint64_t until, char *why,
			 size_t wlen)
{
	struct trigger_job tj = { .pid = pid, .ns = jvm_ns_pid(pid, pid) };
	int fd, err;

	if (!tj.ns) {
		snprintf(why, wlen, "process %d is gone", (int)pid);
		return -ESRCH;
	}
	fd = connect_listener(pid, tj.ns, cred, why, wlen);
	if (fd >= 0 || fd == -EPERM)
		return fd;
	if (fd == -EAGAIN)	/* it listens, but its queue is full */
		return await_listener(pid, tj.ns, cred, until, why, wlen);
	if (!takes_sigquit(pid)) {
		snprintf(why, wlen, "the JVM does not handle SIGQUIT (started with -Xrs, or not "
			 "HotSpot): its attach listener cannot be started");
		return -ENOTSUP;
	}
	if ((err = as_target(cred, trigger_as_target, &tj))) {
		snprintf(why, wlen, "its user cannot create .attach_pid%d in its cwd or /tmp: %s",
			 (int)tj.ns, strerror(-err));
		return err;
	}
	kill(pid, SIGQUIT);
	fd = await_listener(pid, tj.ns, cred, until, why, wlen);
	tj.remove = true;
	as_target(cred, trigger_as_target, &tj);
	return fd;
}

/* --- the request and its answer ----------------------------------------------- */

static int send_request(int fd, const char *cmd, const char *const args[3], uint64_t until)
{
	char buf[4096];
	size_t n = 0, sent = 0;
	const char *parts[5] = { "1", cmd, args[0], args[1], args[2] };

	for (int i = 0; i < 5; i++) {
		const char *p = parts[i] ? parts[i] : "";
		size_t l = strlen(p) + 1;

		if (n + l > sizeof(buf))
			return -E2BIG;
		memcpy(buf + n, p, l);
		n += l;
	}
	while (sent < n) {
		struct pollfd p = { .fd = fd, .events = POLLOUT };
		int ms = deadline_left_ms(until, SLICE_MS);
		ssize_t w;

		if (!ms)
			return -ETIMEDOUT;
		if (poll(&p, 1, ms) <= 0)
			continue;
		if ((w = send(fd, buf + sent, n - sent, MSG_NOSIGNAL)) < 0 && errno != EAGAIN)
			return -EIO;
		sent += w > 0 ? (size_t)w : 0;
	}
	return 0;
}

/* Append up to 64 KiB read from fd to a, capped at max: the bytes read
 * (0 at EOF, -1 on error or nothing yet); past max they are dropped. */
static ssize_t read_some(int fd, struct jvm_answer *a, size_t max)
{
	char chunk[65536];
	ssize_t r = read(fd, chunk, sizeof(chunk));
	size_t keep;

	if (r <= 0)
		return r < 0 && errno == EAGAIN ? -1 : r == 0 ? 0 : -2;
	keep = a->len + (size_t)r > max ? max - a->len : (size_t)r;
	if (keep && a->len + keep + 1 > a->cap) {
		size_t cap = (a->len + keep + 1) * 2 < max + 1 ? (a->len + keep + 1) * 2 : max + 1;
		char *nb = realloc(a->text, cap);

		if (!nb)
			return -2;
		a->text = nb;
		a->cap = cap;
	}
	memcpy(a->text + a->len, chunk, keep);
	a->len += keep;
	a->text[a->len] = '\0';
	a->truncated |= keep < (size_t)r;
	return r;
}

/* The answer until the JVM closes the socket, the deadline passes or a
 * signal comes; past max bytes it is read on but not kept. */
static int read_answer(int fd, struct jvm_answer *a, size_t max, uint64_t until)
{
	int ms;

	if (!(a->text = malloc(a->cap = 4096)))
		return -ENOMEM;
	a->text[0] = '\0';
	while ((ms = deadline_left_ms(until, SLICE_MS)) > 0) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t r;

		if (poll(&p, 1, ms) <= 0)
			continue;
		if ((r = read_some(fd, a, max)) == 0) {
			a->closed = true;
			return 0;
		}
		if (r == -2)
			return -EIO;
	}
	return -ETIMEDOUT;
}

void jvm_answer_free(struct jvm_answer *a)
{
	free(a->text);
	memset(a, 0, sizeof(*a));
}

int jvm_attach_command(pid_t pid, const struct target_cred *cred, const char *cmd,
		       const char *const args[3], size_t max, uint64_t until,
		       struct jvm_answer *ans, char *why, size_t wlen)
{
	int fd, code = -1, err;

	memset(ans, 0, sizeof(*ans));
	until = deadline_min(until, deadline_in_ms(ATTACH_WAIT_MS + ANSWER_WAIT_MS));
	if ((fd = open_listener(pid, cred, until, why, wlen)) < 0)
		return fd;
	if ((err = send_request(fd, cmd, args, until))) {
		snprintf(why, wlen, "cannot send the %s request: %s", cmd, strerror(-err));
		close(fd);
		return err;
	}
	err = read_answer(fd, ans, max, until);
	close(fd);
	if (!ans->text || sscanf(ans->text, "%d", &code) != 1) {
		snprintf(why, wlen, "no answer to the %s request%s", cmd,
			 err == -ETIMEDOUT ? " in time" : "");
		return err ? err : -EPROTO;
	}
	return code;
}

/* The JVM's own words after its result code, one line, made safe for a
 * terminal: a JVM chooses them. */
static void jvm_words(const char *text, char *out, size_t len)
{
	const char *nl = text ? strchr(text, '\n') : NULL;
	char line[160];

	out[0] = '\0';
	if (!nl || !nl[1])
		return;
	snprintf(line, sizeof(line), "%.*s", (int)strcspn(nl + 1, "\n"), nl + 1);
	term_safe(out, len, line);
}

/* fctrace's agent's own refusals (jvmti_agent.c's return codes 1..3) */
static const char *agent_refusal(int rc)
{
	static const char *const says[] = {
		"it could not connect to fctrace's socket",
		"another fctrace's session runs in it",
		"JVMTI refused its capabilities (a JVM still starting?)",
	};

	return rc >= 1 && rc <= 3 ? says[rc - 1] : NULL;
}

int jvm_attach_load(pid_t pid, const struct target_cred *cred, const char *agent,
		    const char *options, uint64_t until, bool *answered, char *why, size_t wlen)
{
	const char *args[3] = { agent, "true", options };
	struct jvm_answer ans;
	int code = jvm_attach_command(pid, cred, "load", args, 4096, until, &ans, why, wlen);
	int agent_rc = 0;
	const char *rc;
	char words[200];

	*answered = ans.closed;
	if (code < 0) {
		jvm_answer_free(&ans);
		return code;
	}
	/* JDK 9+: "0\nreturn code: N\n"; N is Agent_OnAttach's */
	if ((rc = strstr(ans.text, "return code: ")))
		agent_rc = atoi(rc + strlen("return code: "));
	jvm_words(ans.text, words, sizeof(words));
	jvm_answer_free(&ans);
	if (!code && agent_refusal(agent_rc)) {
		snprintf(why, wlen, "the agent was loaded but %s", agent_refusal(agent_rc));
		return -EPERM;
	}
	if (code || agent_rc) {
		snprintf(why, wlen, "the JVM refused the agent (result %d, agent %d%s%s)", code,
			 agent_rc, code && words[0] ? ": " : "", code ? words : "");
		return -EPERM;
	}
	return 0;
}
