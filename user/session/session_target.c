/*
 * session_target.c - the program driver: a program fctrace did not write
 * as a session's subject. The probes attach first, then the program runs
 * (or is attached to), its sampled futex stacks are named while it lives,
 * and its threads' accounts become the rows the join reads, as a
 * workload's workers' own timings are.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "base/clock.h"
#include "trace/loader.h"
#include "jvm/jvm.h"
#include "jvm/jvm_structs.h"
#include "trace/slots.h"
#include "join/lockname.h"
#include "join/waitstacks.h"
#include "session/driver.h"
#include "session/proctree.h"
#include "fctrace.h"	/* FCT_MAX_TGIDS */
#include "jvm/jvm_agent_run.h"
#include "base/deadline.h"
#include "base/signals.h"
#include "base/sudo_caller.h"
#include "base/termsafe.h"

#define POLL_MS		100	/* how often the loop looks at the target */
#define GRACE_NS	5000000000ull	/* after Ctrl-C, how long CMD may take to end */
#define NAMES_NS	500000000ull	/* naming the futex words stops after this when
					 * a signal or --duration ended the run */
#define ATTACH_MS	20000	/* the JVM agent's load, at most */
#define NAMES_DONE_NS	10000000000ull	/* and when the program ended by itself */

/* ---- run -- CMD: the child ---------------------------------------------- */

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

/* 0, or -1 after one line: a SUDO_* value that is not strictly an id
 * (sudo_caller.h) is refused, never read as root. preflight.c said so
 * already; this is the same check where the ids are used. */
static int run_as_caller(const struct target_opts *to, struct run_as *ra)
{
	struct sudo_caller c;
	char why[320], shown[160];
	int n = 0;

	ra->ngroups = -1;
	if (to->as_root || getuid() != 0)
		return 0;
	if (sudo_caller_from_env(&c, why, sizeof(why))) {
		fprintf(stderr, "fctrace: %s\n", why);
		return -1;
	}
	if (!c.set || c.uid == 0)
		return 0;
	ra->uid = c.uid;
	ra->gid = c.gid;
	ra->ngroups = 0;	/* no SUDO_USER: no supplementary groups */
	if (!c.user[0])
		return 0;
	getgrouplist(c.user, c.gid, NULL, &n);	/* -1, and n set to how many */
	if (n < 1 || !(ra->groups = calloc((size_t)n, sizeof(gid_t))) ||
	    getgrouplist(c.user, c.gid, ra->groups, &n) < 0) {
		fprintf(stderr, "fctrace: cannot list the groups of SUDO_USER %s\n",
			term_safe(shown, sizeof(shown), c.user));
		return -1;
	}
	ra->ngroups = n;
	return 0;
}

static int become(const struct run_as *ra)
{
	if (ra->ngroups < 0)
		return 0;
	if (setgroups((size_t)ra->ngroups, ra->groups) || setgid(ra->gid) || setuid(ra->uid))
		return -1;
	/* no way back: a uid that could be regained was not dropped */
	if (setuid(0) == 0) {
		errno = EPERM;
		return -1;
	}
	return 0;
}

/* The child: wait for the go byte, then become CMD. Its exec failure
 * goes back through err_fd (close-on-exec: EOF means it ran). */
static void child_main(int go_fd, int err_fd, const struct target_opts *to,
		       const struct run_as *ra, const char *jvm_env)
{
	char go;
	int err;

	if (read(go_fd, &go, 1) != 1)
		_exit(127);	/* fctrace gave up before the probes were ready */
	close(go_fd);
	signals_restore_for_exec();	/* the caller's dispositions and mask, as exec gives them */
	if ((jvm_env && setenv("JAVA_TOOL_OPTIONS", jvm_env, 1)) ||
	    (to->debuginfod_urls && setenv("DEBUGINFOD_URLS", to->debuginfod_urls, 1))) {
		err = errno;
		(void)!write(err_fd, &err, sizeof(err));
		_exit(126);
	}
	if (become(ra)) {
		err = errno;
		(void)!write(err_fd, &err, sizeof(err));
		_exit(126);
	}
	execvp(to->argv[0], to->argv);
	err = errno;
	(void)!write(err_fd, &err, sizeof(err));
	_exit(err == ENOENT ? 127 : 126);
}

struct child {
	pid_t pid;
	int go_fd, err_fd;
};

static int spawn(const struct target_opts *to, const struct run_as *ra, const char *jvm_env,
		 struct child *c)
{
	int go[2], err[2];

