/*
 * report_table.c - the terminal report of one run: tables under 100
 * columns, the Why wrapped at WHY_WIDTH (why.h).
 */
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "base/hist.h"
#include "base/places.h"
#include "base/sysnames.h"
#include "explain/roles.h"
#include "report/caches_print.h"
#include "report/cost_print.h"
#include "report/pools_print.h"
#include "report/waitroots_print.h"
#include "report/report.h"
#include "report/evictions_json.h"
#include "report/why.h"
#include "base/termsafe.h"
#include "base/units.h"

void report_describe(char *buf, size_t n, const struct session *s)
{
	const struct wl_config *c = &s->cfg;	/* a program's: zero */
	unsigned threads = s->target.mode == TGT_NONE ? c->threads : s->joined.nrows;
	const char *name = s->subject ? s->subject : "?";
	char extra[96] = "";

	if (!strncmp(name, "fcp", 3))
		snprintf(extra, sizeof(extra), ", pool %u", c->pool);
	else if (!strncmp(name, "bcache", 6))
		snprintf(extra, sizeof(extra), ", cache %llu MiB, block %llu",
			 (unsigned long long)(c->cache_size >> 20),
			 (unsigned long long)c->block);
	snprintf(buf, n, "%s, %u file%s%s, %u thread%s x %llu op%s, %s cache%s%s",
		 name, c->files, c->files == 1 ? "" : "s", extra, threads,
		 threads == 1 ? "" : "s", (unsigned long long)c->ops, c->ops == 1 ? "" : "s",
		 c->cache == WL_CACHE_COLD ? "cold" : "warm",
		 c->shared_file ? ", shared file" : "",
		 c->pressure > 0 ? ", page-cache pressure" : "");
}

/* The probe groups that were wanted but could not run, e.g. " pagecache". */
static void unavailable_groups(const struct kview *kv, char *buf, size_t len)
{
	unsigned missing = 0;
	size_t n = 0;

	for (int i = 0; i < kv->nprobes; i++)
		if (kv->probes[i].state == PROBE_FAILED &&
		    !(kv->groups & PG_MASK(kv->probes[i].group)))
			missing |= PG_MASK(kv->probes[i].group);
	buf[0] = '\0';
	for (int g = 0; g < PG_N && n < len; g++)
		if (missing & PG_MASK(g))
			n += (size_t)snprintf(buf + n, len - n, " %s", probe_group_name(g));
}

/* attach -p A,B, some ended: "A and B exited during the attach, C still
 * running" (the pid in the header is only the first listed). */
static bool some_ended(char *buf, size_t n, const struct target_info *ti)
{
	size_t len = 0;
	int ended = 0, i;

	for (i = 0; i < ti->npids; i++)
		ended += ti->ended[i];
	if (!ended || ended == ti->npids)
		return false;
	for (int pass = 0; pass < 2; pass++) {
		int k = 0;

		for (i = 0; i < ti->npids && len < n; i++)
			if (ti->ended[i] == !pass)
				len += (size_t)snprintf(buf + len, n - len, "%s%d", k++ ? "," : "",
							(int)ti->pids[i]);
		if (len < n)
			len += (size_t)snprintf(buf + len, n - len, "%s", pass ? " still running" :
						" exited during the attach, ");
	}
	return true;
}

/* How a program fctrace did not write ended, e.g. "exited 0". */
void report_target_end(char *buf, size_t n, const struct target_info *ti)
{
	if (some_ended(buf, n, ti))
		return;
	if (ti->term_signal)
		snprintf(buf, n, "killed by signal %d (%s)", ti->term_signal,
			 strsignal(ti->term_signal));
	else if (ti->exited && ti->mode == TGT_ATTACH)
		snprintf(buf, n, "exited during the attach");
	else if (ti->exited)
		snprintf(buf, n, "exited %d", ti->exit_status);
	else if (ti->mode == TGT_ATTACH)
		snprintf(buf, n, "still running");
	else
		snprintf(buf, n, "still running (fctrace stopped waiting)");
}

/* The processes the rows belong to (--follow, attach -p A,B). */
static unsigned nprocs(const struct joined_run *m)
{
	unsigned n = 0;

	for (unsigned i = 0; i < m->nrows; i++) {
		unsigned j = 0;

		while (j < i && m->rows[j].k.tgid != m->rows[i].k.tgid)
			j++;
		n += j == i;
	}
	return n;
}

static void print_target_header(FILE *f, const struct session *s)
{
	const struct joined_run *m = &s->joined;
	const struct target_info *ti = &s->target;
	char end[256], w[24], procs[32] = "";

	report_target_end(end, sizeof(end), ti);
	fprintf(f, "fctrace %s: %.*s%s (pid %d), %s\n", ti->mode == TGT_ATTACH ? "attach" : "run --",
		strlen(ti->cmdline) > 60 ? 57 : 60, ti->cmdline,
		strlen(ti->cmdline) > 60 ? "..." : "", (int)ti->pid, end);
	if (nprocs(m) > 1)
		snprintf(procs, sizeof(procs), " in %u processes", nprocs(m));
	fprintf(f, "window %s (%s), %u thread%s%s on %u CPU%s; probes: %s%s\n",
		units_ns(w, sizeof(w), (double)m->wall_ns),
		ti->mode == TGT_ATTACH ? "attach to detach" : "exec to exit", m->nrows,
		units_plural(m->nrows), procs, m->ncpus, units_plural(m->ncpus), m->probe_set,
		s->interrupted ? "  [INTERRUPTED: partial results]" : "");
}

