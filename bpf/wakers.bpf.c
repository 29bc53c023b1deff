// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * wakers.bpf.c - who ended a sleep, across the traced processes.
 *
 * A server made of processes has its workers wait for each other
 * without futexes: PostgreSQL's latch is an epoll_wait on a self-pipe,
 * ended by another backend's kill(). sched_waking fires in the waker's
 * context (sched_wakeup may fire on the wakee's CPU), so the waker is
 * the current thread: when it is a thread of another traced process,
 * inside a kill or a write, and the woken thread sleeps in a syscall
 * other than a futex wait, the sleep is booked to the wakee as a wait
 * for a sibling, and the wake to the waker. A waker in user mode or in
 * another syscall (a timer or a packet interrupting it) books nothing.
 * A write by a process running another program (another executable: a
 * proxy in front of its server's backends) is a request handed over,
 * not a sibling's latch: it is booked apart (FCT_WAKE_REQUEST).
 */
#include "common.bpf.h"
#include "sysnr.bpf.h"

/* the sleeps ended, by waker, kind and the waker's call before the wake */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, FCT_SIB_AFTER_ENTRIES);
	__type(key, struct fct_sib_after_key);
	__type(value, struct fct_sib_after_val);
} sib_after SEC(".maps");

static __always_inline void sib_after_record(const struct fct_slot *w, __u32 by, __u64 slept,
					     __u32 wakee)
{
	static const struct fct_sib_after_val zero = {};
	struct fct_sib_after_key key = { .tid = w->a.tid, .nr = w->cause_nr, .by = by,
					 .wakee = wakee };
	struct fct_sib_after_val *v = fct_hash_entry(&sib_after, &key, &zero,
						     &lost.wake_after_full);

	if (!v)
		return;
	v->wakes++;
	v->wait_ns += slept;
}

/* The kind of wake a waker's current syscall makes, or FCT_WAKE_N. */
static __always_inline __u32 wake_by(__u32 nr)
{
	switch (nr) {
	case NR_KILL: case NR_TKILL: case NR_TGKILL: case NR_RT_SIGQUEUEINFO:
	case NR_RT_TGSIGQUEUEINFO: case NR_PIDFD_SEND_SIGNAL:
		return FCT_WAKE_SIGNAL;
	case NR_WRITE: case NR_WRITEV: case NR_SENDTO: case NR_SENDMSG:
		return FCT_WAKE_WRITE;
	}
	return FCT_WAKE_N;
}

/* The executable a task runs, as (device, inode); 0 for a kernel thread. */
static __always_inline __u64 exe_id(struct task_struct *t)
{
	struct inode *ino = BPF_CORE_READ(t, mm, exe_file, f_inode);

	if (!ino)
		return 0;
	return ((__u64)BPF_CORE_READ(ino, i_sb, s_dev) << 40) ^ BPF_CORE_READ(ino, i_ino);
}

SEC("tp_btf/sched_waking")
int BPF_PROG(fct_sched_waking, struct task_struct *p)
{
	__u64 pid_tgid, now, slept;
	struct fct_slot *t, *w;
	__u32 by;

	/* one process: no sibling to wait for (the verifier drops the rest) */
	if (!follow_forks && !tgid_list)
		return 0;
	if (!enabled)
		return 0;
	/* the sleeper first: most wakes are of a thread in a futex wait or
	 * of one fctrace does not trace */
	t = fct_target_slot(p->tgid, p->pid);
	if (!t || t->st_state != FCT_ST_BLOCKED || !t->in_syscall || t->in_futex_wait)
		return 0;
	pid_tgid = bpf_get_current_pid_tgid();
	if ((__u32)(pid_tgid >> 32) == p->tgid)
		return 0;
	w = fct_target_slot((__u32)(pid_tgid >> 32), (__u32)pid_tgid);
	if (!w || !w->in_syscall)
		return 0;
	by = wake_by(w->in_nr);
	if (by >= FCT_WAKE_N)
		return 0;
	if (by == FCT_WAKE_WRITE &&
	    exe_id(bpf_get_current_task_btf()) != exe_id(p))
		by = FCT_WAKE_REQUEST;
	now = bpf_ktime_get_ns();
	slept = now > t->st_since_ns ? now - t->st_since_ns : 0;	/* since its switch out */
	t->a.sib_waits[by]++;
	t->a.sib_wait_ns[by] += slept;
	w->a.sib_wakes[by]++;
	sib_after_record(w, by, slept, p->pid);
	return 0;
}
