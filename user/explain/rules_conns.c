/*
 * rules_conns.c - new connections to one peer, made again and again (a
 * pool of connections missing or too small, join/caches.h CACHE_CONNS):
 * their set-up's time ranked as a cause, and the pool that keeps them.
 * The figures are the stream's: connects, the connections open at each,
 * each one's time from connect to the peer's first reply.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "explain/knobs.h"
#include "explain/rules_int.h"
#include "explain/words.h"

/* Fewer new connections to one peer are a program's start-up (a name
 * service asked once), not a pool's misses. */
#define CONNS_MIN	20
#define CONNS_MIN_GAIN	0.02

static bool qualifies(const struct cache_entry *e)
{
	return e->kind == CACHE_CONNS && e->misses >= CONNS_MIN &&
	       e->hit_ratio_fix >= CONNS_MIN_GAIN;
}

/* A program's new connections a pool would serve, to every peer and from
 * each of its processes (a server's workers connect on their own). */
struct conns_sum {
	double ns;		/* their time: the cause's */
	double saved;		/* what the fix sizes save of it */
	double peer_ns;		/* the top peer's time, all processes */
	int procs;		/* processes connecting to the top peer */
};

/* The costliest peer a pool would serve, and its program's sums. */
static const struct cache_entry *top_conns(const struct joined_run *m, struct conns_sum *s)
{
	const struct cache_entry *best = NULL;

	memset(s, 0, sizeof(*s));
	for (int i = 0; i < m->ncaches; i++)
		if (qualifies(&m->caches[i]) && (!best || m->caches[i].miss_ns > best->miss_ns))
			best = &m->caches[i];
	for (int i = 0; best && i < m->ncaches; i++) {
		const struct cache_entry *e = &m->caches[i];

		if (!qualifies(e) || strcmp(e->comm, best->comm))
			continue;
		s->ns += e->miss_ns;
		s->saved += e->saved_ns;
		if (!strcmp(e->conn.peer, best->conn.peer))
			s->peer_ns += e->miss_ns, s->procs++;
	}
	return best;
}

/* The set-ups' time the connections rule names, which the sleeps'
 * rule leaves to it; 0 when it does not fire. */
double conns_apart_ns(const struct facts *f)
{
	struct conns_sum s;

	if (!top_conns(f->m, &s) || fig_ratio(s.ns, f->wall) < EXPLAIN_MIN_SHARE)
		return 0;
	return s.ns;
}

static void ev_stream(struct diag_cause *c, const struct facts *f, const struct cache_entry *e)
{
	double secs = (double)f->m->wall_ns / 1e9;

	cause_fig(c, "pid", (double)e->pid);
	cause_fig(c, "closes", (double)e->conn.closes);
	cause_fig(c, "lived_each_ns", e->conn.lived_each_ns);

	evidence_add(c, "Process %d (%s) opened %s connections to %s (%s a second) and closed %s "
		     "of them, each after %s on average; at most %s were open at once.", (int)e->pid,
		     e->comm, fig_cnt((double)e->misses), e->conn.peer,
		     fig_cnt(secs > 0 ? (double)e->misses / secs : 0), fig_cnt((double)e->conn.closes),
		     fig_ns(e->conn.lived_each_ns), fig_cnt((double)e->ws_items));
}

static void ev_cost(struct diag_cause *c, const struct cache_entry *e, const struct conns_sum *s)
{
	double ns = s->peer_ns;
	int procs = s->procs;

	if (e->conn.setups)
		cause_fig(c, "setup_each_ns", e->conn.setup_each_ns);
	cause_fig(c, "connect_each_ns", e->conn.connect_each_ns);
	cause_fig(c, "miss_each_ns", e->miss_each_ns);
	cause_fig(c, "peer_ns", ns);
	if (e->conn.setups)
		evidence_add(c, "A new connection took %s from connect to the peer's first reply "
			     "(measured on the %s that carried a second exchange: a greeting, a "
			     "start-up or a login came first), its connect call %s; with its close, "
			     "%s a connection: %s of thread time%s.", fig_ns(e->conn.setup_each_ns),
			     fig_cnt((double)e->conn.setups), fig_ns(e->conn.connect_each_ns),
			     fig_ns(e->miss_each_ns), fig_ns(ns),
			     procs > 1 ? " over the program's processes" : "");
	else
		evidence_add(c, "No connection carried a second exchange, so only its connect call "
			     "(%s) and its close are counted, %s a connection, %s of thread time: "
			     "what the peer does to set one up is not seen from here.",
			     fig_ns(e->conn.connect_each_ns), fig_ns(e->miss_each_ns), fig_ns(ns));
}

static void ev_curve(struct diag_cause *c, const struct facts *f, const struct cache_entry *e,
		     const struct conns_sum *s)
{
	uint64_t half = e->fix_items / 2 ? e->fix_items / 2 : 1;
	double wall = (double)f->m->wall_ns * (1 - fig_ratio(s->saved, f->wall));

	cause_fig(c, "misses_at_fix", (double)e->misses_at_fix);
	cause_fig(c, "saved_ns", s->saved);
	evidence_add(c, "A pool that keeps its connections and reuses them would have served, on "
		     "this run's own connects (one more opened whenever all are busy), %s of them "
		     "with %s and %s with %s: %s new connections instead of %s. Pools so sized for "
		     "each peer save %s of thread time: the same work would take ~%s instead of %s "
		     "if the saving spreads over the threads.", fig_pct(cache_hit_ratio_at(e, half)),
		     fig_cnt((double)half), fig_pct(e->hit_ratio_fix), fig_cnt((double)e->fix_items),
		     fig_cnt((double)e->misses_at_fix), fig_cnt((double)e->misses), fig_ns(s->saved),
		     fig_ns(wall), fig_ns((double)f->m->wall_ns));
}