static void print_header(FILE *f, const struct session *s)
{
	const struct joined_run *m = &s->joined;
	const struct subject_totals *t = &s->timings.totals;
	char d[200], a[24], b[24], c[24], missing[96];

	if (s->target.mode != TGT_NONE)
		print_target_header(f, s);
	else {
		report_describe(d, sizeof(d), s);
		fprintf(f, "fctrace run: %s\n", d);
	}
	unavailable_groups(&s->kv, missing, sizeof(missing));
	if (missing[0])
		fprintf(f, "unavailable here:%s (their probes failed: see Probes below); "
			"the rest ran\n", missing);
	if (s->target.mode != TGT_NONE)
		return;
	fprintf(f, "wall %s, %s ops, %s ops/s on %u CPU%s; probes: %s%s%s%s%s\n",
		units_ns(a, sizeof(a), (double)m->wall_ns), units_count(b, sizeof(b), (double)m->ops),
		units_count(c, sizeof(c), m->wall_ns ? m->ops * 1e9 / (double)m->wall_ns : 0),
		m->ncpus, m->ncpus == 1 ? "" : "s", m->probe_set ? m->probe_set : "none",
		probe_set_cost(m->probe_set) ? " (expected " : "",
		probe_set_cost(m->probe_set) ? probe_set_cost(m->probe_set) : "",
		probe_set_cost(m->probe_set) ? ")" : "",
		s->interrupted ? "\n  [INTERRUPTED: partial results]" : "");
	if (s->stopped)
		fprintf(f, "STOPPED: the run was stopped and continued (SIGCONT x%u): the stopped "
			"time counts as blocked\n  and any lock held then as held\n", s->stopped);
	if (t->has_pool || t->has_cache) {
		double gets = (double)(t->hits + t->misses);

		fprintf(f, "%s: %s hits (%s), %s misses, %s evictions",
			t->has_pool ? "pool" : "cache", units_count(a, sizeof(a), (double)t->hits),
			units_pct(b, sizeof(b), gets ? (double)t->hits / gets : 0),
			units_count(c, sizeof(c), (double)t->misses),
			units_count(d, sizeof(d), (double)t->evictions));
		if (t->has_pool)
			fprintf(f, ", max open %llu, over capacity %llu",
				(unsigned long long)t->max_open, (unsigned long long)t->over_capacity);
		fputc('\n', f);
	}
}

static void print_thread(FILE *f, const struct thread_row *r)
{
	uint64_t wall = r->end_ns - r->start_ns;
	char w[16], p50[16], p99[16], mx[16];

	fprintf(f, "%7d %8llu %9s", (int)r->tid, (unsigned long long)row_own(r)->ops,
		units_ns(w, sizeof(w), (double)wall));
	for (int b = 0; b < ACCT_N; b++)
		fprintf(f, " %5.1f", r->has_kernel && wall ? 100.0 * r->acct_ns[b] / wall : 0);
	fprintf(f, " %5.1f", r->has_kernel ? 100.0 * r->accounted_ratio : 0);
	fprintf(f, " %8s %8s %8s\n",
		units_ns(p50, sizeof(p50), (double)hist_percentile(row_own(r)->lat_hist, OWN_HIST_SLOTS, 0.5, row_own(r)->lat_max_ns)),
		units_ns(p99, sizeof(p99), (double)hist_percentile(row_own(r)->lat_hist, OWN_HIST_SLOTS, 0.99, row_own(r)->lat_max_ns)),
		units_ns(mx, sizeof(mx), (double)row_own(r)->lat_max_ns));
}

/* Other programs: each thread by name, no operations of its own. */
/* One thread of another program: the account with its sleeps in timers
 * and polls (idle, explain/roles.c) apart from the rest of block (I/O
 * and the like), and its role. */
static void print_target_thread(FILE *f, const struct thread_row *r, enum thread_role role)
{
	uint64_t wall = r->end_ns - r->start_ns, idle = r->idle_ns;
	char w[16];

	const char *name = r->name[0] ? r->name : r->k.comm[0] ? r->k.comm : "?";

	fprintf(f, "%7d %-15.15s %9s", (int)r->tid, name, units_ns(w, sizeof(w), (double)wall));
	for (int b = 0; b < ACCT_N; b++) {
		uint64_t ns = b == ACCT_BLOCKED ? r->acct_ns[b] - idle : r->acct_ns[b];

		fprintf(f, " %5.1f", wall ? 100.0 * ns / wall : 0);
		if (b == ACCT_BLOCKED)
			fprintf(f, " %5.1f", wall ? 100.0 * idle / wall : 0);
	}
	/* "busy" for saturated: the table keeps to 100 columns */
	fprintf(f, " %5.1f %-6s %s\n", 100.0 * r->accounted_ratio,
		role == ROLE_SATURATED ? "busy" : role_name(role),
		r->group ? r->group : r->k.how & FCT_HOW_ATTACH ? "attach" :
		r->k.how & FCT_HOW_EXEC ? "exec" : r->k.how & FCT_HOW_FORK ? "new" : "");
}

/* A JVM's threads: the application's first, then the JVM's own. */
static bool in_order(const struct thread_row *r, int pass)
{
	bool app = !r->group || !strcmp(r->group, "application");

	return pass == 0 ? app : !app;
}

/* A call site as the table shows it: the package left out
 * ("pkg.Class.method(File.java:12)" -> "Class.method(File.java:12)");
 * the JSON has it whole. */
