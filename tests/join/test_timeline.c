/*
 * test_timeline.c - the timeline from known records, without root: a
 * small convoy (a holder's futex wake hands the lock to a sleeper, which
 * waits for a CPU), built into intervals and wakes whatever order the
 * records arrive in, then written as Chrome trace JSON and checked
 * against the format's rules; and the checker itself refuses what breaks
 * them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "join/timeline.h"
#include "report/timeline_json.h"
#include "jsonutil.h"
#include "trace_check.h"

#define NR_FUTEX	202
#define NR_PREAD	17
#define WORD		0x1000
#define NO		FCT_TL_NO_SC

static const struct tl_lock locks[] = { { .addr = WORD, .size = 40, .name = "fcp.pool" } };

#define EV(t, id, k, n, o, fl, a) \
	{ .ts = (t), .tid = (id), .kind = FCT_TL_##k, .nr = (n), .op = (o), .flags = (fl), .arg = (a) }
#define W FCT_TL_F_FUTEX_WAIT

/* 11 releases the lock (futex wake on WORD) while 12 sleeps on it; 13
 * reads a file and later sleeps outside futexes until 11 wakes it. */
static const struct fct_tl_event convoy[] = {
	EV(1050, 13, SWITCH_IN, NO, 0, 0, 0),
	EV(1100, 11, SYS_ENTER, NR_FUTEX, 1, 0, WORD),
	EV(1120, 12, WAKEUP, NR_FUTEX, 99, W, WORD),	/* fired from another CPU: hint 99 */
	EV(1150, 11, SYS_EXIT, NR_FUTEX, 0, 0, 1),
	EV(1200, 13, SYS_ENTER, NR_PREAD, 0, 0, 0),
	EV(1250, 13, SYS_EXIT, NR_PREAD, 0, 0, 10000),
	EV(1300, 12, SWITCH_IN, NR_FUTEX, 0, W, WORD),
	EV(1320, 12, SYS_EXIT, NR_FUTEX, 0, W, WORD),
	EV(1500, 11, SWITCH_OUT, NO, FCT_ST_RUNNABLE, 0, 0),
	EV(1600, 13, SWITCH_OUT, NO, FCT_ST_BLOCKED, 0, 0),
	EV(1700, 13, WAKEUP, NO, 11, 0, 0),
};
#define NCONVOY (sizeof(convoy) / sizeof(*convoy))

struct want { uint32_t tid; enum tl_state st; uint64_t a, b; uint16_t nr; int lock; uint32_t by; };

static const struct want want_iv[] = {
	{ 11, TL_USER, 1000, 1100, NO, -1, 0 },
	{ 11, TL_SYSCALL, 1100, 1150, NR_FUTEX, -1, 0 },
	{ 11, TL_USER, 1150, 1500, NO, -1, 0 },
	{ 11, TL_RUNNABLE, 1500, 2000, NO, -1, 0 },
	{ 12, TL_LOCK, 1000, 1120, NO, 0, 11 },
	{ 12, TL_RUNNABLE, 1120, 1300, NO, -1, 0 },
	{ 12, TL_SYSCALL, 1300, 1320, NR_FUTEX, -1, 0 },
	{ 12, TL_USER, 1320, 2000, NO, -1, 0 },
	{ 13, TL_RUNNABLE, 1000, 1050, NO, -1, 0 },
	{ 13, TL_USER, 1050, 1200, NO, -1, 0 },
	{ 13, TL_SYSCALL, 1200, 1250, NR_PREAD, -1, 0 },
	{ 13, TL_USER, 1250, 1600, NO, -1, 0 },
	{ 13, TL_BLOCKED, 1600, 1700, NO, -1, 11 },
	{ 13, TL_RUNNABLE, 1700, 2000, NO, -1, 0 },
};
#define NWANT (sizeof(want_iv) / sizeof(*want_iv))

static struct tl_input window(uint64_t begin, uint64_t end)
{
	return (struct tl_input){ .begin_ns = begin, .end_ns = end, .locks = locks, .nlocks = 1 };
}

static void check_convoy(const struct timeline *tl)
{
	assert_int_equal(tl->nthreads, 3);
	assert_int_equal(tl->niv, NWANT);
	for (size_t i = 0; i < NWANT; i++) {
		const struct tl_interval *v = &tl->iv[i];

		assert_int_equal(v->tid, want_iv[i].tid);
		assert_int_equal(v->state, want_iv[i].st);
		assert_int_equal(v->start_ns, want_iv[i].a);
		assert_int_equal(v->end_ns, want_iv[i].b);
		assert_int_equal(v->nr, want_iv[i].nr);
		assert_int_equal(v->lock, want_iv[i].lock);
		assert_int_equal(v->woken_by, want_iv[i].by);
	}
	assert_int_equal(tl->nwakes, 2);
	/* the sleeper on the lock: woken by the thread in futex wake on its
	 * word, not by the tid the hook saw (99) */
	assert_int_equal(tl->wakes[0].waker, 11);
	assert_int_equal(tl->wakes[0].wakee, 12);
	assert_int_equal(tl->wakes[0].lock, 0);
	assert_true(tl->wakes[0].handoff);
	assert_int_equal(tl->wakes[1].waker, 11);
	assert_false(tl->wakes[1].handoff);
	assert_int_equal(tl->wakes[1].lock, -1);
	for (int i = 0; i < tl->nthreads; i++) {
		uint64_t sum = 0;

		for (int s = 0; s < TL_NSTATES; s++)
			sum += tl->threads[i].state_ns[s];
		assert_int_equal(sum, 1000);	/* every lane fills the window */
	}
	assert_int_equal(timeline_thread(tl, 12)->lock_sleeps, 1);
	assert_int_equal(timeline_thread(tl, 12)->state_ns[TL_RUNNABLE], 180);
}

