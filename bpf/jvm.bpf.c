// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * jvm.bpf.c - HotSpot's USDT probes in libjvm.so: Java monitor waits by
 * the class of the monitor's object, Object.wait, LockSupport.park,
 * Java thread names, GC and safepoint pauses. Everything is aggregated
 * here; user space reads three maps once (user/jvm/jvm.c).
 *
 * Every program is optional ("?"): it loads only when the target is a
 * JVM (jvm_set_autoload), and is attached per probe with the target's
 * pid (jvm_attach), which filters it to that process. jvm_tgid filters
 * again when it is set. The waits are counted only in the window
 * (`enabled`); names are taken whenever a thread starts.
 *
 * Argument lists (hotspot.d; checked with readelf -n on Debian's 17):
 *   monitor__contended__enter/entered/exit, monitor__waited:
 *                            (java_tid, monitor, class, class_len)
 *   monitor__wait:           (java_tid, monitor, class, class_len, timeout)
 *   thread__start/stop:      (name, name_len, java_tid, native_tid, daemon)
 *   thread__park__begin:     (parker, is_absolute, time); park__end: (parker)
 *   gc__begin:               (full); gc__end: ()
 *   hs_private:safepoint__begin/end: ()
 */
#include "common.bpf.h"
#include <bpf/usdt.bpf.h>

const volatile __u32 jvm_tgid = 0;	/* rodata: 0 trusts the attach pid */

/* A Java thread's entry: the account user space reads (the ABI), then
 * the waits in progress, which only these programs see. */
struct jvm_thread_slot {
	struct fct_jvm_thread a;
	__u64 enter_since_ns;	/* when each wait in progress began (0: none) */
	__u64 wait_since_ns;
	__u64 park_since_ns;
	__u32 park_timed_now;	/* the park in progress has a timeout */
	__u32 pad;
};

/* The run-wide pauses: the account, then the pause in progress. */
struct jvm_global_slot {
	struct fct_jvm_global a;
	__u64 gc_since_ns;
	__u64 safepoint_since_ns;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 8192);
	__type(key, __u32);
	__type(value, struct jvm_thread_slot);
} jvm_threads SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 8192);
	__type(key, struct fct_jvm_mon_key);
	__type(value, struct fct_jvm_mon_val);
} jvm_monitors SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct jvm_global_slot);
} jvm_global SEC(".maps");

/* zero values for the hash inserts (too big for the BPF stack) */
static const struct jvm_thread_slot zero_thread;
static const struct fct_jvm_mon_val zero_mon;

static __always_inline struct jvm_global_slot *global(void)
{
	__u32 k = 0;

	return bpf_map_lookup_elem(&jvm_global, &k);
}

/* Is the current task one of the target JVM's threads? */
static __always_inline bool jvm_mine(void)
{
	return !jvm_tgid || (bpf_get_current_pid_tgid() >> 32) == jvm_tgid;
}

/* The current thread's entry, created on first use; NULL when full. */
static __always_inline struct jvm_thread_slot *thread_of(__u32 tid)
{
	return fct_hash_entry(&jvm_threads, &tid, &zero_thread, &lost.jvm_threads_full);
}

/* The current thread's entry, if the window is open and it is ours. A
 * thread first seen here began before the probes, or was attached
 * through JNI (the launcher's main thread): no thread__start names it,
 * so its comm does, once. */
static __always_inline struct jvm_thread_slot *counting_thread(void)
{
	struct jvm_thread_slot *t;

	if (!enabled || !jvm_mine())
		return NULL;
	t = thread_of((__u32)bpf_get_current_pid_tgid());
	if (t && !t->a.name[0])
		bpf_get_current_comm(t->a.name, 16);
	return t;
}

/* Fill key with the current tid and the class named by USDT args 2, 3
 * (a pointer and a length: HotSpot's Symbol, not NUL-terminated). A
 * long name keeps its tail. The key must be zeroed by the caller. */
