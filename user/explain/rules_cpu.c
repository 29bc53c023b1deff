/*
 * rules_cpu.c - the rules for CPU time: waiting for a CPU (the machine's
 * share), and kernel locks.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "base/sysnames.h"
#include "base/units.h"
#include "explain/held.h"
#include "explain/rules_int.h"
#include "explain/whatif.h"
#include "explain/words.h"

/* ---- waiting for a CPU --------------------------------------------------- */

void ev_oncpu(struct diag_cause *c, const struct facts *f)
{
	cause_fig(c, "user_share", kshare(f, ACCT_CPU_USER));
	cause_fig(c, "sys_share", kshare(f, ACCT_CPU_SYS));
	evidence_add(c, "On CPU %s of thread time: %s in user space, %s in syscalls.",
	       fig_pct(kshare(f, ACCT_CPU_USER) + kshare(f, ACCT_CPU_SYS)),
	       fig_pct(kshare(f, ACCT_CPU_USER)), fig_pct(kshare(f, ACCT_CPU_SYS)));
}

/* What the machine's CPUs did, as shares of their capacity over the
 * interval the figures were measured over, never above 1. */
struct machine_shares {
	double others, tracer, idle, steal;
	const char *how;
	bool sampled;		/* by the cpu-clock samples, not /proc/stat */
};

/* From the cpu-clock samples: they cover fctrace's whole window (the
 * tracer's start to its stop, symbolisation included), not the
 * program's, so they are shares of that window's samples. Samples on
 * fctrace's own process are its work, not other processes'. */
static double sample_capacity(const struct kview *kv)
{
	double period = 1e9 / FCT_CPUCLOCK_HZ, own = 0, cap;

	if (!kv->machine_sampled || kv->machine.other + kv->machine.idle + kv->machine.tracer == 0)
		return 0;
	for (int i = 0; i < kv->nthreads; i++)
		own += (double)(kv->threads[i].cpu_samples_user + kv->threads[i].cpu_samples_sys +
				kv->threads[i].cpu_samples_futex);
	cap = own + (double)(kv->machine.other + kv->machine.idle + kv->machine.tracer);
	if (kv->machine_ns && kv->machine_cpus)	/* what the sampler could have seen */
		cap = fmax(cap, (double)kv->machine_ns * kv->machine_cpus / period);
	return cap;
}

static bool sampled_shares(const struct kview *kv, struct machine_shares *ms)
{
	double cap = sample_capacity(kv);

	if (cap <= 0)
		return false;
	ms->others = (double)kv->machine.other / cap;
	ms->tracer = (double)kv->machine.tracer / cap;
	ms->idle = (double)kv->machine.idle / cap;
	ms->how = "cpu-clock samples over fctrace's window";
	ms->sampled = true;
	return true;
}

/* From /proc/stat over the same window: busy ticks less own, the traced
 * threads' exact on-CPU time (ticks lose time under heavy switching). */
static bool ticked_shares(const struct kview *kv, double own, struct machine_shares *ms)
{
	double cap = (double)(kv->cpu.busy_ns + kv->cpu.idle_ns + kv->cpu.steal_ns);

	if (!kv->cpu.valid || cap <= 0)
		return false;
	ms->others = (double)kv->cpu.busy_ns > own ? ((double)kv->cpu.busy_ns - own) / cap : 0;
	ms->idle = (double)kv->cpu.idle_ns / cap;
	ms->how = "the kernel's /proc/stat over fctrace's window";
	return true;
}

/* The machine's shares by the sampler, else by /proc/stat (own: the
 * traced threads' exact on-CPU time); false when neither ran. */
static bool machine_time(const struct facts *f, double own, struct machine_shares *ms)
{
	const struct kview *kv = f->m->kv;
	double cap;

	memset(ms, 0, sizeof(*ms));
	if (!kv)
		return false;
	cap = (double)(kv->cpu.busy_ns + kv->cpu.idle_ns + kv->cpu.steal_ns);
	ms->steal = kv->cpu.valid && cap > 0 ? (double)kv->cpu.steal_ns / cap : 0;
	return sampled_shares(kv, ms) || ticked_shares(kv, own, ms);
}

