// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * syscalls.bpf.c - sys_enter/sys_exit: the per-thread syscall table,
 * futex waits per futex word, pages asked for by pread64, and the
 * syscall edges of the time account.
 *
 * This is the hottest path fctrace has (every syscall of the traced
 * process): enabled check, tgid check, inlined slot lookup, a few adds
 * to the thread's table by syscall number. Most calls read no clock at
 * all: only the timed ones do (see FCT_SC_WARMUP in fctrace.h), and only
 * those look up their (thread, number) histogram in sc_hists; the other
 * hash update is for futex waits, at their exit.
 *
 * Two forms: tp_btf (default; reads the syscall's registers with plain
 * loads) and raw_tp (fallback; reads them with bpf_probe_read_kernel).
 * The tp_btf form also runs the holders' syscall edges (holders.bpf.h)
 * when holders_on is set: a raw_tp program may not use their spin lock.
 */
#include "common.bpf.h"
#include "sysnr.bpf.h"
#include "holders.bpf.h"
#include "ustack.bpf.h"
#include "bstack.bpf.h"
#include "fdfile.bpf.h"
#include "fileuse.bpf.h"
#include "pools.bpf.h"

#define PAGE_SHIFT_4K		12

const volatile __u32 ustack_sample = 0;	/* rodata: send user stacks */
/* rodata: count who wakes whom (lockname.c's "taken in turns"), for
 * another program's words; fctrace's own workloads name their locks,
 * and a contended pool wakes often enough for the hash update to show */
const volatile __u32 wake_count = 0;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	/* 1 KiB a value (its histogram): preallocating 16 Mi took ~80 ms of
	 * every load; an entry is made once per (thread, word) */
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, FCT_FUTEX_ENTRIES);
	__type(key, struct fct_futex_key);
	__type(value, struct fct_futex_val);
} futex_waits SEC(".maps");

/* what the wakers finished last before a wake (struct fct_wake_after_key) */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, FCT_WAKE_AFTER_ENTRIES);
	__type(key, struct fct_wake_after_key);
	__type(value, struct fct_wake_after_val);
} wake_after SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	/* 1 KiB a value, like futex_waits: made once per (thread, number) */
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, FCT_SC_HIST_ENTRIES);
	__type(key, struct fct_sc_hist_key);
	__type(value, struct fct_sc_hist);
} sc_hists SEC(".maps");

/* The futex word a wait sleeps on: futex's first argument, or the first
 * of futex_waitv's waiters (struct futex_waitv: val, uaddr, ...). */
static __always_inline __u64 waitv_first_word(__u64 waiters)
{
	__u64 uaddr = 0;

	bpf_probe_read_user(&uaddr, sizeof(uaddr), (void *)(waiters + 8));
	return uaddr;
}

/* Syscall argument n (1-based) with libbpf's per-arch register names
 * (__TARGET_ARCH_*): plain loads from tp_btf, CO-RE probe reads from
 * raw_tp. (On arm64 argument 1 is orig_x0, always a CO-RE read.) */
