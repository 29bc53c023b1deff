/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * bstack.bpf.h - the stacks of sleeps inside syscalls (disk reads, pipe
 * and socket reads, poll ...; not futex waits, whose user stacks
 * syscalls.bpf.c sends): for the wait flame graph's "[blocked in NR]".
 *
 * Each sleep's blocked time is measured from the switch out to the
 * wake-up (the intervals the account charges to blocked_ns); a call is
 * sampled in proportion to its blocked time (FCT_BSTACK_NS), the kernel
 * stack walked at the wake-up that decides it (the sleeper's own stack,
 * the syscall down to schedule), and sent at its exit with the user
 * stack, which the sleep left as it was at the entry. User space scales
 * the samples of a (thread, syscall) to its exact blocked time
 * (waitstacks.c).
 */
#ifndef FCTRACE_BSTACK_BPF_H
#define FCTRACE_BSTACK_BPF_H

#include "common.bpf.h"
#include "sysnr.bpf.h"
#include "ustack.bpf.h"

/* sched_switch: t goes to sleep (blocked, not preempted) at now. A
 * call's first sleep draws its threshold: the call is sampled once its
 * blocked time reaches it, so with probability min(1, d / T). T is
 * FCT_BSTACK_NS, and for a call that waits for input or time (epoll_wait,
 * poll, nanosleep ...) it doubles for every FCT_BSTACK_DOUBLE such samples
 * the thread has sent: a server's thread asleep in epoll_wait thousands
 * of times a second sends its first stacks at once, then fewer and fewer
 * (PostgreSQL behind pgbouncer: 29.6 k dropped in 10 s, and fctrace at
 * 41 % of the CPUs unwinding them). The other calls' threshold doubles
 * too, more slowly and less far (FCT_BSTACK_IO_DOUBLE): a database's
 * disk reads each passed 200 us.
 * User space scales each (thread, syscall)'s samples to its exact blocked
 * time, so the totals stay exact. */
static __always_inline __u32 bstack_threshold(const struct fct_slot *t, __u32 nr)
{
	bool idle = fct_idle_call(nr);
	__u32 shift = idle ? t->bs_sent / FCT_BSTACK_DOUBLE : t->bs_sent_io / FCT_BSTACK_IO_DOUBLE;
	__u32 most = idle ? FCT_BSTACK_SHIFT_MAX : FCT_BSTACK_IO_SHIFT_MAX;

	return (__u32)FCT_BSTACK_NS << (shift < most ? shift : most);
}

static __always_inline void fct_bstack_out(struct fct_slot *t, __u64 now)
{
	if (!blocked_stacks || !t->in_syscall || t->in_futex_wait)
		return;
	if (!t->bs_pending) {
		t->bs_pending = 1;
		t->bs_have = 0;
		t->bs_nr = t->in_nr;
		t->bs_ns = 0;
		t->bs_u = bpf_get_prandom_u32() % bstack_threshold(t, t->bs_nr);
	}
	t->bs_open = 1;
	t->bs_out_ns = now;
}

/* A sleep of t's call ends at now: woken (or, no wake-up seen, switched
 * in). p is t's task, still in schedule(): if this sleep crosses the
 * threshold, its kernel stack is the sample's (a walk costs microseconds:
 * only sampled calls pay it). */
static __always_inline void fct_bstack_woken(struct fct_slot *t, struct task_struct *p,
					     __u64 now)
{
	if (!t->bs_open)
		return;
	t->bs_open = 0;
	t->bs_ns += now - t->bs_out_ns;
	if (t->bs_have || t->bs_ns < t->bs_u)
		return;
	t->bs_have = 1;
	/* bpf_get_task_stack zero-fills what the stack does not fill */
	if (bpf_get_task_stack(p, t->bs_kips, sizeof(t->bs_kips), 0) < 0)
		__builtin_memset(t->bs_kips, 0, sizeof(t->bs_kips));
}

/* sys_enter: a sample left over from a call whose exit was not seen. */
static __always_inline void fct_bstack_enter(struct fct_slot *t)
{
	t->bs_pending = 0;
	t->bs_open = 0;
}

/* sys_exit: send a sampled call with its user stack, and what it stands
 * for: max(its blocked time, the threshold it was drawn under) - the
 * thread has sent no other since, so the threshold is the same. */
static __always_inline void fct_bstack_exit(struct fct_slot *t, struct pt_regs *regs)
{
	struct fct_ustack *e;
	__u64 th;

	if (!t->bs_pending)
		return;
	t->bs_pending = 0;
	t->bs_open = 0;
	if (!t->bs_have)
		return;		/* not sampled */
	e = fct_ustack_reserve(t, &lost.flame_stack_drops);
	if (!e)
		return;
	e->op = FCT_USTACK_OP_BLOCKED;
	e->uaddr = t->bs_nr;
	th = bstack_threshold(t, t->bs_nr);
	e->ns = t->bs_ns > th ? t->bs_ns : th;
	__builtin_memcpy(e->kips, t->bs_kips, sizeof(e->kips));
	fct_ustack_fill(e, regs);
	bpf_ringbuf_submit(e, 0);
	if (fct_idle_call(t->bs_nr))
		t->bs_sent++;
	else
		t->bs_sent_io++;
}

#endif