/* The other peers the program connects to again and again, each a pool
 * of its own, into list ("50 to 127.0.0.1:80 (60.1 ms, at most 5 at
 * once)", or with fix "5 to 127.0.0.1:80"): at most 3 named; their count. */
static int others(const struct joined_run *m, const struct cache_entry *top, bool fix,
		  char *list, size_t n)
{
	size_t len = 0;
	int more = 0;

	list[0] = '\0';
	for (int i = 0; i < m->ncaches; i++) {
		const struct cache_entry *e = &m->caches[i];

		if (!qualifies(e) || !strcmp(e->conn.peer, top->conn.peer) ||
		    strcmp(e->comm, top->comm) || more++ >= 3 || len >= n)
			continue;
		if (fix)
			len += (size_t)snprintf(list + len, n - len, "%s%s to %s", len ? ", " : "",
						fig_cnt((double)e->fix_items), e->conn.peer);
		else
			len += (size_t)snprintf(list + len, n - len, "%s%s to %s (%s, at most %s at "
						"once)", len ? "; " : "", fig_cnt((double)e->misses),
						e->conn.peer, fig_ns(e->miss_ns),
						fig_cnt((double)e->ws_items));
	}
	return more;
}

static void ev_others(struct diag_cause *c, const struct joined_run *m,
		      const struct cache_entry *top)
{
	char list[400];
	int more = others(m, top, false, list, sizeof(list));

	if (more)
		evidence_add(c, "%s also made new connections again and again to %d other peer%s, "
			     "each a pool of its own, in the share above: %s%s.", top->comm, more,
			     fig_plural(more), list, more > 3 ? " ..." : "");
}

static void fix_conns(struct finding *o, const struct joined_run *m, const struct cache_entry *e)
{
	char knob[160], list[300];
	const char *name;

	if (others(m, e, true, list, sizeof(list)))
		words_append(list, sizeof(list), " likewise");

	o->setting = knob_for(e->comm, e->kind, e->fix_items, knob, sizeof(knob), &name);
	if (o->setting)
		cause_knob(&o->c, name, (double)e->fix_items);
	if (o->setting)
		set_fix(o, "%s: predicted %s new connections instead of %s%s%s.", knob,
			fig_cnt((double)e->misses_at_fix), fig_cnt((double)e->misses),
			list[0] ? "; keep " : "", list);
	else
		set_fix(o, "Keep %s connections to %s open and reuse them (a connection pool in %s, "
			"or a pooler in front of the peer): predicted %s new connections instead of "
			"%s%s%s.", fig_cnt((double)e->fix_items), e->conn.peer, e->comm,
			fig_cnt((double)e->misses_at_fix), fig_cnt((double)e->misses),
			list[0] ? "; keep " : "", list);
}

bool rule_conns(const struct facts *f, struct finding *o)
{
	const struct cache_entry *e;
	struct conns_sum s;
	char list[300];
	double share;

	if (!(e = top_conns(f->m, &s)))
		return false;
	share = fig_ratio(s.ns, f->wall);
	if (share < EXPLAIN_MIN_SHARE)
		return false;
	found(o, "connections_not_kept", share, e->conn.setups ? 0.75 : 0.5, COV_CONNS);
	set_title(o, "%s of thread time setting up new connections%s: %s opened %s to %s, at most "
		  "%s at once; a pool of %s kept connections would serve %s of them", fig_pct(share),
		  s.ns > s.peer_ns ? " (to more than one peer)" : "", e->comm,
		  fig_cnt((double)e->misses), e->conn.peer, fig_cnt((double)e->ws_items),
		  fig_cnt((double)e->fix_items), fig_pct(e->hit_ratio_fix));
	cause_fig(&o->c, "connections", (double)e->misses);
	cause_fig(&o->c, "at_once", (double)e->ws_items);
	cause_fig(&o->c, "fix_items", (double)e->fix_items);
	cause_fig(&o->c, "hit_ratio_fix", e->hit_ratio_fix);
	/* the peers it connects to again and again, this one's among them */
	cause_fig(&o->c, "peers", 1 + others(f->m, e, true, list, sizeof(list)));
	ev_stream(&o->c, f, e);
	ev_cost(&o->c, e, &s);
	ev_curve(&o->c, f, e, &s);
	if (s.procs > 1)
		evidence_add(&o->c, "%d processes of %s connect on their own; the figures above are "
			     "the most costly one's.", s.procs, e->comm);
	ev_others(&o->c, f->m, e);
	fix_conns(o, f->m, e);
	if (s.procs > 1)	/* last: the figures past EXPLAIN_MAX_FIGS are dropped */
		cause_fig(&o->c, "procs", s.procs);
	return true;
}
