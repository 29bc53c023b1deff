/*
 * rules.c - from the joined run to a ranked diagnosis.
 *
 * First the facts: sums read once off the model. Then one rule per cause:
 * a rule fires when its cause holds at least EXPLAIN_MIN_SHARE of the
 * threads' wall time, and writes a title, its evidence - cause to effect,
 * each sentence with a figure measured in this run and what it is compared
 * with - and a fix. Findings are ranked by share; with none, the run is
 * healthy. Rules read figures and settings, never workload names.
 *
 * Shares come from the kernel's disjoint time buckets when the sched probes
 * ran, else from the workload's own clocks (and say so, with a lower
 * confidence). Kernel lock waits are the exception: they sit inside the
 * on-CPU and blocked buckets, so that share overlaps the others.
 */
#include <math.h>
#include <stdarg.h>
#include <string.h>
#include "explain/explain.h"
#include "explain/held.h"
#include "explain/rules_int.h"
#include "explain/words.h"
#include "base/sysnames.h"
#include "base/units.h"
#include "explain/whatif.h"
#include "explain/working.h"


/* ---- healthy ------------------------------------------------------------- */

static void healthy_kernel(const struct facts *f, struct finding *o)
{
	double on = kshare(f, ACCT_CPU_USER) + kshare(f, ACCT_CPU_SYS);

	found(o, "healthy", on, 0.8, 0);
	set_title(o, "No bottleneck beyond the CPU: %s of thread time on CPU", fig_pct(on));
	ev_oncpu(&o->c, f);
	cause_fig(&o->c, "lock_share", lock_share(f));
	cause_fig(&o->c, "blocked_share", kshare(f, ACCT_BLOCKED));
	cause_fig(&o->c, "runq_share", kshare(f, ACCT_RUNQ));
	evidence_add(&o->c, "Lock waits %s, asleep %s, waiting for a CPU %s: each below the %s that "
	       "would make it a cause.", fig_pct_small(lock_share(f)),
	       fig_pct_small(kshare(f, ACCT_BLOCKED)), fig_pct_small(kshare(f, ACCT_RUNQ)),
	       fig_pct(EXPLAIN_MIN_SHARE));
}

static void healthy_timing(const struct facts *f, struct finding *o)
{
	double lw = fig_ratio(f->lock_wait, f->wall);

	found(o, "healthy", 1 - lw, 0.4, 0);
	cause_fig(&o->c, "lock_share", lw);
	cause_fig(&o->c, "thread_wall_ns", f->wall);
	cause_fig(&o->c, "read_share", fig_ratio(f->read + f->miss_read, f->wall));
	cause_fig(&o->c, "read_per_op_ns", fig_ratio(f->read + f->miss_read, f->ops));
	set_title(o, "No bottleneck seen by the threads' own clocks: lock waits %s of thread "
		  "time", fig_pct_small(lw));
	evidence_add(&o->c, "Lock waits took %s of the threads' %s by their own clocks, below the %s "
	       "that would make them a cause.", fig_pct_small(lw), fig_ns(f->wall),
	       fig_pct(EXPLAIN_MIN_SHARE));
	evidence_add(&o->c, "Reads took %s of thread time, %s per op.",
	       fig_pct(fig_ratio(f->read + f->miss_read, f->wall)),
	       fig_ns(fig_ratio(f->read + f->miss_read, f->ops)));
	if (f->threads > f->ncpus) {
		cause_fig(&o->c, "threads", f->threads);
		cause_fig(&o->c, "cpus", f->ncpus);
		evidence_add(&o->c, "%u threads share %u CPU%s, so part of their time went to waiting "
		       "for one: only the kernel view measures it.", f->threads, f->ncpus,
		       fig_plural(f->ncpus));
	}
	evidence_add(&o->c, "Without the kernel view on-CPU time, the page cache and the run queue "
	       "were not measured: confidence %.0f %%.", 40.0);
}

static void healthy(const struct facts *f, struct finding *o)
{
	if (f->sched)
		healthy_kernel(f, o);
	else
		healthy_timing(f, o);
	cause_fig(&o->c, "cpus", f->ncpus);
	if (f->threads < f->ncpus)
		set_fix(o, "Nothing measured holds it back beyond the CPU: to go faster, run up to "
			"%u threads, one per CPU, or make it do less work%s.", f->ncpus,
			f->ops_counted ? " per op" : "");
	else
		set_fix(o, "Nothing measured holds it back beyond the CPU: to go faster, give it "
			"more than %u CPU%s or make it do less work%s.", f->ncpus,
			fig_plural(f->ncpus), f->ops_counted ? " per op" : "");
}

