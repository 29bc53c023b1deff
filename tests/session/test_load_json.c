/*
 * test_load_json.c - load_json.c and load_run.c in-process (and under
 * ASan): a session written with report_json_run and read back with
 * load_run prints the same table and writes the same JSON, for a workload
 * run with every kernel figure filled in, a timing-only run, another
 * program with named futex words and a JVM; and a saved run with any one
 * member removed or of the wrong type is refused in one line naming that
 * member, or (for the figures the reporters derive again, listed here)
 * read as before. Hostile saved files, through the binary: `{},` x 1 M
 * refused at once with a bounded RSS (json-c would take ~800 MB), a
 * message that is true under ulimit -v, and a FIFO or a device given to
 * report, diff or sweep --fit refused without blocking.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/syscall.h>
#include <cmocka.h>
#include <json-c/json.h>
#include "jvm/jvm.h"
#include "session/load_json.h"
#include "session/load_run.h"
#include "report/report.h"
#include "binutil.h"
#include "joinutil.h"
#include "testutil.h"

#define NT	3
#define WALL	400000000ull

struct fx {
	struct session s;
	struct wl_result res;		/* the workload's, before the driver takes it */
	struct wl_thread_stats ts[NT];
	struct fct_thread kt[NT];
	struct kv_sc_hist sc_hists[NT * 2];
	int nsc_hists;
	struct kv_futex futex[NT];
	struct kv_klock klock[1];
	struct lock_name names[2];
};

static void fx_threads(struct fx *x)
{
	struct sc_stats open, futex;

	x->nsc_hists = 0;
	for (unsigned i = 0; i < NT; i++) {
		x->ts[i] = (struct wl_thread_stats){ .tid = 700 + (pid_t)i, .index = i, .ops = 900,
			.start_ns = 1000, .end_ns = WALL - i * 1000, .lock_wait_ns = 90000000,
			.lock_hold_ns = 20000000, .lock_acquires = 1800, .lock_contended = 300,
			.hits = 750, .misses = 150, .evictions = 140, .syscalls_in_lock = 450,
			.lat_timed = 78, .lat_min_ns = 800, .lat_max_ns = 2000000,
			.lat_total_ns = 7800000 };
		x->ts[i].lat_hist[12] = 60;
		x->ts[i].lat_hist[20] = 18;
		x->kt[i] = (struct fct_thread){ .tid = 700 + i, .tgid = 699, .comm = "fctrace",
			.how = FCT_HOW_MARK, .begin_ns = 1000, .end_ns = WALL - i * 1000, .oncpu_ns = WALL / 4, .runq_ns = WALL / 8,
			.blocked_ns = WALL / 16, .sys_on_est_ns = WALL / 8,
			.futex_off_ns = WALL / 2, .futex_waits = 310, .vol_switches = 320,
			.invol_switches = 45, .pages_asked = 2000, .pages_added = 30,
			.klock_waits = 4, .klock_wait_ns = 9000, .offcpu_ns = WALL / 2 };
		open = (struct sc_stats){ .count = 150, .timed = 80, .total_ns = 450000,
			.min_ns = 1900, .max_ns = 9000 };
		open.hist[11] = 150;
		ju_calls(&x->kt[i], x->sc_hists, &x->nsc_hists, __NR_openat, &open);
		futex = (struct sc_stats){ .count = 400, .errors = 12, .timed = 400,
			.total_ns = WALL / 2, .min_ns = 300, .max_ns = 9000000 };
		futex.hist[18] = 400;
		ju_calls(&x->kt[i], x->sc_hists, &x->nsc_hists, __NR_futex, &futex);
		x->futex[i] = (struct kv_futex){ { .tid = 700 + i, .uaddr = 0x1000 },
			{ .waits = 300, .wait_ns = WALL / 2 - 5000, .max_ns = 4000000, .runq_ns = 77 } };
	}
	x->klock[0] = (struct kv_klock){ .key = { .tid = 701, .flags = 1 },
		.val = { .waits = 4, .wait_ns = 9000, .max_ns = 5000 },
		.caller = "try_to_wake_up+0x218" };
}

