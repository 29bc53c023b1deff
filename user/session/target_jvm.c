/*
 * target_jvm.c - a JVM as the program (target_int.h): its libjvm.so
 * found and opened, the monitor flag added (run -- java) or read
 * (attach), fctrace's JVMTI agent added or loaded, the flag and the
 * field offsets read once the JVM runs, and its view read at the end.
 * The JVM itself is jvm/'s (jvm/jvm.h); this is the driver's use of it.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/deadline.h"
#include "trace/loader.h"
#include "jvm/jvm.h"
#include "jvm/jvm_structs.h"
#include "jvm/jvm_agent_run.h"
#include "session/target_int.h"

#define ATTACH_MS	20000	/* the JVM agent's load, at most */

/*
 * run -- java: fctrace's JVMTI agent measures the contended monitors and
 * Object.wait from JVMTI events, so CMD gets the agent, not the flag:
 * HotSpot's monitor probes fire only with -XX:+DTraceMonitorProbes, which
 * puts every monitor operation on a slow path (Commons Pool 1 under run
 * --: 0.85 of its untraced speed with the agent, 0.74 with the flag as
 * well; docs/jvm.md). Only where the agent cannot be added
 * does CMD get the flag, through JAVA_TOOL_OPTIONS (the JVM says "Picked
 * up JAVA_TOOL_OPTIONS" on its stderr). attach to a JVM started without
 * it: the agent again, or one line says what is not measured.
 */
/* CMD's JAVA_TOOL_OPTIONS with the flag added, into *env (malloc'd), or
 * one line saying why the JVM runs without it. */
static void add_jvm_flag(struct session *s, char **env)
{
	const char *cur = getenv("JAVA_TOOL_OPTIONS");

	*env = jvm_tool_options();
	if (*env) {
		fprintf(stderr, "fctrace: a JVM: adding %s to JAVA_TOOL_OPTIONS for its monitor "
			"probes\n", JVM_MONITOR_FLAG);
		s->jvm_monitors = true;
	} else if (errno == E2BIG) {
		fprintf(stderr, "fctrace: a JVM: JAVA_TOOL_OPTIONS is %zu bytes, and with %s it "
			"would pass the %d bytes exec takes for one variable: left as it is, so "
			"Java monitor waits are measured only if it turns them on\n",
			cur ? strlen(cur) : 0, JVM_MONITOR_FLAG, JVM_ENV_MAX);
	} else {
		fprintf(stderr, "fctrace: a JVM: cannot add %s to JAVA_TOOL_OPTIONS: %s\n",
			JVM_MONITOR_FLAG, strerror(errno));
	}
}

/* The flag as CMD's options will set it (the JVM applies exactly these):
 * what is said if the JVM ends before its memory could be read. */
static enum jvm_flag flag_from_argv(const struct target_opts *to, const char *tool_opts)
{
	char cmd[8192];
	size_t n = 0;

	for (int i = 0; to->argv[i] && n < sizeof(cmd); i++)
		n += (size_t)snprintf(cmd + n, sizeof(cmd) - n, "%s", to->argv[i]) + 1;
	if (n > sizeof(cmd))
		return JVM_FLAG_UNKNOWN;	/* cut off: the flag may be past the cut */
	return jvm_flag_from_options(tool_opts, getenv("JDK_JAVA_OPTIONS"), cmd, n,
				     getenv("_JAVA_OPTIONS"));
}

void target_find_jvm(struct session *s, const struct target_opts *to, char **env, int *fd,
		     struct watch *w, uid_t uid, gid_t gid)
{
	struct target_info *ti = &s->target;
	char notice[256], file[4096];

	*env = NULL;
	s->jvm_flag = JVM_FLAG_UNKNOWN;
	if (to->mode == TGT_EXEC) {
		if (jvm_libjvm_for_exe(to->argv[0], ti->libjvm, sizeof(ti->libjvm)) ||
		    (*fd = jvm_open_path(ti->libjvm)) < 0) {
			ti->libjvm[0] = '\0';
			return;
		}
		jvm_fd_name(*fd, ti->libjvm, sizeof(ti->libjvm));
		w->agent = agent_for_exec(env, uid, gid);
		if (!w->agent)
			add_jvm_flag(s, env);
		s->jvm_flag = flag_from_argv(to, *env ? *env : getenv("JAVA_TOOL_OPTIONS"));
		return;
	}
	if ((*fd = jvm_open_libjvm(to->pid)) < 0) {
		ti->libjvm[0] = '\0';
		return;
	}
	jvm_fd_name(*fd, ti->libjvm, sizeof(ti->libjvm));
	s->jvm_flag = jvm_monitor_probes(to->pid, *fd);	/* it lives: read now */
	s->jvm_monitors = s->jvm_flag != JVM_FLAG_OFF;
	/* with the agent (loaded by tgt_run) monitor waits are measured */
	if (!s->jvm_monitors && jvm_agent_file(file, sizeof(file))) {
		jvm_monitor_notice(notice, sizeof(notice));
		fprintf(stderr, "fctrace: %s\n", notice);
	}
}

