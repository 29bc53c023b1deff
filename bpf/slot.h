/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * slot.h - a thread slot as the BPF programs keep it: the account that
 * user space reads (struct fct_account, the ABI), then the state machines'
 * private state. Not part of the ABI: only the BPF programs and the test
 * of their account helpers (tests/bpf/test_bpf_charge.c) include it; the
 * loader reads the account at the start of each slot and nothing else.
 */
#ifndef FCTRACE_SLOT_H
#define FCTRACE_SLOT_H

#include "fctrace.h"

/* charge codes (struct fct_slot.last_code): a run state, or-ed with
 * FCT_C_FUTEX when the interval fell inside a futex wait */
#define FCT_C_STATE	3
#define FCT_C_FUTEX	4
#define FCT_C_UNINT	8	/* asleep in TASK_UNINTERRUPTIBLE */
#define FCT_C_STOPPED	16	/* stopped or traced */

/* Samples of one kind held back (holders.bpf.h): their count, those
 * with a waiter, and the waiters at them. */
struct fct_hold_stash {
	__u32 n, contended, waiters;
};

/*
 * A thread slot: the account user space reads, then the state machines'
 * private state (hot: the first fields after the account are the ones
 * every hook touches).
 */
struct fct_slot {
	struct fct_account a;
	__u32 active;		/* inside the thread's window */
	__u32 st_state;		/* enum fct_run_state */
	__u32 st_sleep;		/* BLOCKED: FCT_C_UNINT, FCT_C_STOPPED or 0 */
	__u32 in_sc_hook;	/* inside its own sys_enter or sys_exit program: a
				 * cpu-clock sample there is on the syscall's edge */
	__u64 st_since_ns;	/* when the current run state began */
	__u32 in_syscall;	/* inside a syscall of the window (1), or 0 */
	__u32 in_nr;		/* and its number & (FCT_NR_MAX - 1) */
	__u32 in_futex_wake;	/* inside a futex op that wakes (futex_uaddr): 1,
				 * or FCT_WAKE_ALL when it may wake more than one */
	__u32 sc_weight;	/* the current syscall's weight, 0 if untimed */
	__u32 in_futex_wait;
	__u32 futex_op;
	__u32 done_nr;		/* the last syscall other than futex it finished, + 1 */
	__u32 cause_nr;		/* the same, the signals it sends aside (a
				 * latch's kill follows what set it) */
	__u64 sc_enter_ns;	/* set only when timed */
	__u64 sc_off_mark;	/* offcpu_ns + runq_total_ns at a timed entry */
	__u64 sc_runq_mark;	/* runq_total_ns at a timed entry */
	__u64 pread_pos;	/* pread64 offset saved at entry */
	__u32 pread_direct;	/* and whether its file is open O_DIRECT */
	__u64 fu_last;		/* fileuse.bpf.c: the file this thread used last
				 * (fct_fileuse_key, 0: none) */
	/* fileuse.bpf.h: the connection this thread opened last, until its
	 * set-up is known (conn_state: enum fu_conn_state) */
	__u32 conn_state;
	__s32 conn_fd;
	__u64 conn_start_ns;	/* connect's entry */
	__u64 conn_reply_ns;	/* the end of its first read that returned data */
	__u64 conn_sock;	/* the socket's inode */
	/* disk.bpf.c: the thread's disk requests completed, and their time
	 * from submission to completion, summed (the holders' marks) */
	__u64 disk_done;
	__u64 disk_wait_ns;
	__u64 hold_sc_disk_n;	/* holders.bpf.h: disk_done and disk_wait_ns */
	__u64 hold_sc_disk_ns;	/* where the charged syscall began */
	__u64 hold_off_disk_n;	/* and where the thread went off CPU holding one */
	__u64 hold_off_disk_ns;
	__u32 conn_dev;
	__u32 conn_pad;
	__u64 futex_uaddr;	/* set while inside a futex wait */
	/* the last two charged intervals, newest first: the end mark takes
	 * back what fell after end_ns (a preemption between the worker's
	 * clock read and the uprobe). code: enum fct_run_state | FCT_C_FUTEX */
	__u64 last_from[2];
	__u64 last_len[2];
	__u32 last_code[2];
	__u32 klock_flags;
	__u32 klock_weight;	/* the current kernel lock wait's stack weight */
	__u64 klock_addr;
	__u64 klock_start_ns;
	__u64 klock_seq;	/* kernel lock waits begun: the stack sampler */
	/* sleeps inside the current syscall (bstack.bpf.h): their blocked
	 * time and, once sampled, a kernel stack, sent at the exit */
	__u32 bs_pending;	/* the call has slept */
	__u32 bs_open;		/* and is asleep, not woken yet */
	__u32 bs_nr;
	__u32 bs_have;		/* sampled: bs_kips holds its stack */
	__u32 bs_u;		/* the threshold drawn at its first sleep */
	__u32 bs_sent;		/* sampled sleeps in idle calls sent: their
				 * threshold doubles (bstack.bpf.h) */
	__u32 bs_sent_io;	/* and in the other calls (disk reads ...):
				 * theirs doubles more slowly */
	__u32 bs_pad;
	__u64 bs_out_ns;	/* when the current sleep went off CPU */
	__u64 bs_ns;		/* the call's blocked time so far */
	__u64 bs_kips[FCT_USTACK_KDEPTH];
	/* holders.bpf.h: the watched lock (slot + 1, 0: none) held where the
	 * current syscall began and where the thread last went off CPU, with
	 * the start time and the lock's waiter integrals then */
	__u32 hold_sc;
	__u32 hold_sc_nr;
	__u32 hold_sc_futex;	/* that syscall is a futex wait (on another word) */
	__u32 hold_off;
	__u32 hold_off_code;	/* FCT_ST_BLOCKED or FCT_ST_RUNNABLE, | HOLD_OFF_IN_SC */
	__u32 hold_wait;	/* in a futex wait on watched word hold_wait - 1 */
	__u32 hold_edge_nr;	/* a charged syscall's number + 1 from its exit
				 * tracepoint to the next entry (0: none) */
	__u32 hold_jwait;	/* in a contended enter of watched monitor hold_jwait - 1 */
	__u64 jself;		/* its HotSpot JavaThread * (0: not known) */
	__u64 hold_exit_ns;	/* when the last charged syscall's exit began */
	__u32 hold_exit_lock;	/* and the lock it was charged to, + 1 (0: none
				 * since: the next entry or switch clears it) */
	__u32 hold_stashed;	/* samples in hold_stash */
	__s64 hold_exit_w, hold_exit_c;	/* the lock's integrals at that exit */
	/* the samples holding that lock since that exit, by kind (kernel, at a
	 * syscall's return, user): dropped if the span ends holding it (its
	 * time is then exact), else counted (holders.bpf.h, hold_span_end) */
	struct fct_hold_stash hold_stash[3];
	__u64 hold_sc_word;	/* the charged futex wait's word (the lock a chain waits for) */
	__u64 hold_sc_ns;
	__s64 hold_sc_w, hold_sc_c;
	__u64 hold_off_ns;
	__s64 hold_off_w, hold_off_c;
	/* pools.bpf.h: the object of the futex wait in progress, counted
	 * among its waiters (0: none), and the holds open: the object
	 * (0: free), when it opened, and the account's marks then */
	__u64 pw_waiting;
	__u64 pw_obj[FCT_POOL_OPEN];
	__u64 pw_since[FCT_POOL_OPEN];
	__u64 pw_on[FCT_POOL_OPEN];
	__u64 pw_sys[FCT_POOL_OPEN];
	__u64 pw_runq[FCT_POOL_OPEN];
	__u64 pw_blocked[FCT_POOL_OPEN];
	__u64 pw_futex[FCT_POOL_OPEN];
};

#endif /* FCTRACE_SLOT_H */
