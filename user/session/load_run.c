/*
 * load_run.c - a saved run's session rebuilt from its run document
 * (report_json.c writes it; tests/test_report.c keeps the two in step: it
 * reports a run from its file and wants the run's own text and JSON back).
 *
 * What is rebuilt is what the reporters read: the settings, the result
 * (each worker's own clocks, the pool or cache totals), the kernel view's
 * probes and lost events, the joined model (each thread's kernel account,
 * the run-wide totals, the locks) and the diagnosis. The diagnosis is read
 * back, not derived again: it is what the run said, whatever rules this
 * fctrace has. Nothing else of the run is needed, so nothing else is made
 * up: the raw BPF maps (futex words, kernel lock stacks) stay empty.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/jsonread.h"
#include "base/sysnames.h"
#include "trace/jvm.h"
#include "session/load_json.h"
#include "session/load_stacks.h"
#include "session/load_evictions.h"
#include "session/load_run.h"
#include "base/schema.h"
#include "explain/whatif.h"

#define LOAD_MAX_ROWS	16384		/* threads of another program, JVMs included */

/* ---- settings and subject ------------------------------------------------ */

static const struct jr_field config_fields[] = {
	JR_FIELD(wl_config, "ops", ops), JR_FIELD(wl_config, "file_size", file_size),
	JR_FIELD(wl_config, "chunk", chunk), JR_FIELD(wl_config, "block", block),
	JR_FIELD(wl_config, "cache_size", cache_size), JR_FIELD(wl_config, "seed", seed),
};

/* The settings; the workload's name goes to name (a program's comm for
 * run -- CMD and attach: told apart once the target is read). */
static int load_config(struct jr *r, struct json_object *doc, struct wl_config *c,
		       char *name, size_t n)
{
	static const char *const handles[] = { "shared", "per-thread", "locked" };
	static const char *const caches[] = { "warm", "cold" };
	struct json_object *o;
	char saved[128];
	int handle = 0, cache = 0, rc;

	if (jr_object(r, doc, "config", false, &o, saved, sizeof(saved)))
		return -1;
	rc = jr_str(r, o, "workload", false, name, n) ||
	     jr_uint(r, o, "files", UINT32_MAX, &c->files) ||
	     jr_uint(r, o, "threads", UINT32_MAX, &c->threads) ||
	     jr_uint(r, o, "pool", UINT32_MAX, &c->pool) ||
	     JR_FIELDS(r, o, c, config_fields, false) ||
	     jr_bool(r, o, "shared_file", &c->shared_file) ||
	     jr_choice(r, o, "handle", handles, 3, &handle) ||
	     jr_choice(r, o, "cache", caches, 2, &cache) ||
	     jr_double(r, o, "pressure", &c->pressure);
	c->handle = (enum wl_handle_mode)handle;
	c->cache = cache ? WL_CACHE_COLD : WL_CACHE_WARM;
	jr_leave(r, saved);
	return rc ? -1 : 0;
}

/* Another program's futex words, by name (their addresses are not saved:
 * the reporters only name and count them). */
static int load_lock_names(struct jr *r, struct json_object *t, struct session *s)
{
	struct json_object *a, *o;
	char saved[128];
	size_t n;

	if (jr_get(r, t, "lock_names", json_type_array, false, &a))
		return -1;
	n = json_object_array_length(a);
	if (n > LOAD_MAX_ROWS * MODEL_MAX_NAMED)
		return jr_fail(r, "lock_names", "has more names than any run could");
	/* never NULL for a target: the model tells other programs by it */
	s->names = calloc(n ? n : 1, sizeof(*s->names));
	if (!s->names)
		return jr_fail(r, NULL, "out of memory");
	for (size_t i = 0; i < n; i++, s->nnames++) {
		struct lock_name *ln = &s->names[i];

		if (jr_element(r, a, "lock_names", i, &o, saved, sizeof(saved)) ||
		    jr_str(r, o, "name", false, ln->name, sizeof(ln->name)) ||
		    jr_str(r, o, "site", false, ln->site, sizeof(ln->site)) ||
		    jr_bool(r, o, "is_lock", &ln->is_lock) || jr_u64(r, o, "samples", &ln->samples))
			return -1;
		jr_leave(r, saved);
	}
	return 0;
}

static const struct jr_field jvm_fields[] = {
	JR_FIELD(joined_run, "gcs", gcs), JR_FIELD(joined_run, "gc_ns", gc_ns),
	JR_FIELD(joined_run, "gc_max_ns", gc_max_ns),
	JR_FIELD(joined_run, "safepoints", safepoints),
	JR_FIELD(joined_run, "safepoint_ns", safepoint_ns), JR_FIELD(joined_run, "parks", parks),
	JR_FIELD(joined_run, "park_ns", park_ns),
};

/* The monitor flag as the run read it: absent in runs saved before it
 * was named (then as monitor_probes says). */
static int load_monitor_flag(struct jr *r, struct json_object *o, struct joined_run *m)
{
	static const char *const names[] = { "unknown", "off", "on" };
	int i = m->jvm_monitors ? 2 : 1;

	if (json_object_object_get_ex(o, "monitor_flag", NULL) &&
	    jr_choice(r, o, "monitor_flag", names, 3, &i))
		return -1;
	m->jvm_monitor_flag = names[i];
	return 0;
}

/* fctrace's JVMTI agent's sampling (null or absent: it did not run) */
static int load_agent(struct jr *r, struct json_object *o, struct joined_run *m)
{
	struct json_object *a;
	char saved[128];
	uint64_t w = 0, e = 0, p = 0;
	int rc;

	if (!json_object_object_get_ex(o, "agent", NULL))
		return 0;
	if (jr_object(r, o, "agent", true, &a, saved, sizeof(saved)))
		return -1;
	if (!a)
		return 0;
	rc = jr_u64(r, a, "walks_first", &w) || jr_u64(r, a, "walks_every", &e) ||
	     jr_u64(r, a, "park_period_ms", &p) || jr_u64(r, a, "park_stacks", &m->jvm_agent_park_walks);
	jr_leave(r, saved);
	m->jvm_agent = true;
	m->jvm_agent_walks = (unsigned)w;
	m->jvm_agent_every = (unsigned)e;
	m->jvm_agent_period_ms = (unsigned)p;
	return rc ? -1 : 0;
}

/* A JVM target: what HotSpot's probes counted, run-wide. */
static int load_jvm(struct jr *r, struct json_object *t, struct session *s)
{
	struct joined_run *m = &s->joined;
	struct json_object *o;
	char saved[128];
	int rc;

	if (jr_object(r, t, "jvm", true, &o, saved, sizeof(saved)))
		return -1;
	m->jvm = o != NULL;
	rc = o && (jr_str(r, o, "libjvm", false, s->target.libjvm, sizeof(s->target.libjvm)) ||
		   jr_bool(r, o, "monitor_probes", &m->jvm_monitors) || load_monitor_flag(r, o, m) ||
		   JR_FIELDS(r, o, m, jvm_fields, false) || load_agent(r, o, m) ||
		   jr_uint(r, o, "application_threads", LOAD_MAX_ROWS, &m->app_threads) ||
		   (json_object_object_get_ex(o, "monitor_holders", NULL) &&
		    jr_str(r, o, "monitor_holders", true, m->jvm_holders.detail,
			   sizeof(m->jvm_holders.detail))));
	if (m->jvm_holders.detail[0])	/* the words as they were said */
		m->jvm_holders.why = JH_AS_SAVED;
	jr_leave(r, saved);
	return rc ? -1 : 0;
}