/* ---- ranking, "not the problem", headline --------------------------------- */

typedef bool (*rule_fn)(const struct facts *f, struct finding *o);

static const rule_fn rules[] = {
	rule_pool, rule_cache, rule_handle_cache, rule_block_cache, rule_conns, rule_pool_of_n,
	rule_proxy_pool, rule_process_churn,
	rule_user_lock, rule_event_wait,
	rule_pagecache, rule_disk_reads, rule_sibling_wait, rule_durable_writes, rule_blocked_other,
	rule_runq,
	rule_klock, rule_stopped, rule_gc, rule_saturated,
};
#define NRULES (sizeof(rules) / sizeof(rules[0]))

/* Insert keeping the largest share first; equal shares keep rule order. */
static void insert_ranked(struct finding *list, int *n, const struct finding *x)
{
	int i = *n;

	while (i > 0 && list[i - 1].c.share < x->c.share) {
		list[i] = list[i - 1];
		i--;
	}
	list[i] = *x;
	++*n;
}

/* A comma-separated list of items, appended to a line. */
struct items {
	char *buf;
	size_t n;
	int count;
};

static void item(struct items *l, const char *fmt, ...) PRINTF(2, 3);
static void item(struct items *l, const char *fmt, ...)
{
	size_t len;
	va_list ap;

	if (l->count++)
		words_append(l->buf, l->n, ", ");
	len = strlen(l->buf);
	if (len + 1 >= l->n)
		return;
	va_start(ap, fmt);
	vsnprintf(l->buf + len, l->n - len, fmt, ap);
	va_end(ap);
}

/* The page cache's figures, and the disk's reads past it unless a cause
 * of their own names them. "100 % hits" only where the disk served none
 * of the threads' reads, or its group did not run (and then said so). */
static void beyond_pc(const struct facts *f, unsigned covered, struct items *l,
		      struct diagnosis *d)
{
	double miss = (double)f->m->pagecache_misses;

	why_fig(d, "pc_miss_pages", miss);
	if (f->disk_reads > 0) {
		why_fig(d, "disk_reads", f->disk_reads);
		why_fig(d, "disk_read_ns", f->disk_read_ns);
	}
	if (f->disk_reads == 0 && f->sc && f->pages_asked > miss)
		why_fig(d, "pc_hit_ratio", 1 - fig_ratio(miss, f->pages_asked));
	if (f->disk_reads > 0 && !(covered & COV_DISK))
		item(l, "the disk served %s reads of the threads (%s with one in flight), the page "
		     "cache took in %s page%s", fig_cnt(f->disk_reads), fig_ns(f->disk_read_ns),
		     fig_cnt(miss), fig_plural(miss));
	else if (f->disk_reads > 0 && miss == 0)
		item(l, "page cache unused by the reads (nothing read into it)");
	else if (f->disk_reads > 0)
		item(l, "page cache %s page%s read into it", fig_cnt(miss), fig_plural(miss));
	else if (f->sc && f->pages_asked > 0 && miss == 0)
		item(l, f->disk ? "page cache 100 %% hits, the disk served none of the reads" :
		     "page cache 100 %% hits (nothing read into it; reads past it need the disk "
		     "group)");
	else if (f->sc && f->pages_asked > miss)
		item(l, "page cache %s hits (%s page%s from disk)",
		     fig_pct(1 - fig_ratio(miss, f->pages_asked)), fig_cnt(miss), fig_plural(miss));
	else
		item(l, "%s page%s read from disk", fig_cnt(miss), fig_plural(miss));
}

#define UNMEASURED "the page cache, kernel locks, the run queue"

/* Every thread of the run, the ones that only waited included. */
static unsigned all_threads(const struct facts *f)
{
	return f->whole->nrows - f->whole->aside_rows;
}

/* Threads left out of the shares as parked on a gate (roles.h): their
 * lock waits are not "< 1 %" to a reader; the Threads line names them. */
static bool some_parked(const struct facts *f)
{
	return f->roles && f->roles->count[ROLE_PARKED] > 0;
}