/* fcp, traced with the full set (one probe failed), or timing only. */
static struct fx *fx_workload(bool traced)
{
	struct fx *x = calloc(1, sizeof(*x));
	struct session *s = &x->s;

	assert_non_null(x);
	fx_threads(x);
	wl_config_defaults(&s->cfg);
	s->cfg.workload = "fcp";
	s->cfg.threads = NT;
	x->res = (struct wl_result){ .cfg = s->cfg, .wall_ns = WALL, .nthreads = NT,
		.threads = x->ts, .totals = { .has_pool = true, .hits = 2250, .misses = 450,
		.evictions = 420, .max_open = 51 }, .nlocks = 1 };
	x->res.locks[0] = (struct wl_lock_desc){ "fcp.pool", 0x1000, 40, LK_MUTEX };
	s->kv = (struct kview){ .groups = PG_FULL & ~PG_MASK(PG_PAGECACHE), .threads = x->kt,
		.nthreads = NT, .futex = x->futex, .nfutex = NT, .klock = x->klock, .nklock = 1,
		.sc_hists = x->sc_hists, .nsc_hists = x->nsc_hists,
		.nprobes = 2, .time_every = 8, .lost = { .stack_lost = 2 } };
	kview_sort_sc_hists(&s->kv);
	s->kv.probes[0] = (struct probe_status){ .name = "tp_btf/sched_switch", .group = PG_SCHED, .state = PROBE_OK, .reason = "" };
	s->kv.probes[1] = (struct probe_status){ .name = "tp_btf/mm_filemap_add_to_page_cache",
		.group = PG_PAGECACHE, .state = PROBE_FAILED,
		.reason = "attach failed: No such file or directory" };
	if (!traced)		/* --no-bpf prepares nothing */
		s->kv = (struct kview){ 0 };
	s->traced = traced;
	s->prepare_ns = traced ? 51000000 : 0;
	s->stopped = 1;
	assert_int_equal(join_workload(s, &x->res, traced ? &s->kv : NULL,
				       traced ? s->kv.groups : 0), 0);
	explain_run(&s->joined, &s->diag);
	return x;
}

/* A wait stack on the first named word, another on no word, a cpu stack. */
static void add_stacks(struct stack_set *ss)
{
	uint32_t fr[3];

	fr[0] = (uint32_t)stacks_frame(ss, "start_thread", "pthread_create.c", 442);
	fr[1] = (uint32_t)stacks_frame(ss, "serve", "serve.c", 31);
	fr[2] = (uint32_t)stacks_frame(ss, "mutex_lock_[k]", "", 0);
	assert_int_equal(stacks_add(ss, STK_WAIT, "prog", "session_table_lock (mutex)", fr, 2,
				    5000000, 30), 0);
	assert_int_equal(stacks_add(ss, STK_WAIT, "prog", "", fr, 3, 700000, 2), 0);
	assert_int_equal(stacks_add(ss, STK_CPU, "prog", "", fr, 1, 1003009, 1), 0);
	stacks_order(ss);
}

/* Another program (run -- CMD) with two named futex words; a JVM when v. */
static struct fx *fx_program(const struct jvm_view *v)
{
	struct fx *x = fx_workload(true);
	struct session *s = &x->s;

	join_free(&s->joined);
	memset(&s->diag, 0, sizeof(s->diag));
	s->target = (struct target_info){ .mode = TGT_EXEC, .cmdline = "prog --serve 8",
		.comm = "prog", .pid = 699, .exited = true, .exit_status = 3, .uid = 1000,
		.stacks_received = 40, .stacks_unwound = 38 };
	if (v)
		snprintf(s->target.libjvm, sizeof(s->target.libjvm), "/usr/lib/jvm/libjvm.so");
	s->cfg = (struct wl_config){ 0 };	/* a program has no settings, no timings */
	s->subject = s->target.comm;
	subject_timings_free(&s->timings);
	memset(&s->timings, 0, sizeof(s->timings));
	x->names[0] = (struct lock_name){ .tgid = 699, .addr = 0x1000, .size = 40,
		.name = "session_table_lock (mutex)", .site = "serve+0x1c", .is_lock = true,
		.samples = 30 };
	x->names[1] = (struct lock_name){ .tgid = 699, .addr = 0x2000, .size = 8,
		.name = "condvar @ wait_job+0x4a", .samples = 8 };
	s->names = x->names;
	s->nnames = 2;
	s->target.gid = 1001;
	add_stacks(&s->stacks);
	s->kv.groups |= PG_MASK(PG_THREADS) | (v ? PG_MASK(PG_JVM) : 0);
	/* losses said first and in the JSON: read back as they were said */
	s->kv.lost.slot_full = 977;
	s->kv.lost.futex_map_full = 125000;
	assert_int_equal(join_run(&s->joined, &s->kv, s->kv.groups, &(struct run_attachments){
		.subject = s->subject, .names = x->names, .nnames = 2, .jvm = v,
		.jvm_monitors = true, .jvm_flag = JVM_FLAG_ON }), 0);
	explain_run(&s->joined, &s->diag);
	return x;
}