static const char *short_site(const char *site)
{
	const char *paren = strchr(site, '('), *cls = NULL;
	int dots = 0;

	for (const char *c = paren ? paren : site + strlen(site); c > site && dots < 2; c--)
		if (c[-1] == '.' && ++dots == 2)
			cls = c;
	return cls ? cls : site;
}

/* A JVM lock's Java call sites, under it. */
static void print_sites(FILE *f, const struct joined_run *m, const struct lock_total *l)
{
	char w[32], tot[32], mean[32], share[32];

	for (int i = 0; i < l->nsites; i++) {
		const struct lock_site *s = &l->sites[i];

		fprintf(f, "  at %-43.43s %8s %9s %9s %9s %6s\n", short_site(s->site),
			units_count(w, sizeof(w), (double)s->waits),
			units_ns(tot, sizeof(tot), (double)s->wait_ns),
			units_ns(mean, sizeof(mean), s->waits ? (double)s->wait_ns / s->waits : 0),
			"-", units_pct(share, sizeof(share), m->thread_wall_total_ns ?
				       (double)s->wait_ns / m->thread_wall_total_ns : 0));
	}
}

/* The monitor flag, named: on, off, or unknown (never counted as on). */
static const char *monitor_state(const struct joined_run *m)
{
	static char agent[160];
	const char *flag = m->jvm_monitor_flag ? m->jvm_monitor_flag :
			   m->jvm_monitors ? "on" : "off";

	if (m->jvm_agent) {
		snprintf(agent, sizeof(agent), "%s; fctrace's agent named waits by Java call site "
			 "(stacks: first %u per top frame, then 1 in %u; parks sampled every %u ms)",
			 !strcmp(flag, "on") ? "on" : "off", m->jvm_agent_walks, m->jvm_agent_every,
			 m->jvm_agent_period_ms);
		return agent;
	}
	if (!strcmp(flag, "on"))
		return "on";
	if (!strcmp(flag, "off"))
		return "off (-XX:-DTraceMonitorProbes or not set: monitor waits not measured)";
	return "unknown (the flag could not be read while the JVM lived: monitor waits may be "
	       "missing)";
}

/* A JVM: its own threads' cost, and what HotSpot's probes counted. */
static void print_jvm(FILE *f, const struct joined_run *m)
{
	char cpu[16], gc[16], gcn[16], spn[16], sp[16], pk[16], pkn[16];

	fprintf(f, "\nJVM: %u application thread%s; %u of the JVM's own (GC, JIT, runtime), on "
		"CPU %s in all;\n%s GC pauses (%s), %s safepoints (%s), %s parks (%s); monitor "
		"probes %s\n", m->app_threads, m->app_threads == 1 ? "" : "s", m->aside_rows,
		units_ns(cpu, sizeof(cpu), (double)m->aside_cpu_ns),
		units_count(gcn, sizeof(gcn), (double)m->gcs), units_ns(gc, sizeof(gc), (double)m->gc_ns),
		units_count(spn, sizeof(spn), (double)m->safepoints),
		units_ns(sp, sizeof(sp), (double)m->safepoint_ns),
		units_count(pkn, sizeof(pkn), (double)m->parks),
		units_ns(pk, sizeof(pk), (double)m->park_ns),
		monitor_state(m));
}

/* Where the user/sys split came from, when it is not the sampler for all. */
static void print_cpu_split(FILE *f, const struct joined_run *m)
{
	const char *how = join_cpu_split(m);

	if (how && strcmp(how, "cpu-clock samples"))
		fprintf(f, "user/sys split: %s (%u of %u thread%s sampled at %d Hz; the others by "
			"time\n  inside syscalls, which leaves out their entry and exit, interrupts "
			"and page faults)\n", how, m->cpu_split_sampled, m->cpu_split_rows,
			units_plural(m->cpu_split_rows),
			FCT_CPUCLOCK_HZ);
}

/* Row i's role, as the explain stage found it. */
static enum thread_role role_of_row(const struct diagnosis *d, unsigned i)
{
	return i < d->nroles ? (enum thread_role)d->role[i] : ROLE_WORKS;
}

static void print_target_threads(FILE *f, const struct joined_run *m, const struct diagnosis *d)
{
	if (m->jvm)
		fprintf(f, "\nTime account per thread (%% of its window; acct = sum of the seven; Java "
			"names; the\napplication's threads first, then the JVM's own)\n");
	else
		fprintf(f, "\nTime account per thread (%% of its window; acct = sum of the seven; "
			"from = exec, new\nthread, or attach)\n");
	fprintf(f, "block: asleep outside futex waits (I/O, pipes, sockets, faults); idle: asleep "
		"in timers and\npolls (epoll_wait, nanosleep, poll, select, wait4 ...); runq: "
		"runnable outside futex waits\n(runnable after a futex wake-up counts in lock or "
		"futex); role: works, busy (saturated: on CPU\nor runnable half its window), or only "
		"waited (joins, idle, sleeps, parked: left out of\nthe Why's shares)\n");
	print_cpu_split(f, m);
	fprintf(f, "%7s %-15s %9s %5s %5s %5s %5s %5s %5s %5s %5s %-6s %s\n", "tid", "name",
		"window", "user", "sys", "lock", "futex", "block", "idle", "runq", "acct", "role",
		m->jvm ? "group" : "from");
	for (int pass = 0; pass < 2; pass++)
		for (unsigned i = 0; i < m->nrows; i++)
			if (in_order(&m->rows[i], pass))
				print_target_thread(f, &m->rows[i], role_of_row(d, i));
	if (m->jvm)
		print_jvm(f, m);
}