/* The figures the machine's sentence states. */
static void ev_machine(struct diag_cause *c, double cap,
		       const struct machine_shares *ms)
{
	cause_fig(c, "other_work_share", ms->others);
	cause_fig(c, "other_work_ns", ms->others * cap);
	cause_fig(c, "tracer_share", ms->tracer);
	cause_fig(c, "steal_share", ms->steal);
	cause_fig(c, "idle_share", ms->idle);
	cause_fig(c, "by_samples", ms->sampled);
}

/* The share of the CPUs other work and the hypervisor took (-1 if
 * unknown), and the evidence sentence when c is given: shares of the
 * window the figures cover, in time scaled to the program's window. */
static double others_share(const struct facts *f, struct diag_cause *c)
{
	double own = 0, cap = (double)f->m->wall_ns * f->ncpus, taken;
	struct machine_shares ms;

	for (unsigned i = 0; i < f->m->nrows; i++)
		if (f->m->rows[i].has_kernel)
			own += (double)f->m->rows[i].k.oncpu_ns;
	if (cap <= 0 || !machine_time(f, own, &ms))
		return -1;
	taken = fmin(1, ms.others + ms.steal);
	if (c)
		ev_machine(c, cap, &ms);
	if (c)
		evidence_add(c, "Over the run the %u CPUs gave this program's threads %s; other threads "
		       "and processes took %s of them (%s), fctrace itself %s, the hypervisor %s "
		       "(steal), and were idle %s (%s).", f->ncpus, fig_ns(own), fig_pct(ms.others),
		       fig_ns(ms.others * cap), fig_pct(ms.tracer), fig_pct(ms.steal), fig_pct(ms.idle), ms.how);
	if (c && ms.idle >= EXPLAIN_CPU_TAKEN)	/* a queue beside idle CPUs */
		evidence_add(c, "The CPUs were idle %s of the time all the same: the threads queued in "
		       "bursts, woken together or behind the thread that woke them, not for want "
		       "of CPUs all along.", fig_pct(ms.idle));
	return taken;
}

/* The hypervisor's share of the CPUs over fctrace's window. */
static double steal_share(const struct facts *f)
{
	struct machine_shares ms;

	return machine_time(f, 0, &ms) ? ms.steal : 0;
}

static const struct kv_other *competitor(const struct facts *f, double *share);

/* ", the largest redis-benchmark (pid 4242) with 62.0 %" or "" */
static const char *top_words(const struct facts *f)
{
	static __thread char buf[80];
	const struct kv_other *o;
	double share;

	buf[0] = '\0';
	if ((o = competitor(f, &share)))
		snprintf(buf, sizeof(buf), ", the largest %s (pid %u) with %s", o->comm, o->tgid,
			 fig_pct(share));
	return buf;
}

/* The figures of the title and of the first sentences of rule_runq
 * (a cause holds EXPLAIN_MAX_FIGS: the voluntary switches and the
 * threads' own CPU time are left to the words). */
static void runq_figs(struct diag_cause *c, const struct facts *f, double q)
{
	cause_fig(c, "threads", f->threads);
	cause_fig(c, "cpus", f->ncpus);
	cause_fig(c, "runq_ns", q);
	cause_fig(c, "involuntary_switches", f->invol);
}

