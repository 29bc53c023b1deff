/*
 * holdcheck.c - the holders probes against a program's own figures.
 *
 *   holdcheck [--probes SET] [--expect locked|fixed|none] -- PROG [ARGS...]
 *
 * Runs PROG (tests/holdprog) under the probes SET (default
 * "holders,cpuclock"), from its exec to its exit, reads the watched user
 * locks, and prints, for the lock its holders used most, what the BPF
 * side measured beside what PROG printed about itself (its JSON on
 * stdout: wall_ns, held_ns, syscall_ns_in_lock, syscalls_in_lock).
 *
 * --expect locked: held share within 25 % of PROG's, syscall share of
 * the hold within 15 points; --expect fixed: syscall share under 10 %.
 * Exit status 0 when the checks pass (or none asked), 1 if not, 2 on a
 * usage or setup error. Root (it loads BPF).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include <bpf/bpf.h>
#include "trace/loader.h"
#include "trace/probes.h"
#include "base/sysnames.h"

#define SAMPLE_NS	(1e9 / FCT_CPUCLOCK_HZ)

struct args {
	unsigned groups;
	const char *expect;
	char **argv;
};

/* PROG's own figures */
struct truth {
	double wall_ns, held_ns, sc_ns, holds;
	char json[4096];
};

/* The BPF side's figures for one lock. */
struct measured {
	double held_ns, sc_ns, blocked_ns, preempted_ns, oncpu_ns, user_ns;
	double sc_blocked_ns, sc_preempted_ns, sc_edge_ns, sc_paths_ns;
	double sc_seen_ns;	/* syscalls as the program times them: the
				 * exact window + the edges + the sampled paths */
	double cont_held_ns, waiter_ns_in_hold;
};

static double json_num(const char *json, const char *key)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	p = strstr(json, pat);
	return p ? strtod(p + strlen(pat), NULL) : NAN;
}

static int parse_args(int argc, char **argv, struct args *a)
{
	a->groups = PG_MASK(PG_HOLDERS) | PG_MASK(PG_CPUCLOCK);
	a->expect = "none";
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--") && i + 1 < argc) {
			a->argv = &argv[i + 1];
			return 0;
		}
		if (!strcmp(argv[i], "--probes") && i + 1 < argc) {
			if (probe_groups_parse(argv[++i], &a->groups))
				return -1;
		} else if (!strcmp(argv[i], "--expect") && i + 1 < argc) {
			a->expect = argv[++i];
		} else {
			return -1;
		}
	}
	return -1;
}

/* Fork PROG, held at a pipe until the probes are ready; its stdout
 * comes back through *out_fd. */
