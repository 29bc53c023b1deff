/*
 * session_agent.c - fctrace's JVMTI agent in a run on a JVM: where it
 * comes from, how it gets in, and what is read back (session_agent.h).
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trace/jvm.h"
#include "session/session_agent.h"

#define DUMP_WAIT_MS	3000

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
	const char *cur = *env ? *env : getenv("JAVA_TOOL_OPTIONS");
	struct jvm_agent *a;
	size_t len;

	if (!agent_file(file, sizeof(file)))
		return NULL;
	if (!(a = jvm_agent_listen(0, false, uid, gid, why, sizeof(why)))) {
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

struct jvm_agent *agent_attach(pid_t pid, int libjvm_fd, uid_t uid, gid_t gid)
{
	char file[PATH_MAX], why[320];
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
	if (!(a = jvm_agent_listen(pid, true, uid, gid, why, sizeof(why))) ||
	    jvm_agent_load(a, file, why, sizeof(why))) {
		fprintf(stderr, "fctrace: cannot load fctrace's agent into JVM %d: %s; Java "
			"monitor waits and call sites not measured\n", (int)pid, why);
		jvm_agent_close(a);
		return NULL;
	}
	fprintf(stderr, "fctrace: a JVM: fctrace's agent loaded into %d (contended monitors "
		"and parks by call site; it turns itself off when fctrace ends)\n", (int)pid);
	return a;
}

void agent_read(struct jvm_agent *a, pid_t pid, struct jvm_view *v)
{
	const char *const none[3] = { NULL, NULL, NULL };
	char *text, *dump = NULL, why[160];
	struct jvm_tidpair *tids;
	int ntids;

	if (!a)
		return;
	if (!jvm_agent_connected(a))
		fprintf(stderr, "fctrace: a JVM: fctrace's agent never reported (the JVM did not "
			"start it, or ended first): Java call sites not named\n");
	text = jvm_agent_dump(a, DUMP_WAIT_MS);
	ntids = jvm_agent_tids(a, &tids);
	if (v && text)
		jvm_sites_parse(text, pid, tids, ntids, v);
	free(tids);
	/* threads that began before the agent: named by a thread dump */
	if (v && !kill(pid, 0) && jvm_attach_command(pid, "threaddump", none, &dump, why,
						    sizeof(why)) == 0)
		jvm_names_from_dump(dump, pid, v);
	free(dump);
	free(text);
	jvm_agent_close(a);
}
