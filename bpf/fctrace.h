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

/* Per-thread accounts live in an array indexed by tid & (slots - 1),
 * probed linearly a few steps: no hash lookup on the per-syscall path.
 * The array is sized at load (a power of two, the rodata slot_mask + 1):
 * twice the target's threads at the attach, at least FCT_SLOTS_MIN, at
 * most FCT_SLOTS_MAX, or as --max-threads says. Each slot is a whole
 * account (struct fct_slot, ~2.8 KiB with its compact syscall table). */
#define FCT_SLOTS_MIN	16384
#define FCT_SLOTS_MAX	65536
#define FCT_MAX_SLOTS	FCT_SLOTS_MIN	/* the map's size before the loader sets it */
/* 4 probes lost a postmaster in a table of 1024 holding 22 threads: its
 * home slot and the next three were taken by an older backend whose tid
 * was 14 336 less and by its own children's consecutive tids. A hit is
 * still the first probe; only a thread that has no slot walks all 16. */
#define FCT_SLOT_PROBES	16
/* A slot whose ended thread's account user space has taken out of the
 * table while the run goes on (user/trace/slotrecycle.c): its tid field
 * holds this, the rest is zero. A search walks past it (the chain goes
 * on behind it), a new thread may claim it. Without it a slot stayed
 * its first thread's for the whole run: a server making a process a
 * connection filled the table in minutes, with two threads alive. */
#define FCT_TID_RECYCLED	0xffffffffu
/* processes one run may follow at once (--follow, attach -p A,B and
 * the descendants found at attach): an entry is freed when its
 * process's last thread exits */
#define FCT_MAX_TGIDS	256

#include "histlog.h"

/* Histograms of nanoseconds, log-linear (histlog.h): every value below
 * 2^32 ns (4.3 s) in a bucket at most 12.5 % wide; longer ones in the last. */
#define FCT_HIST_SLOTS	FCT_HIST_SLOTS_BELOW(32)

/*
 * Clock reads are the dearest thing on the syscall path here (~70 ns
 * each: the clocksource read is an indirect call, and this kernel has
 * retpolines). So every syscall is counted, but only some are timed:
 * each thread's first FCT_SC_WARMUP calls of each number, then one in
 * sc_time_every (a power of two, `--time-every`), and every futex call.
 * A timed call carries the weight of the calls it stands for, so the
 * totals and histograms are unbiased estimates, exact for short runs.
 */
#define FCT_SC_WARMUP		64
#define FCT_SC_EVERY_MAX	64	/* sc_time_every is 1..64 */
#define FCT_SC_EVERY_DEFAULT	8

/* Past the warm-up, of each block of sc_time_every calls of a number (the
 * calls n with n / every == block) the one timed is at this position: a
 * hash of the block, not always the first. A fixed position aliased with
 * programs whose calls alternate: a shell's wait4 blocks, then returns
 * at once, and timing every 8th call timed only the blocking ones, twice
 * the truth. Still one call a block, so the counts stay exact. */
static inline __u32 fct_sc_offset(__u64 block, __u32 every)
{
	return (__u32)((block * 0x9E3779B97F4A7C15ULL) >> 40) & (every - 1);
}

/* Frames kept of a kernel lock wait's stack: enough to get past the
 * tracepoint, the BPF glue and the lock functions to the caller. */
#define FCT_STACK_DEPTH		8

/* Kernel stacks cost microseconds to walk; kernel lock waits are all
 * counted and timed, but their call stacks are sampled the same way,
 * and walked at contention_end, after the wait was timed. */
#define FCT_KLOCK_WARMUP	16
#define FCT_KLOCK_EVERY		8

/*
 * The user/kernel split of on-CPU time is sampled (cpuclock.bpf.c): a
 * software cpu-clock event per CPU at this rate, not a multiple of the
 * scheduler tick's (100-1000 Hz), so the samples do not run in step
 * with it. A thread with fewer samples than FCT_CPU_MIN_SAMPLES outside
 * futex waits keeps the syscall hooks' split.
 */
#define FCT_CPUCLOCK_HZ		997
#define FCT_CPU_MIN_SAMPLES	10

/*
 * One syscall table, by number (nr & (FCT_NR_MAX - 1)), for every
 * subject. Each thread's account carries the counts and times of every
 * number (struct fct_nr_stats); the shape of the timed calls' durations
 * (min, max, histogram) is in the sc_hists map, one entry per (thread,
 * number) that had a call timed: a histogram for each of FCT_NR_MAX
 * numbers would make every slot ~0.5 MiB, and a thread calls a few
 * dozen numbers at most. Only timed calls touch that map.
 */
#define FCT_NR_MAX	512

struct fct_nr_stats {
	__u64 count;		/* exact */
	__u64 errors;		/* exact */
	__u64 timed;		/* calls that were timed */
	__u64 total_ns;		/* estimate: sum of weight * duration of the timed calls */
	__u64 blocked_ns;	/* asleep inside it, outside futex waits (exact) */
};

#define FCT_SC_HIST_ENTRIES	16384	/* (thread, number); at load, at least
					 * FCT_SC_HIST_PER_SLOT per thread slot */
#define FCT_SC_HIST_PER_SLOT	32

struct fct_sc_hist_key {
	__u32 tid;
	__u32 nr;		/* & (FCT_NR_MAX - 1) */
};

struct fct_sc_hist {
	__u64 min_ns;		/* of the timed calls */
	__u64 max_ns;
	__u32 hist[FCT_HIST_SLOTS];	/* estimate: weights per slot */
};

/* Scheduler state of a traced thread, as the BPF state machine sees it. */
enum fct_run_state {
	FCT_ST_RUNNING = 0,
	FCT_ST_RUNNABLE = 1,	/* preempted or woken, waiting for a CPU */
	FCT_ST_BLOCKED = 2,	/* asleep (prev_state != TASK_RUNNING) */
};

/* How a thread's account began and ended (struct fct_thread.how). */
#define FCT_HOW_MARK		0x01	/* begin/end marks of fctrace's own workers */
#define FCT_HOW_EXEC		0x02	/* began at the target's exec */
#define FCT_HOW_FORK		0x04	/* began when the thread was created */
#define FCT_HOW_ATTACH		0x08	/* already running at attach: began then */
#define FCT_HOW_EXITED		0x10	/* ended at the thread's exit */
#define FCT_HOW_CLOSED		0x20	/* still alive: ended when the window closed */
#define FCT_HOW_IN_FUTEX	0x40	/* was inside a futex wait at attach */

#define FCT_COMM_LEN		16

/* what a traced process was doing when it woke another's sleep */
enum fct_wake_by { FCT_WAKE_SIGNAL, FCT_WAKE_WRITE, FCT_WAKE_REQUEST, FCT_WAKE_N };