/* The agent's load into a running JVM ends by --duration (when given) or
 * within ATTACH_MS, whatever the JVM does; a signal ends it at once. */
static uint64_t attach_deadline(const struct target_opts *to)
{
	uint64_t cap = deadline_in_ms(ATTACH_MS);

	return to->duration_ns ? deadline_min(cap, deadline_now_ns() + to->duration_ns) : cap;
}

void target_load_agent(struct watch *w)
{
	const struct target_info *ti = &w->s->target;

	if (ti->mode == TGT_ATTACH && ti->libjvm[0])
		w->agent = agent_attach(ti->pid, w->libjvm_fd, attach_deadline(w->to));
}

/* Has the JVM parsed its options? Its "VM Thread" is made after that. */
static bool jvm_started(pid_t pid)
{
	char path[64], comm[32];
	bool found = false;
	struct dirent *d;
	DIR *dir;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if (!(dir = opendir(path)))
		return false;
	while (!found && (d = readdir(dir))) {
		snprintf(path, sizeof(path), "/proc/%d/task/%.16s/comm", (int)pid, d->d_name);
		if (d->d_name[0] == '.' || !(f = fopen(path, "re")))
			continue;
		found = fgets(comm, sizeof(comm), f) && !strcmp(comm, "VM Thread\n");
		fclose(f);
	}
	closedir(dir);
	return found;
}

/* run -- java: the monitor flag read while the JVM lives (after it
 * exits, its memory and environment are gone), once it has applied its
 * options; it cannot change after that. */
static void watch_jvm_flag(struct watch *w)
{
	struct session *s = w->s;

	if (s->target.mode != TGT_EXEC)
		w->jvm_flag_read = true;	/* attach: read before the load */
	if (w->jvm_flag_read)
		return;
	s->jvm_flag = jvm_monitor_probes(s->target.pid, w->libjvm_fd);
	w->jvm_flag_read = s->jvm_flag != JVM_FLAG_UNKNOWN;
}

/* The field offsets the Java holders code needs, read once the JVM runs
 * (its static constructors fill the table before it makes its threads):
 * until they are given, no monitor is watched. */
static void watch_jvm_structs(struct watch *w)
{
	struct fct_jvm_structs js;
	struct session *s = w->s;

	if (w->jvm_structs_read)
		return;
	w->jvm_structs_read = true;
	s->jvm_structs = jvm_structs_read(s->target.pid, w->libjvm_fd, &js);
	if (!s->jvm_structs)
		tracer_set_jvm_structs(w->t, &js);
}

/* run -- java: the agent's VMInit holds the JVM until the offsets were
 * looked for (jvm_agent_release), so that the first contended monitor is
 * watched; attach loads the agent after them, with no hold. */
static void release_agent(struct watch *w)
{
	if (!w->agent_released && w->jvm_structs_read && w->s->target.mode == TGT_EXEC)
		w->agent_released = jvm_agent_release(w->agent);
}

/* Called from the watch loop, and once at attach. */
void target_watch_jvm(struct watch *w)
{
	struct session *s = w->s;

	bool held = w->agent && s->target.mode == TGT_EXEC && !w->agent_released;

	if (!s->target.libjvm[0] || (w->jvm_flag_read && w->jvm_structs_read && !held) ||
	    !jvm_started(s->target.pid))
		return;
	watch_jvm_flag(w);
	watch_jvm_structs(w);
	release_agent(w);
}

void target_read_jvm(struct watch *w)
{
	struct session *s = w->s;

	if (!s->target.libjvm[0])
		return;
	s->jvm = calloc(1, sizeof(*s->jvm));
	if (s->jvm && tracer_read_jvm(w->t, s->jvm)) {
		free(s->jvm);
		s->jvm = NULL;
	}
	/* a -XX:-DTraceMonitorProbes of its own wins over ours: the flag as
	 * read while the JVM lived, or its monitor probes having fired */
	if (s->jvm && s->jvm->nmonitors > 0)
		s->jvm_flag = JVM_FLAG_ON;
	if (s->jvm && s->target.mode == TGT_EXEC)
		s->jvm_monitors = s->jvm_flag == JVM_FLAG_ON;
	if (w->agent && !s->jvm)
		s->jvm = calloc(1, sizeof(*s->jvm));
	/* the agent's view is joined_run.jvm_agent's: monitor_probes stays
	 * the probes' (the flag) */
	agent_read(w->agent, s->target.pid, s->jvm);
	w->agent = NULL;
}
