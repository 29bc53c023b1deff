/*
 * lockname.c - naming futex words from symbols and sampled call sites.
 *
 * Samples are unwound as they arrive and kept as counts per (process,
 * word, call site, kind); at the end each word takes its symbol if one
 * covers it, else its most frequent call site, and the kind most of its
 * samples showed (without samples: the futex op says lock or wait).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "join/lockname.h"
#include "join/semlock.h"
#include "base/clock.h"
#include "trace/usym.h"
#include "join/waitstacks.h"

struct site_count {
	uint32_t tgid;
	uint64_t uaddr;
	char site[128];
	enum wait_kind kind;
	uint64_t n;
};

struct lockname {
	struct usym *u;
	struct waitstacks *ws;		/* the samples' whole stacks */
	struct site_count *sites;
	int nsites, cap;
	uint64_t received, unwound;
	pid_t last_tgid;
	uint64_t deadline_ns;		/* lockname_build names words until then */
	uint64_t unnamed;		/* words left with their address: out of time */
};

struct lockname *lockname_new(void)
{
	struct lockname *ln = calloc(1, sizeof(*ln));

	if (ln && (!(ln->u = usym_new()) || !(ln->ws = waitstacks_new()))) {
		usym_free(ln->u);
		free(ln);
		return NULL;
	}
	return ln;
}

void lockname_free(struct lockname *ln)
{
	if (!ln)
		return;
	usym_free(ln->u);
	waitstacks_free(ln->ws);
	free(ln->sites);
	free(ln);
}

void lockname_snapshot(struct lockname *ln, pid_t tgid)
{
	if (ln)
		usym_snapshot(ln->u, tgid);
}

void lockname_deadline(struct lockname *ln, uint64_t deadline_ns)
{
	if (!ln)
		return;
	ln->deadline_ns = deadline_ns;
	usym_set_deadline(ln->u, deadline_ns);
}

uint64_t lockname_unnamed(const struct lockname *ln)
{
	return ln ? ln->unnamed : 0;
}

void lockname_unsymbolised(const struct lockname *ln, char *buf, size_t len)
{
	buf[0] = '\0';
	if (ln)
		usym_unsymbolised(ln->u, buf, len);
}

static bool out_of_time(const struct lockname *ln)
{
	return ln && ln->deadline_ns && monotonic_ns() >= ln->deadline_ns;
}

void lockname_stats(const struct lockname *ln, uint64_t *received, uint64_t *unwound)
{
	*received = ln ? ln->received : 0;
	*unwound = ln ? ln->unwound : 0;
}

static struct site_count *site_slot(struct lockname *ln, uint32_t tgid, uint64_t uaddr,
				    const char *site, enum wait_kind kind)
{
	struct site_count *s;

	for (int i = 0; i < ln->nsites; i++) {
		s = &ln->sites[i];
		if (s->tgid == tgid && s->uaddr == uaddr && s->kind == kind &&
		    !strcmp(s->site, site))
			return s;
	}
	if (ln->nsites == ln->cap) {
		int cap = ln->cap ? 2 * ln->cap : 64;

		s = realloc(ln->sites, (size_t)cap * sizeof(*s));
		if (!s)
			return NULL;
		ln->sites = s;
		ln->cap = cap;
	}
	s = &ln->sites[ln->nsites++];
	memset(s, 0, sizeof(*s));
	s->tgid = tgid;
	s->uaddr = uaddr;
	s->kind = kind;
	snprintf(s->site, sizeof(s->site), "%s", site);
	return s;
}

struct waitstacks *lockname_waitstacks(struct lockname *ln)
{
	return ln ? ln->ws : NULL;
}

static struct uframe frames[USYM_MAX_STACK];	/* one thread calls: the watch loop */

/* A cpu-clock sample's whole stack (--cpu-stacks) or a sleep's in a
 * syscall, for the flame graphs. */
static void keep_stack(struct lockname *ln, const struct fct_ustack *e, size_t len)
{
	waitstacks_add(ln->ws, e, frames, usym_unwind(ln->u, e, len, frames, USYM_MAX_STACK));
}