/* How the program ended: exit_status and signal are null when they did
 * not happen. */
static int load_ending(struct jr *r, struct json_object *t, struct target_info *ti)
{
	uint64_t status = 0, sig = 0;
	bool has_status, has_sig;

	if (jr_bool(r, t, "exited", &ti->exited) ||
	    jr_u64_or_null(r, t, "exit_status", &status, &has_status) ||
	    jr_u64_or_null(r, t, "signal", &sig, &has_sig))
		return -1;
	if (status > 255)
		return jr_fail(r, "exit_status", "must be an exit status, 0 to 255");
	if (sig > 64 || (has_sig && !sig))
		return jr_fail(r, "signal", "must be a signal number, 1 to 64");
	ti->exit_status = (int)status;
	ti->term_signal = (int)sig;
	return 0;
}

/* run -- CMD or attach -p PID: what the program was and how it ended;
 * null for fctrace's own workloads. */
static int load_target(struct jr *r, struct json_object *doc, struct session *s)
{
	static const char *const modes[] = { [TGT_EXEC] = "exec", [TGT_ATTACH] = "attach" };
	struct target_info *ti = &s->target;
	struct json_object *t;
	char saved[128];
	unsigned pid, uid;
	int mode = TGT_NONE, rc;

	if (jr_object(r, doc, "target", true, &t, saved, sizeof(saved)))
		return -1;
	rc = t && (jr_choice(r, t, "mode", modes, 3, &mode) ||
		   jr_str(r, t, "argv", false, ti->cmdline, sizeof(ti->cmdline)) ||
		   jr_uint(r, t, "pid", INT32_MAX, &pid) || load_ending(r, t, ti) ||
		   jr_uint(r, t, "uid", UINT32_MAX, &uid) ||
		   jr_u64(r, t, "stacks_sampled", &ti->stacks_received) ||
		   jr_u64(r, t, "stacks_unwound", &ti->stacks_unwound) ||
		   (json_object_object_get_ex(t, "stacks_dropped", NULL) &&
		    jr_u64(r, t, "stacks_dropped", &ti->stacks_dropped)) ||
		   (json_object_object_get_ex(t, "words_unnamed", NULL) &&
		    jr_u64(r, t, "words_unnamed", &ti->words_unnamed)) ||
		   (json_object_object_get_ex(t, "unsymbolised", NULL) &&
		    jr_str(r, t, "unsymbolised", true, ti->unsymbolised,
			   sizeof(ti->unsymbolised))) ||
		   load_lock_names(r, t, s) || load_jvm(r, t, s));
	jr_leave(r, saved);
	if (rc)
		return -1;
	ti->mode = (enum target_mode)mode;
	ti->pid = t ? (pid_t)pid : 0;
	ti->uid = t ? (uid_t)uid : 0;
	ti->gid = 0;
	if (t && json_object_object_get_ex(t, "gid", NULL)) {	/* absent before 2026-12 */
		unsigned gid = 0;

		if (jr_uint(r, t, "gid", UINT32_MAX, &gid))
			return -1;
		ti->gid = (gid_t)gid;
	}
	return 0;
}

/* The workload by its name, or the program by its comm (fctrace names a
 * program's run by it). The name need not be a workload this fctrace
 * has: a newer one's run prints all the same. */
static int name_subject(struct jr *r, const char *name, struct session *s)
{
	char *to = s->target.mode != TGT_NONE ? s->target.comm : s->saved_workload;
	size_t size = s->target.mode != TGT_NONE ? sizeof(s->target.comm)
						 : sizeof(s->saved_workload);

	if (!name[0])
		return jr_fail(r, "config.workload", "must name the workload or the program");
	if (strlen(name) >= size)
		return jr_fail(r, "config.workload", "is longer than a workload's or a "
			       "program's name can be");
	memcpy(to, name, strlen(name) + 1);
	s->subject = to;
	if (s->target.mode == TGT_NONE)
		s->cfg.workload = to;
	return 0;
}

/* A probe group by the name the JSON gives it ("floor": make bench's). */
static int group_of(const char *name)
{
	if (!strcmp(name, "floor"))
		return PG_FLOOR;
	for (int g = 0; g < PG_N; g++)
		if (!strcmp(name, probe_group_name(g)))
			return g;
	return -1;
}

/* The groups that loaded and attached. */
static int load_groups(struct jr *r, struct json_object *doc, unsigned *mask)
{
	struct json_object *a, *g;

	if (jr_get(r, doc, "groups", json_type_array, false, &a))
		return -1;
	*mask = 0;
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		g = json_object_array_get_idx(a, i);
		if (!json_object_is_type(g, json_type_string) ||
		    group_of(json_object_get_string(g)) < 0)
			return jr_fail(r, "groups", "must list probe groups (see --probes)");
		*mask |= PG_MASK(group_of(json_object_get_string(g)));
	}
	return 0;
}

/* One program's fate: "ok", "not selected", or why it failed. */
static int load_probe(struct jr *r, const char *name, struct json_object *status,
		      struct json_object *groups, struct probe_status *ps)
{
	char group[32];
	const char *text = json_object_get_string(status);

	if (!json_object_is_type(status, json_type_string))
		return jr_fail(r, name, "must be a string: ok, not selected, or why it failed");
	if (strlen(name) >= sizeof(ps->name) || strlen(text) >= sizeof(ps->reason))
		return jr_fail(r, name, "has a name or a reason longer than a probe's");
	if (jr_str(r, groups, name, false, group, sizeof(group)))
		return -1;
	if (group_of(group) < 0 || group_of(group) == PG_FLOOR)
		return jr_fail(r, name, "is in no probe group this fctrace has");
	snprintf(ps->name, sizeof(ps->name), "%s", name);
	ps->group = (enum probe_group)group_of(group);
	ps->state = !strcmp(text, "ok") ? PROBE_OK : !strcmp(text, "not selected") ?
		    PROBE_NOT_SELECTED : PROBE_FAILED;
	if (ps->state == PROBE_FAILED)
		snprintf(ps->reason, sizeof(ps->reason), "%s", text);
	return 0;
}

/* probes: program -> fate, and probe_groups: program -> its group. */
static int load_probes(struct jr *r, struct json_object *doc, struct kview *kv)
{
	struct json_object *probes, *groups;
	char saved[128];

	if (jr_get(r, doc, "probes", json_type_object, false, &probes) ||
	    jr_get(r, doc, "probe_groups", json_type_object, false, &groups))
		return -1;
	jr_enter(r, "probe_groups", -1, saved, sizeof(saved));
	json_object_object_foreach(probes, name, status) {
		if (kv->nprobes == (int)(sizeof(kv->probes) / sizeof(*kv->probes)))
			return jr_fail(r, NULL, "lists more programs than fctrace has");
		if (load_probe(r, name, status, groups, &kv->probes[kv->nprobes++]))
			return -1;
	}
	/* the two maps name the same programs */
	json_object_object_foreach(groups, gname, g) {
		(void)g;
		if (!json_object_object_get_ex(probes, gname, NULL))
			return jr_fail(r, gname, "has a group but no fate in probes");
	}
	jr_leave(r, saved);
	return 0;
}

