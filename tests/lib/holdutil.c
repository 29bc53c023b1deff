/*
 * holdutil.c - the holders probes against a program's own figures: see
 * holdutil.h.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <bpf/bpf.h>
#include "holdutil.h"
#include "explain/explain.h"
#include "join/holders.h"
#include "progwalk.h"
#include "trace/probes.h"
#include "base/sysnames.h"

#define SAMPLE_NS	(1e9 / FCT_CPUCLOCK_HZ)

static double json_num(const char *json, const char *key)
{
	char pat[64], *end;
	const char *p;
	double v;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	p = strstr(json, pat);
	if (!p)
		return NAN;
	p += strlen(pat);
	v = strtod(p, &end);
	return end == p ? NAN : v;	/* null: not said */
}

/* syscalls_in_lock {"name": count, ...} into tr's name and count lists */
static void parse_syscalls(struct hold_truth *tr)
{
	const char *p = strstr(tr->json, "\"syscalls_in_lock\":"), *end;

	tr->nsc = 0;
	if (!p || !(p = strchr(p, '{')) || !(end = strchr(p, '}')))
		return;
	while (tr->nsc < HOLD_SC_NAMES && (p = strchr(p, '"')) && p < end) {
		const char *q = strchr(p + 1, '"');
		size_t n = q ? (size_t)(q - p - 1) : 0;

		if (!q || n >= sizeof(tr->sc_name[0]))
			return;
		memcpy(tr->sc_name[tr->nsc], p + 1, n);
		tr->sc_name[tr->nsc][n] = '\0';
		p = strchr(q, ':');
		if (!p)
			return;
		tr->sc_count[tr->nsc++] = strtod(p + 1, (char **)&p);
	}
}

void hold_parse_truth(struct hold_truth *tr)
{
	tr->wall_ns = json_num(tr->json, "wall_ns");
	tr->held_ns = json_num(tr->json, "held_ns");
	tr->sc_ns = json_num(tr->json, "syscall_ns_in_lock");
	tr->oncpu_ns = json_num(tr->json, "oncpu_ns_in_lock");
	parse_syscalls(tr);
}

/* Fork argv, held at a pipe until the probes are ready; its stdout
 * comes back through *out_fd. */
static pid_t spawn(char **argv, int *go_fd, int *out_fd)
{
	int go[2], out[2];
	pid_t pid;
	char c;

	if (pipe(go))
		return -1;
	if (pipe(out)) {
		close(go[0]);
		close(go[1]);
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		close(go[1]);
		close(out[0]);
		dup2(out[1], 1);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execv(argv[0], argv);
		_exit(127);
	}
	close(go[0]);
	close(out[1]);
	*go_fd = go[1];
	*out_fd = out[0];
	return pid;
}

static void read_all(int fd, char *buf, size_t n)
{
	size_t got = 0;
	ssize_t r;

	while (got + 1 < n && (r = read(fd, buf + got, n - 1 - got)) > 0)
		got += (size_t)r;
	buf[got] = '\0';
}

static void print_one_stat(int fd, const struct bpf_prog_info *info, void *arg)
{
	if (info->run_cnt)
		fprintf(arg, "prog %-16s %10llu runs %7.1f ns/run\n", info->name,
			(unsigned long long)info->run_cnt,
			(double)info->run_time_ns / info->run_cnt);
}

/* With kernel.bpf_stats_enabled=1: each of this process's fctrace
 * programs' runs and mean ns per run, from the kernel's own counters. */
static void print_prog_stats(FILE *f)
{
	fct_progs_each(print_one_stat, f);
}

/* The holders row, and every failed one to log. */
static void note_probes(const struct kview *kv, FILE *log, struct hold_run *r)
{
	for (int i = 0; i < kv->nprobes; i++) {
		const struct probe_status *ps = &kv->probes[i];

		if (ps->group == PG_HOLDERS)
			r->holders = *ps;
		if (log && (ps->group == PG_HOLDERS || ps->state == PROBE_FAILED))
			fprintf(log, "probe %s: %s\n", ps->name, probe_status_text(ps));
	}
}

int hold_run(char **argv, unsigned groups, FILE *log, struct hold_run *r)
{
	struct tracer_opts o = { .groups = groups, .target = TT_EXEC };
	struct tracer *t = NULL;
	struct kview kv = { 0 };
	int go, out;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	r->holders.state = PROBE_NOT_SELECTED;
	pid = spawn(argv, &go, &out);
	if (pid < 0)
		return -1;
	o.tgid = pid;
	if (tracer_prepare(&t, &o, &kv)) {
		close(go);
		close(out);
		waitpid(pid, NULL, 0);
		kview_free(&kv);
		return -1;
	}
	note_probes(&kv, log, r);
	tracer_start(t);
	(void)!write(go, "g", 1);
	close(go);
	read_all(out, r->truth.json, sizeof(r->truth.json));
	close(out);
	waitpid(pid, &r->status, 0);
	tracer_stop(t);
	r->nlocks = tracer_read_holds(t, r->locks, FCT_HOLD_SLOTS, &r->g);
	if (r->nlocks < 0)
		r->nlocks = 0;
	if (log)
		print_prog_stats(log);
	tracer_finish(t);
	kview_free(&kv);
	hold_parse_truth(&r->truth);
	return 0;
}

