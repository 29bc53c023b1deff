// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * holders.bpf.c - what the holder of a contended user lock does while
 * holding it (`--probes holders`, optional): glibc mutexes in a program
 * fctrace did not write.
 *
 * Which words: a futex word a traced thread FUTEX_WAITs on, if glibc's
 * owner field beside it names a traced thread of its process (fctrace.h,
 * FCT_HOLD_LOCKS). Who holds one: the thread whose tid is in that field.
 *
 * A holder's time is cut into segments at its state edges, and each
 * segment is charged to the lock its thread owned where it began:
 *   - a syscall, entry to exit (exact): the owner field is written only
 *     in user space, so a thread that owns the lock at a syscall's entry
 *     owns it at its exit. It is read again there; a mismatch (the
 *     memory freed and reused) is counted, not charged;
 *   - off CPU, switch out to switch in (exact, for the same reason),
 *     as blocked or preempted by how it went out; inside a charged
 *     syscall it is a part of that syscall's time, kept apart;
 *   - on CPU outside syscalls: a thread can take and release a mutex
 *     many times without a syscall, so no edge brackets that time. The
 *     cpu-clock samples that find the thread owning the lock estimate
 *     it instead (cpuclock.bpf.c, fct_hold_sample).
 * Each segment also gets its overlap with the word's contended time
 * (some traced thread in a futex wait on it) and its waiters' time, from
 * two integrals per word kept under a spin lock (hold_sync).
 *
 * Cost: for a thread of the process, each syscall entry reads the owner
 * field of each watched word (no map update, no clock read unless it
 * owns one); a syscall exit is a slot lookup and a branch unless the
 * call began owning a lock or is a wait on a watched word. Before any
 * word is watched, only futex entries get past the first branch.
 */
#include "common.bpf.h"
#include "sysnr.bpf.h"
#include "holders.bpf.h"

/* A watched word's waiters and their integrals (BPF-private):
 *   waiter time to t     = wait_acc + waiters * t
 *   contended time to t  = cont_acc + (waiters ? t : 0) */
struct hold_sync {
	struct bpf_spin_lock lock;
	__u32 waiters;
	__s64 wait_acc;
	__s64 cont_acc;
	__u64 cont_since;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, FCT_HOLD_LOCKS);
	__type(key, __u32);
	__type(value, struct hold_sync);
} hold_sync SEC(".maps");

static __always_inline struct fct_hold_lock *hold_lock(__u32 i)
{
	return bpf_map_lookup_elem(&holds, &i);
}

/* The integrals of word i at now. */
static __always_inline void hold_marks(__u32 i, __u64 now, __s64 *w, __s64 *c)
{
	struct hold_sync *s = bpf_map_lookup_elem(&hold_sync, &i);
	__s64 ww = 0, cc = 0;

	if (s) {
		bpf_spin_lock(&s->lock);
		ww = s->wait_acc + (__s64)s->waiters * (__s64)now;
		cc = s->cont_acc + (s->waiters ? (__s64)now : 0);
		bpf_spin_unlock(&s->lock);
	}
	*w = ww;
	*c = cc;
}

/* A waiter enters (d = 1) or leaves (d = -1) a futex wait on word i. */
static __always_inline void hold_waiter(__u32 i, __u64 now, int d)
{
	struct hold_sync *s = bpf_map_lookup_elem(&hold_sync, &i);
	struct fct_hold_lock *h = hold_lock(i);
	__u64 closed = 0;
	__u32 n;

	if (!s || !h)
		return;
	bpf_spin_lock(&s->lock);
	if (d > 0) {
		if (!s->waiters) {
			s->cont_acc -= (__s64)now;
			s->cont_since = now;
		}
		s->waiters++;
		s->wait_acc -= (__s64)now;
	} else if (s->waiters) {
		s->waiters--;
		s->wait_acc += (__s64)now;
		if (!s->waiters) {
			s->cont_acc += (__s64)now;
			closed = now - s->cont_since;
		}
	}
	n = s->waiters;
	bpf_spin_unlock(&s->lock);
	h->waiters = n;
	if (d > 0)
		__sync_fetch_and_add(&h->waits, 1);
	if (closed)
		__sync_fetch_and_add(&h->contended_ns, closed);
}

/* Is uaddr a mutex word? Its owner field names a traced thread of this
 * process (not the waiter: it would not wait on itself). */
