/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * sockflow.bpf.h - the exchanges on a proxy's sockets (fctrace.h, struct
 * fct_flow_sock): a client's request from the proxy's read of it to its
 * write of the reply, and the same request forwarded on one of the
 * pool's connections, from the write to the read of the reply. Runs in
 * the handles' code of the syscall programs (fileuse.bpf.h), and only
 * once user space has put a socket in flow_socks (flow_on): until then
 * one bss load a call. Then each read, write, send or recv of a traced
 * thread on a socket costs a descriptor walk and a hash lookup.
 */
#ifndef FCTRACE_SOCKFLOW_BPF_H
#define FCTRACE_SOCKFLOW_BPF_H

#include "common.bpf.h"

struct fct_flow_socks_map {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FCT_FLOW_SOCKS);
	__type(key, __u64);		/* the socket's inode */
	__type(value, struct fct_flow_sock);
};

struct fct_flow_groups_map {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, FCT_FLOW_GROUPS);
	__type(key, __u32);
	__type(value, struct fct_flow_group);
};

/* defined in common.bpf.c */
extern struct fct_flow_socks_map flow_socks SEC(".maps");
extern struct fct_flow_groups_map flow_groups SEC(".maps");
extern __u32 flow_on;		/* bss: sockets in flow_socks (user space sets it) */

static __always_inline struct fct_flow_sock *flow_sock_of(struct file *file, __u64 *ino)
{
	if (!fct_is_socket(file))
		return NULL;
	*ino = BPF_CORE_READ(file, f_inode, i_ino);
	return bpf_map_lookup_elem(&flow_socks, ino);
}

/* The pool's exchanges open change by d (+1, -1) at now: the time at
 * the level it leaves. */
static __always_inline void flow_level(struct fct_flow_group *g, __s64 d, __u64 now)
{
	__s64 was = __sync_fetch_and_add(&g->out_open, d);
	__u64 since = g->level_since;
	__u32 k;

	g->level_since = now;
	if (!since || now <= since || was < 0)
		return;
	k = was < FCT_FLOW_LEVELS ? (__u32)was : FCT_FLOW_LEVELS - 1;
	__sync_fetch_and_add(&g->level_ns[k & (FCT_FLOW_LEVELS - 1)], now - since);
}

/* An exchange on s opens (since = now) or closes (its time added). */
static __always_inline void flow_edge(struct fct_flow_sock *s, bool open, __u64 now)
{
	struct fct_flow_group *g = bpf_map_lookup_elem(&flow_groups, &s->group);
	__u64 d;

	if (!g)
		return;
	if (open) {
		if (s->since)
			return;		/* a request in several reads or writes */
		s->since = now;
		if (!g->first_ns)
			__sync_val_compare_and_swap(&g->first_ns, 0, now);
		if (s->role == FCT_FLOW_OUT)
			flow_level(g, 1, now);
		return;
	}
	if (!s->since)
		return;		/* the reply in several writes, or reads */
	d = now > s->since ? now - s->since : 0;
	s->since = 0;
	g->last_ns = now;
	if (s->role == FCT_FLOW_IN) {
		__sync_fetch_and_add(&g->in_n, 1);
		__sync_fetch_and_add(&g->in_ns, d);
	} else {
		__sync_fetch_and_add(&g->out_n, 1);
		__sync_fetch_and_add(&g->out_ns, d);
		flow_level(g, -1, now);
	}
}

/* A write or send on file (sent), or a read or recv that returned data:
 * on a client's socket a request comes in (read) or its reply goes out
 * (write); on the pool's, a request goes to the peer (write) or its reply
 * comes back (read). */
static __always_inline void flow_io(struct file *file, bool sent)
{
	struct fct_flow_sock *s;
	__u64 ino;

	if (!(s = flow_sock_of(file, &ino)) || (s->role != FCT_FLOW_IN && s->role != FCT_FLOW_OUT))
		return;
	flow_edge(s, (s->role == FCT_FLOW_OUT) == sent, bpf_ktime_get_ns());
}

/* accept's new connection on a listening socket of a proxy: a client's. */
static __always_inline void flow_accept(struct file *lfile, struct file *nfile)
{
	struct fct_flow_sock *l, in = { .role = FCT_FLOW_IN };
	struct fct_flow_group *g;
	__u64 lino, nino;

	if (!(l = flow_sock_of(lfile, &lino)) || l->role != FCT_FLOW_LISTEN ||
	    !fct_is_socket(nfile))
		return;
	in.group = l->group;
	nino = BPF_CORE_READ(nfile, f_inode, i_ino);
	if (bpf_map_update_elem(&flow_socks, &nino, &in, BPF_ANY))
		return;
	g = bpf_map_lookup_elem(&flow_groups, &in.group);
	if (g)
		__sync_fetch_and_add(&g->accepted, 1);
}

/* A socket's close: out of the table (its open exchange dropped). */
static __always_inline void flow_forget(struct file *file)
{
	struct fct_flow_sock *s;
	__u64 ino;

	if (!(s = flow_sock_of(file, &ino)))
		return;
	if (s->since && s->role == FCT_FLOW_OUT) {
		struct fct_flow_group *g = bpf_map_lookup_elem(&flow_groups, &s->group);

		if (g)
			flow_level(g, -1, bpf_ktime_get_ns());
	}
	bpf_map_delete_elem(&flow_socks, &ino);
}

#endif
