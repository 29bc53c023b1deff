/*
 * rules_churn.c - processes that begin and end within the run, many of
 * one program: a server that forks a process a connection (PostgreSQL's
 * backends under clients that connect for each transaction) or a
 * process a request pays a fork, a start-up and an exit each time. The
 * kernel's accounts tell it: each such process's main thread began at
 * its creation and ended at its exit inside the window (FCT_HOW_FORK,
 * FCT_HOW_EXITED), and what its threads used of the CPU is what the
 * churn costs, work and start-up together. A program that forks for its
 * work (make's compilers, a shell's commands) is no such server: the
 * traced threads must have accepted connections, at least one for every
 * two such processes.
 *
 * The cause's share is the churned processes' whole time: their CPU, and
 * their waits for a CPU and for their client, exist because a process was
 * made for the connection (PostgreSQL under pgbench -C: 486 backends in
 * 10 s used 81 % of the 2 CPUs starting up). The run-queue and sleep rules
 * leave that time to it (churn_ns), so it is not a second cause.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include "explain/rules_int.h"
#include "explain/words.h"

#define CHURN_MIN	20		/* fewer is a program's helpers, not a pattern */
#define CHURN_LIFE_NS	1000000000.0	/* each lived less than this */
#define CHURN_GROUPS	16

struct churn {
	char comm[FCT_COMM_LEN];
	unsigned procs;
	double life_ns, cpu_ns;
	double acct[ACCT_N];	/* their threads' time account, summed */
};

/* A process's main thread made and ended in the window, briefly. */
static bool churned(const struct thread_row *r)
{
	uint32_t both = FCT_HOW_FORK | FCT_HOW_EXITED;

	return r->has_kernel && !r->aside && r->k.tid == r->k.tgid &&
	       (r->k.how & both) == both && r->k.end_ns > r->k.begin_ns &&
	       (double)(r->k.end_ns - r->k.begin_ns) < CHURN_LIFE_NS;
}

/* A churned process and its program's group, sorted by tgid: each row's
 * CPU is added to its process's group in one pass (a run may hold
 * thousands of such processes). */
struct churned_proc {
	uint32_t tgid;
	int group;
};

static int by_tgid(const void *a, const void *b)
{
	uint32_t x = ((const struct churned_proc *)a)->tgid;
	uint32_t y = ((const struct churned_proc *)b)->tgid;

	return x < y ? -1 : x > y;
}

/* Every thread's CPU and account to the group of its process, if that
 * one churned. */
static void add_cpu(const struct joined_run *m, struct churn *g, struct churned_proc *procs,
		    size_t n)
{
	qsort(procs, n, sizeof(*procs), by_tgid);
	for (unsigned i = 0; i < m->nrows; i++) {
		const struct thread_row *r = &m->rows[i];
		struct churned_proc key = { .tgid = r->k.tgid };
		const struct churned_proc *p;

		if (!r->has_kernel || !(p = bsearch(&key, procs, n, sizeof(*procs), by_tgid)))
			continue;
		g[p->group].cpu_ns += (double)r->k.oncpu_ns;
		for (int b = 0; b < ACCT_N; b++)
			g[p->group].acct[b] += (double)r->acct_ns[b];
	}
}

static struct churn *group_of(struct churn *g, int *n, const char *comm)
{
	for (int i = 0; i < *n; i++)
		if (!strncmp(g[i].comm, comm, sizeof(g[i].comm)))
			return &g[i];
	if (*n == CHURN_GROUPS)
		return NULL;
	memset(&g[*n], 0, sizeof(g[*n]));
	memcpy(g[*n].comm, comm, sizeof(g[*n].comm));
	return &g[(*n)++];
}

/* The program whose short-lived processes used the most CPU; false when
 * no program had CHURN_MIN of them. */
static bool top_churn(const struct joined_run *m, struct churn *top)
{
	struct churn g[CHURN_GROUPS];
	struct churned_proc *procs = malloc((m->nrows + 1) * sizeof(*procs));
	size_t nprocs = 0;
	int n = 0, best = -1;

	if (!procs)
		return false;
	for (unsigned i = 0; i < m->nrows; i++) {
		const struct thread_row *r = &m->rows[i];
		struct churn *c;

		if (!churned(r) || !(c = group_of(g, &n, r->k.comm)))
			continue;
		c->procs++;
		c->life_ns += (double)(r->k.end_ns - r->k.begin_ns);
		procs[nprocs++] = (struct churned_proc){ r->k.tgid, (int)(c - g) };
	}
	add_cpu(m, g, procs, nprocs);
	free(procs);
	for (int i = 0; i < n; i++)
		if (g[i].procs >= CHURN_MIN && (best < 0 || g[i].cpu_ns > g[best].cpu_ns))
			best = i;
	if (best >= 0)
		*top = g[best];
	return best >= 0;
}

