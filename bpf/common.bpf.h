/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * common.bpf.h - what every fctrace BPF file shares: the run's filter,
 * the thread slots, the lost counters and small aggregation helpers.
 *
 * Maps and globals are defined once, in common.bpf.c; the other files
 * see them through the extern declarations below (bpftool gen object
 * links the objects and resolves them).
 */
#ifndef FCTRACE_COMMON_BPF_H
#define FCTRACE_COMMON_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "fctrace.h"

#include "slot.h"

/* Map shapes, named so that the definition and the externs agree. */
/* mmapable: user space reads the accounts in place at the end (a table of
 * 8 192 slots for 4 000 threads: 0.72 s one lookup per slot, 0.52 s in
 * place, the copy of the used ones the rest) */
struct fct_slots_map {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, FCT_MAX_SLOTS);
	__type(key, __u32);
	__type(value, struct fct_slot);
};

struct fct_tgids_map {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FCT_MAX_TGIDS);
	__type(key, __u32);
	__type(value, __u32);
};

/* The timeline's ring buffer; user space sizes it for the window
 * (one page when --timeline is off). */
struct fct_tl_map {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
};

/* Rings the sampled user stacks to user space (external targets only:
 * fctrace's own workloads name their locks themselves): futex waits'
 * (syscalls.bpf.c) and, with --cpu-stacks, cpu-clock samples'. */
struct fct_ustacks_map {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 16 << 20);
};

/* A thread's syscall numbers past its slot's FCT_NR_SLOT (fctrace.h):
 * allocated as used; the loader sizes it by the slots */
struct fct_nr_spill_map {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, FCT_NR_SPILL_ENTRIES);
	__type(key, struct fct_sc_hist_key);
	__type(value, struct fct_nr_stats);
};

extern struct fct_slots_map slots SEC(".maps");
extern struct fct_nr_spill_map nr_spill SEC(".maps");
extern struct fct_tl_map timeline SEC(".maps");
extern struct fct_ustacks_map ustacks SEC(".maps");
extern struct fct_tgids_map tgids SEC(".maps");

extern const volatile __u32 target_tgid;	/* rodata: set before load */
extern const volatile __u32 follow_forks;	/* rodata: child processes join the target */
extern const volatile __u32 tgid_list;		/* rodata: user space lists more processes
						 * in tgids (attach -p A,B, --follow) */
extern const volatile __u32 slot_mask;		/* rodata: the slots map's size - 1 */
extern __u32 sc_time_every;	/* data: 1..FCT_SC_EVERY_MAX, a power of 2; the budget raises it */
extern const volatile __u32 blocked_stacks;	/* rodata: sample the kernel stacks of
						 * sleeps in syscalls (bstack.bpf.h) */
extern __u32 enabled;				/* bss: the counting window */
extern __u64 slots_claimed;			/* bss: slots given, for the recycler */
extern struct fct_lost lost;			/* bss */
extern __u32 tl_on;				/* bss: the timeline window is open */
extern __u64 tl_end_ns;				/* bss: and closes then, whenever
						 * user space clears tl_on */
extern __u64 tl_drops;				/* bss: records the ring buffer had no room for */

/* A number the slot's table has no entry for: the nr_spill map's (made
 * at its first call); NULL, counted, when that map is full. */
static __noinline struct fct_nr_stats *fct_nr_spilled(struct fct_slot *t, __u32 nr)
{
	struct fct_sc_hist_key k = { .tid = t->a.tid, .nr = nr & (FCT_NR_MAX - 1) };
	struct fct_nr_stats zero = {}, *s;

	if ((s = bpf_map_lookup_elem(&nr_spill, &k)))
		return s;
	if (bpf_map_update_elem(&nr_spill, &k, &zero, BPF_NOEXIST) ||
	    !(s = bpf_map_lookup_elem(&nr_spill, &k))) {
		__sync_fetch_and_add(&lost.nr_spill_full, 1);
		return NULL;
	}
	t->a.nrt.at[nr & (FCT_NR_MAX - 1)] = FCT_NR_SPILLED;	/* k.nr, from the stack, unbounded */
	t->a.nrt.spilled++;
	return s;
}

/* The thread's figures of syscall nr: its slot's entry, given at the
 * number's first call while the slot has one free, else spilled. Only
 * the thread's own hooks give entries (the charge of a sleep finds the
 * one its entry made). */