static __always_inline bool hold_verify(const struct fct_slot *t, __u64 uaddr)
{
	struct fct_slot *o;
	__s32 owner = 0;

	if (bpf_probe_read_user(&owner, sizeof(owner), (void *)(uaddr + FCT_HOLD_OWNER_OFF)))
		return false;
	if (owner <= 0 || (__u32)owner == t->a.tid)
		return false;
	o = fct_slot((__u32)owner);
	return o && o->a.tgid == t->a.tgid;
}

/* The slot watching (tgid, uaddr), taking a free one if the word is a
 * mutex word; -1 if none. */
static __always_inline int hold_watch(const struct fct_slot *t, __u64 uaddr)
{
	struct fct_hold_lock *h;
	bool verified = false;

#pragma unroll
	for (__u32 i = 0; i < FCT_HOLD_LOCKS; i++) {
		h = hold_lock(i);
		if (!h)
			return -1;
		if (h->uaddr == uaddr && h->tgid == t->a.tgid)
			return i;
		if (h->uaddr)
			continue;
		if (!verified && !hold_verify(t, uaddr)) {
			__sync_fetch_and_add(&hold_global.unverified, 1);
			return -1;
		}
		verified = true;
		if (__sync_val_compare_and_swap(&h->uaddr, 0, uaddr) != 0)
			continue;	/* another CPU took this one */
		h->tgid = t->a.tgid;
		__sync_fetch_and_add(&hold_global.nwatched, 1);
		return i;
	}
	__sync_fetch_and_add(&hold_global.full, 1);
	return -1;
}

static __always_inline void hold_add(struct fct_hold_time *ht, __u64 d, __s64 dw, __s64 dc)
{
	__sync_fetch_and_add(&ht->ns, d);
	if (dc > 0)
		__sync_fetch_and_add(&ht->contended_ns, dc);
	if (dw > 0)
		__sync_fetch_and_add(&ht->waiter_ns, dw);
}

static __always_inline void on_enter(struct pt_regs *regs, long id)
{
	struct fct_slot *t;
	__u64 now = 0;
	__u32 op = 0;
	int i;

	if (!enabled || (!hold_global.nwatched && id != NR_FUTEX))
		return;
	t = fct_current_slot();
	if (!t)
		return;
	t->hold_in_sc = 1;
	t->hold_edge_nr = 0;
	if (id == NR_FUTEX)
		op = PT_REGS_PARM2_SYSCALL(regs) & FUTEX_OP_MASK;
	if (id == NR_FUTEX && op == FUTEX_WAIT) {
		i = hold_watch(t, PT_REGS_PARM1_SYSCALL(regs));
		if (i >= 0) {
			now = bpf_ktime_get_ns();
			hold_waiter(i, now, 1);
			t->hold_wait = i + 1;
		}
	}
	if (!hold_global.nwatched)
		return;
	i = fct_hold_owned(t);
	if (i < 0)
		return;
	if (!now)
		now = bpf_ktime_get_ns();
	t->hold_sc = i + 1;
	t->hold_sc_nr = id & (FCT_NR_MAX - 1);
	t->hold_sc_futex = id == NR_FUTEX && futex_op_waits(op);
	t->hold_sc_ns = now;
	hold_marks(i, now, &t->hold_sc_w, &t->hold_sc_c);
}

/* The syscall begun owning lock i ended at now: charged if the owner
 * field still names the thread. */
static __always_inline bool sc_end(struct fct_slot *t, __u32 i, __u64 now)
{
	struct fct_hold_lock *h = hold_lock(i);
	__s64 w, c;
	__s32 owner = 0;
	__u64 d;

	if (!h)
		return false;
	if (bpf_probe_read_user(&owner, sizeof(owner), (void *)(h->uaddr + FCT_HOLD_OWNER_OFF)) ||
	    (__u32)owner != t->a.tid) {
		__sync_fetch_and_add(&h->sc_unconfirmed, 1);
		return false;
	}
	hold_marks(i, now, &w, &c);
	d = now - t->hold_sc_ns;
	w -= t->hold_sc_w;
	c -= t->hold_sc_c;
	__sync_fetch_and_add(&h->sc_count, 1);
	hold_add(&h->sc, d, w, c);
	if (t->hold_sc_futex)
		hold_add(&h->sc_futex, d, w, c);
	__sync_fetch_and_add(&h->nr[t->hold_sc_nr & (FCT_NR_MAX - 1)].count, 1);
	__sync_fetch_and_add(&h->nr[t->hold_sc_nr & (FCT_NR_MAX - 1)].ns, d);
	return true;
}

