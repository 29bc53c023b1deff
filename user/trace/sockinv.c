/*
 * sockinv.c - proxies and their pools of connections, from their sockets
 * (sockinv.h).
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <sys/socket.h>
#include <bpf/bpf.h>
#include "base/proccomm.h"
#include "trace/sockinv.h"

#define ST_ESTABLISHED	1	/* the kernel's TCP states, which unix sockets share */
#define ST_LISTEN	10
#define FDS_MAX		65536	/* a process's sockets looked at, at most */

/* One socket of the machine's tables. */
struct sock_ent {
	uint64_t ino;
	int state;		/* ST_* or other */
	char name[SOCKINV_NAME];	/* unix: "unix:PATH"; tcp: local "ip:port" */
	char peer[SOCKINV_NAME];	/* tcp: remote "ip:port" */
	uint64_t peer_ino;	/* unix: the other end */
	unsigned port;		/* tcp: the local port */
};

struct sock_table {
	struct sock_ent *e;
	size_t n, cap;
};

struct proxy {
	pid_t tgid;
	char comm[FCT_COMM_LEN];
	char peer[SOCKINV_NAME], listen[SOCKINV_NAME];
	unsigned conns, clients;
	unsigned first_clients;	/* its clients at the scan that found it */
	/* its pool's connections joined to the traced process at their
	 * other end (a connection closed stays: its peer served it) */
	struct { uint64_t ino; pid_t tgid; } joined[SOCKINV_PEERS];
	unsigned njoined;
	unsigned conns_now, joined_now;	/* at the last scan that saw one */
	/* its connections not joined at the last scan, as one number, and
	 * the set every traced process's sockets were last read for */
	uint64_t unjoined, tried;
};

/* A socket of a traced process read at this scan: whose it is. */
struct owner {
	uint64_t ino;
	pid_t tgid;
};

/* A process no scan found a proxy is scanned again after 1, 2, 4, then
 * every RESCAN_OTHERS scans: a young one may listen or connect soon, an
 * old one seldom starts. Each scan that reads the machine's TCP tables
 * walks every bucket of the kernel's connection hash (/proc/net/tcp:
 * 40 % of fctrace's own CPU attached to PostgreSQL under pgbench when
 * its processes were scanned each second, perf); its sockets are read a
 * readlink a descriptor. A proxy is found within RESCAN_OTHERS seconds
 * of its first connection to its server, within 1 s when young. */
#define RESCAN_OTHERS	8
#define SEEN_MAX	256

struct sockinv {
	int socks_fd, groups_fd;
	volatile uint32_t *flow_on;
	struct proxy proxies[FCT_FLOW_GROUPS];
	int nproxies;
	uint32_t inserted;
	unsigned scans;
	/* no proxy at the last look: scanned again at scan `next`, `gap`
	 * after it */
	struct { pid_t tgid; unsigned next, gap; } seen[SEEN_MAX];
	int nseen;
};

struct sockinv *sockinv_new(int socks_fd, int groups_fd, volatile uint32_t *flow_on)
{
	struct sockinv *s = calloc(1, sizeof(*s));

	if (s) {
		s->socks_fd = socks_fd;
		s->groups_fd = groups_fd;
		s->flow_on = flow_on;
	}
	return s;
}

void sockinv_free(struct sockinv *s)
{
	free(s);
}

/* ---- the machine's socket tables ---------------------------------------- */

static struct sock_ent *table_add(struct sock_table *t)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 256;
		struct sock_ent *e = realloc(t->e, cap * sizeof(*e));

		if (!e)
			return NULL;
		t->e = e, t->cap = cap;
	}
	memset(&t->e[t->n], 0, sizeof(t->e[0]));
	return &t->e[t->n++];
}

