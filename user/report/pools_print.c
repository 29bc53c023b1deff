/*
 * pools_print.c - the pools of N as the text report shows them: one row
 * each, the mean hold cut by what the holder did, then the what-ifs.
 */
#include "base/units.h"
#include "report/pools_print.h"
#include "report/why.h"
#include "explain/words.h"

static void print_whatifs(FILE *f, const struct pool_row *p)
{
	char line[600] = "", t[16];

	for (int i = 0; i < p->nwhatif; i++) {
		const struct pool_whatif *w = &p->whatif[i];

		if (w->capacity == p->capacity && w->threads == p->threads)
			continue;
		if (w->capacity)
			words_append(line, sizeof(line), "%scapacity %u, %u threads: %s",
				     line[0] ? "; " : "", w->capacity, w->threads,
				     units_ns(t, sizeof(t), w->wall_ns));
		else
			words_append(line, sizeof(line), "%s%u threads: %s", line[0] ? "; " : "",
				     w->threads, units_ns(t, sizeof(t), w->wall_ns));
	}
	if (line[0]) {
		char all[700];

		snprintf(all, sizeof(all), "the same work (now %s): %s",
			 units_ns(t, sizeof(t), p->window_ns), line);
		why_wrap(f, "  ", all);
	}
}

/* A proxy's pool: whose the hold's states are, or that they are not seen. */
static void print_peer(FILE *f, const struct pool_row *p)
{
	char buf[300];

	if (!p->peer_processes) {
		why_wrap(f, "  ", "the peer was not traced: what it does with a connection is not "
			 "seen (trace it too)");
		return;
	}
	snprintf(buf, sizeof(buf), "the hold's states are the peer's (%u process%s traced at "
		 "the other end of %u connections): the rest, %.0f %%, it waited on the proxy; "
		 "idle %.0f %% of its time", p->peer_processes, p->peer_processes == 1 ? "" : "es",
		 p->peer_connections, 100 * (p->hold_ns > 0 ? p->peer_wait_ns / p->hold_ns : 0),
		 100 * p->peer_idle_share);
	why_wrap(f, "  ", buf);
}

void pools_print(FILE *f, const struct joined_run *m)
{
	char cap[16], hold[16], st[HS_N][16], wt[16];

	if (!m->npools)
		return;
	fprintf(f, "\nPools of N (a hold: a woken waiter's wake-up to its wake that gives the item "
		"back; %% of the hold)\n%-34s %8s %7s %7s %5s %9s %7s %7s %7s %7s %7s %9s\n", "pool",
		"capacity", "threads", "waiting", "held", "hold", "syscall", "blocked", "preempt",
		"user", "waiting", "wait");
	for (int i = 0; i < m->npools; i++) {
		const struct pool_row *p = &m->pools[i];

		if (p->capacity && p->how == PC_NOT_QUEUED)
			snprintf(cap, sizeof(cap), "<=%u", p->capacity);
		else if (p->capacity)
			snprintf(cap, sizeof(cap), "%u", p->capacity);
		else
			snprintf(cap, sizeof(cap), "?");
		for (int s = 0; s < HS_N; s++)
			if (p->kind == LK_CONNECTIONS && !p->peer_processes)
				/* the peer's side: not traced */
				snprintf(st[s], sizeof(st[s]), "-");
			else
				units_pct(st[s], sizeof(st[s]),
					  p->hold_ns > 0 ? p->state_ns[s] / p->hold_ns : 0);
		fprintf(f, "%-34.34s %8s %7u %7.1f %5.1f %9s %7s %7s %7s %7s %7s %9s\n", p->name, cap,
			p->threads, p->waiters_mean, p->holders_mean,
			units_ns(hold, sizeof(hold), p->hold_ns), st[HS_SYSCALL], st[HS_BLOCKED],
			st[HS_PREEMPTED], st[HS_USER], st[HS_WAITING],
			units_ns(wt, sizeof(wt), (double)p->wait_ns));
		if (!p->capacity)
			fprintf(f, "  capacity not measured: the threads were runnable %.0f %% of their "
				"time (Little's law gives %.1f)\n", 100 * p->runq_share, p->capacity_est);
		if (p->kind == LK_CONNECTIONS)
			why_wrap(f, "  ", "a proxy's connections, counted from its sockets: "
				 "threads are its clients, a hold one request's exchange on a "
				 "connection, waiting its clients' requests in it for one");
		if (p->kind == LK_CONNECTIONS)
			print_peer(f, p);
		if (p->how == PC_NOT_QUEUED)
			fprintf(f, "  capacity at most %.2f: its threads not queued, on average (%.2f if "
				"a woken waiter has its item only once it runs); the hold, by Little's "
				"law, at most\n", p->capacity_est, p->capacity_low);
		print_whatifs(f, p);
	}
	fprintf(f, "capacity: items given back while a thread waited x mean hold / time with a "
		"waiter\n  (Little's law); what-ifs: a queueing model of the threads' cycle "
		"(docs/pools.md)\n");
}