static __always_inline void on_exit(void)
{
	struct fct_slot *t;
	__u64 now;

	/* nothing watched: no thread is in a charged syscall or a wait */
	if (!hold_global.nwatched)
		return;
	t = fct_current_slot();
	if (!t)
		return;
	t->hold_in_sc = 0;
	if (!t->hold_sc && !t->hold_wait)
		return;
	now = bpf_ktime_get_ns();
	if (t->hold_wait) {
		hold_waiter(t->hold_wait - 1, now, -1);
		t->hold_wait = 0;
	}
	if (t->hold_sc) {
		if (sc_end(t, t->hold_sc - 1, now))
			t->hold_edge_nr = t->hold_sc_nr + 1;
		t->hold_sc = 0;
	}
}

SEC("?tp_btf/sys_enter")
int BPF_PROG(fct_hold_sys_enter, struct pt_regs *regs, long id)
{
	on_enter(regs, id);
	return 0;
}

SEC("?tp_btf/sys_exit")
int BPF_PROG(fct_hold_sys_exit, struct pt_regs *regs, long ret)
{
	on_exit();
	return 0;
}

/* Is task p, off its syscall tracepoints, still in syscall nr (on its
 * way back to user space)? Its saved orig_ax says which syscall it
 * entered the kernel for; an interrupt from user mode since then would
 * have put -1 there (a fault, its error code: it may pass for nr). */
static __always_inline bool on_sc_return(struct task_struct *p, __u32 nr)
{
#if defined(__TARGET_ARCH_x86)
	struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(p);

	return regs && BPF_CORE_READ(regs, orig_ax) == (long)nr;
#else
	return false;
#endif
}

/* prev goes off CPU (current is still prev): if it owns a lock, the
 * off-CPU segment begins. */
static __always_inline void switch_out(struct task_struct *prev, bool preempt,
				       unsigned int prev_state, __u64 *now)
{
	struct fct_slot *t;
	int i;

	if (!fct_is_target_tgid(prev->tgid) || !(t = fct_slot(prev->pid)))
		return;
	if (t->hold_sc)
		i = t->hold_sc - 1;
	else if (t->hold_in_sc)
		return;		/* a syscall begun not owning one: owns none */
	else
		i = fct_hold_owned(t);
	if (i < 0)
		return;
	*now = bpf_ktime_get_ns();
	t->hold_off = i + 1;
	t->hold_off_code = (!preempt && prev_state != 0) ? FCT_ST_BLOCKED : FCT_ST_RUNNABLE;
	if (t->hold_sc)
		t->hold_off_code |= HOLD_OFF_IN_SC;
	else if (t->hold_edge_nr && on_sc_return(prev, t->hold_edge_nr - 1))
		t->hold_off_code |= HOLD_OFF_EDGE;
	t->hold_off_ns = *now;
	hold_marks(i, *now, &t->hold_off_w, &t->hold_off_c);
}

/* next comes back on CPU: charge its off-CPU segment, if one is open. */
static __always_inline void switch_in(struct task_struct *next, __u64 now)
{
	struct fct_hold_lock *h;
	struct fct_hold_time *ht;
	struct fct_slot *t;
	__u32 i, code;
	__s64 w, c;

	if (!fct_is_target_tgid(next->tgid) || !(t = fct_slot(next->pid)) || !t->hold_off)
		return;
	i = t->hold_off - 1;
	code = t->hold_off_code;
	t->hold_off = 0;
	h = hold_lock(i);
	if (!h)
		return;
	if (!now)
		now = bpf_ktime_get_ns();
	hold_marks(i, now, &w, &c);
	if (code & HOLD_OFF_IN_SC)
		ht = (code & FCT_C_STATE) == FCT_ST_BLOCKED ? &h->sc_blocked : &h->sc_preempted;
	else if (code & HOLD_OFF_EDGE)
		ht = &h->sc_edge;
	else
		ht = (code & FCT_C_STATE) == FCT_ST_BLOCKED ? &h->blocked : &h->preempted;
	hold_add(ht, now - t->hold_off_ns, w - t->hold_off_w, c - t->hold_off_c);
}

SEC("?tp_btf/sched_switch")
int BPF_PROG(fct_hold_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next, unsigned int prev_state)
{
	__u64 now = 0;

	if (!enabled || !hold_global.nwatched)
		return 0;
	switch_out(prev, preempt, prev_state, &now);
	switch_in(next, now);
	return 0;
}
