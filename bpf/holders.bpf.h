/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * holders.bpf.h - what the holder of a contended user lock does while
 * holding it (probe group `holders`, in `full`): glibc mutexes in a
 * program fctrace did not write.
 *
 * No programs of its own: an extra tp_btf program costs ~0.1-0.17 us a
 * call here, so these hooks run inside the ones that are there anyway -
 * fct_sys_enter/fct_sys_exit (syscalls.bpf.c), fct_sched_switch
 * (sched.bpf.c) and fct_cpu_sample (cpuclock.bpf.c) - behind the rodata
 * flag holders_on, whose branches the verifier prunes when it is 0 (the
 * loader clears it when this code cannot load). Only the tp_btf forms
 * carry it: a raw_tp program may not use a map with a bpf_spin_lock.
 *
 * Which words: a futex word a traced thread FUTEX_WAITs on, if glibc's
 * owner field beside it names a traced thread of its process (fctrace.h,
 * FCT_HOLD_LOCKS). Who holds one: the thread whose tid is in that field.
 * The owner test reads glibc's pthread_mutex_t.__owner, which the owner
 * writes itself in user space, just after it took the word and just
 * before it lets it go: owner == tid means "inside its critical
 * section", give or take those few instructions. The read is of the
 * current task's memory, so it is made only where current is the thread
 * (its syscall entry and exit, its switch out, a sample on it).
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
 *   - on CPU from a charged syscall's exit to the thread's next entry or
 *     switch out, the lock owned at both (a span: the two calls' paths
 *     and the user code between; exact, hold_span_end);
 *   - on CPU elsewhere outside syscalls: a thread can take and release
 *     a mutex many times without a syscall, so no edge brackets that
 *     time. The cpu-clock samples that find the thread owning the lock
 *     estimate it instead (fct_hold_sample).
 * Each segment also gets its overlap with the word's contended time
 * (some traced thread in a futex wait on it) and its waiters' time, from
 * two integrals per word kept under a spin lock (hold_sync).
 *
 * Cost, on top of the host programs' own work (their slot lookup is
 * shared): before any word is watched, one bss load per syscall entry,
 * exit and switch, and a FUTEX_WAIT entry verifies its word (one user
 * read). Once words are watched, a syscall entry of a thread of a
 * watched word's process reads the owner field of each of that
 * process's words (no map update, no clock read unless it owns one);
 * other processes' threads only compare tgids. A syscall exit is a
 * branch unless the call began owning a lock or is a wait on a watched
 * word. A span since a charged exit costs its end (the next entry or
 * switch out) one array lookup and three or four atomic adds on the
 * lock, and a sample inside it a few stores in the slot instead of the
 * lock's atomics.
 */
#ifndef FCTRACE_HOLDERS_BPF_H
#define FCTRACE_HOLDERS_BPF_H

#include "common.bpf.h"
#include "sysnr.bpf.h"

struct fct_holds_map {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, FCT_HOLD_SLOTS);
	__type(key, __u32);
	__type(value, struct fct_hold_lock);
};

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

struct fct_hold_sync_map {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, FCT_HOLD_SLOTS);
	__type(key, __u32);
	__type(value, struct hold_sync);
};

/* defined in common.bpf.c */
extern struct fct_holds_map holds SEC(".maps");
extern struct fct_hold_sync_map hold_sync SEC(".maps");
extern struct fct_hold_global hold_global;	/* bss */
extern __u32 hold_skip;		/* bss: slots whose owner is no longer read,
				 * a bit each (the budget's third step: the
				 * holders of the most waited-for locks only) */
extern const volatile __u32 holders_on;		/* rodata: this code runs */

/* The segment's code: how the holder went off CPU, and whether inside
 * a syscall begun holding the lock. */
#define HOLD_OFF_IN_SC	4
#define HOLD_OFF_EDGE	8	/* on a charged syscall's way back to user space */
#define HOLD_OFF_SPAN	16	/* preempted later in a span since a charged exit */

/* Is ip the instruction after a syscall instruction? A cpu-clock
 * interrupt that came due in a syscall's exit path, where interrupts are
 * off, is taken there, in user mode. */