/* One unix socket's message of the dump into t. */
static int unix_entry(struct sock_table *t, const struct nlmsghdr *h)
{
	const struct unix_diag_msg *m = NLMSG_DATA(h);
	int len = (int)(h->nlmsg_len - NLMSG_LENGTH(sizeof(*m)));
	const struct rtattr *a = (const struct rtattr *)(m + 1);
	struct sock_ent *e;

	if (m->udiag_type != SOCK_STREAM)
		return 0;
	if (!(e = table_add(t)))
		return -ENOMEM;
	e->ino = m->udiag_ino;
	e->state = m->udiag_state;
	for (; RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		const char *p = RTA_DATA(a);
		size_t n = RTA_PAYLOAD(a);

		if (a->rta_type == UNIX_DIAG_NAME && n > 0)
			snprintf(e->name, sizeof(e->name), "unix:%s%.*s", p[0] ? "" : "@",
				 (int)(p[0] ? strnlen(p, n) : strnlen(p + 1, n - 1)), p[0] ? p : p + 1);
		else if (a->rta_type == UNIX_DIAG_PEER && n >= 4)
			e->peer_ino = *(const uint32_t *)p;
	}
	return 0;
}

/* The stream unix sockets, their names and peers, by sock_diag. */
static int read_unix(struct sock_table *t)
{
	struct {
		struct nlmsghdr h;
		struct unix_diag_req r;
	} q = {
		.h = { .nlmsg_len = sizeof(q), .nlmsg_type = SOCK_DIAG_BY_FAMILY,
		       .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP },
		.r = { .sdiag_family = AF_UNIX, .udiag_states = ~0u,
		       .udiag_show = UDIAG_SHOW_NAME | UDIAG_SHOW_PEER },
	};
	static char buf[32768] __attribute__((aligned(8)));
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG), rc = 0;
	ssize_t len;

	if (fd < 0)
		return -errno;
	if (send(fd, &q, sizeof(q), 0) < 0)
		rc = -errno;
	while (!rc && (len = recv(fd, buf, sizeof(buf), 0)) > 0) {
		for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, len);
		     h = NLMSG_NEXT(h, len)) {
			if (h->nlmsg_type == NLMSG_DONE)
				goto done;
			if (h->nlmsg_type == NLMSG_ERROR) {
				rc = -EIO;
				break;
			}
			if ((rc = unix_entry(t, h)))
				break;
		}
	}
	if (!rc && len < 0)
		rc = -errno;
done:
	close(fd);
	return rc;
}

/* "0100007F:1920" (the kernel's words, little-endian) into "127.0.0.1:6432" */
static void tcp_addr(const char *hex, unsigned port, char *out, size_t n, unsigned *portp)
{
	uint32_t w[4] = { 0 };
	char a[INET6_ADDRSTRLEN] = "?";

	if (strlen(hex) == 8 && sscanf(hex, "%8x", &w[0]) == 1) {
		inet_ntop(AF_INET, w, a, sizeof(a));
		snprintf(out, n, "%s:%u", a, port);
	} else if (strlen(hex) == 32 &&
		   sscanf(hex, "%8x%8x%8x%8x", &w[0], &w[1], &w[2], &w[3]) == 4) {
		inet_ntop(AF_INET6, w, a, sizeof(a));
		snprintf(out, n, "[%s]:%u", a, port);
	}
	if (portp)
		*portp = port;
}

static int read_tcp(struct sock_table *t, const char *path)
{
	char line[512], l[40], r[40];
	unsigned lp, rp, st;
	unsigned long ino;
	FILE *f = fopen(path, "re");
	struct sock_ent *e;

	if (!f)
		return 0;	/* no IPv6, say */
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, " %*d: %39[0-9A-Fa-f]:%x %39[0-9A-Fa-f]:%x %x %*s %*s %*s %*s %*s "
			   "%lu", l, &lp, r, &rp, &st, &ino) != 6 || !ino)
			continue;
		if (!(e = table_add(t))) {
			fclose(f);
			return -ENOMEM;
		}
		e->ino = ino;
		e->state = (int)st;
		tcp_addr(l, lp, e->name, sizeof(e->name), &e->port);
		tcp_addr(r, rp, e->peer, sizeof(e->peer), NULL);
	}
	fclose(f);
	return 0;
}

static int by_ino(const void *a, const void *b)
{
	const struct sock_ent *x = a, *y = b;

	return (x->ino > y->ino) - (x->ino < y->ino);
}