static const struct jr_field lost_fields[] = {
	JR_FIELD(fct_lost, "slot_full", slot_full),
	JR_FIELD(fct_lost, "futex_map_full", futex_map_full),
	JR_FIELD(fct_lost, "klock_map_full", klock_map_full),
	JR_FIELD(fct_lost, "pagecache_map_full", pc_map_full),
	JR_FIELD(fct_lost, "stack_lost", stack_lost),
	JR_FIELD(fct_lost, "ustack_drops", ustack_drops),
};

/* The JVM's losses: absent from runs saved before they joined the rest. */
static int load_jvm_lost(struct jr *r, struct json_object *lost, struct fct_lost *l)
{
	if (json_object_object_get_ex(lost, "jvm_threads_full", NULL) &&
	    jr_u64(r, lost, "jvm_threads_full", (uint64_t *)&l->jvm_threads_full))
		return -1;
	if (json_object_object_get_ex(lost, "tgids_full", NULL) &&
	    jr_u64(r, lost, "tgids_full", (uint64_t *)&l->tgids_full))
		return -1;
	if (json_object_object_get_ex(lost, "jvm_monitors_full", NULL) &&
	    jr_u64(r, lost, "jvm_monitors_full", (uint64_t *)&l->jvm_monitors_full))
		return -1;
	if (json_object_object_get_ex(lost, "pagecache_evict_full", NULL) &&
	    jr_u64(r, lost, "pagecache_evict_full", (uint64_t *)&l->pc_evict_full))
		return -1;
	return 0;
}

/* What traced the run: a run is traced when it has lost_events. */
static int load_tracing(struct jr *r, struct json_object *doc, struct session *s)
{
	static const char *const sets[] = { "full", "light", "custom", "floor", "none" };
	struct json_object *lost;
	uint64_t every = 0;
	char saved[128];
	bool set;
	int i = 0, rc;

	if (jr_choice(r, doc, "probe_set", sets, 5, &i) ||
	    jr_object(r, doc, "lost_events", true, &lost, saved, sizeof(saved)))
		return -1;
	s->joined.probe_set = sets[i];
	s->traced = lost != NULL;
	rc = lost && (JR_FIELDS(r, lost, &s->kv.lost, lost_fields, false) ||
		      load_jvm_lost(r, lost, &s->kv.lost));
	jr_leave(r, saved);
	if (rc || !s->traced)
		return rc ? -1 : 0;
	if (jr_u64(r, doc, "load_ns", &s->prepare_ns) || load_groups(r, doc, &s->kv.groups) ||
	    load_probes(r, doc, &s->kv) ||
	    jr_u64_or_null(r, doc, "syscall_time_every", &every, &set))
		return -1;
	if (every > FCT_SC_EVERY_MAX)
		return jr_fail(r, "syscall_time_every", "must be at most 64");
	s->kv.time_every = (unsigned)every;
	return 0;
}

/* ---- threads ------------------------------------------------------------- */

static const struct jr_field own_fields[] = {
	JR_FIELD(thread_timings, "ops", ops), JR_FIELD(thread_timings, "start_ns", start_ns),
	JR_FIELD(thread_timings, "end_ns", end_ns),
	JR_FIELD(thread_timings, "lock_wait_ns", lock_wait_ns),
	JR_FIELD(thread_timings, "lock_hold_ns", lock_hold_ns),
	JR_FIELD(thread_timings, "lock_acquires", lock_acquires),
	JR_FIELD(thread_timings, "lock_contended", lock_contended),
	JR_FIELD(thread_timings, "read_ns", read_ns),
	JR_FIELD(thread_timings, "lookup_ns", lookup_ns),
	JR_FIELD(thread_timings, "miss_read_ns", miss_read_ns),
	JR_FIELD(thread_timings, "hits", hits), JR_FIELD(thread_timings, "misses", misses),
	JR_FIELD(thread_timings, "evictions", evictions),
	JR_FIELD(thread_timings, "syscalls_in_lock", syscalls_in_lock),
	JR_FIELD(thread_timings, "verify_errors", verify_errors),
};

static const struct jr_field latency_fields[] = {
	JR_FIELD(thread_timings, "timed", lat_timed),
	JR_FIELD(thread_timings, "total_ns", lat_total_ns),
	JR_FIELD(thread_timings, "min_ns", lat_min_ns),
	JR_FIELD(thread_timings, "max_ns", lat_max_ns),
};

/* The thread's own clocks and its sampled ops' latency. */
static int load_own(struct jr *r, struct json_object *o, struct thread_timings *u)
{
	struct json_object *lat;
	char saved[128];
	unsigned tid;
	int rc;

	if (jr_uint(r, o, "tid", INT32_MAX, &tid) ||
	    jr_uint(r, o, "index", UINT32_MAX, &u->index) ||
	    JR_FIELDS(r, o, u, own_fields, false))
		return -1;
	u->tid = (pid_t)tid;
	if (u->end_ns < u->start_ns)
		return jr_fail(r, "end_ns", "is before start_ns");
	if (jr_object(r, o, "latency", false, &lat, saved, sizeof(saved)))
		return -1;
	rc = JR_FIELDS(r, lat, u, latency_fields, false) ||
	     jr_u64_array(r, lat, "hist", u->lat_hist, OWN_HIST_SLOTS);
	jr_leave(r, saved);
	return rc ? -1 : 0;
}

/* "window": how the thread's window began and ended. */
static int load_window(struct jr *r, struct json_object *o, uint32_t *how)
{
	struct json_object *a, *w;

	if (jr_get(r, o, "window", json_type_array, false, &a))
		return -1;
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		w = json_object_array_get_idx(a, i);
		if (!json_object_is_type(w, json_type_string) ||
		    !schema_how_bit(json_object_get_string(w)))
			return jr_fail(r, "window", "must list how the window began and ended "
				       "(marks, exec, created, attach, exited, closed, ...)");
		*how |= schema_how_bit(json_object_get_string(w));
	}
	return 0;
}

/* Names: the Java name or comm, and a JVM thread's group. */
static int load_identity(struct jr *r, struct json_object *o, struct thread_row *row)
{
	char group[32];

	/* "name" repeats comm for a thread without one of its own: kept as its
	 * name all the same, which prints and saves the same */
	if (jr_str(r, o, "comm", true, row->k.comm, sizeof(row->k.comm)) ||
	    jr_str(r, o, "name", true, row->name, sizeof(row->name)) ||
	    jr_str(r, o, "group", true, group, sizeof(group)))
		return -1;
	if (!group[0])
		return 0;
	for (int g = 0; g < JVM_G_N; g++)
		if (!strcmp(group, jvm_group_name(g)))
			row->group = jvm_group_name(g);
	return row->group ? 0 : jr_fail(r, "group", "is not a JVM thread group");
}

