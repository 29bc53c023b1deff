// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * jvm.bpf.c - HotSpot's USDT probes in libjvm.so: Java monitor waits by
 * the class of the monitor's object, Object.wait, LockSupport.park,
 * Java thread names, GC and safepoint pauses. Everything is aggregated
 * here; user space reads three maps once (user/jvm.c).
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

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 8192);
	__type(key, __u32);
	__type(value, struct fct_jvm_thread);
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
	__type(value, struct fct_jvm_global);
} jvm_global SEC(".maps");

/* zero values for the hash inserts (too big for the BPF stack) */
static const struct fct_jvm_thread zero_thread;
static const struct fct_jvm_mon_val zero_mon;

static __always_inline struct fct_jvm_global *global(void)
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
static __always_inline struct fct_jvm_thread *thread_of(__u32 tid)
{
	struct fct_jvm_global *g = global();

	if (!g)
		return NULL;
	return fct_hash_entry(&jvm_threads, &tid, &zero_thread, &g->threads_full);
}

/* The current thread's entry, if the window is open and it is ours. A
 * thread first seen here began before the probes, or was attached
 * through JNI (the launcher's main thread): no thread__start names it,
 * so its comm does, once. */
static __always_inline struct fct_jvm_thread *counting_thread(void)
{
	struct fct_jvm_thread *t;

	if (!enabled || !jvm_mine())
		return NULL;
	t = thread_of((__u32)bpf_get_current_pid_tgid());
	if (t && !t->name[0])
		bpf_get_current_comm(t->name, 16);
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
	struct fct_jvm_global *g = global();
	struct fct_jvm_mon_val *v;
	long mon = 0;

	if (!g)
		return NULL;
	class_key(ctx, &key);
	v = fct_hash_entry(&jvm_monitors, &key, &zero_mon, &g->monitors_full);
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
	struct fct_jvm_thread *t = counting_thread();

	if (t)
		t->enter_since_ns = bpf_ktime_get_ns();
	return 0;
}

SEC("?usdt")
int BPF_USDT(fct_jvm_mon_entered)
{
	struct fct_jvm_thread *t = counting_thread();
	struct fct_jvm_mon_val *v;
	__u64 d;

	if (!t || !t->enter_since_ns)
		return 0;
	d = end_interval(&t->enter_since_ns, bpf_ktime_get_ns());
	t->mon_enters++;
	t->mon_enter_ns += d;
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
	struct fct_jvm_thread *t = counting_thread();

	if (t)
		t->wait_since_ns = bpf_ktime_get_ns();
	return 0;
}

SEC("?usdt")
int BPF_USDT(fct_jvm_mon_waited)
{
	struct fct_jvm_thread *t = counting_thread();
	struct fct_jvm_mon_val *v;
	__u64 d;

	if (!t || !t->wait_since_ns)
		return 0;
	d = end_interval(&t->wait_since_ns, bpf_ktime_get_ns());
	t->mon_waits++;
	t->mon_wait_ns += d;
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
	struct fct_jvm_thread *t = counting_thread();
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
	struct fct_jvm_thread *t = counting_thread();
	__u64 d;

	if (!t || !t->park_since_ns)
		return 0;
	d = end_interval(&t->park_since_ns, bpf_ktime_get_ns());
	t->parks++;
	t->parks_timed += t->park_timed_now;
	t->park_ns += d;
	if (d > t->park_max_ns)
		t->park_max_ns = d;
	fct_hist_add(t->park_hist, d);
	return 0;
}

/* Names are taken outside the window too: a thread names itself once. */
SEC("?usdt")
int BPF_USDT(fct_jvm_thread_start)
{
	long name = 0, java_tid = 0, native = 0, daemon = 0;
	struct fct_jvm_thread *t;
	__u32 tid;

	if (!jvm_mine())
		return 0;
	bpf_usdt_arg(ctx, 0, &name);
	bpf_usdt_arg(ctx, 2, &java_tid);
	bpf_usdt_arg(ctx, 3, &native);
	bpf_usdt_arg(ctx, 4, &daemon);
	/* a fresh account: an entry there already is a dead thread's whose
	 * tid was reused (nothing fires on a thread before its start) */
	tid = (__u32)native;
	if (bpf_map_update_elem(&jvm_threads, &tid, &zero_thread, BPF_ANY)) {
		struct fct_jvm_global *g = global();

		if (g)
			__sync_fetch_and_add(&g->threads_full, 1);
		return 0;
	}
	t = bpf_map_lookup_elem(&jvm_threads, &tid);
	if (!t)
		return 0;
	bpf_probe_read_user_str(t->name, sizeof(t->name), (void *)name);
	t->java_tid = java_tid;
	t->daemon = daemon & 1;
	t->started = 1;
	t->stopped = 0;
	t->start_tid = (__u32)bpf_get_current_pid_tgid();
	return 0;
}

SEC("?usdt")
int BPF_USDT(fct_jvm_thread_stop)
{
	long native = 0;
	__u32 tid;
	struct fct_jvm_thread *t;

	if (!jvm_mine())
		return 0;
	bpf_usdt_arg(ctx, 3, &native);
	tid = (__u32)native;
	t = bpf_map_lookup_elem(&jvm_threads, &tid);
	if (t)
		t->stopped = 1;
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
	struct fct_jvm_global *g = global();
	long full = 0;

	if (!g)
		return 0;
	pause_begin(&g->gc_since_ns);
	if (g->gc_since_ns && !bpf_usdt_arg(ctx, 0, &full) && (full & 1))
		g->gcs_full++;
	return 0;
}

SEC("?usdt")
int BPF_USDT(fct_jvm_gc_end)
{
	struct fct_jvm_global *g = global();
	__u64 d;

	if (!g || !g->gc_since_ns)
		return 0;
	d = end_interval(&g->gc_since_ns, bpf_ktime_get_ns());
	g->gcs++;
	g->gc_ns += d;
	if (d > g->gc_max_ns)
		g->gc_max_ns = d;
	fct_hist_add(g->gc_hist, d);
	return 0;
}

SEC("?usdt")
int BPF_USDT(fct_jvm_safepoint_begin)
{
	struct fct_jvm_global *g = global();

	if (g)
		pause_begin(&g->safepoint_since_ns);
	return 0;
}

SEC("?usdt")
int BPF_USDT(fct_jvm_safepoint_end)
{
	struct fct_jvm_global *g = global();
	__u64 d;

	if (!g || !g->safepoint_since_ns)
		return 0;
	d = end_interval(&g->safepoint_since_ns, bpf_ktime_get_ns());
	g->safepoints++;
	g->safepoint_ns += d;
	if (d > g->safepoint_max_ns)
		g->safepoint_max_ns = d;
	return 0;
}
