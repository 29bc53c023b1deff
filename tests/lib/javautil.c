/*
 * javautil.c - the JVM tests' Java programs (javautil.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "javautil.h"

#define JAVA_SRC	"tests/java"
#define JAVA_OUT	".output/java"

static const char *const sources[] = {
	"Harness.java", "PoolBench.java", "ParkBench.java", "ParkLoop.java", "GcBench.java",
	"SiteBench.java", "AgentBench.java", "HoldBench.java", "MonitorPaths.java",
	"ChainBench.java", "JPoolBench.java",
};

const char *java_classpath(void)
{
	return JAVA_OUT;
}

static bool on_path(const char *exe)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", exe);
	return system(cmd) == 0;
}

/* Is every class file newer than its source? */
static bool up_to_date(void)
{
	for (size_t i = 0; i < sizeof(sources) / sizeof(*sources); i++) {
		char src[128], cls[128];
		struct stat s, c;

		snprintf(src, sizeof(src), "%s/%s", JAVA_SRC, sources[i]);
		snprintf(cls, sizeof(cls), "%s/%.*s.class", JAVA_OUT,
			 (int)(strlen(sources[i]) - 5), sources[i]);
		if (stat(src, &s) || stat(cls, &c) || c.st_mtime < s.st_mtime)
			return false;
	}
	return true;
}

const char *java_unavailable(void)
{
	static int state;	/* 0 not tried, 1 ok, 2 failed */
	static char why[160];
	char cmd[512];
	int n;

	if (state)
		return state == 1 ? NULL : why;
	state = 2;
	if (!on_path("java") || !on_path("javac")) {
		snprintf(why, sizeof(why), "no JDK: java and javac not in PATH "
			 "(apt-get install openjdk-17-jdk-headless)");
		return why;
	}
	if (!up_to_date()) {
		n = snprintf(cmd, sizeof(cmd), "mkdir -p %s && javac -d %s", JAVA_OUT, JAVA_OUT);
		for (size_t i = 0; i < sizeof(sources) / sizeof(*sources); i++)
			n += snprintf(cmd + n, sizeof(cmd) - n, " %s/%s", JAVA_SRC, sources[i]);
		if (system(cmd) != 0) {
			snprintf(why, sizeof(why), "javac failed on %s/*.java", JAVA_SRC);
			return why;
		}
	}
	state = 1;
	return NULL;
}

static void child_exec(const char *tool_opts, const char *const *argv, const int *hold)
{
	char b;
	int null = open("/dev/null", O_WRONLY);

	dup2(null, STDERR_FILENO);
	if (hold[1] >= 0)
		close(hold[1]);		/* the parent's end: EOF if it dies */
	if (hold[0] >= 0 && read(hold[0], &b, 1) != 1)
		_exit(95);
	if (tool_opts)
		setenv("JAVA_TOOL_OPTIONS", tool_opts, 1);
	else
		unsetenv("JAVA_TOOL_OPTIONS");
	execvp(argv[0], (char *const *)argv);
	_exit(98);
}

int java_spawn(struct java_proc *p, const char *tool_opts, const char *const *jvm_opts,
	       const char *main, const char *const *args, bool hold)
{
	const char *argv[32];
	int in[2], out[2], hp[2] = { -1, -1 }, n = 0;

	argv[n++] = "java";
	for (int i = 0; jvm_opts && jvm_opts[i] && n < 24; i++)
		argv[n++] = jvm_opts[i];
	argv[n++] = "-cp";
	argv[n++] = JAVA_OUT;
	argv[n++] = main;
	for (int i = 0; args && args[i] && n < 31; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || (hold && pipe2(hp, O_CLOEXEC)))
		return -errno;
	p->pid = fork();
	if (p->pid < 0)
		return -errno;
	if (p->pid == 0) {
		dup2(in[0], STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		child_exec(tool_opts, argv, hp);
	}
	close(in[0]);
	close(out[1]);
	if (hold)
		close(hp[0]);
	p->go_fd = in[1];
	p->hold_fd = hp[1];
	p->out = fdopen(out[0], "r");
	return p->out ? 0 : -errno;
}

void java_release(struct java_proc *p)
{
	if (p->hold_fd >= 0) {
		if (write(p->hold_fd, "x", 1) != 1)
			perror("java_release");
		close(p->hold_fd);
		p->hold_fd = -1;
	}
}

int java_await_ready(struct java_proc *p)
{
	char line[128];
	int pid;

	if (!fgets(line, sizeof(line), p->out) || sscanf(line, "ready %d", &pid) != 1)
		return -1;
	return pid == p->pid ? 0 : -1;
}

void java_go(struct java_proc *p)
{
	if (write(p->go_fd, "go\n", 3) != 3)
		perror("java_go");
}

int java_finish(struct java_proc *p, char *out, size_t len)
{
	size_t n = fread(out, 1, len - 1, p->out);
	int st;

	out[n] = '\0';
	fclose(p->out);
	close(p->go_fd);
	p->out = NULL;
	if (waitpid(p->pid, &st, 0) < 0)
		return -1;
	p->pid = 0;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

void java_kill(struct java_proc *p)
{
	if (p->pid > 0) {
		kill(p->pid, SIGKILL);
		waitpid(p->pid, NULL, 0);
		p->pid = 0;
	}
	if (p->out) {
		fclose(p->out);
		close(p->go_fd);
		p->out = NULL;
	}
	if (p->hold_fd >= 0)
		close(p->hold_fd);
	p->hold_fd = -1;
}

long long java_stat(const char *out, const char *kind, const char *name, const char *key)
{
	char head[128], k[64];
	const char *line = out;

	snprintf(head, sizeof(head), "%s %s ", kind, name);
	snprintf(k, sizeof(k), " %s=", key);
	for (; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		const char *end = strchr(line, '\n'), *v;

		if (strncmp(line, head, strlen(head)))
			continue;
		v = strstr(line, k);
		if (v && (!end || v < end))
			return atoll(v + strlen(k));
	}
	return -1;
}