static __always_inline void class_key(struct pt_regs *ctx, struct fct_jvm_mon_key *key)
{
	long ptr = 0, len = 0;

	key->tid = (__u32)bpf_get_current_pid_tgid();
	bpf_usdt_arg(ctx, 2, &ptr);
	bpf_usdt_arg(ctx, 3, &len);
	if (len > FCT_JVM_NAME_LEN - 1) {
		ptr += len - (FCT_JVM_NAME_LEN - 1);
		len = FCT_JVM_NAME_LEN - 1;
		key->flags |= FCT_JVM_F_TRUNCATED;
	}
	if (len > 0)
		bpf_probe_read_user(key->cls, len & (FCT_JVM_NAME_LEN - 1), (void *)ptr);
}

/* The (thread, class) entry named by this probe's arguments. */
static __always_inline struct fct_jvm_mon_val *monitor_of(struct pt_regs *ctx)
{
	struct fct_jvm_mon_key key = {};
	struct fct_jvm_mon_val *v;
	long mon = 0;

	class_key(ctx, &key);
	v = fct_hash_entry(&jvm_monitors, &key, &zero_mon, &lost.jvm_monitors_full);
	if (v && !bpf_usdt_arg(ctx, 1, &mon))
		v->monitor = mon;
	return v;
}

/* The length of the interval that began at *since (0 if none); clears it. */
static __always_inline __u64 end_interval(__u64 *since, __u64 now)
{
	__u64 d = *since && now > *since ? now - *since : 0;

	*since = 0;
	return d;
}

SEC("?usdt")
int BPF_USDT(fct_jvm_mon_enter)
{
	struct jvm_thread_slot *t = counting_thread();

	if (t)
		t->enter_since_ns = bpf_ktime_get_ns();
	return 0;
}

SEC("?usdt")
int BPF_USDT(fct_jvm_mon_entered)
{
	struct jvm_thread_slot *t = counting_thread();
	struct fct_jvm_mon_val *v;
	__u64 d;

	if (!t || !t->enter_since_ns)
		return 0;
	d = end_interval(&t->enter_since_ns, bpf_ktime_get_ns());
	v = monitor_of(ctx);
	if (!v)
		return 0;
	v->enters++;
	v->enter_ns += d;
	if (d > v->enter_max_ns)
		v->enter_max_ns = d;
	fct_hist_add(v->hist, d);
	return 0;
}

SEC("?usdt")
int BPF_USDT(fct_jvm_mon_exit)
{
	struct fct_jvm_mon_val *v;

	if (!enabled || !jvm_mine())
		return 0;
	v = monitor_of(ctx);
	if (v)
		v->exits++;
	return 0;
}

SEC("?usdt")
int BPF_USDT(fct_jvm_mon_wait)
{
	struct jvm_thread_slot *t = counting_thread();

	if (t)
		t->wait_since_ns = bpf_ktime_get_ns();
	return 0;
}

SEC("?usdt")
int BPF_USDT(fct_jvm_mon_waited)
{
	struct jvm_thread_slot *t = counting_thread();
	struct fct_jvm_mon_val *v;
	__u64 d;

	if (!t || !t->wait_since_ns)
		return 0;
	d = end_interval(&t->wait_since_ns, bpf_ktime_get_ns());
	v = monitor_of(ctx);
	if (v) {
		v->waits++;
		v->wait_ns += d;
		if (d > v->wait_max_ns)
			v->wait_max_ns = d;
	}
	return 0;
}

SEC("?usdt")
int BPF_USDT(fct_jvm_park_begin)
{
	struct jvm_thread_slot *t = counting_thread();
	long absolute = 0, time = 0;

	if (!t)
		return 0;
	bpf_usdt_arg(ctx, 1, &absolute);
	bpf_usdt_arg(ctx, 2, &time);
	t->park_timed_now = absolute || time;
	t->park_since_ns = bpf_ktime_get_ns();
	return 0;
}

