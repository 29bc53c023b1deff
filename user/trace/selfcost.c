/*
 * selfcost.c - fctrace's cost to the traced program, sampled a second
 * at a time, and its budget (selfcost.h).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "base/clock.h"
#include "fctrace.h"
#include "trace/selfcost.h"

#define TICK_NS		1000000000ull
/* a second in which the traced processes ran less than this is no
 * ground for stopping anything: what little it cost is not a share */
#define MIN_TARGET_NS	50000000ull
#define PIDS_MAX	256
/* a trial that took less off than both of these (of the traced CPU
 * time) found a stream that costs next to nothing: it goes on again */
#define FILES_WORTH_POINTS	0.005
#define FILES_WORTH_SHARE	0.1

struct selfcost {
	struct selfcost_hooks h;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool stop;
	uint64_t start_ns;
	struct selfcost_figures f;
	/* the sampled second in progress: statistics on since at_ns (and
	 * boot_ticks, CLOCK_BOOTTIME in clock ticks), the traced processes'
	 * CPU time then, each its own */
	int stats_fd;
	uint64_t at_ns, bpf_ns, runs, tracer_ns, boot_ticks;
	pid_t pid[PIDS_MAX], ppid[PIDS_MAX];
	uint64_t pid_cpu[PIDS_MAX], pid_reaped[PIDS_MAX];
	int npids;
	enum { FILES_ON, FILES_TRIAL, FILES_OFF, FILES_KEPT } files;
	enum { TIMING_ON, TIMING_MEASURE, TIMING_DONE } timing;
	enum { HOLDERS_ON, HOLDERS_MEASURE, HOLDERS_DONE } holders;
	uint64_t trial_at_ns;	/* when the trial stopped the stream */
};

static void progs_time(const struct selfcost *s, uint64_t *ns, uint64_t *runs)
{
	*ns = *runs = 0;
	for (int i = 0; i < s->h.nprogs; i++) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);

		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(s->h.prog_fd[i], &info, &len))
			continue;
		*ns += info.run_time_ns;
		*runs += info.run_cnt;
	}
}

static uint64_t tick_ns(void)
{
	return 1000000000ull / (uint64_t)sysconf(_SC_CLK_TCK);
}

/* A process's CPU time from /proc/PID/stat: its own (utime + stime), its
 * reaped children's (cutime + cstime: a server that forks a process per
 * connection has most of its CPU there, in processes that end within a
 * second), its parent and when it started (clock ticks since boot). */
struct proc_cpu {
	uint64_t own_ns, reaped_ns, start;
	pid_t ppid;
};

/* false when it is gone */
static bool proc_cpu(pid_t pid, struct proc_cpu *c)
{
	unsigned long long ut = 0, st = 0, born = 0;
	long long cut = 0, cst = 0;
	char path[40], buf[1024], *p;
	int ppid = 0;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (!(f = fopen(path, "re")))
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* past the comm, which may hold spaces and parentheses */
	if (!(p = strrchr(buf, ')')) ||
	    sscanf(p + 2, "%*c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %lld %lld %*d "
		   "%*d %*d %*d %llu", &ppid, &ut, &st, &cut, &cst, &born) != 6)
		return false;
	c->own_ns = (ut + st) * tick_ns();
	c->reaped_ns = ((uint64_t)(cut > 0 ? cut : 0) + (uint64_t)(cst > 0 ? cst : 0)) * tick_ns();
	c->start = born;
	c->ppid = ppid;
	return true;
}

static uint64_t boot_ticks(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec) / tick_ns();
}

/* The traced processes' CPU time now, each, into the sample's table. */
static void target_begin(struct selfcost *s)
{
	pid_t pids[PIDS_MAX];
	int n = s->h.tgids ? s->h.tgids(s->h.arg, pids, PIDS_MAX) : 0;
	struct proc_cpu c;

	s->npids = 0;
	s->boot_ticks = boot_ticks();
	for (int i = 0; i < n; i++)
		if (proc_cpu(pids[i], &c)) {
			s->pid[s->npids] = pids[i];
			s->ppid[s->npids] = c.ppid;
			s->pid_cpu[s->npids] = c.own_ns;
			s->pid_reaped[s->npids++] = c.reaped_ns;
		}
}