static void print_threads(FILE *f, const struct joined_run *m, const struct diagnosis *d)
{
	if (m->names) {	/* a program fctrace did not write */
		print_target_threads(f, m, d);
		return;
	}
	fprintf(f, "\nTime account per thread (%% of its wall time; acct = sum of the six)\n");
	print_cpu_split(f, m);
	fprintf(f, "%7s %8s %9s %5s %5s %5s %5s %5s %5s %5s %8s %8s %8s\n",
		"tid", "ops", "wall", "user", "sys", "lock", "futex", "block", "runq",
		"acct", "p50", "p99", "max");
	for (unsigned i = 0; i < m->nrows; i++)
		print_thread(f, &m->rows[i]);
}

static void print_syscalls(FILE *f, const struct joined_run *m)
{
	char c[16], tot[16], mean[16], mn[16], mx[16], p99[16];

	fprintf(f, "\nSyscalls (all threads; counts exact, times from the calls timed: each thread's\n"
		"first %d of each number, then 1 in %u, and every futex call)\n"
		"%-11s %9s %7s %9s %9s %9s %9s %9s\n", FCT_SC_WARMUP, m->time_every,
		"syscall", "count", "errors", "total", "mean", "min", "p99", "max");
	for (int s = 0; s < SC_ROW_N; s++) {
		const struct sc_stats *st = &m->sc_total[s];

		if (!st->count)
			continue;
		fprintf(f, "%-11s %9s %7llu %9s %9s %9s %9s %9s\n", sc_row_name(s),
			units_count(c, sizeof(c), (double)st->count), (unsigned long long)st->errors,
			units_ns(tot, sizeof(tot), (double)st->total_ns),
			units_ns(mean, sizeof(mean), (double)st->total_ns / st->count),
			units_ns(mn, sizeof(mn), (double)st->min_ns),
			units_ns(p99, sizeof(p99), (double)hist32_percentile(st->hist, FCT_HIST_SLOTS, 0.99, st->max_ns)),
			units_ns(mx, sizeof(mx), (double)st->max_ns));
	}
}

/* Calls rank by their time (the sleep inside an untimed one is exact),
 * then by their count. */
static double nr_rank(const struct sc_stats *s)
{
	uint64_t t = s->total_ns > s->blocked_ns ? s->total_ns : s->blocked_ns;

	return (double)t + (double)s->count * 1e-9;
}

/* Other programs: the calls they made most, by number, with the time
 * they slept inside each (outside futex waits). */
static void print_syscalls_by_nr(FILE *f, const struct joined_run *m)
{
	bool shown[FCT_NR_MAX] = { false };
	char nb[24], c[16], tot[16], mean[16], slept[16];

	fprintf(f, "\nSyscalls by number (the 12 with the most time; times from the calls timed; asleep =\n"
		"inside it, not in a futex wait: exact)\n%-18s %9s %9s %9s %9s\n", "syscall",
		"count", "total", "mean", "asleep");
	for (int k = 0; k < 12; k++) {
		int best = -1;

		for (int n = 0; n < FCT_NR_MAX; n++)
			if (!shown[n] && m->nr_total[n].count &&
			    (best < 0 || nr_rank(&m->nr_total[n]) > nr_rank(&m->nr_total[best])))
				best = n;
		if (best < 0)
			break;
		shown[best] = true;
		fprintf(f, "%-18.18s %9s %9s %9s %9s\n", syscall_name((unsigned)best, nb, sizeof(nb)),
			units_count(c, sizeof(c), (double)m->nr_total[best].count),
			units_ns(tot, sizeof(tot), (double)m->nr_total[best].total_ns),
			units_ns(mean, sizeof(mean), (double)m->nr_total[best].total_ns /
				 (double)m->nr_total[best].count),
			units_ns(slept, sizeof(slept), (double)m->nr_total[best].blocked_ns));
	}
}

/* The locks longest total wait first, ties by place (places_sorted: one
 * sort, as a target may have 10 000 futex words). */
static int by_wait_desc(const void *a, const void *b, void *arg)
{
	const struct lock_total *l = arg;
	int i = *(const int *)a, j = *(const int *)b;

	if (l[i].wait_ns != l[j].wait_ns)
		return l[i].wait_ns < l[j].wait_ns ? 1 : -1;
	return (i > j) - (i < j);
}

/* Kernel lock sites below this share of thread time are not printed
 * (the JSON has them all): a run's tens of scheduler spinlocks at
 * 0.00 % would push the locks that matter off the screen. */
#define TABLE_KLOCK_MIN_SHARE	0.0005
/* Past this many rows the rest are one line: 10 000 futex words of a
 * server would bury the summary under them (the JSON has them all). */
#define TABLE_LOCKS_MAX		40

static double lock_share(const struct joined_run *m, const struct lock_total *l)
{
	return m->thread_wall_total_ns ? (double)l->wait_ns / m->thread_wall_total_ns : 0;
}

