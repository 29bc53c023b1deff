/*
 * waitroots.c - where the wait-for graph's waits end (waitgraph.h's
 * roots). wPerf (OSDI'18) follows each wait to the thread that ended it,
 * and on through that thread's own waits, to a knot that waits on nothing
 * inside the program. Here each thread's waits are charged to their
 * wakers (the edges); a waker passes the time on along its own waits in
 * the share of the wait it was itself waiting (measured per lock when its
 * holders or its wakers' spans were; else the share of its wall it
 * waited on others), and keeps the rest: the waits that ended in its own
 * work. What every thread keeps sums to the edges' time: nothing is
 * counted twice or lost.
 */
#include <stdlib.h>
#include <string.h>
#include "join/join.h"
#include "join/waitgraph.h"
#include "join/waitroots.h"

struct node {
	pid_t tid;
	const struct thread_row *row;	/* NULL: no row (a waker outside the rows) */
	double waited_ns;		/* its own waits, as a waiter on the edges */
	double share;			/* waited_ns of its wall, at most 1 */
	double pass, next_pass;		/* time it sends on along its own waits,
					 * this hop and the next */
	double kept, direct;
};

struct nodes {
	struct node *v;
	size_t n;
};

static int by_tid(const void *x, const void *y)
{
	const struct node *a = x, *b = y;

	return (a->tid > b->tid) - (a->tid < b->tid);
}

static struct node *node_of(const struct nodes *s, pid_t tid)
{
	struct node key = { .tid = tid };

	return bsearch(&key, s->v, s->n, sizeof(*s->v), by_tid);
}

/* Every thread an edge names, once, sorted by tid, with its row. */
static int nodes_make(struct nodes *s, const struct wait_edge *e, size_t n,
		      const struct joined_run *m)
{
	size_t k = 0;

	s->v = calloc(2 * n + 1, sizeof(*s->v));
	if (!s->v)
		return -1;
	for (size_t i = 0; i < n; i++) {
		s->v[k++].tid = e[i].waiter;
		s->v[k++].tid = e[i].waker;
	}
	qsort(s->v, k, sizeof(*s->v), by_tid);
	s->n = 0;
	for (size_t i = 0; i < k; i++)
		if (!s->n || s->v[s->n - 1].tid != s->v[i].tid)
			s->v[s->n++] = s->v[i];
	for (unsigned i = 0; i < m->nrows; i++) {
		struct node *d = node_of(s, m->rows[i].tid);

		if (d && m->rows[i].has_kernel)
			d->row = &m->rows[i];
	}
	return 0;
}

static double wall_of(const struct node *d)
{
	return d->row ? (double)(d->row->end_ns - d->row->start_ns) : 0;
}

/* Time x arriving at e's waker: the share its waker waited itself goes on
 * (the edge's own measure, else the waker's wall's), the rest is kept. */
static void arrive(struct node *k, const struct wait_edge *e, double x)
{
	double p = e->waker_waiting >= 0 ? e->waker_waiting : k->share;

	if (p > 1)
		p = 1;
	k->kept += x * (1 - p);
	k->next_pass += x * p;
}

/* Each node's own waits and their share of its wall; then the edges'
 * time into their wakers, the first hop. */
static void first_hop(struct nodes *s, const struct wait_edge *e, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (e[i].waiter != e[i].waker)
			node_of(s, e[i].waiter)->waited_ns += e[i].wait_ns;
	for (size_t i = 0; i < s->n; i++) {
		struct node *d = &s->v[i];
		double wall = wall_of(d);

		/* no row, no wall: nothing to pass on with (it keeps all) */
		d->share = wall > 0 ? d->waited_ns / wall : 0;
		if (d->share > 1)
			d->share = 1;
	}
	for (size_t i = 0; i < n; i++) {
		struct node *k = node_of(s, e[i].waker);

		if (e[i].waiter == e[i].waker)
			continue;
		k->direct += e[i].wait_ns;
		arrive(k, &e[i], e[i].wait_ns);
	}
}

/* One hop: what each node sends on goes along its own waits, in their
 * proportions; a node that waited on no edge, or the last hop, keeps it. */
static void hop(struct nodes *s, const struct wait_edge *e, size_t n, bool last)
{
	for (size_t i = 0; i < s->n; i++) {
		struct node *d = &s->v[i];

		d->pass = d->next_pass;
		d->next_pass = 0;
		if (last || d->waited_ns <= 0) {
			d->kept += d->pass;
			d->pass = 0;
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct node *w = node_of(s, e[i].waiter);

		if (w->pass > 0 && e[i].waiter != e[i].waker)
			arrive(node_of(s, e[i].waker), &e[i], w->pass * e[i].wait_ns / w->waited_ns);
	}
}

static int by_kept(const void *x, const void *y)
{
	const struct node *a = x, *b = y;

	return a->kept < b->kept ? 1 : a->kept > b->kept ? -1 : (a->tid > b->tid) - (a->tid < b->tid);
}

static void root_of(struct wait_root *r, const struct node *d, const struct wait_edge *e,
		    size_t n)
{
	double wall = wall_of(d);
	const uint64_t *a = d->row ? d->row->acct_ns : NULL;

	memset(r, 0, sizeof(*r));
	r->tid = d->tid;
	r->ended_ns = d->kept;
	r->direct_ns = d->direct;
	r->waited_share = d->share;
	if (a && wall > 0) {
		r->cpu_share = (double)(a[ACCT_CPU_USER] + a[ACCT_CPU_SYS]) / wall;
		r->blocked_share = (double)a[ACCT_BLOCKED] / wall;
		r->runq_share = (double)a[ACCT_RUNQ] / wall;
	}
	for (size_t i = 0; i < n && !r->comm[0]; i++)
		if (e[i].waker == d->tid)
			memcpy(r->comm, e[i].waker_comm, sizeof(r->comm));
}

int wait_roots_find(struct wait_graph *g, const struct wait_edge *e, size_t n,
		    const struct joined_run *m)
{
	struct nodes s;

	g->nroots = 0;
	if (!n)
		return 0;
	if (nodes_make(&s, e, n, m))
		return -1;
	first_hop(&s, e, n);
	/* the last hop keeps what reached it: nothing is sent past it */
	for (int h = 0; h < WAIT_DEPTH_MAX; h++)
		hop(&s, e, n, h == WAIT_DEPTH_MAX - 1);
	qsort(s.v, s.n, sizeof(*s.v), by_kept);
	for (size_t i = 0; i < s.n && g->nroots < WAIT_ROOTS_MAX && s.v[i].kept >= 1; i++)
		root_of(&g->roots[g->nroots++], &s.v[i], e, n);
	free(s.v);
	return 0;
}