/* What was measured and is not a cause, then what the machine adds; the
 * figures it states into d's. */
static void beyond(const struct facts *f, unsigned covered, struct diagnosis *d)
{
	char *buf = d->beyond;
	size_t n = sizeof(d->beyond);
	struct items l = { buf, n, 0 };
	char cache[200];
	double klock = fig_ratio(klock_wait_ns(f->m), f->kwall);

	snprintf(buf, n, "Not the problem: ");
	if (f->locks_named && !(covered & COV_LOCK) && !some_parked(f)) {
		why_fig(d, "lock_share", lock_share(f));
		item(&l, "lock waits %s", fig_pct_small(lock_share(f)));
	}
	if (f->pc && !(covered & COV_PC))
		beyond_pc(f, covered, &l, d);
	if (f->sched && !(covered & (COV_BLOCKED | COV_PC | COV_CONNS))) {
		why_fig(d, "blocked_share", kshare(f, ACCT_BLOCKED));
		item(&l, "asleep outside locks %s", fig_pct_small(kshare(f, ACCT_BLOCKED)));
	}
	if (f->klock && !(covered & COV_KLOCK)) {
		why_fig(d, "klock_share", klock);
		item(&l, "kernel locks %s", fig_pct_small(klock));
	}
	if (f->sched && !(covered & COV_RUNQ)) {
		why_fig(d, "runq_share", kshare(f, ACCT_RUNQ));
		item(&l, "run queue %s", fig_pct_small(kshare(f, ACCT_RUNQ)));
	}
	if (!(covered & COV_CACHE) && cache_below_floor(f, cache, sizeof(cache)))
		item(&l, "%s", cache);
	if (!(covered & COV_BLOCKS) && blocks_below_floor(f, cache, sizeof(cache)))
		item(&l, "%s", cache);
	if (!f->kernel && !l.count)
		snprintf(buf, n, "Not measured without the kernel view: %s", UNMEASURED);
	else if (!f->kernel)
		words_append(buf, n, "; not measured without the kernel view: %s", UNMEASURED);
	else if (!l.count)
		snprintf(buf, n, "Nothing else measured reaches %s of thread time",
			 fig_pct(EXPLAIN_MIN_SHARE));
	why_fig(d, "kernel_view", f->kernel);
	why_fig(d, "cpus", f->ncpus);
	why_fig(d, "threads", all_threads(f));
	words_append(buf, n, ". The machine: %u CPU%s for %u thread%s", f->ncpus, fig_plural(f->ncpus),
	       all_threads(f), fig_plural(all_threads(f)));
	if (all_threads(f) > f->ncpus)
		words_append(buf, n, ", so at most %u run at once", f->ncpus);
	words_append(buf, n, ".");
}

/* Another program's name: what its main thread ran after exec (python3
 * under env, not env), else the command's. */
static const char *program_name(const struct facts *f)
{
	for (unsigned i = 0; i < f->whole->nrows; i++) {
		const struct thread_row *r = &f->whole->rows[i];

		if (r->has_kernel && r->k.comm[0] && (uint32_t)r->tid == r->k.tgid)
			return r->k.comm;
	}
	return f->m->subject ? f->m->subject : "the program";
}

/* The processes the rows are of, the subject's first (the first listed
 * to attach, or CMD): their tgids and each one's name (its main thread's,
 * else any thread's), up to PROCS_MAX. */
#define PROCS_MAX 256
struct procs {
	pid_t tgid[PROCS_MAX];
	const char *comm[PROCS_MAX];
	unsigned n;
};

static void procs_add(struct procs *p, const struct thread_row *r)
{
	for (unsigned i = 0; i < p->n; i++)
		if (p->tgid[i] == (pid_t)r->k.tgid) {
			if ((uint32_t)r->tid == r->k.tgid)	/* the main thread names it */
				p->comm[i] = r->k.comm;
			return;
		}
	if (p->n < PROCS_MAX) {
		p->tgid[p->n] = (pid_t)r->k.tgid;
		p->comm[p->n++] = r->k.comm;
	}
}

/* Is r the main thread of the subject's process: the one it started or
 * attached to, or when that is not known, the first of its name? */
static bool subject_main(const struct facts *f, const struct thread_row *r, bool by_pid)
{
	const char *subject = f->m->subject ? f->m->subject : "";

	if ((uint32_t)r->tid != r->k.tgid)
		return false;
	return by_pid ? (pid_t)r->k.tgid == f->m->subject_pid : !strcmp(r->k.comm, subject);
}

