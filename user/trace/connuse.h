/*
 * connuse.h - a process's new connections (the handles' stream's socket
 * events, bpf/fileuse.bpf.h): per peer, how many it opened, how many of
 * them were open when it opened each, what each cost to set up and how
 * long each lived. A connection pool's misses: a program that keeps its
 * connections reuses them without a call the kernel sees, so only the
 * new ones are here, and the curve says how many of them a pool of each
 * size would have served.
 */
#ifndef FCTRACE_CONNUSE_H
#define FCTRACE_CONNUSE_H

#include <stdint.h>
#include "fctrace.h"

#define CU_PEERS_MAX	8	/* peers a process's table keeps, first come */
#define CU_SIZES	64	/* connections open at once counted one by one */
#define CU_PEER_NAME	112

/* One peer's connections, as one process opened them. */
struct kv_conn {
	char peer[CU_PEER_NAME];	/* "127.0.0.1:5432", "[::1]:80",
					 * "unix:/run/x.sock", "unix:@name" */
	uint64_t connects;		/* stream connections made in the window */
	uint64_t connect_ns;		/* their connect calls' time, summed */
	uint64_t setups, setup_ns;	/* set-ups measured (fileuse.bpf.h) */
	uint64_t closes, life_ns;	/* those closed in the window, lives summed */
	uint64_t peak;			/* most open at once (of those made in it) */
	/* connects that found k of the peer's connections open: k < CU_SIZES
	 * one by one, the last counts the rest */
	uint64_t open_before[CU_SIZES + 1];
};

struct kv_conns {
	struct kv_conn peers[CU_PEERS_MAX];
	int npeers;
	uint64_t lost;			/* connects to peers past CU_PEERS_MAX,
					 * closes past the socket table */
};

struct cu_proc;

struct cu_proc *cu_proc_new(void);
void cu_proc_free(struct cu_proc *p);
/* One socket event of the stream (FCT_FU_CONNECT, FCT_FU_SETUP, a close
 * with FCT_FU_SOCKET); the others are not its. */
void cu_event(struct cu_proc *p, const struct fct_fileuse *e);
/* The process's connections, per peer, into out (zeroed first). */
void cu_figures(const struct cu_proc *p, struct kv_conns *out);
/* The hits a pool of size connections would have had on c's connects
 * (each connect that found fewer than size open, less the pool's own
 * first connections), and its hit ratio. */
uint64_t cu_hits_at(const struct kv_conn *c, uint64_t size);
double cu_hit_ratio_at(const struct kv_conn *c, uint64_t size);
/* A sockaddr's bytes (len of them) as a peer's name. */
void cu_peer_name(const uint8_t *sa, size_t len, char *out, size_t n);

#endif /* FCTRACE_CONNUSE_H */
