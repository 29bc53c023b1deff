/*
 * rules_proxy.c - a proxy's pool of connections too small for its
 * clients (join/pools.h, kind connections, from pools_proxy.c): how many
 * clients wait in it for one of its N connections to the peer and how
 * long, how busy the N were, and the setting that sizes it. The share is
 * of its clients' time (they need not be traced): the requests' wait in
 * the proxy over the clients' time in the window. When the peer was
 * traced too, what it did while a connection was busy (pools_peer.h);
 * when not, a line says so and no figure of it is made.
 */
#include <stdio.h>
#include <string.h>
#include "explain/knobs.h"
#include "explain/rules_int.h"
#include "explain/words.h"

/* The proxy's pool whose clients waited longest. */
static const struct pool_row *top_proxy(const struct joined_run *m)
{
	const struct pool_row *best = NULL;

	for (int i = 0; i < m->npools; i++)
		if (m->pools[i].kind == LK_CONNECTIONS && m->pools[i].waits &&
		    (!best || m->pools[i].wait_ns > best->wait_ns))
			best = &m->pools[i];
	return best;
}

/* The proxy's name, from its main thread's account, else any of its
 * threads' ("the proxy" when none is there). */
static void proxy_comm(const struct joined_run *m, uint32_t tgid, char *comm, size_t n)
{
	snprintf(comm, n, "the proxy");
	for (unsigned i = 0; i < m->nrows; i++) {
		const struct thread_row *r = &m->rows[i];

		if (!r->has_kernel || r->k.tgid != tgid || !r->k.comm[0])
			continue;
		snprintf(comm, n, "%s", r->k.comm);
		if ((uint32_t)r->tid == tgid)
			return;
	}
}

/* Of the clients' time in the window, the share spent waiting in it. */
static double clients_share(const struct pool_row *p)
{
	double ns = (double)p->threads * p->window_ns;

	return ns > 0 && (double)p->wait_ns < ns ? (double)p->wait_ns / ns : ns > 0 ? 1 : 0;
}

static void ev_requests(struct diag_cause *c, const struct pool_row *p, const char *comm)
{
	double each = (double)p->wait_ns / (double)p->waits;

	cause_fig(c, "pid", p->tgid);
	cause_fig(c, "requests", (double)p->waits);
	cause_fig(c, "window_ns", p->window_ns);
	cause_fig(c, "held_ns", p->hold_ns);
	cause_fig(c, "wait_each_ns", each);
	evidence_add(c, "%s (pid %u) kept %u connections to the peer for %u clients (counted from "
		     "its sockets): %s requests came in over %s; each spent %s on one of the %u "
		     "connections (the peer's time and the way there), and %s waiting in %s for "
		     "one (its time there less %s's own on CPU), %.1f clients at once on average.",
		     comm, p->tgid, p->capacity, p->threads, fig_cnt((double)p->waits),
		     fig_ns(p->window_ns), fig_ns(p->hold_ns), p->capacity, fig_ns(each), comm,
		     comm, p->waiters_mean);
}

/* The proxy's threads' share of their time runnable, waiting for a CPU:
 * it hands connections over late then. */
static double proxy_runq_share(const struct joined_run *m, uint32_t tgid)
{
	double runq = 0, wall = 0;

	for (unsigned i = 0; i < m->nrows; i++) {
		const struct thread_row *r = &m->rows[i];

		if (!r->has_kernel || r->k.tgid != tgid)
			continue;
		runq += (double)r->acct_ns[ACCT_RUNQ];
		wall += (double)(r->end_ns - r->start_ns);
	}
	return fig_ratio(runq, wall);
}