bool rule_runq(const struct facts *f, struct finding *o)
{
	double share, q, taken;
	bool over = f->threads > f->ncpus;

	if (!f->sched)
		return false;
	/* the processes a churn made wait for the CPUs they take: its time */
	q = (double)f->m->acct_total_ns[ACCT_RUNQ] - churn_ns(f, ACCT_RUNQ);
	share = fig_ratio(q, f->kwall);
	if (share < EXPLAIN_MIN_SHARE)
		return false;
	/* a quarter of the CPUs gone elsewhere: the queue is not the program's */
	taken = others_share(f, NULL);
	over = over && taken < EXPLAIN_CPU_TAKEN;
	found(o, over ? "cpu_oversubscription" : "cpu_competition", share, over ? 0.9 : 0.6,
	      COV_RUNQ);
	o->machine = true;
	runq_figs(&o->c, f, q);
	if (!over && taken >= 0)
		cause_fig(&o->c, "others_cpu_share", taken);	/* the title's */
	if (over || taken < 0)
		set_title(o, "%s of thread time runnable but not running: %u thread%s on %u CPU%s%s",
			  fig_pct(share), f->threads, fig_plural(f->threads), f->ncpus,
			  fig_plural(f->ncpus), over ? "" : ", other processes took them");
	else
		set_title(o, "%s of thread time runnable but not running: other processes%s took "
			  "%s of the %u CPUs%s", fig_pct(share),
			  steal_share(f) > 0.01 ?
			  " and the hypervisor" : "", fig_pct(taken), f->ncpus, top_words(f));
	if (over)
		evidence_add(&o->c, "%u threads on %u CPU%s: at most %u run at once, so the others "
		       "wait in the run queue, %s in total (%s of thread time).", f->threads,
		       f->ncpus, fig_plural(f->ncpus), f->ncpus, fig_ns(q), fig_pct(share));
	else if (f->threads > f->ncpus)
		evidence_add(&o->c, "%u threads on %u CPU%s: at most %u run at once; they waited %s "
		       "in the run queue (%s of thread time), with the CPUs shared with other work.",
		       f->threads, f->ncpus, fig_plural(f->ncpus), f->ncpus, fig_ns(q), fig_pct(share));
	else
		evidence_add(&o->c, "%u thread%s on %u CPU%s could all run at once, yet %s waited %s "
		       "in the run queue (%s of thread time).", f->threads, fig_plural(f->threads),
		       f->ncpus, fig_plural(f->ncpus), f->threads == 1 ? "it" : "they", fig_ns(q),
		       fig_pct(share));
	evidence_add(&o->c, "%s involuntary switches (preempted) against %s voluntary ones (slept).",
	       fig_cnt(f->invol), fig_cnt(f->vol));
	ev_oncpu(&o->c, f);
	others_share(f, &o->c);
	ev_competitors(&o->c, f);
	if (over)
		set_fix(o, "Run at most %u threads, one per CPU, or give the machine more CPUs: "
			"this queue is the machine's, not the code's.", f->ncpus);
	else
		set_fix(o, "Run on a quieter machine, or pin the threads: the %u CPUs were busy "
			"with other work.", f->ncpus);
	return true;
}

/* ---- kernel locks -------------------------------------------------------- */

double klock_wait_ns(const struct joined_run *m)
{
	double sum = 0;

	for (int i = 0; i < m->nlocks; i++)
		if (m->locks[i].kernel)
			sum += (double)m->locks[i].wait_ns;
	return sum;
}

/* The figures of the kth kernel lock's sentence (from 1): "lock1_waits" ...;
 * its longest wait and threads for the first only (room for the figures). */
static void lock_figs(struct diag_cause *c, int k, const struct lock_total *l)
{
	char key[28];

	snprintf(key, sizeof(key), "lock%d_waits", k);
	cause_fig(c, key, (double)l->waits);
	snprintf(key, sizeof(key), "lock%d_wait_ns", k);
	cause_fig(c, key, (double)l->wait_ns);
	if (k > 1)
		return;
	cause_fig(c, "lock1_max_ns", (double)l->max_ns);
	cause_fig(c, "lock1_threads", l->threads);
}