static void processes_of(const struct facts *f, struct procs *p)
{
	bool by_pid = false;

	for (unsigned i = 0; f->m->subject_pid && i < f->whole->nrows && !by_pid; i++)
		by_pid = f->whole->rows[i].has_kernel && subject_main(f, &f->whole->rows[i], true);
	p->n = 0;
	/* two passes: the subject's process first (a server's root, though its
	 * children's lower pids come first in the rows), then the rest in row
	 * order */
	for (int pass = 0; pass < 2; pass++)
		for (unsigned i = 0; i < f->whole->nrows; i++) {
			const struct thread_row *r = &f->whole->rows[i];

			if (!r->has_kernel || !r->k.comm[0] || !r->k.tgid)
				continue;
			if (pass == 0 && !(p->n == 0 && subject_main(f, r, by_pid)))
				continue;
			procs_add(p, r);
		}
}

/* What the title names: one process by its program's name, as before;
 * several (attach -p A,B, --follow) by every name and pid, since naming
 * one of them says the others were not traced; past three, the first
 * and how many others. */
static void subject_names(const struct facts *f, char *buf, size_t n, struct diagnosis *d)
{
	struct procs p;

	processes_of(f, &p);
	why_fig(d, "processes", p.n ? p.n : 1);
	if (p.n < 2) {
		snprintf(buf, n, "%s", program_name(f));
		return;
	}
	if (p.n > 3) {
		snprintf(buf, n, "%s (%d) and %u others", p.comm[0], (int)p.tgid[0], p.n - 1);
		return;
	}
	buf[0] = 0;
	for (unsigned i = 0; i < p.n; i++)
		words_append(buf, n, "%s%s (%d)", i == 0 ? "" : i + 1 == p.n ? " and " : ", ",
			     p.comm[i], (int)p.tgid[i]);
}

/* The headline's figures that are the file set's settings. */
static void headline_settings(const struct facts *f, struct diagnosis *d)
{
	why_fig(d, "files", f->files);
	if (f->tot->has_pool)
		why_fig(d, "pool", f->cfg->pool);
	if (f->tot->has_cache)
		why_fig(d, "cache_bytes", (double)f->cfg->cache_size);
	why_fig(d, "cold_cache", f->cfg->cold_cache);
	if (f->cfg->pressure > 0)
		why_fig(d, "pressure_pages_per_s", f->cfg->pressure);
	why_fig(d, "working_threads", f->threads);
}

/* "Why fcp takes 2.31 s here (100 files, pool 50, 8 threads, 2 CPUs)":
 * the settings of a run given a file set, else the program and its
 * threads (a JVM's apart from the JVM's own); its figures into d's
 * (the CPUs' and all threads' beyond states). */
static void headline(const struct facts *f, struct diagnosis *d)
{
	char *buf = d->headline, what[96] = "", b[24];
	size_t n = sizeof(d->headline);

	why_fig(d, "wall_ns", (double)f->m->wall_ns);
	if (f->m->jvm) {
		why_fig(d, "jvm_own_threads", f->whole->aside_rows);
		snprintf(buf, n, "Why %s took %s here (a JVM: %u application thread%s, %u of "
			 "its own; %u CPU%s)", f->m->subject ? f->m->subject : "the program",
			 fig_ns((double)f->m->wall_ns), all_threads(f), fig_plural(all_threads(f)),
			 f->whole->aside_rows, f->ncpus, fig_plural(f->ncpus));
		return;
	}
	if (!f->file_set) {
		char who[120];

		subject_names(f, who, sizeof(who), d);
		snprintf(buf, n, "Why %s took %s here (%u thread%s, %u CPU%s%s)", who,
			 fig_ns((double)f->m->wall_ns), all_threads(f), fig_plural(all_threads(f)),
			 f->ncpus, fig_plural(f->ncpus), f->kernel ? "" : "; timing only");
		return;
	}
	headline_settings(f, d);
	if (f->cfg->shared_file)
		snprintf(what, sizeof(what), "one shared file");
	else
		snprintf(what, sizeof(what), "%u file%s", f->cfg->files, fig_plural(f->cfg->files));
	if (f->tot->has_pool)
		words_append(what, sizeof(what), ", pool %u", f->cfg->pool);
	if (f->tot->has_cache)
		words_append(what, sizeof(what), ", cache %s", units_bytes(b, sizeof(b),
						(double)f->cfg->cache_size));
	if (f->cfg->cold_cache)
		words_append(what, sizeof(what), ", cold cache");
	if (f->cfg->pressure > 0)
		words_append(what, sizeof(what), ", cache pressure");
	snprintf(buf, n, "Why %s takes %s here (%s, %u thread%s, %u CPU%s%s)",
		 f->m->subject ? f->m->subject : "the workload", fig_ns((double)f->m->wall_ns),
		 what, f->threads, fig_plural(f->threads), f->ncpus, fig_plural(f->ncpus),
		 f->kernel ? "" : "; timing only");
}

