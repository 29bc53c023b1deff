/*
 * jvm_flag.c - DTraceMonitorProbes: add it for a JVM fctrace starts,
 * read it in one it attaches to, and say what is lost without it.
 *
 * Reading: the flag is a C++ bool in libjvm.so's .bss, named in its
 * .symtab (Debian keeps .symtab; only the debug info is split off), so
 * its value is one byte of /proc/PID/mem at the library's load bias
 * plus the symbol's address. Without the symbol, the JVM's options are
 * parsed the way the JVM applies them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "jvm/jvm.h"
#include "jvm/jvm_mem.h"

char *jvm_tool_options(void)
{
	const char *cur = getenv("JAVA_TOOL_OPTIONS");
	size_t len = (cur ? strlen(cur) + 1 : 0) + strlen(JVM_MONITOR_FLAG) + 1;
	char *buf;

	/* "JAVA_TOOL_OPTIONS=" and the value are one string to execve */
	if (len + strlen("JAVA_TOOL_OPTIONS=") > JVM_ENV_MAX) {
		errno = E2BIG;
		return NULL;
	}
	buf = malloc(len);
	if (buf)
		snprintf(buf, len, "%s%s%s", cur && *cur ? cur : "", cur && *cur ? " " : "",
			 JVM_MONITOR_FLAG);
	return buf;
}

const char *jvm_flag_name(enum jvm_flag f)
{
	return f == JVM_FLAG_ON ? "on" : f == JVM_FLAG_OFF ? "off" : "unknown";
}

int jvm_monitor_notice(char *buf, size_t len)
{
	return snprintf(buf, len, "Java monitor waits (synchronized, Object.wait) not measured: "
			"the JVM runs without %s, which only takes effect at JVM start "
			"(add it to its command line or JAVA_TOOL_OPTIONS)", JVM_MONITOR_FLAG);
}

/* --- from the options ---------------------------------------------------- */

struct flag_parse {
	enum jvm_flag mon;	/* the last setting seen */
	bool unsure;		/* an options file could hold one */
};

static void apply_option(struct flag_parse *fp, const char *o, size_t n)
{
#define IS(s) (n == strlen(s) && !strncmp(o, s, n))
#define HAS_PREFIX(s) (n >= strlen(s) && !strncmp(o, s, strlen(s)))
	/* +ExtendedDTraceProbes sets the others where it stands; its - does not */
	if (IS("-XX:+DTraceMonitorProbes") || IS("-XX:+ExtendedDTraceProbes"))
		fp->mon = JVM_FLAG_ON;
	else if (IS("-XX:-DTraceMonitorProbes"))
		fp->mon = JVM_FLAG_OFF;
	else if (HAS_PREFIX("-XX:Flags=") || HAS_PREFIX("-XX:VMOptionsFile=") || HAS_PREFIX("@"))
		fp->unsure = true;
#undef IS
#undef HAS_PREFIX
}

/* an environment variable's options: separated by white space */
static void apply_env(struct flag_parse *fp, const char *s)
{
	while (s && *s) {
		size_t n;

		s += strspn(s, " \t\n");
		n = strcspn(s, " \t\n");
		if (n)
			apply_option(fp, s, n);
		s += n;
	}
}

/* launcher options whose value is the next argument */
static bool takes_value(const char *a)
{
	static const char *const with_value[] = {
		"-cp", "-classpath", "--class-path", "-p", "--module-path",
		"--upgrade-module-path", "--add-modules", "--limit-modules",
		"--add-exports", "--add-opens", "--add-reads", "--patch-module",
		"--enable-native-access", "--source",
	};

	for (size_t i = 0; i < sizeof(with_value) / sizeof(*with_value); i++)
		if (!strcmp(a, with_value[i]))
			return true;
	return false;
}

