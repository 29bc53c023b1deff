/*
 * test_bpf_proxy.c - a proxy's pool of connections (user/trace/sockinv.c
 * finds it, bpf/sockflow.bpf.h times the exchanges, user/join/
 * pools_proxy.c and user/explain/rules_proxy.c say it) against
 * tests/proxy_prog.c, a proxy of N connections to its backend for M
 * clients that times its own queue. Exact: the requests in and forwarded,
 * the N connections and M clients; the wait against the program's clock;
 * the Why's pool_too_small with the pool named. With as many connections
 * as clients nothing queues and no cause is made. With the backend
 * followed too, the pool's hold_state is the backend's, against its own
 * clocks (its CPU, its time in poll) and the proxy's (its exchanges).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "binutil.h"
#include "bpfutil.h"
#include "jsonutil.h"
#include "testutil.h"

#define CLIENTS		12
#define REQUESTS	150

/* pools[].hold_state's members, in its order */
static const char *const states[] = { "hold_state.syscall_ns", "hold_state.blocked_ns",
				      "hold_state.preempted_ns", "hold_state.user_ns",
				      "hold_state.waiting_ns" };

static const char *proxy_prog(void)
{
	const char *env = getenv("FCTRACE_PROXY_PROG");

	return env ? env : ".output/tests/proxy_prog";
}

struct truth {
	unsigned long requests, forwarded;
	unsigned long long queue_ns;
	int conns, clients;
	/* the proxy's exchanges upstream, and the backend's own clocks
	 * (proxy_prog.c) */
	unsigned long long exchange_ns, serve_ns, cpu_ns, idle_ns, life_ns;
};

/* follow: the backend (a child) traced too; cpu: its work on CPU. */
static struct json_object *run_proxy_as(int conns, bool follow, bool cpu, struct truth *t,
					char *dir, size_t n)
{
	char nc[16], nm[16], nr[16], out[512], err[4096], *json = test_at("proxy.json");
	struct spawn_opts so = { .uid = -1, .errfd = -1 };
	char *argv[20];
	int a = 0;

	snprintf(dir, n, "%s", test_at("px"));
	snprintf(nc, sizeof(nc), "%d", conns);
	snprintf(nm, sizeof(nm), "%d", CLIENTS);
	snprintf(nr, sizeof(nr), "%d", REQUESTS);
	if (mkdir(dir, 0700) && errno != EEXIST)
		fail_msg("mkdir %s", dir);
	argv[a++] = (char *)fctrace_binary();
	argv[a++] = "run";
	if (follow)
		argv[a++] = "--follow";
	argv[a++] = "--quiet", argv[a++] = "--budget", argv[a++] = "0";
	argv[a++] = "--json", argv[a++] = json, argv[a++] = "--";
	argv[a++] = (char *)proxy_prog(), argv[a++] = dir, argv[a++] = nc, argv[a++] = nm;
	argv[a++] = nr, argv[a++] = "500";
	if (cpu)
		argv[a++] = "cpu";
	argv[a] = NULL;
	if (run_fctrace_out(argv, &so, out, sizeof(out), err, sizeof(err)))
		fail_msg("fctrace run failed: %s", err);
	if (sscanf(out, "%lu %lu %llu %d %d %llu %llu %llu %llu %llu", &t->requests,
		   &t->forwarded, &t->queue_ns, &t->conns, &t->clients, &t->exchange_ns,
		   &t->serve_ns, &t->cpu_ns, &t->idle_ns, &t->life_ns) != 10)
		fail_msg("proxy_prog said '%s'", out);
	return json_file(json);
}

static struct json_object *run_proxy(int conns, struct truth *t, char *dir, size_t n)
{
	return run_proxy_as(conns, false, false, t, dir, n);
}

static struct json_object *pool_of(struct json_object *doc, const char *dir)
{
	char name[300];
	struct json_object *p;

	snprintf(name, sizeof(name), "proxy_prog's connections to unix:%s/be.sock", dir);
	p = json_find(doc, "pools", "name", name);
	if (!p)
		fail_msg("no pool '%s'", name);
	return p;
}

/* 3 connections for 12 clients: they queue; every count is the program's. */
static void test_pool_too_small(void **state)
{
	struct json_object *doc, *p, *why;
	char dir[256];
	struct truth t;
	double wait;

	(void)state;
	BPF_TEST_REQUIRE();
	doc = run_proxy(3, &t, dir, sizeof(dir));
	p = pool_of(doc, dir);
	assert_string_equal(json_str_at(p, "kind"), "connections");
	assert_string_equal(json_str_at(p, "capacity_method"), "counted");
	assert_int_equal(json_u64_at(p, "capacity"), 3);
	assert_int_equal(json_u64_at(p, "threads"), CLIENTS);
	assert_int_equal(json_u64_at(p, "waits"), t.requests);
	assert_int_equal(json_u64_at(p, "acquisitions"), t.forwarded);
	wait = json_num_at(p, "wait_ns");
	print_message("  waited for a connection: fctrace %.1f ms, the program %.1f ms\n",
		      wait / 1e6, (double)t.queue_ns / 1e6);
	/* the proxy's way from a read to the write upstream is in both */
	assert_true(fabs(wait - (double)t.queue_ns) <= 0.10 * (double)t.queue_ns);
	why = json_find(doc, "diagnosis", "cause", "pool_too_small");
	assert_non_null(why);
	/* its 3 connections, for the clients: the figures as the pool row has them */
	assert_int_equal(json_u64_at(why, "figures.capacity"), 3);
	assert_int_equal(json_u64_at(why, "figures.clients"), CLIENTS);
	assert_true(json_num_at(why, "figures.wait_each_ns") ==
		    json_num_at(p, "wait_ns") / (double)json_u64_at(p, "waits"));
	/* the backend, a child, not followed: its side is not seen, and none
	 * of it is made up */
	assert_int_equal(json_u64_at(p, "peer_processes"), 0);
	for (size_t i = 0; i < sizeof(states) / sizeof(*states); i++)
		assert_int_equal(json_u64_at(p, states[i]), 0);
	assert_int_equal(json_u64_at(why, "figures.peer_processes"), 0);
	assert_null(json_object_object_get(json_object_object_get(why, "figures"),
					   "peer_oncpu_share"));
	json_object_put(doc);
}

