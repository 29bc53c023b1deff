/*
 * report_json.c - one run as a JSON document (json-c). The key names are a
 * contract documented in docs/json.md and docs/fctrace.schema.json; bump
 * SCHEMA_VERSION (base/schema.h) on any incompatible change. Everything
 * the terminal table prints is here, so that `fctrace report` can print it
 * again from the file alone (load_run.c reads it back). The objects whose
 * members are stored as they are written are described once, in
 * session/run_format.c's tables, which this writes by and load_run.c reads
 * by; the rest is here, beside its reader's code.
 */
#include <errno.h>
#include <string.h>
#include <json-c/json.h>
#include "base/hist.h"
#include "base/sysnames.h"
#include "base/outfile.h"
#include "report/flame.h"
#include "report/report.h"
#include "report/caches_json.h"
#include "report/cost_print.h"
#include "report/pools_json.h"
#include "report/evictions_json.h"
#include "report/disk_json.h"
#include "report/whatif_print.h"
#include "report/why.h"
#include "report/roots_json.h"
#include "report/wakers_json.h"
#include "session/run_format.h"
#include "explain/words.h"

static void put_u64(struct json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_uint64(v));
}

static struct json_object *u32_array(const uint32_t *v, unsigned n)
{
	struct json_object *a = json_object_new_array();

	for (unsigned i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_uint64(v[i]));
	return a;
}

static void put_str(struct json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, v ? json_object_new_string(v) : NULL);
}

/* A workload's settings; a program has none but its name and threads. */
static struct json_object *config_json(const struct session *s)
{
	const struct wl_config *c = &s->cfg;
	struct json_object *o = json_object_new_object();

	struct wl_config shown = *c;

	/* a program's threads are the rows the kernel gave it (a saved one's
	 * as its file said) */
	if (s->target.mode != TGT_NONE && !shown.threads)
		shown.threads = s->joined.nrows;
	put_str(o, "workload", s->subject);
	return JW_T(o, &shown, rf_config);
}

static struct json_object *sc_json(const struct sc_stats *st)
{
	struct json_object *o = json_object_new_object();

	put_u64(o, "count", st->count);
	put_u64(o, "errors", st->errors);
	put_u64(o, "timed", st->timed);
	put_u64(o, "total_ns", st->total_ns);
	put_u64(o, "mean_ns", st->count ? st->total_ns / st->count : 0);
	put_u64(o, "min_ns", st->min_ns);
	put_u64(o, "max_ns", st->max_ns);
	put_u64(o, "p99_ns", hist32_percentile(st->hist, FCT_HIST_SLOTS, 0.99, st->max_ns));
	/* a row nothing timed (a 10 000-thread server's every thread has
	 * one) has no shape: [] stands for its 240 zeros */
	json_object_object_add(o, "hist", st->timed ? u32_array(st->hist, FCT_HIST_SLOTS) :
				      json_object_new_array());
	return o;
}

/* The saved run's syscall rows (enum sc_row), each by its name. */
/* The rows of a syscall table; a thread's (made_only) without the rows of
 * calls it never made: a thread of a 10 000-thread server made few of
 * them, and each empty row is a histogram of zeros. */
static struct json_object *syscalls_json(const struct sc_stats *sc, bool made_only)
{
	struct json_object *o = json_object_new_object();

	for (int s = 0; s < SC_ROW_N; s++)
		if (!made_only || sc[s].count || sc[s].errors || sc[s].timed)
			json_object_object_add(o, sc_row_name(s), sc_json(&sc[s]));
	return o;
}

static struct json_object *latency_json(const struct thread_timings *u)
{
	struct json_object *o = json_object_new_object(), *h = json_object_new_array();

	put_u64(o, "min_ns", u->lat_min_ns);
	put_u64(o, "mean_ns", u->lat_timed ? u->lat_total_ns / u->lat_timed : 0);
	put_u64(o, "timed", u->lat_timed);
	put_u64(o, "total_ns", u->lat_total_ns);
	put_u64(o, "p50_ns", hist_percentile(u->lat_hist, OWN_HIST_SLOTS, 0.5, u->lat_max_ns));
	put_u64(o, "p99_ns", hist_percentile(u->lat_hist, OWN_HIST_SLOTS, 0.99, u->lat_max_ns));
	put_u64(o, "max_ns", u->lat_max_ns);
	for (int i = 0; i < OWN_HIST_SLOTS; i++)
		json_object_array_add(h, json_object_new_uint64(u->lat_hist[i]));
	json_object_object_add(o, "hist", h);
	return o;
}

