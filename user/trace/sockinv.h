/*
 * sockinv.h - the traced processes that are proxies with a pool of
 * connections, found from their sockets (/proc/PID/fd, the kernel's unix
 * socket table by sock_diag, /proc/net/tcp and tcp6): a process that
 * listens, holds connections it accepted (its clients') and connections
 * it made to a peer (its pool). Each such socket goes into the BPF
 * flow_socks table with its role and the proxy's group, for
 * bpf/sockflow.bpf.h to time the exchanges on it; the clients accepted
 * later are added by the probes themselves, the pool's connections made
 * later by the next scan. The other end of each of the pool's
 * connections is looked for among the traced processes' sockets: the
 * peer that serves it, when it is traced too (pools_peer.c).
 */
#ifndef FCTRACE_SOCKINV_H
#define FCTRACE_SOCKINV_H

#include <stdint.h>
#include <sys/types.h>
#include "fctrace.h"

#define SOCKINV_NAME	112
#define SOCKINV_PEERS	256	/* connections joined to a peer kept a proxy */

/* A proxy as the scans found it, and what the probes measured of it. */
struct kv_flow {
	pid_t tgid;
	char comm[FCT_COMM_LEN];
	char peer[SOCKINV_NAME];	/* what its pool connects to (most of them) */
	char listen[SOCKINV_NAME];	/* where its clients connect */
	unsigned conns;			/* the pool's connections, the most at once */
	unsigned clients;		/* client connections, the most at once */
	/* the traced processes at the other end of its pool's connections
	 * (the unix peer's inode, or TCP's 4-tuple reversed, found among
	 * their descriptors): joined is the connections so joined, ever;
	 * conns_now and joined_now the pool's connections at the last scan
	 * that saw one, and of those the joined: the peer's side is whole
	 * only when they are equal */
	pid_t peers[SOCKINV_PEERS];
	unsigned npeers, joined, conns_now, joined_now;
	struct fct_flow_group g;	/* the probes' sums (fctrace.h) */
};

struct sockinv;

/* socks_fd, groups_fd: the BPF maps; flow_on: the bss word that turns
 * the probes on. NULL out of memory. */
struct sockinv *sockinv_new(int socks_fd, int groups_fd, volatile uint32_t *flow_on);
void sockinv_free(struct sockinv *s);
/* Scan the processes tgids[0..n) and put their proxies' sockets in the
 * table; 0, or -errno when the socket tables cannot be read. */
int sockinv_scan(struct sockinv *s, const pid_t *tgids, int n);
/* The proxies found, with the probes' sums: *out malloc'd (NULL, 0 when
 * none). 0, or -ENOMEM. */
int sockinv_read(struct sockinv *s, struct kv_flow **out, int *n);

#endif /* FCTRACE_SOCKINV_H */