static void print_locks(FILE *f, const struct joined_run *m)
{
	char w[16], tot[16], mean[16], mx[16], share[16];
	int hidden = 0, rows = 0, more = 0, *order;
	uint64_t more_ns = 0;

	if (!m->nlocks) {
		fprintf(f, "\nLocks: no lock waits, in user space or in the kernel\n");
		return;
	}
	fprintf(f, "\nLock waits (share = of all %sthread time)\n%-48s %8s %9s %9s %9s %6s\n",
		m->jvm ? "application " : "",
		"lock", "waits", "total", "mean", "max", "share");
	order = places_sorted(m->nlocks, m->locks, by_wait_desc);
	for (int k = 0; k < m->nlocks; k++) {
		const struct lock_total *l = &m->locks[order ? order[k] : k];

		if (l->kernel && lock_share(m, l) < TABLE_KLOCK_MIN_SHARE) {
			hidden++;
			continue;
		}
		if (rows == TABLE_LOCKS_MAX) {
			more++;
			more_ns += l->wait_ns;
			continue;
		}
		rows++;
		fprintf(f, "%-48.48s %8s %9s %9s %9s %6s\n", l->name,
			units_count(w, sizeof(w), (double)l->waits),
			units_ns(tot, sizeof(tot), (double)l->wait_ns),
			units_ns(mean, sizeof(mean), l->waits ? (double)l->wait_ns / l->waits : 0),
			units_ns(mx, sizeof(mx), (double)l->max_ns),
			units_pct(share, sizeof(share), lock_share(m, l)));
		print_sites(f, m, l);
	}
	free(order);
	if (more)
		fprintf(f, "(%d more lock%s, %s of waits in all, %s of thread time; the JSON has "
			"them)\n", more, more == 1 ? "" : "s", units_ns(tot, sizeof(tot), (double)more_ns),
			units_pct(share, sizeof(share), m->thread_wall_total_ns ?
				  (double)more_ns / m->thread_wall_total_ns : 0));
	if (hidden)
		fprintf(f, "(%d kernel lock site%s below %.2f %% of thread time not shown; the JSON "
			"has them)\n", hidden, hidden == 1 ? "" : "s", 100 * TABLE_KLOCK_MIN_SHARE);
	if (m->klock_exact_ns)
		fprintf(f, "kernel lock sites: each thread's exact wait split over its sites by its "
			"sampled stacks\n"
			"  (the samples alone estimated %.1f %% of the exact %s)\n",
			100.0 * m->klock_est_ns / m->klock_exact_ns,
			units_ns(tot, sizeof(tot), (double)m->klock_exact_ns));
}

/* "openat 26.4 k, newfstatat 26.4 k, close 26.4 k" */
static void holder_calls(char *buf, size_t n, const struct lock_holders *h, int max)
{
	char name[32], c[16];
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < h->nnr && i < max && len < n; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s%s %s", i ? ", " : "",
					syscall_name(h->nr[i].nr, name, sizeof(name)),
					units_count(c, sizeof(c), (double)h->nr[i].count));
}

/* The waiters' time the holders' states saw, or the futex waits' own
 * total where that is more: the shares' denominator. Where the states saw
 * more (MariaDB's io_uring mutex: 26 % more; why is not yet known), the
 * shares are of what they saw, which sums to 100 %, and say so. */
static double waited_seen(const struct lock_holders *h)
{
	double seen = 0;

	for (int s = 0; s < HS_N; s++)
		seen += h->waited_ns[s];
	return seen > h->waiter_ns * 1.01 ? seen : h->waiter_ns;
}

static void print_waited(FILE *f, const struct lock_holders *h)
{
	char st[HS_N][16], ho[16];
	double of = waited_seen(h);

	for (int s = 0; s < HS_N; s++)
		units_pct(st[s], sizeof(st[s]), of ? h->waited_ns[s] / of : 0);
	if (of > h->waiter_ns)
		snprintf(ho, sizeof(ho), "-");
	else
		units_pct(ho, sizeof(ho), of ? holders_handoff_ns(h) / of : 0);
	fprintf(f, "%-32s %9s %6s %7s %7s %7s %7s %7s %7s\n", "  while others waited", "", "",
		st[HS_SYSCALL], st[HS_BLOCKED], st[HS_PREEMPTED], st[HS_USER], st[HS_WAITING], ho);
	if (of > h->waiter_ns)
		fprintf(f, "  (the holders' states saw %s more waiters' time than the futex waits "
			"on it; these\n  shares are of what they saw, which sums to 100 %%, and the "
			"hand-off is not known)\n", units_pct(ho, sizeof(ho), of / h->waiter_ns - 1));
}

/* What each watched lock's holders did while holding it, and while
 * others waited (join/holders.h). */
static void print_holders(FILE *f, const struct joined_run *m)
{
	char held[16], busy[16], st[HS_N][16], calls[200], line[300];
	uint64_t samples = 0;
	bool any = false;

	for (int k = 0; k < m->nlocks; k++) {
		const struct lock_total *l = &m->locks[k];
		const struct lock_holders *h = &l->holders;

		if (!h->measured || (h->held_ns <= 0 && !h->syscalls))
			continue;	/* watched, never held in the window */
		if (!any)
			fprintf(f, "\nLock holders (while holding; %% of the time held, then of the "
				"waiters' time)\n%-32s %9s %6s %7s %7s %7s %7s %7s %7s\n", "lock",
				"held", "busy", "syscall", "blocked", "preempt", "user", "waiting",
				"handoff");
		any = true;
		for (int s = 0; s < HS_N; s++)
			units_pct(st[s], sizeof(st[s]), h->held_ns ? h->state_ns[s] / h->held_ns : 0);
		fprintf(f, "%-32.32s %9s %6s %7s %7s %7s %7s %7s %7s\n", l->name,
			units_ns(held, sizeof(held), h->held_ns),
			units_pct(busy, sizeof(busy), m->wall_ns ? h->held_ns / m->wall_ns : 0),
			st[HS_SYSCALL], st[HS_BLOCKED], st[HS_PREEMPTED], st[HS_USER], st[HS_WAITING], "");
		print_waited(f, h);
		samples += h->samples;
		holder_calls(calls, sizeof(calls), h, 6);
		snprintf(line, sizeof(line), "%s syscalls made holding it%s%s",
			 units_count(held, sizeof(held), (double)h->syscalls), h->nnr ? ": " : "",
			 calls);
		why_wrap(f, "  ", line);
	}
	if (any)
		fprintf(f, "held: syscalls and time off CPU exact (the owner field read at the "
			"holder's state\n  edges); on CPU outside syscalls from %llu cpu-clock "
			"samples at %d Hz\n", (unsigned long long)samples, FCT_CPUCLOCK_HZ);
}

