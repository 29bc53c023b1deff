/*
 * test_explain.c - the explain stage over hand-built joined runs
 * (explfx.h): the built-in pool's and cache's causes, page-cache misses,
 * losses and the confidence floor, no false cause for a healthy run, the
 * timing-only fallback, the text and the JSON. The rules of caches past
 * their size, of the CPUs and of locks' holders have their own files.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <cmocka.h>
#include <json-c/json.h>
#include "explain/words.h"
#include "report/why.h"
#include "diagutil.h"
#include "explfx.h"

static void test_pool_serialisation_kernel(void **state)
{
	struct fx *x = fx_pool_kernel();
	struct diagnosis *d = &x->d;

	assert_int_equal(explain_run(&x->m, d), 2);
	assert_string_equal(d->causes[0].cause, "pool_lock_serialisation");
	assert_float_equal(d->causes[0].share, 0.60, EPS);
	assert_float_equal(d->causes[0].confidence, 0.9, EPS);
	assert_string_equal(d->causes[1].cause, "cpu_oversubscription");
	assert_float_equal(d->causes[1].share, 0.14, EPS);
	assert_true(d->causes[0].nevidence >= 5);
	/* half the gets miss, as 1 - 50/100 predicts */
	assert_true(fig_is(&d->causes[0], "files", 100));
	assert_true(fig_is(&d->causes[0], "miss_ratio", 0.5));
	assert_true(fig_is(&d->causes[0], "predicted_miss_ratio", 0.5));
	assert_true(fig_is(&d->causes[0], "syscalls_per_miss", 3));
	/* a miss holds the lock through stat, open and close: 1.00 + 2.00 +
	 * 0.80 µs at their means; hits nearly free */
	assert_true(fig_is(&d->causes[0], "miss_hold_ns", 3800));
	assert_true(fig_is(&d->causes[0], "busy_share", 0.8));
	assert_true(fig_is(&d->causes[0], "waits", 400000));	/* the futex word's */
	assert_true(has_fig(&d->causes[0], "hits_wait_ns"));	/* the hits' wait, estimated */
	/* each wait 8.67 µs, 9 x the 1 µs hold: hand-off */
	assert_true(fig_is(&d->causes[0], "wait_mean_ns", 1.3e9 / 150000));
	assert_true(fig_is(&d->causes[0], "hold_mean_ns", 1000));
	assert_true(why_fig_is(d, "fix_cause", 1));	/* the pool's fix first */
	assert_false(has_fig(&d->causes[0], "fix_value"));
	assert_true(why_fig_is(d, "pc_hit_ratio", 1));
	assert_true(why_fig_is(d, "pc_miss_pages", 0));
	assert_true(figs_get(d->figs, d->nfigs, "klock_share") < 0.01);	/* "< 1 %" */
	assert_true(why_fig_is(d, "cpus", 2));
	assert_true(why_fig_is(d, "threads", 8));
	assert_true(has_text(d->headline, "Why fcp takes"));
	assert_true(why_fig_is(d, "wall_ns", 2e9));
	assert_true(why_fig_is(d, "files", 100));
	assert_true(why_fig_is(d, "pool", 50));
	assert_true(why_fig_is(d, "working_threads", 8));
	assert_true(why_fig_is(d, "kernel_view", 1));
	show(x);
	free(x);
}

/* No kernel view: the same pool diagnosed from the threads' own clocks. */
static void test_pool_serialisation_timing_only(void **state)
{
	struct fx *x = fx_new("fcp", NT, false);
	struct diagnosis *d = &x->d;

	fx_pool_clocks(x, 1200000000);
	fx_total(x);
	assert_int_equal(explain_run(&x->m, d), 1);
	assert_string_equal(d->causes[0].cause, "pool_lock_serialisation");
	assert_float_equal(d->causes[0].share, 0.60, EPS);
	assert_true(d->causes[0].confidence < 0.9);
	/* the waits by the threads' own clocks, the syscalls by the workload's
	 * count: no time of them in the lock */
	assert_true(fig_is(&d->causes[0], "waits", 150000 * NT));
	assert_true(fig_is(&d->causes[0], "wait_ns", 1.2e9 * NT));
	assert_true(fig_is(&d->causes[0], "syscalls_per_miss", 3));
	assert_false(has_fig(&d->causes[0], "miss_hold_ns"));
	assert_true(why_fig_is(d, "kernel_view", 0));	/* "timing only", "not measured" */
	assert_true(isnan(figs_get(d->figs, d->nfigs, "klock_share")));
	assert_true(isnan(figs_get(d->figs, d->nfigs, "runq_share")));
	show(x);
	free(x);
}