/* The row's thread and window, and what the subject timed of it (zero:
 * nothing). */
static void own_clocks_json(struct json_object *o, const struct thread_row *r)
{
	const struct thread_timings *u = row_own(r);

	put_u64(o, "tid", (uint64_t)r->tid);
	put_u64(o, "index", r->index);
	put_u64(o, "ops", u->ops);
	put_u64(o, "wall_ns", r->end_ns - r->start_ns);
	put_u64(o, "start_ns", r->start_ns);
	put_u64(o, "end_ns", r->end_ns);
	put_u64(o, "lock_wait_ns", u->lock_wait_ns);
	put_u64(o, "lock_hold_ns", u->lock_hold_ns);
	put_u64(o, "lock_acquires", u->lock_acquires);
	put_u64(o, "lock_contended", u->lock_contended);
	put_u64(o, "read_ns", u->read_ns);
	put_u64(o, "lookup_ns", u->lookup_ns);
	put_u64(o, "miss_read_ns", u->miss_read_ns);
	put_u64(o, "hits", u->hits);
	put_u64(o, "misses", u->misses);
	put_u64(o, "evictions", u->evictions);
	put_u64(o, "syscalls_in_lock", u->syscalls_in_lock);
	put_u64(o, "verify_errors", u->verify_errors);
	/* null when the subject timed none of its ops (any thread of a
	 * program fctrace did not write) */
	json_object_object_add(o, "latency", u->lat_timed ? latency_json(u) : NULL);
}

static struct json_object *locks_of_row(const struct thread_row *r)
{
	struct json_object *o = json_object_new_object();

	for (int i = 0; i < r->nlocks; i++)
		json_object_object_add(o, r->locks[i].name,
				       JW_T(json_object_new_object(), &r->locks[i], rf_use));
	return o;
}

static struct json_object *account_json(const struct thread_row *r)
{
	struct json_object *o = json_object_new_object();

	for (int b = 0; b < ACCT_N; b++)
		put_u64(o, acct_bucket_name(b), r->acct_ns[b]);
	return o;
}

/* Kernel-side keys are present in every thread and null when not measured. */
static void kernel_json(struct json_object *o, const struct joined_run *m,
			const struct thread_row *r)
{
	const struct fct_thread *k = &r->k;
	unsigned groups = m->groups;
	bool sc = r->has_kernel && (groups & PG_MASK(PG_SYSCALLS));
	struct sc_stats calls[SC_ROW_N];
	bool sched = r->has_kernel && (groups & PG_MASK(PG_SCHED));
	bool pc = r->has_kernel && (groups & PG_MASK(PG_PAGECACHE));
	bool kl = r->has_kernel && (groups & PG_MASK(PG_KLOCK));

	if (sc)
		join_row_calls(m, r, calls);
	json_object_object_add(o, "syscalls", sc ? syscalls_json(calls, true) : NULL);
	json_object_object_add(o, "futex_wait_ns", sc ? json_object_new_uint64(r->d.futex_wait_ns) : NULL);
	json_object_object_add(o, "futex_waits", sc ? json_object_new_uint64(k->futex_waits) : NULL);
	json_object_object_add(o, "locks", r->has_kernel ? locks_of_row(r) : NULL);
	json_object_object_add(o, "kernel_lock_wait_ns", kl ? json_object_new_uint64(k->klock_wait_ns) : NULL);
	json_object_object_add(o, "kernel_lock_waits", kl ? json_object_new_uint64(k->klock_waits) : NULL);
	json_object_object_add(o, "pages_asked", pc && sc ? json_object_new_uint64(k->pages_asked) : NULL);
	json_object_object_add(o, "pages_direct", sc ? json_object_new_uint64(k->pages_direct) : NULL);
	json_object_object_add(o, "pagecache_hits", pc && sc ? json_object_new_uint64(r->pagecache_hits) : NULL);
	json_object_object_add(o, "pagecache_misses", pc ? json_object_new_uint64(r->pagecache_misses) : NULL);
	json_object_object_add(o, "pagecache_written", pc && sc ? json_object_new_uint64(r->pagecache_written) : NULL);
	json_object_object_add(o, "oncpu_ns", sched ? json_object_new_uint64(k->oncpu_ns) : NULL);
	json_object_object_add(o, "offcpu_ns", sched ? json_object_new_uint64(k->offcpu_ns) : NULL);
	json_object_object_add(o, "runqueue_ns", sched ? json_object_new_uint64(k->runq_total_ns) : NULL);
	json_object_object_add(o, "voluntary_switches", sched ? json_object_new_uint64(k->vol_switches) : NULL);
	json_object_object_add(o, "involuntary_switches", sched ? json_object_new_uint64(k->invol_switches) : NULL);
	/* the table prints the account whenever there is a kernel view: without
	 * the sched group it holds only the futex split of the syscalls */
	json_object_object_add(o, "account_ns", r->has_kernel ? account_json(r) : NULL);
	json_object_object_add(o, "accounted_ratio", r->has_kernel ?
			       json_object_new_double(r->accounted_ratio) : NULL);
}

