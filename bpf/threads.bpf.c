// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * threads.bpf.c - where each thread's account begins and ends.
 *
 * fctrace's own workers mark their windows: fctrace_thread_begin(now_ns,
 * index) and fctrace_thread_end(now_ns, index), uprobes here. Any other
 * program is followed through its life instead: its exec, each thread
 * it creates (and with --follow each process), each exit; a process
 * already running is taken over by a task iterator at attach, and every
 * account still open is closed by one syscall program at the end.
 */
#include "common.bpf.h"
#include "sysnr.bpf.h"

#define TASK_RUNNING	0

/* The account of tid starts in slot t at now in state st. */
static __always_inline struct fct_slot *slot_start(struct fct_slot *t, __u32 tgid, __u64 now,
						    __u32 st, __u32 how)
{
	__sync_fetch_and_add(&slots_claimed, 1);
	t->a.tgid = tgid;
	t->a.begin_ns = now;
	t->a.how = how;
	t->st_since_ns = now;
	t->st_state = st;
	t->active = 1;
	return t;
}

/* Claim a free slot for tid: the account starts at now in state st.
 * NULL if tid has a slot already (the first one is kept) or none is free.
 * A never-used slot ends the chain and is claimed at once; a recycled one
 * only after the walk, since tid may have an open account past it. A
 * claim lost to another CPU walks on. */
static __always_inline struct fct_slot *slot_begin(__u32 tid, __u32 tgid, __u64 now,
						    __u32 st, __u32 how)
{
	struct fct_slot *t, *room = NULL;
	__u32 k, cur;

#pragma unroll
	for (int i = 0; i < FCT_SLOT_PROBES; i++) {
		k = (tid + i) & slot_mask;
		t = bpf_map_lookup_elem(&slots, &k);
		if (!t)
			break;
		cur = t->a.tid;
		if (cur == tid && t->active)
			return NULL;		/* begun twice: keep the first */
		if (cur == FCT_TID_RECYCLED) {
			if (!room)
				room = t;
			continue;
		}
		if (cur)
			continue;
		if (room)
			break;
		if (__sync_val_compare_and_swap(&t->a.tid, 0, tid) == 0)
			return slot_start(t, tgid, now, st, how);
	}
	if (room && __sync_val_compare_and_swap(&room->a.tid, FCT_TID_RECYCLED, tid) ==
		    FCT_TID_RECYCLED)
		return slot_start(room, tgid, now, st, how);
	__sync_fetch_and_add(&lost.slot_full, 1);
	return NULL;
}

/* Close an account at now: the last interval charged, the name kept. */
static __always_inline void slot_end(struct fct_slot *t, __u64 now, __u32 how,
				     struct task_struct *task)
{
	fct_charge(t, now);
	t->a.end_ns = now;
	t->a.how |= how;
	if (task)
		bpf_probe_read_kernel_str(t->a.comm, sizeof(t->a.comm), task->comm);
	t->active = 0;
}

SEC("uprobe")
int BPF_KPROBE(fct_mark_begin, __u64 now_ns, unsigned int index)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();

	if (!enabled || !fct_is_target(pid_tgid))
		return 0;
	slot_begin((__u32)pid_tgid, pid_tgid >> 32, now_ns, FCT_ST_RUNNING, FCT_HOW_MARK);
	return 0;
}

/* The end mark closes the account even after the window closed. */
SEC("uprobe")
int BPF_KPROBE(fct_mark_end, __u64 now_ns, unsigned int index)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct fct_slot *t;

	if (!fct_is_target(pid_tgid))
		return 0;
	t = fct_slot((__u32)pid_tgid);
	if (!t)
		return 0;
	if (t->st_since_ns > now_ns)	/* preempted after reading its clock */
		fct_uncharge_after(t, now_ns);
	else
		fct_charge(t, now_ns);
	t->a.end_ns = now_ns;
	t->active = 0;
	return 0;
}