/* argv[1..] up to the main class, -jar FILE or -m MODULE */
static void apply_cmdline(struct flag_parse *fp, const char *s, size_t len)
{
	const char *end = s + len, *a = s;

	a += strnlen(a, end - a) + 1;		/* argv[0] */
	while (a < end) {
		size_t n = strnlen(a, end - a);
		const char *next = a + n + 1;

		if (a[0] != '-' && a[0] != '@')
			return;			/* the main class: the program's own args follow */
		apply_option(fp, a, n);
		if (!strcmp(a, "-jar") || !strcmp(a, "-m") || !strcmp(a, "--module"))
			return;
		if (takes_value(a) && next < end)
			next += strnlen(next, end - next) + 1;
		a = next;
	}
}

enum jvm_flag jvm_flag_from_options(const char *tool_opts, const char *jdk_opts,
				    const char *cmdline, size_t cmdline_len,
				    const char *java_opts)
{
	struct flag_parse fp = { .mon = JVM_FLAG_OFF };

	apply_env(&fp, tool_opts);
	apply_env(&fp, jdk_opts);
	if (cmdline)
		apply_cmdline(&fp, cmdline, cmdline_len);
	apply_env(&fp, java_opts);
	if (fp.mon == JVM_FLAG_OFF && fp.unsure)
		return JVM_FLAG_UNKNOWN;
	return fp.mon;
}

/* The whole of /proc/PID/<what> (NUL-separated), NUL-terminated; *len
 * without that terminator. NULL if unreadable. */
static char *read_proc(pid_t pid, const char *what, size_t *len)
{
	char path[64], *buf = NULL;
	size_t cap = 0, n = 0;
	ssize_t r;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, what);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	do {
		if (n + 4096 + 1 > cap) {
			char *nb = realloc(buf, cap = cap * 2 + 8192);

			if (!nb) {
				free(buf);
				close(fd);
				return NULL;
			}
			buf = nb;
		}
		r = read(fd, buf + n, 4096);
		n += r > 0 ? (size_t)r : 0;
	} while (r > 0);
	close(fd);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* NAME's value in a NUL-separated environment block, or NULL */
static const char *env_in(const char *env, size_t len, const char *name)
{
	size_t nl = strlen(name);

	for (const char *e = env; e < env + len; e += strlen(e) + 1)
		if (!strncmp(e, name, nl) && e[nl] == '=')
			return e + nl + 1;
	return NULL;
}

static enum jvm_flag flag_from_proc(pid_t pid)
{
	size_t elen = 0, clen = 0;
	char *env = read_proc(pid, "environ", &elen);
	char *cmd = read_proc(pid, "cmdline", &clen);
	enum jvm_flag f = JVM_FLAG_UNKNOWN;

	if (env && cmd)
		f = jvm_flag_from_options(env_in(env, elen, "JAVA_TOOL_OPTIONS"),
					  env_in(env, elen, "JDK_JAVA_OPTIONS"), cmd, clen,
					  env_in(env, elen, "_JAVA_OPTIONS"));
	free(env);
	free(cmd);
	return f;
}

/* --- from the JVM's memory ----------------------------------------------- */

enum jvm_flag jvm_flag_in_memory(pid_t pid, int libjvm_fd, const char *name)
{
	struct jvm_mem m;
	unsigned char byte;
	uint64_t addr;
	bool ok;

	if (jvm_mem_open(&m, pid, libjvm_fd))
		return JVM_FLAG_UNKNOWN;
	ok = jvm_mem_symbol(&m, name, &addr) && jvm_mem_read(&m, addr, &byte, 1);
	jvm_mem_close(&m);
	if (!ok || byte > 1)
		return JVM_FLAG_UNKNOWN;	/* not a bool there: a wrong address */
	return byte ? JVM_FLAG_ON : JVM_FLAG_OFF;
}

enum jvm_flag jvm_monitor_probes(pid_t pid, int libjvm_fd)
{
	enum jvm_flag f = jvm_flag_in_memory(pid, libjvm_fd, "DTraceMonitorProbes");

	return f != JVM_FLAG_UNKNOWN ? f : flag_from_proc(pid);
}