static uint64_t since(uint64_t now, uint64_t then)
{
	return now > then ? now - then : 0;
}

static int listed_at_begin(const struct selfcost *s, pid_t pid)
{
	for (int k = 0; k < s->npids; k++)
		if (s->pid[k] == pid)
			return k;
	return -1;
}

/* Their CPU time since: a process traced since the sample began, from
 * its time then; one that joined the list later (an attach adopts the
 * processes after the window opens; --follow adds the forked), all its
 * time if it started after the sample began, else none (what part of it
 * fell inside is not known). And the children they reaped meanwhile: a
 * child that was listed at the start and is gone, its parent listed, had
 * its time then counted already - taken off again. */
static uint64_t target_end(const struct selfcost *s)
{
	pid_t pids[PIDS_MAX];
	int n = s->h.tgids ? s->h.tgids(s->h.arg, pids, PIDS_MAX) : 0;
	int64_t ns = 0;
	struct proc_cpu c;
	bool live[PIDS_MAX] = { false };

	for (int i = 0; i < n; i++) {
		int k = listed_at_begin(s, pids[i]);

		if (!proc_cpu(pids[i], &c))
			continue;
		if (!s->h.children)	/* untraced children are not the target */
			c.reaped_ns = k >= 0 ? s->pid_reaped[k] : 0;
		if (k >= 0) {
			live[k] = true;
			ns += (int64_t)since(c.own_ns, s->pid_cpu[k]);
			ns += (int64_t)since(c.reaped_ns, s->pid_reaped[k]);
		} else if (c.start >= s->boot_ticks) {
			ns += (int64_t)(c.own_ns + c.reaped_ns);
		}
	}
	for (int k = 0; s->h.children && k < s->npids; k++) {
		int parent = listed_at_begin(s, s->ppid[k]);

		if (!live[k] && parent >= 0 && live[parent])
			ns -= (int64_t)s->pid_cpu[k];
	}
	return ns > 0 ? (uint64_t)ns : 0;
}