/* The three kernel locks with the most wait, largest first. */
static void ev_klocks(struct diag_cause *c, const struct facts *f)
{
	const struct joined_run *m = f->m;
	bool used[1024] = { false };

	for (int k = 0; k < 3; k++) {
		int best = -1;

		for (int i = 0; i < m->nlocks && i < 1024; i++)
			if (m->locks[i].kernel && !used[i] &&
			    (best < 0 || m->locks[i].wait_ns > m->locks[best].wait_ns))
				best = i;
		if (best < 0)
			return;
		used[best] = true;
		lock_figs(c, k + 1, &m->locks[best]);
		evidence_add(c, "%s: %s wait%s, %s in total (%s of thread time), longest %s, %u "
		       "thread%s.", m->locks[best].name, fig_cnt((double)m->locks[best].waits),
		       fig_plural((double)m->locks[best].waits),
		       fig_ns((double)m->locks[best].wait_ns),
		       fig_pct(fig_ratio((double)m->locks[best].wait_ns, f->kwall)),
		       fig_ns((double)m->locks[best].max_ns), m->locks[best].threads,
		       fig_plural(m->locks[best].threads));
	}
}

bool rule_klock(const struct facts *f, struct finding *o)
{
	int n;
	const struct lock_total *top = top_lock(f->m, true, &n);
	double share = f->klock ? fig_ratio(klock_wait_ns(f->m), f->kwall) : 0;

	if (!top || share < EXPLAIN_MIN_SHARE)
		return false;
	found(o, "kernel_lock_contention", share, 0.8, COV_KLOCK);
	cause_fig(&o->c, "sites", n);
	cause_fig(&o->c, "sys_share", kshare(f, ACCT_CPU_SYS));
	cause_fig(&o->c, "blocked_share", kshare(f, ACCT_BLOCKED));
	set_title(o, "%s of thread time waiting on kernel locks (%d sites), most on %s",
		  fig_pct(share), n, top->name);
	ev_klocks(&o->c, f);
	evidence_add(&o->c, "These waits spin on CPU or sleep, so they sit inside the syscall time "
	       "(%s) and the blocked time (%s), not on top of them.",
	       fig_pct(kshare(f, ACCT_CPU_SYS)), fig_pct(kshare(f, ACCT_BLOCKED)));
	set_fix(o, "Make fewer of the calls that take %s, or make them on different objects "
		"(the syscall table shows which calls the threads made).", top->name);
	return true;
}


/* ---- who else had the CPUs ------------------------------------------------- */

/* The process the samples found most, and its share of the CPUs over
 * fctrace's window; NULL when not sampled or under 1 %. */
static const struct kv_other *competitor(const struct facts *f, double *share)
{
	const struct kview *kv = f->m->kv;
	double cap = kv ? sample_capacity(kv) : 0;

	if (cap <= 0 || !kv->nothers)
		return NULL;
	*share = (double)kv->others[0].samples / cap;
	return *share >= 0.01 ? &kv->others[0] : NULL;
}

void ev_competitors(struct diag_cause *c, const struct facts *f)
{
	const struct kview *kv = f->m->kv;
	double cap = kv ? sample_capacity(kv) : 0, top;
	char more[160] = "";

	int named = 1;

	if (!competitor(f, &top))
		return;
	cause_fig(c, "top_other_pid", kv->others[0].tgid);
	cause_fig(c, "top_other_share", top);
	for (int i = 1; i < kv->nothers && i < 3; i++) {
		size_t len = strlen(more);
		double sh = (double)kv->others[i].samples / cap;

		if (sh < 0.01)
			break;
		named++;
		snprintf(more + len, sizeof(more) - len, ", %s (pid %u) %s", kv->others[i].comm,
			 kv->others[i].tgid, fig_pct(sh));
	}
	evidence_add(c, "Other processes on the CPUs, by fctrace's cpu-clock samples over its "
		     "window: %s (pid %u) had %s of the %u CPUs%s%s.", kv->others[0].comm,
		     kv->others[0].tgid, fig_pct(top), f->ncpus, more, kv->machine.others_full ?
		     " (some processes not told apart: the table of them was full)" : "");
	cause_fig(c, "others_named", named);
}
