/*
 * load_run.c - a saved run's session rebuilt from its run document
 * (report_json.c writes it; tests/session/test_saved.c keeps the two and
 * docs/fctrace.schema.json in step, field by field, and test_report.c
 * wants a reported run's own text and JSON back).
 *
 * What is rebuilt is what the reporters read: the settings, the result
 * (each worker's own clocks, the pool or cache totals), the kernel view's
 * probes and lost events, the joined model (each thread's kernel account,
 * the run-wide totals, the locks) and the diagnosis. The diagnosis is read
 * back, not derived again: it is what the run said, whatever rules this
 * fctrace has. Nothing else of the run is needed, so nothing else is made
 * up: the raw BPF maps (futex words, kernel lock stacks) stay empty.
 *
 * The file's objects are described by tables (base/jsonread.h: a key, its
 * kind, the struct member it goes to, whether it may be null or absent);
 * the code here is what a table cannot say: maps keyed by data, values
 * checked against each other, figures that go to more than one place.
 * A key marked JR_SINCE was added after schema 2 began: absent in runs
 * saved before it, and read as not measured.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/jsonread.h"
#include "base/sysnames.h"
#include "jvm/jvm.h"
#include "session/load_json.h"
#include "session/load_stacks.h"
#include "session/load_caches.h"
#include "session/load_pools.h"
#include "session/load_evictions.h"
#include "session/load_disk.h"
#include "session/load_run.h"
#include "session/run_format.h"
#include "session/load_wakers.h"
#include "base/schema.h"
#include "explain/whatif.h"

#define LOAD_MAX_ROWS	16384		/* threads of another program, JVMs included */
#define OPT		JR_SINCE	/* absent in runs saved before the key */
#define OPT_NULL	(JR_SINCE | JR_NULL)

/* The rows of array d->key, allocated (never NULL: one row at least) and
 * read; *n the rows read. */
static int load_rows(struct jr *r, struct json_object *o, const struct jr_rows *d,
		     void **rows, void *arg, size_t *n)
{
	struct json_object *a;
	size_t len;

	*n = 0;
	if (jr_array(r, o, d->key, d->flags, &a, &len))
		return -1;
	if (len > d->max)
		return jr_fail(r, d->key, d->toomany);
	if (!(*rows = calloc(len ? len : 1, d->stride)))
		return jr_fail(r, NULL, "out of memory");
	return jr_array_rows(r, o, d, *rows, arg, n);
}

/* An array of strings into the rows of a char array: at most max, each
 * fitting. */
static int load_strings(struct jr *r, struct json_object *o, const char *key, char *rows,
			size_t size, size_t max, const char *what, int *n)
{
	struct json_object *a, *e;
	char fit[64];
	size_t len;

	if (jr_array(r, o, key, 0, &a, &len))
		return -1;
	if (len > max)
		return jr_fail(r, key, what);
	for (size_t i = 0; i < len; i++, (*n)++) {
		e = json_object_array_get_idx(a, i);
		snprintf(fit, sizeof(fit), "must hold strings of at most %zu bytes", size - 1);
		if (!json_object_is_type(e, json_type_string) ||
		    (size_t)json_object_get_string_len(e) >= size)
			return jr_fail(r, key, fit);
		snprintf(rows + i * size, size, "%s", json_object_get_string(e));
	}
	return 0;
}

/* ---- settings and subject ------------------------------------------------ */

/* The settings; the workload's name goes to name (a program's comm for
 * run -- CMD and attach: told apart once the target is read). */
static int load_config(struct jr *r, struct json_object *doc, struct wl_config *c,
		       char *name, size_t n)
{
	struct json_object *o;
	char saved[128];

	if (jr_object(r, doc, "config", false, &o, saved, sizeof(saved)) ||
	    jr_str(r, o, "workload", false, name, n) || JR_READ_T(r, o, c, rf_config))
		return -1;
	jr_leave(r, saved);
	return 0;
}

/* Another program's futex words, by name (their addresses are not saved:
 * the reporters only name and count them). s->names is never NULL for a
 * target: the model tells other programs by it. */
static int load_lock_names(struct jr *r, struct json_object *t, struct session *s)
{
	const struct jr_rows rows = {
		"lock_names", 0, sizeof(struct lock_name), LOAD_MAX_ROWS * MODEL_MAX_NAMED,
		"has more names than any run could", rf_lock_name.f, rf_lock_name.n, NULL,
	};
	size_t n;
	int rc = load_rows(r, t, &rows, (void **)&s->names, NULL, &n);

	s->nnames = (int)n;
	return rc;
}

