/*
 * pools_proxy.c - a proxy's pool of connections as a pool of N
 * (pools.h): its clients' requests wait in it for one of the N
 * connections it keeps to its peer. From the probes' sums
 * (trace/sockinv.h): a client's request from its arrival to its reply
 * (in), the same request on a pool's connection (out). What the first
 * holds beyond the second, less the proxy's own time on CPU, is the wait
 * for a connection; the N are counted, not inferred. When the peer at
 * the other end of the connections is traced too, what it did while they
 * were busy is the holds' state (pools_peer.c).
 */
#include <stdio.h>
#include <string.h>
#include "join/join.h"
#include "join/pools.h"
#include "join/pools_peer.h"

#define PROXY_MIN_REQUESTS	20

/* The proxy's own threads' time on CPU: work, not a wait, in the time
 * its requests spent in it. */
static double proxy_cpu_ns(const struct joined_run *m, pid_t tgid)
{
	double ns = 0;

	for (unsigned i = 0; i < m->nrows; i++) {
		const struct thread_row *r = &m->rows[i];

		if (r->has_kernel && (pid_t)r->k.tgid == tgid)
			ns += (double)(r->acct_ns[ACCT_CPU_USER] + r->acct_ns[ACCT_CPU_SYS]);
	}
	return ns;
}

/* The most of the pool's connections seen busy at once, and the time
 * with all n of them busy. */
static unsigned busy_levels(const struct fct_flow_group *g, unsigned n, uint64_t *all_ns)
{
	unsigned top = 0;

	*all_ns = 0;
	for (unsigned k = 0; k < FCT_FLOW_LEVELS; k++) {
		if (!g->level_ns[k])
			continue;
		top = k;
		if (n && k >= n)
			*all_ns += g->level_ns[k];
	}
	return top;
}

/* A proxy forwards each request it gets on one of its connections: as
 * many exchanges on those as requests in, give or take a tenth (an
 * application server that makes queries of its own for some requests
 * and none for others is no proxy, and its time is not a queue's). */
static bool forwards(const struct fct_flow_group *g)
{
	double in = (double)g->in_n, out = (double)g->out_n;

	return in >= PROXY_MIN_REQUESTS && out >= 0.9 * in && out <= 1.1 * in;
}

/* The peer's side, when every connection of the pool (at the last scan
 * that saw one) was joined to a traced process: the exchanges' time is
 * then all theirs to account for. Else hold_state stays 0 (the peer is
 * not seen, or only part of it: peer_connections says how much, with
 * peer_processes 0). */
static void peer_row(struct pool_row *p, const struct joined_run *m, const struct kv_flow *f)
{
	struct peer_sums s;

	if (!f->npeers)
		return;
	if (f->joined_now < f->conns_now) {
		p->peer_connections = f->joined_now;
		return;
	}
	peer_sums_of(&s, m, f->peers, f->npeers);
	p->peer_processes = f->npeers;
	p->peer_connections = f->joined;
	pool_peer_hold(p, &s, (double)f->g.out_ns, f->g.out_n);
}

static void proxy_row(struct pool_row *p, const struct joined_run *m, const struct kv_flow *f)
{
	const struct fct_flow_group *g = &f->g;
	double queued = (double)g->in_ns - (double)g->out_ns - proxy_cpu_ns(m, f->tgid);

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s's connections to %s", f->comm, f->peer);
	snprintf(p->peer, sizeof(p->peer), "%s", f->peer);
	p->kind = LK_CONNECTIONS;
	p->tgid = (uint32_t)f->tgid;
	p->threads = f->clients;
	p->capacity = f->conns;
	p->capacity_est = p->capacity_low = f->conns;
	p->how = PC_COUNTED;
	p->releases = g->out_n;
	p->holds = g->out_n;
	p->hold_ns = g->out_n ? (double)g->out_ns / (double)g->out_n : 0;
	p->waits = g->in_n;
	p->wait_ns = queued > 0 ? (uint64_t)queued : 0;
	/* the span the pool was used in: a proxy idle before its clients
	 * came (or after they left) has no queue then */
	p->window_ns = g->last_ns > g->first_ns ? (double)(g->last_ns - g->first_ns) :
		       (double)m->wall_ns;
	p->holders_mean = p->window_ns > 0 ? (double)g->out_ns / p->window_ns : 0;
	p->waiters_mean = p->window_ns > 0 ? (double)p->wait_ns / p->window_ns : 0;
	p->max_holding = busy_levels(g, f->conns, &p->queued_ns);
	p->ncpus = m->ncpus;
	peer_row(p, m, f);
}

/*
 * What another number of connections would give: the proxy's clients as
 * the finite-source queue the other pools use (pools_model.c): t clients
 * each spend z outside the pool, then queue for one of n connections,
 * each held h a request; the machine's CPUs bound it at ncpus / cpu
 * requests a second, cpu the machine's busy CPU a request at the
 * measured rate (the peer's work, the proxy's and the clients' share
 * them: /proc/stat's busy share over the window, so the bound is the
 * measured rate over that share). While the clients
 * queue, every connection is held all the time (a pooler's transaction
 * mode keeps one between its client's statements), so h = n / x by
 * Little's law; else the exchanges' own time. The predicted wall is the
 * measured one times the model's rate now over its rate then: what the
 * model misses at the measured point cancels. A peer's own locks are not
 * in it (TPC-B's branch rows took a bigger pool's gain back).
 */
static void proxy_whatifs(struct pool_row *p, const struct kview *kv, const struct kv_flow *f)
{
	static const unsigned times[] = { 2, 4, 8 };
	double x = p->window_ns > 0 ? (double)f->g.in_n / p->window_ns : 0;
	double n = p->capacity, t = f->clients, h, z, cpu = 0, now;

	if (x <= 0 || !p->capacity || !f->clients)
		return;
	h = p->waiters_mean >= 0.5 ? n / x : p->hold_ns;
	z = t / x - h - (double)p->wait_ns / (double)f->g.in_n;
	if (z < 0)
		z = 0;
	/* the CPUs' busy share over the window, as CPU a request at the
	 * measured rate: the cap is then x / busy share, never under x */
	if (kv->cpu.valid && kv->cpu.busy_ns && p->ncpus)
		cpu = (double)p->ncpus * (double)kv->cpu.busy_ns /
		      (double)(kv->cpu.busy_ns + kv->cpu.idle_ns) / x;
	now = pool_rate(n, t, h, z, cpu, p->ncpus);
	for (size_t i = 0; now > 0 && i < sizeof(times) / sizeof(*times); i++) {
		unsigned c = p->capacity * times[i];
		double then = pool_rate(c, t, h, z, cpu, p->ncpus);

		if (c > 2 * f->clients)
			break;
		if (then > 0)
			p->whatif[p->nwhatif++] = (struct pool_whatif){ c, p->threads,
									 p->window_ns * now / then };
	}
}

int pools_add_proxies(struct joined_run *m, const struct kview *kv)
{
	struct pool_row row;

	for (int i = 0; kv && i < kv->nflows; i++) {
		if (!forwards(&kv->flows[i].g) || !kv->flows[i].conns)
			continue;
		proxy_row(&row, m, &kv->flows[i]);
		proxy_whatifs(&row, kv, &kv->flows[i]);
		if (pools_append(m, &row))
			return -1;
	}
	pools_rank(m);
	return 0;
}
