/*
 * jvm_agent_run.c - fctrace's JVMTI agent in a run on a JVM: where it
 * comes from, how it gets in, and what is read back (jvm_agent_run.h).
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/deadline.h"
#include "base/termsafe.h"
#include "base/as_target.h"
#include "jvm/jvm.h"
#include "jvm/jvm_agent_run.h"

/* Reading back at the end: the agent's dump and a thread dump share this
 * (the user waits; a JVM that stalls or floods gets no more) */
#define DETACH_MS	1500
/* a thread dump kept up to this (10 000 threads' stacks are ~10 MiB) */
#define THREADDUMP_MAX	(16u << 20)

static bool agent_file(char *file, size_t len)
{
	int err = jvm_agent_file(file, len);

	if (err)
		fprintf(stderr, "fctrace: a JVM: %s is not beside fctrace (%s): Java call sites "
			"not named\n", JVM_AGENT_NAME, strerror(-err));
	return !err;
}

struct jvm_agent *agent_for_exec(char **env, uid_t uid, gid_t gid)
{
	char file[PATH_MAX], why[256], *opt, *n;
	struct target_cred cred;
	const char *cur = *env ? *env : getenv("JAVA_TOOL_OPTIONS");
	struct jvm_agent *a;
	size_t len;

	if (!agent_file(file, sizeof(file)))
		return NULL;
	target_cred_plain(&cred, uid, gid);
	if (!(a = jvm_agent_listen(0, false, &cred, why, sizeof(why)))) {
		fprintf(stderr, "fctrace: a JVM: %s: Java call sites not named\n", why);
		return NULL;
	}
	opt = jvm_agent_option(a, file);
	len = (cur ? strlen(cur) + 1 : 0) + (opt ? strlen(opt) : 0) + 1;
	if (!opt || len + strlen("JAVA_TOOL_OPTIONS=") > JVM_ENV_MAX || !(n = malloc(len))) {
		fprintf(stderr, "fctrace: a JVM: JAVA_TOOL_OPTIONS has no room for the agent: "
			"Java call sites not named\n");
		free(opt);
		jvm_agent_close(a);
		return NULL;
	}
	snprintf(n, len, "%s%s%s", cur && *cur ? cur : "", cur && *cur ? " " : "", opt);
	free(*env);
	free(opt);
	*env = n;
	return a;
}

/* The JVM never answered the load: the agent's copy stays (its
 * directory is root's; the next attach to that /tmp removes it). */
static void say_copy_left(struct jvm_agent *a, pid_t pid)
{
	const char *left = jvm_agent_copy_left(a);

	if (left)
		fprintf(stderr, "fctrace: JVM %d still holds the load request: the agent's copy "
			"stays in its /tmp/%s (root's; removed by the next attach there)\n",
			(int)pid, left);
}

struct jvm_agent *agent_attach(pid_t pid, int libjvm_fd, uint64_t until)
{
	char file[PATH_MAX], why[320], shown[400];
	struct target_cred cred;
	struct jvm_agent *a;

	if (!agent_file(file, sizeof(file)))
		return NULL;
	/* a SIGQUIT would only print a thread dump on the JVM's stdout */
	if (jvm_flag_in_memory(pid, libjvm_fd, "DisableAttachMechanism") == JVM_FLAG_ON) {
		fprintf(stderr, "fctrace: cannot load fctrace's agent into JVM %d: it runs with "
			"-XX:+DisableAttachMechanism; Java monitor waits and call sites not "
			"measured\n", (int)pid);
		return NULL;
	}
	if (target_cred_of(pid, &cred)) {
		fprintf(stderr, "fctrace: JVM %d is gone: Java monitor waits and call sites not "
			"measured\n", (int)pid);
		return NULL;
	}
	if (!(a = jvm_agent_listen(pid, true, &cred, why, sizeof(why))) ||
	    jvm_agent_load(a, file, until, why, sizeof(why))) {
		fprintf(stderr, "fctrace: cannot load fctrace's agent into JVM %d: %s; Java "
			"monitor waits and call sites not measured\n", (int)pid,
			term_safe(shown, sizeof(shown), why));
		say_copy_left(a, pid);
		jvm_agent_close(a);
		return NULL;
	}
	fprintf(stderr, "fctrace: a JVM: fctrace's agent loaded into %d (contended monitors "
		"and parks by call site; it turns itself off when fctrace ends)\n", (int)pid);
	return a;
}

/* Thread names from a thread dump, while the JVM runs and time is left */
static void names_from_dump(pid_t pid, uint64_t until, struct jvm_view *v)
{
	const char *const none[3] = { NULL, NULL, NULL };
	struct target_cred cred;
	struct jvm_answer ans;
	char why[160];

	if (kill(pid, 0) || target_cred_of(pid, &cred) ||
	    jvm_attach_command(pid, &cred, "threaddump", none, THREADDUMP_MAX, until, &ans, why,
			       sizeof(why)) != 0) {
		return;
	}
	if (ans.truncated)
		fprintf(stderr, "fctrace: JVM %d's thread dump was cut at %u MiB: threads past it "
			"keep their kernel names\n", (int)pid, THREADDUMP_MAX >> 20);
	jvm_names_from_dump(ans.text, pid, v);
	jvm_answer_free(&ans);
}

void agent_read(struct jvm_agent *a, pid_t pid, struct jvm_view *v)
{
	uint64_t until = deadline_in_ms(DETACH_MS);
	struct jvm_tidpair *tids;
	char *text;
	int ntids;

	if (!a)
		return;
	if (!jvm_agent_connected(a))
		fprintf(stderr, "fctrace: a JVM: fctrace's agent never reported (the JVM did not "
			"start it, or ended first): Java call sites not named\n");
	text = jvm_agent_dump(a, until);
	if (jvm_agent_dropped(a))
		fprintf(stderr, "fctrace: JVM %d's agent sent more than fctrace keeps: %llu bytes "
			"dropped, its last whole report used\n", (int)pid,
			(unsigned long long)jvm_agent_dropped(a));
	ntids = jvm_agent_tids(a, &tids);
	if (v && text)
		jvm_sites_parse(text, pid, tids, ntids, v);
	free(tids);
	/* threads that began before the agent: named by a thread dump */
	if (v)
		names_from_dump(pid, until, v);
	free(text);
	say_copy_left(a, pid);
	jvm_agent_close(a);
}