static __always_inline struct fct_nr_stats *fct_nr_of(struct fct_slot *t, __u32 nr)
{
	struct fct_nr_table *n = &t->a.nrt;
	__u32 at = n->at[nr & (FCT_NR_MAX - 1)], i = at - 1;

	/* the masks: for the verifier, which loses the bounds the tests
	 * set once the compiler recomputes the index (FCT_NR_SLOT is a
	 * power of two) */
	if (i < FCT_NR_SLOT)
		return &n->e[i & (FCT_NR_SLOT - 1)];
	if (at == 0) {
		i = n->used;
		if (i < FCT_NR_SLOT) {
			n->used = i + 1;
			n->at[nr & (FCT_NR_MAX - 1)] = (__u8)(i + 1);
			return &n->e[i & (FCT_NR_SLOT - 1)];
		}
	}
	return fct_nr_spilled(t, nr);
}

/* Count a nanosecond value in a histogram (layout: histlog.h). */
static __always_inline void fct_hist_add(__u32 *hist, __u64 v)
{
	__u32 s = fct_hist_slot(v, FCT_HIST_SLOTS);

	if (s < FCT_HIST_SLOTS)		/* for the verifier */
		hist[s]++;
}

/* Is tgid the target process, one listed with it, or (with --follow)
 * one it forked? The common case is one compare; the hash is asked only
 * when there may be more than one process. */
static __always_inline bool fct_is_target_tgid(__u32 tgid)
{
	if (tgid == target_tgid)
		return true;
	return (follow_forks || tgid_list) && bpf_map_lookup_elem(&tgids, &tgid);
}

static __always_inline bool fct_is_target(__u64 pid_tgid)
{
	return fct_is_target_tgid((__u32)(pid_tgid >> 32));
}

/* The active account of thread tid (between its marks), or NULL.
 * Array lookups are inlined by the verifier: a few loads, no hashing.
 * A slot once claimed keeps its tid (threads.bpf.c claims the first
 * never-used one of a tid's probes), so a never-used slot ends the
 * search: a thread without one stops there, not after all 16 probes. */
static __always_inline struct fct_slot *fct_slot(__u32 tid)
{
	struct fct_slot *t;
	__u32 k;

#pragma unroll
	for (int i = 0; i < FCT_SLOT_PROBES; i++) {
		k = (tid + i) & slot_mask;
		t = bpf_map_lookup_elem(&slots, &k);
		if (!t || !t->a.tid)
			return NULL;
		if (t->a.tid == tid && t->active)
			return t;
	}
	return NULL;
}

/* The active account of thread tid of process tgid, or NULL when tgid
 * is not traced. Only a traced thread is ever given a slot, so with
 * more than one traced process the slot itself answers, not the tgids
 * hash: a PostgreSQL backend's every syscall and switch looked its
 * process up there before its slot (sys_enter 207 ns a run against 173
 * without, under pgbench). */
static __always_inline struct fct_slot *fct_target_slot(__u32 tgid, __u32 tid)
{
	if (tgid != target_tgid && !follow_forks && !tgid_list)
		return NULL;
	return fct_slot(tid);
}

/* prev_state bits (include/linux/sched.h) */
#define TASK_UNINTERRUPTIBLE	0x02
#define TASK_STOPPED_BITS	0x0c	/* __TASK_STOPPED | __TASK_TRACED */

/* What kind of sleep prev_state is, for the account's blocked split. */
static __always_inline __u32 fct_sleep_kind(unsigned int prev_state)
{
	if (prev_state & TASK_STOPPED_BITS)
		return FCT_C_STOPPED;
	return prev_state & TASK_UNINTERRUPTIBLE ? FCT_C_UNINT : 0;
}

/* Which [K] fields an interval in the thread's current state goes to. */
static __always_inline __u32 fct_code(const struct fct_slot *t)
{
	__u32 sleep = t->st_state == FCT_ST_BLOCKED ? t->st_sleep : 0;

	return t->st_state | sleep | (t->in_futex_wait ? FCT_C_FUTEX : 0);
}