/*
 * One thread's account, from the start of its window to its end: the
 * begin/end marks of fctrace's own workers, or for any other program its
 * exec, creation or the attach, to its exit or the window's close.
 * Plain data for user space: a slot in the `slots` map begins with it
 * (struct fct_account), and the BPF programs' private state follows it
 * (slot.h); user space reads it as struct fct_thread.
 *
 * The time account. The scheduler edges charge every interval of the
 * window to exactly one of the [K] fields, without reading the syscall
 * state for on-CPU time (an on-CPU interval can span many syscalls). The
 * syscall hooks add what the timed calls measured. User space derives
 * the [A] buckets from them (struct kv_derived in user/trace/kview.h):
 *   futex_wait = futex_off + futex_on
 *   cpu_sys    = (oncpu - futex_on) * sys samples / (user + sys samples)
 *                with the cpu-clock samples, else min(sys_on_est, oncpu - futex_on)
 *   cpu_user   = oncpu - futex_on - cpu_sys
 * so cpu_user + cpu_sys + runq + blocked + futex_wait = end - begin.
 */
/* The account's fields, one list for the kernel's slot (struct
 * fct_account) and user space's copy (struct fct_thread), which differ
 * only in their syscall tables: so the two agree byte for byte up to it. */
#define FCT_ACCOUNT_FIELDS							\
	__u32 tid;								\
	__u32 tgid;								\
	__u64 begin_ns;		/* CLOCK_MONOTONIC */				\
	__u64 end_ns;								\
	char comm[FCT_COMM_LEN];	/* at exit, or when the window closed */	\
	__u32 how;		/* FCT_HOW_* */					\
	__u32 pad;								\
									\
	__u64 oncpu_ns;		/* [K] all on-CPU time */			\
	__u64 runq_ns;		/* [K][A] runnable, waiting for a CPU, outside futex waits */	\
	__u64 blocked_ns;	/* [K][A] asleep outside futex waits (I/O, other) */	\
	__u64 futex_off_ns;	/* [K] off CPU (asleep or runnable) inside futex waits */	\
	__u64 futex_on_ns;	/* on CPU inside futex waits (they are always timed) */	\
	__u64 sys_on_est_ns;	/* estimate: on CPU inside other syscalls */	\
	__u64 offcpu_ns;	/* all asleep time, including futex waits */	\
	__u64 runq_total_ns;	/* all run-queue time, including inside futex waits */	\
	__u64 vol_switches;							\
	__u64 invol_switches;							\
	__u64 futex_waits;							\
	__u64 blocked_io_ns;	/* [K] of blocked_ns: uninterruptible sleep (disk, kernel locks) */	\
	__u64 stopped_ns;	/* [K] of blocked_ns: stopped (SIGSTOP, a debugger) */	\
									\
	/* page cache: pages asked for by pread64; pages this thread added	\
	 * reading (misses: from disk, readahead included) and writing (new	\
	 * data inside write, pwrite64, writev, fallocate ...: not misses;	\
	 * without the syscalls probe they count as added); pages pread64	\
	 * read from files open O_DIRECT: past the page cache, from the disk,	\
	 * neither hits nor misses */						\
	__u64 pages_asked;							\
	__u64 pages_added;							\
	__u64 pages_written;							\
	__u64 pages_direct;							\
									\
	/* kernel lock contention summary (details in the klock map) */		\
	__u64 klock_waits;							\
	__u64 klock_wait_ns;							\
									\
	/* cpu-clock samples that found the thread on CPU (cpuclock.bpf.c) */	\
	__u64 cpu_samples_user;		/* in user mode */			\
	__u64 cpu_samples_sys;		/* in kernel mode, outside futex waits */	\
	__u64 cpu_samples_futex;	/* inside a futex wait */		\
									\
	/* sleeps in a syscall (epoll_wait, poll, read ...; not futex waits)	\
	 * that another traced process ended (wakers.bpf.c), by what it was	\
	 * doing: [FCT_WAKE_SIGNAL] kill, tgkill, sigqueue; [FCT_WAKE_WRITE]	\
	 * a write to a pipe, eventfd or socket by a process of the same	\
	 * program (the same executable); [FCT_WAKE_REQUEST] such a write by	\
	 * a process of another program (a proxy's statement to its backend).	\
	 * A latch (PostgreSQL's) is the first two: a wait for a sibling	\
	 * process, not for input; the third is input, handed over */		\
	__u64 sib_waits[FCT_WAKE_N];						\
	__u64 sib_wait_ns[FCT_WAKE_N];	/* asleep, up to the wake-up */		\
	__u64 sib_wakes[FCT_WAKE_N];	/* such sleeps of others this thread ended */

/* A slot's syscall table: the numbers the thread called, each given the
 * next of FCT_NR_SLOT entries at its first call (at[nr] is its entry + 1;
 * 0: not called yet); a thread that calls more numbers keeps the rest in
 * the nr_spill map (at[nr] FCT_NR_SPILLED), as few do. A full table by
 * number (512 x 40 bytes) made each slot 21 KiB; this one is 1.8 KiB,
 * so that room for 16 384 threads costs 45 MiB, not 336. */
#define FCT_NR_SLOT		32	/* a power of two (common.bpf.h masks with it) */
#define FCT_NR_SPILLED		0xff
#define FCT_NR_SPILL_ENTRIES	16384	/* (thread, number); at load, at least
					 * FCT_NR_SPILL_PER_SLOT per thread slot */
#define FCT_NR_SPILL_PER_SLOT	2

struct fct_nr_table {
	__u8 at[FCT_NR_MAX];
	__u32 used;		/* entries given */
	__u32 spilled;		/* numbers in nr_spill */
	struct fct_nr_stats e[FCT_NR_SLOT];
};

/* The kernel's account: a slot in the `slots` map begins with it. */
struct fct_account {
	FCT_ACCOUNT_FIELDS
	struct fct_nr_table nrt;
};

/* User space keeps it as struct fct_thread (user/trace/account.h): the
 * same fields, the slot's entries and its spilled numbers in one table. */

/*
 * A sleep another traced process ended with a kill or a write
 * (wakers.bpf.c), by the waker, the kind of wake (FCT_WAKE_*) and the
 * call the waker finished last before it (+ 1; 0: none since the window
 * opened), futex calls and the signals it sends aside: what ends a latch
 * - a backend's kill after its commit's fdatasync.
 */
#define FCT_SIB_AFTER_ENTRIES	4096

struct fct_sib_after_key {
	__u32 tid;		/* the waker */
	__u32 nr;		/* the call before it, + 1 */
	__u32 by;		/* FCT_WAKE_* */
	__u32 wakee;		/* the thread it woke: the edge between processes */
};

struct fct_sib_after_val {
	__u64 wakes;
	__u64 wait_ns;		/* the sleeps it ended, asleep up to the wake-up */
};