#define SC_ARG(direct, regs, n) \
	((direct) ? (__u64)PT_REGS_PARM##n##_SYSCALL(regs) \
		  : (__u64)PT_REGS_PARM##n##_CORE_SYSCALL(regs))

/* The weight of the n-th call (from 0) of number id if it is to be
 * timed, else 0. Every futex call is timed: waits need their own times. */
static __always_inline __u32 sc_weight(long id, __u64 n)
{
	__u32 every = sc_time_every;	/* read once: the budget may change it */

	if (sc_is_futex(id) || n < FCT_SC_WARMUP || !every)
		return 1;
	return (n & (every - 1)) == fct_sc_offset(n / every, every) ? every : 0;
}

/* The timeline's record of a syscall entry: a futex call's word and op
 * (a wake names the word its waiter sleeps on). Only with tl_on. */
static __always_inline void tl_enter(struct fct_slot *t, struct pt_regs *regs,
				     long id, bool direct)
{
	__u64 word = 0;
	__u32 op = 0;

	if (sc_is_futex(id) && t->in_futex_wait) {
		op = t->futex_op;
	} else if (sc_is_futex(id)) {
		word = SC_ARG(direct, regs, 1);
		op = SC_ARG(direct, regs, 2) & FUTEX_OP_MASK;
	}
	fct_tl_emit(t, bpf_ktime_get_ns(), FCT_TL_SYS_ENTER, op, word);
}

static __always_inline void on_enter(struct pt_regs *regs, long id, bool direct)
{
	struct fct_slot *t = fct_current_slot();
	struct fct_nr_stats *s;
	__u32 op;

	if (!t || id < 0)
		return;
	t->in_sc_hook = 1;
	t->in_syscall = 1;
	fct_bstack_enter(t);
	t->in_nr = id & (FCT_NR_MAX - 1);
	/* a call the spill map had no room for is not counted: not timed */
	t->sc_weight = (s = fct_nr_of(t, t->in_nr)) ? sc_weight(id, s->count++) : 0;
	if (id == NR_PREAD64) {
		t->pread_pos = SC_ARG(direct, regs, 4);
		t->pread_direct = fct_fd_direct((long)SC_ARG(direct, regs, 1), direct);
	} else if (id == NR_FUTEX_WAITV) {
		t->futex_op = FCT_FUTEX_OP_WAITV;
		t->futex_uaddr = waitv_first_word(SC_ARG(direct, regs, 1));
		t->in_futex_wait = 1;
	} else if (id == NR_FUTEX) {
		op = SC_ARG(direct, regs, 2) & FUTEX_OP_MASK;
		if (futex_op_waits(op)) {
			t->futex_op = op;
			t->futex_uaddr = SC_ARG(direct, regs, 1);
			t->in_futex_wait = 1;
		} else if (wake_count && futex_op_wakes(op)) {
			t->futex_uaddr = SC_ARG(direct, regs, 1);
			t->in_futex_wake = futex_wakes_all(op, SC_ARG(direct, regs, 3)) ?
					   FCT_WAKE_ALL : 1;
		}
	}
	if (t->sc_weight) {
		t->sc_off_mark = t->a.offcpu_ns + t->a.runq_total_ns;
		t->sc_runq_mark = t->a.runq_total_ns;
		t->sc_enter_ns = bpf_ktime_get_ns();
	}
	if (pools_on && direct && t->in_futex_wait)
		fct_pool_wait_enter(t);
	if (holders_on && direct)
		fct_hold_enter(t, regs, id);
	if (handles_on && direct)
		fu_enter(t, regs, id);
	if (tl_on)
		tl_enter(t, regs, id, direct);
	t->in_sc_hook = 0;
}

/* Warm-up stacks sent per futex word, all its threads' together
 * (struct fct_word_key): a word is named from a few of its stacks, and a
 * server's many threads each warming up on one word flooded the ring
 * faster than user space unwinds (MariaDB: 1786 dropped of 2806). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, FCT_FUTEX_ENTRIES);
	__type(key, struct fct_word_key);
	__type(value, __u32);
} ustack_words SEC(".maps");

/* Is the word still short of its warm-up stacks? Counts this one. */
static __always_inline bool word_warming(struct fct_slot *t)
{
	static const __u32 zero;
	struct fct_word_key key = { .tgid = t->a.tgid, .uaddr = t->futex_uaddr };
	__u32 *n = bpf_map_lookup_elem(&ustack_words, &key);

	if (!n) {
		bpf_map_update_elem(&ustack_words, &key, &zero, BPF_NOEXIST);
		n = bpf_map_lookup_elem(&ustack_words, &key);
	}
	if (!n)		/* the table full: that word's warm-up uncapped, nothing lost */
		return true;
	if (*n >= FCT_USTACK_WORD_WARMUP)
		return false;
	__sync_fetch_and_add(n, 1);
	return true;
}

/* Should the n-th wait (from 1) on this word send its user stack? Its
 * thread's periodic ones always; its first ones while the word warms up. */
static __always_inline bool ustack_wanted(struct fct_slot *t, const struct fct_futex_val *v)
{
	if (!ustack_sample || v->sampled >= FCT_USTACK_MAX)
		return false;
	if (!(v->waits & (FCT_USTACK_EVERY - 1)))
		return true;
	return v->waits <= FCT_USTACK_WARMUP && word_warming(t);
}

/* Send this wait's registers and the top of its user stack (ustack.bpf.h):
 * the stack above the wait's rsp is what it was at entry, the thread slept. */
static __always_inline void ustack_send(struct fct_slot *t, struct pt_regs *regs)
{
	struct fct_ustack *e = fct_ustack_reserve(t, &lost.ustack_drops);

	if (!e)
		return;
	e->uaddr = t->futex_uaddr;
	e->op = t->futex_op;
	__builtin_memset(e->kips, 0, sizeof(e->kips));
	fct_ustack_fill(e, regs);
	bpf_ringbuf_submit(e, 0);
}

static __always_inline void futex_record(struct fct_slot *t, __u64 d, long ret,
					 struct pt_regs *regs)
{
	static const struct fct_futex_val zero = {};
	struct fct_futex_key key = {
		.tid = t->a.tid, .op = t->futex_op, .uaddr = t->futex_uaddr,
	};
	struct fct_futex_val *v;

	t->a.futex_waits++;
	v = fct_hash_entry(&futex_waits, &key, &zero, &lost.futex_map_full);
	if (!v)
		return;
	v->waits++;
	v->wait_ns += d;
	v->runq_ns += t->a.runq_total_ns - t->sc_runq_mark;
	if (d > v->max_ns)
		v->max_ns = d;
	if (ret < 0)
		v->errors++;
	fct_hist_add(v->hist, d);
	if (ustack_wanted(t, v)) {
		v->sampled++;
		ustack_send(t, regs);
	}
}

/* the wakers' accounts at their last wake of each word */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, FCT_WAKE_AFTER_ENTRIES);
	__type(key, struct fct_word_key);
	__type(value, struct fct_wake_mark);
} wake_marks SEC(".maps");