	if (pipe2(go, O_CLOEXEC) || pipe2(err, O_CLOEXEC))
		return -errno;
	c->pid = fork();
	if (c->pid < 0)
		return -errno;
	if (c->pid == 0) {
		close(go[1]);
		close(err[0]);
		child_main(go[0], err[1], to, ra, jvm_env);
	}
	close(go[0]);
	close(err[1]);
	c->go_fd = go[1];
	c->err_fd = err[0];
	return 0;
}

/* Let the child exec; 0 when CMD runs, else the errno of its exec. */
static int release(struct child *c)
{
	int err = 0;

	(void)!write(c->go_fd, "g", 1);
	close(c->go_fd);
	if (read(c->err_fd, &err, sizeof(err)) != (ssize_t)sizeof(err))
		err = 0;
	close(c->err_fd);
	return err;
}

static void abandon(struct child *c)
{
	close(c->go_fd);	/* EOF: the child exits without exec */
	close(c->err_fd);
	waitpid(c->pid, NULL, 0);
}

static void note_status(struct target_info *ti, int status)
{
	ti->exited = true;
	if (WIFSIGNALED(status))
		ti->term_signal = WTERMSIG(status);
	else
		ti->exit_status = WEXITSTATUS(status);
}

/* ---- the loop while the target runs ------------------------------------- */

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
	int libjvm_fd;			/* a JVM's libjvm.so, opened once (ti->libjvm names it) */
	struct jvm_agent *agent;	/* fctrace's JVMTI agent's socket, or NULL */
};

static void watch_jvm(struct watch *w);

/* Has the target ended? Reaps CMD (and with --follow every process it
 * left behind: fctrace is their subreaper). */
static bool target_done(struct watch *w)
{
	struct target_info *ti = &w->s->target;
	int status;
	pid_t r;

	if (ti->mode == TGT_ATTACH) {
		/* not our child: its status is its parent's to read; the run
		 * ends when every process listed has */
		ti->exited = w->npidfds > 0;
		for (int i = 0; i < w->npidfds; i++) {
			struct pollfd p = { .fd = w->pidfds[i], .events = POLLIN };
			bool ended = w->pidfds[i] >= 0 && poll(&p, 1, 0) > 0;

			if (ti->npids > i)	/* the header says which ended */
				ti->ended[i] = ended;
			ti->exited &= ended;
		}
		return ti->exited;
	}
	while ((r = waitpid(w->to->follow ? -1 : ti->pid, &status, WNOHANG)) > 0)
		if (r == ti->pid)
			note_status(ti, status);
	if (!ti->exited)
		return false;
	return !w->to->follow || (r < 0 && errno == ECHILD);
}

/* Ctrl-C: CMD got it from the terminal too; a kill(1) of fctrace is
 * passed on to CMD once (attach leaves its target alone). The run ends
 * when CMD does, or after GRACE_NS. */
static bool interrupted(struct watch *w, uint64_t now)
{
	if (!signals_caught())
		return false;
	if (w->s->target.mode == TGT_ATTACH)
		return true;
	if (!w->forwarded_ns) {
		if (!signals_from_terminal())
			kill(w->s->target.pid, signals_caught());
		w->forwarded_ns = now;
	}
	return now - w->forwarded_ns > GRACE_NS;
}

static void watch_loop(struct watch *w)
{
	uint64_t now;

	for (;;) {
		/* a turn takes about POLL_MS whatever arrives: the clock and
		 * the signals are looked at every turn */
		lockname_deadline(w->ln, monotonic_ns() + POLL_MS * 1000000ull);
		tracer_poll(w->t, POLL_MS);
		if (target_done(w))
			break;
		now = monotonic_ns();
		if (interrupted(w, now) ||
		    (w->to->duration_ns && now - w->start_ns >= w->to->duration_ns)) {
			w->hurry = true;	/* the user waits: the naming is bounded */
			break;
		}
		watch_jvm(w);
		lockname_snapshot(w->ln, w->s->target.pid);
	}
}

/* ---- the kernel view's threads named ----------------------------------- */

/* The name of a thread whose account was closed while it lived. */
static void fill_comm(struct fct_thread *th)
{
	char path[64];
	FILE *f;

	if (th->comm[0])
		return;
	snprintf(path, sizeof(path), "/proc/%u/task/%u/comm", th->tgid, th->tid);
	f = fopen(path, "re");
	if (!f)
		return;
	if (fgets(th->comm, sizeof(th->comm), f))
		th->comm[strcspn(th->comm, "\n")] = '\0';
	fclose(f);
}

