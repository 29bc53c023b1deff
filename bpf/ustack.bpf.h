/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * ustack.bpf.h - a user stack for user space to unwind with CFI (Debian's
 * glibc has no frame pointers): the user registers and the top
 * FCT_USTACK_BYTES of the stack, into a struct fct_ustack reserved in the
 * `ustacks` ring. Futex waits (syscalls.bpf.c), sleeps in other syscalls
 * (bstack.bpf.h) and cpu-clock samples (cpuclock.bpf.c, --cpu-stacks)
 * send them.
 */
#ifndef FCTRACE_USTACK_BPF_H
#define FCTRACE_USTACK_BPF_H

#include "common.bpf.h"

/* The image the current process runs (every sender runs in the thread
 * whose stack it sends): a process that exec'd since user space read its
 * maps is told apart by these, not by its pid. */
static __always_inline void fct_ustack_image(struct fct_ustack *e)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	struct mm_struct *mm = BPF_CORE_READ(task, mm);

	e->start_code = mm ? BPF_CORE_READ(mm, start_code) : 0;
	e->start_stack = mm ? BPF_CORE_READ(mm, start_stack) : 0;
}

/* A record in the `ustacks` ring for thread t, its ids filled in; NULL
 * (counted as a drop) when the ring is full. */
static __always_inline struct fct_ustack *fct_ustack_reserve(const struct fct_slot *t,
							     __u64 *drops)
{
	struct fct_ustack *e = bpf_ringbuf_reserve(&ustacks, sizeof(*e), 0);

	if (!e) {
		__sync_fetch_and_add(drops, 1);
		return NULL;
	}
	e->tid = t->a.tid;
	e->tgid = t->a.tgid;
	e->ns = 0;
	fct_ustack_image(e);
	return e;
}

/* Registers in DWARF order, from the thread's saved user registers. */
static __always_inline void fct_ustack_regs(struct fct_ustack *e, struct pt_regs *regs)
{
	__builtin_memset(e->regs, 0, sizeof(e->regs));
#if defined(__TARGET_ARCH_x86)
	{
		struct pt_regs r;

		if (bpf_probe_read_kernel(&r, sizeof(r), regs))
			return;
		e->regs[0] = r.ax;  e->regs[1] = r.dx;  e->regs[2] = r.cx;  e->regs[3] = r.bx;
		e->regs[4] = r.si;  e->regs[5] = r.di;  e->regs[6] = r.bp;  e->regs[7] = r.sp;
		e->regs[8] = r.r8;  e->regs[9] = r.r9;  e->regs[10] = r.r10; e->regs[11] = r.r11;
		e->regs[12] = r.r12; e->regs[13] = r.r13; e->regs[14] = r.r14; e->regs[15] = r.r15;
		e->regs[16] = r.ip;
	}
#endif	/* other architectures: no registers, so no call site */
}

/* Registers and the stack from their rsp up. A copy that faults (the
 * stack's end is nearer than the full slice, or a page is not present)
 * is retried shorter. */
static __always_inline void fct_ustack_fill(struct fct_ustack *e, struct pt_regs *regs)
{
	__u64 sp;

	fct_ustack_regs(e, regs);
	sp = e->regs[7];
	e->stack_len = FCT_USTACK_BYTES;
	if (bpf_probe_read_user(e->stack, FCT_USTACK_BYTES, (void *)sp)) {
		e->stack_len = FCT_USTACK_BYTES / 8;
		if (bpf_probe_read_user(e->stack, FCT_USTACK_BYTES / 8, (void *)sp))
			e->stack_len = 0;
	}
}

#endif
