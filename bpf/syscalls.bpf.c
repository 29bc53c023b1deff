// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * syscalls.bpf.c - sys_enter/sys_exit: the per-thread syscall table,
 * futex waits per futex word, pages asked for by pread64, and the
 * syscall edges of the time account.
 *
 * This is the hottest path fctrace has (every syscall of the traced
 * process): enabled check, tgid check, inlined slot lookup, a few adds.
 * Most calls read no clock at all: only the timed ones do (see
 * FCT_SC_WARMUP in fctrace.h). The only hash update is for futex
 * waits, at their exit.
 *
 * Two forms: tp_btf (default; reads the syscall's registers with plain
 * loads) and raw_tp (fallback; reads them with bpf_probe_read_kernel).
 */
#include "common.bpf.h"

#if defined(__TARGET_ARCH_x86)
#define NR_CLOSE	3
#define NR_PREAD64	17
#define NR_FUTEX	202
#define NR_OPENAT	257
#define NR_NEWFSTATAT	262
#define NR_STATX	332
#elif defined(__TARGET_ARCH_arm64)
#define NR_OPENAT	56
#define NR_CLOSE	57
#define NR_PREAD64	67
#define NR_NEWFSTATAT	79
#define NR_FUTEX	98
#define NR_STATX	291
#else
#error "fctrace: syscall numbers unknown for this architecture"
#endif

/* futex(2) ops (uapi linux/futex.h, which vmlinux.h does not carry):
 * the ones that can put the caller to sleep, and the mask that drops
 * FUTEX_PRIVATE_FLAG (128) and FUTEX_CLOCK_REALTIME (256) */
#define FUTEX_WAIT		0
#define FUTEX_LOCK_PI		6
#define FUTEX_WAIT_BITSET	9
#define FUTEX_WAIT_REQUEUE_PI	11
#define FUTEX_LOCK_PI2		13
#define FUTEX_OP_MASK		0x7f

#define PAGE_SHIFT_4K	12

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, struct fct_futex_key);
	__type(value, struct fct_futex_val);
} futex_waits SEC(".maps");

static __always_inline enum fct_sc sc_of(long id)
{
	switch (id) {
	case NR_OPENAT:		return FCT_SC_OPENAT;
	case NR_CLOSE:		return FCT_SC_CLOSE;
	case NR_PREAD64:	return FCT_SC_PREAD64;
	case NR_NEWFSTATAT:	return FCT_SC_NEWFSTATAT;
	case NR_STATX:		return FCT_SC_STATX;
	case NR_FUTEX:		return FCT_SC_FUTEX;
	default:		return FCT_SC_OTHER;
	}
}

/* futex ops that put the caller to sleep */
static __always_inline bool futex_op_waits(__u32 op)
{
	return op == FUTEX_WAIT || op == FUTEX_WAIT_BITSET || op == FUTEX_LOCK_PI ||
	       op == FUTEX_LOCK_PI2 || op == FUTEX_WAIT_REQUEUE_PI;
}

/* Syscall argument n (1-based) with libbpf's per-arch register names
 * (__TARGET_ARCH_*): plain loads from tp_btf, CO-RE probe reads from
 * raw_tp. (On arm64 argument 1 is orig_x0, always a CO-RE read.) */