/* ns, contended ns or waiter ns (f: 0, 1, 2) of one state */
static double part(const struct fct_hold_time *ht, int f, bool sampled)
{
	double v = f == 0 ? ht->ns : f == 1 ? ht->contended_ns : ht->waiter_ns;

	return sampled ? v * SAMPLE_NS : v;
}

/* held time, or its contended or waiter-weighted version (f) */
static double held(const struct fct_hold_lock *h, int f)
{
	return part(&h->sc, f, false) + part(&h->sc_edge, f, false) + part(&h->span, f, false) +
	       part(&h->span_user, f, false) + part(&h->span_preempted, f, false) +
	       part(&h->blocked, f, false) +
	       part(&h->preempted, f, false) + part(&h->samples_user, f, true) +
	       part(&h->samples_kernel, f, true) + part(&h->samples_sc_return, f, true);
}

void hold_measure(const struct fct_hold_lock *h, struct hold_measured *m)
{
	m->sc_ns = h->sc.ns;
	m->blocked_ns = h->blocked.ns;
	m->preempted_ns = h->preempted.ns;
	m->sc_blocked_ns = h->sc_blocked.ns;
	m->sc_preempted_ns = h->sc_preempted.ns;
	m->sc_edge_ns = h->sc_edge.ns;
	m->user_ns = part(&h->samples_user, 0, true) + part(&h->samples_kernel, 0, true) +
		     part(&h->samples_sc_return, 0, true);
	/* the kernel samples' part the join counts as syscall paths */
	m->sc_paths_ns = (part(&h->samples_kernel, 0, true) + part(&h->samples_sc_return, 0, true)) *
			 holders_path_share(h);
	/* and the user samples that are the paths seen late (the join's
	 * calibration by the shortest exit-to-entry span) */
	m->sc_paths_ns += part(&h->samples_user, 0, true) * holders_edge_share(h);
	m->user_ns -= m->sc_paths_ns;
	/* the spans from a charged exit to the next edge holding it: exact */
	m->sc_paths_ns += h->span.ns + h->span_user.ns * (1 - holders_span_user_share(h));
	m->user_ns += h->span_user.ns * holders_span_user_share(h);
	m->oncpu_ns = m->user_ns + m->sc_paths_ns;
	/* preempted inside a span: the calls' as its time is, as holders.c */
	m->preempted_ns += h->span_preempted.ns * holders_span_user_share(h);
	m->sc_edge_ns += h->span_preempted.ns * (1 - holders_span_user_share(h));
	m->sc_seen_ns = m->sc_ns + m->sc_edge_ns + m->sc_paths_ns;
	m->held_ns = held(h, 0);
	m->cont_held_ns = held(h, 1);
	m->waiter_ns_in_hold = held(h, 2);
}

const struct fct_hold_lock *hold_main_lock(const struct hold_run *r)
{
	const struct fct_hold_lock *best = NULL;
	struct hold_measured a, b;

	for (int i = 0; i < r->nlocks; i++) {
		const struct fct_hold_lock *h = &r->locks[i];

		hold_measure(h, &a);
		if (best)
			hold_measure(best, &b);
		if (!best || a.held_ns > b.held_ns || (a.held_ns == b.held_ns && h->waits > best->waits))
			best = h;
	}
	return best;
}

static double pct(double a, double b)
{
	return b ? 100 * a / b : 0;
}

void hold_compare(const struct fct_hold_lock *h, const struct hold_truth *tr,
		  struct hold_cmp *c)
{
	struct hold_measured m;

	hold_measure(h, &m);
	c->held_err = tr->held_ns ? pct(m.held_ns - tr->held_ns, tr->held_ns) : 100;
	c->sc_share_bpf = pct(m.sc_seen_ns, m.held_ns);
	c->sc_share_prog = pct(tr->sc_ns, tr->held_ns);
	c->preempted_share = pct(m.preempted_ns + m.sc_preempted_ns, m.held_ns);
	c->blocked_share = pct(m.blocked_ns + m.sc_blocked_ns, m.held_ns);
	c->offcpu_share_bpf = pct(m.preempted_ns + m.sc_preempted_ns + m.blocked_ns +
				  m.sc_blocked_ns + m.sc_edge_ns, m.held_ns);
	c->offcpu_share_prog = isnan(tr->oncpu_ns) ? NAN : pct(tr->held_ns - tr->oncpu_ns,
							      tr->held_ns);
}

uint64_t hold_sc_count(const struct fct_hold_lock *h, const char *name)
{
	char buf[32];

	for (unsigned nr = 0; nr < FCT_NR_MAX; nr++)
		if (h->nr[nr].count && !strcmp(syscall_name(nr, buf, sizeof(buf)), name))
			return h->nr[nr].count;
	return 0;
}

