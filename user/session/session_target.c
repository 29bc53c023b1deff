/*
 * session_target.c - the program driver: a program fctrace did not write
 * as a session's subject. The probes attach first, then the program runs
 * (or is attached to), its sampled futex stacks are named while it lives,
 * and its threads' accounts become the rows the join reads, as a
 * workload's workers' own timings are. One file per job beside it
 * (target_int.h): target_child.c the child CMD runs in and who it runs
 * as, target_watch.c the processes taken in and the loop while the
 * program runs, target_jvm.c a JVM as the program, target_rows.c the
 * names on the rows.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include "base/clock.h"
#include "base/termsafe.h"
#include "trace/loader.h"
#include "jvm/jvm.h"
#include "join/lockname.h"
#include "session/driver.h"
#include "session/target_int.h"

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

	target_describe(&s->target, to);
	if (to->mode == TGT_EXEC && run_as_caller(to, &x->ra))
		return 2;
	target_find_jvm(s, to, &x->jvm_env, &x->w.libjvm_fd, &x->w,
			x->ra.ngroups >= 0 ? x->ra.uid : getuid(),
			x->ra.ngroups >= 0 ? x->ra.gid : getgid());
	s->subject = s->target.comm;
	if (to->mode == TGT_EXEC && to->follow)
		prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (to->mode == TGT_EXEC &&
	    (rc = child_spawn(to, &x->ra, x->jvm_env, &x->c))) {
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
	target_load_agent(w);
	tracer_start(t);
	w->start_ns = monotonic_ns();
	if (ti->mode == TGT_ATTACH) {
		target_open_pidfds(w);
		target_watch_jvm(w);
		lockname_snapshot(w->ln, ti->pid);
		if ((err = target_take_in(t, x->to)) || (err = tracer_adopt(t))) {
			fprintf(stderr, "fctrace: cannot take over the threads of %d: %s\n",
				(int)ti->pid, strerror(-err));
			return 1;
		}
	} else {
		x->released = true;
		if ((err = child_release(&x->c))) {
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
	target_watch_loop(w);
	w->end_ns = monotonic_ns();
	if (!w->hurry)	/* nobody waits: every stack sent is named */
		tracer_last_turn(t, NAMES_DONE_NS);
	tracer_stop(t);
	return 0;
}

/* What the program says of itself: nothing but its threads' names and its
 * futex words named (the rows are the kernel's accounts, join.c). */
static int tgt_read(void *ctx, struct session *s, struct tracer *t)
{
	struct target_ctx *x = ctx;

	if (!s->traced)
		return 1;
	target_read_jvm(&x->w);
	target_name_rows(&x->w, s, t);
	return 0;
}

static void tgt_finish(void *ctx, struct session *s)
{
	struct target_ctx *x = ctx;

	if (x->c.pid > 0 && !x->released)
		child_abandon(&x->c);
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