SEC("?usdt")
int BPF_USDT(fct_jvm_park_end)
{
	struct jvm_thread_slot *t = counting_thread();
	__u64 d;

	if (!t || !t->park_since_ns)
		return 0;
	d = end_interval(&t->park_since_ns, bpf_ktime_get_ns());
	t->a.parks++;
	t->a.parks_timed += t->park_timed_now;
	t->a.park_ns += d;
	if (d > t->a.park_max_ns)
		t->a.park_max_ns = d;
	return 0;
}

/* Names are taken outside the window too: a thread names itself once. */
SEC("?usdt")
int BPF_USDT(fct_jvm_thread_start)
{
	long name = 0, native = 0, daemon = 0;
	struct jvm_thread_slot *t;
	__u32 tid;

	if (!jvm_mine())
		return 0;
	bpf_usdt_arg(ctx, 0, &name);
	bpf_usdt_arg(ctx, 3, &native);
	bpf_usdt_arg(ctx, 4, &daemon);
	/* a fresh account: an entry there already is a dead thread's whose
	 * tid was reused (nothing fires on a thread before its start) */
	tid = (__u32)native;
	if (bpf_map_update_elem(&jvm_threads, &tid, &zero_thread, BPF_ANY)) {
		__sync_fetch_and_add(&lost.jvm_threads_full, 1);
		return 0;
	}
	t = bpf_map_lookup_elem(&jvm_threads, &tid);
	if (!t)
		return 0;
	bpf_probe_read_user_str(t->a.name, sizeof(t->a.name), (void *)name);
	t->a.daemon = daemon & 1;
	t->a.started = 1;
	t->a.stopped = 0;
	return 0;
}

SEC("?usdt")
int BPF_USDT(fct_jvm_thread_stop)
{
	long native = 0;
	__u32 tid;
	struct jvm_thread_slot *t;

	if (!jvm_mine())
		return 0;
	bpf_usdt_arg(ctx, 3, &native);
	tid = (__u32)native;
	t = bpf_map_lookup_elem(&jvm_threads, &tid);
	if (t)
		t->a.stopped = 1;
	return 0;
}

/* The pauses run on the VM thread, one at a time: plain updates. */
static __always_inline void pause_begin(__u64 *since)
{
	if (enabled && jvm_mine())
		*since = bpf_ktime_get_ns();
}

SEC("?usdt")
int BPF_USDT(fct_jvm_gc_begin)
{
	struct jvm_global_slot *g = global();
	long full = 0;

	if (!g)
		return 0;
	pause_begin(&g->gc_since_ns);
	if (g->gc_since_ns && !bpf_usdt_arg(ctx, 0, &full) && (full & 1))
		g->a.gcs_full++;
	return 0;
}

SEC("?usdt")
int BPF_USDT(fct_jvm_gc_end)
{
	struct jvm_global_slot *g = global();
	__u64 d;

	if (!g || !g->gc_since_ns)
		return 0;
	d = end_interval(&g->gc_since_ns, bpf_ktime_get_ns());
	g->a.gcs++;
	g->a.gc_ns += d;
	if (d > g->a.gc_max_ns)
		g->a.gc_max_ns = d;
	return 0;
}

SEC("?usdt")
int BPF_USDT(fct_jvm_safepoint_begin)
{
	struct jvm_global_slot *g = global();

	if (g)
		pause_begin(&g->safepoint_since_ns);
	return 0;
}

SEC("?usdt")
int BPF_USDT(fct_jvm_safepoint_end)
{
	struct jvm_global_slot *g = global();
	__u64 d;

	if (!g || !g->safepoint_since_ns)
		return 0;
	d = end_interval(&g->safepoint_since_ns, bpf_ktime_get_ns());
	g->a.safepoints++;
	g->a.safepoint_ns += d;
	if (d > g->a.safepoint_max_ns)
		g->a.safepoint_max_ns = d;
	return 0;
}