static void describe(struct target_info *ti, const struct target_opts *to)
{
	char path[64];
	size_t n = 0;
	FILE *f;

	ti->mode = to->mode;
	if (to->mode == TGT_EXEC) {
		for (int i = 0; to->argv[i] && n < sizeof(ti->cmdline); i++)
			n += (size_t)snprintf(ti->cmdline + n, sizeof(ti->cmdline) - n, "%s%s",
					      i ? " " : "", to->argv[i]);
		snprintf(ti->comm, sizeof(ti->comm), "%s", strrchr(to->argv[0], '/') ?
			 strrchr(to->argv[0], '/') + 1 : to->argv[0]);
		return;
	}
	ti->pid = to->pid;
	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)to->pid);
	if ((f = fopen(path, "re"))) {
		n = fread(ti->cmdline, 1, sizeof(ti->cmdline) - 1, f);
		fclose(f);
		for (size_t i = 0; i + 1 < n; i++)
			if (!ti->cmdline[i])
				ti->cmdline[i] = ' ';
	}
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)to->pid);
	if ((f = fopen(path, "re"))) {
		if (fgets(ti->comm, sizeof(ti->comm), f))
			ti->comm[strcspn(ti->comm, "\n")] = '\0';
		fclose(f);
	}
}

/* ---- a JVM ---------------------------------------------------------------- */

/*
 * run -- java: HotSpot's monitor probes fire only with the flag, which
 * only takes effect at JVM start: CMD gets it through JAVA_TOOL_OPTIONS
 * (the JVM says "Picked up JAVA_TOOL_OPTIONS" on its stderr). attach to
 * a JVM started without it: one line says what is not measured.
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

static void find_jvm(struct session *s, const struct target_opts *to, char **env, int *fd,
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
		add_jvm_flag(s, env);
		s->jvm_flag = flag_from_argv(to, *env ? *env : getenv("JAVA_TOOL_OPTIONS"));
		w->agent = agent_for_exec(env, uid, gid);
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

static void read_jvm(struct watch *w)
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

/* Called from the watch loop, and once at attach. */
static void watch_jvm(struct watch *w)
{
	struct session *s = w->s;

	if (!s->target.libjvm[0] || (w->jvm_flag_read && w->jvm_structs_read) ||
	    !jvm_started(s->target.pid))
		return;
	watch_jvm_flag(w);
	watch_jvm_structs(w);
}

/* ---- the driver ---------------------------------------------------------- */

struct target_ctx {
	const struct target_opts *to;
	struct watch w;
	struct child c;
	bool released;			/* CMD was let go: it is no longer ours to abandon */
	struct run_as ra;		/* who CMD runs as */
	char *jvm_env;			/* CMD's JAVA_TOOL_OPTIONS, or NULL */
};

static int tgt_prepare(void *ctx, struct session *s, struct tracer_opts *topts)
{
	struct target_ctx *x = ctx;
	const struct target_opts *to = x->to;
	char shown[300];
	int rc;

	describe(&s->target, to);
	if (to->mode == TGT_EXEC && run_as_caller(to, &x->ra))
		return 2;
	find_jvm(s, to, &x->jvm_env, &x->w.libjvm_fd, &x->w,
		 x->ra.ngroups >= 0 ? x->ra.uid : getuid(), x->ra.ngroups >= 0 ? x->ra.gid : getgid());
	s->subject = s->target.comm;
	if (to->mode == TGT_EXEC && to->follow)
		prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (to->mode == TGT_EXEC &&
	    (rc = spawn(to, &x->ra, x->jvm_env, &x->c))) {
		fprintf(stderr, "fctrace: cannot start %s: %s\n",
			term_safe(shown, sizeof(shown), to->argv[0]), strerror(-rc));
		x->c.pid = -1;
		return 1;
	}
	s->target.pid = to->mode == TGT_EXEC ? x->c.pid : to->pid;
	jvm_agent_set_pid(x->w.agent, s->target.pid);
	/* attach: whose the process is, now; run: CMD's, once it has exec'd */
	s->target.uid = getuid();
	s->target.gid = getgid();
	if (to->mode == TGT_ATTACH)
		target_creds(to->pid, &s->target.uid, &s->target.gid);
	x->w.ln = lockname_new();
	if (!x->w.ln)
		return 1;
	*topts = (struct tracer_opts){
		.tgid = s->target.pid, .follow = to->follow,
		.tgid_list = to->mode == TGT_ATTACH && (to->npids > 1 || to->follow),
		.target = to->mode == TGT_EXEC ? TT_EXEC : TT_ATTACH,
		.on_ustack = lockname_on_ustack, .ustack_arg = x->w.ln,
		.libjvm = s->target.libjvm[0] ? s->target.libjvm : NULL,
	};
	return 0;
}