/* The fixed pool: contention without syscalls inside is a different cause. */
static void test_pool_contention_without_syscalls(void **state)
{
	struct fx *x = fx_new("fcp-fixed", NT, false);

	fx_pool_clocks(x, 200000000);
	for (unsigned i = 0; i < NT; i++)
		x->ts[i].syscalls_in_lock = 0;
	fx_total(x);
	assert_int_equal(explain_run(&x->m, &x->d), 1);
	assert_string_equal(x->d.causes[0].cause, "pool_lock_contention");
	assert_float_equal(x->d.causes[0].share, 0.1, EPS);
	assert_null(strstr(x->d.fix, "fcp-fixed"));
	show(x);
	free(x);
}

/* Half the threads sleep until another process writes to them, the other
 * half write and never wait: no process both wakes and waits, so the Why
 * says the wait is one way, not "the 0 processes that wake each other". */
static void test_sibling_wait_one_way(void **state)
{
	struct fx *x = fx_new("prog", NT, true);
	const struct diag_cause *c;

	fx_account(x, 0.1, 0, 0.5, 0);
	for (unsigned i = 0; i < NT; i++) {
		struct thread_row *r = &x->rows[i];

		r->k.tid = r->k.tgid = (uint32_t)r->tid;
		snprintf(r->k.comm, sizeof(r->k.comm), "prog");
		r->timed = false;
		if (i < NT / 2) {
			r->k.sib_waits[FCT_WAKE_WRITE] = 100;
			r->k.sib_wait_ns[FCT_WAKE_WRITE] = WALL / 2;
		} else {
			r->k.sib_wakes[FCT_WAKE_WRITE] = 100;
		}
	}
	x->m.subject = NULL;
	fx_total(x);
	assert_true(explain_run(&x->m, &x->d) >= 1);
	c = cause_of(&x->d, "sibling_wait");
	assert_non_null(c);
	assert_true(fig_is(c, "waits", 400));
	assert_true(fig_is(c, "write_waits", 400));
	assert_false(has_fig(c, "processes"));	/* none both woke and waited */
	free(x);
}

/* Every file fits: the rare cold misses are not the lock's problem. */
static void test_pool_rare_misses(void **state)
{
	struct fx *x = fx_new("fcp", 2, false);

	fx_pool_clocks(x, 200000000);
	x->res.cfg.files = 40;
	for (unsigned i = 0; i < 2; i++) {
		x->ts[i].hits = 99980;
		x->ts[i].misses = 20;
		x->ts[i].syscalls_in_lock = 40;
	}
	fx_total(x);
	assert_int_equal(explain_run(&x->m, &x->d), 1);
	assert_string_equal(x->d.causes[0].cause, "pool_lock_contention");
	assert_float_equal(x->d.causes[0].share, 0.10, EPS);
	/* all 40 files fit: the 40 cold misses are no ratio uniform access predicts */
	assert_true(fig_is(&x->d.causes[0], "files", 40));
	assert_true(fig_is(&x->d.causes[0], "misses", 40));
	assert_true(fig_is(&x->d.causes[0], "predicted_miss_ratio", 0));
	show(x);
	free(x);
}

static struct fx *fx_cache(int nlocks)
{
	struct fx *x = fx_new("bcache", NT, true);
	char name[32];