static const struct sock_ent *find(const struct sock_table *t, uint64_t ino)
{
	struct sock_ent k = { .ino = ino };

	return ino ? bsearch(&k, t->e, t->n, sizeof(k), by_ino) : NULL;
}

static int read_tables(struct sock_table *t)
{
	int rc = read_unix(t);

	if (!rc)
		rc = read_tcp(t, "/proc/net/tcp");
	if (!rc)
		rc = read_tcp(t, "/proc/net/tcp6");
	if (!rc)
		qsort(t->e, t->n, sizeof(t->e[0]), by_ino);
	return rc;
}

/* ---- a process's sockets ------------------------------------------------- */

/* The inodes of the sockets process tgid has open, at most max. */
static int proc_sockets(pid_t tgid, uint64_t *inos, int max)
{
	char dir[64], path[320], link[64];
	struct dirent *de;
	unsigned long ino;
	ssize_t len;
	int n = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)tgid);
	if (!(d = opendir(dir)))
		return 0;
	while ((de = readdir(d)) && n < max) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		len = readlink(path, link, sizeof(link) - 1);
		if (len <= 0)
			continue;
		link[len] = '\0';
		if (sscanf(link, "socket:[%lu]", &ino) == 1)
			inos[n++] = ino;
	}
	closedir(d);
	return n;
}

#define LISTEN_MAX	8

/* A process's sockets by role: listening, its clients' (accepted: a unix
 * socket named as one it listens on, a TCP one on a port it listens on),
 * and the connections it made, each with its peer's name. */
struct roles {
	uint64_t ino[FDS_MAX / 16];
	int role[FDS_MAX / 16];
	const char *peer[FDS_MAX / 16];
	int n, nlisten, nin, nout;
	const char *listen[LISTEN_MAX];
	unsigned port[LISTEN_MAX];
};

static bool is_listened(const struct roles *r, const struct sock_ent *e)
{
	for (int i = 0; i < r->nlisten; i++)
		if (e->port ? e->port == r->port[i] : !strcmp(e->name, r->listen[i]))
			return true;
	return false;
}

static void add_role(struct roles *r, uint64_t ino, int role, const char *peer)
{
	if (r->n >= (int)(sizeof(r->ino) / sizeof(r->ino[0])))
		return;
	r->ino[r->n] = ino;
	r->role[r->n] = role;
	r->peer[r->n++] = peer;
	r->nin += role == FCT_FLOW_IN;
	r->nout += role == FCT_FLOW_OUT;
}

static void classify(const struct sock_table *t, const uint64_t *inos, int n, struct roles *r)
{
	memset(r, 0, sizeof(*r));
	for (int i = 0; i < n; i++) {
		const struct sock_ent *e = find(t, inos[i]);

		if (!e || e->state != ST_LISTEN || r->nlisten == LISTEN_MAX)
			continue;
		r->listen[r->nlisten] = e->name;
		r->port[r->nlisten++] = e->port;
		add_role(r, e->ino, FCT_FLOW_LISTEN, NULL);
	}
	for (int i = 0; i < n; i++) {
		const struct sock_ent *e = find(t, inos[i]), *p;

		if (!e || e->state != ST_ESTABLISHED)
			continue;
		if ((e->port || e->name[0]) && is_listened(r, e))
			add_role(r, e->ino, FCT_FLOW_IN, NULL);
		else if (e->port)
			add_role(r, e->ino, FCT_FLOW_OUT, e->peer);
		else if ((p = find(t, e->peer_ino)) && p->name[0])
			add_role(r, e->ino, FCT_FLOW_OUT, p->name);
	}
}

/* The peer most of the pool's connections go to. */
static const char *main_peer(const struct roles *r)
{
	const char *best = NULL;
	int most = 0;

	for (int i = 0; i < r->n; i++) {
		int k = 0;

		if (r->role[i] != FCT_FLOW_OUT)
			continue;
		for (int j = 0; j < r->n; j++)
			k += r->role[j] == FCT_FLOW_OUT && !strcmp(r->peer[j], r->peer[i]);
		if (k > most)
			most = k, best = r->peer[i];
	}
	return best;
}

/* ---- the peers at the other end ----------------------------------------- */