static void print_syscalls(FILE *f, const struct fct_hold_lock *h)
{
	char buf[32];

	fprintf(f, "  bpf syscalls in lock:");
	for (unsigned nr = 0; nr < FCT_NR_MAX; nr++)
		if (h->nr[nr].count)
			fprintf(f, " %s %llu (%.1f ms, shortest span after %.2f us)",
				syscall_name(nr, buf, sizeof(buf)),
				(unsigned long long)h->nr[nr].count, h->nr[nr].ns / 1e6,
				h->nr[nr].gap_min_ns / 1e3);
	fprintf(f, "\n");
}

static void print_lock(FILE *f, const struct fct_hold_lock *h, const struct hold_truth *tr)
{
	struct hold_measured m;
	struct hold_cmp c;

	hold_measure(h, &m);
	hold_compare(h, tr, &c);
	fprintf(f, "lock 0x%llx (tgid %u): %llu waits, waiters now %u, contended %.1f ms\n",
		(unsigned long long)h->uaddr, h->tgid, (unsigned long long)h->waits, h->waiters,
		h->contended_ns / 1e6);
	fprintf(f, "  bpf held %.1f ms = syscalls %.1f (of which blocked %.1f, preempted %.1f)"
		" + off CPU at their return %.1f + blocked %.1f + preempted %.1f"
		" + on CPU %.1f (kernel paths %.1f, user %.1f; samples: %llu kernel,"
		" %llu at a syscall's return, %llu user)\n",
		m.held_ns / 1e6, m.sc_ns / 1e6, m.sc_blocked_ns / 1e6, m.sc_preempted_ns / 1e6,
		m.sc_edge_ns / 1e6, m.blocked_ns / 1e6, m.preempted_ns / 1e6, m.oncpu_ns / 1e6,
		m.sc_paths_ns / 1e6, m.user_ns / 1e6,
		(unsigned long long)h->samples_kernel.ns,
		(unsigned long long)h->samples_sc_return.ns, (unsigned long long)h->samples_user.ns);
	fprintf(f, "  bpf held while others waited %.1f ms; waiters' time inside holds %.1f ms\n",
		m.cont_held_ns / 1e6, m.waiter_ns_in_hold / 1e6);
	fprintf(f, "  bpf disk requests waited for in the syscalls %llu, %.1f ms (waiters' time "
		"meanwhile %.1f ms)\n", (unsigned long long)h->disk_ios, h->disk.ns / 1e6,
		h->disk.waiter_ns / 1e6);
	fprintf(f, "  bpf in-lock syscalls %llu, unconfirmed %llu, samples inside them %llu,"
		" nested %llu\n", (unsigned long long)h->sc_count,
		(unsigned long long)h->sc_unconfirmed, (unsigned long long)h->samples_in_sc,
		(unsigned long long)h->nested);
	fprintf(f, "  bpf spans from a charged exit to the next edge holding it %llu: %.1f ms "
		"paths, %.1f ms past their bound (%llu samples in them dropped, %llu of them "
		"user)\n", (unsigned long long)h->spans, h->span.ns / 1e6, h->span_user.ns / 1e6,
		(unsigned long long)h->span_samples, (unsigned long long)h->span_samples_user);
	fprintf(f, "  bpf exit-to-entry spans holding it %llu: %.1f %% of the user samples are "
		"the paths\n", (unsigned long long)h->gaps, 100 * holders_edge_share(h));
	print_syscalls(f, h);
	if (tr->wall_ns > 0)
		fprintf(f, "  held share of wall: bpf %.1f %%, program %.1f %%\n",
			pct(m.held_ns, tr->wall_ns), pct(tr->held_ns, tr->wall_ns));
	fprintf(f, "  syscall share of the hold: bpf %.1f %% (tracepoint to tracepoint %.1f %%),"
		" program %.1f %%\n", c.sc_share_bpf, pct(m.sc_ns, m.held_ns), c.sc_share_prog);
	fprintf(f, "  preempted share of the hold: bpf %.1f %%; blocked: %.1f %%\n",
		c.preempted_share, c.blocked_share);
}

void hold_print(FILE *f, const struct hold_run *r)
{
	fprintf(f, "program: %s", r->truth.json);
	fprintf(f, "watched %d, full %llu, unverified %llu, read faults %llu\n", r->nlocks,
		(unsigned long long)r->g.full, (unsigned long long)r->g.unverified,
		(unsigned long long)r->g.read_faults);
	for (int i = 0; i < r->nlocks; i++)
		print_lock(f, &r->locks[i], &r->truth);
}

const struct lock_whatif *hold_whatif_of(const struct diagnosis *d, enum lock_change c)
{
	for (int i = 0; i < d->nlock_whatifs; i++)
		if (d->lock_whatifs[i].change == c)
			return &d->lock_whatifs[i];
	return NULL;
}