/* The backend followed, its work on CPU: the pool's hold_state is its
 * threads' against its own clocks. */
static void test_peer_hold(void **state)
{
	struct json_object *doc, *p, *why;
	double st[5], holds, hold, work = 0, cpu, runq, idle, scale;
	char dir[256];
	struct truth t;

	(void)state;
	BPF_TEST_REQUIRE();
	doc = run_proxy_as(3, true, true, &t, dir, sizeof(dir));
	p = pool_of(doc, dir);
	assert_int_equal(json_u64_at(p, "peer_processes"), 1);
	assert_int_equal(json_u64_at(p, "peer_connections"), 3);
	/* 3 serving threads and the accepting one */
	assert_int_equal(json_u64_at(p, "peer_threads"), 4);
	holds = (double)json_u64_at(p, "holds_seen");
	hold = json_num_at(p, "hold_ns_mean");
	for (size_t i = 0; i < 5; i++)
		work += st[i] = json_num_at(p, states[i]);
	/* the mean hold, whole: the peer's states and the rest (each part
	 * rounded to a nanosecond) */
	assert_true(fabs(work + json_num_at(p, "peer_wait_ns") - hold) <= 6);
	/* the exchanges: as the proxy timed them */
	print_message("  exchanges: fctrace %.1f ms, the proxy's clock %.1f ms\n",
		      hold * holds / 1e6, (double)t.exchange_ns / 1e6);
	assert_true(fabs(hold * holds - (double)t.exchange_ns) <= 0.05 * (double)t.exchange_ns);
	/* the peer's CPU (unscaled when it worked past the exchanges): as its
	 * threads' CPU clocks have it, the accepting thread's included */
	scale = json_num_at(p, "peer_work_share") > 1 ? json_num_at(p, "peer_work_share") : 1;
	cpu = (st[0] + st[3]) * holds * scale;
	runq = st[2] * holds * scale;
	print_message("  the backend on CPU: fctrace %.1f ms, its own clocks %.1f ms; runnable "
		      "%.1f ms\n", cpu / 1e6, (double)t.cpu_ns / 1e6, runq / 1e6);
	assert_true(fabs(cpu - (double)t.cpu_ns) <= 0.05 * (double)t.cpu_ns);
	/* spinning, it neither blocks nor waits on a lock */
	assert_true(st[1] + st[4] <= 0.02 * hold);
	/* its idle: the backend timed its poll()s, which also hold the wait
	 * for a CPU once woken and the call's own CPU; fctrace's idle is the
	 * sleep alone */
	idle = json_num_at(p, "peer_idle_share") * (double)t.life_ns;
	print_message("  the backend idle: fctrace %.1f ms (%.1f %% of its threads' time), its "
		      "poll()s %.1f ms\n", idle / 1e6,
		      100 * json_num_at(p, "peer_idle_share"), (double)t.idle_ns / 1e6);
	assert_true(idle <= 1.05 * (double)t.idle_ns);
	assert_true(idle + runq + cpu >= 0.95 * (double)t.idle_ns);
	why = json_find(doc, "diagnosis", "cause", "pool_too_small");
	assert_non_null(why);
	assert_int_equal(json_u64_at(why, "figures.peer_processes"), 1);
	/* the figures are the pool row's (the JSON's each rounded to a ns) */
	assert_true(fabs(json_num_at(why, "figures.peer_oncpu_share") - (st[0] + st[3]) / hold) <=
		    4 / hold);
	assert_true(fabs(json_num_at(why, "figures.peer_runq_share") - st[2] / hold) <= 2 / hold);
	json_object_put(doc);
}

/* As many connections as clients: nothing waits, no cause. */
static void test_pool_enough(void **state)
{
	struct json_object *doc, *p;
	char dir[256];
	struct truth t;

	(void)state;
	BPF_TEST_REQUIRE();
	doc = run_proxy(CLIENTS, &t, dir, sizeof(dir));
	p = pool_of(doc, dir);
	assert_int_equal(json_u64_at(p, "capacity"), CLIENTS);
	assert_int_equal(json_u64_at(p, "waits"), t.requests);
	assert_null(json_find(doc, "diagnosis", "cause", "pool_too_small"));
	json_object_put(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pool_too_small),
		cmocka_unit_test(test_pool_enough),
		cmocka_unit_test(test_peer_hold),
	};

	return cmocka_run_group_tests(tests, test_scratch_setup, test_scratch_teardown);
}