void lockname_on_ustack(void *arg, const struct fct_ustack *e, size_t len)
{
	struct lockname *ln = arg;
	struct site_count *s;
	enum wait_kind kind;
	char site[128];
	int n;

	if (ln->last_tgid != (pid_t)e->tgid) {	/* a process we have no map of yet */
		usym_snapshot(ln->u, (pid_t)e->tgid);
		ln->last_tgid = (pid_t)e->tgid;
	}
	if (e->op == FCT_USTACK_OP_CPU || e->op == FCT_USTACK_OP_BLOCKED) {	/* no word to name */
		keep_stack(ln, e, len);
		return;
	}
	ln->received++;
	/* its call site names the word; its whole stack goes to the flame graphs */
	if (usym_wait_stack(ln->u, e, len, site, sizeof(site), &kind, frames, USYM_MAX_STACK,
			    &n) == 0)
		ln->unwound++;
	s = site_slot(ln, e->tgid, e->uaddr, site, kind);
	if (s)
		s->n++;
	waitstacks_add(ln->ws, e, frames, n);
}

/* Without a stack the op still tells: glibc's mutexes wait with
 * FUTEX_WAIT (0) or LOCK_PI (6, 13); condvars, semaphores, rwlocks and
 * joins with WAIT_BITSET (9). */
static enum wait_kind kind_of_op(uint32_t op)
{
	return op == 0 || op == 6 || op == 13 ? WK_UNKNOWN : WK_CONDVAR;
}

/* The most sampled site and kind of one word. */
static const struct site_count *best_site(const struct lockname *ln, uint32_t tgid,
					  uint64_t uaddr, uint64_t *samples)
{
	const struct site_count *best = NULL;

	*samples = 0;
	for (int i = 0; ln && i < ln->nsites; i++) {
		const struct site_count *s = &ln->sites[i];

		if (s->tgid != tgid || s->uaddr != uaddr)
			continue;
		*samples += s->n;
		if (!best || s->n > best->n || (strcmp(best->site, "?") == 0 && s->n == best->n))
			best = s;
	}
	return best;
}

static uint32_t tgid_of(const struct kview *kv, uint32_t tid)
{
	const struct fct_thread *t = kview_thread(kv, tid);

	return t ? t->tgid : 0;
}

static int known(const struct lock_name *names, int n, uint32_t tgid, uint64_t uaddr)
{
	for (int i = 0; i < n; i++)
		if (names[i].tgid == tgid && uaddr >= names[i].addr &&
		    uaddr < names[i].addr + names[i].size)
			return 1;
	return 0;
}

/* The lock kind the C library's frames named. */
static enum lock_kind lock_kind_of_wait(enum wait_kind k)
{
	static const enum lock_kind kinds[WK_N] = {
		[WK_UNKNOWN] = LK_LOCK, [WK_MUTEX] = LK_MUTEX, [WK_RWLOCK] = LK_RWLOCK,
		[WK_CONDVAR] = LK_CONDVAR, [WK_SEMAPHORE] = LK_SEMAPHORE,
		[WK_BARRIER] = LK_BARRIER, [WK_JOIN] = LK_JOIN,
	};

	return (unsigned)k < WK_N ? kinds[k] : LK_LOCK;
}

/* Where a word is and what kind of wait its samples showed (out->kind:
 * LK_LOCK when none did). */
static void place_word(struct lockname *ln, const struct kv_futex *f, uint32_t tgid,
		       struct lock_name *out)
{
	const struct site_count *s = best_site(ln, tgid, f->key.uaddr, &out->samples);
	enum wait_kind kind = s && s->kind != WK_UNKNOWN ? s->kind : kind_of_op(f->key.op);