static void ev_busy(struct diag_cause *c, const struct joined_run *m, const struct pool_row *p,
		    const char *comm)
{
	double busy = fig_ratio(p->holders_mean, (double)p->capacity);
	double runq = proxy_runq_share(m, p->tgid);

	cause_fig(c, "all_busy_share", fig_ratio((double)p->queued_ns, p->window_ns));
	cause_fig(c, "holders", p->holders_mean);
	if (runq >= 0.1)
		cause_fig(c, "runq_share", runq);
	evidence_add(c, "All %u connections had a request in flight %s of the window, and %.2f "
		     "on average (%s of their time).", p->capacity,
		     fig_pct(fig_ratio((double)p->queued_ns, p->window_ns)), p->holders_mean,
		     fig_pct(busy));
	if (busy < 0.9)
		evidence_add(c, "Clients queued although a connection had a request in flight only "
			     "%s of the time: the rest it was held without one - between its "
			     "client's requests (in a pooler's transaction mode a connection stays "
			     "its client's for the whole transaction, through the client's round "
			     "trips) or idle.", fig_pct(busy));
	if (runq >= 0.1)
		evidence_add(c, "%s itself was runnable, waiting for a CPU, %s of its time: each "
			     "request and each connection handed over waits for it too.", comm,
			     fig_pct(runq));
}

/* ns's share of the mean hold. */
static double hold_share(const struct pool_row *p, double ns)
{
	return fig_ratio(ns, p->hold_ns);
}

static void ev_peer_untraced(struct diag_cause *c, const struct pool_row *p, const char *comm)
{
	cause_fig(c, "peer_processes", 0);
	if (p->peer_connections)	/* some of them only: not said by halves */
		evidence_add(c, "What the peer at the other end of %s's connections (%s) does "
			     "while one is busy is not said: only %u of them had a traced process "
			     "at the other end. Trace all of the peer (fctrace attach -p "
			     "%u,PEER_PID --follow) to see its side.", comm, p->peer,
			     p->peer_connections, p->tgid);
	else
		evidence_add(c, "What the peer at the other end of %s's connections (%s) does "
			     "while one is busy is not seen: it was not traced. Trace it too "
			     "(fctrace attach -p %u,PEER_PID --follow, or run both) to see its "
			     "side.", comm, p->peer, p->tgid);
}

/* The peer's side: what each request's hold of a connection was made of,
 * and how long its threads waited for the next request. */
static void ev_peer(struct diag_cause *c, const struct pool_row *p, const char *comm)
{
	double cpu = p->state_ns[HS_USER] + p->state_ns[HS_SYSCALL];

	if (!p->peer_processes) {
		ev_peer_untraced(c, p, comm);
		return;
	}
	cause_fig(c, "peer_processes", p->peer_processes);
	cause_fig(c, "peer_oncpu_share", hold_share(p, cpu));
	cause_fig(c, "peer_runq_share", hold_share(p, p->state_ns[HS_PREEMPTED]));
	cause_fig(c, "peer_blocked_share", hold_share(p, p->state_ns[HS_BLOCKED]));
	cause_fig(c, "peer_locks_share", hold_share(p, p->state_ns[HS_WAITING]));
	cause_fig(c, "peer_wait_share", hold_share(p, p->peer_wait_ns));
	cause_fig(c, "peer_idle_share", p->peer_idle_share);
	evidence_add(c, "Each request held a connection %s (its exchange): the peer (%u "
		     "process%s, %u thread%s, at the other end of %u of the connections) was on "
		     "CPU %s of it (%s in syscalls), runnable %s, blocked %s (I/O, faults), in "
		     "futex waits %s, and the rest, %s, asleep in a poll: waiting on %s (the "
		     "request on its way, the reply on its way back), or on locks it waits for "
		     "in a poll.", fig_ns(p->hold_ns), p->peer_processes,
		     p->peer_processes == 1 ? "" : "es", p->peer_threads,
		     p->peer_threads == 1 ? "" : "s", p->peer_connections, fig_pct(hold_share(p, cpu)),
		     fig_pct(hold_share(p, p->state_ns[HS_SYSCALL])),
		     fig_pct(hold_share(p, p->state_ns[HS_PREEMPTED])),
		     fig_pct(hold_share(p, p->state_ns[HS_BLOCKED])),
		     fig_pct(hold_share(p, p->state_ns[HS_WAITING])),
		     fig_pct(hold_share(p, p->peer_wait_ns)), comm);
	if (p->state_ns[HS_PREEMPTED] >= 0.25 * p->hold_ns && p->state_ns[HS_PREEMPTED] >= cpu)
		evidence_add(c, "Inside the exchanges the peer waited for a CPU longer than it ran: "
			     "the machine's CPUs bound it, and more connections would share them.");
	evidence_add(c, "The peer's threads waited for their next request (asleep in a poll or "
		     "a receive) %s of their time%s.", fig_pct(p->peer_idle_share),
		     p->peer_work_share > 1.05 ? "; they worked more than the exchanges lasted "
		     "(they serve others too, or work after a reply): their parts are scaled to "
		     "the exchanges" : "");
}