/* The tables that can fill, in entries: each full one counts its losses
 * in struct fct_lost, and the reports say what the losses touch. */
#define FCT_FUTEX_ENTRIES	16384	/* (thread, futex word); at load, at least
					 * FCT_FUTEX_PER_SLOT per thread slot */
#define FCT_FUTEX_PER_SLOT	8
#define FCT_KLOCK_ENTRIES	4096	/* (thread, lock type, call stack) */
#define FCT_PC_ENTRIES		16384	/* (thread, file) */

/* futex waits, per (thread, futex word) */
#define FCT_FUTEX_OP_WAITV	0x7f	/* futex_waitv (on its first word) */
#define FCT_FUTEX_OP_WAKE	0x7e	/* wakes by this thread (every op that wakes) */

struct fct_futex_key {
	__u32 tid;
	__u32 op;		/* op & 0x7f of the wait, FCT_FUTEX_OP_WAITV, or
				 * FCT_FUTEX_OP_WAKE: an entry of wakes only */
	__u64 uaddr;
};

struct fct_futex_val {
	__u64 waits;
	__u64 wait_ns;
	__u64 max_ns;
	__u64 errors;		/* EAGAIN: the word changed before sleeping */
	__u64 runq_ns;		/* of wait_ns: runnable, waiting for a CPU (after the wake) */
	__u64 sampled;		/* waits whose user stack was sent (struct fct_ustack) */
	__u64 wakes;		/* FCT_FUTEX_OP_WAKE: calls that woke a waiter */
	__u64 woken;		/* and the waiters they woke */
	__u32 hist[FCT_HIST_SLOTS];
};

/*
 * A futex wake that woke someone, and the syscall its thread finished
 * last before it (futex calls aside): what ended the waits - a flusher's
 * fdatasync before it signals the writers, a reply's sendto. One entry
 * per (waker, word, call); only calls that woke pay the update.
 */
#define FCT_WAKE_AFTER_ENTRIES	16384

struct fct_wake_after_key {
	__u32 tid;		/* the waker */
	__u32 nr;		/* the call it finished last, + 1 (0: none yet) */
	__u64 uaddr;
};

struct fct_wake_after_val {
	__u64 wakes;		/* futex calls that woke a waiter */
	__u64 woken;		/* and the waiters they woke */
	/* what the waker did since its previous wake of the same object (a
	 * word, & ~7: fct_pool_key's; the wakes after its first): its account's parts over that span, which
	 * add up to span_ns; sys_ns is an estimate (the account's
	 * sys_on_est_ns), part of oncpu_ns */
	__u64 cycles;
	__u64 span_ns;
	__u64 oncpu_ns;
	__u64 sys_ns;
	__u64 runq_ns;		/* runnable outside futex waits */
	__u64 blocked_ns;	/* asleep outside futex waits: I/O, sleeps */
	__u64 futex_ns;		/* off CPU in futex waits: itself waiting */
};

/* A waker's account at its last wake of an object (BPF's; key
 * fct_word_key with the waker's tid in tgid's place, FCT_POOL_OBJ(uaddr)). */
struct fct_wake_mark {
	__u64 at_ns;
	__u64 oncpu_ns, sys_ns, runq_ns, blocked_ns, futex_ns;
};

/*
 * Pools of N (pools.bpf.h): per futex object - a word with its low three
 * address bits cleared, so that a glibc condvar's two group words are
 * one object - the threads waiting on it and the holds its waiters
 * take. A hold opens when a thread is woken from a wait on the object
 * and closes when the same thread wakes the object's waiters (it gave
 * the item back): from the outside, the time a woken waiter kept what
 * it waited for. A hold whose thread waits on the object again first
 * got nothing (another thread took the item: a retry). Holds taken
 * without a wait (a fast path that found an item free) are not seen;
 * their releases are, as wakes. The integrals run over the window:
 *   mean waiters = waiting_ns / window, mean open holds = holding_ns / window.
 * The hold's parts (the thread's account between the two edges):
 *   hold_ns = hold_oncpu_ns + hold_runq_ns + hold_blocked_ns + hold_futex_ns
 * with hold_sys_ns the syscalls' on-CPU part of hold_oncpu_ns (an
 * estimate, as the account's sys_on_est_ns) and hold_futex_ns the futex
 * waits on other words (another lock) off CPU.
 */
#define FCT_POOL_ENTRIES	4096
#define FCT_POOL_OBJ(uaddr)	((uaddr) & ~7ULL)
#define FCT_POOL_OPEN		2	/* holds a thread may have open at once */

#ifdef __bpf__
#define FCT_SPIN_LOCK_FIELD	struct bpf_spin_lock lock
#else
#define FCT_SPIN_LOCK_FIELD	__u32 lock	/* the BPF side's spin lock */
#endif

struct fct_pool_key {
	__u32 tgid;
	__u32 pad;
	__u64 obj;		/* FCT_POOL_OBJ(uaddr) */
};

struct fct_pool_val {
	FCT_SPIN_LOCK_FIELD;
	__u32 waiting;		/* traced threads in a futex wait on it now */
	__u32 holding;		/* holds open now */
	__u32 max_holding;	/* the most holds open at once while a thread waited */
	__u64 since;		/* when waiting or holding last changed (0: never) */
	__u64 queued_ns;	/* time with a thread waiting */
	__u64 waiting_ns;	/* integral of waiting (ns x threads) */
	__u64 holding_ns;	/* integral of holding */
	__u64 queued_holding_ns;	/* the same, while a thread waited */
	__u64 releases;		/* futex wakes on it (after a first wait on it) */
	__u64 queued_releases;	/* of those, made while a thread waited on it */
	__u64 woken;		/* the waiters they woke */
	__u64 broadcasts;	/* of releases, wakes of every waiter (FCT_WAKE_ALL) */
	__u64 opened;		/* wake-ups from a wait on it (holds opened) */
	__u64 retries;		/* of those, holds that waited on it again first */
	__u64 dropped;		/* holds given up unclosed: two newer ones open */
	__u64 holds;		/* holds closed by their thread's wake on it */
	__u64 hold_ns;		/* their length, wake-up to wake */
	__u64 hold_oncpu_ns;
	__u64 hold_sys_ns;	/* of hold_oncpu_ns: in syscalls (estimate) */
	__u64 hold_runq_ns;	/* runnable, not running (preempted) */
	__u64 hold_blocked_ns;	/* asleep outside futex waits (I/O, sleeps) */
	__u64 hold_futex_ns;	/* in futex waits on other objects, off CPU */
};

/*
 * A sampled futex wait's user stack, sent through the `ustacks` ring
 * buffer at the wait's exit (after it was timed, so the copy does not
 * lengthen it): the registers and the stack's top FCT_USTACK_BYTES, for
 * user space to unwind with CFI (Debian's glibc has no frame pointers).
 * Each (thread, word) sends its first FCT_USTACK_WARMUP waits while the
 * word has sent fewer than FCT_USTACK_WORD_WARMUP in all, then one in
 * FCT_USTACK_EVERY, at most FCT_USTACK_MAX.
 */