/* The threads' own clocks: what every run has, traced or not. */
static void print_own_clocks(FILE *f, const struct joined_run *m)
{
	char w[16], lw[16], lh[16], rd[16], lk[16], mr[16], p50[16], p99[16];

	fprintf(f, "\nThreads' own clocks (summed per thread)\n%7s %8s %9s %9s %9s %9s %9s %9s %7s %7s\n",
		"tid", "ops", "wall", "lock wait", "lock hold", "read", "lookup", "miss rd",
		"p50", "p99");
	for (unsigned i = 0; i < m->nrows; i++) {
		const struct thread_row *r = &m->rows[i];
		const struct thread_timings *u = row_own(r);

		fprintf(f, "%7d %8llu %9s %9s %9s %9s %9s %9s %7s %7s\n", (int)r->tid,
			(unsigned long long)u->ops,
			units_ns(w, sizeof(w), (double)(r->end_ns - r->start_ns)),
			units_ns(lw, sizeof(lw), (double)u->lock_wait_ns),
			units_ns(lh, sizeof(lh), (double)u->lock_hold_ns),
			units_ns(rd, sizeof(rd), (double)u->read_ns),
			units_ns(lk, sizeof(lk), (double)u->lookup_ns),
			units_ns(mr, sizeof(mr), (double)u->miss_read_ns),
			units_ns(p50, sizeof(p50), (double)hist_percentile(u->lat_hist, OWN_HIST_SLOTS, 0.5, u->lat_max_ns)),
			units_ns(p99, sizeof(p99), (double)hist_percentile(u->lat_hist, OWN_HIST_SLOTS, 0.99, u->lat_max_ns)));
	}
}

void report_pagecache_text(char *buf, size_t len, const struct joined_run *m)
{
	char a[16], h[16], ms[16], w[16], p[16];
	int n;

	units_count(ms, sizeof(ms), (double)m->pagecache_misses);
	if (!(m->groups & PG_MASK(PG_SYSCALLS))) {
		snprintf(buf, len, "%s page%s added by the threads (misses, readahead included); "
			 "hits and writes need the syscalls probe", ms,
			 m->pagecache_misses == 1 ? "" : "s");
		return;
	}
	n = snprintf(buf, len, "%s page%s read into it (misses, readahead included)", ms,
		     m->pagecache_misses == 1 ? "" : "s");
	if (m->pages_asked && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - n, "; pread64 asked for %s, %s hits (%s)",
			      units_count(a, sizeof(a), (double)m->pages_asked),
			      units_count(h, sizeof(h), (double)m->pagecache_hits),
			      units_pct(p, sizeof(p), (double)m->pagecache_hits / m->pages_asked));
	if (m->pages_direct && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - n, "; pread64 read %s pages past it (files open "
			      "O_DIRECT: disk reads, not hits)",
			      units_count(a, sizeof(a), (double)m->pages_direct));
	if (m->pagecache_written && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - n, "; %s added by writes (new data, not misses)",
			 units_count(w, sizeof(w), (double)m->pagecache_written));
}

/* "Disk: the program 48 reads (192 KiB, p50 ...); vda busy 12 % ...". */
void report_disk_text(char *buf, size_t len, const struct disk_run *d)
{
	char a[16], b[16], c[16], e[16], g[16], h[16], k[16];
	int n;

	n = snprintf(buf, len, "the program %s read%s (%s, %s at p50, %s at p99), %s write%s (%s), "
		     "%s flush%s", units_count(a, sizeof(a), (double)d->reads),
		     d->reads == 1 ? "" : "s", units_bytes(b, sizeof(b), (double)d->read_bytes),
		     units_ns(c, sizeof(c), (double)d->read_p50_ns),
		     units_ns(e, sizeof(e), (double)d->read_p99_ns),
		     units_count(g, sizeof(g), (double)d->writes), d->writes == 1 ? "" : "s",
		     units_bytes(h, sizeof(h), (double)d->write_bytes),
		     units_count(k, sizeof(k), (double)d->flushes), d->flushes == 1 ? "" : "es");
	for (int i = 0; i < d->ndevs && i < 3 && n >= 0 && (size_t)n < len; i++) {
		const struct disk_dev_row *v = &d->dev[i];

		n += snprintf(buf + n, len - (size_t)n, "; %s busy %s, %.1f in flight, %s reads "
			      "and %s writes by all%s", v->name,
			      units_pct(a, sizeof(a), d->window_ns ?
					(double)v->busy_ns / (double)d->window_ns : 0),
			      disk_queue_depth(d, v), units_count(b, sizeof(b), (double)v->reads),
			      units_count(c, sizeof(c), (double)v->writes),
			      v->from_diskstats ? " (diskstats)" : "");
	}
	if (d->lost && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "; %s requests not followed (tables full)",
			 units_count(a, sizeof(a), (double)d->lost));
}

