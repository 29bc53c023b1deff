/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * pools.bpf.h - pools of N from the outside: per futex object, the
 * threads waiting on it and the holds its waiters take (fctrace.h,
 * struct fct_pool_val). A semaphore of N permits, a free list a
 * condvar guards, a lock (a pool of one): a thread that waits on the
 * object and is woken has been given an item; when it later wakes the
 * object's waiters itself it has given one back. What it did between
 * the two edges is read off its own account (slot.h) at each edge: no
 * clock but the one the edges read anyway, no user memory.
 *
 * No programs of its own: it runs inside fct_sys_enter/fct_sys_exit
 * (syscalls.bpf.c), tp_btf form only (the spin lock), behind the
 * rodata flag pools_on (other programs' words, with wake_count).
 *
 * Cost: a futex wait's entry and exit each update its object's entry
 * under its spin lock (one hash lookup); a futex wake that woke someone
 * updates it once more. Futex calls that sleep cost microseconds here;
 * the update is ~0.2 us.
 */
#ifndef FCTRACE_POOLS_BPF_H
#define FCTRACE_POOLS_BPF_H

#include "common.bpf.h"

const volatile __u32 pools_on = 0;	/* rodata: this code runs */

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, FCT_POOL_ENTRIES);
	__type(key, struct fct_pool_key);
	__type(value, struct fct_pool_val);
} pools SEC(".maps");

static __always_inline struct fct_pool_val *pool_entry(const struct fct_slot *t, __u64 obj)
{
	static const struct fct_pool_val zero = {};
	struct fct_pool_key key = { .tgid = t->a.tgid, .obj = obj };

	return fct_hash_entry(&pools, &key, &zero, &lost.pool_full);
}

/* Bring p's integrals to now (under its lock). */
static __always_inline void pool_advance(struct fct_pool_val *p, __u64 now)
{
	__u64 d = p->since && now > p->since ? now - p->since : 0;

	p->waiting_ns += (__u64)p->waiting * d;
	p->holding_ns += (__u64)p->holding * d;
	if (p->waiting) {
		p->queued_ns += d;
		p->queued_holding_ns += (__u64)p->holding * d;
	}
	p->since = now;
}

static __always_inline void pool_peak(struct fct_pool_val *p)
{
	if (p->waiting && p->holding > p->max_holding)
		p->max_holding = p->holding;
}

/* The open hold of t on obj (its index), or -1. */
static __always_inline int pool_open_of(const struct fct_slot *t, __u64 obj)
{
#pragma unroll
	for (int i = 0; i < FCT_POOL_OPEN; i++)
		if (t->pw_obj[i] == obj)
			return i;
	return -1;
}

/* t's on-CPU time to now: the running interval is not charged yet. */
static __always_inline __u64 pool_oncpu(const struct fct_slot *t, __u64 now)
{
	__u64 on = t->a.oncpu_ns;

	if (t->st_state == FCT_ST_RUNNING && now > t->st_since_ns)
		on += now - t->st_since_ns;
	return on;
}

/* A futex wait on t->futex_uaddr begins: one more waiter; a hold open
 * on the same object got nothing (the thread waits for it again). */
static __always_inline void fct_pool_wait_enter(struct fct_slot *t)
{
	__u64 obj = FCT_POOL_OBJ(t->futex_uaddr), now;
	struct fct_pool_val *p;
	int i = pool_open_of(t, obj);
	bool retry = i >= 0;

	if (!obj || !(p = pool_entry(t, obj)))
		return;
	if (i >= 0 && i < FCT_POOL_OPEN)
		t->pw_obj[i] = 0;
	now = bpf_ktime_get_ns();
	bpf_spin_lock(&p->lock);
	pool_advance(p, now);
	p->waiting++;
	if (retry) {
		p->retries++;
		if (p->holding)
			p->holding--;
	}
	pool_peak(p);
	bpf_spin_unlock(&p->lock);
	t->pw_waiting = obj;
}

/* A hold of t on its place i's object is given up unclosed (its place
 * is wanted for a newer one): not open any more. */
