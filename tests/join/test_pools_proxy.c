/*
 * test_pools_proxy.c - a proxy's pool of connections made from a hand-made
 * flow (join/pools_proxy.c), and what other sizes would give: 12 clients
 * on 3 connections, 1000 requests in 1 s, each waiting 8 ms and on a
 * connection 2.5 ms. The clients queue, so each connection is held all
 * the time: 3 ms a request (Little), and a client's cycle of 12 ms leaves
 * 1 ms outside the proxy. With the clients all served (12 connections) a
 * request takes 4 ms a client: 3000 a second, a third of the wall; more
 * connections than clients add nothing; the CPUs' busy share caps it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "join/join.h"
#include "join/pools.h"

#define MS	1000000ull

static struct kv_flow flow;

static void model(struct joined_run *m, struct kview *kv, double busy_share)
{
	memset(m, 0, sizeof(*m));
	memset(kv, 0, sizeof(*kv));
	memset(&flow, 0, sizeof(flow));
	flow.tgid = 100;
	snprintf(flow.comm, sizeof(flow.comm), "pooler");
	snprintf(flow.peer, sizeof(flow.peer), "unix:/run/db.sock");
	flow.conns = 3;
	flow.clients = 12;
	flow.g.in_n = flow.g.out_n = 1000;
	flow.g.in_ns = 1000 * (8 * MS + 5 * MS / 2);	/* waiting + on a connection */
	flow.g.out_ns = 1000 * (5 * MS / 2);
	flow.g.first_ns = 0;
	flow.g.last_ns = 1000 * MS;
	flow.g.level_ns[3] = 1000 * MS;			/* all 3 busy throughout */
	kv->flows = &flow;
	kv->nflows = 1;
	kv->cpu.valid = busy_share > 0;
	kv->cpu.busy_ns = (uint64_t)(busy_share * 2000 * MS);
	kv->cpu.idle_ns = 2000 * MS - kv->cpu.busy_ns;
	m->wall_ns = 1000 * MS;
	m->ncpus = 2;
}

static const struct pool_row *proxy_pool(struct joined_run *m, struct kview *kv)
{
	assert_int_equal(pools_add_proxies(m, kv), 0);
	assert_int_equal(m->npools, 1);
	assert_int_equal(m->pools[0].kind, LK_CONNECTIONS);
	assert_int_equal(m->pools[0].capacity, 3);
	return &m->pools[0];
}

static double wall_at(const struct pool_row *p, unsigned c)
{
	for (int i = 0; i < p->nwhatif; i++)
		if (p->whatif[i].capacity == c)
			return p->whatif[i].wall_ns;
	fail_msg("no what-if for %u connections", c);
	return 0;
}

/* Idle CPUs: twice the connections about halve the wall, the clients all
 * served give a third of it, and twice as many again the same. */
static void test_more_connections(void **state)
{
	struct joined_run m;
	struct kview kv;
	const struct pool_row *p;

	(void)state;
	model(&m, &kv, 0.1);
	p = proxy_pool(&m, &kv);
	assert_float_equal(p->waiters_mean, 8.0, 1e-6);
	assert_int_equal(p->nwhatif, 3);
	assert_true(wall_at(p, 6) < 0.6 * 1000 * MS);
	assert_true(wall_at(p, 6) > 0.45 * 1000 * MS);
	assert_float_equal(wall_at(p, 12), 1000 * MS / 3.0, 0.05 * 1000 * MS / 3.0);
	assert_float_equal(wall_at(p, 24), wall_at(p, 12), 1e-6 * wall_at(p, 12));
	free(m.pools);
}

/* Busy CPUs: at half busy no size does better than half the wall; all
 * busy, no size does better than now. */
static void test_cpus_cap_it(void **state)
{
	struct joined_run m;
	struct kview kv;
	const struct pool_row *p;

	(void)state;
	model(&m, &kv, 0.5);
	p = proxy_pool(&m, &kv);
	assert_float_equal(wall_at(p, 12), 0.5 * 1000 * MS, 0.01 * 1000 * MS);
	free(m.pools);
	model(&m, &kv, 1.0);
	p = proxy_pool(&m, &kv);
	for (int i = 0; i < p->nwhatif; i++)
		assert_float_equal(p->whatif[i].wall_ns, 1000 * MS, 0.01 * 1000 * MS);
	free(m.pools);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_more_connections),
		cmocka_unit_test(test_cpus_cap_it),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