/* What the waker did since its last wake of this object, into v: the
 * account's parts over the span (the running interval included: the
 * waker is on CPU, in its futex call); then the marks move to now. By
 * object (FCT_POOL_OBJ), not word: a glibc condvar's broadcasts go to
 * its two group words in turn, and spans per word would overlap. */
static __always_inline void wake_cycle(struct fct_slot *t, struct fct_wake_after_val *v)
{
	static const struct fct_wake_mark zero = {};
	struct fct_word_key key = { .tgid = t->a.tid, .uaddr = FCT_POOL_OBJ(t->futex_uaddr) };
	struct fct_wake_mark *k = fct_hash_entry(&wake_marks, &key, &zero, &lost.wake_after_full);
	__u64 now = bpf_ktime_get_ns(), on = t->a.oncpu_ns;

	if (!k)
		return;
	if (t->st_state == FCT_ST_RUNNING && now > t->st_since_ns)
		on += now - t->st_since_ns;
	if (k->at_ns) {
		v->cycles++;
		v->span_ns += now - k->at_ns;
		v->oncpu_ns += on - k->oncpu_ns;
		v->sys_ns += t->a.sys_on_est_ns - k->sys_ns;
		v->runq_ns += t->a.runq_ns - k->runq_ns;
		v->blocked_ns += t->a.blocked_ns - k->blocked_ns;
		v->futex_ns += t->a.futex_off_ns - k->futex_ns;
	}
	k->at_ns = now;
	k->oncpu_ns = on;
	k->sys_ns = t->a.sys_on_est_ns;
	k->runq_ns = t->a.runq_ns;
	k->blocked_ns = t->a.blocked_ns;
	k->futex_ns = t->a.futex_off_ns;
}

/* The same wake by what its thread finished last before it, and what
 * the thread did since its last wake of the word. */
static __always_inline void wake_after_record(struct fct_slot *t, long woken)
{
	static const struct fct_wake_after_val zero = {};
	struct fct_wake_after_key key = {
		.tid = t->a.tid, .nr = t->done_nr, .uaddr = t->futex_uaddr,
	};
	struct fct_wake_after_val *v;

	v = fct_hash_entry(&wake_after, &key, &zero, &lost.wake_after_full);
	if (!v)
		return;
	v->wakes++;
	v->woken += woken;
	wake_cycle(t, v);
}

/* A wake that woke someone: who passes this word to whom. One entry per
 * (thread, word) beside its waits; only calls that woke pay the update. */
static __always_inline void wake_record(struct fct_slot *t, long woken)
{
	static const struct fct_futex_val zero = {};
	struct fct_futex_key key = {
		.tid = t->a.tid, .op = FCT_FUTEX_OP_WAKE, .uaddr = t->futex_uaddr,
	};
	struct fct_futex_val *v;

	t->in_futex_wake = 0;
	if (woken <= 0)
		return;
	v = fct_hash_entry(&futex_waits, &key, &zero, &lost.futex_map_full);
	if (!v)
		return;
	v->wakes++;
	v->woken += woken;
	wake_after_record(t, woken);
}

/* pages spanned by [pos, pos + len) */
static __always_inline __u64 pages_spanned(__u64 pos, __u64 len)
{
	return ((pos + len - 1) >> PAGE_SHIFT_4K) - (pos >> PAGE_SHIFT_4K) + 1;
}