/* attach: a pidfd for each process listed, to see it end. */
static void open_pidfds(struct watch *w)
{
	const struct target_opts *to = w->to;
	int n = to->npids > 1 ? to->npids : 1;

	for (int i = 0; i < n; i++)
		w->pidfds[i] = (int)syscall(SYS_pidfd_open, n > 1 ? to->pids[i] : to->pid, 0);
	w->npidfds = n;
	if (n > 1) {
		memcpy(w->s->target.pids, to->pids, (size_t)n * sizeof(*to->pids));
		w->s->target.npids = n;
	}
}

static int add_process(void *arg, pid_t pid)
{
	return tracer_add_process(arg, pid);
}

/* Up to 8 of the descendants' pids, then how many more. */
static void say_descendants(const struct proctree *pt, char *buf, size_t len)
{
	size_t n = 0;
	int shown = 0;

	buf[0] = '\0';
	for (int i = pt->nroots; i < pt->n && shown < 8 && n < len; i++, shown++)
		n += (size_t)snprintf(buf + n, len - n, "%s%d", shown ? " " : "", (int)pt->pids[i]);
	if (pt->n - pt->nroots > shown && n < len)
		snprintf(buf + n, len - n, " and %d more", pt->n - pt->nroots - shown);
}

/* attach -p A,B / --follow: every process listed, and with --follow
 * every descendant already running, into the kernel side's process
 * table before the threads are adopted; one line says what was found. */
static int take_in(struct tracer *t, const struct target_opts *to)
{
	struct proctree pt;
	char list[160];
	int n = to->npids > 1 ? to->npids : 1, rc;

	if (n == 1 && !to->follow)
		return 0;
	rc = proctree_take(&pt, n > 1 ? to->pids : &to->pid, n, to->follow, add_process, t);
	if (!rc && to->follow) {
		say_descendants(&pt, list, sizeof(list));
		fprintf(stderr, "fctrace: --follow: %d process%s listed and %d descendant%s "
			"already running%s%s%s; new ones are followed as they are forked\n",
			pt.nroots, pt.nroots == 1 ? "" : "es", pt.n - pt.nroots,
			pt.n - pt.nroots == 1 ? "" : "s", list[0] ? " (" : "", list,
			list[0] ? ")" : "");
	}
	if (!rc && pt.full)
		fprintf(stderr, "fctrace: the process table is full (%d processes): %d more not "
			"traced\n", FCT_MAX_TGIDS, pt.full);
	proctree_free(&pt);
	return rc;
}

/* The agent's load into a running JVM ends by --duration (when given) or
 * within ATTACH_MS, whatever the JVM does; a signal ends it at once. */
static uint64_t attach_deadline(const struct target_opts *to)
{
	uint64_t cap = deadline_in_ms(ATTACH_MS);

	return to->duration_ns ? deadline_min(cap, deadline_now_ns() + to->duration_ns) : cap;
}

/* Start the target inside the open window: exec CMD, or adopt the
 * running process's threads; then watch it until it ends or is stopped. */
static int tgt_run(void *ctx, struct session *s, struct tracer *t)
{
	struct target_ctx *x = ctx;
	struct watch *w = &x->w;
	struct target_info *ti = &s->target;
	char shown[300];
	int err;

	w->t = t;
	if (ti->mode == TGT_ATTACH && ti->libjvm[0])
		w->agent = agent_attach(ti->pid, w->libjvm_fd, attach_deadline(x->to));
	tracer_start(t);
	w->start_ns = monotonic_ns();
	if (ti->mode == TGT_ATTACH) {
		open_pidfds(w);
		watch_jvm(w);
		lockname_snapshot(w->ln, ti->pid);
		if ((err = take_in(t, x->to)) || (err = tracer_adopt(t))) {
			fprintf(stderr, "fctrace: cannot take over the threads of %d: %s\n",
				(int)ti->pid, strerror(-err));
			return 1;
		}
	} else {
		x->released = true;
		if ((err = release(&x->c))) {
			waitpid(x->c.pid, NULL, 0);
			fprintf(stderr, "fctrace: cannot run %s: %s\n",
				term_safe(shown, sizeof(shown), x->to->argv[0]), strerror(err));
			return err == ENOENT ? 127 : 126;
		}
		/* CMD is not reaped before the loop: its status is there to read */
		target_creds(ti->pid, &ti->uid, &ti->gid);
	}
	if (x->to->on_window)
		x->to->on_window(x->to->window_arg);
	watch_loop(w);
	w->end_ns = monotonic_ns();
	if (!w->hurry)	/* nobody waits: every stack sent is named */
		tracer_last_turn(t, NAMES_DONE_NS);
	tracer_stop(t);
	return 0;
}