	x->res.totals = (struct subject_totals){ .has_cache = true };
	for (int l = 0; l < nlocks; l++) {
		snprintf(name, sizeof(name), nlocks > 1 ? "bcache.shard%d" : "bcache.lru", l);
		fx_desc(x, name);
	}
	for (unsigned i = 0; i < NT; i++) {
		struct thread_timings *u = &x->ts[i];

		u->hits = 270000;
		u->misses = 30000;
		u->lock_acquires = 330000;
		u->lock_contended = 200000;
		u->lock_hold_ns = 100000000;
		u->lock_wait_ns = 700000000;
		u->miss_read_ns = 20000000;
	}
	fx_account(x, 0.05, 0.30, 0.0, 0.03);
	fx_total(x);
	fx_lock(x, nlocks > 1 ? "bcache.shard3" : "bcache.lru", false, 900000,
		(uint64_t)(0.30 * NT * WALL));
	return x;
}

static void test_cache_lock_contention(void **state)
{
	struct fx *x = fx_cache(1);

	assert_int_equal(explain_run(&x->m, &x->d), 1);
	assert_string_equal(x->d.causes[0].cause, "cache_lock_contention");
	assert_float_equal(x->d.causes[0].share, 0.30, EPS);
	assert_true(fig_is(&x->d.causes[0], "hit_ratio", 0.9));
	assert_true(has_text(x->d.fix, "bcache-sharded"));
	assert_true(why_fig_is(&x->d, "fix_cause", 1));
	assert_true(why_fig_is(&x->d, "runq_share", 0.03));
	show(x);
	free(x);
}

/* Too few cores ranks first, but the fix is the code's. */
static void test_fix_from_code_cause(void **state)
{
	struct fx *x = fx_cache(1);

	fx_account(x, 0.05, 0.30, 0.0, 0.45);
	fx_total(x);
	assert_int_equal(explain_run(&x->m, &x->d), 2);
	assert_string_equal(x->d.causes[0].cause, "cpu_oversubscription");
	assert_float_equal(x->d.causes[0].share, 0.45, EPS);
	assert_string_equal(x->d.causes[1].cause, "cache_lock_contention");
	assert_true(why_fig_is(&x->d, "fix_cause", 2));	/* the code's, not the machine's */
	show(x);
	free(x);
}

static void test_sharded_cache_fix(void **state)
{
	struct fx *x = fx_cache(16);

	explain_run(&x->m, &x->d);
	assert_string_equal(x->d.causes[0].cause, "cache_lock_contention");
	assert_true(fig_is(&x->d.causes[0], "locks", 16));	/* already sharded */
	show(x);
	free(x);
}

/* A concurrent map: 30 k acquisitions for 300 k lookups per thread, so
 * the hits took none; the explanation must not blame the hit path. */
static void test_lockfree_hits_fix(void **state)
{
	struct fx *x = fx_cache(16);

	for (unsigned i = 0; i < NT; i++)
		x->ts[i].lock_acquires = 30000;
	explain_run(&x->m, &x->d);
	assert_string_equal(x->d.causes[0].cause, "cache_lock_contention");
	/* 30 k acquisitions for 300 k lookups a thread: inserts only */
	assert_true(fig_is(&x->d.causes[0], "lookups", 300000.0 * NT));
	assert_true(fig_is(&x->d.causes[0], "acquires", 30000.0 * NT));
	assert_false(has_text(x->d.fix, "bcache-chm"));	/* it is that variant already */
	show(x);
	free(x);
}