/* The syscalls of one thread, or of all: each kind by name. */
static int load_syscalls(struct jr *r, struct json_object *o, struct fct_sc_stats *sc)
{
	static const struct jr_field sc_fields[] = {
		JR_FIELD(fct_sc_stats, "count", count),
		JR_FIELD(fct_sc_stats, "errors", errors),
		JR_FIELD(fct_sc_stats, "timed", timed),
		JR_FIELD(fct_sc_stats, "total_ns", total_ns),
		JR_FIELD(fct_sc_stats, "min_ns", min_ns),
		JR_FIELD(fct_sc_stats, "max_ns", max_ns),
	};
	struct json_object *kind;
	char saved[128];
	int rc;

	for (int s = 0; s < FCT_SC_N; s++) {
		if (jr_object(r, o, sc_name(s), false, &kind, saved, sizeof(saved)))
			return -1;
		rc = JR_FIELDS(r, kind, &sc[s], sc_fields, false) ||
		     jr_u32_array(r, kind, "hist", sc[s].hist, FCT_HIST_SLOTS);
		jr_leave(r, saved);
		if (rc)
			return -1;
	}
	return 0;
}

/* One thread's waits on each named lock or event. */
static int load_row_locks(struct jr *r, struct json_object *locks, struct thread_row *row)
{
	char saved[128];

	jr_enter(r, "locks", -1, saved, sizeof(saved));
	json_object_object_foreach(locks, name, l) {
		struct lock_use *u = &row->locks[row->nlocks];

		if (row->nlocks == MODEL_MAX_NAMED || strlen(name) >= sizeof(u->name))
			return jr_fail(r, name, "is one lock too many, or a name too long");
		if (!json_object_is_type(l, json_type_object))
			return jr_fail(r, name, "must be an object");
		snprintf(u->name, sizeof(u->name), "%s", name);
		if (jr_u64(r, l, "waits", &u->waits) || jr_u64(r, l, "wait_ns", &u->wait_ns) ||
		    jr_u64(r, l, "max_ns", &u->max_ns) || jr_bool(r, l, "is_lock", &u->is_lock) ||
		    jr_u64(r, l, "runq_ns", &u->runq_ns))
			return -1;
		row->nlocks++;
	}
	jr_leave(r, saved);
	return 0;
}

/* The kernel's figures, null where their probe group did not run. */
static const struct jr_field kernel_fields[] = {
	JR_FIELD(fct_thread, "futex_waits", futex_waits),
	JR_FIELD(fct_thread, "kernel_lock_wait_ns", klock_wait_ns),
	JR_FIELD(fct_thread, "kernel_lock_waits", klock_waits),
	JR_FIELD(fct_thread, "pages_asked", pages_asked),
	JR_FIELD(fct_thread, "oncpu_ns", oncpu_ns),
	JR_FIELD(fct_thread, "offcpu_ns", offcpu_ns),
	JR_FIELD(fct_thread, "runqueue_ns", runq_total_ns),
	JR_FIELD(fct_thread, "voluntary_switches", vol_switches),
	JR_FIELD(fct_thread, "involuntary_switches", invol_switches),
	JR_FIELD(fct_thread, "blocked_io_ns", blocked_io_ns),
	JR_FIELD(fct_thread, "stopped_ns", stopped_ns),
};

static const struct jr_field row_fields[] = {
	JR_FIELD(thread_row, "pagecache_hits", pagecache_hits),
	JR_FIELD(thread_row, "pagecache_misses", pagecache_misses),
	JR_FIELD(thread_row, "pagecache_written", pagecache_written),
	JR_FIELD(thread_row, "futex_wait_ns", d.futex_wait_ns),
};

/* The time account: each bucket by its JSON name. */
static int load_account(struct jr *r, struct json_object *o, struct thread_row *row)
{
	struct json_object *acct;
	char saved[128];
	int rc = 0;

	if (jr_object(r, o, "account_ns", false, &acct, saved, sizeof(saved)))
		return -1;
	for (int b = 0; b < ACCT_N && !rc; b++)
		rc = jr_u64(r, acct, acct_bucket_name(b), &row->acct_ns[b]);
	jr_leave(r, saved);
	return rc || jr_double(r, o, "accounted_ratio", &row->accounted_ratio) ? -1 : 0;
}

/* Added after schema 2 began: the process, and the sleeps other traced
 * processes ended; absent in older runs (read as not measured). */
static const struct jr_field since_v2_fields[] = {
	JR_FIELD(fct_thread, "sibling_signal_waits", sib_waits[FCT_WAKE_SIGNAL]),
	JR_FIELD(fct_thread, "sibling_signal_wait_ns", sib_wait_ns[FCT_WAKE_SIGNAL]),
	JR_FIELD(fct_thread, "sibling_signal_wakes", sib_wakes[FCT_WAKE_SIGNAL]),
	JR_FIELD(fct_thread, "sibling_write_waits", sib_waits[FCT_WAKE_WRITE]),
	JR_FIELD(fct_thread, "sibling_write_wait_ns", sib_wait_ns[FCT_WAKE_WRITE]),
	JR_FIELD(fct_thread, "sibling_write_wakes", sib_wakes[FCT_WAKE_WRITE]),
};

static int load_since_v2(struct jr *r, struct json_object *o, struct thread_row *row)
{
	unsigned pid;

	if (json_object_object_get_ex(o, "pid", NULL) && !json_object_is_type(
		    json_object_object_get(o, "pid"), json_type_null)) {
		if (jr_uint(r, o, "pid", INT32_MAX, &pid))
			return -1;
		row->k.tgid = pid;
	}
	for (size_t i = 0; i < sizeof(since_v2_fields) / sizeof(*since_v2_fields); i++)
		if (json_object_object_get_ex(o, since_v2_fields[i].key, NULL) &&
		    jr_fields(r, o, &row->k, &since_v2_fields[i], 1, true))
			return -1;
	return 0;
}

/* What the kernel saw of the thread: present when "locks" is not null. */
static int load_kernel(struct jr *r, struct json_object *o, struct thread_row *row)
{
	struct json_object *locks, *sc;
	char saved[128];
	int rc;

	if (jr_get(r, o, "locks", json_type_object, true, &locks))
		return -1;
	if (!(row->has_kernel = locks != NULL)) {
		row->k.comm[0] = '\0';	/* comm is the kernel's name for it */
		return 0;
	}
	row->k.tid = (uint32_t)row->tid;
	if (load_window(r, o, &row->k.how) || load_row_locks(r, locks, row) ||
	    JR_FIELDS(r, o, &row->k, kernel_fields, true) ||
	    JR_FIELDS(r, o, row, row_fields, true) || load_account(r, o, row) ||
	    jr_object(r, o, "syscalls", true, &sc, saved, sizeof(saved)))
		return -1;
	rc = sc && load_syscalls(r, sc, row->k.sc);
	jr_leave(r, saved);
	/* timers and polls: absent in runs saved before 2026-12 */
	if (!rc && json_object_object_get_ex(o, "idle_ns", NULL)) {
		bool set;

		rc = jr_u64_or_null(r, o, "idle_ns", &row->idle_ns, &set);
	}
	row->k.pages_added = row->pagecache_misses;
	row->k.pages_written = row->pagecache_written;
	return rc || load_since_v2(r, o, row) ? -1 : 0;
}