/* "pid 812's ring: 24 reads (96 KiB, 114.5 µs each), 0 writes, 2 others;
 * 3 by an iou-wrk worker" */
static void print_rings(FILE *f, const struct disk_run *d)
{
	for (int i = 0; i < d->nrings; i++) {
		const struct disk_ring *r = &d->ring[i];
		char line[400], a[16], b[16], c[16], e[16], g[16], h[16], k[16], p[16], q[16];
		double rd = (double)r->completed[FCT_URING_READ];
		double wr = (double)r->completed[FCT_URING_WRITE];

		snprintf(line, sizeof(line), "pid %u's ring %u: %s reads (%s, %s each), %s writes "
			 "(%s, %s each), %s others; %s punted to an iou-wrk worker, %s errors",
			 r->pid, r->ring, units_count(a, sizeof(a), rd),
			 units_bytes(b, sizeof(b), (double)r->bytes[FCT_URING_READ]),
			 units_ns(c, sizeof(c), rd > 0 ? (double)r->lat_ns[FCT_URING_READ] / rd : 0),
			 units_count(e, sizeof(e), wr),
			 units_bytes(g, sizeof(g), (double)r->bytes[FCT_URING_WRITE]),
			 units_ns(h, sizeof(h), wr > 0 ? (double)r->lat_ns[FCT_URING_WRITE] / wr : 0),
			 units_count(k, sizeof(k), (double)r->completed[FCT_URING_OTHER]),
			 units_count(p, sizeof(p), (double)r->async),
			 units_count(q, sizeof(q), (double)r->errors));
		why_wrap(f, "io_uring: ", line);
	}
}

static void print_disk(FILE *f, const struct joined_run *m)
{
	char line[600];

	if (!m->disk.on)
		return;
	report_disk_text(line, sizeof(line), &m->disk);
	why_wrap(f, "Disk: ", line);
	print_rings(f, &m->disk);
}

/* pc-evict: the misses split, and the removers that removed most. */
static void print_evictions(FILE *f, const struct pc_evictions *e)
{
	char line[600], a[24], b[24], c[24];
	int n;

	/* nothing missed and nothing removed: the Page cache line said it all */
	if (!e->on || (!e->reread_pages && !e->first_pages && !e->removed_pages))
		return;
	n = snprintf(line, sizeof(line), "%s re-read after a removal in the window, %s first "
		     "reads; %s pages of its files removed",
		     units_count(a, sizeof(a), (double)e->reread_pages),
		     units_count(b, sizeof(b), (double)e->first_pages),
		     units_count(c, sizeof(c), (double)e->removed_pages));
	for (int i = 0; i < e->n && i < 4 && n >= 0 && (size_t)n < sizeof(line); i++)
		n += snprintf(line + n, sizeof(line) - (size_t)n, "%s %s (pid %u%s) %s %s, %s "
			      "re-read", i ? ";" : ":", e->e[i].comm, e->e[i].pid,
			      e->e[i].target ? ", the program" : "", evict_how_json(e->e[i].how),
			      units_count(a, sizeof(a), (double)e->e[i].pages),
			      units_count(b, sizeof(b), (double)e->e[i].reread_pages));
	why_wrap(f, "Misses: ", line);
}

static void print_pagecache(FILE *f, const struct joined_run *m)
{
	char line[320];

	if (!(m->groups & PG_MASK(PG_PAGECACHE)))
		return;
	report_pagecache_text(line, sizeof(line), m);
	fputc('\n', f);
	why_wrap(f, "Page cache: ", line);
	print_evictions(f, &m->evictions);
}

/* The Timeline line: the window recorded (0: it never opened), its
 * records and lanes, and what was lost (target 0). */
static void timeline_line(FILE *f, uint64_t window_ns, uint64_t events, uint64_t lanes,
			  const struct kv_timeline *kt)
{
	char w[16], r[16], b[16];

	if (!window_ns) {
		fprintf(f, "Timeline: the run ended before its window opened (lost %llu); "
			"try a smaller --timeline-start\n", (unsigned long long)kt->dropped);
		return;
	}
	fprintf(f, "Timeline: %s window, %s records of %llu thread%s, lost %llu (ring buffer %s)\n",
		units_ns(w, sizeof(w), (double)window_ns), units_count(r, sizeof(r), (double)events),
		(unsigned long long)lanes, units_plural((double)lanes), (unsigned long long)kt->dropped,
		units_bytes(b, sizeof(b), (double)kt->ring_bytes));
	if (kt->asked_ns > window_ns)
		fprintf(f, "  (of the %s asked for: the run ended first)\n",
			units_ns(w, sizeof(w), (double)kt->asked_ns));
}

static uint64_t saved_u64(const struct session *s, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(s->saved_timeline, key, &v) ?
	       (uint64_t)json_object_get_uint64(v) : 0;
}

/* --timeline: the run's own, or a saved run's from the summary its file
 * kept (the lanes are in --timeline-out's trace, not in the JSON). */
