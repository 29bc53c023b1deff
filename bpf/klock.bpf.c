// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * klock.bpf.c - kernel lock contention (lock:contention_begin/end), per
 * (thread, lock type, kernel stack). These tracepoints only fire on the
 * slow path, so a hash update per wait is affordable. User space names
 * the stack's first non-locking function (ksyms.c).
 */
#include "common.bpf.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, struct fct_klock_key);
	__type(value, struct fct_klock_val);
} klock_waits SEC(".maps");

/* the weight of the n-th wait's stack (from 0), or 0: not sampled */
static __always_inline __u32 stack_weight(__u64 n)
{
	if (n < FCT_KLOCK_WARMUP)
		return 1;
	return (n & (FCT_KLOCK_EVERY - 1)) ? 0 : FCT_KLOCK_EVERY;
}

SEC("tp_btf/contention_begin")
int BPF_PROG(fct_contention_begin, void *lock, unsigned int flags)
{
	struct fct_slot *t = fct_current_slot();

	/* nested contention (a mutex's spin, then its sleep): keep the outer */
	if (!t || t->klock_addr)
		return 0;
	t->klock_addr = (__u64)lock;
	t->klock_flags = flags;
	t->klock_weight = stack_weight(t->klock_seq++);
	/* bpf_get_stack zero-fills what the stack does not fill */
	if (t->klock_weight &&
	    bpf_get_stack(ctx, t->klock_ips, sizeof(t->klock_ips), 0) < 0) {
		__builtin_memset(t->klock_ips, 0, sizeof(t->klock_ips));
		__sync_fetch_and_add(&lost.stack_lost, 1);
	}
	t->klock_start_ns = bpf_ktime_get_ns();
	return 0;
}

SEC("tp_btf/contention_end")
int BPF_PROG(fct_contention_end, void *lock, int ret)
{
	static const struct fct_klock_val zero = {};
	struct fct_slot *t = fct_current_slot();
	struct fct_klock_key key = {};
	struct fct_klock_val *v;
	__u64 d;

	if (!t || t->klock_addr != (__u64)lock)
		return 0;
	d = bpf_ktime_get_ns() - t->klock_start_ns;
	t->klock_addr = 0;
	t->a.klock_waits++;
	t->a.klock_wait_ns += d;
	if (!t->klock_weight)
		return 0;

	key.tid = t->a.tid;
	key.flags = t->klock_flags;
	__builtin_memcpy(key.ips, t->klock_ips, sizeof(key.ips));
	v = fct_hash_entry(&klock_waits, &key, &zero, &lost.klock_map_full);
	if (!v)
		return 0;
	v->waits += t->klock_weight;
	v->wait_ns += t->klock_weight * d;
	v->sampled++;
	if (d > v->max_ns)
		v->max_ns = d;
	return 0;
}
