/*
 * pools_peer.h - what the peer does while a proxy's connection is busy
 * (join/pools.h, kind connections): the traced processes at the other
 * end of the pool's connections (trace/sockinv.c joins them), their
 * threads' own accounts laid over the connections' busy time. Split
 * from the gathering so that the arithmetic is tested on hand-built
 * sums (tests/join/test_pools_peer.c).
 *
 *   busy    the exchanges on the pool's connections, summed (a request's
 *           write to the peer to the read of its reply): the hold
 *   work    the peer threads' time not idle: on CPU in user space (user)
 *           and in syscalls (syscall), runnable (preempted), asleep
 *           outside futexes and outside the idle calls (blocked: I/O,
 *           faults), in futex waits (waiting: its own locks)
 *   rest    busy - work: the peer asleep waiting on the proxy inside an
 *           exchange (the request on its way there, the reply on its
 *           way back): peer_wait_ns
 *   idle    the peer asleep in a poll, a timer or a recv (join_idle_ns,
 *           and recvfrom/recvmsg/recvmmsg): waiting for its next request
 *
 * Each part is of the mean hold (busy / exchanges). Work beyond busy
 * (a peer that serves others too, or works after its reply) is scaled
 * to the hold and the rest is 0; peer_work_share says by how much.
 */
#ifndef FCTRACE_POOLS_PEER_H
#define FCTRACE_POOLS_PEER_H

#include <stdint.h>
#include <sys/types.h>
#include "join/pools.h"

/* The peer threads' accounts summed (ns). */
struct peer_sums {
	unsigned threads;
	double part_ns[HS_N];	/* work by hold state (HS_*) */
	double idle_ns;		/* waiting for a request */
	double wall_ns;		/* their accounts' spans, summed */
};

/* The threads of processes tgids[0..n) among m's rows into s. */
void peer_sums_of(struct peer_sums *s, const struct joined_run *m, const pid_t *tgids,
		  unsigned n);
/* p's hold_state, peer_wait_ns, peer_idle_share and peer_work_share from
 * s over busy_ns of exchanges; nothing when s has no thread. */
void pool_peer_hold(struct pool_row *p, const struct peer_sums *s, double busy_ns,
		    uint64_t exchanges);

#endif