static void fx_free(struct fx *x)
{
	stacks_free(&x->s.stacks);
	join_free(&x->s.joined);
	subject_timings_free(&x->s.timings);
	free(x);
}

/* ---- round trips --------------------------------------------------------- */

static char *table_of(const struct session *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	report_table(f, s);
	fclose(f);
	return text;
}

static const char *text_of(struct json_object *doc)
{
	return json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
}

/* s as saved, read back: the same table, the same document. */
static void assert_round_trip(const struct session *s)
{
	struct json_object *doc = report_json_run(s), *parsed, *again;
	char why[320], *want = table_of(s), *got;
	struct session l;

	parsed = json_tokener_parse(text_of(doc));
	assert_non_null(parsed);
	if (load_run(parsed, &l, why, sizeof(why)))
		fail_msg("load_run refused a document report_json_run wrote: %s", why);
	got = table_of(&l);
	assert_string_equal(want, got);
	again = report_json_run(&l);
	assert_string_equal(text_of(doc), text_of(again));
	session_free(&l);
	json_object_put(again);
	json_object_put(parsed);
	json_object_put(doc);
	free(want);
	free(got);
}

static void test_traced_workload(void **state)
{
	struct fx *x = fx_workload(true);

	assert_true(x->s.joined.nlocks >= 2);	/* fcp.pool and a kernel lock */
	assert_round_trip(&x->s);
	fx_free(x);
}

static void test_timing_only_workload(void **state)
{
	struct fx *x = fx_workload(false);

	assert_round_trip(&x->s);
	fx_free(x);
}

static void test_program(void **state)
{
	struct fx *x = fx_program(NULL);

	assert_round_trip(&x->s);
	fx_free(x);
}

/* A JVM: one thread the application's, the others set aside (GC, JIT). */
static void test_jvm(void **state)
{
	struct jvm_thread_info th[NT] = {
		{ .tid = 700, .name = "pool-worker-0", .java_name = true, .group = JVM_G_APP },
		{ .tid = 701, .name = "GC Thread#0", .java_name = true, .group = JVM_G_GC },
		{ .tid = 702, .name = "C2 CompilerThre", .group = JVM_G_JIT },
	};
	struct jvm_view v = { .threads = th, .nthreads = NT,
			      .global = { .gcs = 3, .gc_ns = 4000000, .gc_max_ns = 2000000 } };
	struct fx *x = fx_program(&v);

	assert_true(x->s.joined.jvm);
	assert_int_equal(x->s.joined.aside_rows, 2);
	assert_round_trip(&x->s);
	fx_free(x);
}

/* ---- every member, removed or mistyped ----------------------------------- */

/*
 * Members the loader does not read: figures the reporters derive again
 * from what it does read (means, percentiles, ratios, sums), names of
 * numbers, and the kernel figures of a thread whose group did not run.
 */