/* HotSpot's view, run-wide (its libjvm is the target's) */
static const struct jr_field jvm_fields[] = {
	JR_BOOLF(joined_run, "monitor_probes", jvm_monitors),
	JR_FIELD(joined_run, "gcs", gcs), JR_FIELD(joined_run, "gc_ns", gc_ns),
	JR_FIELD(joined_run, "gc_max_ns", gc_max_ns),
	JR_FIELD(joined_run, "safepoints", safepoints),
	JR_FIELD(joined_run, "safepoint_ns", safepoint_ns), JR_FIELD(joined_run, "parks", parks),
	JR_FIELD(joined_run, "park_ns", park_ns),
	JR_MAX(joined_run, "application_threads", app_threads, LOAD_MAX_ROWS),
	JR_STRF(joined_run, "monitor_holders", jvm_holders.detail, OPT_NULL),
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

/* A JVM target: what HotSpot's probes counted, run-wide. */
static int load_jvm(struct jr *r, struct json_object *t, struct session *s)
{
	struct joined_run *m = &s->joined;
	struct json_object *o;
	char saved[128];

	if (jr_object(r, t, "jvm", true, &o, saved, sizeof(saved)))
		return -1;
	m->jvm = o != NULL;
	if (o && (jr_str(r, o, "libjvm", false, s->target.libjvm, sizeof(s->target.libjvm)) ||
	    JR_READ(r, o, m, jvm_fields) || load_monitor_flag(r, o, m) ||
	    /* fctrace's JVMTI agent's sampling: null when it did not run */
	    jr_section(r, o, "agent", OPT_NULL, m, rf_agent.f, rf_agent.n, &m->jvm_agent)))
		return -1;
	if (m->jvm_holders.detail[0])	/* the words as they were said */
		m->jvm_holders.why = JH_AS_SAVED;
	jr_leave(r, saved);
	return 0;
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
	struct target_info *ti = &s->target;
	struct json_object *t;
	char saved[128];

	if (jr_object(r, doc, "target", true, &t, saved, sizeof(saved)))
		return -1;
	if (t && (JR_READ_T(r, t, ti, rf_program) || load_ending(r, t, ti) ||
		  JR_READ_T(r, t, ti, rf_sampling) || load_lock_names(r, t, s) ||
		  load_jvm(r, t, s)))
		return -1;
	jr_leave(r, saved);
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
/* What traced the run: a run is traced when it has lost_events. */
static int load_tracing(struct jr *r, struct json_object *doc, struct session *s)
{
	static const char *const sets[] = { "full", "light", "custom", "floor", "none" };
	uint64_t every = 0;
	bool set;
	int i = 0;

	if (jr_choice(r, doc, "probe_set", sets, 5, &i) ||
	    jr_section(r, doc, "lost_events", JR_NULL, &s->kv.lost, rf_lost.f, rf_lost.n,
		       &s->traced))
		return -1;
	s->joined.probe_set = sets[i];
	if (!s->traced)
		return 0;
	if (jr_section(r, doc, "overhead", JR_NULL | JR_SINCE, &s->kv.cost, rf_cost.f, rf_cost.n,
		       &s->kv.cost_measured))
		return -1;
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

static const struct jr_field latency_fields[] = {
	JR_FIELD(thread_timings, "timed", lat_timed),
	JR_FIELD(thread_timings, "total_ns", lat_total_ns),
	JR_FIELD(thread_timings, "min_ns", lat_min_ns),
	JR_FIELD(thread_timings, "max_ns", lat_max_ns),
	JR_NUMSF(thread_timings, "hist", lat_hist),
};

/* The thread's own clocks and its sampled ops' latency: the subject's
 * timings, which the row points at. */
static const struct jr_field timing_fields[] = {
	JR_MAX(thread_timings, "tid", tid, INT32_MAX),
	JR_FIELD(thread_timings, "index", index), JR_FIELD(thread_timings, "ops", ops),
	JR_FIELD(thread_timings, "start_ns", start_ns),
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
	JR_OBJECT("latency", latency_fields, JR_NULL),
};

/* Its names: "name" repeats comm for a thread without one of its own,
 * kept as its name all the same, which prints and saves the same. */
static const struct jr_field thread_fields[] = {
	JR_STRF(thread_row, "comm", k.comm, JR_NULL),
	JR_STRF(thread_row, "name", name, JR_NULL),
};

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

/* A JVM thread's group, by its name (null for other programs' threads). */
static int load_group(struct jr *r, struct json_object *o, struct thread_row *row)
{
	char group[32];

	if (jr_str(r, o, "group", true, group, sizeof(group)))
		return -1;
	if (!group[0])
		return 0;
	for (int g = 0; g < JVM_G_N; g++)
		if (!strcmp(group, jvm_group_name(g)))
			row->group = jvm_group_name(g);
	return row->group ? 0 : jr_fail(r, "group", "is not a JVM thread group");
}

static const struct jr_field sc_fields[] = {
	JR_FIELD(sc_stats, "count", count), JR_FIELD(sc_stats, "errors", errors),
	JR_FIELD(sc_stats, "timed", timed), JR_FIELD(sc_stats, "total_ns", total_ns),
	JR_FIELD(sc_stats, "min_ns", min_ns), JR_FIELD(sc_stats, "max_ns", max_ns),
	JR_NUMSF(sc_stats, "hist", hist),
};

/* A named row's figures into the account's table under its number, so
 * that what reads a thread by number finds what the file kept of it. */
static int row_to_account(struct thread_row *row, enum sc_row s, struct acct_arena *arena)
{
	int nr = sc_row_nr(s);
	struct fct_nr_stats *n;

	if (nr < 0 || nr >= FCT_NR_MAX || !row->sc[s].count)
		return 0;
	if (!(n = acct_nr_put(&row->k, arena, (unsigned)nr)))
		return -1;
	n->count = row->sc[s].count;
	n->errors = row->sc[s].errors;
	n->timed = row->sc[s].timed;
	n->total_ns = row->sc[s].total_ns;
	return 0;
}

/* The syscalls of one thread: each row by its name (null without the
 * syscalls group; a row absent: the thread never made that call). */
static int load_syscalls(struct jr *r, struct json_object *o, struct thread_row *row,
			 struct acct_arena *arena)
{
	struct json_object *kinds;
	char saved[128];
	bool there;

	if (jr_object(r, o, "syscalls", true, &kinds, saved, sizeof(saved)))
		return -1;
	for (int s = 0; kinds && s < SC_ROW_N; s++) {
		if (JR_SECTION(r, kinds, sc_row_name(s), JR_SINCE, &row->sc[s], sc_fields, &there))
			return -1;
		if (row_to_account(row, s, arena))
			return jr_fail(r, NULL, "out of memory");
	}
	jr_leave(r, saved);
	return 0;
}

/* One thread's waits on each named lock or event: a map by name. */
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
		if (JR_READ_T(r, l, u, rf_use))
			return -1;
		row->nlocks++;
	}
	jr_leave(r, saved);
	return 0;
}

/* The kernel's figures, null where their probe group did not run. */
static const struct jr_field kernel_fields[] = {
	JR_FIELD_IF(thread_row, "futex_waits", k.futex_waits, JR_NULL),
	JR_FIELD_IF(thread_row, "kernel_lock_wait_ns", k.klock_wait_ns, JR_NULL),
	JR_FIELD_IF(thread_row, "kernel_lock_waits", k.klock_waits, JR_NULL),
	JR_FIELD_IF(thread_row, "pages_asked", k.pages_asked, JR_NULL),
	JR_FIELD_IF(thread_row, "pages_direct", k.pages_direct, JR_NULL | JR_SINCE),
	JR_FIELD_IF(thread_row, "oncpu_ns", k.oncpu_ns, JR_NULL),
	JR_FIELD_IF(thread_row, "offcpu_ns", k.offcpu_ns, JR_NULL),
	JR_FIELD_IF(thread_row, "runqueue_ns", k.runq_total_ns, JR_NULL),
	JR_FIELD_IF(thread_row, "voluntary_switches", k.vol_switches, JR_NULL),
	JR_FIELD_IF(thread_row, "involuntary_switches", k.invol_switches, JR_NULL),
	JR_FIELD_IF(thread_row, "blocked_io_ns", k.blocked_io_ns, JR_NULL),
	JR_FIELD_IF(thread_row, "stopped_ns", k.stopped_ns, JR_NULL),
	JR_FIELD_IF(thread_row, "pagecache_hits", pagecache_hits, JR_NULL),
	JR_FIELD_IF(thread_row, "pagecache_misses", pagecache_misses, JR_NULL),
	JR_FIELD_IF(thread_row, "pagecache_written", pagecache_written, JR_NULL),
	JR_FIELD_IF(thread_row, "futex_wait_ns", d.futex_wait_ns, JR_NULL),
	JR_DOUBLEF(thread_row, "accounted_ratio", accounted_ratio),
	/* timers and polls, the process, and the sleeps other traced
	 * processes ended: added after schema 2 began */
	JR_FIELD_IF(thread_row, "idle_ns", idle_ns, OPT_NULL),
	JR_MAX_IF(thread_row, "pid", k.tgid, INT32_MAX, OPT_NULL),
	JR_FIELD_IF(thread_row, "sibling_signal_waits", k.sib_waits[FCT_WAKE_SIGNAL], OPT_NULL),
	JR_FIELD_IF(thread_row, "sibling_signal_wait_ns", k.sib_wait_ns[FCT_WAKE_SIGNAL], OPT_NULL),
	JR_FIELD_IF(thread_row, "sibling_signal_wakes", k.sib_wakes[FCT_WAKE_SIGNAL], OPT_NULL),
	JR_FIELD_IF(thread_row, "sibling_write_waits", k.sib_waits[FCT_WAKE_WRITE], OPT_NULL),
	JR_FIELD_IF(thread_row, "sibling_write_wait_ns", k.sib_wait_ns[FCT_WAKE_WRITE], OPT_NULL),
	JR_FIELD_IF(thread_row, "sibling_write_wakes", k.sib_wakes[FCT_WAKE_WRITE], OPT_NULL),
	JR_FIELD_IF(thread_row, "sibling_request_waits", k.sib_waits[FCT_WAKE_REQUEST], OPT_NULL),
	JR_FIELD_IF(thread_row, "sibling_request_wait_ns", k.sib_wait_ns[FCT_WAKE_REQUEST],
		    OPT_NULL),
	JR_FIELD_IF(thread_row, "sibling_request_wakes", k.sib_wakes[FCT_WAKE_REQUEST], OPT_NULL),
	/* the disk probes' (report/disk_json.c): added in 2026-12 */
	JR_FIELD_IF(thread_row, "disk_reads", disk.reads, OPT_NULL),
	JR_FIELD_IF(thread_row, "disk_read_ns", disk.read_ns, OPT_NULL),
	JR_FIELD_IF(thread_row, "disk_writes", disk.writes, OPT_NULL),
	JR_FIELD_IF(thread_row, "disk_write_ns", disk.write_ns, OPT_NULL),
};

/* The time account: each bucket by its JSON name. */
static int load_account(struct jr *r, struct json_object *o, struct thread_row *row)
{
	struct json_object *acct;
	char saved[128];

	if (jr_object(r, o, "account_ns", false, &acct, saved, sizeof(saved)))
		return -1;
	for (int b = 0; b < ACCT_N; b++)
		if (jr_u64(r, acct, acct_bucket_name(b), &row->acct_ns[b]))
			return -1;
	jr_leave(r, saved);
	return 0;
}

/* What the kernel saw of the thread: present when "locks" is not null. */
static int load_kernel(struct jr *r, struct json_object *o, struct thread_row *row,
		       struct acct_arena *arena)
{
	struct json_object *locks;

	if (jr_get(r, o, "locks", json_type_object, true, &locks))
		return -1;
	if (!(row->has_kernel = locks != NULL)) {
		row->k.comm[0] = '\0';	/* comm is the kernel's name for it */
		return 0;
	}
	row->k.tid = (uint32_t)row->tid;
	if (load_window(r, o, &row->k.how) || load_row_locks(r, locks, row) ||
	    JR_READ(r, o, row, kernel_fields) || load_account(r, o, row) ||
	    load_syscalls(r, o, row, arena))
		return -1;
	row->k.pages_added = row->pagecache_misses;
	row->k.pages_written = row->pagecache_written;
	return 0;
}

/* Where a thread row's parts go: its syscall table's entries, its
 * syscall rows (the joined run's saved_sc, SC_ROW_N a row). */
struct row_places {
	struct acct_arena *arena;
	struct joined_run *m;
};

/* What a thread's table cannot say: its group, its kernel view. */
static int load_thread(struct jr *r, struct json_object *o, void *row, void *arg)
{
	const struct row_places *at = arg;
	struct thread_row *t = row;

	t->sc = &at->m->saved_sc[(size_t)(t - at->m->rows) * SC_ROW_N];
	return load_group(r, o, t) || load_kernel(r, o, t, at->arena) ? -1 : 0;
}

/* Its clocks' order. */
static int load_timing(struct jr *r, struct json_object *o, void *row, void *arg)
{
	const struct thread_timings *t = row;

	(void)o;
	(void)arg;
	return t->end_ns < t->start_ns ? jr_fail(r, "end_ns", "is before start_ns") : 0;
}

/* A row's thread and window are its "own clocks"' fields, which a
 * program's rows have too; the rest is a workload's alone. */
static void take_identity(struct thread_row *row, const struct thread_timings *own, bool timed)
{
	row->own = own;
	row->tid = own->tid;
	row->index = own->index;
	row->start_ns = own->start_ns;
	row->end_ns = own->end_ns;
	row->timed = timed;	/* a program's own fields stay as saved (zero) */
}

/* Every thread: the workload's own timings as the subject's attachment,
 * which the joined rows point at, and the rows in the model. */
static int load_threads(struct jr *r, struct json_object *doc, struct session *s)
{
	static const struct jr_rows rows = {
		"threads", 0, sizeof(struct thread_row), LOAD_MAX_ROWS,
		"has more threads than fctrace reports", thread_fields, JR_N(thread_fields),
		load_thread,
	};
	static const struct jr_rows timings = {
		"threads", 0, sizeof(struct thread_timings), LOAD_MAX_ROWS,
		"has more threads than fctrace reports", timing_fields, JR_N(timing_fields),
		load_timing,
	};
	struct joined_run *m = &s->joined;
	struct row_places at = { .arena = &s->kv.nr_arena, .m = m };
	size_t n, nt;

	/* the same array twice: nt is the rows' count too */
	if (load_rows(r, doc, &timings, (void **)&s->timings.threads, NULL, &nt))
		return -1;
	if (!(m->saved_sc = calloc((nt ? nt : 1) * SC_ROW_N, sizeof(*m->saved_sc))))
		return jr_fail(r, NULL, "out of memory");
	if (load_rows(r, doc, &rows, (void **)&m->rows, &at, &n))
		return -1;
	m->nrows = (unsigned)n;
	for (size_t i = 0; i < n && i < nt; i++)
		take_identity(&m->rows[i], &s->timings.threads[i], s->target.mode == TGT_NONE);
	s->timings.nthreads = (unsigned)nt;
	return 0;
}

/* ---- run-wide ------------------------------------------------------------ */

static const struct jr_field pool_fields[] = {
	JR_FIELD(subject_totals, "hits", hits), JR_FIELD(subject_totals, "misses", misses),
	JR_FIELD(subject_totals, "evictions", evictions), JR_FIELD(subject_totals, "max_open", max_open),
	JR_FIELD(subject_totals, "over_capacity", over_capacity),
};

static const struct jr_field cache_fields[] = {
	JR_FIELD(subject_totals, "hits", hits), JR_FIELD(subject_totals, "misses", misses),
	JR_FIELD(subject_totals, "evictions", evictions),
	JR_FIELD(subject_totals, "cached_bytes", cache_bytes),
	JR_FIELD(subject_totals, "cached_blocks", cache_blocks),
};

/* The pool's or the cache's totals (at most one of them). */
static int load_totals(struct jr *r, struct json_object *doc, struct subject_totals *t)
{
	struct json_object *pool, *cache;

	if (jr_get(r, doc, "pool", json_type_object, true, &pool) ||
	    jr_get(r, doc, "cache", json_type_object, true, &cache))
		return -1;
	if (pool && cache)
		return jr_fail(r, NULL, "has both pool and cache totals: no workload has both");
	return JR_SECTION(r, doc, "pool", JR_NULL, t, pool_fields, &t->has_pool) ||
	       JR_SECTION(r, doc, "cache", JR_NULL, t, cache_fields, &t->has_cache) ? -1 : 0;
}

/* A state's time (ns, as JSON keeps it) into h's figures: each state by
 * the name the writer gives it (hold_state_name). */
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

/* The other locks its holders waited for. */
static int load_hold_chain(struct jr *r, struct json_object *o, struct lock_holders *h)
{
	const struct jr_rows rows = {
		"waiting_for", OPT, sizeof(struct hold_chain), HOLDERS_MAX_CHAIN,
		"has more locks than fctrace keeps", rf_chain.f, rf_chain.n, NULL,
	};
	size_t n;
	int rc = jr_array_rows(r, o, &rows, h->chain, NULL, &n);

	h->nchain = (int)n;
	return rc;
}

static const struct jr_field holder_fields[] = {
	JR_NSF(lock_holders, "held_ns", held_ns),
	JR_FIELD(lock_holders, "syscall_count", syscalls),
	JR_NSF(lock_holders, "contended_ns", contended_ns),
	JR_FIELD(lock_holders, "samples", samples), JR_FIELD(lock_holders, "words", words),
	/* null without the disk group; absent before the disk was joined */
	JR_FIELD_IF(lock_holders, "disk_ios", disk_ios, JR_NULL | JR_SINCE),
	{ .key = "disk_ns", .kind = JR_NS, .flags = JR_NULL | JR_SINCE,
	  JR_AT(lock_holders, disk_ns) },
};

static const struct jr_field waited_fields[] = {
	JR_NSF(lock_holders, "waiter_ns", waiter_ns),
	{ .key = "disk_ns", .kind = JR_NS, .flags = JR_NULL | JR_SINCE,
	  JR_AT(lock_holders, disk_waited_ns) },
};

/* While the holders held it, the waiters' time: the states' own, and
 * handoff_ns (read, but the writer derives it again). */
static int load_while_waited(struct jr *r, struct json_object *ho, struct lock_holders *h)
{
	struct json_object *w;
	char saved[128];
	uint64_t handoff;

	if (jr_object(r, ho, "while_waited", false, &w, saved, sizeof(saved)) ||
	    load_hold_states(r, w, h->waited_ns) || JR_READ(r, w, h, waited_fields) ||
	    jr_u64(r, w, "handoff_ns", &handoff))
		return -1;
	jr_leave(r, saved);
	return 0;
}

/* A lock's holders (absent from runs saved before they were measured,
 * null where they were not). */
static int load_holders(struct jr *r, struct json_object *o, struct lock_holders *h)
{
	struct json_object *ho;
	char saved[128], method[400];

	if (!json_object_object_get_ex(o, "holders", NULL))
		return 0;
	if (jr_object(r, o, "holders", true, &ho, saved, sizeof(saved)))
		return -1;
	if (!ho) {
		jr_leave(r, saved);
		return 0;
	}
	if (jr_str(r, ho, "method", false, method, sizeof(method)) ||
	    JR_READ(r, ho, h, holder_fields) || load_hold_states(r, ho, h->state_ns) ||
	    load_hold_calls(r, ho, h) || load_hold_chain(r, ho, h) ||
	    load_while_waited(r, ho, h))
		return -1;
	jr_leave(r, saved);
	h->measured = true;
	h->java = strstr(method, "ObjectMonitor") != NULL;	/* holders_method's words */
	h->disk_measured = json_object_object_get_ex(ho, "disk_ns", &ho) && ho;
	return 0;
}

/* What a lock's table cannot say: its holders, and a JVM lock's call sites. */
static int load_lock(struct jr *r, struct json_object *o, void *row, void *arg)
{
	const struct jr_rows sites = {
		"sites", OPT, sizeof(struct lock_site), LOCK_SITES_MAX,
		"has more call sites than fctrace keeps", rf_site.f, rf_site.n, NULL,
	};
	struct lock_total *l = row;
	size_t n;

	if (load_holders(r, o, &l->holders) || jr_array_rows(r, o, &sites, l->sites, NULL, &n) ||
	    load_wakers(r, o, &l->wakers))
		return -1;
	l->nsites = (int)n;
	return 0;
}

/* The file's locks in place of those join_retotal summed from the rows
 * (the kernel's lock stacks, their source, are not saved). */
static int load_locks(struct jr *r, struct json_object *doc, struct joined_run *m)
{
	const struct jr_rows rows = {
		"locks", 0, sizeof(struct lock_total), LOAD_MAX_ROWS * MODEL_MAX_NAMED,
		"has more locks than any run could", rf_lock.f, rf_lock.n, load_lock,
	};
	size_t n;
	int rc;

	free(m->locks);
	m->locks = NULL;
	m->nlocks = 0;
	rc = load_rows(r, doc, &rows, (void **)&m->locks, NULL, &n);
	m->nlocks = (int)n;
	return rc;
}

static const struct jr_field nr_fields[] = {
	JR_FIELD(sc_stats, "count", count), JR_FIELD(sc_stats, "total_ns", total_ns),
	JR_FIELD(sc_stats, "blocked_ns", blocked_ns),
	/* one table by number for every subject: these joined it later */
	JR_FIELD_IF(sc_stats, "errors", errors, OPT), JR_FIELD_IF(sc_stats, "timed", timed, OPT),
	JR_FIELD_IF(sc_stats, "min_ns", min_ns, OPT), JR_FIELD_IF(sc_stats, "max_ns", max_ns, OPT),
};

/* The shapes of the named rows' numbers, which the file keeps in the
 * rows only (no histogram by number); and, in a file written before the
 * table by number had them (no "timed"), their errors, timings and the
 * total scaled to the count. */
static void shapes_from_rows(struct joined_run *m)
{
	for (int s = 0; s < SC_ROW_N; s++) {
		const struct sc_stats *row = &m->sc_total[s];
		int nr = sc_row_nr(s);
		struct sc_stats *n;

		if (nr < 0 || nr >= FCT_NR_MAX)
			continue;
		n = &m->nr_total[nr];
		memcpy(n->hist, row->hist, sizeof(n->hist));
		if (n->timed || !row->timed)
			continue;
		n->errors = row->errors;
		n->timed = row->timed;
		n->total_ns = row->total_ns;
		n->min_ns = row->min_ns;
		n->max_ns = row->max_ns;
	}
}

/* Every syscall by number; null without the syscalls group. Each goes
 * to its number's slot. */
static int load_by_number(struct jr *r, struct json_object *doc, struct joined_run *m)
{
	struct json_object *a, *o;
	char saved[128];
	unsigned nr;
	size_t n;

	if (jr_array(r, doc, "syscalls_by_number", JR_NULL, &a, &n))
		return -1;
	memset(m->nr_total, 0, sizeof(m->nr_total));
	for (size_t i = 0; i < n; i++) {
		if (jr_element(r, a, "syscalls_by_number", i, &o, saved, sizeof(saved)) ||
		    jr_uint(r, o, "nr", FCT_NR_MAX - 1, &nr) ||
		    JR_READ(r, o, &m->nr_total[nr], nr_fields))
			return -1;
		jr_leave(r, saved);
	}
	shapes_from_rows(m);
	return 0;
}

static const struct jr_field cause_fields[] = {
	JR_STRF(diag_cause, "cause", cause, 0), JR_DOUBLEF(diag_cause, "share", share),
	JR_STRF(diag_cause, "title", title, 0), JR_DOUBLEF(diag_cause, "confidence", confidence),
	/* absent in runs saved before 2026-12-07: the threads' time */
	JR_STRF(diag_cause, "share_of", share_of, JR_SINCE),
	/* absent in runs saved before 2026-12-08: none */
	JR_STRF(diag_cause, "knob", knob, JR_SINCE),
};

/* The figures the words say ({key: number}); absent in runs saved before
 * 2026-12-08: none. */
static int load_figs(struct jr *r, struct json_object *o, struct diag_fig *figs, int *n,
		     int max)
{
	struct json_object *f;
	char saved[128];
	int rc = 0;

	*n = 0;
	if (!json_object_object_get_ex(o, "figures", &f))
		return 0;
	if (!json_object_is_type(f, json_type_object))
		return jr_fail(r, "figures", "must be an object of numbers");
	if ((int)json_object_object_length(f) > max)
		return jr_fail(r, "figures", "has more figures than fctrace writes");
	jr_enter(r, "figures", -1, saved, sizeof(saved));
	json_object_object_foreach(f, key, v) {
		if (strlen(key) >= sizeof(figs->key))
			rc = jr_fail(r, key, "is longer than a figure's key");
		else if (jr_double(r, f, key, &figs[*n].value) == 0)
			snprintf(figs[(*n)++].key, sizeof(figs->key), "%s", key);
		else
			rc = -1;
		if (rc)
			break;
	}
	jr_leave(r, saved);
	return rc;
}

/* A cause's evidence: its sentences. */
static int load_evidence(struct jr *r, struct json_object *o, void *row, void *arg)
{
	struct diag_cause *c = row;

	return load_strings(r, o, "evidence", c->evidence[0], sizeof(c->evidence[0]),
			    EXPLAIN_MAX_EVIDENCE, "has more sentences than a cause can hold",
			    &c->nevidence) ||
	       load_figs(r, o, c->figs, &c->nfigs, EXPLAIN_MAX_FIGS);
}

/* the Why's lines besides the causes; its threads' roles are absent in
 * runs saved before roles were written, or where all worked alike */
static const struct jr_field why_fields[] = {
	JR_STRF(diagnosis, "headline", headline, 0), JR_STRF(diagnosis, "fix", fix, 0),
	JR_STRF(diagnosis, "beyond", beyond, 0), JR_STRF(diagnosis, "threads", threads, OPT),
};

/* The diagnosis as the run made it: its causes and the Why's other lines. */
static int load_diagnosis(struct jr *r, struct json_object *doc, struct diagnosis *d)
{
	static const struct jr_rows causes = {
		"diagnosis", 0, sizeof(struct diag_cause), EXPLAIN_MAX_CAUSES,
		"has more causes than fctrace ranks", cause_fields, JR_N(cause_fields),
		load_evidence,
	};
	bool there;
	size_t n;
	int rc = jr_array_rows(r, doc, &causes, d->causes, NULL, &n);

	struct json_object *why;
	char saved[128];

	d->n = (int)n;
	if (rc || JR_SECTION(r, doc, "why", 0, d, why_fields, &there))
		return -1;
	if (!json_object_object_get_ex(doc, "why", &why))
		return 0;
	jr_enter(r, "why", -1, saved, sizeof(saved));
	rc = load_figs(r, why, d->figs, &d->nfigs, EXPLAIN_MAX_WHY_FIGS);
	jr_leave(r, saved);
	return rc;
}

static const struct jr_field run_fields[] = {
	JR_BOOLF(session, "interrupted", interrupted),
	JR_FIELD(session, "stopped", stopped), JR_FIELD(session, "wall_ns", joined.wall_ns),
	JR_FIELD(session, "ncpus", joined.ncpus),
	JR_FIELD_IF(session, "started_unix_ns", started_unix_ns, OPT),
};

/* How the run went: cut short, stopped, its wall time and CPUs; and that
 * it is fctrace's, in the histograms' layout this fctrace reads. */
static int load_run_flags(struct jr *r, struct json_object *doc, struct session *s)
{
	char tool[16];
	unsigned sub = 0;

	if (jr_str(r, doc, "tool", false, tool, sizeof(tool)) || JR_READ(r, doc, s, run_fields))
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

/* The processes the sampler saw most (absent in runs saved before they
 * were kept). */
static int load_others(struct jr *r, struct json_object *o, struct kview *kv)
{
	const struct jr_rows rows = {
		"others", OPT, sizeof(struct kv_other), 5,
		"has more processes than fctrace saves", rf_other.f, rf_other.n, NULL,
	};
	size_t n;
	int rc;

	if (!json_object_object_get_ex(o, "others", NULL))
		return 0;
	rc = load_rows(r, o, &rows, (void **)&kv->others, NULL, &n);
	kv->nothers = (int)n;
	return rc;
}

static const struct jr_field cpu_fields[] = {
	JR_FIELD(cpustat, "busy_ns", busy_ns), JR_FIELD(cpustat, "idle_ns", idle_ns),
	JR_FIELD(cpustat, "steal_ns", steal_ns),
};

/* The machine's CPUs over the window (machine_cpu): null untraced; its
 * samples null without the cpuclock probes. */
static int load_machine(struct jr *r, struct json_object *doc, struct kview *kv)
{
	struct json_object *o;
	uint64_t other = 0, idle = 0;
	char saved[128];

	if (jr_object(r, doc, "machine_cpu", true, &o, saved, sizeof(saved)))
		return -1;
	if (o && JR_READ(r, o, &kv->cpu, cpu_fields))
		return -1;
	kv->cpu.valid = o != NULL;
	if (o && (jr_u64_or_null(r, o, "samples_other", &other, &kv->machine_sampled) ||
	    jr_u64_or_null(r, o, "samples_idle", &idle, &kv->machine_sampled) ||
	    load_machine_window(r, o, kv) || load_others(r, o, kv)))
		return -1;
	kv->machine.other = other;
	kv->machine.idle = idle;
	jr_leave(r, saved);
	return 0;
}

/* The figures (JSON keys) a loss touches. */
static int load_touches(struct jr *r, struct json_object *o, void *row, void *arg)
{
	struct loss *l = row;

	return load_strings(r, o, "touches", l->touches[0], sizeof(l->touches[0]),
			    LOSS_MAX_TOUCHES, "names more figures than fctrace keeps",
			    &l->ntouches);
}

/* What the run lost (losses): read back as it said it, not derived again;
 * absent in runs saved before it was kept, null untraced. */
static int load_losses(struct jr *r, struct json_object *doc, struct losses *ls)
{
	const struct jr_rows rows = {
		"losses", OPT_NULL, sizeof(struct loss), LOSS_MAX,
		"has more losses than fctrace counts", rf_loss.f, rf_loss.n, load_touches,
	};
	size_t n;
	int rc;

	memset(ls, 0, sizeof(*ls));
	rc = jr_array_rows(r, doc, &rows, ls->l, NULL, &n);
	ls->n = (int)n;
	return rc;
}

/* A pool's uncontended op costs: absent in runs saved before the what-if
 * model read them, null for other workloads. */
static int load_op_costs(struct jr *r, struct json_object *doc, struct session *s)
{
	struct joined_run *m = &s->joined;
	struct json_object *o;
	char saved[128];
	bool there;

	if (!json_object_object_get_ex(doc, "op_costs", NULL))
		return 0;
	if (jr_object(r, doc, "op_costs", true, &o, saved, sizeof(saved)))
		return -1;
	/* one thread alone (solo): absent in runs saved before it was measured */
	if (o && (JR_READ_T(r, o, m, rf_op_cost) ||
		  jr_section(r, o, "solo", OPT_NULL, &s->timings.solo, rf_solo.f, rf_solo.n,
			     &there)))
		return -1;
	jr_leave(r, saved);
	return 0;
}

/* How the on-CPU time was split (cpu_split) and the kernel lock sites
 * attributed (kernel_lock_sites): the run-wide figures the table notes. */
static int load_splits(struct jr *r, struct json_object *doc, struct joined_run *m)
{
	bool there;

	return jr_section(r, doc, "cpu_split", JR_NULL, m, rf_cpu_split.f, rf_cpu_split.n,
			  &there) ||
	       jr_section(r, doc, "kernel_lock_sites", JR_NULL, m, rf_klock_sites.f,
			  rf_klock_sites.n, &there) ? -1 : 0;
}

/* --timeline's summary: its lanes are not in the file (--timeline-out has
 * every interval), so the saved object is kept and written back as is;
 * the window asked for is absent in runs saved before it was written. */
static const struct jr_field timeline_fields[] = {
	JR_FIELD(kv_timeline, "dropped", dropped), JR_FIELD(kv_timeline, "ring_bytes", ring_bytes),
	JR_FIELD_IF(kv_timeline, "asked_ns", asked_ns, OPT),
};

static int load_timeline(struct jr *r, struct json_object *doc, struct session *s)
{
	struct json_object *o;

	if (JR_SECTION(r, doc, "timeline", JR_NULL, &s->kv.tl, timeline_fields, &s->kv.tl.on))
		return -1;
	if (s->kv.tl.on && json_object_object_get_ex(doc, "timeline", &o))
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
	m->subject_pid = s->target.mode != TGT_NONE ? s->target.pid : 0;
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
	    load_stacks(r, doc, &s->stacks) || load_evictions(r, doc, &m->evictions) ||
	    load_disk(r, doc, &m->disk) || load_caches(r, doc, m) ||
	    load_pools(r, doc, m) || load_sib_wakers(r, doc, m))
		return -1;
	m->ops = ops;
	roots_join(m);	/* derived from the holders, as the run found them */
	if (wait_graph_build(m))	/* and from the rows' waits and the wakers */
		return jr_fail(r, "locks", "does not fit in memory");
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
	/* the what-if model is fitted again from the saved figures, and the
	 * roles found again, as the explain stage makes them for a run */
	explain_saved(&s->joined, &s->diag);
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
