/*
 * proxy_prog.c - a proxy with a pool of N connections to a backend, for
 * M clients, that times its own queue: the ground truth of the proxy
 * probes (tests/bpf/test_bpf_proxy.c). Not fctrace's code: it includes
 * nothing of it.
 *
 *   proxy_prog DIR N M REQUESTS DELAY_US
 *
 * Three processes. The backend (a child) serves DIR/be.sock: a thread a
 * connection, each request (8 bytes) answered after DELAY_US. The
 * proxy (this process, the one traced) listens on DIR/px.sock and keeps
 * N connections to the backend; it sleeps 0.3 s first (fctrace scans for
 * a proxy's sockets soon after it connects), then accepts M clients, reads each request
 * as it comes, forwards it on a free connection or queues it (first in,
 * first out) until one is free, and writes the reply back. The clients
 * (another child, M threads) each send REQUESTS requests one after the
 * other. When every client has closed, the proxy prints one line:
 *   requests forwarded queue_ns conns clients
 * queue_ns: the time from its read of each request to its write of it to
 * the backend, summed (CLOCK_MONOTONIC).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>

#define MAXC 256
#define MAXN 64

static char be_path[108], px_path[108];
static unsigned delay_us;
static int nreq;

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

static int listen_on(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int s = socket(AF_UNIX, SOCK_STREAM, 0);

	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	unlink(path);
	if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof(a)) || listen(s, MAXC))
		die("listen");
	return s;
}

static int connect_to(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int s = socket(AF_UNIX, SOCK_STREAM, 0);

	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	for (int i = 0; s >= 0 && connect(s, (struct sockaddr *)&a, sizeof(a)); i++) {
		if (i > 500)
			die("connect");
		usleep(10000);	/* the server not listening yet */
	}
	return s;
}

/* ---- the backend: a thread a connection --------------------------------- */

