/*
 * connuse.c - a process's new connections, per peer (connuse.h).
 */
#include <arpa/inet.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include "base/reuse.h"
#include "trace/connuse.h"

#define SOCKS_MIN	64
#define SOCKS_MAX	(1u << 16)	/* open connections a process's table keeps */

/* An open connection: its socket, its peer, when it was made. */
struct cu_sock {
	uint64_t key;		/* fct_fileuse_key of the socket; 0: empty */
	uint64_t since;
	int peer;
};

struct cu_peer {
	uint8_t addr[FCT_FU_PEER_LEN];	/* the sockaddr, the part that names it */
	uint64_t open_now;
	struct kv_conn c;
};

struct cu_proc {
	struct cu_peer peers[CU_PEERS_MAX];
	int npeers;
	struct cu_sock *socks;	/* open addressing, linear probes */
	uint32_t cap, nsocks;
	uint64_t lost;
};

struct cu_proc *cu_proc_new(void)
{
	return calloc(1, sizeof(struct cu_proc));
}

void cu_proc_free(struct cu_proc *p)
{
	if (!p)
		return;
	free(p->socks);
	free(p);
}

/* ---- the peers ----------------------------------------------------------- */

/* The bytes of a sockaddr that name its peer: the family and port and
 * address (not sin_zero, not a v6 flow label), or the unix path. */
static void peer_key(const uint8_t *sa, uint8_t *key)
{
	sa_family_t fam;

	memset(key, 0, FCT_FU_PEER_LEN);
	memcpy(&fam, sa, sizeof(fam));
	if (fam == AF_INET)
		memcpy(key, sa, 8);			/* family, port, address */
	else if (fam == AF_INET6) {
		memcpy(key, sa, 4);			/* family, port */
		memcpy(key + 8, sa + 8, 16);		/* address */
	} else
		memcpy(key, sa, FCT_FU_PEER_LEN);
}

void cu_peer_name(const uint8_t *sa, size_t len, char *out, size_t n)
{
	char a[INET6_ADDRSTRLEN];
	sa_family_t fam = 0;
	uint16_t port;

	if (len >= sizeof(fam))
		memcpy(&fam, sa, sizeof(fam));
	if (fam == AF_INET && len >= 8) {
		memcpy(&port, sa + 2, 2);
		inet_ntop(AF_INET, sa + 4, a, sizeof(a));
		snprintf(out, n, "%s:%u", a, ntohs(port));
	} else if (fam == AF_INET6 && len >= 24) {
		memcpy(&port, sa + 2, 2);
		inet_ntop(AF_INET6, sa + 8, a, sizeof(a));
		snprintf(out, n, "[%s]:%u", a, ntohs(port));
	} else if (fam == AF_UNIX && len > 2) {
		size_t k = strnlen((const char *)sa + 3, len - 3);

		if (sa[2])
			snprintf(out, n, "unix:%.*s", (int)strnlen((const char *)sa + 2, len - 2),
				 (const char *)sa + 2);
		else
			snprintf(out, n, "unix:@%.*s", (int)k, (const char *)sa + 3);
	} else {
		snprintf(out, n, "address family %u", (unsigned)fam);
	}
}

/* The peer's index, made on its first connect; -1 past CU_PEERS_MAX. */
static int peer_of(struct cu_proc *p, const uint8_t *sa)
{
	uint8_t key[FCT_FU_PEER_LEN];

	peer_key(sa, key);
	for (int i = 0; i < p->npeers; i++)
		if (!memcmp(p->peers[i].addr, key, sizeof(key)))
			return i;
	if (p->npeers == CU_PEERS_MAX)
		return -1;
	memcpy(p->peers[p->npeers].addr, key, sizeof(key));
	cu_peer_name(sa, FCT_FU_PEER_LEN, p->peers[p->npeers].c.peer,
		     sizeof(p->peers[p->npeers].c.peer));
	return p->npeers++;
}

/* ---- the open connections ------------------------------------------------ */

static uint32_t sock_slot(const struct cu_sock *t, uint32_t cap, uint64_t key)
{
	uint32_t i = reuse_hash(key) & (cap - 1);

	while (t[i].key && t[i].key != key)
		i = (i + 1) & (cap - 1);
	return i;
}

static bool grow(struct cu_proc *p)
{
	uint32_t cap = p->cap ? 2 * p->cap : SOCKS_MIN;
	struct cu_sock *t = calloc(cap, sizeof(*t));

	if (!t)
		return false;
	for (uint32_t i = 0; i < p->cap; i++)
		if (p->socks[i].key)
			t[sock_slot(t, cap, p->socks[i].key)] = p->socks[i];
	free(p->socks);
	p->socks = t, p->cap = cap;
	return true;
}