static __always_inline bool fct_after_syscall(__u64 ip)
{
#if defined(__TARGET_ARCH_x86)
	__u8 insn[2] = {};

	if (ip < 2 || bpf_probe_read_user(insn, sizeof(insn), (void *)(ip - 2)))
		return false;
	return insn[0] == 0x0f && insn[1] == 0x05;	/* syscall */
#else
	return false;
#endif
}

static __always_inline struct fct_hold_lock *hold_lock(__u32 i)
{
	return bpf_map_lookup_elem(&holds, &i);
}

/* Does t own watched lock h now? 1 yes, 0 no, -1 the read faulted.
 * current must be t (the read is of its memory). */
static __always_inline int hold_owns(const struct fct_hold_lock *h, const struct fct_slot *t)
{
	__u64 jowner = 0;
	__s32 owner = 0;

	if (h->kind == FCT_HOLD_HOTSPOT) {
		if (!t->jself)
			return 0;	/* its JavaThread not learnt yet */
		if (bpf_probe_read_user(&jowner, sizeof(jowner),
					(void *)(h->uaddr + (h->owner_off & 0xfff))))
			return -1;
		return jowner == t->jself;
	}
	if (bpf_probe_read_user(&owner, sizeof(owner), (void *)(h->uaddr + FCT_HOLD_OWNER_OFF)))
		return -1;
	return (__u32)owner == t->a.tid;
}

/* The first watched lock of t's process that t owns now, other than
 * the word `except` (0: none): its slot, or -1. One user read per
 * watched word of the process; current must be t. */