/* A row's thread and window are its "own clocks"' fields, which a
 * program's rows have too; the rest is a workload's alone. */
static void take_identity(struct thread_row *row, bool timed)
{
	row->tid = row->own.tid;
	row->index = row->own.index;
	row->start_ns = row->own.start_ns;
	row->end_ns = row->own.end_ns;
	row->timed = timed;
	if (!timed)
		memset(&row->own, 0, sizeof(row->own));
}

/* Every thread: the workload's own timings as the subject's attachment,
 * the joined rows in the model. */
static int load_threads(struct jr *r, struct json_object *doc, struct session *s)
{
	struct joined_run *m = &s->joined;
	struct json_object *a, *o;
	char saved[128];
	size_t n;

	if (jr_get(r, doc, "threads", json_type_array, false, &a))
		return -1;
	if ((n = json_object_array_length(a)) > LOAD_MAX_ROWS)
		return jr_fail(r, "threads", "has more threads than fctrace reports");
	s->timings.threads = calloc(n ? n : 1, sizeof(*s->timings.threads));
	m->rows = calloc(n ? n : 1, sizeof(*m->rows));
	if (!s->timings.threads || !m->rows)
		return jr_fail(r, NULL, "out of memory");
	for (size_t i = 0; i < n; i++) {
		struct thread_row *row = &m->rows[i];

		if (jr_element(r, a, "threads", i, &o, saved, sizeof(saved)) ||
		    load_own(r, o, &row->own))
			return -1;
		take_identity(row, s->target.mode == TGT_NONE);
		if (load_identity(r, o, row) || load_kernel(r, o, row))
			return -1;
		jr_leave(r, saved);
		s->timings.threads[i] = row->own;
		s->timings.nthreads = m->nrows = (unsigned)i + 1;
	}
	return 0;
}

/* ---- run-wide ------------------------------------------------------------ */

/* The pool's or the cache's totals (at most one of them). */
static int load_totals(struct jr *r, struct json_object *doc, struct subject_totals *t)
{
	struct json_object *pool, *cache, *o;
	char saved[128];
	int rc;

	if (jr_get(r, doc, "pool", json_type_object, true, &pool) ||
	    jr_get(r, doc, "cache", json_type_object, true, &cache))
		return -1;
	if (pool && cache)
		return jr_fail(r, NULL, "has both pool and cache totals: no workload has both");
	if (!(o = pool ? pool : cache))
		return 0;
	t->has_pool = pool != NULL;
	t->has_cache = cache != NULL;
	jr_enter(r, pool ? "pool" : "cache", -1, saved, sizeof(saved));
	rc = jr_u64(r, o, "hits", &t->hits) || jr_u64(r, o, "misses", &t->misses) ||
	     jr_u64(r, o, "evictions", &t->evictions) ||
	     (pool ? jr_u64(r, o, "max_open", &t->max_open) ||
		     jr_u64(r, o, "over_capacity", &t->over_capacity)
		   : jr_u64(r, o, "cached_bytes", &t->cache_bytes) ||
		     jr_u64(r, o, "cached_blocks", &t->cache_blocks));
	jr_leave(r, saved);
	return rc ? -1 : 0;
}

/* Run-wide lock totals, in the order the run listed them (ties in the
 * table go by that order). */
/* A state's time (ns, as JSON keeps it) into h's figures. */
static int load_hold_states(struct jr *r, struct json_object *o, double *v)
{
	char key[32];
	uint64_t ns;

	for (int s = 0; s < HS_N; s++) {
		snprintf(key, sizeof(key), "%s_ns", hold_state_name(s));
		if (jr_u64(r, o, key, &ns))
			return -1;
		v[s] = (double)ns;
	}
	return 0;
}

/* The syscalls made holding the lock: {name: count} and {name: ns}. */
static int load_hold_calls(struct jr *r, struct json_object *o, struct lock_holders *h)
{
	struct json_object *sc, *scns;
	uint64_t ns;
	int nr;

	if (jr_get(r, o, "syscalls", json_type_object, false, &sc) ||
	    jr_get(r, o, "syscall_time_ns", json_type_object, false, &scns))
		return -1;
	json_object_object_foreach(sc, name, v) {
		(void)v;
		if (h->nnr == HOLDERS_MAX_NR)
			return jr_fail(r, "syscalls", "has more calls than fctrace keeps");
		if ((nr = syscall_nr(name)) < 0)
			return jr_fail(r, "syscalls", "names a syscall this fctrace does not know");
		h->nr[h->nnr].nr = (uint16_t)nr;
		if (jr_u64(r, sc, name, &h->nr[h->nnr].count) || jr_u64(r, scns, name, &ns))
			return -1;
		h->nr[h->nnr++].ns = (double)ns;
	}
	return 0;
}

/* The other locks its holders waited for (absent in runs saved before). */
static int load_hold_chain(struct jr *r, struct json_object *o, struct lock_holders *h)
{
	struct json_object *a, *e;
	char saved[128];
	uint64_t ns;

	if (!json_object_object_get_ex(o, "waiting_for", NULL))
		return 0;
	if (jr_get(r, o, "waiting_for", json_type_array, false, &a))
		return -1;
	for (size_t i = 0; i < json_object_array_length(a) && h->nchain < HOLDERS_MAX_CHAIN; i++) {
		struct hold_chain *c = &h->chain[h->nchain];

		if (jr_element(r, a, "waiting_for", i, &e, saved, sizeof(saved)) ||
		    jr_str(r, e, "lock", false, c->lock, sizeof(c->lock)) ||
		    jr_bool(r, e, "is_lock", &c->is_lock) ||
		    jr_u64(r, e, "waits", &c->count) || jr_u64(r, e, "ns", &ns))
			return -1;
		jr_leave(r, saved);
		c->ns = (double)ns;
		h->nchain++;
	}
	return 0;
}

/* A JVM lock's call sites (absent from runs saved before them). */
static int load_sites(struct jr *r, struct json_object *o, struct lock_total *l)
{
	struct json_object *a, *e;
	char saved[128];

	if (!json_object_object_get_ex(o, "sites", NULL))
		return 0;
	if (jr_get(r, o, "sites", json_type_array, false, &a))
		return -1;
	for (size_t i = 0; i < json_object_array_length(a) && l->nsites < LOCK_SITES_MAX; i++) {
		struct lock_site *s = &l->sites[l->nsites];

		if (jr_element(r, a, "sites", i, &e, saved, sizeof(saved)) ||
		    jr_str(r, e, "site", false, s->site, sizeof(s->site)) ||
		    jr_u64(r, e, "waits", &s->waits) || jr_u64(r, e, "wait_ns", &s->wait_ns))
			return -1;
		jr_leave(r, saved);
		l->nsites++;
	}
	return 0;
}

