/*
 * waitgraph.c - the run's wait-for graph (waitgraph.h). A lock keeps its
 * WAKERS_MAX busiest wakers: the waits their wakes stand for are charged
 * to them, the rest (the other wakers' share) is said as unjoined.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "join/join.h"
#include "join/waitgraph.h"
#include "join/waitroots.h"
#include "join/wordindex.h"

struct edges {
	struct wait_edge *e;
	size_t n, cap;
};

/* Of the waiters' time on l, the share its holders (or, for an event,
 * its wakers between their wakes) were themselves waiting on another
 * lock or event; -1 when neither was measured. */
static double waker_waiting(const struct lock_total *l)
{
	const struct lock_holders *h = &l->holders;
	double all = 0;

	if (h->measured && h->waiter_ns > 0)
		return h->waited_ns[HS_WAITING] / h->waiter_ns;
	for (int s = 0; s < HS_N; s++)
		all += l->wakers.while_waited_ns[s];
	return all > 0 ? l->wakers.while_waited_ns[HS_WAITING] / all : -1;
}

/* A new edge at the end of s, zeroed but for its threads; NULL out of
 * memory. */
static struct wait_edge *edge_new(struct edges *s, pid_t waiter, const char *waiter_comm,
				  pid_t waker, const char *waker_comm)
{
	struct wait_edge *e;

	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 256;
		struct wait_edge *more = realloc(s->e, cap * sizeof(*more));

		if (!more)
			return NULL;
		s->e = more;
		s->cap = cap;
	}
	e = &s->e[s->n++];
	memset(e, 0, sizeof(*e));
	e->waiter = waiter;
	e->waker = waker;
	snprintf(e->waiter_comm, sizeof(e->waiter_comm), "%s", waiter_comm);
	snprintf(e->waker_comm, sizeof(e->waker_comm), "%s", waker_comm);
	return e;
}

static int add(struct edges *s, const struct thread_row *r,
	       const struct lock_total *l, const struct waker_thread *w, double ns)
{
	struct wait_edge *e = edge_new(s, r->tid, r->k.comm, w->tid, w->comm);

	if (!e)
		return -1;
	snprintf(e->via, sizeof(e->via), "%s", l->name);
	e->cls = (int)wait_class_of(l->kind, l->is_lock);
	e->wait_ns = ns;
	e->waker_waiting = waker_waiting(l);
	return 0;
}

static int by_time(const void *x, const void *y)
{
	const struct wait_edge *a = x, *b = y;

	return a->wait_ns < b->wait_ns ? 1 : a->wait_ns > b->wait_ns ? -1 : 0;
}

/* One row's waits charged to their locks' wakers. */
static int row_edges(struct edges *s, struct wait_graph *g, const struct lock_index *ix,
		     const struct thread_row *r)
{
	for (int i = 0; i < r->nlocks; i++) {
		const struct lock_use *u = &r->locks[i];
		int at = u->wait_ns ? lock_index_find(ix, u->name) : -1;
		const struct lock_total *l = at >= 0 ? &ix->locks[at] : NULL;
		double kept = 0, others;

		if (!l || !l->wakers.wakes) {
			g->unjoined_ns += (double)u->wait_ns;
			continue;
		}
		/* a thread does not wake itself: its waits are split over the
		 * lock's other wakers */
		others = (double)l->wakers.wakes;
		for (int k = 0; k < l->wakers.nthreads; k++)
			if (l->wakers.threads[k].tid == r->tid)
				others -= (double)l->wakers.threads[k].wakes;
		for (int k = 0; k < l->wakers.nthreads && others > 0; k++) {
			double share = (double)l->wakers.threads[k].wakes / others;

			if (l->wakers.threads[k].tid == r->tid)
				continue;
			kept += share;
			if (add(s, r, l, &l->wakers.threads[k], (double)u->wait_ns * share))
				return -1;
		}
		g->unjoined_ns += (double)u->wait_ns * (1 - kept > 0 ? 1 - kept : 0);
	}
	return 0;
}

/* The sleeps another process's thread ended (m->sib_edges) as edges: via
 * the kind of wake and the waker's call before it ("signal after close"). */
static int sibling_edges(struct edges *s, const struct joined_run *m)
{
	for (int i = 0; i < m->nsib_edges; i++) {
		const struct sib_edge *x = &m->sib_edges[i];
		struct wait_edge *e = edge_new(s, x->waiter, x->waiter_comm, x->waker,
					       x->waker_comm);

		if (!e)
			return -1;
		snprintf(e->via, sizeof(e->via), "%s%s%s", sib_kind_names[x->by],
			 x->call[0] ? " after " : "", x->call);
		e->cls = WAIT_EVENT;
		e->wait_ns = (double)x->wait_ns;
		e->waker_waiting = -1;
	}
	return 0;
}

int wait_graph_build(struct joined_run *m)
{
	struct wait_graph *g = &m->graph;
	struct lock_index ix;
	struct edges s = { 0 };

	wait_graph_free(g);
	if (lock_index_build(&ix, m->locks, m->nlocks))
		return -1;
	for (unsigned i = 0; i < m->nrows; i++)
		if (m->rows[i].has_kernel && row_edges(&s, g, &ix, &m->rows[i])) {
			free(s.e);
			lock_index_free(&ix);
			return -1;
		}
	lock_index_free(&ix);
	if (sibling_edges(&s, m)) {
		free(s.e);
		return -1;
	}
	if (!s.n) {
		free(s.e);
		g->unjoined_ns = 0;
		return 0;
	}
	qsort(s.e, s.n, sizeof(*s.e), by_time);
	if (wait_roots_find(g, s.e, s.n, m)) {
		free(s.e);
		return -1;
	}
	for (size_t i = WAIT_EDGES_MAX; i < s.n; i++) {
		g->more_edges++;
		g->more_wait_ns += s.e[i].wait_ns;
	}
	g->edges = s.e;
	g->nedges = s.n < WAIT_EDGES_MAX ? (int)s.n : WAIT_EDGES_MAX;
	return 0;
}

void wait_graph_free(struct wait_graph *g)
{
	free(g->edges);
	memset(g, 0, sizeof(*g));
}