static pid_t spawn(char **argv, int *go_fd, int *out_fd)
{
	int go[2], out[2];
	pid_t pid;
	char c;

	if (pipe(go) || pipe(out))
		return -1;
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

static int read_all(int fd, char *buf, size_t n)
{
	size_t got = 0;
	ssize_t r;

	while (got + 1 < n && (r = read(fd, buf + got, n - 1 - got)) > 0)
		got += (size_t)r;
	buf[got] = '\0';
	return got ? 0 : -1;
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
	return part(&h->sc, f, false) + part(&h->sc_edge, f, false) + part(&h->blocked, f, false) +
	       part(&h->preempted, f, false) + part(&h->samples_user, f, true) +
	       part(&h->samples_kernel, f, true) + part(&h->samples_sc_return, f, true);
}

static void measure(const struct fct_hold_lock *h, struct measured *m)
{
	m->sc_ns = h->sc.ns;
	m->blocked_ns = h->blocked.ns;
	m->preempted_ns = h->preempted.ns;
	m->sc_blocked_ns = h->sc_blocked.ns;
	m->sc_preempted_ns = h->sc_preempted.ns;
	m->sc_edge_ns = h->sc_edge.ns;
	m->user_ns = part(&h->samples_user, 0, true);
	m->sc_paths_ns = part(&h->samples_kernel, 0, true) + part(&h->samples_sc_return, 0, true);
	m->oncpu_ns = m->user_ns + m->sc_paths_ns;
	m->sc_seen_ns = m->sc_ns + m->sc_edge_ns + m->sc_paths_ns;
	m->held_ns = held(h, 0);
	m->cont_held_ns = held(h, 1);
	m->waiter_ns_in_hold = held(h, 2);
}

static void print_syscalls(const struct fct_hold_lock *h)
{
	char buf[32];

	printf("  bpf syscalls in lock:");
	for (unsigned nr = 0; nr < FCT_NR_MAX; nr++)
		if (h->nr[nr].count)
			printf(" %s %llu (%.1f ms)", syscall_name(nr, buf, sizeof(buf)),
			       (unsigned long long)h->nr[nr].count, h->nr[nr].ns / 1e6);
	printf("\n");
}

static void print_lock(const struct fct_hold_lock *h, const struct truth *tr)
{
	struct measured m;
	double w = tr->wall_ns;

	measure(h, &m);
	printf("lock 0x%llx (tgid %u): %llu waits, waiters now %u, contended %.1f ms\n",
	       (unsigned long long)h->uaddr, h->tgid, (unsigned long long)h->waits, h->waiters,
	       h->contended_ns / 1e6);
	printf("  bpf held %.1f ms = syscalls %.1f (of which blocked %.1f, preempted %.1f)"
	       " + off CPU at their return %.1f + blocked %.1f + preempted %.1f"
	       " + on CPU %.1f (kernel paths %.1f, user %.1f; samples: %llu kernel,"
	       " %llu at a syscall's return, %llu user)\n",
	       m.held_ns / 1e6, m.sc_ns / 1e6, m.sc_blocked_ns / 1e6, m.sc_preempted_ns / 1e6,
	       m.sc_edge_ns / 1e6, m.blocked_ns / 1e6, m.preempted_ns / 1e6, m.oncpu_ns / 1e6,
	       m.sc_paths_ns / 1e6, m.user_ns / 1e6,
	       (unsigned long long)h->samples_kernel.ns,
	       (unsigned long long)h->samples_sc_return.ns, (unsigned long long)h->samples_user.ns);
	printf("  bpf held while others waited %.1f ms; waiters' time inside holds %.1f ms\n",
	       m.cont_held_ns / 1e6, m.waiter_ns_in_hold / 1e6);
	printf("  bpf in-lock syscalls %llu, unconfirmed %llu, samples inside them %llu,"
	       " nested %llu\n", (unsigned long long)h->sc_count,
	       (unsigned long long)h->sc_unconfirmed, (unsigned long long)h->samples_in_sc,
	       (unsigned long long)h->nested);
	print_syscalls(h);
	if (w > 0)
		printf("  held share of wall: bpf %.1f %%, program %.1f %%\n",
		       100 * m.held_ns / w, 100 * tr->held_ns / w);
	printf("  syscall share of the hold: bpf %.1f %% (tracepoint to tracepoint %.1f %%),"
	       " program %.1f %%\n", m.held_ns ? 100 * m.sc_seen_ns / m.held_ns : 0,
	       m.held_ns ? 100 * m.sc_ns / m.held_ns : 0,
	       tr->held_ns ? 100 * tr->sc_ns / tr->held_ns : 0);
	printf("  preempted share of the hold: bpf %.1f %%\n",
	       m.held_ns ? 100 * (m.preempted_ns + m.sc_preempted_ns) / m.held_ns : 0);
}

/* The checks --expect asks for; 0 when they pass. */
static int check(const char *expect, const struct fct_hold_lock *h, const struct truth *tr)
{
	struct measured m;
	double held_err, sc_bpf, sc_prog;
	int bad = 0;

	if (!strcmp(expect, "none"))
		return 0;
	if (!h) {
		printf("check: FAIL: no watched lock\n");
		return !strcmp(expect, "locked");
	}
	measure(h, &m);
	sc_bpf = m.held_ns ? 100 * m.sc_seen_ns / m.held_ns : 0;
	sc_prog = tr->held_ns ? 100 * tr->sc_ns / tr->held_ns : 0;
	if (!strcmp(expect, "fixed")) {
		bad = !(sc_bpf < 10);
		printf("check: syscall share of the hold %.1f %% < 10 %%: %s\n", sc_bpf,
		       bad ? "FAIL" : "ok");
		return bad;
	}
	held_err = tr->held_ns ? fabs(m.held_ns - tr->held_ns) / tr->held_ns : 1;
	bad |= held_err > 0.25;
	printf("check: held within 25 %%: %+.1f %%: %s\n",
	       100 * (m.held_ns - tr->held_ns) / tr->held_ns, held_err > 0.25 ? "FAIL" : "ok");
	bad |= fabs(sc_bpf - sc_prog) > 15;
	printf("check: syscall share within 15 points: %+.1f: %s\n", sc_bpf - sc_prog,
	       fabs(sc_bpf - sc_prog) > 15 ? "FAIL" : "ok");
	return bad;
}

/* The lock with the most time held, of the watched ones. */
static const struct fct_hold_lock *main_lock(const struct fct_hold_lock *h, int n)
{
	const struct fct_hold_lock *best = NULL;
	struct measured a, b;

	for (int i = 0; i < n; i++) {
		measure(&h[i], &a);
		if (best)
			measure(best, &b);
		if (!best || a.held_ns > b.held_ns || (a.held_ns == b.held_ns && h[i].waits > best->waits))
			best = &h[i];
	}
	return best;
}

/* With kernel.bpf_stats_enabled=1: each fctrace program's runs and
 * mean ns per run, from the kernel's own counters. */
static void print_prog_stats(void)
{
	__u32 id = 0;

	while (!bpf_prog_get_next_id(id, &id)) {
		struct bpf_prog_info info = { 0 };
		__u32 len = sizeof(info);
		int fd = bpf_prog_get_fd_by_id(id);

		if (fd < 0)
			continue;
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) && !strncmp(info.name, "fct_", 4) &&
		    info.run_cnt)
			printf("prog %-16s %10llu runs %7.1f ns/run\n", info.name,
			       (unsigned long long)info.run_cnt,
			       (double)info.run_time_ns / info.run_cnt);
		close(fd);
	}
}