/* A cause built on a figure a loss touched says so, first, and its
 * confidence is scaled by the share of what that loss counts that was
 * kept, and by 0.75 at least: a figure known to be short is less sure.
 * Its count goes first in the figures too ("lost_slot_full"): a cause
 * whose figures are full drops its last one for it. */
static void own_losses(const struct losses *ls, struct diag_cause *c)
{
	char keep[EXPLAIN_MAX_EVIDENCE][sizeof(c->evidence[0])], key[sizeof(c->figs[0].key)];
	struct diag_fig figs[EXPLAIN_MAX_FIGS];
	int nkeep = c->nevidence, nfigs = c->nfigs;

	memcpy(keep, c->evidence, sizeof(keep));
	memcpy(figs, c->figs, sizeof(figs));
	c->nevidence = 0;
	c->nfigs = 0;
	for (int i = 0; i < ls->n; i++) {
		const struct loss *l = &ls->l[i];

		if (!loss_touches_cause(l, c->cause))
			continue;
		snprintf(key, sizeof(key), "lost_%s", l->id);
		cause_fig(c, key, (double)l->count);
		evidence_add(c, "Lost: %s; these figures may be off by what was lost.", l->says);
		c->confidence *= fmin(l->kept, 0.75);
	}
	for (int i = 0; i < nkeep; i++)
		evidence_add(c, "%s", keep[i]);
	for (int i = 0; i < nfigs; i++)
		cause_fig(c, figs[i].key, figs[i].value);
}

/* A headline over threads the tables did not hold says so. */
static void headline_losses(const struct facts *f, struct diagnosis *d)
{
	const struct losses *ls = &f->m->losses;
	char *buf = d->headline;
	size_t n = sizeof(d->headline);

	for (int i = 0; i < ls->n; i++) {
		double count = (double)ls->l[i].count;

		if (!strcmp(ls->l[i].id, "slot_full")) {
			why_fig(d, "threads_lost", count);
			words_append(buf, n, "; %s more thread%s not accounted", fig_cnt(count),
				     fig_plural(count));
		} else if (!strcmp(ls->l[i].id, "tgids_full")) {
			why_fig(d, "processes_lost", count);
			words_append(buf, n, "; %s process%s not followed", fig_cnt(count),
				     ls->l[i].count == 1 ? "" : "es");
		}
	}
}

/* The fix comes from the largest cause in the code; the machine's (too few
 * cores) only when nothing else was found. */
static int code_cause(const struct finding *list, int n)
{
	/* a cause under the confidence floor is not ranked, so not fixed
	 * first: the first ranked one's fix (own_losses already scaled it) */
	for (int i = 0; i < n && i < EXPLAIN_MAX_CAUSES; i++)
		if (!list[i].machine && list[i].c.confidence >= EXPLAIN_RANK_FLOOR)
			return i;
	for (int i = 0; i < n; i++)
		if (!list[i].machine)
			return i;
	return 0;
}

/* Where x sits in d's causes (after the floor's order), from 1; 0 when
 * it is not among them. */
static int cause_number(const struct diagnosis *d, const struct finding *x)
{
	for (int k = 0; k < d->n; k++)
		if (!strcmp(d->causes[k].cause, x->c.cause) &&
		    !strcmp(d->causes[k].title, x->c.title))
			return k + 1;
	return 0;
}

/* Where the first fix changes code, a ranked cause whose fix is a
 * setting (a cache's or a pool's size the program reads) goes beside it:
 * the one change a user of a program they did not write can make
 * (MariaDB: a lock "held for less time" first, the buffer pool's size
 * third). Numbered as the Why numbers its ranked causes. */