static void test_convoy_intervals(void **state)
{
	struct tl_input in = window(1000, 2000);
	struct timeline tl;

	assert_int_equal(timeline_build(&tl, convoy, NCONVOY, &in), 0);
	check_convoy(&tl);
	timeline_free(&tl);
}

/* Records from several CPUs' ring buffer pages arrive out of order. */
static void test_any_order(void **state)
{
	struct fct_tl_event ev[NCONVOY];
	struct tl_input in = window(1000, 2000);
	struct timeline tl;

	for (size_t i = 0; i < NCONVOY; i++)
		ev[i] = convoy[(i * 7) % NCONVOY];	/* 7 is prime to 11: a permutation */
	assert_int_equal(timeline_build(&tl, ev, NCONVOY, &in), 0);
	check_convoy(&tl);
	timeline_free(&tl);
}

/* A record outside the window widens it; none at all is an empty timeline. */
static void test_window_edges(void **state)
{
	struct tl_input in = window(1100, 1500), none = { .begin_ns = 1000, .end_ns = 2000 };
	struct timeline tl;

	assert_int_equal(timeline_build(&tl, convoy, NCONVOY, &in), 0);
	assert_int_equal(tl.begin_ns, 1050);
	assert_int_equal(tl.end_ns, 1700);
	timeline_free(&tl);
	assert_int_equal(timeline_build(&tl, NULL, 0, &none), 0);
	assert_int_equal(tl.nthreads, 0);
	assert_int_equal(tl.niv, 0);
	timeline_free(&tl);
}

/* A thread that began after the window opened, or ended before it
 * closed, has a lane only over its life. */
static void test_lives(void **state)
{
	static const struct tl_life lives[] = { { 13, 1040, 1900 }, { 11, 0, 0 } };
	struct tl_input in = window(1000, 2000);
	struct timeline tl;

	in.lives = lives;
	in.nlives = 2;
	assert_int_equal(timeline_build(&tl, convoy, NCONVOY, &in), 0);
	assert_int_equal(tl.iv[0].start_ns, 1000);		/* 11: the whole window */
	assert_int_equal(tl.iv[3].end_ns, 2000);
	assert_int_equal(tl.iv[8].tid, 13);
	assert_int_equal(tl.iv[8].start_ns, 1040);		/* runnable from its begin */
	assert_int_equal(tl.iv[NWANT - 1].end_ns, 1900);	/* to its end */
	assert_int_equal(timeline_thread(&tl, 13)->state_ns[TL_RUNNABLE], 10 + 200);
	timeline_free(&tl);
}

/* A wakeup that fires on the wakee's CPU (an IPI) after the waker's
 * futex wake returned is still the waker's, within 2 ms; not later. */
static void test_late_wakeup(void **state)
{
	static const struct fct_tl_event late[] = {
		EV(1100, 11, SYS_ENTER, NR_FUTEX, 1, 0, WORD),
		EV(1150, 11, SYS_EXIT, NR_FUTEX, 0, 0, 1),
		EV(1180, 12, WAKEUP, NR_FUTEX, 0, W, WORD),	/* the idle task's tid */
		EV(3200000, 13, WAKEUP, NR_FUTEX, 0, W, WORD),	/* 3.2 ms after */
	};
	struct tl_input in = window(1000, 4000000);
	struct timeline tl;

	assert_int_equal(timeline_build(&tl, late, 4, &in), 0);
	assert_int_equal(tl.nwakes, 2);
	assert_int_equal(tl.wakes[0].waker, 11);
	assert_true(tl.wakes[0].handoff);
	assert_int_equal(tl.wakes[1].waker, 0);
	assert_false(tl.wakes[1].handoff);
	timeline_free(&tl);
}

/* The opening snapshot gives a lane to a thread that records no edge
 * (asleep on the lock throughout); for a thread already known it says
 * nothing (it may have been read after a later edge). */
