/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * holders.bpf.h - the watched user locks (holders.bpf.c) as the hooks
 * that charge their holders see them: the `holds` map, the run's
 * counters, and "which watched lock does this thread hold now".
 *
 * The owner test reads glibc's pthread_mutex_t.__owner, which the owner
 * writes itself in user space, just after it took the word and just
 * before it lets it go: owner == tid means "inside its critical
 * section", give or take those few instructions. The read is of the
 * current task's memory, so it is made only where current is the thread
 * (its syscall entry and exit, its switch out, a sample on it).
 */
#ifndef FCTRACE_HOLDERS_BPF_H
#define FCTRACE_HOLDERS_BPF_H

#include "common.bpf.h"

struct fct_holds_map {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, FCT_HOLD_LOCKS);
	__type(key, __u32);
	__type(value, struct fct_hold_lock);
};

extern struct fct_holds_map holds SEC(".maps");
extern struct fct_hold_global hold_global;	/* bss */

/* The segment's code: how the holder went off CPU, and whether inside
 * a syscall begun holding the lock. */
#define HOLD_OFF_IN_SC	4
#define HOLD_OFF_EDGE	8	/* on a charged syscall's way back to user space */

/* Is ip the instruction after a syscall instruction? A cpu-clock
 * interrupt that came due in a syscall's exit path, where interrupts are
 * off, is taken there, in user mode. */
static __always_inline bool fct_after_syscall(__u64 ip)
{
#if defined(__TARGET_ARCH_x86)
	__u8 insn[2] = {};

	if (ip < 2 || bpf_probe_read_user(insn, sizeof(insn), (void *)(ip - 2)))
		return false;
	return insn[0] == 0x0f && insn[1] == 0x05;	/* syscall */
#else
	return false;
#endif
}

/* The first watched lock of t's process that t owns now: its slot, or
 * -1. One user read per watched word of the process; current must be t. */
static __always_inline int fct_hold_owned(const struct fct_slot *t)
{
	struct fct_hold_lock *h;
	int found = -1;
	__s32 owner;

#pragma unroll
	for (__u32 i = 0; i < FCT_HOLD_LOCKS; i++) {
		__u32 k = i;

		h = bpf_map_lookup_elem(&holds, &k);
		if (!h || !h->uaddr)
			break;		/* slots are taken in order */
		if (h->tgid != t->a.tgid)
			continue;
		if (bpf_probe_read_user(&owner, sizeof(owner),
					(void *)(h->uaddr + FCT_HOLD_OWNER_OFF))) {
			__sync_fetch_and_add(&hold_global.read_faults, 1);
			continue;
		}
		if ((__u32)owner != t->a.tid)
			continue;
		if (found >= 0) {
			__sync_fetch_and_add(&h->nested, 1);
			continue;
		}
		found = i;
	}
	return found;
}

/* A cpu-clock sample that found t on CPU (cpuclock.bpf.c): in a syscall
 * begun holding a lock it is part of that syscall's exact time; else,
 * if t owns a watched lock, a sample of its on-CPU time holding it. A
 * kernel-mode sample inside a syscall begun not holding one cannot be
 * holding one (only user space takes a mutex): no read. ip: the user
 * mode sample's instruction (a syscall's return point or not). */
static __always_inline void fct_hold_sample(const struct fct_slot *t, bool user, __u64 ip)
{
	struct fct_hold_lock *h;
	struct fct_hold_time *s;
	__u32 k, n;
	int i;

	if (!hold_global.nwatched)
		return;
	if (t->hold_sc) {
		k = t->hold_sc - 1;
		h = bpf_map_lookup_elem(&holds, &k);
		if (h)
			__sync_fetch_and_add(&h->samples_in_sc, 1);
		return;
	}
	if (!user && t->hold_in_sc)
		return;
	i = fct_hold_owned(t);
	if (i < 0)
		return;
	k = i;
	h = bpf_map_lookup_elem(&holds, &k);
	if (!h)
		return;
	n = h->waiters;
	if (!user)
		s = &h->samples_kernel;
	else if (fct_after_syscall(ip))
		s = &h->samples_sc_return;
	else
		s = &h->samples_user;
	__sync_fetch_and_add(&s->ns, 1);
	if (n) {
		__sync_fetch_and_add(&s->contended_ns, 1);
		__sync_fetch_and_add(&s->waiter_ns, n);
	}
}

#endif /* FCTRACE_HOLDERS_BPF_H */