static void print_timeline(FILE *f, const struct session *s)
{
	const struct timeline *tl = s->timeline;

	if (tl)
		timeline_line(f, tl->end_ns - tl->begin_ns, tl->events, (uint64_t)tl->nthreads,
			      &s->kv.tl);
	else if (s->saved_timeline)
		timeline_line(f, saved_u64(s, "window_ns"), saved_u64(s, "events"),
			      saved_u64(s, "threads"), &s->kv.tl);
	else
		timeline_line(f, 0, 0, 0, &s->kv.tl);
}

static void print_probes(FILE *f, const struct session *s)
{
	const struct fct_lost *l = &s->kv.lost;
	char t[16];
	int failed = 0, attached = 0;

	for (int i = 0; i < s->kv.nprobes; i++) {
		attached += s->kv.probes[i].state == PROBE_OK;
		failed += s->kv.probes[i].state == PROBE_FAILED;
	}
	fprintf(f, "\nProbes: %s set, %d attached, %d failed, loaded in %s\n  lost: slots %llu, "
		"maps %llu, stacks %llu; runs the kernel skipped %llu\n",
		s->joined.probe_set ? s->joined.probe_set : "none", attached, failed,
		units_ns(t, sizeof(t), (double)s->prepare_ns),
		(unsigned long long)l->slot_full,
		(unsigned long long)(l->futex_map_full + l->klock_map_full + l->pc_map_full +
				     l->jvm_threads_full + l->jvm_monitors_full + l->tgids_full +
				     l->pc_evict_full + l->sc_hist_full + l->wake_after_full +
				     l->pool_full + l->nr_spill_full),
		(unsigned long long)l->stack_lost, (unsigned long long)l->hooks_skipped);
	cost_print(f, &s->kv);
	if (s->joined.pools)
		fprintf(f, "  pools of N: measured inside tp_btf/sys_enter and sys_exit\n");
	if (s->kv.tl.on)
		print_timeline(f, s);
	for (int i = 0; i < s->kv.nprobes; i++)
		if (s->kv.probes[i].state == PROBE_FAILED)
			fprintf(f, "  %s: %s\n", s->kv.probes[i].name,
				probe_status_text(&s->kv.probes[i]));
		else if (s->kv.probes[i].skipped)
			fprintf(f, "  %s: %llu runs skipped (hit again inside itself, from an "
				"interrupt)\n", s->kv.probes[i].name,
				(unsigned long long)s->kv.probes[i].skipped);
}

/* How the futex words of another program were named. */
static void print_stacks(FILE *f, const struct session *s)
{
	const struct target_info *ti = &s->target;

	fprintf(f, "\nLock names: %d futex word%s; %llu wait stacks sampled (each word's first %d "
		"waits per\nthread, then 1 in %d), %llu unwound to a call site outside the C "
		"library, %llu dropped\n", s->nnames, s->nnames == 1 ? "" : "s",
		(unsigned long long)ti->stacks_received, FCT_USTACK_WARMUP, FCT_USTACK_EVERY,
		(unsigned long long)ti->stacks_unwound, (unsigned long long)s->kv.lost.ustack_drops);
	if (ti->stacks_dropped || ti->words_unnamed)
		fprintf(f, "  out of time (each step is bounded): %llu stacks not unwound, %llu words "
			"named by address only\n", (unsigned long long)ti->stacks_dropped,
			(unsigned long long)ti->words_unnamed);
	if (ti->unsymbolised[0])
		fprintf(f, "  not symbolised (named object@offset): %s\n", ti->unsymbolised);
}

/* What the probes lost, before any figure it touches is read. */
static void print_losses(FILE *f, const struct joined_run *m)
{
	char text[sizeof(m->losses.l[0].says) + 400];

	for (int i = 0; i < m->losses.n; i++) {
		const struct loss *l = &m->losses.l[i];
		size_t n = (size_t)snprintf(text, sizeof(text), "%s", l->says);

		for (int k = 0; k < l->ntouches && n < sizeof(text); k++)
			n += (size_t)snprintf(text + n, sizeof(text) - n, "%s%s",
					      k ? ", " : " [touches: ", l->touches[k]);
		if (l->ntouches && n < sizeof(text))
			snprintf(text + n, sizeof(text) - n, "]");
		why_wrap(f, "LOST: ", text);
	}
}

static void print_table(FILE *f, const struct session *s)
{
	const struct joined_run *m = &s->joined;

	print_header(f, s);
	print_losses(f, m);
	if (s->traced) {
		print_threads(f, m, &s->diag);
		if (m->groups & PG_MASK(PG_SYSCALLS))
			print_syscalls(f, m);
		if ((m->groups & PG_MASK(PG_SYSCALLS)) && m->names)
			print_syscalls_by_nr(f, m);
		print_locks(f, m);
		print_holders(f, m);
		wait_roots_print(f, m);
		pools_print(f, m);
		caches_print(f, m);
		print_pagecache(f, m);
		print_disk(f, m);
	}
	if (s->target.mode == TGT_NONE)
		print_own_clocks(f, m);
	else
		print_stacks(f, s);
	if (s->traced)
		print_probes(f, s);
	else
		fprintf(f, "\nTiming only (--no-bpf): no kernel view\n");
	fputc('\n', f);
	why_print(f, &s->diag);
}

/* Through term_stream: thread names, lock names and symbols, the command
 * line and a saved file's strings are the target's, not the terminal's. */
void report_table(FILE *out, const struct session *s)
{
	FILE *f = term_stream(out);

	if (!f) {
		fputs("fctrace: out of memory printing the report\n", stderr);
		return;
	}
	print_table(f, s);
	fclose(f);
}