#define SC_ARG(direct, regs, n) \
	((direct) ? (__u64)PT_REGS_PARM##n##_SYSCALL(regs) \
		  : (__u64)PT_REGS_PARM##n##_CORE_SYSCALL(regs))

/* The weight of the n-th call (from 0) of kind sc if it is to be
 * timed, else 0. Every futex call is timed: waits need their own times. */
static __always_inline __u32 sc_weight(enum fct_sc sc, __u64 n)
{
	__u32 every = sc_time_every;

	if (sc == FCT_SC_FUTEX || n < FCT_SC_WARMUP)
		return 1;
	return (n & (every - 1)) ? 0 : every;
}

static __always_inline void on_enter(struct pt_regs *regs, long id, bool direct)
{
	struct fct_thread *t = fct_current_slot();
	enum fct_sc sc;
	__u32 op;

	if (!t)
		return;
	sc = sc_of(id);
	if (sc >= FCT_SC_N)		/* for the verifier */
		return;
	t->in_syscall = sc + 1;
	t->sc_weight = sc_weight(sc, t->sc[sc].count++);
	if (sc == FCT_SC_PREAD64) {
		t->pread_pos = SC_ARG(direct, regs, 4);
	} else if (sc == FCT_SC_FUTEX) {
		op = SC_ARG(direct, regs, 2) & FUTEX_OP_MASK;
		if (futex_op_waits(op)) {
			t->futex_op = op;
			t->futex_uaddr = SC_ARG(direct, regs, 1);
			t->in_futex_wait = 1;
		}
	}
	if (t->sc_weight) {
		t->sc_off_mark = t->offcpu_ns + t->runq_total_ns;
		t->sc_enter_ns = bpf_ktime_get_ns();
	}
}

static __always_inline void futex_record(struct fct_thread *t, __u64 d, long ret)
{
	static const struct fct_futex_val zero = {};
	struct fct_futex_key key = {
		.tid = t->tid, .op = t->futex_op, .uaddr = t->futex_uaddr,
	};
	struct fct_futex_val *v;

	t->futex_waits++;
	v = fct_hash_entry(&futex_waits, &key, &zero, &lost.futex_map_full);
	if (!v)
		return;
	v->waits++;
	v->wait_ns += d;
	if (d > v->max_ns)
		v->max_ns = d;
	if (ret < 0)
		v->errors++;
	fct_hist_add(v->hist, d);
}

/* pages spanned by [pos, pos + len) */
static __always_inline __u64 pages_spanned(__u64 pos, __u64 len)
{
	return ((pos + len - 1) >> PAGE_SHIFT_4K) - (pos >> PAGE_SHIFT_4K) + 1;
}

/* A timed call of d ns and weight w: the estimates, and the time it
 * spent on CPU (d less what the scheduler edges charged off CPU). */
static __always_inline void sc_time(struct fct_thread *t, struct fct_sc_stats *s,
				    __u64 d, __u32 w, long ret)
{
	__u64 off = t->offcpu_ns + t->runq_total_ns - t->sc_off_mark;
	__u64 on = d > off ? d - off : 0;
	__u32 slot = fct_log2(d);

	if (!s->timed || d < s->min_ns)
		s->min_ns = d;
	if (d > s->max_ns)
		s->max_ns = d;
	s->timed++;
	s->total_ns += (__u64)w * d;
	if (slot < FCT_HIST_SLOTS)	/* for the verifier */
		s->hist[slot] += w;
	if (t->in_futex_wait) {
		t->futex_on_ns += on;
		futex_record(t, d, ret);
	} else {
		t->sys_on_est_ns += (__u64)w * on;
	}
}

static __always_inline void on_exit(long ret)
{
	struct fct_thread *t = fct_current_slot();
	struct fct_sc_stats *s;
	__u32 sc, w;

	if (!t || !t->in_syscall)
		return;
	sc = t->in_syscall - 1;
	t->in_syscall = 0;
	w = t->sc_weight;
	t->sc_weight = 0;
	if (sc >= FCT_SC_N)
		return;
	s = &t->sc[sc];
	if (ret < 0)
		s->errors++;
	if (sc == FCT_SC_PREAD64 && ret > 0)
		t->pages_asked += pages_spanned(t->pread_pos, ret);
	if (w)
		sc_time(t, s, bpf_ktime_get_ns() - t->sc_enter_ns, w, ret);
	t->in_futex_wait = 0;
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
	on_exit(ret);
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
	on_exit(ret);
	return 0;
}