/* Book d nanoseconds (or take them back: d wraps negative) under code. */
static __always_inline void fct_book(struct fct_account *a, __u32 code, __u64 d)
{
	__u32 state = code & FCT_C_STATE;

	if (state == FCT_ST_RUNNING) {
		a->oncpu_ns += d;
		return;
	}
	if (state == FCT_ST_RUNNABLE)
		a->runq_total_ns += d;
	else
		a->offcpu_ns += d;
	if (code & FCT_C_FUTEX) {
		a->futex_off_ns += d;
	} else if (state == FCT_ST_RUNNABLE) {
		a->runq_ns += d;
	} else {
		a->blocked_ns += d;
		if (code & FCT_C_UNINT)
			a->blocked_io_ns += d;
		else if (code & FCT_C_STOPPED)
			a->stopped_ns += d;
	}
}

/* The active account of the current thread, if it is one of ours and
 * the window is open: the first thing every per-thread hook asks. */
static __always_inline struct fct_slot *fct_current_slot(void)
{
	__u64 pid_tgid;

	if (!enabled)
		return NULL;
	pid_tgid = bpf_get_current_pid_tgid();
	return fct_target_slot((__u32)(pid_tgid >> 32), (__u32)pid_tgid);
}

/*
 * The time account: give the time since the last transition to the
 * fields the thread's state names, and start a new interval at now.
 * The scheduler edges and the marks call this (the syscall hooks do
 * not: see struct fct_account), so the [K] fields tile [begin, end]
 * without gaps. The last two charges are kept so that the end mark can
 * take back time charged past end_ns.
 */
static __always_inline void fct_charge(struct fct_slot *t, __u64 now)
{
	struct fct_nr_stats *s;
	__u32 code;
	__u64 d;

	if (now <= t->st_since_ns)
		return;
	d = now - t->st_since_ns;
	code = fct_code(t);
	fct_book(&t->a, code, d);
	if ((code & FCT_C_STATE) == FCT_ST_BLOCKED && !(code & FCT_C_FUTEX) && t->in_syscall &&
	    (s = fct_nr_of(t, t->in_nr)))
		s->blocked_ns += d;
	t->last_from[1] = t->last_from[0];
	t->last_len[1] = t->last_len[0];
	t->last_code[1] = t->last_code[0];
	t->last_from[0] = t->st_since_ns;
	t->last_len[0] = d;
	t->last_code[0] = code;
	t->st_since_ns = now;
}

/* Take back what the last two charges counted after end. */
static __always_inline void fct_uncharge_after(struct fct_slot *t, __u64 end)
{
#pragma unroll
	for (int i = 0; i < 2; i++) {
		__u64 from = t->last_from[i], to = from + t->last_len[i], cut;

		if (to <= end || !t->last_len[i])
			continue;
		cut = to - (from > end ? from : end);
		fct_book(&t->a, t->last_code[i], -cut);
	}
}

/*
 * One timeline record: thread t's edge `kind` at ts, with its syscall
 * context. Callers test tl_on first, after their own work, so that with
 * --timeline off this costs one predictable branch. No wakeup is sent:
 * user space drains the buffer on its own clock (a wakeup per record
 * would cost an irq_work each).
 */
static __always_inline void fct_tl_emit(const struct fct_slot *t, __u64 ts, __u16 kind,
					__u32 op, __u64 arg)
{
	struct fct_tl_event *e;

	if (ts > tl_end_ns)
		return;
	e = bpf_ringbuf_reserve(&timeline, sizeof(*e), 0);
	if (!e) {
		__sync_fetch_and_add(&tl_drops, 1);
		return;
	}
	e->ts = ts;
	e->tid = t->a.tid;
	e->kind = kind;
	e->nr = t->in_syscall || kind == FCT_TL_SYS_EXIT ? t->in_nr : FCT_TL_NO_SC;
	e->op = op;
	e->flags = t->in_futex_wait ? FCT_TL_F_FUTEX_WAIT : 0;
	e->arg = t->in_futex_wait ? t->futex_uaddr : arg;
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
}

/* Find or create the entry for key in a stats hash; NULL when full. */
static __always_inline void *fct_hash_entry(void *map, const void *key,
					    const void *zero, __u64 *full)
{
	void *v = bpf_map_lookup_elem(map, key);

	if (v)
		return v;
	bpf_map_update_elem(map, key, zero, BPF_NOEXIST);
	v = bpf_map_lookup_elem(map, key);
	if (!v)
		__sync_fetch_and_add(full, 1);
	return v;
}

#endif /* FCTRACE_COMMON_BPF_H */
