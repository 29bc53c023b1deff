/*
 * test_bpf_proxy.c - a proxy's pool of connections (user/trace/sockinv.c
 * finds it, bpf/sockflow.bpf.h times the exchanges, user/join/
 * pools_proxy.c and user/explain/rules_proxy.c say it) against
 * tests/proxy_prog.c, a proxy of N connections to its backend for M
 * clients that times its own queue. Exact: the requests in and forwarded,
 * the N connections and M clients; the wait against the program's clock;
 * the Why's pool_too_small with the pool named. With as many connections
 * as clients nothing queues and no cause is made.
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

static const char *proxy_prog(void)
{
	const char *env = getenv("FCTRACE_PROXY_PROG");

	return env ? env : ".output/tests/proxy_prog";
}

struct truth {
	unsigned long requests, forwarded;
	unsigned long long queue_ns;
	int conns, clients;
};

static struct json_object *run_proxy(int conns, struct truth *t, char *dir, size_t n)
{
	char nc[16], nm[16], nr[16], out[256], err[4096], *json = test_at("proxy.json");
	struct spawn_opts so = { .uid = -1, .errfd = -1 };

	snprintf(dir, n, "%s", test_at("px"));
	snprintf(nc, sizeof(nc), "%d", conns);
	snprintf(nm, sizeof(nm), "%d", CLIENTS);
	snprintf(nr, sizeof(nr), "%d", REQUESTS);
	if (mkdir(dir, 0700) && errno != EEXIST)
		fail_msg("mkdir %s", dir);
	char *const argv[] = { (char *)fctrace_binary(), "run", "--quiet", "--budget", "0", "--json", json,
			       "--",
			       (char *)proxy_prog(), dir, nc, nm, nr, "500", NULL };
	if (run_fctrace_out(argv, &so, out, sizeof(out), err, sizeof(err)))
		fail_msg("fctrace run failed: %s", err);
	if (sscanf(out, "%lu %lu %llu %d %d", &t->requests, &t->forwarded, &t->queue_ns,
		   &t->conns, &t->clients) != 5)
		fail_msg("proxy_prog said '%s'", out);
	return json_file(json);
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
	};

	return cmocka_run_group_tests(tests, test_scratch_setup, test_scratch_teardown);
}