/* A timed call's duration in its (thread, number) histogram (min_ns 0:
 * none yet; a call takes at least a nanosecond). */
static __always_inline void sc_hist_add(struct fct_slot *t, __u32 nr, __u64 d, __u32 w)
{
	static const struct fct_sc_hist zero = {};
	struct fct_sc_hist_key key = { .tid = t->a.tid, .nr = nr };
	struct fct_sc_hist *h;
	__u32 slot = fct_hist_slot(d, FCT_HIST_SLOTS);

	h = fct_hash_entry(&sc_hists, &key, &zero, &lost.sc_hist_full);
	if (!h)
		return;
	if (!h->min_ns || d < h->min_ns)
		h->min_ns = d;
	if (d > h->max_ns)
		h->max_ns = d;
	if (slot < FCT_HIST_SLOTS)	/* for the verifier */
		h->hist[slot] += w;
}

/* A timed call of d ns and weight w: the estimates, and the time it
 * spent on CPU (d less what the scheduler edges charged off CPU). */
static __always_inline void sc_time(struct fct_slot *t, struct fct_nr_stats *s, __u32 nr,
				    __u64 d, __u32 w, long ret, struct pt_regs *regs)
{
	__u64 off = t->a.offcpu_ns + t->a.runq_total_ns - t->sc_off_mark;
	__u64 on = d > off ? d - off : 0;

	sc_hist_add(t, nr, d, w);
	s->timed++;
	s->total_ns += (__u64)w * d;
	if (t->in_futex_wait) {
		t->a.futex_on_ns += on;
		futex_record(t, d, ret, regs);
	} else {
		t->a.sys_on_est_ns += (__u64)w * on;
	}
}

static __always_inline void on_exit(struct pt_regs *regs, long ret, bool direct)
{
	struct fct_slot *t = fct_current_slot();
	struct fct_nr_stats *s;
	__u32 nr, w;

	if (!t)
		return;
	t->in_sc_hook = 1;
	if (holders_on && direct)
		fct_hold_exit(t);
	if (handles_on && direct)
		fu_exit(t, regs, ret);
	if (!t->in_syscall) {
		t->in_sc_hook = 0;
		return;
	}
	t->in_syscall = 0;
	nr = t->in_nr & (FCT_NR_MAX - 1);
	w = t->sc_weight;
	t->sc_weight = 0;
	s = fct_nr_of(t, nr);
	if (s && ret < 0)
		s->errors++;
	if (nr != NR_FUTEX && nr != NR_FUTEX_WAITV)
		t->done_nr = nr + 1;
	if (nr != NR_FUTEX && nr != NR_FUTEX_WAITV && nr != NR_KILL && nr != NR_TKILL &&
	    nr != NR_TGKILL && nr != NR_RT_SIGQUEUEINFO && nr != NR_RT_TGSIGQUEUEINFO)
		t->cause_nr = nr + 1;
	if (nr == NR_PREAD64 && ret > 0) {
		if (t->pread_direct)
			t->a.pages_direct += pages_spanned(t->pread_pos, ret);
		else
			t->a.pages_asked += pages_spanned(t->pread_pos, ret);
	}
	if (w && s)
		sc_time(t, s, nr, bpf_ktime_get_ns() - t->sc_enter_ns, w, ret, regs);
	if (tl_on)
		fct_tl_emit(t, bpf_ktime_get_ns(), FCT_TL_SYS_EXIT,
			    t->in_futex_wait ? t->futex_op : 0, ret);
	if (pools_on && direct && t->pw_waiting)
		fct_pool_wait_exit(t, ret);
	t->in_futex_wait = 0;
	fct_bstack_exit(t, regs);
	if (t->in_futex_wake) {
		if (pools_on && direct)
			fct_pool_wake(t, ret, t->in_futex_wake == FCT_WAKE_ALL);
		wake_record(t, ret);
	}
	t->in_sc_hook = 0;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(fct_sys_enter, struct pt_regs *regs, long id)
{
	on_enter(regs, id, true);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fct_sys_exit, struct pt_regs *regs, long ret)
{
	on_exit(regs, ret, true);
	return 0;
}

SEC("?raw_tp/sys_enter")
int BPF_PROG(fct_sys_enter_raw, struct pt_regs *regs, long id)
{
	on_enter(regs, id, false);
	return 0;
}

SEC("?raw_tp/sys_exit")
int BPF_PROG(fct_sys_exit_raw, struct pt_regs *regs, long ret)
{
	on_exit(regs, ret, false);
	return 0;
}