/* fc under page-cache pressure: reads wait for the disk. */
static void test_page_cache_misses(void **state)
{
	struct fx *x = fx_new("fc", 2, true);

	x->res.cfg.pressure = 5000;
	x->res.pressure_pages_dropped = 70000;
	fx_account(x, 0.30, 0.0, 0.40, 0.02);
	for (unsigned i = 0; i < 2; i++) {
		/* a page being read from disk is waited for uninterruptibly */
		x->rows[i].k.blocked_io_ns = (uint64_t)(0.40 * WALL);
		x->rows[i].k.pages_asked = 300000;
		x->rows[i].pagecache_misses = 100000;
		x->rows[i].pagecache_hits = 200000;
	}
	fx_total(x);
	fx_sc(x, __NR_pread64, 200000, 8000);
	assert_int_equal(explain_run(&x->m, &x->d), 1);
	assert_string_equal(x->d.causes[0].cause, "page_cache_misses");
	assert_float_equal(x->d.causes[0].share, 0.40, EPS);
	assert_true(fig_is(&x->d.causes[0], "pages_asked", 600000));
	assert_true(fig_is(&x->d.causes[0], "miss_pages", 200000));
	assert_true(fig_is(&x->d.causes[0], "miss_ratio", 1.0 / 3));
	assert_true(fig_is(&x->d.causes[0], "pressure_pages_dropped", 70000));
	assert_true(fig_is(&x->d.causes[0], "pressure_pages_per_s", 5000));
	assert_true(why_fig_is(&x->d, "pressure_pages_per_s", 5000));	/* "cache pressure" */
	show(x);
	free(x);
}

/* Issue 38: another program's page-cache misses get the same share (its
 * uninterruptible sleep) and the same measured pread64 figures. */
static void test_page_cache_misses_any_program(void **state)
{
	struct fx *x = fx_new("reader", 2, true);
	struct lock_name none = { .name = "" };

	(void)state;
	x->m.names = &none;	/* named by lockname.c: a program fctrace did not write */
	x->res.cfg.files = 0;
	fx_account(x, 0.30, 0.0, 0.40, 0.02);
	for (unsigned i = 0; i < 2; i++) {
		x->rows[i].k.blocked_io_ns = (uint64_t)(0.40 * WALL);
		x->rows[i].k.pages_asked = 300000;
		x->rows[i].pagecache_misses = 100000;
	}
	fx_total(x);
	fx_sc(x, __NR_pread64, 200000, 8000);
	assert_true(explain_run(&x->m, &x->d) >= 1);
	assert_string_equal(x->d.causes[0].cause, "page_cache_misses");
	assert_float_equal(x->d.causes[0].share, 0.40, EPS);
	assert_true(fig_is(&x->d.causes[0], "pages_asked", 600000));
	assert_true(fig_is(&x->d.causes[0], "miss_pages", 200000));
	assert_true(fig_is(&x->d.causes[0], "pread_mean_ns", 8000));
	assert_true(fig_is(&x->d.causes[0], "pread_calls", 200000));
	assert_false(has_fig(&x->d.causes[0], "pressure_pages_dropped"));
	show(x);
	free(x);
}

/* Issue 33: 977 of 2001 threads not held, a full futex table: the causes
 * built on them say so first and lose confidence; others keep theirs. */