/*
 * attach: a process that has threads but not one account. Accounts begin
 * at an exec, a new thread or the adoption at the attach, which walks
 * the kernel's tasks (iter/task); Linux 6.18's walk never returns pid 1
 * (tested: its 40 threads were missing, pid 2 was there), so "0 threads"
 * would stand without a word.
 */
static void say_none_adopted(const struct session *s)
{
	const struct target_info *ti = &s->target;
	unsigned live;

	if (ti->mode != TGT_ATTACH || ti->exited)
		return;
	for (int i = 0; i < s->kv.nthreads; i++)
		if (s->kv.threads[i].tgid == (uint32_t)ti->pid)
			return;
	if (!(live = slots_threads_of(ti->pid)))
		return;
	fprintf(stderr, "fctrace: -p %d: none of its %u thread%s was traced: the kernel's walk "
		"of its tasks at the attach (iter/task) returned none of them%s, and none began "
		"in the window\n", (int)ti->pid, live, live == 1 ? "" : "s",
		ti->pid == 1 ? " (this kernel's walk skips pid 1)" : "");
}

/* What the program says of itself: nothing but its threads' names and its
 * futex words named (the rows are the kernel's accounts, join.c). */
static int tgt_read(void *ctx, struct session *s, struct tracer *t)
{
	struct target_ctx *x = ctx;
	int n;

	if (!s->traced)
		return 1;
	read_jvm(&x->w);
	for (int i = 0; i < s->kv.nthreads; i++)
		fill_comm(&s->kv.threads[i]);
	say_none_adopted(s);
	lockname_stats(x->w.ln, &s->target.stacks_received, &s->target.stacks_unwound);
	s->target.stacks_dropped = tracer_ustacks_dropped(t);
	lockname_deadline(x->w.ln, monotonic_ns() + (x->w.hurry ? NAMES_NS : NAMES_DONE_NS));
	n = lockname_build(x->w.ln, &s->kv, &s->names);
	s->target.words_unnamed = lockname_unnamed(x->w.ln);
	lockname_unsymbolised(x->w.ln, s->target.unsymbolised, sizeof(s->target.unsymbolised));
	s->nnames = n > 0 ? n : 0;
	if (waitstacks_build(lockname_waitstacks(x->w.ln), &s->kv, s->names, s->nnames,
			     &s->stacks))
		fprintf(stderr, "fctrace: out of memory for the wait stacks\n");
	s->target.window_start_ns = x->w.start_ns;
	s->target.window_end_ns = x->w.end_ns;
	return 0;
}

static void tgt_finish(void *ctx, struct session *s)
{
	struct target_ctx *x = ctx;

	if (x->c.pid > 0 && !x->released)
		abandon(&x->c);
	lockname_free(x->w.ln);
	jvm_agent_close(x->w.agent);
	free(x->ra.groups);
	free(x->jvm_env);
	if (x->w.libjvm_fd >= 0)
		close(x->w.libjvm_fd);
	for (int i = 0; i < x->w.npidfds; i++)
		if (x->w.pidfds[i] >= 0)
			close(x->w.pidfds[i]);
}

static const struct session_driver target_driver = {
	.what = "program", .prepare = tgt_prepare, .run = tgt_run,
	.read = tgt_read, .finish = tgt_finish,
};

int session_run_target(const struct trace_opts *o, const struct target_opts *to,
		       struct session *s)
{
	struct target_ctx x = { .to = to, .w = { .s = s, .to = to, .libjvm_fd = -1 },
				.c = { .pid = -1 }, .ra = { .ngroups = -1 } };

	return session_drive(&target_driver, &x, o, s);
}