static const char *const derived[] = {
	"mean_ns", "p50_ns", "p99_ns", "hit_ratio", "total", "wall_ns@thread", "name@number",
	"syscalls@top", "threads_oncpu_ns", "method", "hz", "timeline_drops", "attribution",
	"model",	/* the what-if model: fitted again from op_costs */
	"whatif@top",	/* the what-ifs on locks: made again from the locks */
	"stack_ids",	/* a lock's stacks: found again by the stacks' lock names */
	"ranked", "also_seen",	/* the confidence floor: of each cause's confidence */
	"pools@top",	/* fctrace's own workload: null, not measured; [] reads as none found */
	"root",		/* a lock's wait chain: found again from its holders */
	"sibling_wakers@top",	/* one process: null, none seen; [] reads as none */
	"sibling_edges@top",	/* the same: null, none seen; [] reads as none */
	"wait_graph@top",	/* built again from the rows and the wakers */
};

/* Members a run saved before they were written lacks: absent is read as
 * not measured, but present they must be right. */
static const char *const optional[] = {
	"op_costs@top", "jvm_threads_full@", "jvm_monitors_full@", "stacks_dropped@",
	"words_unnamed@", "unsymbolised@", "holders@", "tgids_full@", "losses@top", "samples_tracer@",
	"window_ns@", "asked_ns@", "gid@", "monitor_flag@", "monitor_holders@", "waiting_for@", "solo@", "stacks@top", "pid@thread",
	"sibling_signal_waits@thread", "sibling_signal_wait_ns@thread",
	"sibling_signal_wakes@thread", "sibling_write_waits@thread",
	"sibling_write_wait_ns@thread", "sibling_write_wakes@thread",
	"threads@why", "others@", "idle_ns@thread", "pagecache_evict_full@",
	"pagecache_evictions@top", "pagecache_rereads@top", "sites@", "agent@",
	"blocked_ns@",
	"caches@top",	/* runs saved before the handles stream */
	"overhead@top",	/* runs saved before the cost was measured */
	"pages_direct@thread", "disk@top",	/* runs saved before the disk group */
	"disk_reads@thread", "disk_read_ns@thread", "disk_writes@thread", "disk_write_ns@thread",
	"kind@",	/* a lock's kind: lock_kind.h, absent in runs saved before kinds */
	/* one syscall table by number: its losses, and what each number
	 * carries besides count, total and sleep */
	"syscall_hist_full@", "syscall_spill_full@", "errors@number", "timed@number", "min_ns@number", "max_ns@number",
	"wake_after_full@", "wakers@",	/* runs saved before the wakers' join */
	"from_diskstats@", "probed_reads@", "probed_writes@",	/* before the diskstats view */
	/* before the reclaim distances */
	"reclaimed_pages@", "reclaim_reread_pages@", "keep_half_pages@", "keep_most_pages@",
	"pool_full@", "pools@top",	/* before the pools of N */
	"flame_stack_drops@",	/* before the sleeps' drops were counted apart */
	"hooks_skipped@",	/* before the skipped runs were read */
	"while_waited@",	/* before the wakers' spans */
	"sibling_request_waits@thread", "sibling_request_wait_ns@thread",	/* before requests */
	"sibling_request_wakes@thread",
	"sibling_wakers@top",	/* before the latches' wakers by call */
	"sibling_edges@top",	/* before the edges between processes */
	"io_uring@",		/* a disk's rings: before the io_uring probes */
	"share_of@",		/* a cause's: before a share of other than thread time */
	"figures@", "figures@why", "knob@",	/* a cause's and the Why's: before figures by key */
};

static bool is_optional(const char *key, const char *where)
{
	char tagged[96];

	snprintf(tagged, sizeof(tagged), "%s@%s", key, where);
	for (size_t i = 0; i < sizeof(optional) / sizeof(*optional); i++)
		if (!strcmp(optional[i], tagged))
			return true;
	return false;
}

static bool is_derived(const char *key, const char *where)
{
	char tagged[96];

	snprintf(tagged, sizeof(tagged), "%s@%s", key, where);
	for (size_t i = 0; i < sizeof(derived) / sizeof(*derived); i++)
		if (!strcmp(derived[i], key) || !strcmp(derived[i], tagged))
			return true;
	return false;
}

/* Load root as it is now: refused in one line naming key, or (a derived
 * member) read. Returns whether it was refused. */