/* The target's exec opens the window of its first thread. */
SEC("tp_btf/sched_process_exec")
int BPF_PROG(fct_proc_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	if (!enabled || !fct_is_target_tgid(p->tgid))
		return 0;
	slot_begin(p->pid, p->tgid, bpf_ktime_get_ns(), FCT_ST_RUNNING, FCT_HOW_EXEC);
	return 0;
}

/* A new thread of the target, or (--follow) a new process it forked:
 * the account starts now, asleep until sched_wakeup_new makes it
 * runnable a moment later. */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(fct_proc_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 tgid = child->tgid, one = 1;

	if (!enabled || !fct_is_target_tgid(parent->tgid))
		return 0;
	if (tgid != parent->tgid) {
		if (!follow_forks)
			return 0;
		/* a process the table has no room for is not followed at all:
		 * a slot would see none of its events and book it asleep */
		if (bpf_map_update_elem(&tgids, &tgid, &one, BPF_ANY)) {
			__sync_fetch_and_add(&lost.tgids_full, 1);
			return 0;
		}
	}
	slot_begin(child->pid, tgid, bpf_ktime_get_ns(), FCT_ST_BLOCKED, FCT_HOW_FORK);
	return 0;
}

/* A followed or listed process's last thread has exited: its entry in
 * the process table is free for the next fork (and its pid, if reused,
 * is not traced). */
static __always_inline void forget_process(__u32 tgid)
{
	if ((follow_forks || tgid_list) && tgid != target_tgid)
		bpf_map_delete_elem(&tgids, &tgid);
}

/* A thread's exit closes its account (after the window closed too). */
SEC("tp_btf/sched_process_exit")
int BPF_PROG(fct_proc_exit, struct task_struct *p, bool group_dead)
{
	struct fct_slot *t;

	if (!fct_is_target_tgid(p->tgid))
		return 0;
	t = fct_slot(p->pid);
	if (t)
		slot_end(t, bpf_ktime_get_ns(), FCT_HOW_EXITED, p);
	if (group_dead)
		forget_process(p->tgid);
	return 0;
}

/* A thread found at attach: its state now, and if it sleeps in a
 * syscall (a futex wait, a read ...), that call from now on: its number
 * and arguments are in its saved user registers. */
static __always_inline void adopt(struct task_struct *task, __u64 now)
{
	struct pt_regs *regs;
	struct fct_slot *t;
	__u32 st = FCT_ST_BLOCKED;

	if (task->on_cpu)
		st = FCT_ST_RUNNING;
	else if (task->__state == TASK_RUNNING)
		st = FCT_ST_RUNNABLE;
	t = slot_begin(task->pid, task->tgid, now, st, FCT_HOW_ATTACH);
	if (!t || st == FCT_ST_RUNNING)
		return;
	if (st == FCT_ST_BLOCKED)
		t->st_sleep = fct_sleep_kind(task->__state);
	regs = (struct pt_regs *)bpf_task_pt_regs(task);
	if (!regs || !fct_adopt_syscall(t, regs))
		return;
	if (t->in_futex_wait)
		t->a.how |= FCT_HOW_IN_FUTEX;
	t->sc_enter_ns = now;
	t->sc_off_mark = 0;
	t->sc_runq_mark = 0;
}

SEC("iter/task")
int fct_adopt_threads(struct bpf_iter__task *ctx)
{
	struct task_struct *task = ctx->task;

	if (!task || !fct_is_target_tgid(task->tgid))
		return 0;
	if (task->exit_state)	/* a zombie leader: its live threads are traced */
		return 0;
	adopt(task, bpf_ktime_get_ns());
	return 0;
}

/* Close every account still open at now (the window has closed; the
 * threads live on). Run once by user space with BPF_PROG_TEST_RUN. */
static long close_one(__u32 k, void *ctx)
{
	struct fct_slot *t = bpf_map_lookup_elem(&slots, &k);

	if (t && t->active)
		slot_end(t, *(__u64 *)ctx, FCT_HOW_CLOSED, NULL);
	return 0;
}

SEC("syscall")
int fct_close_all(void *ctx)
{
	__u64 now = bpf_ktime_get_ns();

	bpf_loop(slot_mask + 1, close_one, &now, 0);
	return 0;
}