static void *serve(void *arg)
{
	int c = (int)(intptr_t)arg;
	char buf[8];

	while (read(c, buf, sizeof(buf)) == (ssize_t)sizeof(buf)) {
		usleep(delay_us);
		if (write(c, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			break;
	}
	close(c);
	return NULL;
}

static void backend(int l)
{
	pthread_t th;
	int c;

	while ((c = accept(l, NULL, NULL)) >= 0)
		if (pthread_create(&th, NULL, serve, (void *)(intptr_t)c) == 0)
			pthread_detach(th);
	_exit(0);
}

/* ---- the clients: a thread each ------------------------------------------ */

static void *client(void *arg)
{
	int s = connect_to(px_path);
	char buf[8] = "request";

	(void)arg;
	for (int i = 0; i < nreq; i++)
		if (write(s, buf, sizeof(buf)) != (ssize_t)sizeof(buf) ||
		    read(s, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			die("client");
	close(s);
	return NULL;
}

static void clients(int m)
{
	pthread_t th[MAXC];

	for (int i = 0; i < m; i++)
		if (pthread_create(&th[i], NULL, client, NULL))
			die("pthread_create");
	for (int i = 0; i < m; i++)
		pthread_join(th[i], NULL);
	_exit(0);
}

/* ---- the proxy ------------------------------------------------------------ */

struct proxy {
	int up[MAXN], up_for[MAXN];	/* the pool; the client each serves (-1: free) */
	int n;
	int queue[MAXC * 2], qhead, qlen;	/* clients waiting, first in first out */
	uint64_t read_at[MAXC];		/* when each waiting client's request was read */
	char req[MAXC][8];
	unsigned long requests, forwarded;
	uint64_t queue_ns;
};

static void forward(struct proxy *p, int u, int cfd)
{
	p->queue_ns += now_ns() - p->read_at[cfd];
	p->up_for[u] = cfd;
	if (write(p->up[u], p->req[cfd], 8) != 8)
		die("forward");
	p->forwarded++;
}

static int free_conn(const struct proxy *p)
{
	for (int u = 0; u < p->n; u++)
		if (p->up_for[u] < 0)
			return u;
	return -1;
}

static void on_client(struct proxy *p, int ep, int cfd, int *open)
{
	int u;

	if (read(cfd, p->req[cfd], 8) != 8) {
		epoll_ctl(ep, EPOLL_CTL_DEL, cfd, NULL);
		close(cfd);
		--*open;
		return;
	}
	p->read_at[cfd] = now_ns();
	p->requests++;
	if ((u = free_conn(p)) >= 0)
		forward(p, u, cfd);
	else
		p->queue[(p->qhead + p->qlen++) % (MAXC * 2)] = cfd;
}

static void on_reply(struct proxy *p, int u)
{
	char buf[8];
	int cfd = p->up_for[u];

	if (read(p->up[u], buf, sizeof(buf)) != (ssize_t)sizeof(buf) ||
	    write(cfd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
		die("reply");
	p->up_for[u] = -1;
	if (p->qlen) {
		cfd = p->queue[p->qhead];
		p->qhead = (p->qhead + 1) % (MAXC * 2);
		p->qlen--;
		forward(p, u, cfd);
	}
}

static void run_proxy(struct proxy *p, int l, int m)
{
	struct epoll_event ev, evs[64];
	int ep = epoll_create1(0), open = 0, accepted = 0;

	ev.events = EPOLLIN;
	ev.data.u64 = 3ull << 32;	/* the listener; 1: a client, 2: the pool */
	epoll_ctl(ep, EPOLL_CTL_ADD, l, &ev);
	for (int u = 0; u < p->n; u++) {
		ev.data.u64 = (2ull << 32) | (unsigned)u;
		epoll_ctl(ep, EPOLL_CTL_ADD, p->up[u], &ev);
	}
	while (accepted < m || open > 0) {
		int k = epoll_wait(ep, evs, 64, -1);

		for (int i = 0; i < k; i++) {
			uint64_t d = evs[i].data.u64;

			if (d >> 32 == 3 && accepted < m) {
				int c = accept(l, NULL, NULL);

				if (c < 0 || c >= MAXC)
					die("accept");
				ev.data.u64 = (1ull << 32) | (unsigned)c;
				epoll_ctl(ep, EPOLL_CTL_ADD, c, &ev);
				accepted++, open++;
			} else if (d >> 32 == 1) {
				on_client(p, ep, (int)(d & 0xffffffffu), &open);
			} else if (d >> 32 == 2) {
				on_reply(p, (int)(d & 0xffffffffu));
			}
		}
	}
	close(ep);
}

int main(int argc, char **argv)
{
	static struct proxy p;
	int n, m, lb, lp;
	pid_t be, cl;

	if (argc != 6 || (n = atoi(argv[2])) <= 0 || n > MAXN || (m = atoi(argv[3])) <= 0 ||
	    m > MAXC - 16 || (nreq = atoi(argv[4])) <= 0) {
		fprintf(stderr, "usage: proxy_prog DIR N M REQUESTS DELAY_US (N <= %d, M <= %d)\n",
			MAXN, MAXC - 16);
		return 2;
	}
	delay_us = (unsigned)atoi(argv[5]);
	snprintf(be_path, sizeof(be_path), "%s/be.sock", argv[1]);
	snprintf(px_path, sizeof(px_path), "%s/px.sock", argv[1]);
	lb = listen_on(be_path);
	if ((be = fork()) < 0)
		die("fork");
	if (!be)
		backend(lb);
	close(lb);
	lp = listen_on(px_path);
	p.n = n;
	for (int u = 0; u < n; u++) {
		p.up[u] = connect_to(be_path);
		p.up_for[u] = -1;
	}
	if ((cl = fork()) < 0)
		die("fork");
	if (!cl)
		clients(m);
	/* fctrace scans for proxies soon after a connect (its pool's here):
	 * 0.3 s leaves it room on a busy machine */
	usleep(300000);
	run_proxy(&p, lp, m);
	waitpid(cl, NULL, 0);
	kill(be, SIGTERM);
	waitpid(be, NULL, 0);
	unlink(be_path);
	unlink(px_path);
	printf("%lu %lu %llu %d %d\n", p.requests, p.forwarded, (unsigned long long)p.queue_ns, n,
	       m);
	return 0;
}