/* How the thread's window began and ended (FCT_HOW_*). */
static struct json_object *how_json(uint32_t how)
{
	struct json_object *a = json_object_new_array();

	for (unsigned i = 0; i < schema_nhows; i++)
		if (how & schema_hows[i].bit)
			json_object_array_add(a, json_object_new_string(schema_hows[i].name));
	return a;
}

/* Sleeps another traced process ended (wakers.bpf.c), by its kill or
 * its write, and the ones of others this thread ended. */
static void sibling_json(struct json_object *o, const struct thread_row *r, bool sched)
{
	const char *const *by = sib_kind_names;	/* join/wakers.h: the kinds' words */
	char key[48];

	for (int i = 0; i < FCT_WAKE_N; i++) {
		snprintf(key, sizeof(key), "sibling_%s_waits", by[i]);
		json_object_object_add(o, key, sched ? json_object_new_uint64(r->k.sib_waits[i]) : NULL);
		snprintf(key, sizeof(key), "sibling_%s_wait_ns", by[i]);
		json_object_object_add(o, key, sched ? json_object_new_uint64(r->k.sib_wait_ns[i]) : NULL);
		snprintf(key, sizeof(key), "sibling_%s_wakes", by[i]);
		json_object_object_add(o, key, sched ? json_object_new_uint64(r->k.sib_wakes[i]) : NULL);
	}
}

/* The thread's name and window, and the split of its blocked time. */
static void identity_json(struct json_object *o, const struct thread_row *r, unsigned groups)
{
	bool sched = r->has_kernel && (groups & PG_MASK(PG_SCHED));

	put_str(o, "comm", r->has_kernel && r->k.comm[0] ? r->k.comm : NULL);
	put_str(o, "name", r->name[0] ? r->name : r->has_kernel && r->k.comm[0] ? r->k.comm : NULL);
	put_str(o, "group", r->group);
	json_object_object_add(o, "window", r->has_kernel ? how_json(r->k.how) : NULL);
	json_object_object_add(o, "blocked_io_ns", sched ? json_object_new_uint64(r->k.blocked_io_ns) : NULL);
	json_object_object_add(o, "stopped_ns", sched ? json_object_new_uint64(r->k.stopped_ns) : NULL);
	json_object_object_add(o, "pid", r->has_kernel && r->k.tgid ?
			       json_object_new_uint64(r->k.tgid) : NULL);
	sibling_json(o, r, sched);
	json_object_object_add(o, "idle_ns", sched ? json_object_new_uint64(r->idle_ns) : NULL);
}

static struct json_object *thread_json(const struct joined_run *m, const struct thread_row *r)
{
	struct json_object *o = json_object_new_object();

	own_clocks_json(o, r);
	identity_json(o, r, m->groups);
	kernel_json(o, m, r);
	disk_thread_json(o, r, m->groups);
	return o;
}

static struct json_object *threads_json(const struct joined_run *m)
{
	struct json_object *a = json_object_new_array();

	for (unsigned i = 0; i < m->nrows; i++)
		json_object_array_add(a, thread_json(m, &m->rows[i]));
	return a;
}

static struct json_object *totals_json(const struct subject_totals *t)
{
	struct json_object *o = json_object_new_object();
	uint64_t gets = t->hits + t->misses;

	put_u64(o, "hits", t->hits);
	put_u64(o, "misses", t->misses);
	put_u64(o, "evictions", t->evictions);
	json_object_object_add(o, "hit_ratio", json_object_new_double(gets ? (double)t->hits / gets : 0));
	if (t->has_pool) {
		put_u64(o, "max_open", t->max_open);
		put_u64(o, "over_capacity", t->over_capacity);
	} else {
		put_u64(o, "cached_bytes", t->cache_bytes);
		put_u64(o, "cached_blocks", t->cache_blocks);
	}
	return o;
}

/* The other locks the holders waited for, the most waited first. */
static struct json_object *chain_json(const struct lock_holders *h)
{
	struct json_object *a = json_object_new_array(), *e;

