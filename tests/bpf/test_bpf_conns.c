/*
 * test_bpf_conns.c - new connections as a pool's misses (the handles'
 * stream's socket events: bpf/fileuse.bpf.h, user/trace/connuse.c, the
 * `connections` caches, the Why's connections_not_kept) against
 * tests/conn_prog.c, which keeps a known number of connections open to
 * each of two peers of its own (a unix socket, a TCP port), sets each up
 * with a greeting it times itself, and connects a UDP socket as often
 * (no connection: never counted). Exact: connects, closes, set-ups, the
 * most open at once, the curve and the size that fixes it; the set-up's
 * time against the program's own clock.
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

#define N	60	/* connections to each peer */
#define KUNIX	3	/* kept open to the unix socket */
#define KTCP	5	/* and to the TCP port */
#define DELAY	"1000"	/* us the server waits before its greeting */

static const char *conn_prog(void)
{
	const char *env = getenv("FCTRACE_CONN_PROG");

	return env ? env : ".output/tests/conn_prog";
}

struct truth {
	char path[128];
	unsigned port;
	int n;
	unsigned long long setup_ns;	/* the program's mean set-up */
};

static struct json_object *run_conns(struct truth *t)
{
	char n[16], ku[16], kt[16], out[256], err[4096];
	char *json = test_at("conns.json"), *dir = test_at("sock");
	struct spawn_opts so = { .uid = -1, .errfd = -1 };

	snprintf(n, sizeof(n), "%d", N);
	snprintf(ku, sizeof(ku), "%d", KUNIX);
	snprintf(kt, sizeof(kt), "%d", KTCP);
	if (mkdir(dir, 0700) && errno != EEXIST)
		fail_msg("mkdir %s", dir);
	char *const argv[] = { (char *)fctrace_binary(), "run", "--quiet", "--budget", "0", "--json", json,
			       "--",
			       (char *)conn_prog(), dir, n, ku, kt, DELAY, NULL };
	if (run_fctrace_out(argv, &so, out, sizeof(out), err, sizeof(err)))
		fail_msg("fctrace run failed: %s", err);
	if (sscanf(out, "%127s %u %d %llu", t->path, &t->port, &t->n, &t->setup_ns) != 4 ||
	    t->n != N)
		fail_msg("conn_prog said '%s'", out);
	return json_file(json);
}

static struct json_object *entry_of(struct json_object *doc, const char *peer)
{
	char object[200];
	struct json_object *c;

	snprintf(object, sizeof(object), "connections to %s", peer);
	c = json_find(doc, "caches", "object", object);
	if (!c)
		fail_msg("no cache entry '%s'", object);
	assert_string_equal(json_str_at(c, "kind"), "connections");
	assert_string_equal(json_str_at(c, "connection.peer"), peer);
	return c;
}

/* A peer kept at k open: the k-th connect and each after it find k - 1
 * open, so a pool of k serves all but its own first k, a smaller one none. */
static void check_peer(struct json_object *c, int k)
{
	struct json_object *mrc = json_must_at(c, "mrc");

	assert_int_equal(json_u64_at(c, "accesses"), N);
	assert_int_equal(json_u64_at(c, "misses"), N);
	assert_int_equal(json_u64_at(c, "connection.closes"), N);
	assert_int_equal(json_u64_at(c, "connection.setups"), N);
	assert_int_equal(json_u64_at(c, "working_set.items"), k);
	assert_null(json_at(c, "size_now.items"));
	assert_non_null(json_at(c, "size_now.why_unknown"));
	assert_int_equal(json_u64_at(c, "fix_size.items"), k);
	assert_int_equal(json_u64_at(c, "fix_size.misses"), k);
	assert_true(fabs(json_num_at(c, "fix_size.hit_ratio") - (double)(N - k) / N) < 1e-9);
	assert_int_equal(json_object_array_length(mrc), k);
	for (int s = 1; s < k; s++)
		assert_true(json_num_at(json_object_array_get_idx(mrc, (size_t)s - 1),
					"hit_ratio") == 0);
}

static void check_run(void)
{
	struct truth t;
	struct json_object *doc, *u, *tcp, *why;
	char peer[160];
	double setup;

	doc = run_conns(&t);
	snprintf(peer, sizeof(peer), "unix:%s", t.path);
	u = entry_of(doc, peer);
	check_peer(u, KUNIX);
	snprintf(peer, sizeof(peer), "127.0.0.1:%u", t.port);
	tcp = entry_of(doc, peer);
	check_peer(tcp, KTCP);
	/* the UDP socket's connects made no connection */
	assert_null(json_find(doc, "caches", "object", "connections to 127.0.0.1:9"));
	/* each set-up from connect to the greeting, as the program timed it */
	setup = (json_num_at(u, "connection.setup_each_ns") +
		 json_num_at(tcp, "connection.setup_each_ns")) / 2;
	print_message("  set-up: fctrace %.1f us, the program %.1f us\n", setup / 1e3,
		      (double)t.setup_ns / 1e3);
	assert_true(fabs(setup - (double)t.setup_ns) <= 0.15 * (double)t.setup_ns);
	/* the set-ups are most of the run: the first cause, with the pool's size */
	why = json_at(doc, "diagnosis");
	assert_non_null(why);
	assert_string_equal(json_str_at(json_object_array_get_idx(why, 0), "cause"),
			    "connections_not_kept");
	json_object_put(doc);
}

/* The connections' code inside the syscall programs (the default). */
static void test_conns(void **state)
{
	(void)state;
	BPF_TEST_REQUIRE();
	check_run();
}

/* And in the handles' programs of their own: the same figures. */
static void test_conns_apart(void **state)
{
	(void)state;
	BPF_TEST_REQUIRE();
	setenv("FCTRACE_HANDLES_APART", "1", 1);
	check_run();
	unsetenv("FCTRACE_HANDLES_APART");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conns),
		cmocka_unit_test(test_conns_apart),
	};

	return cmocka_run_group_tests(tests, test_scratch_setup, test_scratch_teardown);
}