/* A lock's holders (absent from runs saved before they were measured). */
static int load_holders(struct jr *r, struct json_object *o, struct lock_holders *h)
{
	struct json_object *ho, *w;
	char saved[128], wsaved[128], method[400];
	uint64_t held, cont, wait, words, handoff;
	int rc;

	if (!json_object_object_get_ex(o, "holders", NULL))
		return 0;
	if (jr_object(r, o, "holders", true, &ho, saved, sizeof(saved)))
		return -1;
	if (!ho)
		return 0;
	rc = jr_str(r, ho, "method", false, method, sizeof(method)) ||
	     jr_u64(r, ho, "held_ns", &held) || load_hold_states(r, ho, h->state_ns) ||
	     jr_u64(r, ho, "syscall_count", &h->syscalls) || load_hold_calls(r, ho, h) ||
	     load_hold_chain(r, ho, h) ||
	     jr_u64(r, ho, "contended_ns", &cont) || jr_u64(r, ho, "samples", &h->samples) ||
	     jr_u64(r, ho, "words", &words) ||
	     jr_object(r, ho, "while_waited", false, &w, wsaved, sizeof(wsaved));
	if (!rc) {
		rc = load_hold_states(r, w, h->waited_ns) || jr_u64(r, w, "waiter_ns", &wait) ||
		     jr_u64(r, w, "handoff_ns", &handoff);
		jr_leave(r, wsaved);
	}
	jr_leave(r, saved);
	h->measured = true;
	h->java = strstr(method, "ObjectMonitor") != NULL;	/* holders_method's words */
	h->held_ns = (double)held;
	h->contended_ns = (double)cont;
	h->waiter_ns = (double)wait;
	h->words = (unsigned)words;
	return rc ? -1 : 0;
}

static int load_locks(struct jr *r, struct json_object *doc, struct joined_run *m)
{
	struct json_object *a, *o;
	char saved[128];
	size_t n;

	if (jr_get(r, doc, "locks", json_type_array, false, &a))
		return -1;
	n = json_object_array_length(a);
	if (n > LOAD_MAX_ROWS * MODEL_MAX_NAMED)
		return jr_fail(r, "locks", "has more locks than any run could");
	free(m->locks);
	m->nlocks = 0;
	if (!(m->locks = calloc(n ? n : 1, sizeof(*m->locks))))
		return jr_fail(r, NULL, "out of memory");
	for (size_t i = 0; i < n; i++, m->nlocks++) {
		struct lock_total *l = &m->locks[i];

		if (jr_element(r, a, "locks", i, &o, saved, sizeof(saved)) ||
		    jr_str(r, o, "name", false, l->name, sizeof(l->name)) ||
		    jr_bool(r, o, "kernel", &l->kernel) || jr_u64(r, o, "waits", &l->waits) ||
		    jr_u64(r, o, "wait_ns", &l->wait_ns) || jr_u64(r, o, "max_ns", &l->max_ns) ||
		    jr_uint(r, o, "threads", LOAD_MAX_ROWS, &l->threads) ||
		    jr_bool(r, o, "is_lock", &l->is_lock) || jr_u64(r, o, "runq_ns", &l->runq_ns) ||
		    jr_u64(r, o, "wakes", &l->wakes) ||
		    jr_u64(r, o, "wakes_by_waiters", &l->wakes_by_waiters) ||
		    jr_bool(r, o, "taken_in_turns", &l->turns) || load_holders(r, o, &l->holders) ||
		    load_sites(r, o, l))
			return -1;
		jr_leave(r, saved);
	}
	return 0;
}

/* Every syscall by number (other programs' table); null without the
 * syscalls group. */
static int load_by_number(struct jr *r, struct json_object *doc, struct joined_run *m)
{
	static const struct jr_field nr_fields[] = {
		JR_FIELD(fct_nr_stats, "count", count),
		JR_FIELD(fct_nr_stats, "total_ns", total_ns),
		JR_FIELD(fct_nr_stats, "blocked_ns", blocked_ns),
	};
	struct json_object *a, *o;
	char saved[128];
	unsigned nr;

	if (jr_get(r, doc, "syscalls_by_number", json_type_array, true, &a))
		return -1;
	memset(m->nr_total, 0, sizeof(m->nr_total));
	for (size_t i = 0; a && i < json_object_array_length(a); i++) {
		if (jr_element(r, a, "syscalls_by_number", i, &o, saved, sizeof(saved)) ||
		    jr_uint(r, o, "nr", FCT_NR_MAX - 1, &nr) ||
		    JR_FIELDS(r, o, &m->nr_total[nr], nr_fields, false))
			return -1;
		jr_leave(r, saved);
	}
	return 0;
}

/* One ranked cause, with its evidence. */
static int load_cause(struct jr *r, struct json_object *o, struct diag_cause *c)
{
	struct json_object *ev, *e;

	if (jr_str(r, o, "cause", false, c->cause, sizeof(c->cause)) ||
	    jr_double(r, o, "share", &c->share) ||
	    jr_str(r, o, "title", false, c->title, sizeof(c->title)) ||
	    jr_double(r, o, "confidence", &c->confidence) ||
	    jr_get(r, o, "evidence", json_type_array, false, &ev))
		return -1;
	if (json_object_array_length(ev) > EXPLAIN_MAX_EVIDENCE)
		return jr_fail(r, "evidence", "has more sentences than a cause can hold");
	for (size_t i = 0; i < json_object_array_length(ev); i++, c->nevidence++) {
		e = json_object_array_get_idx(ev, i);
		if (!json_object_is_type(e, json_type_string) ||
		    (size_t)json_object_get_string_len(e) >= sizeof(c->evidence[0]))
			return jr_fail(r, "evidence", "must hold sentences of at most 319 bytes");
		snprintf(c->evidence[i], sizeof(c->evidence[i]), "%s", json_object_get_string(e));
	}
	return 0;
}

/* The diagnosis as the run made it: its causes and the Why's other lines. */
static int load_diagnosis(struct jr *r, struct json_object *doc, struct diagnosis *d)
{
	struct json_object *a, *o, *why;
	char saved[128];
	int rc;

	if (jr_get(r, doc, "diagnosis", json_type_array, false, &a))
		return -1;
	if (json_object_array_length(a) > EXPLAIN_MAX_CAUSES)
		return jr_fail(r, "diagnosis", "has more causes than fctrace ranks");
	for (size_t i = 0; i < json_object_array_length(a); i++, d->n++) {
		if (jr_element(r, a, "diagnosis", i, &o, saved, sizeof(saved)) ||
		    load_cause(r, o, &d->causes[i]))
			return -1;
		jr_leave(r, saved);
	}
	if (jr_object(r, doc, "why", false, &why, saved, sizeof(saved)))
		return -1;
	rc = jr_str(r, why, "headline", false, d->headline, sizeof(d->headline)) ||
	     jr_str(r, why, "fix", false, d->fix, sizeof(d->fix)) ||
	     jr_str(r, why, "beyond", false, d->beyond, sizeof(d->beyond)) ||
	     /* the threads' roles: absent in runs saved before 2026-12 or all alike */
	     (json_object_object_get_ex(why, "threads", NULL) &&
	      jr_str(r, why, "threads", false, d->threads, sizeof(d->threads)));
	jr_leave(r, saved);
	return rc ? -1 : 0;
}