static __always_inline void pool_drop(struct fct_slot *t, int i, __u64 now)
{
	struct fct_pool_key key = { .tgid = t->a.tgid };
	struct fct_pool_val *p;

	if (i < 0 || i >= FCT_POOL_OPEN || !t->pw_obj[i])
		return;
	key.obj = t->pw_obj[i];
	t->pw_obj[i] = 0;
	p = bpf_map_lookup_elem(&pools, &key);
	if (!p)
		return;
	bpf_spin_lock(&p->lock);
	pool_advance(p, now);
	if (p->holding)
		p->holding--;
	p->dropped++;
	bpf_spin_unlock(&p->lock);
}

/* Open a hold of t on obj at now, in a free place or the older one's. */
static __always_inline void pool_open(struct fct_slot *t, __u64 obj, __u64 now)
{
	int i = t->pw_obj[0] && (!t->pw_obj[1] || t->pw_since[1] < t->pw_since[0]) ? 1 : 0;

	pool_drop(t, i, now);
	t->pw_obj[i] = obj;
	t->pw_since[i] = now;
	t->pw_on[i] = pool_oncpu(t, now);
	t->pw_sys[i] = t->a.sys_on_est_ns;
	t->pw_runq[i] = t->a.runq_ns;
	t->pw_blocked[i] = t->a.blocked_ns;
	t->pw_futex[i] = t->a.futex_off_ns;
}

/* The futex wait ends with ret: one waiter less; woken (0), or its word
 * changed before it slept (-EAGAIN: an item came back meanwhile), the
 * thread holds what it waited for. */
static __always_inline void fct_pool_wait_exit(struct fct_slot *t, long ret)
{
	__u64 obj = t->pw_waiting, now;
	struct fct_pool_val *p;
	bool opens = ret == 0 || ret == -11;

	t->pw_waiting = 0;
	if (!obj || !(p = pool_entry(t, obj)))
		return;
	now = bpf_ktime_get_ns();
	bpf_spin_lock(&p->lock);
	pool_advance(p, now);
	if (p->waiting)
		p->waiting--;
	if (opens) {
		p->opened++;
		p->holding++;
		pool_peak(p);
	}
	bpf_spin_unlock(&p->lock);
	if (opens)
		pool_open(t, obj, now);
}

/* A futex wake on t->futex_uaddr woke `woken` waiters (all of them when
 * `all`: a broadcast): a release (one
 * that woke nobody too: its waiter was woken already, not yet running);
 * it closes t's hold on the object, if it has one open. Objects never
 * waited on get no entry. */
static __always_inline void fct_pool_wake(struct fct_slot *t, long woken, bool all)
{
	__u64 obj = FCT_POOL_OBJ(t->futex_uaddr), now, len, on, d_on, d_sys;
	struct fct_pool_key key = { .tgid = t->a.tgid, .obj = obj };
	struct fct_pool_val *p;
	int i = pool_open_of(t, obj);

	if (!obj || woken < 0)
		return;
	p = woken > 0 || i >= 0 ? pool_entry(t, obj) : bpf_map_lookup_elem(&pools, &key);
	if (!p)
		return;
	now = bpf_ktime_get_ns();
	if (i >= 0 && i < FCT_POOL_OPEN) {
		len = now - t->pw_since[i];
		on = pool_oncpu(t, now);
		d_on = on - t->pw_on[i];
		d_sys = t->a.sys_on_est_ns - t->pw_sys[i];
		t->pw_obj[i] = 0;
	}
	bpf_spin_lock(&p->lock);
	pool_advance(p, now);
	p->releases++;
	if (p->waiting)
		p->queued_releases++;
	p->woken += woken;
	p->broadcasts += all;
	if (i >= 0 && i < FCT_POOL_OPEN) {
		if (p->holding)
			p->holding--;
		p->holds++;
		p->hold_ns += len;
		p->hold_oncpu_ns += d_on;
		p->hold_sys_ns += d_sys < d_on ? d_sys : d_on;
		p->hold_runq_ns += t->a.runq_ns - t->pw_runq[i];
		p->hold_blocked_ns += t->a.blocked_ns - t->pw_blocked[i];
		p->hold_futex_ns += t->a.futex_off_ns - t->pw_futex[i];
	}
	bpf_spin_unlock(&p->lock);
}

#endif /* FCTRACE_POOLS_BPF_H */