static int by_owner_ino(const void *a, const void *b)
{
	const struct owner *x = a, *y = b;

	return (x->ino > y->ino) - (x->ino < y->ino);
}

/* The traced process at the other end of connection e among the
 * sockets read at this scan (o[0..no), sorted), or 0: a unix socket's
 * peer by its inode; a TCP socket's, the one whose addresses are e's
 * reversed (the traced processes' sockets are looked at, not the
 * machine's: fewer). */
static pid_t other_end(const struct sock_table *t, const struct sock_ent *e,
		       const struct owner *o, size_t no)
{
	const struct sock_ent *x;
	struct owner k = { .ino = e->peer_ino }, *w;

	if (!e->port) {
		w = k.ino ? bsearch(&k, o, no, sizeof(k), by_owner_ino) : NULL;
		return w ? w->tgid : 0;
	}
	for (size_t i = 0; i < no; i++)
		if ((x = find(t, o[i].ino)) && x->port && x->state == ST_ESTABLISHED &&
		    !strcmp(x->name, e->peer) && !strcmp(x->peer, e->name))
			return o[i].tgid;
	return 0;
}

static bool was_joined(const struct proxy *p, uint64_t ino)
{
	for (unsigned i = 0; i < p->njoined; i++)
		if (p->joined[i].ino == ino)
			return true;
	return false;
}

/* The pool's connections not joined yet, each to the traced process
 * that holds its other end among those read at this scan: a process not
 * due at this scan is joined at a later one. And how many of them are
 * joined now. */
static void join_peers(struct proxy *p, const struct sock_table *t, const struct owner *o,
		       size_t no, const struct roles *r, const char *peer)
{
	unsigned now = 0, joined = 0;

	p->unjoined = 0;
	for (int i = 0; i < r->n; i++) {
		const struct sock_ent *e;
		pid_t tgid;

		if (r->role[i] != FCT_FLOW_OUT || strcmp(r->peer[i], peer))
			continue;
		now++;
		if (was_joined(p, r->ino[i])) {
			joined++;
			continue;
		}
		if (p->njoined == SOCKINV_PEERS || !(e = find(t, r->ino[i])) ||
		    !(tgid = other_end(t, e, o, no)) || tgid == p->tgid) {
			/* not traced, not read at this scan, or the proxy's own */
			p->unjoined += r->ino[i] * 0x9e3779b97f4a7c15ull + 1;
			continue;
		}
		p->joined[p->njoined].ino = r->ino[i];
		p->joined[p->njoined++].tgid = tgid;
		joined++;
	}
	if (now)
		p->conns_now = now, p->joined_now = joined;
}

/* ---- the proxies --------------------------------------------------------- */

static bool is_proxy(const struct sockinv *s, pid_t tgid)
{
	for (int i = 0; i < s->nproxies; i++)
		if (s->proxies[i].tgid == tgid)
			return true;
	return false;
}

static struct proxy *proxy_of(struct sockinv *s, pid_t tgid, bool make)
{
	for (int i = 0; i < s->nproxies; i++)
		if (s->proxies[i].tgid == tgid)
			return &s->proxies[i];
	if (!make || s->nproxies == FCT_FLOW_GROUPS)
		return NULL;
	memset(&s->proxies[s->nproxies], 0, sizeof(s->proxies[0]));
	s->proxies[s->nproxies].tgid = tgid;
	return &s->proxies[s->nproxies++];
}

/* A process that listens and has connections of its own to a peer: a
 * proxy if it forwards its clients' requests on them (pools_proxy.c
 * asks). Its sockets into the table (those there already keep their open
 * exchange); the clients it accepts later the probes add. */