#define FCT_USTACK_BYTES	4096
#define FCT_USTACK_WARMUP	4
#define FCT_USTACK_EVERY	64
#define FCT_USTACK_MAX		64
#define FCT_USTACK_WORD_WARMUP	32	/* a word's warm-up stacks, all threads' */

struct fct_word_key {
	__u32 tgid;
	__u32 pad;
	__u64 uaddr;
};
#define FCT_UREGS		17	/* x86-64 DWARF registers 0-16, rip last */
/* --cpu-stacks: a cpu-clock sample's stack (op), not a futex wait's;
 * uaddr is 1 when the sample found the thread in the kernel */
#define FCT_USTACK_OP_CPU	0x7d
/* A sleep inside a syscall (not a futex wait), sent at the syscall's
 * exit with the kernel stack of its first sleep: uaddr is the syscall's
 * number, ns what the sample stands for. A call that slept d ns (from
 * each switch out to its wake-up) is sent with probability min(1, d / T)
 * (probability proportional to size), T = FCT_BSTACK_NS at first, so
 * that a sample stands for max(d, T) ns: unbiased, with at most one user
 * stack to copy per T of sleep. */
#define FCT_USTACK_OP_BLOCKED	0x7c
#define FCT_BSTACK_NS		200000
/* ... and, for calls that wait for input or time (epoll_wait, poll,
 * nanosleep ...), doubles for every FCT_BSTACK_DOUBLE of them a thread
 * has sent, at most FCT_BSTACK_SHIFT_MAX times (200 us x 4096: 0.8 s) */
#define FCT_BSTACK_DOUBLE	64
#define FCT_BSTACK_SHIFT_MAX	12
/* ... and for the other calls (disk reads, io_uring_enter, fsync ...) for
 * every FCT_BSTACK_IO_DOUBLE of them, at most FCT_BSTACK_IO_SHIFT_MAX
 * times (200 us x 16: 3.2 ms): MariaDB's O_DIRECT reads, 0.8 ms each,
 * were each a sample - a kernel stack walk, 4 KiB of user stack copied
 * and unwound, about 2 900 a second. Fewer samples, a coarser split of
 * the sleep between call paths: its error is that of their count
 * (test_bpf_blocked's tolerance says it). */
#define FCT_BSTACK_IO_DOUBLE	512
#define FCT_BSTACK_IO_SHIFT_MAX	4
/* kernel frames a record keeps: a sleep's stack from the syscall entry
 * down to schedule() and the BPF glue is ~15-20 deep */
#define FCT_USTACK_KDEPTH	32

struct fct_ustack {
	__u32 tid;
	__u32 tgid;
	__u64 uaddr;
	__u32 op;
	__u32 stack_len;	/* bytes of stack[] that were copied */
	__u64 ns;		/* FCT_USTACK_OP_BLOCKED: the sleep's blocked ns */
	/* the image the process ran, so user space unwinds with the maps of
	 * that image: where exec put its code and its stack (mm's start_code
	 * and start_stack, which each exec moves under ASLR); 0: not read */
	__u64 start_code;
	__u64 start_stack;
	__u64 regs[FCT_UREGS];	/* in DWARF order: rax rdx rcx rbx rsi rdi rbp rsp r8-r15 rip */
	__u64 kips[FCT_USTACK_KDEPTH];	/* FCT_USTACK_OP_CPU in the kernel and
				 * FCT_USTACK_OP_BLOCKED: the kernel's return
				 * addresses, innermost first, 0-padded */
	__u8 stack[FCT_USTACK_BYTES];	/* from regs[7] (rsp) up */
};

/* kernel lock contention, per (thread, lock type, call stack). The stack
 * is in the key itself, not in a stack map: a stack map's fixed buckets
 * drop a stack whose hash collides with another's. */
struct fct_klock_key {
	__u32 tid;
	__u32 flags;		/* LCB_F_* from lock:contention_begin */
	__u64 ips[FCT_STACK_DEPTH];	/* return addresses, innermost
				 * first, 0-padded; all 0 when unavailable */
};

/* Per call stack, from the sampled waits (each weighted by the waits it
 * stands for): estimates. The thread's klock_waits and klock_wait_ns
 * are exact; user space splits them over the sites in proportion to
 * these (kview_klock_attribute), so that the sites add up to them. */