static void test_losses_lower_confidence(void **state)
{
	struct fx *x = fx_new("fc", NT, true);
	double conf;

	fx_account(x, 0.10, 0.0, 0.0, 0.70);
	fx_total(x);
	explain_run(&x->m, &x->d);
	conf = x->d.causes[0].confidence;

	x->kv.nthreads = 1024;
	x->kv.lost.slot_full = 977;
	losses_find(&x->kv, &x->m.losses);
	assert_int_equal(x->m.losses.n, 1);
	assert_int_equal(x->m.losses.l[0].count, 977);
	assert_float_equal(x->m.losses.l[0].kept, 1024.0 / 2001, 1e-9);	/* 1024 held of 2001 */
	assert_true(loss_touches(&x->m.losses.l[0], "threads"));
	explain_run(&x->m, &x->d);
	assert_true(fig_is(&x->d.causes[0], "lost_slot_full", 977));
	assert_float_equal(x->d.causes[0].confidence, conf * 1024 / 2001, 1e-6);
	assert_true(why_fig_is(&x->d, "threads_lost", 977));

	/* a full futex table touches the lock causes, not the run queue */
	x->kv.lost.slot_full = 0;
	x->kv.lost.futex_map_full = 125000;
	losses_find(&x->kv, &x->m.losses);
	assert_int_equal(x->m.losses.n, 1);
	assert_true(loss_touches_cause(&x->m.losses.l[0], "user_lock_contention"));
	assert_false(loss_touches_cause(&x->m.losses.l[0], "cpu_oversubscription"));
	explain_run(&x->m, &x->d);
	assert_float_equal(x->d.causes[0].confidence, conf, 1e-9);
	assert_false(has_fig(&x->d.causes[0], "lost_futex_map_full"));
	assert_false(has_fig(&x->d.causes[0], "lost_slot_full"));
	assert_true(isnan(figs_get(x->d.figs, x->d.nfigs, "threads_lost")));

	/* runs the kernel skipped: named by the program that skipped most,
	 * kept as a share of the runs counted, touching that program's figures */
	x->kv.lost.futex_map_full = 0;
	x->kv.nprobes = 2;
	x->kv.probes[0] = (struct probe_status){ .name = "tp_btf/block_rq_complete",
						 .group = PG_DISK, .skipped = 6, .runs = 994 };
	x->kv.probes[1] = (struct probe_status){ .name = "tp_btf/sched_switch",
						 .group = PG_SCHED, .runs = 5000 };
	x->kv.lost.hooks_skipped = 6;
	losses_find(&x->kv, &x->m.losses);
	assert_int_equal(x->m.losses.n, 1);
	assert_string_equal(x->m.losses.l[0].id, "hooks_skipped");
	assert_int_equal(x->m.losses.l[0].count, 6);
	assert_float_equal(x->m.losses.l[0].kept, 5994.0 / 6000, 1e-9);
	assert_true(loss_touches(&x->m.losses.l[0], "disk"));
	assert_false(loss_touches(&x->m.losses.l[0], "locks"));
	free(x);
}

/* A cause under the confidence floor is not ranked: out of the numbered
 * list, on the "Also seen" line with its confidence and evidence, and
 * marked "ranked": false in the JSON, yet still in the causes array. */
static void test_confidence_floor(void **state)
{
	static struct diagnosis d;
	struct json_object *a, *c;
	char *text = NULL;
	size_t len = 0;
	FILE *mem;

	memset(&d, 0, sizeof(d));
	snprintf(d.headline, sizeof(d.headline), "Why x took 1.00 s here");
	/* the larger share first, as rank() hands them over, but at 5 % */
	d.causes[0] = (struct diag_cause){ .cause = "user_lock_contention", .share = 0.40,
					   .confidence = 0.05, .title = "lwlock site",
					   .evidence = { "one wait of 2 ms" }, .nevidence = 1 };
	d.causes[1] = (struct diag_cause){ .cause = "durable_writes", .share = 0.30,
					   .confidence = 0.80, .title = "fdatasync",
					   .nevidence = 0 };
	d.n = 2;
	assert_int_equal(explain_floor(&d), 1);
	assert_string_equal(d.causes[0].cause, "durable_writes");	/* ranked first */
	assert_true(d.causes[0].ranked);
	assert_false(d.causes[1].ranked);
	assert_true(why_fig_is(&d, "causes_unranked", 1));
	assert_true(has_text(d.also, "lwlock site"));	/* its title, not the ranked one's */
	assert_false(has_text(d.also, "fdatasync"));

	a = why_causes_json(&d);
	assert_int_equal(json_object_array_length(a), 2);	/* kept in the array */
	c = json_object_array_get_idx(a, 1);
	assert_string_equal(json_object_get_string(json_object_object_get(c, "cause")),
			    "user_lock_contention");
	assert_false(json_object_get_boolean(json_object_object_get(c, "ranked")));
	assert_true(json_object_get_boolean(json_object_object_get(json_object_array_get_idx(a, 0),
								   "ranked")));
	json_object_put(a);

	assert_non_null(mem = open_memstream(&text, &len));
	why_print(mem, &d);
	fclose(mem);
	assert_non_null(strstr(text, "1. fdatasync"));
	assert_null(strstr(text, "2. "));		/* the 5 % cause is not numbered */
	assert_non_null(strstr(text, "\nAlso seen "));
	free(text);

	/* none reaches the floor: the largest share still leads */
	d.causes[0].confidence = 0.02;
	assert_int_equal(explain_floor(&d), 1);
	assert_true(d.causes[0].ranked);
	assert_false(d.causes[1].ranked);
}

