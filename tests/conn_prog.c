/*
 * conn_prog.c - a program that opens connections again and again, with a
 * known number open at once, to a server of its own, and counts its own
 * figures: the ground truth of the connections' stream
 * (tests/bpf/test_bpf_conns.c). Not fctrace's code: it includes nothing
 * of it.
 *
 *   conn_prog DIR N KUNIX KTCP DELAY_US
 *
 * A child process serves a unix socket (DIR/srv.sock) and a TCP port on
 * 127.0.0.1: for each connection it waits DELAY_US, writes a greeting,
 * reads a request, writes a reply and reads to the end. The parent makes
 * N connections to each, one at a time, keeping the last K of each peer
 * open (it closes the oldest before it opens another when K are): so the
 * i-th connect finds min(i, K - 1) of its peer's connections open. Each
 * connection: connect, read the greeting (its set-up, timed), write the
 * request (the second exchange), read the reply; the server then closes
 * its end, the client keeps its own. It also connects a UDP
 * socket N times (no connection: not to be counted). At the end it closes
 * the rest and prints one line:
 *   unix_path tcp_port connects_each setup_ns_mean
 * the mean of both peers' set-ups, from connect's call to the greeting's
 * read returning (CLOCK_MONOTONIC).
 * For each peer, a pool of K connections would serve all but its first K
 * of the N (the K-th connect finds K - 1 open, each after it the same).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>

#define KMAX 64

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/* One connection, served to its end. */
static void serve_one(int c, unsigned delay_us)
{
	char buf[64];

	usleep(delay_us);
	if (write(c, "hello", 5) != 5 || read(c, buf, sizeof(buf)) <= 0 ||
	    write(c, "reply", 5) != 5)
		_exit(2);
	close(c);	/* the client keeps its end open, idle */
}

/* The server: accepts on either socket, one connection at a time in
 * order of arrival (the client waits for each greeting in turn). */
static void server(int lu, int lt, unsigned delay_us)
{
	fd_set r;
	int c;

	for (;;) {
		FD_ZERO(&r);
		FD_SET(lu, &r);
		FD_SET(lt, &r);
		if (select((lu > lt ? lu : lt) + 1, &r, NULL, NULL, NULL) < 0)
			_exit(2);
		if (FD_ISSET(lu, &r) && (c = accept(lu, NULL, NULL)) >= 0)
			serve_one(c, delay_us);
		if (FD_ISSET(lt, &r) && (c = accept(lt, NULL, NULL)) >= 0)
			serve_one(c, delay_us);
	}
}

/* A connection to sa, set up (its time added to *setup_ns) and used for a
 * second exchange; its descriptor. */
static int connect_one(const struct sockaddr *sa, socklen_t len, uint64_t *setup_ns)
{
	char buf[64];
	uint64_t t0;
	int s = socket(sa->sa_family, SOCK_STREAM, 0);

	if (s < 0)
		die("socket");
	t0 = now_ns();
	if (connect(s, sa, len))
		die("connect");
	if (read(s, buf, sizeof(buf)) <= 0)
		die("read greeting");
	*setup_ns += now_ns() - t0;
	if (write(s, "req", 3) != 3 || read(s, buf, sizeof(buf)) <= 0)
		die("exchange");
	return s;
}

/* A peer's open connections, oldest first. */
struct ring {
	int fd[KMAX];
	int k, n;
};

/* Before a connect: the oldest closed when K are open. */
static void ring_room(struct ring *r)
{
	if (r->n < r->k)
		return;
	close(r->fd[0]);
	memmove(r->fd, r->fd + 1, (size_t)--r->n * sizeof(r->fd[0]));
}

static void ring_add(struct ring *r, int fd)
{
	r->fd[r->n++] = fd;
}

static void ring_close(struct ring *r)
{
	for (int i = 0; i < r->n; i++)
		close(r->fd[i]);
}

int main(int argc, char **argv)
{
	struct sockaddr_un su = { .sun_family = AF_UNIX };
	struct sockaddr_in st = { .sin_family = AF_INET }, udp = { .sin_family = AF_INET };
	socklen_t tl = sizeof(st);
	struct ring ru = { 0 }, rt = { 0 };
	uint64_t setup_ns = 0;
	int lu, lt, n;
	unsigned delay;
	pid_t child;

	if (argc != 6 || (n = atoi(argv[2])) <= 0 || (ru.k = atoi(argv[3])) <= 0 ||
	    ru.k > KMAX || (rt.k = atoi(argv[4])) <= 0 || rt.k > KMAX) {
		fprintf(stderr, "usage: conn_prog DIR N KUNIX KTCP DELAY_US (K <= %d)\n", KMAX);
		return 2;
	}
	delay = (unsigned)atoi(argv[5]);
	snprintf(su.sun_path, sizeof(su.sun_path), "%s/srv.sock", argv[1]);
	unlink(su.sun_path);
	st.sin_addr.s_addr = udp.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	udp.sin_port = htons(9);
	if ((lu = socket(AF_UNIX, SOCK_STREAM, 0)) < 0 || (lt = socket(AF_INET, SOCK_STREAM, 0)) < 0)
		die("socket");
	if (bind(lu, (struct sockaddr *)&su, sizeof(su)) || listen(lu, 128) ||
	    bind(lt, (struct sockaddr *)&st, sizeof(st)) || listen(lt, 128) ||
	    getsockname(lt, (struct sockaddr *)&st, &tl))
		die("listen");
	if ((child = fork()) < 0)
		die("fork");
	if (!child)
		server(lu, lt, delay);
	close(lu);
	close(lt);
	for (int i = 0; i < n; i++) {
		int u = socket(AF_INET, SOCK_DGRAM, 0);

		ring_room(&ru);
		ring_add(&ru, connect_one((struct sockaddr *)&su, sizeof(su), &setup_ns));
		ring_room(&rt);
		ring_add(&rt, connect_one((struct sockaddr *)&st, sizeof(st), &setup_ns));
		if (u < 0 || connect(u, (struct sockaddr *)&udp, sizeof(udp)))
			die("udp");
		close(u);
	}
	ring_close(&ru);
	ring_close(&rt);
	kill(child, SIGTERM);
	waitpid(child, NULL, 0);
	unlink(su.sun_path);
	printf("%s %u %d %llu\n", su.sun_path, ntohs(st.sin_port), n,
	       (unsigned long long)(setup_ns / (2ull * (unsigned)n)));
	return 0;
}