	out->kind = lock_kind_of_wait(kind);
	if (f->key.op == FCT_FUTEX_OP_WAITV)
		kind = WK_UNKNOWN, out->kind = LK_WAITV;
	out->tgid = tgid;
	out->addr = f->key.uaddr;
	out->size = 4;
	out->is_lock = wait_kind_is_lock(kind);
	snprintf(out->site, sizeof(out->site), "%s", s && strcmp(s->site, "?") ? s->site : "");
	if (ln && usym_data_name(ln->u, (pid_t)tgid, f->key.uaddr, out->name,
				 sizeof(out->name), &out->addr, &out->size) == 0 &&
	    out->size > LOCKNAME_MAX_LOCK_SIZE) {
		/* a big object holds several locks (CPython's _PyRuntime holds
		 * the GIL's mutex and condvar): name the word by its offset */
		size_t len = strlen(out->name);

		snprintf(out->name + len, sizeof(out->name) - len, "+%#llx",
			 (unsigned long long)(f->key.uaddr - out->addr));
		out->addr = f->key.uaddr;
		out->size = 4;
	}
}

/*
 * The words of n's object: inside its real extent when a symbol gave it
 * one; else the word and the words 4 bytes either side, which only the
 * same object can hold (a condvar's two __g_signals, an rwlock's two
 * futex words: no two glibc locks lie closer than 32 bytes apart).
 * Never merely near it: two condvars side by side are two objects.
 */
static bool in_object(const struct lock_name *n, uint64_t uaddr)
{
	if (n->size > 4)
		return uaddr >= n->addr && uaddr < n->addr + n->size;
	return uaddr + 4 >= n->addr && uaddr <= n->addr + 4;
}

/* Did thread tid (any, when 0) wait with op on a word of n's object, or
 * on the word uaddr (when n is NULL)? */
static bool waited_with_op(const struct kview *kv, const struct lock_name *n, uint64_t uaddr,
			   uint32_t op, uint32_t tid)
{
	for (int i = 0; i < kv->nfutex; i++) {
		const struct kv_futex *f = &kv->futex[i];

		if (f->key.op == op && f->val.waits && (!tid || f->key.tid == tid) &&
		    (n ? in_object(n, f->key.uaddr) : f->key.uaddr == uaddr))
			return true;
	}
	return false;
}

/* Did at least `want` threads wait with op on the words of n? One
 * pass, counting distinct threads up to want. */
static bool waiters_in(const struct kview *kv, const struct lock_name *n, uint32_t op,
		       int want)
{
	uint32_t tids[8];
	int count = 0;

	for (int i = 0; i < kv->nfutex && count < want && count < 8; i++) {
		const struct kv_futex *f = &kv->futex[i];
		bool seen = false;

		if (f->key.op != op || !f->val.waits || !in_object(n, f->key.uaddr))
			continue;
		for (int j = 0; j < count; j++)
			seen |= tids[j] == f->key.tid;
		if (!seen)
			tids[count++] = f->key.tid;
	}
	return count >= want;
}

/*
 * Who wakes the waiters of n. A condvar whose wake-ups come mostly from
 * threads that wait on it too, among three or more, is passed round:
 * each waits for its turn and hands the turn on, a lock built from a
 * condvar (as CPython's GIL is). One whose wakers do not wait on it (a
 * producer signalling consumers) is an event: the waiters wait for work;
 * two threads alternating (a one-slot queue) stay an event too. Only
 * wakes of the words its waiters sleep on count: the waiters' wakes of
 * glibc's own __g_refs word (a signaller waits there, with another op)
 * are the condvar's bookkeeping, not a turn handed on; and a wait on the
 * condvar beside it is a wait on another object.
 */
static void count_wakes(const struct kview *kv, struct lock_name *n, uint32_t op)
{
	for (int i = 0; i < kv->nfutex; i++) {
		const struct kv_futex *f = &kv->futex[i];

		if (f->key.op != FCT_FUTEX_OP_WAKE || !in_object(n, f->key.uaddr) ||
		    tgid_of(kv, f->key.tid) != n->tgid ||
		    !waited_with_op(kv, NULL, f->key.uaddr, op, 0))
			continue;
		n->wakes += f->val.wakes;
		/* each waker's own waits: a scan per waker of this word, few */
		if (waited_with_op(kv, n, 0, op, f->key.tid))
			n->wakes_by_waiters += f->val.wakes;
	}
	if (!n->is_lock && n->wakes >= LOCKNAME_TURNS_MIN_WAKES &&
	    n->wakes_by_waiters * 2 > n->wakes && waiters_in(kv, n, op, 3))
		n->turns = n->is_lock = true;
}

