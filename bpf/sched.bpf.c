// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * sched.bpf.c - the scheduler edges of the time account.
 *
 * sched_switch moves the outgoing thread to RUNNABLE (preempted or
 * yielded: involuntary) or BLOCKED (went to sleep: voluntary) and the
 * incoming one to RUNNING; sched_wakeup moves a BLOCKED thread to
 * RUNNABLE. Each edge first charges the elapsed interval (fct_charge).
 * Without the syscall hooks (light mode) no futex wait is ever seen, so
 * blocked_ns holds all sleep and runq_ns all run-queue time.
 * With the timeline window open (tl_on) each edge is also recorded, and
 * with holders_on a holder's off-CPU segments (holders.bpf.h), and with
 * blocked_stacks a sampled sleep's kernel stack (bstack.bpf.h).
 */
#include "common.bpf.h"
#include "holders.bpf.h"
#include "bstack.bpf.h"

static __always_inline struct fct_slot *task_slot(struct task_struct *p)
{
	return fct_target_slot(p->tgid, p->pid);
}

SEC("tp_btf/sched_switch")
int BPF_PROG(fct_sched_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next, unsigned int prev_state)
{
	struct fct_slot *t, *tn;
	__u64 now = 0;

	if (!enabled)
		return 0;
	t = task_slot(prev);
	if (t) {
		now = bpf_ktime_get_ns();
		fct_charge(t, now);
		if (!preempt && prev_state != 0) {	/* TASK_RUNNING == 0 */
			t->st_state = FCT_ST_BLOCKED;
			t->st_sleep = fct_sleep_kind(prev_state);
			t->a.vol_switches++;
			fct_bstack_out(t, now);
		} else {
			t->st_state = FCT_ST_RUNNABLE;
			t->a.invol_switches++;
		}
	}
	tn = task_slot(next);
	if (tn) {
		if (!now)
			now = bpf_ktime_get_ns();
		fct_charge(tn, now);
		fct_bstack_woken(tn, next, now);
		tn->st_state = FCT_ST_RUNNING;
	}
	if (holders_on)
		fct_hold_switch(t, prev, preempt, prev_state, tn, now);
	if (tl_on) {
		if (t)
			fct_tl_emit(t, now, FCT_TL_SWITCH_OUT, t->st_state, 0);
		if (tn)
			fct_tl_emit(tn, now, FCT_TL_SWITCH_IN, 0, 0);
	}
	return 0;
}

static __always_inline void on_wakeup(struct task_struct *p)
{
	struct fct_slot *t;
	__u64 now;

	if (!enabled)
		return;
	t = task_slot(p);
	if (t && t->st_state == FCT_ST_BLOCKED) {
		now = bpf_ktime_get_ns();
		fct_charge(t, now);
		fct_bstack_woken(t, p, now);
		t->st_state = FCT_ST_RUNNABLE;
		if (tl_on)
			fct_tl_emit(t, now, FCT_TL_WAKEUP, (__u32)bpf_get_current_pid_tgid(), 0);
	}
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(fct_sched_wakeup, struct task_struct *p)
{
	on_wakeup(p);
	return 0;
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(fct_sched_wakeup_new, struct task_struct *p)
{
	on_wakeup(p);
	return 0;
}