	for (int i = 0; i < h->nchain; i++) {
		e = JW_T(json_object_new_object(), &h->chain[i], rf_chain);
		json_object_array_add(a, e);
	}
	return a;
}

/* A lock's holders (join/holders.h); null where the holders probes did
 * not watch it. */
static struct json_object *holders_json(const struct lock_holders *h)
{
	struct json_object *o, *sc, *scns, *waited;
	char name[32];

	if (!h->measured)
		return NULL;
	o = json_object_new_object();
	sc = json_object_new_object();
	scns = json_object_new_object();
	waited = json_object_new_object();
	put_str(o, "method", holders_method(h));
	put_u64(o, "held_ns", (uint64_t)h->held_ns);
	for (int s = 0; s < HS_N; s++) {
		snprintf(name, sizeof(name), "%s_ns", hold_state_name(s));
		put_u64(o, name, (uint64_t)h->state_ns[s]);
		put_u64(waited, name, (uint64_t)h->waited_ns[s]);
	}
	put_u64(waited, "handoff_ns", (uint64_t)holders_handoff_ns(h));
	put_u64(waited, "waiter_ns", (uint64_t)h->waiter_ns);
	/* the disk requests waited for holding it: null without the disk group */
	json_object_object_add(o, "disk_ios", h->disk_measured ?
			       json_object_new_uint64(h->disk_ios) : NULL);
	json_object_object_add(o, "disk_ns", h->disk_measured ?
			       json_object_new_uint64((uint64_t)h->disk_ns) : NULL);
	json_object_object_add(waited, "disk_ns", h->disk_measured ?
			       json_object_new_uint64((uint64_t)h->disk_waited_ns) : NULL);
	for (int i = 0; i < h->nnr; i++) {
		const char *call = syscall_name(h->nr[i].nr, name, sizeof(name));

		put_u64(sc, call, h->nr[i].count);
		put_u64(scns, call, (uint64_t)h->nr[i].ns);
	}
	put_u64(o, "syscall_count", h->syscalls);
	json_object_object_add(o, "syscalls", sc);
	json_object_object_add(o, "syscall_time_ns", scns);
	put_u64(o, "contended_ns", (uint64_t)h->contended_ns);
	put_u64(o, "samples", h->samples);
	put_u64(o, "words", h->words);
	json_object_object_add(o, "while_waited", waited);
	json_object_object_add(o, "waiting_for", chain_json(h));
	return o;
}

/* a JVM lock's Java call sites (join_sites.c); [] for other locks */
static struct json_object *sites_json(const struct lock_total *l)
{
	struct json_object *a = json_object_new_array();

	for (int i = 0; i < l->nsites; i++)
		json_object_array_add(a, JW_T(json_object_new_object(), &l->sites[i], rf_site));
	return a;
}

