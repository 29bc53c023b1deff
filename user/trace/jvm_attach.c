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
 * files, and NSPID is its pid in its own pid namespace. HotSpot accepts a
 * peer whose euid and egid are its own, or root (SO_PEERCRED).
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
#include "trace/jvm.h"

#define ATTACH_WAIT_MS	10000	/* jcmd waits as long for the listener */
#define ANSWER_WAIT_MS	10000

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

static void sock_path(pid_t pid, pid_t ns, char *out, size_t len)
{
	snprintf(out, len, "/proc/%d/root/tmp/.java_pid%d", (int)pid, (int)ns);
}

static int connect_path(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(a.sun_path))
		return -ENAMETOOLONG;
	memcpy(a.sun_path, path, strlen(path));
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

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

/* The trigger file, in the JVM's cwd or else its /tmp: its path into
 * out, or -errno. */
static int make_trigger(pid_t pid, pid_t ns, char *out, size_t len)
{
	const char *dirs[] = { "cwd", "root/tmp" };

	for (int i = 0; i < 2; i++) {
		int fd;

		snprintf(out, len, "/proc/%d/%s/.attach_pid%d", (int)pid, dirs[i], (int)ns);
		fd = open(out, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
		if (fd >= 0) {
			close(fd);
			return 0;
		}
	}
	out[0] = '\0';
	return -errno;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/* A connection to the JVM's attach listener, started if need be. */
static int open_listener(pid_t pid, char *why, size_t wlen)
{
	pid_t ns = jvm_ns_pid(pid, pid);
	char sock[128], trig[128];
	int fd, err, waited = 0;

	if (!ns) {
		snprintf(why, wlen, "process %d is gone", (int)pid);
		return -ESRCH;
	}
	sock_path(pid, ns, sock, sizeof(sock));
	if ((fd = connect_path(sock)) >= 0)
		return fd;
	if (!takes_sigquit(pid)) {
		snprintf(why, wlen, "the JVM does not handle SIGQUIT (started with -Xrs, or not "
			 "HotSpot): its attach listener cannot be started");
		return -ENOTSUP;
	}
	if ((err = make_trigger(pid, ns, trig, sizeof(trig)))) {
		snprintf(why, wlen, "cannot create .attach_pid%d in its cwd or /tmp: %s", (int)ns,
			 strerror(-err));
		return err;
	}
	kill(pid, SIGQUIT);
	for (fd = -ENOENT; fd < 0 && waited < ATTACH_WAIT_MS; waited += 50) {
		sleep_ms(50);
		fd = connect_path(sock);
		if (kill(pid, 0) && errno == ESRCH)
			break;
	}
	unlink(trig);
	if (fd < 0)
		snprintf(why, wlen, "its attach listener did not start within %d s (%s)",
			 ATTACH_WAIT_MS / 1000, kill(pid, 0) ? "the JVM is gone" : "not HotSpot?");
	return fd;
}

static int send_request(int fd, const char *cmd, const char *const args[3])
{
	char buf[4096];
	size_t n = 0;
	const char *parts[5] = { "1", cmd, args[0], args[1], args[2] };

	for (int i = 0; i < 5; i++) {
		const char *p = parts[i] ? parts[i] : "";
		size_t l = strlen(p) + 1;

		if (n + l > sizeof(buf))
			return -E2BIG;
		memcpy(buf + n, p, l);
		n += l;
	}
	return write(fd, buf, n) == (ssize_t)n ? 0 : -EIO;
}

/* The whole answer, NUL-terminated (malloc'd), until EOF or timeout. */
static char *read_answer(int fd)
{
	size_t cap = 8192, n = 0;
	char *buf = malloc(cap);
	struct pollfd p = { .fd = fd, .events = POLLIN };

	while (buf && poll(&p, 1, ANSWER_WAIT_MS) > 0) {
		ssize_t r;

		if (n + 4096 + 1 > cap) {
			char *nb = realloc(buf, cap *= 2);

			if (!nb)
				break;
			buf = nb;
		}
		if ((r = read(fd, buf + n, 4096)) <= 0)
			break;
		n += (size_t)r;
	}
	if (buf)
		buf[n] = '\0';
	return buf;
}

int jvm_attach_command(pid_t pid, const char *cmd, const char *const args[3], char **out,
		       char *why, size_t wlen)
{
	int fd = open_listener(pid, why, wlen), code = -1;
	char *ans;

	*out = NULL;
	if (fd < 0)
		return fd;
	if (send_request(fd, cmd, args)) {
		snprintf(why, wlen, "cannot send the %s request", cmd);
		close(fd);
		return -EIO;
	}
	ans = read_answer(fd);
	close(fd);
	if (!ans || sscanf(ans, "%d", &code) != 1) {
		snprintf(why, wlen, "no answer to the %s request", cmd);
		free(ans);
		return -EPROTO;
	}
	*out = ans;
	return code;
}

int jvm_attach_load(pid_t pid, const char *agent, const char *options, char *why, size_t wlen)
{
	const char *args[3] = { agent, "true", options };
	char *out = NULL, *rc;
	int code = jvm_attach_command(pid, "load", args, &out, why, wlen);
	int agent_rc = 0;

	if (code < 0 && !out)
		return code;
	/* JDK 9+: "0\nreturn code: N\n"; N is Agent_OnAttach's */
	if (out && (rc = strstr(out, "return code: ")))
		agent_rc = atoi(rc + strlen("return code: "));
	if (!code && agent_rc >= 1 && agent_rc <= 3) {
		/* fctrace's agent's own refusals (jvmti_agent.c) */
		static const char *const says[] = {
			"it could not connect to fctrace's socket",
			"another fctrace's session runs in it",
			"JVMTI refused its capabilities (a JVM still starting?)",
		};

		snprintf(why, wlen, "the agent was loaded but %s", says[agent_rc - 1]);
		free(out);
		return -EPERM;
	}
	if (code || agent_rc) {
		char *nl = out ? strchr(out, '\n') : NULL;

		if (nl && code)		/* the JVM's own words, on one line */
			nl[1 + strcspn(nl + 1, "\n")] = '\0';
		snprintf(why, wlen, "the JVM refused the agent (result %d, agent %d%s%.120s)", code,
			 agent_rc, nl && code && nl[1] ? ": " : "", nl && code ? nl + 1 : "");
		free(out);
		return -EPERM;
	}
	free(out);
	return 0;
}