struct fct_klock_val {
	__u64 waits;
	__u64 wait_ns;
	__u64 max_ns;
	__u64 sampled;
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

/*
 * Page-cache removals (pcevict.bpf.h, `--probes pc-evict`): every folio
 * removed from the page cache (filemap:mm_filemap_delete_from_page_cache)
 * of a file the target touched in the window, by whom and how. Each
 * removed page is remembered in a bitmap per block of FCT_PCEV_BLOCK
 * pages of a file, with the last remover of the block; a page the target
 * then reads from disk again (mm_filemap_add_to_page_cache) is a re-read
 * after eviction, charged to that remover. A miss with no removal seen
 * before it is a first read (cold).
 */
#define FCT_PCEV_BLOCK		64	/* pages per bitmap block */
#define FCT_PCEV_FILES		8192	/* (dev, ino) the target touched */
#define FCT_PCEV_BLOCKS		65536	/* removed-page bitmaps */
#define FCT_PCEV_REMOVERS	1024	/* (process, how, syscall) */

enum fct_evict_how {
	FCT_EV_OTHER,		/* none of the below (a syscall not listed, a kernel thread) */
	FCT_EV_FADVISE,		/* fadvise64 (POSIX_FADV_DONTNEED) */
	FCT_EV_MADVISE,		/* madvise */
	FCT_EV_TRUNCATE,	/* truncate, ftruncate, open O_TRUNC, unlink, rename over,
				 * fallocate (punch hole) */
	FCT_EV_RECLAIM,		/* kswapd, or direct reclaim (PF_MEMALLOC) by any task */
	FCT_EV_DROP_CACHES,	/* a write to /proc/sys/vm/drop_caches */
	FCT_EV_DIRECT_IO,	/* a write to the same file: O_DIRECT invalidation */
	FCT_EV_N,
};

#define FCT_EV_F_TARGET		1	/* the remover is a thread of the target */
#define FCT_EV_F_TRACED		2	/* ... with an open account (a worker) */
#define FCT_EV_F_KTHREAD	4	/* a kernel thread */
#define FCT_EV_F_KSWAPD		8	/* reclaim by kswapd (else direct, in its task) */

#define FCT_EV_NO_NR		0xffffffffu	/* not inside a syscall */

struct fct_evict_key {
	__u32 tgid;		/* the remover's process (kernel threads: their pid) */
	__u16 how;		/* enum fct_evict_how */
	__u16 flags;		/* FCT_EV_F_* */
	__u32 nr;		/* the syscall in progress, or FCT_EV_NO_NR */
	__u32 pad;
};

struct fct_evict_val {
	char comm[FCT_COMM_LEN];	/* of the last remover thread */
	__u32 tid;			/* the last remover thread */
	__u32 pad;
	__u64 pages;		/* removed, of files the target touched */
	__u64 folios;
	__u64 reread_pages;	/* of those, read from disk again by the target */
};

/* run-wide */
struct fct_evict_global {
	__u64 reread_pages;	/* the target's misses on pages removed earlier in the window */
	__u64 removed_pages;	/* pages removed of files the target touched */
	__u64 files;		/* files (dev, ino) the target touched */
	/* the page cache past its size: pages reclaim removed machine-wide in
	 * the window, and the target's re-reads of pages reclaim had removed,
	 * by how many pages reclaim removed in between (the page's 64-page
	 * block's last removal): with that much more memory an LRU would have
	 * kept them. Pages per log-linear slot. */
	__u64 reclaimed_pages;
	__u64 reclaim_reread_pages;
	__u64 reclaim_dist[FCT_HIST_SLOTS];
};

/* What every CPU ran at the cpu-clock samples that did not land on a
 * traced thread, over the counting window: another thread or process,
 * or the idle task. With the traced threads' exact on-CPU time this
 * says who else had the CPUs while they queued for one. */
struct fct_machine {
	__u64 other;		/* samples of any other thread */
	__u64 idle;		/* samples of the idle task (pid 0) */
	__u64 tracer;		/* samples of fctrace's own process (tracer_tgid) */
	__u64 others_full;	/* of other: samples of processes other_procs had no room for */
};

/* Of those samples of other work, each process's (by tgid, its threads
 * summed): who had the CPUs the traced threads queued for. */
#define FCT_OTHERS_ENTRIES	1024
struct fct_other_val {
	__u64 samples;
	char comm[FCT_COMM_LEN];	/* of the thread sampled first */
};

/* What was lost, every loss counter of every program in one place: each
 * should read 0 after a run, and the reports show them all. */
struct fct_lost {
	__u64 slot_full;	/* a worker found no free thread slot */
	__u64 futex_map_full;
	__u64 klock_map_full;
	__u64 pc_map_full;
	__u64 stack_lost;	/* bpf_get_stack failed */
	__u64 ustack_drops;	/* futex wait stacks the ring buffer had no room for
				 * (the sleeps' and samples': flame_stack_drops) */
	__u64 jvm_threads_full;	/* a Java thread found the JVM thread map full */
	__u64 jvm_monitors_full;	/* a (thread, class) found the monitor map full */
	__u64 tgids_full;	/* --follow: a fork found the process table full
				 * (FCT_MAX_TGIDS live processes): not followed */
	__u64 pc_evict_full;	/* page-cache removals not recorded: the file,
				 * block or remover table was full (pcevict.bpf.h) */
	__u64 sc_hist_full;	/* timed calls whose (thread, number) found the
				 * sc_hists map full: counted and timed, no histogram */
	__u64 wake_after_full;	/* wakes whose (waker, word, call) found the
				 * wake_after map full: counted, not joined */
	__u64 pool_full;	/* futex edges whose object found the pools
				 * map full: its waiters and holds not counted */
	__u64 flame_stack_drops;	/* sleeps' and cpu samples' stacks the ring
				 * buffer had no room for: the flame graph's
				 * [blocked in] and cpu parts have fewer samples */
	__u64 nr_spill_full;	/* syscalls of a thread past FCT_NR_SLOT numbers
				 * that found the nr_spill map full: not counted */
	__u64 hooks_skipped;	/* never written here: user space adds up the
				 * programs' recursion_misses (bpf_prog_info), the
				 * runs the kernel skipped because the program was
				 * still running on that CPU (an interrupt inside it) */
};


/*
 * The timeline (--timeline): for a bounded window, every state edge of
 * every traced thread, one fixed-size record each, through the
 * `timeline` ring buffer. The hooks write only while `tl_on` is set
 * (a bss flag user space sets for the window), after their usual work.
 * Each record carries the thread's syscall context at that instant, so
 * the state before a thread's first record is known too (user/join/timeline.c
 * turns records into intervals).
 */
enum fct_tl_kind {
	FCT_TL_SYS_ENTER = 1,	/* nr: the call; arg: futex word (futex calls) */
	FCT_TL_SYS_EXIT,	/* nr: the call that ended; arg: its return value */
	FCT_TL_SWITCH_OUT,	/* op: FCT_ST_RUNNABLE (preempted) or FCT_ST_BLOCKED */
	FCT_TL_SWITCH_IN,
	FCT_TL_WAKEUP,		/* op: the tid running when it fired (the waker, mostly) */
	FCT_TL_STATE,		/* as the window opens, every open account's state:
				 * op: enum fct_run_state */
};

#define FCT_TL_NO_SC		0xffff	/* nr: not inside a syscall */
#define FCT_TL_F_FUTEX_WAIT	1	/* inside a futex wait on word arg */

struct fct_tl_event {
	__u64 ts;		/* CLOCK_MONOTONIC ns */
	__u64 arg;		/* see enum fct_tl_kind; the futex word in a futex wait */
	__u32 tid;
	__u16 kind;		/* enum fct_tl_kind */
	__u16 nr;		/* the syscall in progress, or FCT_TL_NO_SC */
	__u32 op;		/* futex op & 0x7f in a futex call; SWITCH_OUT: the new
				 * state; WAKEUP: the waker's tid */
	__u32 flags;		/* FCT_TL_F_* */
};

/* Ring buffer bytes a record takes (the record and its 8-byte header). */
#define FCT_TL_REC_BYTES	(sizeof(struct fct_tl_event) + 8)


/* The floor set's per-CPU hit counters (floor.bpf.c), one per hook kind. */
enum fct_floor_hook {
	FCT_FL_SYS_ENTER, FCT_FL_SYS_EXIT, FCT_FL_SCHED_SWITCH, FCT_FL_SCHED_WAKEUP,
	FCT_FL_CONTENTION, FCT_FL_PC_ADD, FCT_FL_MARKS, FCT_FL_CPU_SAMPLE,
	FCT_FL_PC_REMOVE, FCT_FL_DISK,
	FCT_FL_N,
};

/* Holders of contended user locks (holders.bpf.h, `--probes holders`) */

/*
 * A futex word some traced thread FUTEX_WAITs on (op 0: glibc's normal,
 * recursive, errorcheck and adaptive mutexes) is watched when the int
 * at FCT_HOLD_OWNER_OFF past it (glibc's pthread_mutex_t __data.__owner)
 * names a traced thread of the same process. At most FCT_HOLD_LOCKS
 * words a run; later ones are counted in fct_hold_global.full.
 */
#define FCT_HOLD_LOCKS		8
#define FCT_HOLD_OWNER_OFF	8
/* Java monitors have slots of their own after those (a JVM's own mutexes,
 * contended at its start, would take every glibc slot): the map holds
 * FCT_HOLD_SLOTS, glibc words in [0, FCT_HOLD_LOCKS), monitors after. */
#define FCT_HOLD_MONITORS	4
#define FCT_HOLD_SLOTS		(FCT_HOLD_LOCKS + FCT_HOLD_MONITORS)

/*
 * A Java monitor (HotSpot's ObjectMonitor, inflated) is watched from the
 * first contended enter on it (ObjectMonitor::EnterI, a uprobe: no JVM
 * flag): its owner field is a pointer to the owning JavaThread, compared
 * with the JavaThread of the thread at its edges (learnt at its own
 * EnterI, or when a waiter found it the owner). The field offsets are
 * the JVM's own (its gHotSpotVMStructs table), read by user space from
 * the live JVM into struct fct_jvm_structs.
 */
enum fct_hold_kind {
	FCT_HOLD_GLIBC,		/* pthread_mutex_t: the owner's tid at FCT_HOLD_OWNER_OFF */
	FCT_HOLD_HOTSPOT,	/* ObjectMonitor: JavaThread * at owner_off */
};

struct fct_jvm_structs {
	__u32 ready;		/* the offsets below are set */
	__u32 owner;		/* ObjectMonitor::_owner */
	__u32 osthread;		/* JavaThread::_osthread (OSThread *) */
	__u32 thread_id;	/* OSThread::_thread_id (pid_t) */
};

/*
 * A holder's time in one state while holding a watched lock: all of it
 * (ns), the part of it when at least one traced thread was inside a
 * futex wait on the word (contended_ns), and the waiters' time in it
 * (waiter_ns: the integral of the number of waiters). For the sampled
 * states the fields count cpu-clock samples, not ns: each stands for
 * 10^9 / FCT_CPUCLOCK_HZ ns (a waiter_ns field adds the waiters at the
 * sample).
 */
struct fct_hold_time {
	__u64 ns;
	__u64 contended_ns;
	__u64 waiter_ns;
};

struct fct_hold_nr {
	__u64 count;
	__u64 ns;
	__u64 gap_min_ns;	/* the shortest span from such a call's exit
				 * tracepoint to the same thread's next entry
				 * still holding the lock, on CPU between: its
				 * exit path (task work: close's release), the
				 * next entry's path and the least user code
				 * between; 0: none measured */
};

/* A word (or Java monitor) a holder waited for while holding a watched
 * lock: a lock chain, the first FCT_HOLD_CHAIN words of each lock. */
#define FCT_HOLD_CHAIN		4
struct fct_hold_chain {
	__u64 uaddr;		/* 0: free */
	__u64 count;
	__u64 ns;		/* futex waits entry to exit */
};

/* One watched word and what its holders did while holding it. The
 * exact states tile the holders' syscalls and off-CPU time; their
 * on-CPU time outside syscalls is sampled. So:
 *   held_ns ~= sc.ns + sc_edge.ns + span.ns + span_user.ns + blocked.ns
 *              + preempted.ns + (samples_user.ns + samples_kernel.ns
 *              + samples_sc_return.ns) * 10^9 / FCT_CPUCLOCK_HZ
 * and the syscalls' share of it as the program sees them (entry and exit
 * paths included): sc.ns + sc_edge.ns + span.ns + (samples_kernel.ns +
 * samples_sc_return.ns) * 10^9 / FCT_CPUCLOCK_HZ. */
struct fct_hold_lock {
	__u64 uaddr;		/* the futex word or the ObjectMonitor; 0: a free slot */
	__u32 tgid;
	__u32 waiters;		/* traced threads waiting for it now */
	__u32 kind;		/* enum fct_hold_kind */
	__u32 owner_off;	/* its owner field's offset from uaddr */
	__u64 waits;		/* futex waits begun on it in the window */
	__u64 contended_ns;	/* closed intervals with a waiter (the open one not added) */
	__u64 sc_count;		/* syscalls made holding it (exact) */
	struct fct_hold_time sc;		/* exact: entry to exit, owner at both */
	struct fct_hold_time sc_blocked;	/* of sc: asleep */
	struct fct_hold_time sc_preempted;	/* of sc: off CPU, runnable */
	struct fct_hold_time sc_futex;		/* of sc: futex waits (on another word) */
	struct fct_hold_time blocked;		/* exact: asleep outside syscalls (faults) */
	struct fct_hold_time preempted;		/* exact: preempted outside syscalls */
	struct fct_hold_time disk;		/* the disk requests the holder submitted
						 * that completed inside its charged
						 * syscalls or its sleeps holding it
						 * outside them (a fault), submission to
						 * completion, capped at the segment;
						 * across the states above */
	__u64 disk_ios;				/* those requests */
	struct fct_hold_time sc_edge;		/* exact: off CPU on a charged syscall's
						 * way back to user space, after its exit
						 * tracepoint (preempted there, mostly) */
	struct fct_hold_time samples_user;	/* samples: on CPU in user mode */
	struct fct_hold_time samples_kernel;	/* samples: kernel mode outside the
						 * syscall tracepoints (entry and exit
						 * paths, faults, interrupts) */
	struct fct_hold_time samples_sc_return;	/* samples: user mode at the instruction
						 * after a syscall - the exit path's, whose
						 * timer interrupt waited for user mode */
	struct fct_hold_time span;		/* exact: on CPU from a charged syscall's
						 * exit tracepoint to its thread's next
						 * entry or switch out, still holding it:
						 * the exit path, the next entry's path
						 * and the user code between, up to the
						 * bound (holders.bpf.h, hold_span_bound) */
	struct fct_hold_time span_user;		/* exact: those spans' time past it (user
						 * work between two calls) */
	struct fct_hold_time span_preempted;	/* exact: preempted inside such a span
						 * past the paths' bound (where a call's
						 * interrupt was taken late, or between
						 * two calls' user code) */
	__u64 spans;		/* those spans */
	__u64 span_samples;	/* samples inside them, not counted above (their
				 * time is exact) */
	__u64 span_samples_user;	/* of those, in user mode off a syscall's
					 * return point: what share of span_user
					 * is user work, not interrupts in the paths */
	__u64 gaps;		/* exit-to-entry spans measured (fct_hold_nr) */
	__u64 sc_unconfirmed;	/* owner at a syscall's entry but not at its exit:
				 * not charged (freed or reused memory) */
	__u64 samples_in_sc;	/* samples inside charged syscalls (a cross-check) */
	__u64 nested;		/* segment starts holding another watched word too
				 * (charged to the first in slot order only) */
	struct fct_hold_nr nr[FCT_NR_MAX];	/* of sc, by syscall number */
	struct fct_hold_chain chain[FCT_HOLD_CHAIN];	/* of sc_futex, by the word waited on */
};

struct fct_hold_global {
	__u32 nwatched;		/* slots taken */
	__u32 pad;
	__u64 full;		/* waits on verified words that found no free slot */
	__u64 unverified;	/* waits on words whose owner field named no traced
				 * thread of the waiter's process (not a mutex, or
				 * released as the waiter came) */
	__u64 read_faults;	/* owner reads that faulted (page not present) */
};

/* JVM (jvm.bpf.c) */

/*
 * HotSpot's USDT probes (provider "hotspot" in libjvm.so), aggregated
 * in the kernel. Names (Java thread names, monitor classes) are copied
 * into fixed buffers of FCT_JVM_NAME_LEN bytes, NUL-padded: a thread
 * name keeps its first 63 bytes, a class name its last 63 (the simple
 * name is at the end) and sets FCT_JVM_F_TRUNCATED. Class names are in
 * the JVM's internal form (java/lang/Object, PoolBench$Pool).
 */
#define FCT_JVM_NAME_LEN	64
#define FCT_JVM_F_TRUNCATED	1

/* monitor waits, per (thread, class of the monitor's object) */
struct fct_jvm_mon_key {
	__u32 tid;		/* kernel tid of the waiting thread */
	__u32 flags;		/* FCT_JVM_F_* */
	char cls[FCT_JVM_NAME_LEN];
};

struct fct_jvm_mon_val {
	/* contended enter: monitor__contended__enter -> __entered (the
	 * thread found the monitor owned, spun, and blocked) */
	__u64 enters;
	__u64 enter_ns;
	__u64 enter_max_ns;
	/* monitor__contended__exit: this thread left the monitor while
	 * others were queued on it (the holder side of the contention) */
	__u64 exits;
	/* Object.wait on a monitor of this class: monitor__wait -> __waited */
	__u64 waits;
	__u64 wait_ns;
	__u64 wait_max_ns;
	__u64 monitor;		/* the last ObjectMonitor seen (an address) */
	__u32 hist[FCT_HIST_SLOTS];	/* contended enter waits */
};

/* per kernel tid: the Java thread's name and its waits */
struct fct_jvm_thread {
	char name[FCT_JVM_NAME_LEN];	/* from thread__start if started, else
					 * the comm (a thread that began before
					 * the probes, or one attached by JNI) */
	__u32 daemon;
	__u32 started;		/* thread__start seen */
	__u32 stopped;		/* thread__stop seen */
	__u32 pad;
	/* LockSupport.park: thread__park__begin -> __end */
	__u64 parks;
	__u64 parks_timed;	/* with a timeout or deadline */
	__u64 park_ns;
	__u64 park_max_ns;
};

/* run-wide: GC and safepoint pauses (their losses are in struct fct_lost) */
struct fct_jvm_global {
	__u64 gcs;		/* gc__begin -> gc__end (a collection pause) */
	__u64 gcs_full;
	__u64 gc_ns;
	__u64 gc_max_ns;
	__u64 safepoints;	/* safepoint__begin -> __end: every thread stopped */
	__u64 safepoint_ns;
	__u64 safepoint_max_ns;
};


/* Disk I/O at the block layer (disk.bpf.c, `--probes disk`) */

/*
 * Every request the block layer accounts (the ones /proc/diskstats
 * counts: block_io_start in the submitter's context, block_rq_issue when
 * the driver takes it, block_rq_complete), keyed by the request while it
 * is in flight. The thread that caused it is the one block_io_start ran
 * in: the thread itself for O_DIRECT and synchronous reads, the fsync
 * caller for the writes its fsync starts, a kernel thread for writeback
 * and readahead done later. Flushes (REQ_OP_FLUSH, and the flush
 * machinery's own requests) are counted apart, as diskstats does.
 */
#define FCT_DISK_RQS		4096	/* requests in flight at once */
#define FCT_DISK_DEVS		64	/* disks */
#define FCT_DISK_THREADS	4096	/* traced threads that caused I/O */
#define FCT_DISK_NAME_LEN	32

enum fct_disk_dir { FCT_DISK_READ, FCT_DISK_WRITE, FCT_DISK_DIRS };

/* per disk (the whole disk: a partition's requests count for its disk),
 * every process's requests completed in the window */
struct fct_disk_dev {
	char name[FCT_DISK_NAME_LEN];	/* gendisk->disk_name: "vda" */
	__u32 dev;		/* MKDEV(major, first_minor), kernel encoding */
	__u32 pad;
	__u64 ios[FCT_DISK_DIRS];	/* requests completed, as diskstats counts them */
	__u64 bytes[FCT_DISK_DIRS];
	__u64 queue_ns[FCT_DISK_DIRS];	/* sum of block_io_start -> complete (diskstats'
					 * time reading / writing, in ns) */
	__u64 service_ns[FCT_DISK_DIRS];	/* sum of issue -> complete */
	__u64 flushes;		/* the flush machinery's flush requests completed
				 * (diskstats' flushes) */
	__u64 busy_ns;		/* at least one request in flight (diskstats' io_ticks) */
	__u64 merges[FCT_DISK_DIRS];	/* requests merged into another before issue
					 * (diskstats' merges, request merges only) */
	__u64 traced_ios[FCT_DISK_DIRS];	/* of ios: caused by traced threads */
	__u64 traced_bytes[FCT_DISK_DIRS];
	__s64 inflight;		/* private: requests in flight now */
	__u64 busy_since;	/* private: when inflight went 0 -> 1 */
	__u32 hist[FCT_DISK_DIRS][FCT_HIST_SLOTS];	/* issue -> complete (as biolatency) */
};

/* per traced thread that caused requests (its tid) */
struct fct_disk_thread {
	__u32 tid;
	__u32 tgid;
	__u64 ios[FCT_DISK_DIRS];	/* its requests completed */
	__u64 bytes[FCT_DISK_DIRS];
	__u64 ns[FCT_DISK_DIRS];	/* time at least one of its requests of that
					 * direction was in flight (block_io_start to
					 * complete): parallel requests count once */
	__u64 flushes;		/* flushes it asked for: empty preflush writes
				 * (blkdev_issue_flush, not counted as writes) and
				 * writes with a preflush */
	__s64 inflight[FCT_DISK_DIRS];	/* private */
	__u64 since[FCT_DISK_DIRS];	/* private */
	__u32 hist[FCT_HIST_SLOTS];	/* its reads, issue -> complete */
};

/* run-wide: what did not fit */
/*
 * io_uring per ring (uring.bpf.c, in the disk group): what a traced
 * process submitted on each of its rings and how it completed, whoever
 * completed it (an interrupt, an iou-wrk worker, the submitter).
 */
#define FCT_URING_RINGS		256	/* (process, ring) */
#define FCT_URING_INFLIGHT	4096	/* requests followed at once */

enum fct_uring_kind { FCT_URING_READ, FCT_URING_WRITE, FCT_URING_OTHER, FCT_URING_KINDS };

struct fct_uring_key {
	__u32 tgid;		/* the submitting process */
	__u32 pad;
	__u64 ctx;		/* the ring (its io_ring_ctx) */
};

struct fct_uring_val {
	__u64 submitted[FCT_URING_KINDS];
	__u64 completed[FCT_URING_KINDS];	/* of those submitted in the window */
	__u64 bytes[FCT_URING_KINDS];		/* their results > 0 */
	__u64 lat_ns[FCT_URING_KINDS];		/* submit to completion, summed */
	__u64 max_ns;
	__u64 errors;		/* completions with a result < 0 */
	__u64 async;		/* punted to an io-wq worker (an iou-wrk thread) */
	__u64 untracked;	/* submissions the in-flight table had no room for */
};

struct fct_disk_global {
	__u64 rqs_full;		/* requests not followed: the in-flight table was full */
	__u64 devs_full;	/* requests of a disk the device table had no room for */
	__u64 threads_full;	/* traced threads' requests with no room in the thread table */
};
/*
 * Files' handles (fileuse.bpf.c, probe group "handles"): every open of a
 * regular file, every use of a descriptor of one (read, pread, sendfile,
 * fstat, mmap, write ...) and every close, by file identity (device and
 * inode), through the `fileuse` ring buffer. A thread's uses of the file
 * it used last are sent once (a request reads a file in several calls);
 * its positional reads are each sent, with where they read: the block
 * stream of the caches a program keeps itself (a buffer pool). Sockets
 * too, but only their connects, their closes and the end of a new
 * connection's set-up: a pool of connections' misses.
 * Every file is sent; where the files are many, user space samples them
 * (user/base/reuse.h, SHARDS) and counts what its tables could not keep.
 */
enum fct_fileuse_op {
	FCT_FU_OPEN = 1,	/* open, openat, openat2, creat: fd is the result */
	FCT_FU_USE,		/* a call on descriptor fd */
	FCT_FU_CLOSE,		/* close(fd) */
	FCT_FU_READ,		/* a positional read (pread64, preadv, preadv2) on fd:
				 * a use of the file too, unless repeat */
	FCT_FU_CONNECT,		/* connect(fd) succeeded or is in progress: ino the
				 * socket's, peer the address it connects to, ts
				 * when the call began, off its time in ns */
	FCT_FU_SETUP,		/* the connection on socket ino carried a second
				 * exchange: off the ns from connect's entry to the
				 * end of the first read that returned data (its
				 * set-up, as a pool would save it), ts the time */
};

#define FCT_FU_REPEAT		1u	/* flags: the thread's last file again (not a
					 * new use of the handle) */
