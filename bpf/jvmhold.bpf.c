// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * jvmhold.bpf.c - Java monitors for the holders code (holders.bpf.h):
 * which ObjectMonitors are contended, who waits for them, and each
 * thread's JavaThread, so that the holders' edges can tell whether the
 * thread owns one.
 *
 * HotSpot blocks a thread that finds an inflated monitor owned, after
 * spinning, in ObjectMonitor::EnterI(JavaThread *current) (this in the
 * first argument register, current in the second), and returns from it
 * owning the monitor. A uprobe at its entry and return (libjvm.so's
 * .symtab names it; no JVM flag is needed, so it works in a JVM that
 * runs already) gives:
 *   - the waiter's own JavaThread (exact: current);
 *   - the monitor, watched from its WATCH_AFTER-th blocking enter in the
 *     window (below);
 *   - the owner as the waiter found it: ObjectMonitor::_owner is the
 *     owning JavaThread (a stack address when the monitor was inflated
 *     from a thin lock and its owner has not left it since), whose
 *     OSThread names its tid: that thread's JavaThread is learnt too, so
 *     a thread that never waits (it always wins the spin) is seen holding;
 *   - which monitor the thread waits for from entry to return: its futex
 *     waits meanwhile (on its own park event) are its waits for the
 *     monitor (holders.bpf.h's fct_hold_enter; a uprobe may not take the
 *     waiters' spin lock, a tp_btf program may).
 * The offsets come from the JVM's vmStructs (user/jvm/jvm_structs.c);
 * until user space has set them nothing is watched.
 *
 * Cost: a uprobe and a uretprobe per contended enter (one that blocked:
 * the thread sleeps in a futex wait there anyway), three user reads.
 */
#include "common.bpf.h"
#include "holders.bpf.h"

struct fct_jvm_structs jvm_structs = {};	/* bss: set by user space */

/* A monitor is watched from its WATCH_AFTER-th blocking enter: a JVM's
 * start-up blocks once or twice on monitors of its own (class
 * initialisation, the cleaner's queue) that would take the few slots
 * before the application's contended ones. Counted here until then. */
#define WATCH_AFTER	4

struct mon_key {
	__u64 mon;
	__u32 tgid;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 1024);
	__type(key, struct mon_key);
	__type(value, __u32);
} jvm_mon_seen SEC(".maps");

/* Has monitor mon of t's process blocked a thread WATCH_AFTER times? */
static __always_inline bool seen_enough(const struct fct_slot *t, __u64 mon)
{
	struct mon_key k = { .mon = mon, .tgid = t->a.tgid };
	__u32 one = 1, *n = bpf_map_lookup_elem(&jvm_mon_seen, &k);

	if (!n) {
		bpf_map_update_elem(&jvm_mon_seen, &k, &one, BPF_NOEXIST);
		return WATCH_AFTER <= 1;
	}
	return __sync_fetch_and_add(n, 1) + 1 >= WATCH_AFTER;
}

/* The thread that owns monitor mon now, as the waiter t read it: its
 * JavaThread gets learnt. A stack address (a thin lock's) names no
 * OSThread whose tid is a traced thread of t's process: left alone. */
static __always_inline void learn_owner(const struct fct_slot *t, __u64 mon)
{
	__u64 owner = 0, os = 0;
	__s32 tid = 0;
	struct fct_slot *o;

	if (bpf_probe_read_user(&owner, sizeof(owner), (void *)(mon + (jvm_structs.owner & 0xfff))) ||
	    !owner || owner == t->jself)
		return;
	if (bpf_probe_read_user(&os, sizeof(os), (void *)(owner + (jvm_structs.osthread & 0xfff))) ||
	    !os)
		return;
	if (bpf_probe_read_user(&tid, sizeof(tid), (void *)(os + (jvm_structs.thread_id & 0xfff))) ||
	    tid <= 0 || (__u32)tid == t->a.tid)
		return;
	o = fct_slot((__u32)tid);
	if (o && o->a.tgid == t->a.tgid)
		o->jself = owner;
}

SEC("?uprobe")
int BPF_KPROBE(fct_jvm_enteri, void *mon, void *self)
{
	struct fct_slot *t;
	bool free;
	int i;

	if (!holders_on || !(t = fct_current_slot()))
		return 0;
	t->jself = (__u64)self;
	if (!jvm_structs.ready || !mon)
		return 0;
	i = hold_find(t, (__u64)mon, &free, FCT_HOLD_LOCKS, FCT_HOLD_MONITORS);
	if (i < 0 && !free) {
		__sync_fetch_and_add(&hold_global.full, 1);
		return 0;
	}
	if (i < 0 && !seen_enough(t, (__u64)mon))
		return 0;
	if (i < 0)
		i = hold_take(t, (__u64)mon, FCT_HOLD_HOTSPOT, jvm_structs.owner, FCT_HOLD_LOCKS,
			      FCT_HOLD_MONITORS);
	if (i < 0)
		return 0;
	learn_owner(t, (__u64)mon);
	t->hold_jwait = i + 1;
	return 0;
}

SEC("?uretprobe")
int BPF_KRETPROBE(fct_jvm_enteri_ret)
{
	struct fct_slot *t;

	if (holders_on && (t = fct_current_slot()))
		t->hold_jwait = 0;
	return 0;
}

/* ObjectMonitor::ReenterI(JavaThread *current, ObjectWaiter *): a thread
 * back from Object.wait waits to own the monitor again. Its wait is
 * Object.wait's (an event, not the lock's row), so it is not a waiter
 * here; but it and the owner it finds are learnt, as at EnterI. */
SEC("?uprobe")
int BPF_KPROBE(fct_jvm_reenteri, void *mon, void *self)
{
	struct fct_slot *t;

	if (!holders_on || !(t = fct_current_slot()))
		return 0;
	t->jself = (__u64)self;
	if (jvm_structs.ready && mon)
		learn_owner(t, (__u64)mon);
	return 0;
}