static bool sock_add(struct cu_proc *p, uint64_t key, int peer, uint64_t since)
{
	uint32_t i;

	if (p->nsocks >= SOCKS_MAX || ((p->nsocks + 1) * 4 > p->cap * 3 && !grow(p)))
		return false;
	i = sock_slot(p->socks, p->cap, key);
	if (!p->socks[i].key)
		p->nsocks++;
	p->socks[i] = (struct cu_sock){ key, since, peer };
	return true;
}

/* Takes key's entry out (the probes after it moved back: no tombstones);
 * false when it is not there. */
static bool sock_take(struct cu_proc *p, uint64_t key, struct cu_sock *out)
{
	uint32_t i, j, home;

	if (!p->cap || !p->socks[i = sock_slot(p->socks, p->cap, key)].key)
		return false;
	*out = p->socks[i];
	for (j = (i + 1) & (p->cap - 1); p->socks[j].key; j = (j + 1) & (p->cap - 1)) {
		home = reuse_hash(p->socks[j].key) & (p->cap - 1);
		/* j's entry may fill the hole at i unless its home lies in (i, j] */
		if (((j - home) & (p->cap - 1)) >= ((j - i) & (p->cap - 1))) {
			p->socks[i] = p->socks[j];
			i = j;
		}
	}
	p->socks[i].key = 0;
	p->nsocks--;
	return true;
}

/* ---- the events ---------------------------------------------------------- */

static void on_connect(struct cu_proc *p, const struct fct_fileuse *e, uint64_t key)
{
	struct cu_sock old;
	struct cu_peer *q;
	int i = peer_of(p, e->peer);

	if (i < 0) {
		p->lost++;
		return;
	}
	q = &p->peers[i];
	if (sock_take(p, key, &old) && p->peers[old.peer].open_now)
		p->peers[old.peer].open_now--;	/* its close was not seen */
	q->c.connects++;
	q->c.connect_ns += e->off;
	q->c.open_before[q->open_now < CU_SIZES ? q->open_now : CU_SIZES]++;
	q->open_now++;
	if (q->open_now > q->c.peak)
		q->c.peak = q->open_now;
	if (!sock_add(p, key, i, e->ts))
		p->lost++;
}

static void on_setup(struct cu_proc *p, uint64_t key, uint64_t ns)
{
	uint32_t i;

	if (!p->cap || !p->socks[i = sock_slot(p->socks, p->cap, key)].key)
		return;
	p->peers[p->socks[i].peer].c.setups++;
	p->peers[p->socks[i].peer].c.setup_ns += ns;
}

static void on_close(struct cu_proc *p, uint64_t key, uint64_t ts)
{
	struct cu_sock s;
	struct cu_peer *q;

	if (!sock_take(p, key, &s))
		return;		/* not a connection made in the window */
	q = &p->peers[s.peer];
	if (q->open_now)
		q->open_now--;
	q->c.closes++;
	q->c.life_ns += ts > s.since ? ts - s.since : 0;
}

void cu_event(struct cu_proc *p, const struct fct_fileuse *e)
{
	uint64_t key = fct_fileuse_key(e->dev, e->ino);

	if (!key)
		key = 1;	/* 0 marks an empty slot */
	if (e->op == FCT_FU_CONNECT)
		on_connect(p, e, key);
	else if (e->op == FCT_FU_SETUP)
		on_setup(p, key, e->off);
	else if (e->op == FCT_FU_CLOSE && (e->flags & FCT_FU_SOCKET))
		on_close(p, key, e->ts);
}

/* ---- the figures --------------------------------------------------------- */

uint64_t cu_hits_at(const struct kv_conn *c, uint64_t size)
{
	uint64_t found = 0, first = size < c->peak ? size : c->peak;

	for (uint64_t k = 0; k < size && k <= CU_SIZES; k++)
		found += c->open_before[k];
	return found > first ? found - first : 0;
}

double cu_hit_ratio_at(const struct kv_conn *c, uint64_t size)
{
	return c->connects ? (double)cu_hits_at(c, size) / (double)c->connects : 0;
}

void cu_figures(const struct cu_proc *p, struct kv_conns *out)
{
	memset(out, 0, sizeof(*out));
	if (!p)
		return;
	for (int i = 0; i < p->npeers; i++)
		out->peers[out->npeers++] = p->peers[i].c;
	out->lost = p->lost;
}