static void test_kernel_lock_contention(void **state)
{
	struct fx *x = fx_new("fc", 2, true);

	fx_account(x, 0.60, 0.0, 0.02, 0.01);
	fx_total(x);
	fx_lock(x, "spinlock @ lockref_get_not_dead", true, 500000, (uint64_t)(0.25 * 2 * WALL));
	fx_lock(x, "mutex @ do_open", true, 1000, (uint64_t)(0.01 * 2 * WALL));
	assert_int_equal(explain_run(&x->m, &x->d), 1);
	assert_string_equal(x->d.causes[0].cause, "kernel_lock_contention");
	assert_float_equal(x->d.causes[0].share, 0.26, EPS);
	assert_true(fig_is(&x->d.causes[0], "sites", 2));
	assert_true(fig_is(&x->d.causes[0], "lock1_waits", 500000));	/* the spinlock first */
	assert_true(fig_is(&x->d.causes[0], "lock1_wait_ns", 0.25 * 2 * WALL));
	assert_true(fig_is(&x->d.causes[0], "lock2_waits", 1000));
	assert_true(fig_is(&x->d.causes[0], "lock2_wait_ns", 0.01 * 2 * WALL));
	assert_false(has_fig(&x->d.causes[0], "lock3_waits"));
	show(x);
	free(x);
}

/* On CPU 97 %, everything else under the threshold: no false cause. */
static void test_healthy_kernel(void **state)
{
	struct fx *x = fx_new("fc", 2, true);

	fx_account(x, 0.30, 0.01, 0.01, 0.01);
	fx_total(x);
	assert_int_equal(explain_run(&x->m, &x->d), 1);
	assert_string_equal(x->d.causes[0].cause, "healthy");
	assert_float_equal(x->d.causes[0].share, 0.97, EPS);
	assert_true(fig_is(&x->d.causes[0], "runq_share", 0.01));
	assert_true(fig_is(&x->d.causes[0], "sys_share", 0.30));
	assert_true(why_fig_is(&x->d, "runq_share", 0.01));
	show(x);
	free(x);
}

static void test_healthy_timing_only(void **state)
{
	struct fx *x = fx_new("fc", 2, false);

	fx_total(x);
	assert_int_equal(explain_run(&x->m, &x->d), 1);
	assert_string_equal(x->d.causes[0].cause, "healthy");
	assert_true(x->d.causes[0].confidence <= 0.5);
	show(x);
	free(x);
}

/* Interrupted before any op ended: nothing to explain, not "healthy". */
static void test_zero_ops_not_healthy(void **state)
{
	struct fx *x = fx_new("fcp", 2, true);

	fx_account(x, 0.01, 0.01, 0.01, 0.01);
	for (unsigned i = 0; i < x->m.nrows; i++)
		x->ts[i].ops = 0;
	fx_total(x);
	assert_int_equal(explain_run(&x->m, &x->d), -1);
	assert_int_equal(x->d.n, 0);
	free(x);
}

/* 4.9 % is not a cause, 5 % is. */
static void test_threshold(void **state)
{
	struct fx *x = fx_new("fc", 2, true);

	fx_account(x, 0.10, 0.0, 0.0, 0.049);
	fx_total(x);
	explain_run(&x->m, &x->d);
	assert_string_equal(x->d.causes[0].cause, "healthy");
	fx_account(x, 0.10, 0.0, 0.0, 0.05);
	fx_total(x);
	explain_run(&x->m, &x->d);
	assert_string_equal(x->d.causes[0].cause, "cpu_competition");
	show(x);
	free(x);
}

static void test_empty_model(void **state)
{
	struct fx *x = fx_new("fc", 0, false);

	assert_int_equal(explain_run(&x->m, &x->d), -1);
	assert_int_equal(x->d.n, 0);
	free(x);
}

