/*
 * proxy_prog.c - a proxy with a pool of N connections to a backend, for
 * M clients, that times its own queue: the ground truth of the proxy
 * probes (tests/bpf/test_bpf_proxy.c). Not fctrace's code: it includes
 * nothing of it.
 *
 *   proxy_prog DIR N M REQUESTS DELAY_US [cpu]
 *
 * Three processes. The backend (a child) serves DIR/be.sock: a thread a
 * connection, each request (8 bytes) answered after DELAY_US (asleep;
 * with `cpu`, DELAY_US of its thread's CPU time, spinning). It waits for
 * a connection and for each request in poll(), as a database server
 * waits in epoll, and times itself (below). The
 * proxy (this process, the one traced) listens on DIR/px.sock and keeps
 * N connections to the backend; it sleeps 0.3 s first (fctrace scans for
 * a proxy's sockets soon after it connects), then accepts M clients, reads each request
 * as it comes, forwards it on a free connection or queues it (first in,
 * first out) until one is free, and writes the reply back. The clients
 * (another child, M threads) each send REQUESTS requests one after the
 * other. When every client has closed, the proxy prints one line:
 *   requests forwarded queue_ns conns clients
 * queue_ns: the time from its read of each request to its write of it to
 * the backend, summed (CLOCK_MONOTONIC). The line goes on with the
 * proxy's exchanges and the backend's own clocks, summed over its threads
 * (in memory the processes share), once every connection has closed and
 * the backend has ended:
 *   ... exchange_ns serve_ns cpu_ns idle_ns life_ns span_ns
 * exchange_ns: the proxy's write of each request upstream to its read of
 * the reply; serve_ns: the backend's read of each request to its write
 * of the reply; cpu_ns: its threads' CPU time, whole
 * (CLOCK_THREAD_CPUTIME_ID at their end, the accepting thread's
 * included); idle_ns: their time in poll() waiting for a connection or a
 * request; life_ns: their lives, summed; span_ns: the proxy's first
 * request read to its last reply written (the pool's span of use).
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
#include <poll.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>

#define MAXC 256
#define MAXN 64

static char be_path[108], px_path[108];
static unsigned delay_us;
static int nreq, spin;

/* The backend's own clocks, in memory shared with the proxy. */
struct be_clock {
	uint64_t serve_ns, cpu_ns, idle_ns, life_ns;
	unsigned done;		/* serving threads ended */
};
static struct be_clock *bec;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void add(uint64_t *to, uint64_t ns)
{
	__atomic_add_fetch(to, ns, __ATOMIC_RELAXED);
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

/* Wait in poll() for fd to be readable, timed as idle; 0 or -1. */
static int await(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint64_t t0 = now_ns();
	int rc = poll(&p, 1, -1);

	add(&bec->idle_ns, now_ns() - t0);
	return rc == 1 ? 0 : -1;
}

static void work(void)
{
	uint64_t until = cpu_ns() + delay_us * 1000ull;

	if (!spin) {
		usleep(delay_us);
		return;
	}
	while (cpu_ns() < until)
		;
}

/* A thread's end: its CPU time and its life into the shared clocks. */
static void thread_end(uint64_t born)
{
	add(&bec->cpu_ns, cpu_ns());
	add(&bec->life_ns, now_ns() - born);
}

static void *serve(void *arg)
{
	int c = (int)(intptr_t)arg;
	uint64_t born = now_ns(), t0;
	char buf[8];

	while (!await(c) && read(c, buf, sizeof(buf)) == (ssize_t)sizeof(buf)) {
		t0 = now_ns();
		work();
		add(&bec->serve_ns, now_ns() - t0);
		if (write(c, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			break;
	}
	close(c);
	thread_end(born);
	__atomic_add_fetch(&bec->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void on_term(int sig)
{
	(void)sig;	/* poll() returns EINTR: the accepting thread ends */
}

/* The accepting thread; the proxy's SIGTERM ends it (its serving
 * threads, which block the signal, have ended by then). */
static void backend(int l)
{
	struct sigaction sa = { .sa_handler = on_term };
	uint64_t born = now_ns();
	sigset_t term, was;
	pthread_t th;
	int c;

	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigaction(SIGTERM, &sa, NULL);
	while (!await(l) && (c = accept(l, NULL, NULL)) >= 0) {
		pthread_sigmask(SIG_BLOCK, &term, &was);
		if (pthread_create(&th, NULL, serve, (void *)(intptr_t)c) == 0)
			pthread_detach(th);
		pthread_sigmask(SIG_SETMASK, &was, NULL);
	}
	thread_end(born);
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
	uint64_t sent_at[MAXN], exchange_ns;	/* each exchange upstream, write to read */
	uint64_t first_ns, last_ns;	/* the first request's read, the last reply's write */
};

static void forward(struct proxy *p, int u, int cfd)
{
	p->queue_ns += now_ns() - p->read_at[cfd];
	p->up_for[u] = cfd;
	p->sent_at[u] = now_ns();
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
	if (!p->first_ns)
		p->first_ns = p->read_at[cfd];
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

	if (read(p->up[u], buf, sizeof(buf)) != (ssize_t)sizeof(buf))
		die("reply");
	p->exchange_ns += now_ns() - p->sent_at[u];
	if (write(cfd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
		die("reply");
	p->last_ns = now_ns();
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

/* The pool's connections closed, their threads' ends awaited (10 s at
 * most), then the accepting thread's. */
static void end_backend(struct proxy *p, pid_t be)
{
	for (int u = 0; u < p->n; u++)
		close(p->up[u]);
	for (int i = 0; i < 10000 && __atomic_load_n(&bec->done, __ATOMIC_ACQUIRE) <
	     (unsigned)p->n; i++)
		usleep(1000);
	kill(be, SIGTERM);
	waitpid(be, NULL, 0);
}

int main(int argc, char **argv)
{
	static struct proxy p;
	int n, m, lb, lp;
	pid_t be, cl;

	if (argc < 6 || argc > 7 || (n = atoi(argv[2])) <= 0 || n > MAXN || (m = atoi(argv[3])) <= 0 ||
	    m > MAXC - 16 || (nreq = atoi(argv[4])) <= 0) {
		fprintf(stderr, "usage: proxy_prog DIR N M REQUESTS DELAY_US [cpu] (N <= %d, M <= %d)\n",
			MAXN, MAXC - 16);
		return 2;
	}
	delay_us = (unsigned)atoi(argv[5]);
	spin = argc == 7 && !strcmp(argv[6], "cpu");
	bec = mmap(NULL, sizeof(*bec), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (bec == MAP_FAILED)
		die("mmap");
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
	end_backend(&p, be);
	unlink(be_path);
	unlink(px_path);
	printf("%lu %lu %llu %d %d %llu %llu %llu %llu %llu %llu\n", p.requests, p.forwarded,
	       (unsigned long long)p.queue_ns, n, m, (unsigned long long)p.exchange_ns,
	       (unsigned long long)bec->serve_ns, (unsigned long long)bec->cpu_ns,
	       (unsigned long long)bec->idle_ns, (unsigned long long)bec->life_ns,
	       (unsigned long long)(p.last_ns - p.first_ns));
	return 0;
}
