/*
 * target_int.h - the program driver's parts (session_target.c): the
 * child CMD runs in (target_child.c), the watch kept while the target
 * runs (target_watch.c), a JVM as the target (target_jvm.c) and the
 * names the rows get (target_rows.c). Not for other files: session.h's
 * session_run_target is the API.
 */
#ifndef FCTRACE_TARGET_INT_H
#define FCTRACE_TARGET_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "session/session.h"

#define NAMES_NS	500000000ull	/* naming the futex words stops after this when
					 * a signal or --duration ended the run */
#define NAMES_DONE_NS	10000000000ull	/* and when the program ended by itself */

struct lockname;
struct jvm_agent;

/* ---- run -- CMD: the child (target_child.c) ----------------------------- */

/* Who CMD runs as: under sudo (unless --as-root), the user who called
 * sudo, with that user's groups - a profiler needs root, the program it
 * runs does not. Resolved in fctrace before the fork (the name service
 * is not for a forked child); nothing to drop leaves ngroups -1. */
struct run_as {
	uid_t uid;
	gid_t gid;
	gid_t *groups;
	int ngroups;
};

struct child {
	pid_t pid;
	int go_fd, err_fd;
};

/* 0, or -1 after one line: a SUDO_* value that is not strictly an id
 * (sudo_caller.h) is refused, never read as root. */
int run_as_caller(const struct target_opts *to, struct run_as *ra);
/* CMD forked, held before its exec until child_release; 0 or -errno */
int child_spawn(const struct target_opts *to, const struct run_as *ra, const char *jvm_env,
		struct child *c);
/* Let the child exec; 0 when CMD runs, else the errno of its exec. */
int child_release(struct child *c);
/* The child exits without exec, and is reaped. */
void child_abandon(struct child *c);
/* CMD's wait status into ti: its exit status or the signal that ended it */
void child_note_status(struct target_info *ti, int status);

/* ---- the target watched (target_watch.c) -------------------------------- */

struct watch {
	struct tracer *t;
	struct lockname *ln;
	struct session *s;
	const struct target_opts *to;
	int pidfds[TARGET_MAX_PIDS];	/* TGT_ATTACH: each process listed, */
	int npidfds;			/* readable when it ends */
	uint64_t start_ns, end_ns, forwarded_ns;
	bool hurry;			/* stopped by a signal or --duration */
	bool jvm_flag_read;		/* run -- java: its monitor flag is known */
	bool jvm_structs_read;		/* its vmStructs offsets were looked for */
	bool agent_released;		/* run -- java: its VMInit let go on */
	int libjvm_fd;			/* a JVM's libjvm.so, opened once (ti->libjvm names it) */
	struct jvm_agent *agent;	/* fctrace's JVMTI agent's socket, or NULL */
};

/* Who the target is: CMD's command line, or the running process's */
void target_describe(struct target_info *ti, const struct target_opts *to);
/* attach: a pidfd for each process listed, to see it end. */
void target_open_pidfds(struct watch *w);
/* attach -p A,B / --follow: the processes into the kernel side's table */
int target_take_in(struct tracer *t, const struct target_opts *to);
/* Until the target ends, a signal stops the run or --duration passes */
void target_watch_loop(struct watch *w);

/* ---- a JVM (target_jvm.c) ----------------------------------------------- */

/* Is the target a JVM? Its libjvm.so opened into *fd; run -- java: the
 * monitor flag added to CMD's JAVA_TOOL_OPTIONS (*env) with the agent */
void target_find_jvm(struct session *s, const struct target_opts *to, char **env, int *fd,
		     struct watch *w, uid_t uid, gid_t gid);
/* attach: the agent loaded into the running JVM */
void target_load_agent(struct watch *w);
/* Called from the watch loop, and once at attach. */
void target_watch_jvm(struct watch *w);
/* After the run: the probes' and the agent's view into s->jvm */
void target_read_jvm(struct watch *w);

/* ---- the rows' names (target_rows.c) ------------------------------------ */

/* What the program says of itself: its threads' names, its futex words
 * named, the wait stacks; the window's edges */
void target_name_rows(struct watch *w, struct session *s, struct tracer *t);

#endif /* FCTRACE_TARGET_INT_H */