static void test_json_keys(void **state)
{
	static const char *const keys[] = { "cause", "share", "title", "evidence", "confidence",
					    "figures", "knob" };
	struct fx *x = fx_pool_kernel();
	struct json_object *a, *o, *v, *fig;

	explain_run(&x->m, &x->d);
	a = why_causes_json(&x->d);
	assert_true(json_object_is_type(a, json_type_array));
	assert_int_equal(json_object_array_length(a), x->d.n);
	for (int i = 0; i < x->d.n; i++) {
		o = json_object_array_get_idx(a, i);
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			assert_true(json_object_object_get_ex(o, keys[k], &v));
		json_object_object_get_ex(o, "figures", &v);
		assert_true(json_object_is_type(v, json_type_object));
		assert_int_equal(json_object_object_length(v), x->d.causes[i].nfigs);
		json_object_object_get_ex(o, "knob", &v);
		assert_string_equal(json_object_get_string(v), x->d.causes[i].knob);
	}
	/* a cause's figure by its key, as the diagnosis holds it */
	o = json_object_array_get_idx(a, 1);
	assert_string_equal(json_object_get_string(json_object_object_get(o, "cause")),
			    "cpu_oversubscription");
	json_object_object_get_ex(o, "figures", &v);
	assert_true(json_object_object_get_ex(v, "cpus", &fig));
	assert_float_equal(json_object_get_double(fig), 2, EPS);
	o = json_object_array_get_idx(a, 0);
	json_object_object_get_ex(o, "evidence", &v);
	assert_int_equal(json_object_array_length(v), x->d.causes[0].nevidence);
	json_object_object_get_ex(o, "share", &v);
	assert_float_equal(json_object_get_double(v), 0.60, EPS);
	json_object_put(a);
	a = why_summary_json(&x->d);
	assert_true(json_object_object_get_ex(a, "fix", &v));
	assert_true(json_object_object_get_ex(a, "figures", &v));
	assert_int_equal(json_object_object_length(v), x->d.nfigs);
	assert_true(json_object_object_get_ex(v, "threads", &fig));
	assert_float_equal(json_object_get_double(fig), 8, EPS);
	json_object_put(a);
	free(x);
}

/* The text: headline, causes, "not the problem", the model, the fix. */
static void test_print(void **state)
{
	struct fx *x = fx_pool_kernel();
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	explain_run(&x->m, &x->d);
	why_print(f, &x->d);
	fclose(f);
	assert_true(has_text(text, "Why fcp takes 2.00 s here"));
	assert_true(has_text(text, "[pool_lock_serialisation: 60.0 % of thread time"));
	assert_true(has_text(text, "Not the problem:"));
	assert_true(has_text(text, "Model (whatif.c), fitted to this run: an op that did not wait cost"));
	assert_true(has_text(text, "fcp-fixed: ~"));
	assert_true(has_text(text, "Fix: "));
	for (char *line = text; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
		assert_true(strcspn(line, "\n") <= 100);
	free(text);
	free(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pool_serialisation_kernel),
		cmocka_unit_test(test_pool_serialisation_timing_only),
		cmocka_unit_test(test_pool_contention_without_syscalls),
		cmocka_unit_test(test_sibling_wait_one_way),
		cmocka_unit_test(test_pool_rare_misses),
		cmocka_unit_test(test_cache_lock_contention),
		cmocka_unit_test(test_fix_from_code_cause),
		cmocka_unit_test(test_sharded_cache_fix),
		cmocka_unit_test(test_lockfree_hits_fix),
		cmocka_unit_test(test_page_cache_misses),
		cmocka_unit_test(test_page_cache_misses_any_program),
		cmocka_unit_test(test_losses_lower_confidence),
		cmocka_unit_test(test_confidence_floor),
		cmocka_unit_test(test_kernel_lock_contention),
		cmocka_unit_test(test_healthy_kernel),
		cmocka_unit_test(test_healthy_timing_only),
		cmocka_unit_test(test_zero_ops_not_healthy),
		cmocka_unit_test(test_threshold),
		cmocka_unit_test(test_empty_model),
		cmocka_unit_test(test_json_keys),
		cmocka_unit_test(test_print),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