static bool check_load(struct json_object *root, const char *key, const char *where,
		       const char *change)
{
	struct session l;
	char why[320], quoted[96];
	int rc = load_run(root, &l, why, sizeof(why));

	session_free(&l);
	snprintf(quoted, sizeof(quoted), "\"%s\"", key);
	if (rc == 0 && !is_derived(key, where))
		fail_msg("%s %s (in %s): still loaded", change, key, where);
	if (rc && (strchr(why, '\n') || !strstr(why, quoted)))
		fail_msg("%s %s (in %s): the message does not name it: %s", change, key, where, why);
	return rc != 0;
}

/* Which object o is, for the derived list: a thread, a syscall number,
 * the top, or a map whose keys are data (a thread's locks, the probes, a
 * cause's figures). */
static const char *kind_of(struct json_object *root, struct json_object *o, const char *key)
{
	if (o == root)
		return "top";
	/* a thread's syscalls: the rows of the calls it made */
	if (key && (!strcmp(key, "locks") || !strcmp(key, "probes") ||
		    !strcmp(key, "probe_groups") || !strcmp(key, "syscalls") ||
		    !strcmp(key, "figures")))
		return "map";
	if (json_object_object_get_ex(o, "latency", NULL))
		return "thread";
	if (json_object_object_get_ex(o, "nr", NULL))
		return "number";
	return "";
}

static void mutate_members(struct json_object *root, struct json_object *o, const char *okey,
			   unsigned *tried);

/* Member key of o: removed (a map's entry may go: it is data), then
 * replaced by an array, then restored. */
static void mutate_one(struct json_object *root, struct json_object *o, const char *okey,
		       const char *key, unsigned *tried)
{
	struct json_object *v = json_object_get(json_object_object_get(o, key));
	const char *where = kind_of(root, o, okey);

	json_object_object_del(o, key);
	if (strcmp(where, "map") && !is_optional(key, where))
		check_load(root, key, where, "without");
	if (!json_object_is_type(v, json_type_array)) {
		json_object_object_add(o, key, json_object_new_array());
		check_load(root, key, where, "an array as");
	}
	if (json_object_is_type(v, json_type_int)) {	/* forged: would print bare or wrap */
		json_object_object_add(o, key, json_object_new_uint64(UINT64_MAX));
		check_load(root, key, where, "2^64 - 1 as");
	}
	json_object_object_add(o, key, v);
	(*tried)++;
	if (!is_derived(key, where))	/* nothing under a derived member is read */
		mutate_members(root, v, key, tried);
}

/* Depth first; arrays: their first element only (the others are alike). */
static void mutate_members(struct json_object *root, struct json_object *o, const char *okey,
			   unsigned *tried)
{
	char *keys[256];
	int n = 0;

	if (json_object_is_type(o, json_type_array) && json_object_array_length(o))
		mutate_members(root, json_object_array_get_idx(o, 0), NULL, tried);
	if (!json_object_is_type(o, json_type_object))
		return;
	json_object_object_foreach(o, k, v) {
		(void)v;
		if (n < 256)
			keys[n++] = strdup(k);
	}
	for (int i = 0; i < n; i++) {
		mutate_one(root, o, okey, keys[i], tried);
		free(keys[i]);
	}
}

static void mutate_all(const struct session *s)
{
	struct json_object *doc = report_json_run(s);
	unsigned tried = 0;

	mutate_members(doc, doc, NULL, &tried);
	assert_true(tried > 100);
	json_object_put(doc);
}

static void test_every_member_traced(void **state)
{
	struct fx *x = fx_workload(true);

	mutate_all(&x->s);
	fx_free(x);
}

static void test_every_member_jvm(void **state)
{
	struct jvm_thread_info th[1] = {
		{ .tid = 700, .name = "main", .java_name = true, .group = JVM_G_APP },
	};
	struct jvm_view v = { .threads = th, .nthreads = 1 };
	struct fx *x = fx_program(&v);

	mutate_all(&x->s);
	fx_free(x);
}

/* ---- hostile saved files ------------------------------------------------ */

/* path holding "[" unit x n "]" ("{}," x n, the last comma dropped) */
static void write_repeated(const char *path, const char *unit, size_t n)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputc('[', f);
	for (size_t i = 0; i < n; i++)
		fwrite(unit, 1, strlen(unit) - (i == n - 1), f);
	fputc(']', f);
	assert_int_equal(fclose(f), 0);
}