static void scan_one(struct sockinv *s, const struct sock_table *t, pid_t tgid,
		     const uint64_t *inos, int ninos, struct roles *r, const struct owner *o,
		     size_t no)
{
	struct proxy *p;
	const char *peer;
	uint32_t group;

	classify(t, inos, ninos, r);
	if (!r->nlisten || !r->nout || !(peer = main_peer(r)) ||
	    !(p = proxy_of(s, tgid, true)))
		return;
	group = (uint32_t)(p - s->proxies);
	if (!p->comm[0]) {
		proc_comm(tgid, p->comm, sizeof(p->comm));
		p->first_clients = (unsigned)r->nin;
	}
	snprintf(p->peer, sizeof(p->peer), "%s", peer);
	snprintf(p->listen, sizeof(p->listen), "%s", r->listen[0]);
	if ((unsigned)r->nout > p->conns)
		p->conns = (unsigned)r->nout;
	if ((unsigned)r->nin > p->clients)
		p->clients = (unsigned)r->nin;
	for (int i = 0; i < r->n; i++) {
		struct fct_flow_sock v = { .group = group, .role = (uint32_t)r->role[i] };

		if (r->role[i] == FCT_FLOW_OUT && strcmp(r->peer[i], peer))
			continue;	/* another peer's: not this pool */
		if (!bpf_map_update_elem(s->socks_fd, &r->ino[i], &v, BPF_NOEXIST))
			s->inserted++;
	}
	join_peers(p, t, o, no, r, peer);
}

/* Whether tgid is due a scan: a proxy each time, another process as
 * not_proxy last set it (see RESCAN_OTHERS). */
static bool due(const struct sockinv *s, pid_t tgid)
{
	if (is_proxy(s, tgid))
		return true;
	for (int i = 0; i < s->nseen; i++)
		if (s->seen[i].tgid == tgid)
			return s->scans >= s->seen[i].next;
	return true;
}

static void not_proxy(struct sockinv *s, pid_t tgid)
{
	int i;

	if (is_proxy(s, tgid))
		return;
	for (i = 0; i < s->nseen && s->seen[i].tgid != tgid; i++)
		;
	if (i == SEEN_MAX) {
		i = (int)(s->scans % SEEN_MAX);		/* full: forget one */
		s->seen[i].gap = 0;
	} else if (i == s->nseen) {
		s->nseen++;
		s->seen[i].gap = 0;
	}
	s->seen[i].tgid = tgid;
	s->seen[i].gap = !s->seen[i].gap ? 1 : s->seen[i].gap * 2 > RESCAN_OTHERS ?
			 RESCAN_OTHERS : s->seen[i].gap * 2;
	s->seen[i].next = s->scans + s->seen[i].gap;
}

/* Each socket read at this scan with its process, sorted by inode;
 * NULL out of memory. */
static struct owner *owners(const pid_t *tgids, int n, const uint64_t *inos, const int *first)
{
	struct owner *o = malloc(((size_t)first[n] + 1) * sizeof(*o));

	if (!o)
		return NULL;
	for (int i = 0; i < n; i++)
		for (int j = first[i]; j < first[i + 1]; j++)
			o[j] = (struct owner){ inos[j], tgids[i] };
	qsort(o, (size_t)first[n], sizeof(*o), by_owner_ino);
	return o;
}

/* o[0..no) and the sockets of the processes of tgids[0..n) that had none
 * read at this scan (first: as sockinv_scan has it), sorted; NULL out of
 * memory. *nall: how many. */
static struct owner *owners_all(const struct owner *o, size_t no, const pid_t *tgids, int n,
				const int *first, size_t *nall)
{
	uint64_t *inos = malloc(FDS_MAX * sizeof(*inos));
	struct owner *all = malloc((no + FDS_MAX) * sizeof(*all));
	size_t m = no;

	if (!inos || !all) {
		free(inos);
		free(all);
		return NULL;
	}
	memcpy(all, o, no * sizeof(*o));
	for (int i = 0; i < n && m < no + FDS_MAX; i++) {
		int k = first[i + 1] > first[i] ? 0 :
			proc_sockets(tgids[i], inos, (int)(no + FDS_MAX - m));

		for (int j = 0; j < k; j++)
			all[m++] = (struct owner){ inos[j], tgids[i] };
	}
	qsort(all, m, sizeof(*all), by_owner_ino);
	free(inos);
	*nall = m;
	return all;
}

/* A proxy whose connections' other ends none of the sockets read at this
 * scan held (a peer not due: an old process is read only every
 * RESCAN_OTHERS scans): once for each new set of them, every traced
 * process's sockets are read and the join tried again. An untraced peer
 * costs one such read a new connection, not one a scan. */
