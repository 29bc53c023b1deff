/*
 * report_table.c - the terminal report of one run, at most 100 columns.
 */
#include <string.h>
#include "hist.h"
#include "report.h"
#include "units.h"

void report_describe(char *buf, size_t n, const struct wl_config *c)
{
	char extra[96] = "";
	const char *name = c->workload;

	if (!strncmp(name, "fcp", 3))
		snprintf(extra, sizeof(extra), ", pool %u", c->pool);
	else if (!strncmp(name, "bcache", 6))
		snprintf(extra, sizeof(extra), ", cache %llu MiB, block %llu",
			 (unsigned long long)(c->cache_size >> 20),
			 (unsigned long long)c->block);
	snprintf(buf, n, "%s, %u files%s, %u threads x %llu ops, %s cache%s%s",
		 name, c->files, extra, c->threads, (unsigned long long)c->ops,
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
		if (!kv->probes[i].ok && strcmp(kv->probes[i].reason, "not selected") &&
		    !(kv->groups & PG_MASK(kv->probes[i].group)))
			missing |= PG_MASK(kv->probes[i].group);
	buf[0] = '\0';
	for (int g = 0; g < PG_N && n < len; g++)
		if (missing & PG_MASK(g))
			n += (size_t)snprintf(buf + n, len - n, " %s", probe_group_name(g));
}

static void print_header(FILE *f, const struct session *s)
{
	const struct run_model *m = &s->model;
	const struct wl_totals *t = &s->res.totals;
	char d[200], a[24], b[24], c[24], missing[96];

	report_describe(d, sizeof(d), &s->cfg);
	fprintf(f, "fctrace run: %s\n", d);
	unavailable_groups(&s->kv, missing, sizeof(missing));
	if (missing[0])
		fprintf(f, "unavailable here:%s (their probes failed: see Probes below); "
			"the rest ran\n", missing);
	fprintf(f, "wall %s, %s ops, %s ops/s on %u CPUs; probes: %s%s%s%s%s\n",
		units_ns(a, sizeof(a), (double)m->wall_ns), units_count(b, sizeof(b), (double)m->ops),
		units_count(c, sizeof(c), m->wall_ns ? m->ops * 1e9 / (double)m->wall_ns : 0),
		m->ncpus, m->probe_set, probe_set_cost(m->probe_set) ? " (expected " : "",
		probe_set_cost(m->probe_set) ? probe_set_cost(m->probe_set) : "",
		probe_set_cost(m->probe_set) ? ")" : "",
		s->res.interrupted ? "\n  [INTERRUPTED: partial results]" : "");
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
	uint64_t wall = r->user.end_ns - r->user.start_ns;
	char w[16], p50[16], p99[16], mx[16];

	fprintf(f, "%7d %8llu %9s", (int)r->user.tid, (unsigned long long)r->user.ops,
		units_ns(w, sizeof(w), (double)wall));
	for (int b = 0; b < ACCT_N; b++)
		fprintf(f, " %5.1f", r->has_kernel && wall ? 100.0 * r->acct_ns[b] / wall : 0);
	fprintf(f, " %5.1f", r->has_kernel ? 100.0 * r->accounted_ratio : 0);
	fprintf(f, " %8s %8s %8s\n",
		units_ns(p50, sizeof(p50), (double)hist_percentile(r->user.lat_hist, WL_HIST_SLOTS, 0.5, r->user.lat_max_ns)),
		units_ns(p99, sizeof(p99), (double)hist_percentile(r->user.lat_hist, WL_HIST_SLOTS, 0.99, r->user.lat_max_ns)),
		units_ns(mx, sizeof(mx), (double)r->user.lat_max_ns));
}

static void print_threads(FILE *f, const struct run_model *m)
{
	fprintf(f, "\nTime account per thread (%% of its wall time; acct = sum of the six)\n");
	fprintf(f, "%7s %8s %9s %5s %5s %5s %5s %5s %5s %5s %8s %8s %8s\n",
		"tid", "ops", "wall", "user", "sys", "lock", "futex", "block", "runq",
		"acct", "p50", "p99", "max");
	for (unsigned i = 0; i < m->nrows; i++)
		print_thread(f, &m->rows[i]);
}

static void print_syscalls(FILE *f, const struct run_model *m)
{
	char c[16], tot[16], mean[16], mn[16], mx[16], p99[16];

	fprintf(f, "\nSyscalls (all workers; counts exact, times from the calls timed: each thread's\n"
		"first %d of a kind, then 1 in %u, and every futex call)\n"
		"%-11s %9s %7s %9s %9s %9s %9s %9s\n", FCT_SC_WARMUP, m->time_every,
		"syscall", "count", "errors", "total", "mean", "min", "p99", "max");
	for (int s = 0; s < FCT_SC_N; s++) {
		const struct fct_sc_stats *st = &m->sc_total[s];

		if (!st->count)
			continue;
		fprintf(f, "%-11s %9s %7llu %9s %9s %9s %9s %9s\n", sc_name(s),
			units_count(c, sizeof(c), (double)st->count), (unsigned long long)st->errors,
			units_ns(tot, sizeof(tot), (double)st->total_ns),
			units_ns(mean, sizeof(mean), (double)st->total_ns / st->count),
			units_ns(mn, sizeof(mn), (double)st->min_ns),
			units_ns(p99, sizeof(p99), (double)hist32_percentile(st->hist, FCT_HIST_SLOTS, 0.99, st->max_ns)),
			units_ns(mx, sizeof(mx), (double)st->max_ns));
	}
}

static void print_locks(FILE *f, const struct run_model *m)
{
	char w[16], tot[16], mean[16], mx[16], share[16];

	if (!m->nlocks) {
		fprintf(f, "\nLocks: no waits on the workload's locks or in the kernel\n");
		return;
	}
	fprintf(f, "\nLock waits (share = of all worker wall time)\n%-40s %9s %9s %9s %9s %7s\n",
		"lock", "waits", "total", "mean", "max", "share");
	for (int i = 0; i < m->nlocks; i++) {
		const struct lock_total *l = &m->locks[i];

		fprintf(f, "%-40.40s %9s %9s %9s %9s %7s\n", l->name,
			units_count(w, sizeof(w), (double)l->waits),
			units_ns(tot, sizeof(tot), (double)l->wait_ns),
			units_ns(mean, sizeof(mean), l->waits ? (double)l->wait_ns / l->waits : 0),
			units_ns(mx, sizeof(mx), (double)l->max_ns),
			units_pct(share, sizeof(share), m->thread_wall_total_ns ?
				  (double)l->wait_ns / m->thread_wall_total_ns : 0));
	}
}

/* The threads' own clocks: what every run has, traced or not. */
static void print_own_clocks(FILE *f, const struct run_model *m)
{
	char w[16], lw[16], lh[16], rd[16], lk[16], mr[16], p50[16], p99[16];

	fprintf(f, "\nThreads' own clocks (summed per thread)\n%7s %8s %9s %9s %9s %9s %9s %9s %7s %7s\n",
		"tid", "ops", "wall", "lock wait", "lock hold", "read", "lookup", "miss rd",
		"p50", "p99");
	for (unsigned i = 0; i < m->nrows; i++) {
		const struct wl_thread_stats *u = &m->rows[i].user;

		fprintf(f, "%7d %8llu %9s %9s %9s %9s %9s %9s %7s %7s\n", (int)u->tid,
			(unsigned long long)u->ops,
			units_ns(w, sizeof(w), (double)(u->end_ns - u->start_ns)),
			units_ns(lw, sizeof(lw), (double)u->lock_wait_ns),
			units_ns(lh, sizeof(lh), (double)u->lock_hold_ns),
			units_ns(rd, sizeof(rd), (double)u->read_ns),
			units_ns(lk, sizeof(lk), (double)u->lookup_ns),
			units_ns(mr, sizeof(mr), (double)u->miss_read_ns),
			units_ns(p50, sizeof(p50), (double)hist_percentile(u->lat_hist, WL_HIST_SLOTS, 0.5, u->lat_max_ns)),
			units_ns(p99, sizeof(p99), (double)hist_percentile(u->lat_hist, WL_HIST_SLOTS, 0.99, u->lat_max_ns)));
	}
}

static void print_pagecache(FILE *f, const struct run_model *m)
{
	char a[16], h[16], ms[16], pct[16];
	uint64_t asked = m->pagecache_hits + m->pagecache_misses;

	if (!(m->groups & PG_MASK(PG_PAGECACHE)))
		return;
	if (!(m->groups & PG_MASK(PG_SYSCALLS))) {
		fprintf(f, "\nPage cache: %s pages added by the workers (misses); "
			"hits need the syscalls probe\n", units_count(ms, sizeof(ms), (double)m->pagecache_misses));
		return;
	}
	fprintf(f, "\nPage cache: %s pages asked for, %s hits (%s), %s misses (pages added)\n",
		units_count(a, sizeof(a), (double)asked), units_count(h, sizeof(h), (double)m->pagecache_hits),
		units_pct(pct, sizeof(pct), asked ? (double)m->pagecache_hits / asked : 1),
		units_count(ms, sizeof(ms), (double)m->pagecache_misses));
}

static void print_probes(FILE *f, const struct session *s)
{
	const struct fct_lost *l = &s->kv.lost;
	char t[16];
	int failed = 0, attached = 0;

	for (int i = 0; i < s->kv.nprobes; i++) {
		attached += s->kv.probes[i].ok;
		failed += !s->kv.probes[i].ok && strcmp(s->kv.probes[i].reason, "not selected");
	}
	fprintf(f, "\nProbes: %s set, %d attached, %d failed, loaded in %s; lost: slots %llu, "
		"maps %llu, stacks %llu\n", s->model.probe_set, attached, failed,
		units_ns(t, sizeof(t), (double)s->prepare_ns),
		(unsigned long long)l->slot_full,
		(unsigned long long)(l->futex_map_full + l->klock_map_full + l->pc_map_full),
		(unsigned long long)l->stack_lost);
	for (int i = 0; i < s->kv.nprobes; i++)
		if (!s->kv.probes[i].ok && strcmp(s->kv.probes[i].reason, "not selected"))
			fprintf(f, "  %s: %s\n", s->kv.probes[i].name, s->kv.probes[i].reason);
}

void report_table(FILE *f, const struct session *s)
{
	const struct run_model *m = &s->model;

	print_header(f, s);
	if (s->traced) {
		print_threads(f, m);
		if (m->groups & PG_MASK(PG_SYSCALLS))
			print_syscalls(f, m);
		print_locks(f, m);
		print_pagecache(f, m);
	}
	print_own_clocks(f, m);
	if (s->traced)
		print_probes(f, s);
	else
		fprintf(f, "\nTiming only (--no-bpf): no kernel view\n");
	fputc('\n', f);
	explain_print(f, m, &s->diag);
}