struct measured {
	int status;
	long maxrss_kb;
	double secs;
	char err[1024];
};

/* Run argv (the binary) to its end, with its RSS peak and time. */
static void run_measured(char *const argv[], const struct rlimit *as, struct measured *m)
{
	FILE *err = tmpfile();
	struct spawn_opts so = { .uid = -1, .errfd = fileno(err), .as = as };
	struct timespec t0, t1;
	struct rusage ru;
	pid_t pid;
	int st;
	size_t n;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = spawn_fctrace(argv, &so);
	assert_true(pid > 0);
	assert_int_equal(wait4(pid, &st, 0, &ru), pid);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	m->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	m->maxrss_kb = ru.ru_maxrss;
	m->secs = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	rewind(err);
	n = fread(m->err, 1, sizeof(m->err) - 1, err);
	m->err[n] = '\0';
	fclose(err);
}

static void assert_one_line(const char *err, const char *want)
{
	const char *nl = strchr(err, '\n');

	if (!nl || nl[1] || strncmp(err, "fctrace: ", 9) || !strstr(err, want))
		fail_msg("want one line with \"%s\", got \"%s\"", want, err);
}

/* The issue's `{},` file: 1 M empty objects (3 MB) took ~800 MB. */
static void test_empty_objects_bounded(void **state)
{
	char *dir = test_dir_make(), path[600];
	char *argv[] = { (char *)fctrace_binary(), "report", path, NULL };
	struct json_object *doc;
	struct rusage self;
	struct measured m;
	char why[320];

	if (require_fctrace_binary("test_empty_objects_bounded"))
		skip();
	snprintf(path, sizeof(path), "%s/objects.json", dir);
	write_repeated(path, "{},", 1000000);
	run_measured(argv, NULL, &m);
	assert_int_equal(m.status, 2);
	assert_one_line(m.err, "holds 1000000 objects and 1 arrays in 3000001 bytes: parsing it "
			"would take about");
	/* the child's peak counts the test's own pages, forked before the exec */
	getrusage(RUSAGE_SELF, &self);
	if (m.maxrss_kb > self.ru_maxrss + 32 * 1024 || m.secs > 3)
		fail_msg("refused with %ld KB at its peak (the test: %ld KB) in %.2f s",
			 m.maxrss_kb, self.ru_maxrss, m.secs);
	print_message("{} x 1 M: refused in %.3f s, peak RSS %ld KB\n", m.secs, m.maxrss_kb);
	/* the same in-process, and for empty arrays */
	{
		const char *t = "[{},{},{},{},{},{},{},{}]";

		assert_int_equal(load_text(t, strlen(t), &doc, why, sizeof(why)), 0);	/* small: fine */
		json_object_put(doc);
	}
	write_repeated(path, "[],", 1000000);
	run_measured(argv, NULL, &m);
	assert_int_equal(m.status, 2);
	assert_one_line(m.err, "holds 0 objects and 1000001 arrays");
	unlink(path);
	test_dir_remove(dir);
}

/* Under ulimit -v, a document within the bound that still cannot be
 * parsed says so: not "is not JSON: success at byte N". */
static void test_out_of_memory_said(void **state)
{
	char *dir = test_dir_make(), path[600];
	char *argv[] = { (char *)fctrace_binary(), "report", path, NULL };
	struct rlimit as = { 96 << 20, 96 << 20 };
	struct measured m;

	if (require_fctrace_binary("test_out_of_memory_said"))
		skip();
	snprintf(path, sizeof(path), "%s/zeros.json", dir);
	write_repeated(path, "0,", 2000000);		/* 4 MB, ~150 MB parsed: within */
	run_measured(argv, &as, &m);
	assert_int_equal(m.status, 2);
	assert_null(strstr(m.err, "success"));
	assert_one_line(m.err, "out of memory");
	unlink(path);
	test_dir_remove(dir);
}

/* A document of JSON null (json-c's NULL, as when out of memory) is
 * not a saved run, said so: not "out of memory". */
