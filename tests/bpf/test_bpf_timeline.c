/*
 * test_bpf_timeline.c - --timeline for real, as root: a known hand-off
 * (one thread holds a mutex while it sleeps 20 ms, another waits on it)
 * must come out as a lock wait on the named mutex woken by the holder's
 * futex wake, the holder's sleep as blocked; and a whole fcp run's
 * --timeline-out must be a valid Chrome trace with every worker named,
 * every lane filling the window, no record dropped, and the pool lock's
 * hand-offs between workers.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "bpfutil.h"
#include "report/report.h"
#include "session/session.h"
#include "testutil.h"
#include "join/timeline.h"
#include "trace/tlrec.h"
#include "trace_check.h"

#define HOLD_NS	20000000ull

struct handoff {
	pthread_mutex_t mu;
	int locked;		/* atomic: the holder has the mutex */
	int waiter;		/* atomic: the waiter's tid, about to lock it */
};

/* Whether thread tid of this process sleeps (state S). */
static bool sleeps(int tid)
{
	char path[64], buf[256], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	if (!(f = fopen(path, "r")))
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] == 'S';
}

static void holder(struct marked *m)
{
	struct handoff *h = m->arg;
	struct timespec ts = { 0, HOLD_NS };

	if (m->index == 0) {
		pthread_mutex_lock(&h->mu);
		__atomic_store_n(&h->locked, 1, __ATOMIC_RELEASE);
		/* the hold starts once the waiter sleeps on the mutex: on a
		 * busy machine it may first run after 20 ms (at most 5 s) */
		for (int i = 0; i < 5000; i++) {
			int w = __atomic_load_n(&h->waiter, __ATOMIC_ACQUIRE);

			if (w && sleeps(w))
				break;
			usleep(1000);
		}
		nanosleep(&ts, NULL);		/* blocked, holding it */
		pthread_mutex_unlock(&h->mu);	/* futex wake: the hand-off */
		return;
	}
	while (!__atomic_load_n(&h->locked, __ATOMIC_ACQUIRE))
		sched_yield();
	__atomic_store_n(&h->waiter, m->tid, __ATOMIC_RELEASE);
	pthread_mutex_lock(&h->mu);		/* futex wait on the mutex */
	pthread_mutex_unlock(&h->mu);
}

static void record_handoff(struct timeline *tl, struct marked *m, struct handoff *h)
{
	struct tl_events ev = { 0 };
	struct tl_lock lock = { .addr = (uintptr_t)&h->mu, .size = sizeof(h->mu), .name = "test.mu" };
	struct tracer_opts o = { .groups = PG_FULL, .tgid = getpid(), .tl_len_ns = 10000000000ull,
				 .tl_bytes = tlrec_ring_bytes(500, 2), .tl_out = &ev };
	struct tl_life lives[2];
	struct tl_input in = { .locks = &lock, .nlocks = 1, .lives = lives, .nlives = 2 };
	struct bpf_fixture f = { 0 };

	assert_int_equal(tracer_prepare(&f.t, &o, &f.kv), 0);
	tracer_start(f.t);
	usleep(5000);				/* the window is open */
	run_marked(m, 2, holder, h);
	bpf_fixture_read(&f);
	assert_true(f.kv.tl.on);
	assert_int_equal(f.kv.tl.dropped, 0);
	for (int i = 0; i < 2; i++)
		lives[i] = (struct tl_life){ m[i].tid, m[i].begin_ns, m[i].end_ns };
	in.begin_ns = f.kv.tl.begin_ns;
	in.end_ns = f.kv.tl.end_ns;
	assert_int_equal(timeline_build(tl, ev.ev, ev.n, &in), 0);
	tl_events_free(&ev);
	bpf_fixture_done(&f);
}

/* The interval of thread tid in state st that lasted longest, or NULL. */
static const struct tl_interval *longest(const struct timeline *tl, uint32_t tid, enum tl_state st)
{
	const struct tl_interval *best = NULL;

	for (size_t i = 0; i < tl->niv; i++) {
		const struct tl_interval *v = &tl->iv[i];

		if (v->tid == tid && v->state == st &&
		    (!best || v->end_ns - v->start_ns > best->end_ns - best->start_ns))
			best = v;
	}
	return best;
}

static void test_known_handoff(void **state)
{
	struct handoff h = { .mu = PTHREAD_MUTEX_INITIALIZER };
	struct marked m[2];
	const struct tl_interval *wait, *sleep;
	struct timeline tl;
	bool handed = false;

	BPF_TEST_REQUIRE();
	record_handoff(&tl, m, &h);
	assert_int_equal(tl.nthreads, 2);
	wait = longest(&tl, m[1].tid, TL_LOCK);
	sleep = longest(&tl, m[0].tid, TL_BLOCKED);
	assert_non_null(wait);
	assert_non_null(sleep);
	assert_string_equal(tl.locks[wait->lock].name, "test.mu");
	assert_int_equal(wait->woken_by, m[0].tid);
	assert_true(sleep->end_ns - sleep->start_ns >= HOLD_NS * 9 / 10);
	/* the waiter slept on the mutex at least while the holder slept */
	assert_true(wait->start_ns <= sleep->end_ns && wait->end_ns >= sleep->end_ns);
	for (size_t i = 0; i < tl.nwakes; i++)
		handed |= tl.wakes[i].handoff && tl.wakes[i].waker == (uint32_t)m[0].tid &&
			  tl.wakes[i].wakee == (uint32_t)m[1].tid && tl.wakes[i].lock == 0;
	assert_true(handed);
	for (int i = 0; i < 2; i++) {	/* lanes fill each thread's life */
		const struct tl_thread *t = timeline_thread(&tl, m[i].tid);
		uint64_t sum = 0;

		for (int k = 0; k < TL_NSTATES; k++)
			sum += t->state_ns[k];
		assert_int_equal(sum, m[i].end_ns - m[i].begin_ns);
	}
	timeline_free(&tl);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;

	assert_non_null(f);
	assert_int_equal(getdelim(&buf, &len, '\0', f) > 0, 1);
	fclose(f);
	return buf;
}