/* How the run went: cut short, stopped, its wall time and CPUs. */
static int load_run_flags(struct jr *r, struct json_object *doc, struct session *s)
{
	char tool[16];
	unsigned sub = 0;

	if (jr_str(r, doc, "tool", false, tool, sizeof(tool)) ||
	    jr_bool(r, doc, "interrupted", &s->interrupted) ||
	    jr_uint(r, doc, "stopped", UINT32_MAX, &s->stopped) ||
	    jr_u64(r, doc, "wall_ns", &s->joined.wall_ns) ||
	    jr_uint(r, doc, "ncpus", UINT32_MAX, &s->joined.ncpus))
		return -1;
	if (strcmp(tool, "fctrace"))
		return jr_fail(r, "tool", "must be \"fctrace\"");
	if (jr_uint(r, doc, "hist_sub_buckets", UINT32_MAX, &sub))
		return -1;
	if (sub != FCT_HIST_SUB)	/* the histograms' layout: this fctrace reads its own */
		return jr_fail(r, "hist_sub_buckets", "must be 8: the histograms are laid out so");
	s->timings.wall_ns = s->joined.wall_ns;
	s->timings.cfg = session_workload_config(&s->cfg);
	return 0;
}

/* The machine's CPUs over the window (machine_cpu): null untraced; its
 * samples null without the cpuclock probes. */
/* Its samples of fctrace itself and the window they cover: absent in
 * runs saved before they were kept. */
static int load_machine_window(struct jr *r, struct json_object *o, struct kview *kv)
{
	uint64_t tracer = 0, cpus = 0;
	bool set;

	if (json_object_object_get_ex(o, "samples_tracer", NULL) &&
	    jr_u64_or_null(r, o, "samples_tracer", &tracer, &set))
		return -1;
	if (json_object_object_get_ex(o, "window_ns", NULL) &&
	    (jr_u64(r, o, "window_ns", &kv->machine_ns) || jr_u64(r, o, "sampled_cpus", &cpus)))
		return -1;
	kv->machine.tracer = tracer;
	kv->machine_cpus = (unsigned)cpus;
	return 0;
}

/* The processes the sampler saw most (absent in runs saved before they were kept). */
static int load_others(struct jr *r, struct json_object *o, struct kview *kv)
{
	struct json_object *a, *e;
	char saved[128];
	size_t n;

	if (!json_object_object_get_ex(o, "others", NULL))
		return 0;
	if (jr_get(r, o, "others", json_type_array, false, &a))
		return -1;
	n = json_object_array_length(a);
	if (n > 5)
		return jr_fail(r, "others", "has more processes than fctrace saves");
	kv->others = calloc(n ? n : 1, sizeof(*kv->others));
	if (!kv->others)
		return jr_fail(r, NULL, "out of memory");
	for (size_t i = 0; i < n; i++, kv->nothers++) {
		struct kv_other *x = &kv->others[i];
		uint64_t pid;

		if (jr_element(r, a, "others", i, &e, saved, sizeof(saved)) ||
		    jr_u64(r, e, "pid", &pid) || jr_str(r, e, "comm", false, x->comm, sizeof(x->comm)) ||
		    jr_u64(r, e, "samples", &x->samples))
			return -1;
		x->tgid = (uint32_t)pid;
		jr_leave(r, saved);
	}
	return 0;
}

static int load_machine(struct jr *r, struct json_object *doc, struct kview *kv)
{
	struct cpustat *cpu = &kv->cpu;
	struct fct_machine *m = &kv->machine;
	bool *sampled = &kv->machine_sampled;

	static const struct jr_field fields[] = {
		JR_FIELD(cpustat, "busy_ns", busy_ns), JR_FIELD(cpustat, "idle_ns", idle_ns),
		JR_FIELD(cpustat, "steal_ns", steal_ns),
	};
	struct json_object *o;
	char saved[128];
	int rc;

	if (jr_object(r, doc, "machine_cpu", true, &o, saved, sizeof(saved)))
		return -1;
	rc = o && JR_FIELDS(r, o, cpu, fields, false);
	cpu->valid = o != NULL && !rc;
	if (o && !rc) {
		uint64_t other = 0, idle = 0;

		rc = jr_u64_or_null(r, o, "samples_other", &other, sampled) ||
		     jr_u64_or_null(r, o, "samples_idle", &idle, sampled) ||
		     load_machine_window(r, o, kv) || load_others(r, o, kv);
		m->other = other;
		m->idle = idle;
	}
	jr_leave(r, saved);
	return rc ? -1 : 0;
}

/* One loss as the run said it. */
static int load_loss(struct jr *r, struct json_object *o, struct loss *l)
{
	struct json_object *t;

	if (jr_str(r, o, "lost", false, l->id, sizeof(l->id)) ||
	    jr_u64(r, o, "count", &l->count) || jr_double(r, o, "kept", &l->kept) ||
	    jr_str(r, o, "says", false, l->says, sizeof(l->says)) ||
	    jr_get(r, o, "touches", json_type_array, false, &t))
		return -1;
	if (json_object_array_length(t) > LOSS_MAX_TOUCHES)
		return jr_fail(r, "touches", "names more figures than fctrace keeps");
	for (size_t k = 0; k < json_object_array_length(t); k++) {
		struct json_object *e = json_object_array_get_idx(t, k);

		if (!json_object_is_type(e, json_type_string))
			return jr_fail(r, "touches", "must be strings");
		snprintf(l->touches[l->ntouches++], sizeof(l->touches[0]), "%s",
			 json_object_get_string(e));
	}
	return 0;
}

/* What the run lost (losses): read back as it said it, not derived again;
 * absent in runs saved before it was kept, null untraced. */
static int load_losses(struct jr *r, struct json_object *doc, struct losses *ls)
{
	struct json_object *a, *o;
	char saved[128];

	memset(ls, 0, sizeof(*ls));
	if (!json_object_object_get_ex(doc, "losses", NULL))
		return 0;
	if (jr_get(r, doc, "losses", json_type_array, true, &a))
		return -1;
	if (a && json_object_array_length(a) > LOSS_MAX)
		return jr_fail(r, "losses", "has more losses than fctrace counts");
	for (size_t i = 0; a && i < json_object_array_length(a); i++, ls->n++) {
		if (jr_element(r, a, "losses", i, &o, saved, sizeof(saved)) ||
		    load_loss(r, o, &ls->l[i]))
			return -1;
		jr_leave(r, saved);
	}
	return 0;
}

/* op_costs.solo, one thread alone: absent in runs saved before 2026-12-04. */
static int load_solo(struct jr *r, struct json_object *costs, struct solo_costs *solo)
{
	static const struct jr_field fields[] = {
		JR_FIELD(solo_costs, "hit_ns", hit_ns),
		JR_FIELD(solo_costs, "miss_ns", miss_ns),
		JR_FIELD(solo_costs, "fc_ns", fc_ns),
	};
	struct json_object *o;
	char saved[128];
	int rc;

	if (!json_object_object_get_ex(costs, "solo", NULL))
		return 0;
	if (jr_object(r, costs, "solo", true, &o, saved, sizeof(saved)))
		return -1;
	rc = o ? JR_FIELDS(r, o, solo, fields, false) : 0;
	jr_leave(r, saved);
	return rc;
}