/* The what-ifs in one sentence: "8 connections: 4.32 s; ..." */
static void ev_whatif(struct diag_cause *c, const struct pool_row *p)
{
	char buf[400] = "";

	for (int i = 0; i < p->nwhatif; i++)
		words_append(buf, sizeof(buf), "%s%u connections: %s", buf[0] ? "; " : "",
			     p->whatif[i].capacity, fig_ns(p->whatif[i].wall_ns));
	if (buf[0])
		evidence_add(c, "The same work, %s now, would take about (the clients as a "
			     "finite-source queue: a connection held as long as now, each client "
			     "as long outside the proxy, the machine's CPUs busy in proportion; a "
			     "peer's own locks are not in it): %s.", fig_ns(p->window_ns), buf);
}

/* Whether more connections stop paying at twice as many: the limit is
 * then the CPUs' (or the clients'), not the pool's. */
static const struct pool_whatif *plateau(const struct pool_row *p)
{
	if (p->nwhatif < 2 || p->whatif[1].wall_ns < 0.98 * p->whatif[0].wall_ns)
		return NULL;
	return &p->whatif[0];
}

static void proxy_fix(struct finding *o, const struct pool_row *p, const char *comm,
		      const char *peer)
{
	const struct pool_whatif *w = plateau(p);
	char knob[200], with[240] = "";
	unsigned to = w ? w->capacity : p->threads;
	const char *name;

	if ((o->setting = pool_knob_for(p->name, to, knob, sizeof(knob), &name))) {
		snprintf(with, sizeof(with), " (%s)", knob);
		cause_knob(&o->c, name, to);
	}
	cause_fig(&o->c, "fix_items", to);
	if (w)	/* more would gain little: the prediction there */
		cause_fig(&o->c, "fix_wall_ns", w->wall_ns);
	if (w)
		set_fix(o, "%s's clients queue for its %u connections, but more would gain little: "
			"with %u the same work would take about %s instead of %s, held back by the "
			"machine's CPUs, which the peer's work shares. Try %u%s and measure; a peer's "
			"own locks can take even that back.", comm, p->capacity, w->capacity,
			fig_ns(w->wall_ns), fig_ns(p->window_ns), w->capacity, with);
	else
		set_fix(o, "Give %s more than its %u connections to %s, toward its %u clients%s: "
			"each request now waits %s for one; the peer must have the CPUs for more "
			"at once.", comm, p->capacity, peer, p->threads, with,
			fig_ns((double)p->wait_ns / (double)p->waits));
}

bool rule_proxy_pool(const struct facts *f, struct finding *o)
{
	const struct pool_row *p = top_proxy(f->m);
	char comm[FCT_COMM_LEN];
	const char *peer;
	double share;

	if (!p || !p->capacity)
		return false;
	share = clients_share(p);
	if (share < EXPLAIN_MIN_SHARE)
		return false;
	proxy_comm(f->m, p->tgid, comm, sizeof(comm));
	peer = p->peer;
	found(o, "pool_too_small", share, 0.8, 0);
	snprintf(o->c.share_of, sizeof(o->c.share_of), "its clients' time");	/* not the threads' */
	set_title(o, "%s of its clients' time waiting in %s for one of its %u connections to %s: "
		  "%u clients, %.1f waiting on average", fig_pct(share), comm, p->capacity, peer,
		  p->threads, p->waiters_mean);
	cause_fig(&o->c, "capacity", p->capacity);
	cause_fig(&o->c, "clients", p->threads);
	cause_fig(&o->c, "waiters", p->waiters_mean);
	ev_requests(&o->c, p, comm);
	ev_busy(&o->c, f->m, p, comm);
	ev_peer(&o->c, p, comm);
	ev_whatif(&o->c, p);
	proxy_fix(o, p, comm, peer);
	return true;
}