static __always_inline int fct_hold_owned(const struct fct_slot *t, __u64 except)
{
	struct fct_hold_lock *h;
	int found = -1, owns;

#pragma unroll
	for (__u32 i = 0; i < FCT_HOLD_SLOTS; i++) {
		h = hold_lock(i);
		if (!h)
			break;
		/* slots are taken in order within each range */
		if (!h->uaddr || h->tgid != t->a.tgid || h->uaddr == except ||
		    ((hold_skip >> i) & 1))
			continue;
		owns = hold_owns(h, t);
		if (owns < 0)
			__sync_fetch_and_add(&hold_global.read_faults, 1);
		if (owns <= 0)
			continue;
		if (found >= 0) {
			__sync_fetch_and_add(&h->nested, 1);
			continue;
		}
		found = i;
	}
	return found;
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

/* The slot watching (tgid, uaddr) among the n from first, or -1;
 * *free: one of them is free. */
static __always_inline int hold_find(const struct fct_slot *t, __u64 uaddr, bool *free,
				     const __u32 first, const __u32 n)
{
	struct fct_hold_lock *h;

	*free = false;
#pragma unroll
	for (__u32 i = first; i < first + n; i++) {
		h = hold_lock(i);
		if (!h)
			return -1;
		if (!h->uaddr) {
			*free = true;
			return -1;	/* slots are taken in order */
		}
		if (h->uaddr == uaddr && h->tgid == t->a.tgid)
			return i;
	}
	return -1;
}

/* Take a free slot of the n from first for (t's process, uaddr), a lock
 * of kind with its owner field at owner_off; -1 if none is left. */
static __always_inline int hold_take(const struct fct_slot *t, __u64 uaddr, __u32 kind,
				     __u32 owner_off, const __u32 first, const __u32 n)
{
	struct fct_hold_lock *h;

#pragma unroll
	for (__u32 i = first; i < first + n; i++) {
		h = hold_lock(i);
		if (!h)
			return -1;
		if (h->uaddr == uaddr && h->tgid == t->a.tgid)
			return i;	/* another CPU took it for the same word */
		if (h->uaddr)
			continue;
		if (__sync_val_compare_and_swap(&h->uaddr, 0, uaddr) != 0)
			continue;	/* another CPU took this one */
		h->tgid = t->a.tgid;
		h->kind = kind;
		h->owner_off = owner_off;
		__sync_fetch_and_add(&hold_global.nwatched, 1);
		return i;
	}
	__sync_fetch_and_add(&hold_global.full, 1);
	return -1;
}

/* The slot watching (tgid, uaddr), taking a free one if the word is a
 * mutex word; -1 if none. The word is verified once, before a slot is
 * taken (one copy of the check: the verifier walks it once). */
static __always_inline int hold_watch(const struct fct_slot *t, __u64 uaddr)
{
	bool free;
	int i = hold_find(t, uaddr, &free, 0, FCT_HOLD_LOCKS);

	if (i >= 0)
		return i;
	if (!free) {
		__sync_fetch_and_add(&hold_global.full, 1);
		return -1;
	}
	if (!hold_verify(t, uaddr)) {
		__sync_fetch_and_add(&hold_global.unverified, 1);
		return -1;
	}
	return hold_take(t, uaddr, FCT_HOLD_GLIBC, FCT_HOLD_OWNER_OFF, 0, FCT_HOLD_LOCKS);
}

static __always_inline void hold_add(struct fct_hold_time *ht, __u64 d, __s64 dw, __s64 dc)
{
	__sync_fetch_and_add(&ht->ns, d);
	if (dc > 0)
		__sync_fetch_and_add(&ht->contended_ns, dc);
	if (dw > 0)
		__sync_fetch_and_add(&ht->waiter_ns, dw);
}

/* A span of d ns from the exit of a charged syscall nr to the next entry
 * of its thread, which still owned lock i and stayed on CPU: the
 * shortest is kept per number (a race between CPUs may keep a longer
 * one: the next span puts it right). */
static __always_inline void hold_gap(__u32 i, __u32 nr, __u64 d)
{
	struct fct_hold_lock *h = hold_lock(i);
	struct fct_hold_nr *n;

	if (!h)
		return;
	__sync_fetch_and_add(&h->gaps, 1);
	n = &h->nr[nr & (FCT_NR_MAX - 1)];
	if (!n->gap_min_ns || d < n->gap_min_ns)
		n->gap_min_ns = d;
}

/*
 * The most of a span (a charged syscall's exit tracepoint to its
 * thread's next entry or switch out, holding the lock throughout) taken
 * as the two calls' paths: twice the shortest span measured after that
 * number, at most HOLD_SPAN_MAX_NS (before one is measured, that). The
 * paths vary about their least (cache misses, close's release in its
 * task work: holdprog's spans here are 1.4-1.9 us at least, 1.6-2.3 us
 * at the median, 2.0-3.0 us at the 90th percentile). Past the bound a
 * span is user work between the calls or an interrupt in the paths (an
 * IPI costs 15-40 us in this VM): kept apart (span_user), user space
 * splits it by the samples inside the spans (holders_span_user_share).
 * User work the same between every two calls, under the bound, passes
 * for their paths.
 */
#define HOLD_SPAN_MAX_NS	5000

static __always_inline __u64 hold_span_bound(const struct fct_hold_lock *h, __u32 nr)
{
	__u64 least = h->nr[nr & (FCT_NR_MAX - 1)].gap_min_ns;

	return least && least < HOLD_SPAN_MAX_NS / 2 ? 2 * least : HOLD_SPAN_MAX_NS;
}

/* The samples t's open span held back go to lock h's sampled states
 * after all: the lock was let go inside the span, so they are the only
 * measure of its held part. */
static __always_inline void hold_stash_count(struct fct_hold_lock *h, const struct fct_slot *t)
{
	struct fct_hold_time *dst[3] = { &h->samples_kernel, &h->samples_sc_return,
					  &h->samples_user };

#pragma unroll
	for (int k = 0; k < 3; k++) {
		const struct fct_hold_stash *s = &t->hold_stash[k];

		if (!s->n)
			continue;
		__sync_fetch_and_add(&dst[k]->ns, s->n);
		if (s->contended) {
			__sync_fetch_and_add(&dst[k]->contended_ns, s->contended);
			__sync_fetch_and_add(&dst[k]->waiter_ns, s->waiters);
		}
	}
}

/* span d ns, with the lock's waiter and contended integrals dw, dc over
 * it, up to bound as the paths and the rest as user work */
static __always_inline void hold_span_add(struct fct_hold_lock *h, __u64 d, __u64 bound,
					  __s64 dw, __s64 dc)
{
	__s64 pw = dw, pc = dc;

	if (d > bound) {
		/* the integrals' share of the paths' part (a span is
		 * microseconds: the products stay far from overflow) */
		pw = dw > 0 ? (__s64)((__u64)dw * bound / d) : 0;
		pc = dc > 0 ? (__s64)((__u64)dc * bound / d) : 0;
		hold_add(&h->span_user, d - bound, dw - pw, dc - pc);
		d = bound;
	}
	hold_add(&h->span, d, pw, pc);
}

/*
 * The span from t's last charged exit, if one is open, ends at now (an
 * entry or a switch out). held: t still owns that lock, w and c its
 * integrals at now: its time is exact and the samples in it are dropped.
 * Else the lock was let go inside it: its samples count.
 */
static __always_inline void hold_span_end(struct fct_slot *t, bool held, __u64 now,
					  __s64 w, __s64 c)
{
	__u32 lock1 = t->hold_exit_lock;
	struct fct_hold_lock *h;

	t->hold_exit_lock = 0;
	h = lock1 ? hold_lock(lock1 - 1) : NULL;
	if (h && held) {
		__sync_fetch_and_add(&h->spans, 1);
		if (t->hold_stashed)
			__sync_fetch_and_add(&h->span_samples, t->hold_stashed);
		if (t->hold_stash[2].n)
			__sync_fetch_and_add(&h->span_samples_user, t->hold_stash[2].n);
		hold_span_add(h, now - t->hold_exit_ns, hold_span_bound(h, t->hold_edge_nr - 1),
			      w - t->hold_exit_w, c - t->hold_exit_c);
	} else if (h && t->hold_stashed) {
		hold_stash_count(h, t);
	}
	if (t->hold_stashed) {
		t->hold_stashed = 0;
		__builtin_memset(t->hold_stash, 0, sizeof(t->hold_stash));
	}
}

/*
 * sys_enter of thread t (current; regs: the tp_btf form's, plain loads).
 * A FUTEX_WAIT may make its word watched; then, if t owns a watched
 * lock, the syscall's segment begins. A FUTEX_WAIT or FUTEX_WAKE on a
 * word is made by a thread that does not own it (glibc clears the owner
 * field before it wakes): that word's owner field, the hottest line of a
 * contended lock, is not read then.
 */
static __always_inline void fct_hold_enter(struct fct_slot *t, struct pt_regs *regs, long id)
{
	__u64 now = 0, word = 0;
	__u32 op = FUTEX_OP_MASK, exit_lock, exit_nr;
	struct fct_hold_lock *h;
	bool wait, jwait;
	int i;

	if (id == NR_FUTEX) {
		word = PT_REGS_PARM1_SYSCALL(regs);
		op = PT_REGS_PARM2_SYSCALL(regs) & FUTEX_OP_MASK;
	}
	/* a thread inside a contended enter of a Java monitor waits for it
	 * in a futex wait on its own park event (a glibc condvar's) */
	jwait = t->hold_jwait && (op == FUTEX_WAIT || op == FUTEX_WAIT_BITSET);
	wait = op == FUTEX_WAIT || jwait;
	if (!hold_global.nwatched && !wait)
		return;
	exit_nr = t->hold_edge_nr - 1;
	exit_lock = t->hold_exit_lock;	/* a span ends at any entry */
	if (id == NR_URETPROBE) {
		hold_span_end(t, false, 0, 0, 0);
		t->hold_edge_nr = 0;
		return;		/* fctrace's own return probe's trap, not the holder's */
	}
	if (wait) {
		i = jwait ? (int)t->hold_jwait - 1 : hold_watch(t, word);
		if (i >= 0) {
			now = bpf_ktime_get_ns();
			hold_waiter(i, now, 1);
			t->hold_wait = i + 1;
		}
	}
	i = hold_global.nwatched ? fct_hold_owned(t, op == FUTEX_WAIT || op == FUTEX_WAKE ? word : 0)
				 : -1;
	if (i < 0 || exit_lock != (__u32)i + 1)
		hold_span_end(t, false, 0, 0, 0);
	if (i < 0) {
		t->hold_edge_nr = 0;
		return;
	}
	if (!now)
		now = bpf_ktime_get_ns();
	if (exit_lock == (__u32)i + 1)
		hold_gap(i, exit_nr, now - t->hold_exit_ns);
	t->hold_sc = i + 1;
	t->hold_sc_nr = id & (FCT_NR_MAX - 1);
	/* a Java thread's futex waits are all on its own park event: one
	 * holding a monitor waits for another lock only inside a contended
	 * enter (Thread.sleep, a park, GC or a safepoint are asleep) */
	h = hold_lock(i);
	t->hold_sc_futex = t->in_futex_wait &&
			   (!h || h->kind != FCT_HOLD_HOTSPOT || t->hold_jwait);
	t->hold_sc_word = word;
	if (jwait && (h = hold_lock(t->hold_jwait - 1)))
		t->hold_sc_word = h->uaddr;	/* the monitor it waits for */
	t->hold_sc_ns = now;
	t->hold_sc_disk_n = t->disk_done;
	t->hold_sc_disk_ns = t->disk_wait_ns;
	hold_marks(i, now, &t->hold_sc_w, &t->hold_sc_c);
	if (exit_lock == (__u32)i + 1)
		hold_span_end(t, true, now, t->hold_sc_w, t->hold_sc_c);
	t->hold_edge_nr = 0;
}

/* The disk requests the thread submitted that completed in a segment of
 * d ns held (a charged syscall, or a sleep outside one: a page fault),
 * from the marks taken at its start (waiter and contended integrals w, c
 * over it): their time, capped at the segment, with the integrals' share
 * of it. */
static __always_inline void hold_disk(struct fct_hold_lock *h, const struct fct_slot *t,
				      __u64 mark_n, __u64 mark_ns, __u64 d, __s64 w, __s64 c)
{
	__u64 n = t->disk_done - mark_n, dd, part;

	if (!n || !d)
		return;
	dd = t->disk_wait_ns - mark_ns;
	if (dd > d)
		dd = d;
	part = dd * 1024 / d;	/* of the segment, in 1024ths: no overflow below */
	__sync_fetch_and_add(&h->disk_ios, n);
	hold_add(&h->disk, dd, w > 0 ? (__s64)((__u64)w / 1024 * part) : 0,
		 c > 0 ? (__s64)((__u64)c / 1024 * part) : 0);
}

/* A futex wait on word made holding h, of d ns: the chain's entry for
 * word (taken if free; none left: not kept). */
static __always_inline void hold_chain_add(struct fct_hold_lock *h, __u64 word, __u64 d)
{
#pragma unroll
	for (__u32 i = 0; i < FCT_HOLD_CHAIN; i++) {
		struct fct_hold_chain *c = &h->chain[i];

		if (c->uaddr != word &&
		    (c->uaddr || __sync_val_compare_and_swap(&c->uaddr, 0, word) != 0) &&
		    c->uaddr != word)
			continue;
		__sync_fetch_and_add(&c->count, 1);
		__sync_fetch_and_add(&c->ns, d);
		return;
	}
}

/* The syscall begun owning lock i ended at now: charged if the owner
 * field still names the thread. */
static __always_inline bool hold_sc_end(struct fct_slot *t, __u32 i, __u64 now)
{
	struct fct_hold_lock *h = hold_lock(i);
	__s64 w, c;
	__u64 d;

	if (!h)
		return false;
	if (hold_owns(h, t) <= 0) {
		__sync_fetch_and_add(&h->sc_unconfirmed, 1);
		return false;
	}
	hold_marks(i, now, &w, &c);
	t->hold_exit_w = w;	/* a span after this exit begins with them */
	t->hold_exit_c = c;
	d = now - t->hold_sc_ns;
	w -= t->hold_sc_w;
	c -= t->hold_sc_c;
	__sync_fetch_and_add(&h->sc_count, 1);
	hold_add(&h->sc, d, w, c);
	hold_disk(h, t, t->hold_sc_disk_n, t->hold_sc_disk_ns, d, w, c);
	if (t->hold_sc_futex) {
		hold_add(&h->sc_futex, d, w, c);
		hold_chain_add(h, t->hold_sc_word, d);
	}
	__sync_fetch_and_add(&h->nr[t->hold_sc_nr & (FCT_NR_MAX - 1)].count, 1);
	__sync_fetch_and_add(&h->nr[t->hold_sc_nr & (FCT_NR_MAX - 1)].ns, d);
	return true;
}

/* sys_exit of thread t (current): close its wait on a watched word and
 * charge the syscall begun owning a lock, if either is open. */
static __always_inline void fct_hold_exit(struct fct_slot *t)
{
	__u64 now;

	/* nothing watched: no thread is in a charged syscall or a wait */
	if (!hold_global.nwatched || (!t->hold_sc && !t->hold_wait))
		return;
	now = bpf_ktime_get_ns();
	if (t->hold_wait) {
		hold_waiter(t->hold_wait - 1, now, -1);
		t->hold_wait = 0;
	}
	if (t->hold_sc) {
		if (hold_sc_end(t, t->hold_sc - 1, now)) {
			t->hold_edge_nr = t->hold_sc_nr + 1;
			t->hold_exit_ns = now;
			t->hold_exit_lock = t->hold_sc;
		}
		t->hold_sc = 0;
	}
}

/* Is task p, off its syscall tracepoints, still in syscall nr (on its
 * way back to user space)? Its saved orig_ax says which syscall it
 * entered the kernel for; an interrupt from user mode since then would
 * have put -1 there (a fault, its error code: it may pass for nr). */
static __always_inline bool hold_on_sc_return(struct task_struct *p, __u32 nr)
{
#if defined(__TARGET_ARCH_x86)
	struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(p);

	return regs && BPF_CORE_READ(regs, orig_ax) == (long)nr;
#else
	return false;
#endif
}

/* Are task p's (current's) user registers at the instruction after a
 * syscall? So they are in a call's entry and exit paths, and when an
 * interrupt that came due in the exit path was taken there as it came
 * back: a preemption then leaves the call with it. */
static __always_inline bool hold_at_sc_return(struct task_struct *p)
{
	struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(p);

	return regs && fct_after_syscall(PT_REGS_IP_CORE(regs));
}

/* Is prev (slot t), going off CPU at now outside the syscall
 * tracepoints holding lock1 - 1, on a syscall's edge: runnable (preempted,
 * or rescheduled on its way back to user space: schedule() there is no
 * preemption by the tracepoint's flag) with its user registers at a
 * syscall's return point (in a call's entry path
 * before its tracepoint, in its exit path after it, or interrupted as it
 * came back: the program's own clock counts that in the call), still in
 * the exit path of the charged call before (its number in orig_ax), or
 * within the paths' bound of that call's exit with the lock held since
 * (an open span)? */
static __always_inline bool hold_on_edge(const struct fct_slot *t, struct task_struct *prev,
					 bool runnable, __u32 lock1, __u64 now)
{
	struct fct_hold_lock *h;

	if (runnable && hold_at_sc_return(prev))
		return true;
	if (!t->hold_edge_nr)
		return false;
	if (hold_on_sc_return(prev, t->hold_edge_nr - 1))
		return true;
	h = t->hold_exit_lock == lock1 ? hold_lock(lock1 - 1) : NULL;
	return h && now - t->hold_exit_ns <= hold_span_bound(h, t->hold_edge_nr - 1);
}

/* prev (slot t) goes off CPU (current is still prev) at now: if it owns
 * a lock, the off-CPU segment begins, and a span since a charged exit
 * ends there. */
static __always_inline void hold_switch_out(struct fct_slot *t, struct task_struct *prev,
					    bool preempt, unsigned int prev_state, __u64 now)
{
	int i = -1;

	if (t->hold_sc)
		i = t->hold_sc - 1;
	else if (!t->in_syscall)	/* in one begun not owning one: owns none */
		i = fct_hold_owned(t, 0);
	if (i < 0) {
		hold_span_end(t, false, 0, 0, 0);
		return;
	}
	t->hold_off = i + 1;
	t->hold_off_code = (!preempt && prev_state != 0) ? FCT_ST_BLOCKED : FCT_ST_RUNNABLE;
	if (t->hold_sc)
		t->hold_off_code |= HOLD_OFF_IN_SC;
	else if (hold_on_edge(t, prev, t->hold_off_code == FCT_ST_RUNNABLE, i + 1, now))
		t->hold_off_code |= HOLD_OFF_EDGE;
	else if (t->hold_exit_lock == (__u32)i + 1 && t->hold_off_code == FCT_ST_RUNNABLE)
		t->hold_off_code |= HOLD_OFF_SPAN;
	t->hold_off_ns = now;
	t->hold_off_disk_n = t->disk_done;
	t->hold_off_disk_ns = t->disk_wait_ns;
	hold_marks(i, now, &t->hold_off_w, &t->hold_off_c);
	hold_span_end(t, t->hold_exit_lock == (__u32)i + 1, now, t->hold_off_w, t->hold_off_c);
}

/* next (slot t) comes back on CPU at now: charge its off-CPU segment, if
 * one is open. */
static __always_inline void hold_switch_in(struct fct_slot *t, __u64 now)
{
	struct fct_hold_lock *h;
	struct fct_hold_time *ht;
	__u32 i, code;
	__s64 w, c;

	if (!t->hold_off)
		return;
	i = t->hold_off - 1;
	code = t->hold_off_code;
	t->hold_off = 0;
	h = hold_lock(i);
	if (!h)
		return;
	hold_marks(i, now, &w, &c);
	if (code & HOLD_OFF_IN_SC)
		ht = (code & FCT_C_STATE) == FCT_ST_BLOCKED ? &h->sc_blocked : &h->sc_preempted;
	else if (code & HOLD_OFF_EDGE)
		ht = &h->sc_edge;
	else if (code & HOLD_OFF_SPAN)
		ht = &h->span_preempted;
	else
		ht = (code & FCT_C_STATE) == FCT_ST_BLOCKED ? &h->blocked : &h->preempted;
	hold_add(ht, now - t->hold_off_ns, w - t->hold_off_w, c - t->hold_off_c);
	/* asleep outside a charged syscall (a fault reading a mapped file):
	 * its disk requests here; inside one, the syscall's own count */
	if (ht == &h->blocked)
		hold_disk(h, t, t->hold_off_disk_n, t->hold_off_disk_ns, now - t->hold_off_ns,
			  w - t->hold_off_w, c - t->hold_off_c);
}

/* sched_switch at now, with the slots of prev and next (NULL: not
 * traced). */
static __always_inline void fct_hold_switch(struct fct_slot *tp, struct task_struct *prev,
					    bool preempt, unsigned int prev_state,
					    struct fct_slot *tn, __u64 now)
{
	if (!hold_global.nwatched)
		return;
	if (tp)
		hold_switch_out(tp, prev, preempt, prev_state, now);
	if (tn)
		hold_switch_in(tn, now);
}

/* A cpu-clock sample that found t on CPU (cpuclock.bpf.c): in a syscall
 * begun holding a lock it is part of that syscall's exact time; else,
 * if t owns a watched lock, a sample of its on-CPU time holding it
 * (held back while a span since a charged exit is open). A
 * kernel-mode sample inside a syscall begun not holding one cannot be
 * holding one (only user space takes a mutex): no read. ip: the user
 * mode sample's instruction (a syscall's return point or not). */
static __always_inline void fct_hold_sample(struct fct_slot *t, bool user, __u64 ip)
{
	struct fct_hold_lock *h;
	struct fct_hold_time *s;
	struct fct_hold_stash *st;
	__u32 n, kind;
	int i;

	if (!holders_on || !hold_global.nwatched)
		return;
	if (t->hold_sc) {
		h = hold_lock(t->hold_sc - 1);
		if (h)
			__sync_fetch_and_add(&h->samples_in_sc, 1);
		return;
	}
	/* in a syscall begun holding none, unless the sample is in the
	 * thread's own syscall programs (fctrace's part of the edges: the
	 * charge begins late in sys_enter and ends early in sys_exit) */
	if (!user && t->in_syscall && !t->in_sc_hook)
		return;
	i = fct_hold_owned(t, 0);
	if (i < 0)
		return;
	h = hold_lock(i);
	if (!h)
		return;
	n = h->waiters;
	kind = !user ? 0 : fct_after_syscall(ip) ? 1 : 2;
	if (t->hold_exit_lock == (__u32)i + 1) {
		/* in a span since a charged exit: its time is exact if it
		 * ends holding the lock (hold_span_end), else this counts */
		st = &t->hold_stash[kind == 0 ? 0 : kind == 1 ? 1 : 2];
		st->n++;
		if (n) {
			st->contended++;
			st->waiters += n;
		}
		t->hold_stashed++;
		return;
	}
	s = kind == 0 ? &h->samples_kernel : kind == 1 ? &h->samples_sc_return : &h->samples_user;
	__sync_fetch_and_add(&s->ns, 1);
	if (n) {
		__sync_fetch_and_add(&s->contended_ns, 1);
		__sync_fetch_and_add(&s->waiter_ns, n);
	}
}

#endif /* FCTRACE_HOLDERS_BPF_H */