static void setting_too(const struct finding *list, int n, int fix, struct diagnosis *d)
{
	int j = -1, k;

	if (list[fix].setting)
		return;
	for (int i = 0; i < n && i < EXPLAIN_MAX_CAUSES && j < 0; i++)
		if (i != fix && list[i].setting && list[i].fix[0] &&
		    list[i].c.confidence >= EXPLAIN_RANK_FLOOR)
			j = i;
	k = j >= 0 ? cause_number(d, &list[j]) : 0;
	if (k && d->causes[k - 1].ranked) {
		why_fig(d, "fix_then_cause", k);
		words_append(d->fix, sizeof(d->fix), " Then, for %d, a setting: %s", k,
			     list[j].fix);
	}
}

/* The rules over the threads that work: m itself, or *sub, a copy whose
 * shares leave out the threads that only waited (roles.c). */
static const struct joined_run *working(const struct joined_run *m, const struct thread_roles *r,
					struct joined_run *sub)
{
	if (!r->ndrop || working_view(m, r->drop, sub))
		return m;
	return sub;
}

static int rank(const struct facts *f, struct diagnosis *d);

/* Each row's role into d, for the reporters. */
static void keep_roles(const struct thread_roles *r, struct diagnosis *d)
{
	d->nroles = r->nrows < EXPLAIN_MAX_ROLES ? r->nrows : EXPLAIN_MAX_ROLES;
	for (unsigned i = 0; i < d->nroles; i++)
		d->role[i] = (unsigned char)r->role[i];
}

void explain_saved(const struct joined_run *m, struct diagnosis *d)
{
	struct thread_roles roles;

	d->has_whatif = whatif_from_model(m, &d->whatif) == 0;
	explain_lock_whatifs(m, d);
	explain_floor(d);	/* from the saved confidences, as the run did */
	d->nroles = 0;
	if (roles_find(m, &roles) == 0) {
		keep_roles(&roles, d);
		roles_free(&roles);
	}
}

int explain_run(const struct joined_run *m, struct diagnosis *d)
{
	struct joined_run sub = { 0 };
	struct thread_roles roles;
	struct facts f;
	int n;

	memset(d, 0, sizeof(*d));
	/* the what-if models are part of the explanation, fitted here once */
	d->has_whatif = m && whatif_from_model(m, &d->whatif) == 0;
	if (m)
		explain_lock_whatifs(m, d);
	/* nothing measured: ops were counted and none made (interrupted at 0
	 * ops), or none were counted and the kernel saw nothing */
	if (!m || !m->nrows || (!m->ops && !m->names && (m->timings || !m->kv)))
		return -1;	/* nothing to explain, not "healthy" */
	if (roles_find(m, &roles))
		return -1;
	keep_roles(&roles, d);
	facts_init(&f, working(m, &roles, &sub));
	f.whole = m;
	f.roles = &roles;
	n = f.wall > 0 ? rank(&f, d) : -1;
	if (n > 0) {
		roles_words(m, &roles, d);
		roles_follow_hint(m, &roles, d);
	}
	working_free(&sub);
	roles_free(&roles);
	return n;
}

/* The rules' findings, largest share first, into d. */
static int rank(const struct facts *fp, struct diagnosis *d)
{
	const struct facts f = *fp;
	const struct joined_run *m = f.m;
	struct finding list[NRULES + 1], x;
	unsigned covered = 0;
	int n = 0, fix;

	for (size_t i = 0; i < NRULES; i++)
		if (rules[i](&f, &x))
			insert_ranked(list, &n, &x);
	if (!n)
		healthy(&f, &list[n++]);
	for (int i = 0; i < n && i < EXPLAIN_MAX_CAUSES; i++) {
		own_losses(&m->losses, &list[i].c);
		d->causes[d->n++] = list[i].c;
		covered |= list[i].covers;
	}
	explain_floor(d);
	fix = code_cause(list, n);
	snprintf(d->fix, sizeof(d->fix), "%s", list[fix].fix);
	if (cause_number(d, &list[fix]))	/* which cause the fix is for */
		why_fig(d, "fix_cause", cause_number(d, &list[fix]));
	setting_too(list, n, fix, d);
	beyond(&f, covered, d);
	headline(&f, d);
	headline_losses(&f, d);
	return d->n;
}