static struct json_object *lock_totals_json(const struct joined_run *m,
					   const struct stack_set *ss)
{
	struct json_object *a = json_object_new_array();

	for (int i = 0; i < m->nlocks; i++) {
		struct json_object *o = JW_T(json_object_new_object(), &m->locks[i], rf_lock);

		json_object_object_add(o, "holders", holders_json(&m->locks[i].holders));
		if (ss && ss->n)
			json_object_object_add(o, "stack_ids",
					       flame_stack_ids_json(ss, m->locks[i].name));
		json_object_object_add(o, "sites", sites_json(&m->locks[i]));
		json_object_object_add(o, "wakers", wakers_json(&m->locks[i].wakers));
		json_object_object_add(o, "root", root_json(&m->locks[i].root));
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *probes_json(const struct kview *kv)
{
	struct json_object *o = json_object_new_object();

	for (int i = 0; i < kv->nprobes; i++)
		put_str(o, kv->probes[i].name, probe_status_text(&kv->probes[i]));
	return o;
}

/* Each program's probe group: what "unavailable here" is made of. */
static struct json_object *probe_groups_json(const struct kview *kv)
{
	struct json_object *o = json_object_new_object();

	for (int i = 0; i < kv->nprobes; i++)
		put_str(o, kv->probes[i].name, probe_group_name(kv->probes[i].group));
	return o;
}

/* The groups that loaded and attached, by name ("floor" for make bench's). */
static struct json_object *groups_json(unsigned groups)
{
	struct json_object *a = json_object_new_array();

	for (int g = 0; g <= PG_FLOOR; g++)
		if (groups & PG_MASK(g))
			json_object_array_add(a, json_object_new_string(
				g == PG_FLOOR ? "floor" : probe_group_name(g)));
	return a;
}

static struct json_object *lost_json(const struct kview *kv)
{
	const struct fct_lost *l = &kv->lost;
	struct json_object *o = json_object_new_object();

	JW_T(o, l, rf_lost);
	put_u64(o, "timeline_drops", kv->tl.dropped);
	put_u64(o, "total", kview_lost_total(kv));
	return o;
}

/* Each loss in words, and the figures (JSON keys) it touches; [] when
 * nothing was lost, null when untraced. */
static struct json_object *losses_json(const struct session *s)
{
	const struct losses *ls = &s->joined.losses;
	struct json_object *a, *o, *t;

	if (!s->traced)
		return NULL;
	a = json_object_new_array();
	for (int i = 0; i < ls->n; i++) {
		o = JW_T(json_object_new_object(), &ls->l[i], rf_loss);
		t = json_object_new_array();
		for (int k = 0; k < ls->l[i].ntouches; k++)
			json_object_array_add(t, json_object_new_string(ls->l[i].touches[k]));
		json_object_object_add(o, "touches", t);
		json_object_array_add(a, o);
	}
	return a;
}

/* --timeline: what was recorded, and the window's totals per state. */
static struct json_object *timeline_json(const struct session *s)
{
	const struct timeline *tl = s->timeline;
	struct json_object *o, *st;
	uint64_t handoffs = 0, sum[TL_NSTATES] = { 0 };

	if (!tl)	/* a saved run's, as its file had it (report) */
		return s->saved_timeline ? json_object_get(s->saved_timeline) : NULL;
	o = json_object_new_object();
	st = json_object_new_object();
	for (size_t i = 0; i < tl->nwakes; i++)
		handoffs += tl->wakes[i].handoff;
	for (int i = 0; i < tl->nthreads; i++)
		for (int k = 0; k < TL_NSTATES; k++)
			sum[k] += tl->threads[i].state_ns[k];
	for (int k = 0; k < TL_NSTATES; k++)
		put_u64(st, tl_state_name(k), sum[k]);
	put_u64(o, "events", tl->events);
	put_u64(o, "dropped", tl->dropped);
	put_u64(o, "begin_ns", tl->begin_ns);
	put_u64(o, "window_ns", tl->end_ns - tl->begin_ns);
	put_u64(o, "asked_ns", s->kv.tl.asked_ns);
	put_u64(o, "ring_bytes", s->kv.tl.ring_bytes);
	put_u64(o, "threads", (uint64_t)tl->nthreads);
	put_u64(o, "intervals", tl->niv);
	put_u64(o, "wakes", tl->nwakes);
	put_u64(o, "handoffs", handoffs);
	json_object_object_add(o, "state_ns", st);
	return o;
}

static void tracing_json(struct json_object *doc, const struct session *s)
{
	const struct joined_run *m = &s->joined;

	put_str(doc, "probe_set", m->probe_set);
	json_object_object_add(doc, "probes", s->traced ? probes_json(&s->kv) : json_object_new_object());
	json_object_object_add(doc, "probe_groups", s->traced ? probe_groups_json(&s->kv) :
			       json_object_new_object());
	json_object_object_add(doc, "groups", s->traced ? groups_json(m->groups) : NULL);
	json_object_object_add(doc, "lost_events", s->traced ? lost_json(&s->kv) : NULL);
	json_object_object_add(doc, "losses", losses_json(s));
	json_object_object_add(doc, "timeline", timeline_json(s));
	json_object_object_add(doc, "load_ns", s->traced ? json_object_new_uint64(s->prepare_ns) : NULL);
	json_object_object_add(doc, "syscalls", s->traced && (m->groups & PG_MASK(PG_SYSCALLS)) ?
			       syscalls_json(m->sc_total, false) : NULL);
	json_object_object_add(doc, "syscall_time_every",
			       s->traced && (m->groups & PG_MASK(PG_SYSCALLS)) ?
			       json_object_new_uint64(s->kv.time_every) : NULL);
}

/* How the workers' on-CPU time was split into user and sys. */
static struct json_object *cpu_split_json(const struct joined_run *m)
{
	const char *how = join_cpu_split(m);
	bool sampler = m->groups & PG_MASK(PG_CPUCLOCK);
	struct json_object *o;

	if (!how)
		return NULL;
	o = json_object_new_object();
	put_str(o, "method", how);
	json_object_object_add(o, "hz", sampler ? json_object_new_uint64(FCT_CPUCLOCK_HZ) : NULL);
	return JW_T(o, m, rf_cpu_split);
}

/* How the kernel lock sites in locks[] got their figures. */
static struct json_object *klock_sites_json(const struct session *s)
{
	const struct joined_run *m = &s->joined;
	struct json_object *o;

	if (!s->traced || !(m->groups & PG_MASK(PG_KLOCK)))
		return NULL;
	o = json_object_new_object();
	put_str(o, "attribution", KV_KLOCK_ATTRIBUTION);
	return JW_T(o, m, rf_klock_sites);
}

/* Every syscall number made, with its count, errors, time and sleep
 * (its histogram is in the rows of "syscalls" for the named calls). */
static struct json_object *by_number_json(const struct joined_run *m)
{
	struct json_object *a = json_object_new_array();
	char buf[24];

	for (unsigned n = 0; n < FCT_NR_MAX; n++) {
		struct json_object *o;

		if (!m->nr_total[n].count)
			continue;
		o = json_object_new_object();
		put_u64(o, "nr", n);
		put_str(o, "name", syscall_name(n, buf, sizeof(buf)));
		put_u64(o, "count", m->nr_total[n].count);
		put_u64(o, "errors", m->nr_total[n].errors);
		put_u64(o, "timed", m->nr_total[n].timed);
		put_u64(o, "total_ns", m->nr_total[n].total_ns);
		put_u64(o, "min_ns", m->nr_total[n].min_ns);
		put_u64(o, "max_ns", m->nr_total[n].max_ns);
		put_u64(o, "blocked_ns", m->nr_total[n].blocked_ns);
		json_object_array_add(a, o);
	}
	return a;
}

/* fctrace's JVMTI agent: how it sampled; null when it did not run */
static struct json_object *agent_json(const struct joined_run *m)
{
	if (!m->jvm_agent)
		return NULL;
	return JW_T(json_object_new_object(), m, rf_agent);
}

/* A JVM target: HotSpot's view, run-wide (monitors are in locks[]). */
static struct json_object *jvm_json(const struct session *s)
{
	const struct joined_run *m = &s->joined;
	struct json_object *o;
	char holders[200];

	if (!m->jvm)
		return NULL;
	o = json_object_new_object();
	put_str(o, "libjvm", s->target.libjvm);
	json_object_object_add(o, "monitor_probes", json_object_new_boolean(m->jvm_monitors));
	put_str(o, "monitor_flag", m->jvm_monitor_flag ? m->jvm_monitor_flag :
		m->jvm_monitors ? "on" : "off");
	if (m->jvm_holders.why != JH_RAN)
		put_str(o, "monitor_holders", jvm_holders_words(&m->jvm_holders, holders,
								 sizeof(holders)));
	else
		json_object_object_add(o, "monitor_holders", NULL);
	put_u64(o, "gcs", m->gcs);
	put_u64(o, "gc_ns", m->gc_ns);
	put_u64(o, "gc_max_ns", m->gc_max_ns);
	put_u64(o, "safepoints", m->safepoints);
	put_u64(o, "safepoint_ns", m->safepoint_ns);
	put_u64(o, "parks", m->parks);
	put_u64(o, "park_ns", m->park_ns);
	json_object_object_add(o, "agent", agent_json(m));
	put_u64(o, "application_threads", m->app_threads);
	return o;
}

/* The futex words of another program, by the names they were given. */
static struct json_object *lock_names_json(const struct session *s)
{
	struct json_object *a = json_object_new_array();

	for (int i = 0; i < s->nnames; i++) {
		json_object_array_add(a, JW_T(json_object_new_object(), &s->names[i],
					      rf_lock_name));
	}
	return a;
}

/* A program fctrace did not write: what it was and how it ended. */
static struct json_object *target_json(const struct session *s)
{
	const struct target_info *ti = &s->target;
	struct json_object *o;

	if (ti->mode == TGT_NONE)
		return NULL;
	o = JW_T(json_object_new_object(), ti, rf_program);
	json_object_object_add(o, "exited", json_object_new_boolean(ti->exited));
	json_object_object_add(o, "exit_status", ti->mode == TGT_EXEC && ti->exited &&
			       !ti->term_signal ?
			       json_object_new_int(ti->exit_status) : NULL);
	json_object_object_add(o, "signal", ti->term_signal ?
			       json_object_new_int(ti->term_signal) : NULL);
	JW_T(o, ti, rf_sampling);
	json_object_object_add(o, "lock_names", lock_names_json(s));
	json_object_object_add(o, "jvm", jvm_json(s));
	return o;
}

/* The processes with the most samples besides the traced threads. */
static struct json_object *others_json(const struct kview *kv)
{
	struct json_object *a = json_object_new_array();

	for (int i = 0; i < kv->nothers && i < 5; i++) {
		json_object_array_add(a, JW_T(json_object_new_object(), &kv->others[i], rf_other));
	}
	return a;
}

/* The machine's CPUs over the window (/proc/stat), and the share of them
 * this run's threads had; null when not traced or not readable. */
static struct json_object *machine_json(const struct session *s)
{
	const struct joined_run *m = &s->joined;
	struct json_object *o;
	uint64_t own = 0;

	if (!s->traced || !s->kv.cpu.valid)
		return NULL;
	for (unsigned i = 0; i < m->nrows; i++)
		own += m->rows[i].has_kernel ? m->rows[i].k.oncpu_ns : 0;
	o = json_object_new_object();
	put_u64(o, "busy_ns", s->kv.cpu.busy_ns);
	put_u64(o, "idle_ns", s->kv.cpu.idle_ns);
	put_u64(o, "steal_ns", s->kv.cpu.steal_ns);
	json_object_object_add(o, "samples_other", s->kv.machine_sampled ?
			       json_object_new_uint64(s->kv.machine.other) : NULL);
	json_object_object_add(o, "samples_idle", s->kv.machine_sampled ?
			       json_object_new_uint64(s->kv.machine.idle) : NULL);
	json_object_object_add(o, "samples_tracer", s->kv.machine_sampled ?
			       json_object_new_uint64(s->kv.machine.tracer) : NULL);
	put_u64(o, "window_ns", s->kv.machine_ns);
	put_u64(o, "sampled_cpus", s->kv.machine_cpus);
	if (s->kv.machine_sampled)
		json_object_object_add(o, "others", others_json(&s->kv));
	/* the threads' on-CPU time comes from the scheduler probes */
	json_object_object_add(o, "threads_oncpu_ns", m->groups & PG_MASK(PG_SCHED) ?
			       json_object_new_uint64(own) : NULL);
	return o;
}

/* The Why's summary, with the what-if model fitted to this run (null
 * when it cannot be: not a pool, or no ops). */
static struct json_object *why_json(const struct session *s)
{
	struct json_object *why = why_summary_json(&s->diag);

	json_object_object_add(why, "model", s->diag.has_whatif ? whatif_json(&s->diag.whatif) : NULL);
	return why;
}

/* The what-ifs on locks (explain/whatif_lock.h): [{lock, change, ...}]. */
static struct json_object *lock_whatifs_json(const struct diagnosis *d)
{
	struct json_object *a = json_object_new_array();

	for (int i = 0; i < d->nlock_whatifs; i++) {
		const struct lock_whatif *w = &d->lock_whatifs[i];
		struct json_object *o = json_object_new_object();

		put_str(o, "lock", w->lock);
		put_str(o, "change", lock_change_name(w->change));
		put_u64(o, "predicted_wall_ns", (uint64_t)w->predicted_wall_ns);
		put_u64(o, "measured_wall_ns", (uint64_t)w->measured_wall_ns);
		put_u64(o, "held_ns", (uint64_t)w->held_ns);
		put_u64(o, "held_after_ns", (uint64_t)w->held_after_ns);
		put_u64(o, "waits", (uint64_t)w->waits);
		put_u64(o, "waits_after", (uint64_t)w->waits_after);
		put_u64(o, "wait_ns", (uint64_t)w->wait_ns);
		put_u64(o, "wait_after_ns", (uint64_t)w->wait_after_ns);
		put_str(o, "bound", w->bound);
		json_object_array_add(a, o);
	}
	return a;
}

/* One thread alone (session/solo.h): null when it did not run. */
static struct json_object *solo_json(const struct solo_costs *solo)
{
	if (!solo->hit_ns && !solo->miss_ns && !solo->fc_ns)
		return NULL;
	return JW_T(json_object_new_object(), solo, rf_solo);
}

/* A pool's uncontended op costs (join.h): null for other workloads. */
static struct json_object *op_costs_json(const struct joined_run *m)
{
	struct json_object *o;

	if (!m->timings || !m->timings->totals.has_pool)
		return NULL;
	o = JW_T(json_object_new_object(), m, rf_op_cost);
	json_object_object_add(o, "solo", solo_json(&m->timings->solo));
	return o;
}

/* The run's document; with_threads false: "threads" null in its place,
 * for report_json_write_run to write them one at a time. */
static struct json_object *run_doc(const struct session *s, bool with_threads)
{
	const struct joined_run *m = &s->joined;
	struct json_object *doc = json_object_new_object();
	const struct subject_totals *t = &s->timings.totals;

	put_u64(doc, "schema_version", SCHEMA_VERSION);
	put_str(doc, "tool", "fctrace");
	json_object_object_add(doc, "config", config_json(s));
	json_object_object_add(doc, "interrupted", json_object_new_boolean(s->interrupted));
	put_u64(doc, "stopped", s->stopped);
	put_u64(doc, "wall_ns", m->wall_ns);
	if (s->started_unix_ns)	/* a run saved before it was kept has none */
		put_u64(doc, "started_unix_ns", s->started_unix_ns);
	put_u64(doc, "ops", m->ops);
	put_u64(doc, "ncpus", m->ncpus);
	json_object_object_add(doc, "machine_cpu", machine_json(s));
	json_object_object_add(doc, "overhead", cost_json(&s->kv));
	json_object_object_add(doc, "op_costs", op_costs_json(m));
	put_u64(doc, "hist_sub_buckets", FCT_HIST_SUB);
	tracing_json(doc, s);
	json_object_object_add(doc, "threads", with_threads ? threads_json(m) : NULL);
	json_object_object_add(doc, "pool", t->has_pool ? totals_json(t) : NULL);
	json_object_object_add(doc, "cache", t->has_cache ? totals_json(t) : NULL);
	json_object_object_add(doc, "locks", lock_totals_json(m, &s->stacks));
	if (s->stacks.n)
		json_object_object_add(doc, "stacks", flame_stacks_json(&s->stacks));
	json_object_object_add(doc, "kernel_lock_sites", klock_sites_json(s));
	json_object_object_add(doc, "cpu_split", s->traced ? cpu_split_json(m) : NULL);
	evictions_json(doc, &m->evictions);
	disk_json(doc, &m->disk);
	caches_json(doc, m);
	pools_json(doc, m);
	sib_wakers_json(doc, m);
	wait_graph_json(doc, m);
	json_object_object_add(doc, "target", target_json(s));
	json_object_object_add(doc, "syscalls_by_number", s->traced &&
			       (m->groups & PG_MASK(PG_SYSCALLS)) ? by_number_json(m) : NULL);
	json_object_object_add(doc, "diagnosis", why_causes_json(&s->diag));
	json_object_object_add(doc, "whatif", lock_whatifs_json(&s->diag));
	json_object_object_add(doc, "why", why_json(s));
	return doc;
}

struct json_object *report_json_run(const struct session *s)
{
	return run_doc(s, true);
}

#define JSON_FLAGS	(JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE)

int report_json_write(struct json_object *doc, const char *path)
{
	const char *text = json_object_to_json_string_ext(doc, JSON_FLAGS);
	struct outfile out;
	FILE *f = outfile_open(&out, "--json", path);

	if (!f)
		return -1;
	fprintf(f, "%s\n", text);
	return outfile_close(&out);
}

/* text, a value printed from depth 0, as its printing two deep in the
 * document: each line indented four spaces more. */
static void put_nested(FILE *f, const char *text)
{
	for (const char *l = text; *l; ) {
		const char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l) + 1 : strlen(l);

		fputs("    ", f);
		fwrite(l, 1, n, f);
		l += n;
	}
}

/* The top level's "threads", as json-c prints a member two spaces in */
#define THREADS_AT	"\n  \"threads\":null"

int report_json_write_run(const struct session *s, const char *path)
{
	struct json_object *doc = run_doc(s, false);
	const char *text = json_object_to_json_string_ext(doc, JSON_FLAGS), *at;
	const struct joined_run *m = &s->joined;
	struct outfile out;
	FILE *f;

	if (!(at = strstr(text, THREADS_AT))) {	/* not as printed: all at once */
		int rc;

		json_object_object_add(doc, "threads", threads_json(m));
		rc = report_json_write(doc, path);
		json_object_put(doc);
		return rc;
	}
	if (!(f = outfile_open(&out, "--json", path))) {
		json_object_put(doc);
		return -1;
	}
	fwrite(text, 1, (size_t)(at - text), f);
	fputs("\n  \"threads\":[", f);
	for (unsigned i = 0; i < m->nrows; i++) {
		struct json_object *o = thread_json(m, &m->rows[i]);

		fputs(i ? ",\n" : "\n", f);
		put_nested(f, json_object_to_json_string_ext(o, JSON_FLAGS));
		json_object_put(o);
	}
	fprintf(f, "\n  ]%s\n", at + strlen(THREADS_AT));
	json_object_put(doc);
	return outfile_close(&out);
}
