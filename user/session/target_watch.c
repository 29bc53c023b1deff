/*
 * target_watch.c - the program watched (target_int.h): who it is, the
 * processes taken in for attach -p A,B and --follow, and the loop while
 * it runs, which ends when it does, at a signal or at --duration.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "base/clock.h"
#include "base/signals.h"
#include "trace/loader.h"
#include "join/lockname.h"
#include "session/proctree.h"
#include "session/target_int.h"
#include "fctrace.h"	/* FCT_MAX_TGIDS */

#define POLL_MS		100	/* how often the loop looks at the target */
#define REFRESH_EAGER_NS	1000000000ull	/* its maps read each turn this long */
#define GRACE_NS	5000000000ull	/* after Ctrl-C, how long CMD may take to end */

void target_describe(struct target_info *ti, const struct target_opts *to)
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

/* attach: a pidfd for each process listed, to see it end. */
void target_open_pidfds(struct watch *w)
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
int target_take_in(struct tracer *t, const struct target_opts *to)
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
			child_note_status(ti, status);
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

void target_watch_loop(struct watch *w)
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
		target_watch_jvm(w);
		/* a program starting up maps most of its libraries in its
		 * first second: each turn then, at most once a second after */
		if (now - w->start_ns < REFRESH_EAGER_NS)
			lockname_snapshot(w->ln, w->s->target.pid);
		else
			lockname_refresh(w->ln, w->s->target.pid);
	}
}