/*
 * An event whose every wake-up came from a thread that then exited, one
 * wake-up each: a wait for threads to end, a join however it is built
 * (pthread_join's tid word is cleared and woken by the kernel at the
 * exit, with no waker seen; CPython's Thread.join waits on a lock each
 * thread releases as it ends).
 */
#define JOIN_EXIT_GAP_NS	1000000ull	/* 1 ms */

static bool woken_by_exits(const struct kview *kv, const struct lock_name *n)
{
	uint64_t wakes = 0, waiters_end = UINT64_MAX;

	/* the waiters outlive the wakers: a thread that signals once and
	 * lives on (to exit with the process) is no thread being joined */
	for (int i = 0; i < kv->nfutex; i++) {
		const struct fct_thread *t = kview_thread(kv, kv->futex[i].key.tid);

		if (kv->futex[i].key.op != FCT_FUTEX_OP_WAKE && kv->futex[i].val.waits &&
		    in_object(n, kv->futex[i].key.uaddr) && t && t->end_ns < waiters_end)
			waiters_end = t->end_ns;
	}
	for (int i = 0; i < kv->nfutex; i++) {
		const struct kv_futex *f = &kv->futex[i];
		const struct fct_thread *t;

		if (f->key.op != FCT_FUTEX_OP_WAKE || !in_object(n, f->key.uaddr) ||
		    tgid_of(kv, f->key.tid) != n->tgid)
			continue;
		t = kview_thread(kv, f->key.tid);
		/* not the main thread, whose exit ends them all; and ended before
		 * the waiters by more than a process exit's spread */
		if (!t || !(t->how & FCT_HOW_EXITED) || f->val.wakes > 1 || t->tid == t->tgid ||
		    t->end_ns + JOIN_EXIT_GAP_NS >= waiters_end)
			return false;
		wakes += f->val.wakes;
	}
	return wakes > 0;
}

/* "sym (kind)", "kind @ site" or "kind 0x..." (name holds sym, or "") */
/*
 * A word no stack was sampled for, at the address where another process
 * of the run has one that was: processes forked from one program keep
 * their objects at the same addresses (a process-shared semaphore is the
 * same object in each), and the same code waits there. It takes the
 * other's site and kind, so that one object is not a named row in one
 * process and "condvar 0x7f..." in the next.
 */
static void share_across_forks(struct lock_name *names, const bool *placed, int n)
{
	for (int i = 0; i < n; i++) {
		if (names[i].site[0] || names[i].name[0] || !placed[i])
			continue;
		for (int j = 0; j < n; j++) {
			if (j == i || names[j].addr != names[i].addr ||
			    names[j].tgid == names[i].tgid || !names[j].site[0] || !placed[j])
				continue;
			memcpy(names[i].site, names[j].site, sizeof(names[i].site));
			names[i].kind = names[j].kind;
			break;
		}
	}
}

static void write_name(struct lock_name *n)
{
	char kind[48], sym[sizeof(n->name)];

	snprintf(kind, sizeof(kind), "%s%s", lock_kind_name(n->kind), !n->turns ? "" :
		 n->kind == LK_SEMAPHORE ? " used as a lock" : " taken in turns");
	snprintf(sym, sizeof(sym), "%s", n->name);
	if (sym[0])
		snprintf(n->name, sizeof(n->name), "%.100s (%s)", sym, kind);
	else if (n->site[0])
		snprintf(n->name, sizeof(n->name), "%s @ %.100s", kind, n->site);
	else
		snprintf(n->name, sizeof(n->name), "%s 0x%llx", kind, (unsigned long long)n->addr);
}

/* glibc's pthread_cond_t: waiters sleep on __g_signals[g] (offsets 40,
 * 44) with FUTEX_WAIT_BITSET; a signaller switching groups sleeps on
 * __g_refs[g] (16, 20) with FUTEX_WAIT, 24 bytes before. */
