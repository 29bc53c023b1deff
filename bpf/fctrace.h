/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * fctrace.h - the only contract between the BPF programs and user space.
 *
 * Plain fixed-size types only: this file is included both by the BPF
 * objects (after vmlinux.h) and by ordinary C in user/ and tests/.
 */
#ifndef FCTRACE_ABI_H
#define FCTRACE_ABI_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/* Per-thread accounts live in an array indexed by tid & (FCT_MAX_SLOTS-1),
 * probed linearly a few steps: no hash lookup on the per-syscall path. */
#define FCT_MAX_SLOTS	1024
#define FCT_SLOT_PROBES	4

/* log2 histogram of nanoseconds: slot i counts values in [2^i, 2^(i+1)). */
#define FCT_HIST_SLOTS	32

/* The syscalls the workloads make; everything else is summed as OTHER. */
enum fct_sc {
	FCT_SC_OPENAT,
	FCT_SC_CLOSE,
	FCT_SC_PREAD64,
	FCT_SC_NEWFSTATAT,
	FCT_SC_STATX,
	FCT_SC_FUTEX,
	FCT_SC_OTHER,
	FCT_SC_N,
};

struct fct_sc_stats {
	__u64 count;
	__u64 errors;
	__u64 total_ns;
	__u64 min_ns;
	__u64 max_ns;
	__u32 hist[FCT_HIST_SLOTS];
};

/* Scheduler state of a traced thread, as the BPF state machine sees it. */
enum fct_run_state {
	FCT_ST_RUNNING = 0,
	FCT_ST_RUNNABLE = 1,	/* preempted or woken, waiting for a CPU */
	FCT_ST_BLOCKED = 2,	/* asleep (prev_state != TASK_RUNNING) */
};

/*
 * One worker thread's account, from its begin mark to its end mark.
 * The time buckets marked [A] are disjoint and should add up to
 * end_ns - begin_ns: user time reconciles against them.
 */
struct fct_thread {
	__u32 tid;
	__u32 active;		/* between begin and end marks */
	__u64 begin_ns;		/* CLOCK_MONOTONIC, passed by the workload */
	__u64 end_ns;

	/* --- private state of the BPF state machines (hot: kept next to
	 * tid and active, in the first cache lines the hooks touch) --- */
	__u64 st_since_ns;	/* when the current run state began */
	__u32 st_state;		/* enum fct_run_state */
	__u32 in_syscall;	/* current syscall's enum fct_sc + 1, or 0 */
	__u64 sc_enter_ns;
	__u64 pread_pos;	/* pread64 offset saved at entry */
	__u64 futex_uaddr;	/* set while inside a futex wait */
	__u32 futex_op;
	__u32 in_futex_wait;
	/* the last two charged intervals, newest first: the end mark takes
	 * back what fell after end_ns (a preemption between the worker's
	 * clock read and the uprobe). bucket: FCT_B_* | FCT_T_* */
	__u64 last_from[2];
	__u64 last_len[2];
	__u32 last_bucket[2];
	__u64 klock_addr;
	__u64 klock_start_ns;
	__s32 klock_stackid;
	__u32 klock_flags;

	/* time account */
	__u64 cpu_user_ns;	/* [A] on CPU, not in a syscall */
	__u64 cpu_sys_ns;	/* [A] on CPU inside a (non-futex-wait) syscall */
	__u64 runq_ns;		/* [A] runnable, waiting for a CPU, outside futex waits */
	__u64 blocked_ns;	/* [A] asleep outside futex waits (I/O, other) */
	__u64 futex_wait_ns;	/* [A] inside futex wait syscalls, enter to exit */
	__u64 oncpu_ns;		/* all on-CPU time, whatever it was doing */
	__u64 offcpu_ns;	/* all asleep time, including futex waits */
	__u64 runq_total_ns;	/* all run-queue time, including inside futex waits */
	__u64 vol_switches;
	__u64 invol_switches;
	__u64 futex_waits;

	/* page cache: pages asked for by reads, pages this thread added */
	__u64 pages_asked;
	__u64 pages_added;

	/* kernel lock contention summary (details in the klock map) */
	__u64 klock_waits;
	__u64 klock_wait_ns;

	struct fct_sc_stats sc[FCT_SC_N];

};

/* bucket codes of the private charge log (struct fct_thread.last_bucket) */
enum fct_bucket_code {
	FCT_B_USER = 0, FCT_B_SYS = 1, FCT_B_RUNQ = 2, FCT_B_BLOCKED = 3, FCT_B_FUTEX = 4,
	FCT_T_ONCPU = 0 << 3, FCT_T_RUNQ = 1 << 3, FCT_T_OFFCPU = 2 << 3,
};

/* futex waits, per (thread, futex word) */
struct fct_futex_key {
	__u32 tid;
	__u32 op;		/* op & 0x7f of the wait */
	__u64 uaddr;
};

struct fct_futex_val {
	__u64 waits;
	__u64 wait_ns;
	__u64 max_ns;
	__u64 errors;		/* EAGAIN: the word changed before sleeping */
	__u32 hist[FCT_HIST_SLOTS];
};

/* kernel lock contention, per (thread, lock type, call stack) */
struct fct_klock_key {
	__u32 tid;
	__u32 flags;		/* LCB_F_* from lock:contention_begin */
	__s64 stackid;		/* in the klock_stacks map, <0 when unavailable */
};

struct fct_klock_val {
	__u64 waits;
	__u64 wait_ns;
	__u64 max_ns;
};

/* pages added to the page cache, per (thread, device, inode) */
struct fct_pc_key {
	__u32 tid;
	__u32 dev;		/* in the kernel's encoding, as tracepoints print it;
				 * the loader rewrites it to st_dev's (makedev) */
	__u64 ino;
};

struct fct_pc_val {
	__u64 pages;		/* sum of 1 << order */
	__u64 folios;
	__u64 lookups;		/* read lookups (PG_PC_LOOKUPS only) */
	__u64 lookup_pages;	/* pages those lookups asked for */
};

/* What was lost; every field should read 0 after a run. */
struct fct_lost {
	__u64 slot_full;	/* a worker found no free thread slot */
	__u64 futex_map_full;
	__u64 klock_map_full;
	__u64 pc_map_full;
	__u64 stack_lost;	/* bpf_get_stackid failed */
	__u64 ringbuf_drops;	/* timeline events dropped */
};

#define FCT_STACK_DEPTH 16

/* The floor set's per-CPU hit counters (floor.bpf.c), one per hook kind. */
enum fct_floor_hook {
	FCT_FL_SYS_ENTER, FCT_FL_SYS_EXIT, FCT_FL_SCHED_SWITCH, FCT_FL_SCHED_WAKEUP,
	FCT_FL_CONTENTION, FCT_FL_PC_ADD, FCT_FL_MARKS,
	FCT_FL_N,
};

#endif /* FCTRACE_ABI_H */