static void test_snapshot(void **state)
{
	static const struct fct_tl_event ev[] = {
		EV(1000, 14, STATE, NR_FUTEX, FCT_ST_BLOCKED, W, WORD),
		EV(1001, 15, STATE, NO, FCT_ST_RUNNABLE, 0, 0),
		EV(1000, 16, SWITCH_OUT, NO, FCT_ST_RUNNABLE, 0, 0),
		EV(1002, 16, STATE, NO, FCT_ST_RUNNING, 0, 0),
	};
	struct tl_input in = window(1000, 2000);
	struct timeline tl;

	assert_int_equal(timeline_build(&tl, ev, 4, &in), 0);
	assert_int_equal(tl.nthreads, 3);
	assert_int_equal(tl.niv, 3);
	assert_int_equal(tl.iv[0].state, TL_LOCK);		/* 14: the whole window */
	assert_int_equal(tl.iv[0].end_ns - tl.iv[0].start_ns, 1000);
	assert_int_equal(tl.iv[1].state, TL_RUNNABLE);		/* 15 */
	assert_int_equal(tl.iv[2].state, TL_RUNNABLE);		/* 16: not back on CPU */
	assert_int_equal(tl.iv[2].start_ns, 1000);
	timeline_free(&tl);
}

static const char *lane_name(void *arg, uint32_t tid, char *buf, size_t n)
{
	snprintf(buf, n, "worker %u", (unsigned)(tid - 11));
	return buf;
}

static char *chrome(const struct timeline *tl)
{
	struct json_object *doc = timeline_chrome_json(tl, 4242, "fctrace fcp", lane_name, NULL);
	char *s;

	assert_non_null(doc);
	s = strdup(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN));
	json_object_put(doc);
	return s;
}

/* The first event of the trace whose string at path is value and whose
 * tid is tid (-1: any), or NULL. */
static struct json_object *event_with(struct json_object *doc, const char *path,
				      const char *value, long tid)
{
	struct json_object *a = json_must_at(doc, "traceEvents"), *e, *v, *t;

	for (size_t i = 0; i < json_object_array_length(a); i++) {
		e = json_object_array_get_idx(a, i);
		v = json_at(e, path);
		t = json_at(e, "tid");
		if (v && json_object_is_type(v, json_type_string) &&
		    !strcmp(json_object_get_string(v), value) &&
		    (tid < 0 || (t && json_object_get_int64(t) == tid)))
			return e;
	}
	return NULL;
}

static void test_chrome_json(void **state)
{
	struct tl_input in = window(1000, 2000);
	struct json_object *doc, *e;
	struct trace_counts c;
	struct timeline tl;
	char why[256] = "", *s;

	assert_int_equal(timeline_build(&tl, convoy, NCONVOY, &in), 0);
	s = chrome(&tl);
	if (trace_check(s, &c, why, sizeof(why)))
		fail_msg("%s", why);
	assert_int_equal(c.threads, 3);
	assert_int_equal(c.complete, NWANT);
	assert_int_equal(c.flows, 2);
	assert_true(c.span_us > 0.999 && c.span_us < 1.001);	/* 1000 ns */
	assert_non_null(doc = json_tokener_parse(s));
	assert_non_null(event_with(doc, "name", "lock wait fcp.pool", -1));
	assert_non_null(e = event_with(doc, "cat", "runnable", 12));	/* in µs */
	assert_float_equal(json_num_at(e, "ts"), 0.120, 1e-9);
	assert_float_equal(json_num_at(e, "dur"), 0.180, 1e-9);
	assert_non_null(event_with(doc, "name", "pread64", 13));
	assert_non_null(event_with(doc, "name", "lock hand-off", -1));
	assert_non_null(event_with(doc, "args.name", "worker 1", -1));	/* the lane's name */
	json_object_put(doc);
	free(s);
	timeline_free(&tl);
}

/* The checker refuses what breaks the rules (else the tests above prove nothing). */
static void test_checker_refuses(void **state)
{
	static const char *const bad[] = {
		"[]",
		"{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":2,\"ts\":0,\"dur\":1}]}",
		"{\"traceEvents\":[{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":2,"
		"\"args\":{\"name\":\"t\"}},{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":2,\"ts\":0,"
		"\"dur\":5},{\"ph\":\"X\",\"name\":\"b\",\"pid\":1,\"tid\":2,\"ts\":3,\"dur\":1}]}",
		"{\"traceEvents\":[{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":2,"
		"\"args\":{\"name\":\"t\"}},{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":2,\"ts\":0,"
		"\"dur\":5},{\"ph\":\"s\",\"name\":\"w\",\"id\":1,\"pid\":1,\"tid\":2,\"ts\":1}]}",
		"{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":2,\"ts\":-1,\"dur\":1}]}",
		"{\"traceEvents\":[{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":1,\"dur\":1}]}",
	};
	struct trace_counts c;
	char why[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		assert_int_equal(trace_check(bad[i], &c, why, sizeof(why)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_convoy_intervals),
		cmocka_unit_test(test_any_order),
		cmocka_unit_test(test_window_edges),
		cmocka_unit_test(test_lives),
		cmocka_unit_test(test_late_wakeup),
		cmocka_unit_test(test_snapshot),
		cmocka_unit_test(test_chrome_json),
		cmocka_unit_test(test_checker_refuses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
