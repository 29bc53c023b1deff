/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * sysnr.bpf.h - syscall numbers per architecture, the futex calls and
 * the futex ops, shared by the syscall hooks and the attach-time iterator
 * (which adopts a wait in progress).
 */
#ifndef FCTRACE_SYSNR_BPF_H
#define FCTRACE_SYSNR_BPF_H

#include "common.bpf.h"

#if defined(__TARGET_ARCH_x86)
#define NR_CLOSE	3
#define NR_PREAD64	17
#define NR_FUTEX	202
#define NR_OPENAT	257
#define NR_NEWFSTATAT	262
#define NR_STATX	332
#define NR_FUTEX_WAITV	449
#define NR_URETPROBE	335	/* the trap a uretprobe's trampoline makes (6.11+) */
#define NR_WRITE	1
#define NR_PWRITE64	18
#define NR_WRITEV	20
#define NR_FALLOCATE	285
#define NR_PWRITEV	296
#define NR_PWRITEV2	328
#define NR_SENDTO	44
#define NR_SENDMSG	46
#define NR_KILL		62
#define NR_RT_SIGQUEUEINFO	129
#define NR_TKILL	200
#define NR_TGKILL	234
#define NR_RT_TGSIGQUEUEINFO	297
#define NR_PIDFD_SEND_SIGNAL	424
/* the calls that wait for input or time (user/join/join.c's idle calls) */
#define IDLE_CALLS(nr)	((nr) == 35 || (nr) == 230 || (nr) == 232 || (nr) == 281 || \
			 (nr) == 441 || (nr) == 7 || (nr) == 271 || (nr) == 23 || \
			 (nr) == 270 || (nr) == 130 || (nr) == 128 || (nr) == 34 || \
			 (nr) == 61 || (nr) == 247)
#elif defined(__TARGET_ARCH_arm64)
#define NR_OPENAT	56
#define NR_CLOSE	57
#define NR_PREAD64	67
#define NR_NEWFSTATAT	79
#define NR_FUTEX	98
#define NR_STATX	291
#define NR_FUTEX_WAITV	449
#define NR_URETPROBE	-1	/* none: uretprobes trap without a syscall here */
#define NR_FALLOCATE	47
#define NR_WRITE	64
#define NR_WRITEV	66
#define NR_PWRITE64	68
#define NR_PWRITEV	70
#define NR_PWRITEV2	287
#define NR_SENDTO	206
#define NR_SENDMSG	211
#define NR_KILL		129
#define NR_TKILL	130
#define NR_TGKILL	131
#define NR_RT_SIGQUEUEINFO	138
#define NR_RT_TGSIGQUEUEINFO	240
#define NR_PIDFD_SEND_SIGNAL	424
#define IDLE_CALLS(nr)	((nr) == 101 || (nr) == 115 || (nr) == 22 || (nr) == 441 || \
			 (nr) == 73 || (nr) == 72 || (nr) == 133 || (nr) == 137 || \
			 (nr) == 260 || (nr) == 95)
#else
#error "fctrace: syscall numbers unknown for this architecture"
#endif

/* Does syscall nr wait for input or time (epoll_wait, poll, nanosleep,
 * wait4 ...)? */
static __always_inline bool fct_idle_call(__u32 nr)
{
	return IDLE_CALLS(nr);
}

/* futex(2) ops (uapi linux/futex.h, which vmlinux.h does not carry):
 * the ones that can put the caller to sleep, and the mask that drops
 * FUTEX_PRIVATE_FLAG (128) and FUTEX_CLOCK_REALTIME (256) */
#define FUTEX_OP_MASK		0x7f
#define FUTEX_WAIT		0
#define FUTEX_WAKE		1
#define FUTEX_LOCK_PI		6
#define FUTEX_WAIT_BITSET	9
#define FUTEX_WAIT_REQUEUE_PI	11
#define FUTEX_LOCK_PI2		13

/* Is this number a futex call (its waits are all timed, by word)? */
static __always_inline bool sc_is_futex(long id)
{
	return id == NR_FUTEX || id == NR_FUTEX_WAITV;
}

/* Syscalls that add page-cache pages for data being written (new pages,
 * not reads that missed): a page added inside one is not a miss. */
static __always_inline bool sc_writes_file(__u32 nr)
{
	switch (nr) {
	case NR_WRITE: case NR_PWRITE64: case NR_WRITEV:
	case NR_PWRITEV: case NR_PWRITEV2: case NR_FALLOCATE:
		return true;
	default:
		return false;
	}
}

#define FUTEX_REQUEUE		3
#define FUTEX_CMP_REQUEUE	4
#define FUTEX_WAKE_OP		5
#define FUTEX_UNLOCK_PI		7
#define FUTEX_WAKE_BITSET	10

/* futex ops that wake waiters on their first word: who passes a word
 * to whom (a lock's unlock, a condvar's signal) */
static __always_inline bool futex_op_wakes(__u32 op)
{
	return op == FUTEX_WAKE || op == FUTEX_WAKE_BITSET || op == FUTEX_WAKE_OP ||
	       op == FUTEX_REQUEUE || op == FUTEX_CMP_REQUEUE || op == FUTEX_UNLOCK_PI;
}

/* A wake that may wake every waiter: a broadcast (pthread_cond_broadcast
 * wakes INT_MAX; older glibc requeued the rest), not one item given back
 * (sem_post, pthread_cond_signal, an unlock and an unpark wake one). */
#define FCT_WAKE_ALL	2
static __always_inline bool futex_wakes_all(__u32 op, __u64 nr_wake)
{
	return op == FUTEX_REQUEUE || op == FUTEX_CMP_REQUEUE || (__u32)nr_wake > 1;
}

/* futex ops that put the caller to sleep, private or shared */
static __always_inline bool futex_op_waits(__u32 op)
{
	return op == FUTEX_WAIT || op == FUTEX_WAIT_BITSET || op == FUTEX_LOCK_PI ||
	       op == FUTEX_LOCK_PI2 || op == FUTEX_WAIT_REQUEUE_PI;
}

/* A thread found asleep at attach, inside a syscall: book that call as
 * sys_enter would have, timed from now on; false if not in a syscall. */
static __always_inline bool fct_adopt_syscall(struct fct_slot *t, struct pt_regs *regs)
{
#if defined(__TARGET_ARCH_x86)
	long nr = regs->orig_ax;
	__u64 uaddr = regs->di, op = regs->si & FUTEX_OP_MASK;
#elif defined(__TARGET_ARCH_arm64)
	long nr = regs->syscallno;
	__u64 uaddr = regs->orig_x0, op = regs->regs[1] & FUTEX_OP_MASK;
#endif
	struct fct_nr_stats *s;

	if (nr < 0)
		return false;
	/* any call it sleeps in is counted (its exit falls in the window),
	 * and its sleep from now on booked to its number */
	t->in_syscall = 1;
	t->in_nr = nr & (FCT_NR_MAX - 1);
	if ((s = fct_nr_of(t, t->in_nr)))
		s->count++;
	t->sc_weight = 1;
	if (nr != NR_FUTEX || !futex_op_waits(op))
		return true;
	t->futex_op = op;
	t->futex_uaddr = uaddr;
	t->in_futex_wait = 1;
	return true;
}

#endif /* FCTRACE_SYSNR_BPF_H */
