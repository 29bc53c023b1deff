// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * klock.bpf.c - kernel lock contention (lock:contention_begin/end), per
 * (thread, lock type, kernel stack). These tracepoints only fire on the
 * slow path, so a hash update per wait is affordable. User space names
 * the stack's first non-locking function (ksyms.c).
 *
 * Every wait is timed the same way, from contention_begin to
 * contention_end with nothing dear in between, so the thread's
 * klock_wait_ns is exact. A sampled wait's stack (4-7 us to walk) is walked after its
 * wait ended, at contention_end (the same slow-path function calls both
 * tracepoints, so the caller is the same): walking it at begin would
 * either hide the walk from the wait's time or lengthen the wait it
 * samples. The walk still runs with the lock held; user space splits
 * each thread's exact total over its sampled sites (kview_klock_attribute).
 */
#include "common.bpf.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FCT_KLOCK_ENTRIES);
	__type(key, struct fct_klock_key);
	__type(value, struct fct_klock_val);
} klock_waits SEC(".maps");

/* the weight of the n-th wait's stack (from 0), or 0: not sampled */
static __always_inline __u32 stack_weight(__u64 n)
{
	if (n < FCT_KLOCK_WARMUP)
		return 1;
	/* at a hashed place in each block, as the syscalls' timing (fctrace.h) */
	return (n & (FCT_KLOCK_EVERY - 1)) == fct_sc_offset(n / FCT_KLOCK_EVERY, FCT_KLOCK_EVERY) ?
	       FCT_KLOCK_EVERY : 0;
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
	/* bpf_get_stack zero-fills what the stack does not fill */
	if (bpf_get_stack(ctx, key.ips, sizeof(key.ips), 0) < 0) {
		__builtin_memset(key.ips, 0, sizeof(key.ips));
		__sync_fetch_and_add(&lost.stack_lost, 1);
	}
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
