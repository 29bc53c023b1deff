/*
 * javautil.h - the JVM tests' Java programs (tests/java/): compiled with
 * javac into .output/java at test time, started with a chosen
 * JAVA_TOOL_OPTIONS, held before exec if asked (so that probes can be
 * attached to the JVM before it exists, as `fctrace run -- java` does),
 * and driven through the programs' "ready PID" / go protocol.
 */
#ifndef FCTRACE_TEST_JAVAUTIL_H
#define FCTRACE_TEST_JAVAUTIL_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include "bpfutil.h"

/* Why the Java programs cannot run here (no JDK, javac failed), or NULL.
 * Compiles them the first time. */
const char *java_unavailable(void);
/* the classpath they were compiled into */
const char *java_classpath(void);

struct java_proc {
	pid_t pid;
	int go_fd;		/* the program's stdin */
	int hold_fd;		/* >= 0: the child waits for a byte here before exec */
	FILE *out;		/* the program's stdout */
};

/* Start `java [jvm_opts...] -cp CP MAIN [args...]` (each list
 * NULL-terminated, either may be NULL) with JAVA_TOOL_OPTIONS set to
 * tool_opts (unset if NULL). hold: fork, but exec only at java_release.
 * The program's stderr goes to /dev/null. 0 or -errno. */
int java_spawn(struct java_proc *p, const char *tool_opts, const char *const *jvm_opts,
	       const char *main, const char *const *args, bool hold);
/* let a held child exec java */
void java_release(struct java_proc *p);
/* read the program's "ready PID" line: 0 when it came and PID is p->pid */
int java_await_ready(struct java_proc *p);
/* send the go line */
void java_go(struct java_proc *p);
/* Read the rest of its stdout into out (NUL-ended), wait for it; its
 * exit status, or -1. */
int java_finish(struct java_proc *p, char *out, size_t len);
/* kill it (if running) and reap it */
void java_kill(struct java_proc *p);

/* In the programs' "thread NAME key=N ..." lines, the value of key for
 * thread name; -1 if absent. Also "gc NAME key=N". */
long long java_stat(const char *out, const char *kind, const char *name, const char *key);

/* A JVM test's start: BPF as BPF_TEST_REQUIRE wants it, and a JDK,
 * which CI must have (a failure there, a skip elsewhere). */
#define JAVA_REQUIRE()								\
	do {									\
		const char *jwhy_;						\
		BPF_TEST_REQUIRE();						\
		if ((jwhy_ = java_unavailable())) {				\
			if (bpf_test_required())				\
				fail_msg("JDK required but unavailable: %s", jwhy_); \
			print_message("skip: %s\n", jwhy_);			\
			skip();							\
		}								\
	} while (0)

#endif
