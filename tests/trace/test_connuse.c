/*
 * test_connuse.c - a process's new connections per peer (trace/connuse.c)
 * from hand-made socket events: the peers' names, the connections open
 * at each connect through many opens and closes in a scrambled order
 * (the socket table's deletions), the set-ups and lives, the pool's hits
 * at each size, and the peers past the table counted as lost.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <cmocka.h>
#include "trace/connuse.h"

static struct fct_fileuse ev(unsigned op, uint64_t sock, uint64_t ts)
{
	struct fct_fileuse e;

	memset(&e, 0, sizeof(e));
	e.tgid = 100;
	e.op = op;
	e.dev = 7;
	e.ino = sock;
	e.ts = ts;
	if (op == FCT_FU_CLOSE)
		e.flags = FCT_FU_SOCKET;
	return e;
}

static void connect_to(struct cu_proc *p, const void *sa, size_t len, uint64_t sock,
		       uint64_t ts)
{
	struct fct_fileuse e = ev(FCT_FU_CONNECT, sock, ts);

	memcpy(e.peer, sa, len < sizeof(e.peer) ? len : sizeof(e.peer));
	e.off = 1000;		/* the connect call's ns */
	cu_event(p, &e);
}

static void close_sock(struct cu_proc *p, uint64_t sock, uint64_t ts)
{
	struct fct_fileuse e = ev(FCT_FU_CLOSE, sock, ts);

	cu_event(p, &e);
}

static struct sockaddr_in inet(const char *a, unsigned port)
{
	struct sockaddr_in s = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };

	inet_pton(AF_INET, a, &s.sin_addr);
	return s;
}

static void test_names(void **state)
{
	struct sockaddr_in6 s6 = { .sin6_family = AF_INET6, .sin6_port = htons(443) };
	struct sockaddr_un su = { .sun_family = AF_UNIX, .sun_path = "/run/x.sock" };
	struct sockaddr_un abs = { .sun_family = AF_UNIX };
	struct sockaddr_in s4 = inet("10.1.2.3", 5432);
	uint8_t odd[8] = { 99, 0 };
	char out[CU_PEER_NAME];

	(void)state;
	inet_pton(AF_INET6, "::1", &s6.sin6_addr);
	memcpy(abs.sun_path, "\0bus", 4);
	cu_peer_name((uint8_t *)&s4, sizeof(s4), out, sizeof(out));
	assert_string_equal(out, "10.1.2.3:5432");
	cu_peer_name((uint8_t *)&s6, sizeof(s6), out, sizeof(out));
	assert_string_equal(out, "[::1]:443");
	cu_peer_name((uint8_t *)&su, FCT_FU_PEER_LEN, out, sizeof(out));
	assert_string_equal(out, "unix:/run/x.sock");
	cu_peer_name((uint8_t *)&abs, 6, out, sizeof(out));
	assert_string_equal(out, "unix:@bus");
	cu_peer_name(odd, sizeof(odd), out, sizeof(out));
	assert_string_equal(out, "address family 99");
}

/* 1000 connections to one peer, opened in waves of up to 40 and closed in
 * a scrambled order: every connect's count of those open is the truth's,
 * the same address with another sin_zero is the same peer. */
static void test_open_counts(void **state)
{
	struct cu_proc *p = cu_proc_new();
	struct sockaddr_in a = inet("127.0.0.1", 80);
	uint64_t want[CU_SIZES + 1] = { 0 }, open[64], sock = 1, t = 0;
	struct kv_conns out;
	int nopen = 0, peak = 0;

	(void)state;
	assert_non_null(p);
	srand(7);
	for (int i = 0; i < 1000; i++) {
		if (nopen == 40 || (nopen && rand() % 3 == 0)) {
			int k = rand() % nopen;

			close_sock(p, open[k], t += 10);
			open[k] = open[--nopen];
			continue;
		}
		want[nopen < CU_SIZES ? nopen : CU_SIZES]++;
		a.sin_zero[0] = (unsigned char)i;	/* not a part of the peer */
		connect_to(p, &a, sizeof(a), sock, t += 10);
		open[nopen++] = sock++;
		if (nopen > peak)
			peak = nopen;
	}
	cu_figures(p, &out);
	assert_int_equal(out.npeers, 1);
	assert_int_equal(out.peers[0].peak, peak);
	assert_memory_equal(out.peers[0].open_before, want, sizeof(want));
	assert_int_equal(out.peers[0].connects, sock - 1);
	assert_int_equal(out.peers[0].closes, sock - 1 - (uint64_t)nopen);
	assert_int_equal(out.peers[0].connect_ns, 1000 * (sock - 1));
	assert_int_equal(out.lost, 0);
	cu_proc_free(p);
}

/* Kept at 4: each connect past the first 4 finds 3 open (closed first);
 * a pool of 4 serves all but its own 4, of 3 or fewer none. A set-up and
 * a close give the means; a close of a socket never connected is not
 * counted. */
static void test_pool_hits(void **state)
{
	struct cu_proc *p = cu_proc_new();
	struct sockaddr_in a = inet("127.0.0.1", 5432);
	struct fct_fileuse setup;
	struct kv_conns out;
	uint64_t t = 0;

	(void)state;
	for (uint64_t s = 1; s <= 100; s++) {
		if (s > 4)
			close_sock(p, s - 4, t += 100);
		connect_to(p, &a, sizeof(a), s, t += 100);
	}
	close_sock(p, 999, t += 100);
	setup = ev(FCT_FU_SETUP, 99, t);	/* still open */
	setup.off = 5000;
	cu_event(p, &setup);
	cu_figures(p, &out);
	assert_int_equal(out.peers[0].peak, 4);
	assert_int_equal(out.peers[0].closes, 96);
	/* the first three closed sooner after their connects than the rest */
	assert_int_equal(out.peers[0].life_ns, 400 + 500 + 600 + 93 * 700);
	assert_int_equal(out.peers[0].setups, 1);
	assert_int_equal(out.peers[0].setup_ns, 5000);
	for (uint64_t s = 1; s < 4; s++)
		assert_int_equal(cu_hits_at(&out.peers[0], s), 0);
	assert_int_equal(cu_hits_at(&out.peers[0], 4), 96);
	assert_int_equal(cu_hits_at(&out.peers[0], 10), 96);
	assert_true(cu_hit_ratio_at(&out.peers[0], 4) == 0.96);
	cu_proc_free(p);
}

/* Peers past the table: their connects are lost, counted, never mixed in. */
static void test_peers_lost(void **state)
{
	struct cu_proc *p = cu_proc_new();
	struct kv_conns out;

	(void)state;
	for (unsigned i = 0; i < CU_PEERS_MAX + 3; i++) {
		struct sockaddr_in a = inet("127.0.0.1", 1000 + i);

		connect_to(p, &a, sizeof(a), i + 1, i);
	}
	cu_figures(p, &out);
	assert_int_equal(out.npeers, CU_PEERS_MAX);
	assert_int_equal(out.lost, 3);
	assert_string_equal(out.peers[CU_PEERS_MAX - 1].peer, "127.0.0.1:1007");
	cu_proc_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_open_counts),
		cmocka_unit_test(test_pool_hits),
		cmocka_unit_test(test_peers_lost),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
