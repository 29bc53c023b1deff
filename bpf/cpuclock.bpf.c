// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * cpuclock.bpf.c - the user/kernel split of on-CPU time, by sampling.
 *
 * The syscall hooks only see the time between sys_enter and sys_exit;
 * the entry and exit paths, interrupts and page faults fall outside it
 * and would count as user time. A software cpu-clock event on each CPU
 * (a timer, FCT_CPUCLOCK_HZ) runs this program on the thread it
 * interrupts; the interrupted registers say whether that thread was in
 * user or kernel mode. User space splits each thread's exact on-CPU
 * time by the ratio (kview_derived). Samples inside futex waits are kept
 * apart: those waits' on-CPU time is measured exactly and booked to them.
 * A sample that lands on anything else counts the machine's other work
 * or idleness (struct fct_machine).
 */
#include "common.bpf.h"
#include "holders.bpf.h"
#include "ustack.bpf.h"

/* Was the interrupted context user mode? */
static __always_inline bool from_user(struct bpf_perf_event_data *ctx)
{
#if defined(__TARGET_ARCH_x86)
	/* cs's privilege level; the context allows only whole-word loads,
	 * and cs is a 16-bit member of a word-sized union here */
	return (*(volatile __u64 *)&ctx->regs.cs & 3) == 3;
#elif defined(__TARGET_ARCH_arm64)
	return (ctx->regs.pstate & 0xf) == 0;	/* PSR_MODE_EL0t */
#else
	return false;
#endif
}

/* The interrupted user-mode instruction (only for a user-mode sample). */
static __always_inline __u64 user_ip(struct bpf_perf_event_data *ctx)
{
#if defined(__TARGET_ARCH_x86)
	return *(volatile __u64 *)&ctx->regs.ip;
#elif defined(__TARGET_ARCH_arm64)
	return *(volatile __u64 *)&ctx->regs.pc;
#else
	return 0;
#endif
}

struct fct_machine machine = {};	/* bss: the samples of everything else */
const volatile __u32 tracer_tgid = 0;	/* rodata: fctrace itself, counted apart */
const volatile __u32 cpu_stacks = 0;	/* rodata: --cpu-stacks, send each sample's stack */

/* --cpu-stacks: the sampled thread's user stack (its user registers, saved
 * at the kernel's entry when it was in the kernel) and, in the kernel,
 * the kernel's return addresses. */
static __always_inline void cpu_stack_send(struct bpf_perf_event_data *ctx, struct fct_slot *t,
					   bool user)
{
	struct fct_ustack *e = fct_ustack_reserve(t, &lost.flame_stack_drops);

	if (!e)
		return;
	e->op = FCT_USTACK_OP_CPU;
	e->uaddr = !user;
	__builtin_memset(e->kips, 0, sizeof(e->kips));
	if (!user && bpf_get_stack(ctx, e->kips, sizeof(e->kips), 0) < 0)
		__builtin_memset(e->kips, 0, sizeof(e->kips));
	fct_ustack_fill(e, (struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf()));
	bpf_ringbuf_submit(e, 0);
}

/* preallocated: a perf_event program may not allocate */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FCT_OTHERS_ENTRIES);
	__type(key, __u32);
	__type(value, struct fct_other_val);
} other_procs SEC(".maps");

/* One sample of another process, by its tgid. */
static __always_inline void other_sample(__u32 tgid)
{
	struct fct_other_val *v = bpf_map_lookup_elem(&other_procs, &tgid), z = {};

	if (!v) {
		bpf_get_current_comm(z.comm, sizeof(z.comm));
		bpf_map_update_elem(&other_procs, &tgid, &z, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&other_procs, &tgid);
	}
	if (v)
		__sync_fetch_and_add(&v->samples, 1);
	else
		__sync_fetch_and_add(&machine.others_full, 1);
}

/* A sample that found no traced thread: idle, fctrace, or other work. */
static __always_inline void machine_sample(void)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();

	/* two CPUs may add at once: atomic, at ~1 kHz per CPU */
	if ((__u32)pid_tgid == 0)
		__sync_fetch_and_add(&machine.idle, 1);
	else if (tracer_tgid && pid_tgid >> 32 == tracer_tgid)
		__sync_fetch_and_add(&machine.tracer, 1);
	else {
		__sync_fetch_and_add(&machine.other, 1);
		other_sample(pid_tgid >> 32);
	}
}

SEC("perf_event")
int fct_cpu_sample(struct bpf_perf_event_data *ctx)
{
	struct fct_slot *t = fct_current_slot();
	bool user;

	if (!t) {
		if (enabled)
			machine_sample();
		return 0;
	}
	/* read once: the verifier refuses a second, offset, ctx access */
	user = from_user(ctx);
	if (t->in_futex_wait)
		t->a.cpu_samples_futex++;
	else if (user)
		t->a.cpu_samples_user++;
	else
		t->a.cpu_samples_sys++;
	/* a holder of a watched user lock (holders.bpf.h): one global
	 * load unless some lock is watched */
	fct_hold_sample(t, user, user ? user_ip(ctx) : 0);
	if (cpu_stacks && enabled && !t->in_futex_wait)
		cpu_stack_send(ctx, t, user);
	return 0;
}
