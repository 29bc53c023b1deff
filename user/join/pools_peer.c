/*
 * pools_peer.c - the peer's side of a proxy's pool of connections
 * (pools_peer.h).
 */
#include <string.h>
#include "base/sysnames.h"
#include "join/join.h"
#include "join/pools_peer.h"
#include "trace/account.h"

/* Calls only a socket answers: a peer asleep in them waits for the next
 * request as in a poll (a read() may be a file's, and stays blocked). */
static const char *const recv_calls[] = { "recvfrom", "recvmsg", "recvmmsg" };

static double recv_idle_ns(const struct thread_row *r)
{
	double ns = 0;

	for (size_t i = 0; i < sizeof(recv_calls) / sizeof(recv_calls[0]); i++) {
		int nr = syscall_nr(recv_calls[i]);

		if (nr >= 0)
			ns += (double)acct_nr(&r->k, (unsigned)nr)->blocked_ns;
	}
	return ns;
}

static bool in_set(pid_t tgid, const pid_t *tgids, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (tgids[i] == tgid)
			return true;
	return false;
}

static void add_row(struct peer_sums *s, const struct thread_row *r)
{
	double blocked = (double)r->acct_ns[ACCT_BLOCKED];
	double idle = (double)r->idle_ns + recv_idle_ns(r);	/* join_idle_ns's */

	if (idle > blocked)
		idle = blocked;
	s->threads++;
	s->part_ns[HS_USER] += (double)r->acct_ns[ACCT_CPU_USER];
	s->part_ns[HS_SYSCALL] += (double)r->acct_ns[ACCT_CPU_SYS];
	s->part_ns[HS_PREEMPTED] += (double)r->acct_ns[ACCT_RUNQ];
	s->part_ns[HS_BLOCKED] += blocked - idle;
	s->part_ns[HS_WAITING] += (double)(r->acct_ns[ACCT_LOCK_NAMED] +
					   r->acct_ns[ACCT_FUTEX_OTHER]);
	s->idle_ns += idle;
	if (r->end_ns > r->start_ns)
		s->wall_ns += (double)(r->end_ns - r->start_ns);
}

void peer_sums_of(struct peer_sums *s, const struct joined_run *m, const pid_t *tgids,
		  unsigned n)
{
	memset(s, 0, sizeof(*s));
	for (unsigned i = 0; i < m->nrows; i++)
		if (m->rows[i].has_kernel && in_set((pid_t)m->rows[i].k.tgid, tgids, n))
			add_row(s, &m->rows[i]);
}

void pool_peer_hold(struct pool_row *p, const struct peer_sums *s, double busy_ns,
		    uint64_t exchanges)
{
	double work = 0, scale = 1;

	if (!s->threads || !exchanges || busy_ns <= 0)
		return;
	for (int k = 0; k < HS_N; k++)
		work += s->part_ns[k];
	if (work > busy_ns)
		scale = busy_ns / work;		/* worked outside the exchanges too */
	for (int k = 0; k < HS_N; k++)
		p->state_ns[k] = s->part_ns[k] * scale / (double)exchanges;
	p->peer_wait_ns = (busy_ns - work * scale) / (double)exchanges;
	p->peer_work_share = work / busy_ns;
	/* accounts a little past their window (rounding at the edges) stay
	 * a share */
	p->peer_idle_share = s->wall_ns > 0 ? s->idle_ns / s->wall_ns : 0;
	if (p->peer_idle_share > 1)
		p->peer_idle_share = 1;
	p->peer_threads = s->threads;
}