#define FCT_FU_DIRECT		2u	/* the file is open O_DIRECT */
#define FCT_FU_SOCKET		4u	/* FCT_FU_CLOSE: of a socket (ts the time) */

#define FCT_FU_NAME_LEN		32

struct fct_fileuse {
	__u32 tgid;
	__u32 tid;
	__u64 ino;
	__u32 dev;
	__u32 op;		/* enum fct_fileuse_op */
	__s32 fd;
	__u32 nr;		/* the syscall */
	union {
		__u64 size;	/* a file's events: its size (i_size) */
		__u64 ts;	/* a socket's: the time (CLOCK_MONOTONIC ns) */
	};
	__u64 off;		/* FCT_FU_READ: where it reads, and how many bytes;
				 * FCT_FU_CONNECT, FCT_FU_SETUP: a time in ns */
	__u32 len;		/* (0: not known, a vector read) */
	__u32 flags;		/* FCT_FU_REPEAT, FCT_FU_DIRECT */
	union {
		struct {	/* FCT_FU_OPEN: the file's name and its directory's */
			char name[FCT_FU_NAME_LEN];
			char dir[FCT_FU_NAME_LEN];
		};
		/* FCT_FU_CONNECT: the sockaddr as the program passed it (a
		 * path past FCT_FU_PEER_LEN bytes cut) */
		__u8 peer[2 * FCT_FU_NAME_LEN];
	};
};
#define FCT_FU_PEER_LEN		(2 * FCT_FU_NAME_LEN)