static void churn_fix(struct finding *o, const struct churn *c)
{
	if (!strcmp(c->comm, "postgres"))
		set_fix(o, "If the clients connect for each transaction, keep their connections: a "
			"pool in the client or a pooler in front (pgbouncer); each new one costs "
			"PostgreSQL a fork and a backend's start-up, %s of CPU here.",
			fig_ns(c->cpu_ns / c->procs));
	else
		set_fix(o, "If each %s process serves one connection or request, keep them: "
			"connections open (a pool in the client) or a process for many requests; "
			"each new one costs a fork, a start-up and an exit, %s of CPU here.",
			c->comm, fig_ns(c->cpu_ns / c->procs));
}

static double accepts(const struct joined_run *m)
{
	return (double)(m->nr_total[__NR_accept].count + m->nr_total[__NR_accept4].count);
}

/* Their whole time, the share's numerator. */
static double churn_time(const struct churn *c)
{
	double t = 0;

	for (int b = 0; b < ACCT_N; b++)
		t += c->acct[b];
	return t;
}

/* The churn that is a cause in f's run, if any. */
static bool churn_of(const struct facts *f, struct churn *c)
{
	return f->kernel && top_churn(f->m, c) && 2 * accepts(f->whole) >= c->procs &&
	       fig_ratio(churn_time(c), f->wall) >= EXPLAIN_MIN_SHARE;
}

double churn_ns(const struct facts *f, enum acct_bucket b)
{
	struct churn c;

	return churn_of(f, &c) ? c.acct[b] : 0;
}

static void churn_figures(struct diag_cause *k, const struct churn *c, const struct facts *f)
{
	cause_fig(k, "processes", c->procs);
	cause_fig(k, "life_each_ns", c->life_ns / c->procs);
	cause_fig(k, "cpu_each_ns", c->cpu_ns / c->procs);
	cause_fig(k, "life_ns", c->life_ns);
	cause_fig(k, "cpu_ns", c->cpu_ns);
	cause_fig(k, "runq_ns", c->acct[ACCT_RUNQ]);
	cause_fig(k, "asleep_ns", c->acct[ACCT_BLOCKED]);
	cause_fig(k, "cpus_share", fig_ratio(c->cpu_ns, (double)f->m->wall_ns * f->ncpus));
	cause_fig(k, "accepts", accepts(f->whole));
}

bool rule_process_churn(const struct facts *f, struct finding *o)
{
	struct churn c;
	double share, wall_s = f->m->wall_ns / 1e9;

	if (!churn_of(f, &c))
		return false;
	share = fig_ratio(churn_time(&c), f->wall);
	found(o, "process_churn", share, 0.6, COV_CHURN);
	set_title(o, "%u %s processes began and ended within the run (%s a second, each lived %s "
		  "and used %s of CPU): a process made for each connection or request, whose "
		  "lives are %s of the threads' time", c.procs, c.comm,
		  fig_cnt(wall_s > 0 ? c.procs / wall_s : 0), fig_ns(c.life_ns / c.procs),
		  fig_ns(c.cpu_ns / c.procs), fig_pct(share));
	churn_figures(&o->c, &c, f);
	evidence_add(&o->c, "Each was created and exited inside fctrace's window (the kernel's "
		     "account of its main thread began at its fork and ended at its exit); "
		     "together they lived %s: on a CPU %s (%s of the %u CPUs' time), waiting for "
		     "a CPU %s, asleep %s. The traced threads accepted %s connections meanwhile.",
		     fig_ns(c.life_ns), fig_ns(c.cpu_ns),
		     fig_pct(fig_ratio(c.cpu_ns, (double)f->m->wall_ns * f->ncpus)), f->ncpus,
		     fig_ns(c.acct[ACCT_RUNQ]), fig_ns(c.acct[ACCT_BLOCKED]),
		     fig_cnt(accepts(f->whole)));
	evidence_add(&o->c, "That CPU is each one's start-up, its work and its exit together: "
		     "the work stays if they are kept, the rest goes; their waits for a CPU are "
		     "counted here, not as the machine's.");
	churn_fix(o, &c);
	return true;
}
