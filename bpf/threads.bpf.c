// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * threads.bpf.c - the thread slots and the begin/end marks.
 *
 * A worker calls fctrace_thread_begin(now_ns, index) when its measured
 * window opens and fctrace_thread_end(now_ns, index) when it closes; the
 * uprobes here claim its slot and close its account on those instants.
 */
#include "common.bpf.h"

/* Claim a free slot for tid: begin_ns starts the account, RUNNING. */
static __always_inline void slot_begin(__u32 tid, __u64 now)
{
	struct fct_thread *t;
	__u32 k;

#pragma unroll
	for (int i = 0; i < FCT_SLOT_PROBES; i++) {
		k = (tid + i) & (FCT_MAX_SLOTS - 1);
		t = bpf_map_lookup_elem(&slots, &k);
		if (!t)
			return;
		if (t->tid == tid && t->active)
			return;		/* begun twice: keep the first */
		if (t->tid == 0 && __sync_val_compare_and_swap(&t->tid, 0, tid) == 0) {
			t->begin_ns = now;
			t->st_since_ns = now;
			t->st_state = FCT_ST_RUNNING;
			t->active = 1;
			return;
		}
	}
	__sync_fetch_and_add(&lost.slot_full, 1);
}

SEC("uprobe")
int BPF_KPROBE(fct_mark_begin, __u64 now_ns, unsigned int index)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();

	if (!enabled || !fct_is_target(pid_tgid))
		return 0;
	slot_begin((__u32)pid_tgid, now_ns);
	return 0;
}

/* The end mark closes the account even after the window closed. */
SEC("uprobe")
int BPF_KPROBE(fct_mark_end, __u64 now_ns, unsigned int index)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct fct_thread *t;

	if (!fct_is_target(pid_tgid))
		return 0;
	t = fct_slot((__u32)pid_tgid);
	if (!t)
		return 0;
	if (t->st_since_ns > now_ns)	/* preempted after reading its clock */
		fct_uncharge_after(t, now_ns);
	else
		fct_charge(t, now_ns);
	t->end_ns = now_ns;
	t->active = 0;
	return 0;
}