/*
 * A proxy's pool of connections (sockflow.bpf.h, in the handles group):
 * the sockets of a process that forwards its clients' requests over
 * fewer connections of its own to a peer (a connection pooler). User
 * space finds them (trace/sockinv.c: the process's listening, accepted
 * and connected sockets) and puts each in flow_socks with its role and
 * group; the probes then time each exchange on them: on a client's
 * (inbound) socket from the read that brings a request to the write of
 * the reply, on a pool's (outbound) one from the write of a request to
 * the read that brings its reply. What the first holds beyond the second
 * is the clients' wait in the proxy for a connection.
 */
#define FCT_FLOW_SOCKS		16384
#define FCT_FLOW_GROUPS		8

enum fct_flow_role {
	FCT_FLOW_LISTEN = 1,	/* a listening socket: what it accepts is inbound */
	FCT_FLOW_IN,		/* a client's connection, accepted */
	FCT_FLOW_OUT,		/* a connection of the pool, to the peer */
};

struct fct_flow_sock {		/* flow_socks' value, keyed by the socket's inode */
	__u32 group;		/* < FCT_FLOW_GROUPS */
	__u32 role;		/* enum fct_flow_role */
	__u64 since;		/* the exchange open since (0: none) */
};

#define FCT_FLOW_LEVELS		32	/* the pool's busy connections, one by one */

struct fct_flow_group {		/* flow_groups' value, one per proxy */
	__u64 in_n, in_ns;	/* client exchanges closed, their time summed */
	__u64 out_n, out_ns;	/* the pool's exchanges closed, their time */
	__u64 accepted;		/* client connections accepted in the window */
	__s64 out_open;		/* the pool's exchanges open now */
	__u64 level_since;	/* when out_open last changed */
	__u64 first_ns, last_ns;	/* the first exchange's start, the last's end:
					 * the span the pool was used in */
	/* the time with k of the pool's exchanges open (the last: k or more) */
	__u64 level_ns[FCT_FLOW_LEVELS];
};
/* a use's and a close's record: the names are sent with an open or a
 * connect only */
#define FCT_FU_HEAD_BYTES	__builtin_offsetof(struct fct_fileuse, name)

/* A file's key: its device and inode in one word */
static inline __u64 fct_fileuse_key(__u32 dev, __u64 ino)
{
	return ((__u64)dev << 40) ^ ino;
}

#endif /* FCTRACE_ABI_H */