static void test_null_document(void **state)
{
	static const char *const texts[] = { "null", " \n null\n", "[]", "1\n" };
	struct json_object *doc;
	char why[200];

	(void)state;
	for (int i = 0; i < 2; i++) {
		assert_int_equal(load_text(texts[i], strlen(texts[i]), &doc, why, sizeof(why)), -1);
		assert_null(doc);
		assert_string_equal(why, "is JSON null, not a saved run");
	}
	for (int i = 2; i < 4; i++) {	/* parsed: load_kind says what they are not */
		enum load_kind kind;

		assert_int_equal(load_text(texts[i], strlen(texts[i]), &doc, why, sizeof(why)), 0);
		assert_int_not_equal(load_kind(doc, &kind, why, sizeof(why)), 0);
		assert_non_null(strstr(why, "not an fctrace document"));
		json_object_put(doc);
	}
}

/* A refused file's name and its message, on a terminal: a name with an
 * OSC title sequence and CSI colours comes out as \xNN, whole, one line. */
static void test_refused_name_terminal_safe(void **state)
{
	char *dir = test_dir_make(), path[600];
	char *argv[] = { (char *)fctrace_binary(), "report", path, NULL };
	struct measured m;
	FILE *f;

	if (require_fctrace_binary("test_refused_name_terminal_safe"))
		skip();
	snprintf(path, sizeof(path), "%s/r\033]0;TITLE\a\r\033[31m.json", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("null\n", f);
	assert_int_equal(fclose(f), 0);
	run_measured(argv, NULL, &m);
	assert_int_equal(m.status, 2);
	assert_one_line(m.err, "r\\x1b]0;TITLE\\x07\\x0d\\x1b[31m.json: is JSON null, not a "
			"saved run");
	assert_null(strchr(m.err, '\033'));
	assert_null(strchr(m.err, '\r'));
	unlink(path);
	test_dir_remove(dir);
}

/* report, diff and sweep --fit on a FIFO or a device: one line, status
 * 2, at once (alarm: a blocked open fails the test). */
static void test_not_a_file_refused(void **state)
{
	char *dir = test_dir_make(), fifo[600], run[600];
	char *report[] = { (char *)fctrace_binary(), "report", fifo, NULL };
	char *diff[] = { (char *)fctrace_binary(), "diff", fifo, run, NULL };
	char *fit[] = { (char *)fctrace_binary(), "sweep", "--predict", "--fit", fifo, "--no-bpf",
			"--threads", "1", "--quiet", NULL };
	char *dev[] = { (char *)fctrace_binary(), "report", "/dev/zero", NULL };
	struct measured m;

	if (require_fctrace_binary("test_not_a_file_refused"))
		skip();
	snprintf(fifo, sizeof(fifo), "%s/run.json", dir);
	snprintf(run, sizeof(run), "%s/other.json", dir);
	write_repeated(run, "{},", 1);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	alarm(30);
	run_measured(report, NULL, &m);
	assert_int_equal(m.status, 2);
	assert_one_line(m.err, "run.json: is a FIFO, not a saved run (a regular file)");
	run_measured(diff, NULL, &m);
	assert_int_equal(m.status, 2);
	assert_one_line(m.err, "is a FIFO");
	run_measured(fit, NULL, &m);
	assert_int_equal(m.status, 2);
	assert_one_line(m.err, "--fit");
	assert_non_null(strstr(m.err, "is a FIFO"));
	run_measured(dev, NULL, &m);
	assert_int_equal(m.status, 2);
	assert_one_line(m.err, "/dev/zero: is a character device");
	alarm(0);
	unlink(fifo);
	unlink(run);
	test_dir_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_traced_workload),
		cmocka_unit_test(test_timing_only_workload),
		cmocka_unit_test(test_program),
		cmocka_unit_test(test_jvm),
		cmocka_unit_test(test_every_member_traced),
		cmocka_unit_test(test_every_member_jvm),
		cmocka_unit_test(test_empty_objects_bounded),
		cmocka_unit_test(test_out_of_memory_said),
		cmocka_unit_test(test_null_document),
		cmocka_unit_test(test_refused_name_terminal_safe),
		cmocka_unit_test(test_not_a_file_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