#define COND_GREFS_TO_GSIGNALS	24
#define FUTEX_OP_WAIT		0
#define FUTEX_OP_WAIT_BITSET	9

static bool waited_with(const struct kview *kv, uint32_t tgid, uint64_t uaddr, uint32_t op)
{
	for (int i = 0; i < kv->nfutex; i++)
		if (kv->futex[i].key.uaddr == uaddr && kv->futex[i].key.op == op &&
		    kv->futex[i].val.waits && tgid_of(kv, kv->futex[i].key.tid) == tgid)
			return true;
	return false;
}

/* The condvar whose __g_refs word n is, or NULL: a lone word waited with
 * FUTEX_WAIT 24 bytes before a condvar word waited with WAIT_BITSET lies
 * inside that condvar (48 bytes from 40 or 44 before it), whatever else
 * is near. */
static const struct lock_name *grefs_of(const struct kview *kv, const struct lock_name *names,
					int count, const struct lock_name *n)
{
	uint64_t sig = n->addr + COND_GREFS_TO_GSIGNALS;

	if (n->size != 4 || !waited_with(kv, n->tgid, n->addr, FUTEX_OP_WAIT) ||
	    !waited_with(kv, n->tgid, sig, FUTEX_OP_WAIT_BITSET))
		return NULL;
	for (int i = 0; i < count; i++)
		if (names[i].tgid == n->tgid && sig >= names[i].addr &&
		    sig < names[i].addr + names[i].size && names[i].kind == LK_CONDVAR)
			return &names[i];
	return NULL;
}

/* glibc's own words of a condvar are named as the condvar they serve. */
static void name_grefs(const struct kview *kv, struct lock_name *names, int count)
{
	for (int i = 0; i < count; i++) {
		const struct lock_name *cv = grefs_of(kv, names, count, &names[i]);

		if (!cv)
			continue;
		snprintf(names[i].name, sizeof(names[i].name), "%s", cv->name);
		names[i].kind = cv->kind;
		names[i].is_lock = cv->is_lock;
		names[i].turns = cv->turns;
	}
}

int lockname_build(struct lockname *ln, const struct kview *kv, struct lock_name **out)
{
	struct lock_name *names = calloc(kv->nfutex ? kv->nfutex : 1, sizeof(*names));
	/* placed: named below, once the wake-ups and the other processes'
	 * words have said what kind it is (out of time: named at once) */
	bool *placed = calloc(kv->nfutex ? kv->nfutex : 1, sizeof(*placed));
	int n = 0;

	*out = NULL;
	if (!names || !placed) {
		free(names);
		free(placed);
		return -1;
	}
	for (int i = 0; i < kv->nfutex; i++) {
		uint32_t tgid = tgid_of(kv, kv->futex[i].key.tid);

		if (kv->futex[i].key.op == FCT_FUTEX_OP_WAKE)
			continue;	/* wakes only: the word is named by its waits */
		if (out_of_time(ln)) {	/* the rest: by address, counted */
			enum lock_kind kind = kind_of_op(kv->futex[i].key.op) == WK_UNKNOWN ?
					      LK_LOCK : LK_CONDVAR;

			names[n] = (struct lock_name){ .tgid = tgid, .addr = kv->futex[i].key.uaddr,
						       .size = 4, .kind = kind,
						       .is_lock = kind == LK_LOCK };
			write_name(&names[n++]);
			ln->unnamed++;
			continue;
		}
		if (known(names, n, tgid, kv->futex[i].key.uaddr))
			continue;
		place_word(ln, &kv->futex[i], tgid, &names[n]);
		count_wakes(kv, &names[n], kv->futex[i].key.op);
		if (!names[n].is_lock && woken_by_exits(kv, &names[n]))
			names[n].kind = LK_JOIN;
		placed[n++] = true;
	}
	share_across_forks(names, placed, n);
	semlock_classify(kv, names, n);
	for (int i = 0; i < n; i++)
		if (placed[i])
			write_name(&names[i]);
	free(placed);
	name_grefs(kv, names, n);
	*out = names;
	return n;
}