/* A pool's uncontended op costs (op_costs): absent in runs saved before
 * the what-if model read them, null for other workloads. */
static int load_op_costs(struct jr *r, struct json_object *doc, struct session *s)
{
	struct joined_run *m = &s->joined;
	static const struct jr_field fields[] = {
		JR_FIELD(joined_run, "hit_p50_ns", op_hit_p50_ns),
		JR_FIELD(joined_run, "miss_p50_ns", op_miss_p50_ns),
		JR_FIELD(joined_run, "read_p50_ns", read_p50_ns),
		JR_FIELD(joined_run, "hold_hit_ns", hold_hit_ns),
		JR_FIELD(joined_run, "hold_miss_ns", hold_miss_ns),
		JR_FIELD(joined_run, "hold_put_ns", hold_put_ns),
	};
	struct json_object *o;
	char saved[128];
	int rc;

	if (!json_object_object_get_ex(doc, "op_costs", NULL))
		return 0;
	if (jr_object(r, doc, "op_costs", true, &o, saved, sizeof(saved)))
		return -1;
	rc = o ? JR_FIELDS(r, o, m, fields, false) : 0;
	if (!rc && o)
		rc = load_solo(r, o, &s->timings.solo);
	jr_leave(r, saved);
	return rc ? -1 : 0;
}

/* How the on-CPU time was split (cpu_split) and the kernel lock sites
 * attributed (kernel_lock_sites): the run-wide figures the table notes. */
static int load_splits(struct jr *r, struct json_object *doc, struct joined_run *m)
{
	struct json_object *o;
	char saved[128];
	int rc = 0;

	if (jr_object(r, doc, "cpu_split", true, &o, saved, sizeof(saved)))
		return -1;
	if (o)
		rc = jr_uint(r, o, "threads", LOAD_MAX_ROWS, &m->cpu_split_rows) ||
		     jr_uint(r, o, "threads_sampled", LOAD_MAX_ROWS, &m->cpu_split_sampled) ||
		     jr_u64(r, o, "samples_user", &m->cpu_samples_user) ||
		     jr_u64(r, o, "samples_sys", &m->cpu_samples_sys) ||
		     jr_u64(r, o, "samples_futex", &m->cpu_samples_futex);
	jr_leave(r, saved);
	if (rc || jr_object(r, doc, "kernel_lock_sites", true, &o, saved, sizeof(saved)))
		return -1;
	if (o)
		rc = jr_u64(r, o, "exact_wait_ns", &m->klock_exact_ns) ||
		     jr_u64(r, o, "sampled_wait_ns", &m->klock_est_ns);
	jr_leave(r, saved);
	return rc ? -1 : 0;
}

/* --timeline's summary: its lanes are not in the file (--timeline-out has
 * every interval), so the saved object is kept and written back as is. */
static int load_timeline(struct jr *r, struct json_object *doc, struct session *s)
{
	struct json_object *o;
	uint64_t dropped = 0, ring = 0;

	if (jr_get(r, doc, "timeline", json_type_object, true, &o))
		return -1;
	if (!o)
		return 0;
	if (jr_u64(r, o, "dropped", &dropped) || jr_u64(r, o, "ring_bytes", &ring))
		return -1;
	s->kv.tl.on = true;
	s->kv.tl.dropped = dropped;
	s->kv.tl.ring_bytes = ring;
	/* the window asked for: absent in runs saved before 2026-12 */
	if (json_object_object_get_ex(o, "asked_ns", NULL) &&
	    jr_u64(r, o, "asked_ns", &s->kv.tl.asked_ns))
		return -1;
	s->saved_timeline = json_object_get(o);
	return 0;
}

/* A JVM's own threads are set aside from the totals, as join_add_jvm
 * sets them: unless none of the threads is the application's. */
static void set_aside(struct joined_run *m)
{
	for (unsigned i = 0; m->jvm && m->app_threads && i < m->nrows; i++)
		m->rows[i].aside = m->rows[i].group &&
				   strcmp(m->rows[i].group, jvm_group_name(JVM_G_APP));
}

/* The model's links, and its run-wide totals summed from the rows as
 * join.c sums them; the locks and the calls by number are the file's
 * (their sources, the kernel's lock stacks and each thread's calls by
 * number, are not saved). */
static int finish_model(struct jr *r, struct json_object *doc, struct session *s)
{
	struct joined_run *m = &s->joined;
	uint64_t ops;

	m->subject = s->subject;
	m->timings = s->target.mode == TGT_NONE ? &s->timings : NULL;
	m->kv = s->traced ? &s->kv : NULL;
	m->groups = s->traced ? s->kv.groups : 0;
	m->time_every = s->kv.time_every;
	m->names = s->names;
	m->nnames = s->nnames;
	set_aside(m);
	join_retotal(m);
	if (jr_u64(r, doc, "ops", &ops) || load_locks(r, doc, m) || load_by_number(r, doc, m) ||
	    load_splits(r, doc, m) || load_op_costs(r, doc, s) || load_machine(r, doc, &s->kv) ||
	    load_timeline(r, doc, s) || load_losses(r, doc, &m->losses) ||
	    load_stacks(r, doc, &s->stacks) || load_evictions(r, doc, &m->evictions))
		return -1;
	m->ops = ops;
	return 0;
}

int load_run(struct json_object *doc, struct session *s, char *why, size_t n)
{
	struct jr r = { why, n, "" };
	enum load_kind kind;
	char name[64];

	memset(s, 0, sizeof(*s));
	if (load_kind(doc, &kind, why, n))
		return -1;
	if (kind != LOAD_RUN)
		return jr_fail(&r, NULL, kind == LOAD_COMPARE ? "is a comparison of two runs, "
			       "not one run" : "is a sweep, not one run");
	if (load_config(&r, doc, &s->cfg, name, sizeof(name)) || load_target(&r, doc, s) ||
	    name_subject(&r, name, s) || load_tracing(&r, doc, s) ||
	    load_threads(&r, doc, s) || load_totals(&r, doc, &s->timings.totals) ||
	    load_run_flags(&r, doc, s) || load_diagnosis(&r, doc, &s->diag) ||
	    finish_model(&r, doc, s))
		return -1;
	/* the what-if model is fitted again from the saved figures, as the
	 * explain stage fits it for a run */
	s->diag.has_whatif = whatif_from_model(&s->joined, &s->diag.whatif) == 0;
	explain_lock_whatifs(&s->joined, &s->diag);
	return 0;
}

int load_run_file(const char *path, struct session *s, char *why, size_t n)
{
	struct json_object *doc = NULL;
	enum load_kind kind;
	int rc = -1;

	memset(s, 0, sizeof(*s));
	if (load_document(path, &doc, why, n) || load_kind(doc, &kind, why, n))
		goto out;
	if (kind != LOAD_RUN)
		snprintf(why, n, "not a single run (a compare or sweep document)");
	else
		rc = load_run(doc, s, why, n);
out:
	json_object_put(doc);
	return rc;
}