static void fcp_run(struct session *s, char *dir, unsigned window_ms)
{
	struct trace_opts t = { .probes = PG_FULL, .tl_window_ms = window_ms, .tl_start_ms = 50 };
	struct wl_config cfg;

	wl_config_defaults(&cfg);
	cfg.workload = "fcp";
	cfg.files = 60;
	cfg.threads = 4;
	cfg.ops = 50000;
	cfg.dir = dir;
	assert_int_equal(session_run(&t, &cfg, s), 0);
	assert_true(s->traced);
}

/* Every worker has a lane and every lane fills the window. */
static void check_lanes(const struct session *s)
{
	const struct timeline *tl = s->timeline;

	assert_int_equal(tl->nthreads, (int)s->timings.nthreads);
	for (int i = 0; i < tl->nthreads; i++) {
		uint64_t sum = 0;

		for (int k = 0; k < TL_NSTATES; k++)
			sum += tl->threads[i].state_ns[k];
		assert_int_equal(sum, tl->end_ns - tl->begin_ns);
	}
}

/* Hand-offs of the pool lock: worker to worker, each ending a lock wait. */
static void check_handoffs(const struct timeline *tl)
{
	size_t handoffs = 0;

	for (size_t i = 0; i < tl->nwakes; i++) {
		const struct tl_wake *w = &tl->wakes[i];

		if (!w->handoff)
			continue;
		handoffs++;
		assert_non_null(timeline_thread(tl, w->waker));
		assert_int_equal(w->lock, 0);
		assert_string_equal(tl->locks[0].name, "fcp.pool");
	}
	assert_true(handoffs > 0);
}

static void test_fcp_chrome_trace(void **state)
{
	char *dir = test_dir_make(), path[4200], why[256] = "", *text;
	struct trace_counts c;
	struct session s;

	BPF_TEST_REQUIRE();
	fcp_run(&s, dir, 100);		/* long enough for hand-offs on a busy machine */
	assert_non_null(s.timeline);
	assert_int_equal(s.kv.tl.dropped, 0);
	assert_true(s.timeline->events > 1000);
	/* the BPF side stops at the window's end, however late fctrace closes it
	 * (a sched_switch that read its clock just before the flag was set
	 * may begin it a little earlier) */
	assert_in_range(s.timeline->end_ns - s.timeline->begin_ns, 100000000, 100999999);
	check_lanes(&s);
	check_handoffs(s.timeline);
	snprintf(path, sizeof(path), "%s/t.json", dir);
	assert_int_equal(report_timeline_write(&s, path), 0);
	text = slurp(path);
	if (trace_check(text, &c, why, sizeof(why)))
		fail_msg("%s", why);
	assert_int_equal(c.threads, 4);
	assert_int_equal(c.complete, (long)s.timeline->niv);
	assert_true(c.flows > 0);
	assert_non_null(strstr(text, "\"name\":\"worker 0 (tid "));
	assert_non_null(strstr(text, "\"name\":\"lock wait fcp.pool\""));
	free(text);
	unlink(path);
	session_free(&s);
	test_dir_remove(dir);
}

/* Without --timeline nothing is recorded or reported. */
static void test_off(void **state)
{
	char *dir = test_dir_make();
	struct session s;

	BPF_TEST_REQUIRE();
	fcp_run(&s, dir, 0);
	assert_false(s.kv.tl.on);
	assert_null(s.timeline);
	assert_int_equal(s.tl_events.n, 0);
	session_free(&s);
	test_dir_remove(dir);
}

/* A program fctrace did not write (run -- CMD): its main thread holds
 * session_table_lock 60 ms after thread waiter-static fell asleep on it; the
 * lock's name comes from lockname.c, the waker from the main thread's
 * futex wake. */
static void test_run_cmd(void **state)
{
	const char *env = getenv("FCTRACE_TARGET_PROG");
	char prog[4096], *argv[] = { prog, "hold", "60", NULL };
	struct trace_opts t = { .probes = PG_FULL, .tl_window_ms = 1000, .tl_start_ms = 0 };
	struct target_opts to = { .mode = TGT_EXEC, .argv = argv };
	const struct tl_interval *wait = NULL;
	struct session s;

	BPF_TEST_REQUIRE();
	snprintf(prog, sizeof(prog), "%s", env ? env : ".output/tests/target_prog");
	assert_int_equal(session_run_target(&t, &to, &s), 0);
	assert_non_null(s.timeline);
	assert_int_equal(s.timeline->dropped, 0);
	for (size_t i = 0; i < s.timeline->niv; i++) {
		const struct tl_interval *v = &s.timeline->iv[i];

		if (v->state == TL_LOCK && !strcmp(s.timeline->locks[v->lock].name,
						   "session_table_lock (mutex)") &&
		    (!wait || v->end_ns - v->start_ns > wait->end_ns - wait->start_ns))
			wait = v;
	}
	assert_non_null(wait);
	assert_true(wait->end_ns - wait->start_ns >= 50000000);
	assert_int_equal(wait->woken_by, (uint32_t)s.target.pid);	/* main released it */
	session_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_handoff),
		cmocka_unit_test(test_fcp_chrome_trace),
		cmocka_unit_test(test_off),
		cmocka_unit_test(test_run_cmd),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