static int run(const struct args *a)
{
	struct tracer_opts o = { .groups = a->groups, .target = TT_EXEC };
	static struct fct_hold_lock locks[FCT_HOLD_LOCKS];
	struct fct_hold_global g;
	struct tracer *t = NULL;
	struct truth tr = { 0 };
	struct kview kv = { 0 };
	int go, out, status, n, rc;
	pid_t pid = spawn(a->argv, &go, &out);

	if (pid < 0)
		return 2;
	o.tgid = pid;
	if (tracer_prepare(&t, &o, &kv)) {
		close(go);
		waitpid(pid, NULL, 0);
		return 2;
	}
	for (int i = 0; i < kv.nprobes; i++)
		if (kv.probes[i].group == PG_HOLDERS || kv.probes[i].state == PROBE_FAILED)
			fprintf(stderr, "probe %s: %s\n", kv.probes[i].name,
				probe_status_text(&kv.probes[i]));
	tracer_start(t);
	(void)!write(go, "g", 1);
	close(go);
	read_all(out, tr.json, sizeof(tr.json));
	waitpid(pid, &status, 0);
	tracer_stop(t);
	n = tracer_read_holds(t, locks, FCT_HOLD_LOCKS, &g);
	print_prog_stats();
	tracer_finish(t);
	kview_free(&kv);
	printf("program: %s", tr.json);
	tr.wall_ns = json_num(tr.json, "wall_ns");
	tr.held_ns = json_num(tr.json, "held_ns");
	tr.sc_ns = json_num(tr.json, "syscall_ns_in_lock");
	printf("watched %d, full %llu, unverified %llu, read faults %llu\n", n,
	       (unsigned long long)g.full, (unsigned long long)g.unverified,
	       (unsigned long long)g.read_faults);
	for (int i = 0; i < n; i++)
		print_lock(&locks[i], &tr);
	rc = check(a->expect, n > 0 ? main_lock(locks, n) : NULL, &tr);
	return rc;
}

int main(int argc, char **argv)
{
	struct args a = { 0 };

	if (parse_args(argc, argv, &a)) {
		fprintf(stderr, "usage: holdcheck [--probes SET] [--expect locked|fixed|none] "
			"-- PROG [ARGS...]\n");
		return 2;
	}
	return run(&a);
}
