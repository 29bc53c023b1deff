/*
 * sibedges.c - each thread's sleeps another traced process's thread ended
 * with a kill or a write (bpf/wakers.bpf.c's sib_after, keyed by waker,
 * its call before the wake, the kind and the woken thread): the edges
 * between processes of the wait-for graph.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/sysnames.h"
#include "join/join.h"
#include "join/sibedges.h"

static int by_wait(const void *x, const void *y)
{
	const struct sib_edge *a = x, *b = y;

	if (a->wait_ns != b->wait_ns)
		return a->wait_ns < b->wait_ns ? 1 : -1;
	if (a->waiter != b->waiter)
		return (a->waiter > b->waiter) - (a->waiter < b->waiter);
	if (a->waker != b->waker)
		return (a->waker > b->waker) - (a->waker < b->waker);
	return a->by != b->by ? (int)a->by - (int)b->by : strcmp(a->call, b->call);
}

/* tid's comm from its account, "" when it has none */
static void comm_of(const struct joined_run *m, pid_t tid, char *comm)
{
	const struct fct_thread *k = join_account_of(m, tid);

	if (k)
		memcpy(comm, k->comm, FCT_COMM_LEN);
}

int sib_edges_join(struct joined_run *m)
{
	int n = m->kv ? m->kv->nsib_after : 0;
	struct sib_edge *all;
	char buf[32];

	free(m->sib_edges);
	m->sib_edges = NULL;
	m->nsib_edges = 0;
	if (!n)
		return 0;
	all = calloc((size_t)n, sizeof(*all));
	if (!all)
		return -1;
	for (int i = 0; i < n; i++) {
		const struct kv_sib_after *e = &m->kv->sib_after[i];
		struct sib_edge *d = &all[i];

		d->waiter = (pid_t)e->key.wakee;
		d->waker = (pid_t)e->key.tid;
		d->by = e->key.by < FCT_WAKE_N ? (enum fct_wake_by)e->key.by : FCT_WAKE_SIGNAL;
		if (e->key.nr)
			snprintf(d->call, sizeof(d->call), "%s",
				 syscall_name(e->key.nr - 1, buf, sizeof(buf)));
		d->wakes = e->val.wakes;
		d->wait_ns = e->val.wait_ns;
	}
	qsort(all, (size_t)n, sizeof(*all), by_wait);
	if (n > SIB_EDGES_MAX)
		n = SIB_EDGES_MAX;
	for (int i = 0; i < n; i++) {
		comm_of(m, all[i].waiter, all[i].waiter_comm);
		comm_of(m, all[i].waker, all[i].waker_comm);
	}
	m->sib_edges = all;
	m->nsib_edges = n;
	return 0;
}