static int join_rest(struct sockinv *s, const struct sock_table *t, const pid_t *tgids, int n,
		     const uint64_t *inos, const int *first, const struct owner *o, struct roles *r)
{
	struct owner *all = NULL;
	size_t nall = 0;

	for (int i = 0; i < n; i++) {
		struct proxy *p = proxy_of(s, tgids[i], false);
		int k = first[i + 1] - first[i];

		if (!p || !k || !p->unjoined || p->unjoined == p->tried)
			continue;
		if (!all && !(all = owners_all(o, (size_t)first[n], tgids, n, first, &nall)))
			return -ENOMEM;
		classify(t, inos + first[i], k, r);
		join_peers(p, t, all, nall, r, p->peer);
		p->tried = p->unjoined;
	}
	free(all);
	return 0;
}

int sockinv_scan(struct sockinv *s, const pid_t *tgids, int n)
{
	struct sock_table t = { 0 };
	struct owner *o = NULL;
	uint64_t *inos = malloc(FDS_MAX * sizeof(*inos));
	int *first = malloc(((size_t)n + 1) * sizeof(*first));
	struct roles *r = malloc(sizeof(*r));
	int rc = inos && first && r ? 0 : -ENOMEM, total = 0;

	s->scans++;
	/* each due process's sockets, one after the other in inos */
	for (int i = 0; !rc && i < n; i++) {
		first[i] = total;
		if (due(s, tgids[i]))
			total += proc_sockets(tgids[i], inos + total, FDS_MAX - total);
	}
	if (!rc)
		first[n] = total;
	/* the machine's tables only when some process has a socket */
	if (!rc && total)
		rc = read_tables(&t);
	if (!rc && total && !(o = owners(tgids, n, inos, first)))
		rc = -ENOMEM;
	for (int i = 0; !rc && total && i < n; i++) {
		int k = first[i + 1] - first[i];

		if (!k)
			continue;
		scan_one(s, &t, tgids[i], inos + first[i], k, r, o, (size_t)total);
		not_proxy(s, tgids[i]);		/* unless it is one now */
	}
	if (!rc && total)
		rc = join_rest(s, &t, tgids, n, inos, first, o, r);
	if (s->inserted)
		*s->flow_on = s->inserted;
	free(o);
	free(t.e);
	free(inos);
	free(first);
	free(r);
	return rc;
}

/* The distinct processes p's connections were joined to. */
static void peers_of(const struct proxy *p, struct kv_flow *f)
{
	f->joined = p->njoined;
	f->conns_now = p->conns_now;
	f->joined_now = p->joined_now;
	for (unsigned i = 0; i < p->njoined; i++) {
		unsigned j = 0;

		while (j < f->npeers && f->peers[j] != p->joined[i].tgid)
			j++;
		if (j == f->npeers && f->npeers < SOCKINV_PEERS)
			f->peers[f->npeers++] = p->joined[i].tgid;
	}
}

int sockinv_read(struct sockinv *s, struct kv_flow **out, int *n)
{
	*out = NULL;
	*n = 0;
	if (!s || !s->nproxies)
		return 0;
	if (!(*out = calloc((size_t)s->nproxies, sizeof(**out))))
		return -ENOMEM;
	for (int i = 0; i < s->nproxies; i++) {
		struct kv_flow *f = &(*out)[i];
		uint32_t k = (uint32_t)i;

		f->tgid = s->proxies[i].tgid;
		memcpy(f->comm, s->proxies[i].comm, sizeof(f->comm));
		memcpy(f->peer, s->proxies[i].peer, sizeof(f->peer));
		memcpy(f->listen, s->proxies[i].listen, sizeof(f->listen));
		f->conns = s->proxies[i].conns;
		bpf_map_lookup_elem(s->groups_fd, &k, &f->g);
		peers_of(&s->proxies[i], f);
		/* the most seen at a scan, or those there at the first and
		 * every one accepted since */
		f->clients = s->proxies[i].clients;
		if (s->proxies[i].first_clients + f->g.accepted > f->clients)
			f->clients = s->proxies[i].first_clients + (unsigned)f->g.accepted;
	}
	*n = s->nproxies;
	return 0;
}
