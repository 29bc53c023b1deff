// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * floor.bpf.c - the cost floor of fctrace's hooks (`--probes floor`,
 * hidden; `make bench` uses it): the same hook points as the full set,
 * each with a trivial program - the window and tgid filters and one
 * per-CPU counter. Whatever full costs above this is fctrace's own work;
 * this much is the price of the hooks themselves on this kernel.
 *
 * Every program is optional ("?"): it loads only when the floor set is
 * selected, never beside the real programs.
 */
#include "common.bpf.h"

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, FCT_FL_N);
	__type(key, __u32);
	__type(value, __u64);
} floor_hits SEC(".maps");

/* One hit of hook h (the lookup is inlined: no helper call). */
static __always_inline void hit(__u32 h)
{
	__u64 *n = bpf_map_lookup_elem(&floor_hits, &h);

	if (n)
		*n += 1;
}

static __always_inline void hit_current(__u32 h)
{
	if (enabled && fct_is_target(bpf_get_current_pid_tgid()))
		hit(h);
}

static __always_inline void hit_task(__u32 h, struct task_struct *p)
{
	if (enabled && p->tgid == target_tgid)
		hit(h);
}

SEC("?tp_btf/sys_enter")
int BPF_PROG(fct_floor_sys_enter, struct pt_regs *regs, long id)
{
	hit_current(FCT_FL_SYS_ENTER);
	return 0;
}

SEC("?tp_btf/sys_exit")
int BPF_PROG(fct_floor_sys_exit, struct pt_regs *regs, long ret)
{
	hit_current(FCT_FL_SYS_EXIT);
	return 0;
}

SEC("?tp_btf/sched_switch")
int BPF_PROG(fct_floor_sched_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next, unsigned int prev_state)
{
	if (enabled && (prev->tgid == target_tgid || next->tgid == target_tgid))
		hit(FCT_FL_SCHED_SWITCH);
	return 0;
}

SEC("?tp_btf/sched_wakeup")
int BPF_PROG(fct_floor_sched_wakeup, struct task_struct *p)
{
	hit_task(FCT_FL_SCHED_WAKEUP, p);
	return 0;
}

SEC("?tp_btf/sched_wakeup_new")
int BPF_PROG(fct_floor_sched_wakeup_new, struct task_struct *p)
{
	hit_task(FCT_FL_SCHED_WAKEUP, p);
	return 0;
}

/* full's wakers.bpf.c (sched_waking in the waker's context) */
SEC("?tp_btf/sched_waking")
int BPF_PROG(fct_floor_sched_waking, struct task_struct *p)
{
	hit_task(FCT_FL_SCHED_WAKEUP, p);
	return 0;
}

SEC("?tp_btf/contention_begin")
int BPF_PROG(fct_floor_contention_begin, void *lock, unsigned int flags)
{
	hit_current(FCT_FL_CONTENTION);
	return 0;
}

SEC("?tp_btf/contention_end")
int BPF_PROG(fct_floor_contention_end, void *lock, int ret)
{
	hit_current(FCT_FL_CONTENTION);
	return 0;
}

SEC("?tp_btf/mm_filemap_add_to_page_cache")
int BPF_PROG(fct_floor_pc_add, struct folio *folio)
{
	hit_current(FCT_FL_PC_ADD);
	return 0;
}

/* every removal on the machine fires it, whoever removes: only the
 * window is checked */
SEC("?tp_btf/mm_filemap_delete_from_page_cache")
int BPF_PROG(fct_floor_pc_remove, struct folio *folio)
{
	if (enabled)
		hit(FCT_FL_PC_REMOVE);
	return 0;
}

/* the disk group's hooks: the submitter's context at block_io_start; the
 * others run for every request on the machine, whoever made it, as the
 * real ones do (the device view) */
SEC("?tp_btf/block_io_start")
int BPF_PROG(fct_floor_disk_start, struct bio *bio)
{
	hit_current(FCT_FL_DISK);
	return 0;
}

SEC("?tp_btf/block_rq_issue")
int BPF_PROG(fct_floor_disk_issue, struct request *rq)
{
	if (enabled)
		hit(FCT_FL_DISK);
	return 0;
}

SEC("?tp_btf/block_rq_complete")
int BPF_PROG(fct_floor_disk_complete, struct request *rq, blk_status_t error,
	     unsigned int nr_bytes)
{
	if (enabled)
		hit(FCT_FL_DISK);
	return 0;
}

SEC("?tp_btf/block_rq_merge")
int BPF_PROG(fct_floor_disk_merge, struct request *rq)
{
	if (enabled)
		hit(FCT_FL_DISK);
	return 0;
}

SEC("?perf_event")
int fct_floor_cpu_sample(struct bpf_perf_event_data *ctx)
{
	hit_current(FCT_FL_CPU_SAMPLE);
	return 0;
}

SEC("?uprobe")
int BPF_KPROBE(fct_floor_mark_begin, __u64 now_ns, unsigned int index)
{
	hit_current(FCT_FL_MARKS);
	return 0;
}

SEC("?uprobe")
int BPF_KPROBE(fct_floor_mark_end, __u64 now_ns, unsigned int index)
{
	if (fct_is_target(bpf_get_current_pid_tgid()))	/* like fct_mark_end */
		hit(FCT_FL_MARKS);
	return 0;
}