static uint64_t own_cpu_ns(const struct selfcost *s)
{
	struct timespec ts;

	if (!s->h.own_cpu || clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void sample_begin(struct selfcost *s)
{
	s->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (s->stats_fd < 0)
		return;
	s->at_ns = monotonic_ns();
	progs_time(s, &s->bpf_ns, &s->runs);
	target_begin(s);
	s->tracer_ns = own_cpu_ns(s);
}

/* The second's share: fctrace's CPU (its BPF programs and its own
 * threads) over the rest of the traced processes' CPU time. */
static double share_of(uint64_t bpf, uint64_t tracer, uint64_t target)
{
	uint64_t rest = target > bpf ? target - bpf : 0;

	return rest ? (double)(bpf + tracer) / (double)rest : 0;
}

static void files_set(struct selfcost *s, uint32_t paused)
{
	__atomic_store_n(s->h.fu_paused, paused, __ATOMIC_SEQ_CST);
}

/* A trial whose second measured nothing (the traced processes idle or
 * gone, the window closed): the stream goes on again, and a later second
 * past the budget may try again. */
static void trial_void(struct selfcost *s, uint64_t now)
{
	files_set(s, 0);
	s->files = FILES_ON;
	s->f.void_trial_ns += now - s->trial_at_ns;
}

/* A second that was to judge a step measured nothing (the traced
 * processes idle or gone, the window closed): a trial decides nothing,
 * and a timing step stays, its share not had. */
static void judged_nothing(struct selfcost *s, uint64_t now)
{
	if (s->files == FILES_TRIAL)
		trial_void(s, now);
	if (s->timing == TIMING_MEASURE)
		s->timing = TIMING_DONE;
	if (s->holders == HOLDERS_MEASURE)
		s->holders = HOLDERS_DONE;
}

/* The second step: fewer syscalls timed, once; the next second measured. */
static void timing_step(struct selfcost *s, uint64_t now)
{
	uint32_t before;

	if (!s->h.time_every || s->timing != TIMING_ON)
		return;
	before = __atomic_load_n(s->h.time_every, __ATOMIC_SEQ_CST);
	if (before >= FCT_SC_EVERY_MAX)
		return;
	__atomic_store_n(s->h.time_every, FCT_SC_EVERY_MAX, __ATOMIC_SEQ_CST);
	s->f.time_every_before = before;
	s->f.time_every_after = FCT_SC_EVERY_MAX;
	s->f.timing_at_ns = now > s->start_ns ? now - s->start_ns : 1;
	s->timing = TIMING_MEASURE;
}

/* The third step: the holders' owner reads, at every syscall entry and
 * switch of a thread of a watched lock's process, one per watched word,
 * kept for the SELFCOST_HOLD_KEEP words waited on most (MariaDB: 8 words
 * watched, sys_enter 903 ns a run against 383 without the holders); the
 * others' figures are dropped, as they would stop here. Once, and only
 * when a lock is watched. */
static void holders_step(struct selfcost *s, uint64_t now)
{
	int watched = 0;
	uint32_t skip;

	if (!s->h.hold_skip || !s->h.hold_rank || s->holders != HOLDERS_ON)
		return;
	skip = s->h.hold_rank(s->h.arg, SELFCOST_HOLD_KEEP, &watched);
	if (!watched)
		return;		/* nothing to narrow (yet): a later second may */
	__atomic_store_n(s->h.hold_skip, skip, __ATOMIC_SEQ_CST);
	s->f.holders_at_ns = now > s->start_ns ? now - s->start_ns : 1;
	s->f.holders_kept = (uint32_t)(watched < SELFCOST_HOLD_KEEP ? watched : SELFCOST_HOLD_KEEP);
	s->f.holders_dropped = (uint32_t)(watched - (int)s->f.holders_kept);
	s->holders = HOLDERS_MEASURE;
}

/* The trial's second judged: the stream stays stopped when stopping it
 * took a measurable part of the cost off (FILES_WORTH); one that cost
 * next to nothing goes on again, never tried again. Past the budget
 * still, timing steps down. */
static void trial_judged(struct selfcost *s, double share, uint64_t now)
{
	double saved = s->f.with_files_share - share;

	s->f.without_files_share = share;
	if (saved >= FILES_WORTH_POINTS && saved >= FILES_WORTH_SHARE * s->f.with_files_share) {
		s->files = FILES_OFF;
		s->f.paused_at_ns = s->trial_at_ns > s->start_ns ? s->trial_at_ns - s->start_ns : 1;
	} else {
		files_set(s, 0);
		s->files = FILES_KEPT;
		s->f.trial_ns = now - s->trial_at_ns;
	}
	if (share > s->h.budget)
		timing_step(s, now);
}

/* The budget against a sampled second's share: past it, the file stream
 * stops for a second as a trial (trial_judged), then timing steps down. */
static void budget_step(struct selfcost *s, double share, uint64_t target, uint64_t now)
{
	/* not on the first second: a short run keeps its stream whole (the
	 * trial's second would be much of it), and a start-up is no steady
	 * state to judge by */
	if (s->h.budget <= 0 || s->f.samples < 2)
		return;
	if (target < MIN_TARGET_NS) {
		judged_nothing(s, now);
		return;
	}
	if (s->timing == TIMING_MEASURE) {
		s->f.timing_share = share;
		s->timing = TIMING_DONE;
		if (share > s->h.budget)
			holders_step(s, now);
	} else if (s->holders == HOLDERS_MEASURE) {
		s->f.holders_share = share;
		s->holders = HOLDERS_DONE;
	} else if (s->files == FILES_TRIAL) {
		trial_judged(s, share, now);
	} else if (share > s->h.budget && s->files == FILES_ON && s->h.fu_paused) {
		files_set(s, 1);
		s->files = FILES_TRIAL;
		s->trial_at_ns = now;
		s->f.with_files_share = share;
	} else if (share > s->h.budget) {
		timing_step(s, now);
		if (s->timing == TIMING_ON || s->timing == TIMING_DONE)
			holders_step(s, now);	/* timing had no step left */
	}
}

static void sample_end(struct selfcost *s)
{
	uint64_t ns, runs, now, target, tracer;
	double share;

	if (s->stats_fd < 0)
		return;
	progs_time(s, &ns, &runs);
	now = monotonic_ns();
	target = target_end(s);
	tracer = own_cpu_ns(s);
	close(s->stats_fd);
	s->stats_fd = -1;
	ns -= s->bpf_ns;
	tracer = tracer > s->tracer_ns ? tracer - s->tracer_ns : 0;
	s->f.samples++;
	s->f.sampled_ns += now - s->at_ns;
	s->f.bpf_ns += ns;
	s->f.bpf_runs += runs - s->runs;
	s->f.target_ns += target;
	s->f.tracer_ns += tracer;
	share = share_of(ns, tracer, target);
	/* the dearest second among those the program ran in: one where it
	 * ran a few ms (idle between a benchmark's runs) made "1632.8 %" */
	if (target >= MIN_TARGET_NS && share > s->f.peak_share)
		s->f.peak_share = share;
	budget_step(s, share, target, now);
}

static void *run(void *arg)
{
	struct selfcost *s = arg;
	uint64_t tick = 0;

	pthread_mutex_lock(&s->mu);
	while (!s->stop) {
		struct timespec ts;

		pthread_mutex_unlock(&s->mu);
		if (s->stats_fd >= 0) {
			sample_end(s);
			/* a trial's second, or a step's: now */
			if (s->files == FILES_TRIAL || s->timing == TIMING_MEASURE ||
			    s->holders == HOLDERS_MEASURE)
				sample_begin(s);
		} else if (tick % SELFCOST_EVERY == 0) {
			sample_begin(s);
		}
		tick++;
		pthread_mutex_lock(&s->mu);
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += 1;
		while (!s->stop && pthread_cond_timedwait(&s->cv, &s->mu, &ts) != ETIMEDOUT)
			;
	}
	pthread_mutex_unlock(&s->mu);
	sample_end(s);		/* the second in progress, cut short */
	judged_nothing(s, monotonic_ns());	/* if its statistics could not be had */
	return NULL;
}

struct selfcost *selfcost_start(const struct selfcost_hooks *h)
{
	struct selfcost *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->h = *h;
	s->stats_fd = -1;
	s->start_ns = monotonic_ns();
	s->f.budget = h->budget;
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->cv, NULL);
	if (pthread_create(&s->thread, NULL, run, s)) {
		free(s);
		return NULL;
	}
	return s;
}

void selfcost_stop(struct selfcost *s, struct selfcost_figures *f)
{
	memset(f, 0, sizeof(*f));
	if (!s)
		return;
	pthread_mutex_lock(&s->mu);
	s->stop = true;
	pthread_cond_signal(&s->cv);
	pthread_mutex_unlock(&s->mu);
	pthread_join(s->thread, NULL);
	*f = s->f;
	f->window_ns = monotonic_ns() - s->start_ns;
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->cv);
	free(s);
}

double selfcost_share(const struct selfcost_figures *f)
{
	return share_of(f->bpf_ns, f->tracer_ns, f->target_ns);
}

uint64_t selfcost_bpf_est_ns(const struct selfcost_figures *f)
{
	return f->sampled_ns ? (uint64_t)((double)f->bpf_ns * (double)f->window_ns /
					  (double)f->sampled_ns) : 0;
}
