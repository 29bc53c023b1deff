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
#include "base/idxhash.h"
#include "join/semlock.h"
#include "base/clock.h"
#include "trace/usym.h"
#include "join/waitstacks.h"
#include "join/wordindex.h"
#include "base/signals.h"

/* A process's maps read again for its stacks at most this often (a
 * library it mapped since goes unnamed that long) */
#define MAPS_AGE_NS	1000000000ull

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
	struct idxhash site_index;	/* sites by what site_same compares */
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
	idxhash_free(&ln->site_index);
	free(ln);
}

void lockname_snapshot(struct lockname *ln, pid_t tgid)
{
	if (ln)
		usym_snapshot(ln->u, tgid);
}

void lockname_refresh(struct lockname *ln, pid_t tgid)
{
	if (ln)
		usym_snapshot_since(ln->u, tgid, MAPS_AGE_NS);
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

struct site_key {
	const struct lockname *ln;
	uint32_t tgid;
	uint64_t uaddr;
	const char *site;
	enum wait_kind kind;
};

static bool site_same(const void *ctx, int i)
{
	const struct site_key *k = ctx;
	const struct site_count *s = &k->ln->sites[i];

	return s->tgid == k->tgid && s->uaddr == k->uaddr && s->kind == k->kind &&
	       !strncmp(s->site, k->site, sizeof(s->site) - 1);
}

static struct site_count *site_slot(struct lockname *ln, uint32_t tgid, uint64_t uaddr,
				    const char *site, enum wait_kind kind)
{
	struct site_key key = { ln, tgid, uaddr, site, kind };
	uint64_t hash = idxhash_bytes(IDXHASH_SEED, &tgid, sizeof(tgid));
	struct site_count *s;
	int i;

	hash = idxhash_bytes(hash, &uaddr, sizeof(uaddr));
	hash = idxhash_bytes(hash, &kind, sizeof(kind));
	/* the stored site is cut to its array: hash what is kept */
	hash = idxhash_bytes(hash, site, strnlen(site, sizeof(s->site) - 1));
	if ((i = idxhash_find(&ln->site_index, hash, site_same, &key)) >= 0)
		return &ln->sites[i];
	if (ln->nsites == ln->cap) {
		int cap = ln->cap ? 2 * ln->cap : 64;

		s = realloc(ln->sites, (size_t)cap * sizeof(*s));
		if (!s)
			return NULL;
		ln->sites = s;
		ln->cap = cap;
	}
	if (idxhash_add(&ln->site_index, hash, ln->nsites))
		return NULL;
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

	if (ln->last_tgid != (pid_t)e->tgid) {	/* a process we have no map of yet,
						 * or none from the last second */
		usym_snapshot_since(ln->u, (pid_t)e->tgid, MAPS_AGE_NS);
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

/*
 * What one lockname_build reads, indexed once: the view's entries by word
 * and thread (wordindex.h), the samples' sites by word, the names made so
 * far by the 64-byte blocks they cover. Each question about a word then
 * reads that word's entries, not the view's (words x entries x threads
 * took 45 s for a target of 10 000 threads).
 */
#define BLOCK_SHIFT	6	/* a name (at most LOCKNAME_MAX_LOCK_SIZE) spans two blocks */

struct block_entry {
	uint32_t tgid;
	uint64_t block;
	int name, next;
};

struct build {
	struct lockname *ln;
	struct kv_index ix;
	int *sites;			/* ln->sites by (tgid, word, place) */
	struct block_entry *blocks;	/* the names' blocks, chained by hash */
	int *heads, nblocks, hcap;	/* hcap a power of two, > 2 x the blocks */
	const struct lock_name *names;
};

static int by_site_word(const void *a, const void *b, void *arg)
{
	const struct site_count *s = arg, *x = &s[*(const int *)a], *y = &s[*(const int *)b];

	if (x->tgid != y->tgid)
		return x->tgid < y->tgid ? -1 : 1;
	if (x->uaddr != y->uaddr)
		return x->uaddr < y->uaddr ? -1 : 1;
	return (x > y) - (x < y);
}

static int sites_index(struct build *b)
{
	int n = b->ln ? b->ln->nsites : 0;

	if (!(b->sites = malloc((size_t)(n ? n : 1) * sizeof(*b->sites))))
		return -1;
	for (int i = 0; i < n; i++)
		b->sites[i] = i;
	if (n)
		qsort_r(b->sites, (size_t)n, sizeof(*b->sites), by_site_word, b->ln->sites);
	return 0;
}

/* The most sampled site and kind of one word. */
static const struct site_count *best_site(const struct build *b, uint32_t tgid,
					  uint64_t uaddr, uint64_t *samples)
{
	const struct site_count *best = NULL, *all = b->ln ? b->ln->sites : NULL;
	int lo = 0, hi = b->ln ? b->ln->nsites : 0;

	*samples = 0;
	while (lo < hi) {	/* the word's first site */
		int mid = lo + (hi - lo) / 2;
		const struct site_count *s = &all[b->sites[mid]];

		if (s->tgid < tgid || (s->tgid == tgid && s->uaddr < uaddr))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (int k = lo; b->ln && k < b->ln->nsites; k++) {
		const struct site_count *s = &all[b->sites[k]];

		if (s->tgid != tgid || s->uaddr != uaddr)
			break;
		*samples += s->n;
		if (!best || s->n > best->n || (strcmp(best->site, "?") == 0 && s->n == best->n))
			best = s;
	}
	return best;
}

static uint32_t tgid_of(const struct build *b, uint32_t tid)
{
	return kv_index_tgid(&b->ix, tid);
}

static unsigned block_hash(const struct build *b, uint32_t tgid, uint64_t block)
{
	uint64_t h = (block ^ (uint64_t)tgid << 40) * 0x9e3779b97f4a7c15ull;

	return (unsigned)(h >> 32) & (unsigned)(b->hcap - 1);
}

/* Room for every name the view can make (one per entry), two blocks each. */
static int blocks_init(struct build *b, int nfutex)
{
	int most = 2 * (nfutex ? nfutex : 1);

	for (b->hcap = 16; b->hcap < 2 * most; b->hcap *= 2)
		;
	b->blocks = malloc((size_t)most * sizeof(*b->blocks));
	b->heads = malloc((size_t)b->hcap * sizeof(*b->heads));
	if (!b->blocks || !b->heads)
		return -1;
	memset(b->heads, 0xff, (size_t)b->hcap * sizeof(*b->heads));	/* -1: empty */
	return 0;
}

/* Name i covers its blocks from now on. */
static void blocks_add(struct build *b, const struct lock_name *names, int i)
{
	const struct lock_name *n = &names[i];
	uint64_t first = n->addr >> BLOCK_SHIFT;
	uint64_t last = (n->addr + (n->size ? n->size - 1 : 0)) >> BLOCK_SHIFT;

	for (uint64_t blk = first; blk <= last && blk - first < 2; blk++) {
		unsigned h = block_hash(b, n->tgid, blk);

		b->blocks[b->nblocks] = (struct block_entry){ .tgid = n->tgid, .block = blk,
							      .name = i, .next = b->heads[h] };
		b->heads[h] = b->nblocks++;
	}
}

/* Does a name made so far hold the word? */
static int known(const struct build *b, const struct lock_name *names, uint32_t tgid,
		 uint64_t uaddr)
{
	uint64_t blk = uaddr >> BLOCK_SHIFT;

	for (int e = b->heads[block_hash(b, tgid, blk)]; e >= 0; e = b->blocks[e].next) {
		const struct lock_name *n = &names[b->blocks[e].name];

		if (b->blocks[e].tgid == tgid && b->blocks[e].block == blk &&
		    uaddr >= n->addr && uaddr < n->addr + n->size)
			return 1;
	}
	return 0;
}

static void build_free(struct build *b)
{
	kv_index_free(&b->ix);
	free(b->sites);
	free(b->blocks);
	free(b->heads);
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
 * LK_LOCK when none did); kind_name marks it placed (named once the
 * wake-ups and the other processes' words have said what kind it is). */
static void place_word(const struct build *b, const struct kv_futex *f, uint32_t tgid,
		       struct lock_name *out, const char **kind_name)
{
	struct lockname *ln = b->ln;
	const struct site_count *s = best_site(b, tgid, f->key.uaddr, &out->samples);
	enum wait_kind kind = s && s->kind != WK_UNKNOWN ? s->kind : kind_of_op(f->key.op);

	*kind_name = kind == WK_UNKNOWN ? "lock" : wait_kind_name(kind);
	out->kind = lock_kind_of_wait(kind);
	if (f->key.op == FCT_FUTEX_OP_WAITV)
		kind = WK_UNKNOWN, *kind_name = "futex_waitv", out->kind = LK_WAITV;
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
 * The entries on them: b->ix.by_addr[k], k in [*from, *to).
 */
static void object_entries(const struct build *b, const struct lock_name *n, int *from, int *to)
{
	if (n->size > 4)
		kv_index_words(&b->ix, n->addr, n->addr + n->size, from, to);
	else
		kv_index_words(&b->ix, n->addr >= 4 ? n->addr - 4 : 0, n->addr + 5, from, to);
}

static const struct kv_futex *entry(const struct build *b, int k)
{
	return &b->ix.kv->futex[b->ix.by_addr[k]];
}

static int cmp_tid(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* The threads that waited with op on the words of n: sorted, each once
 * (*count of them); NULL when none or out of memory. */
static uint32_t *object_waiters(const struct build *b, const struct lock_name *n, uint32_t op,
				int *count)
{
	int from, to, len = 0;
	uint32_t *tids;

	object_entries(b, n, &from, &to);
	*count = 0;
	if (from == to || !(tids = malloc((size_t)(to - from) * sizeof(*tids))))
		return NULL;
	for (int k = from; k < to; k++)
		if (entry(b, k)->key.op == op && entry(b, k)->val.waits)
			tids[len++] = entry(b, k)->key.tid;
	qsort(tids, (size_t)len, sizeof(*tids), cmp_tid);
	for (int i = 0; i < len; i++)
		if (!*count || tids[*count - 1] != tids[i])
			tids[(*count)++] = tids[i];
	return tids;
}

static bool among(const uint32_t *tids, int n, uint32_t tid)
{
	return n && bsearch(&tid, tids, (size_t)n, sizeof(tid), cmp_tid);
}

/* The op most of n's waits used (by waits; first in the view's order on
 * a tie): a condvar's waiters sleep on __g_signals with one op, while its
 * signaller may wait on __g_refs beside it with another, and whichever
 * entry comes first in the view named the object. */
static uint32_t object_op(const struct build *b, const struct lock_name *n, uint32_t op)
{
	uint32_t ops[4];
	uint64_t waits[4] = { 0 }, best = 0;
	int from, to, nops = 0;

	object_entries(b, n, &from, &to);
	for (int k = from; k < to; k++) {
		const struct kv_futex *f = entry(b, k);
		int i = 0;

		if (f->key.op == FCT_FUTEX_OP_WAKE || !f->val.waits)
			continue;
		while (i < nops && ops[i] != f->key.op)
			i++;
		if (i == nops && nops < 4)
			ops[nops++] = f->key.op;
		if (i < nops)
			waits[i] += f->val.waits;
	}
	for (int i = 0; i < nops; i++)
		if (waits[i] > best) {
			best = waits[i];
			op = ops[i];
		}
	return op;
}

/* Did any thread wait with op on word k's word (entries [k, to) by word)? */
static bool word_waited(const struct build *b, int k, int to, uint32_t op)
{
	uint64_t word = entry(b, k)->key.uaddr;

	for (; k < to && entry(b, k)->key.uaddr == word; k++)
		if (entry(b, k)->key.op == op && entry(b, k)->val.waits)
			return true;
	return false;
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
static void count_wakes(const struct build *b, struct lock_name *n, uint32_t op)
{
	int from, to, nw;
	uint32_t *waiters = object_waiters(b, n, op, &nw);
	bool waited = false;

	object_entries(b, n, &from, &to);
	for (int k = from; k < to; k++) {
		const struct kv_futex *f = entry(b, k);

		if (k == from || f->key.uaddr != entry(b, k - 1)->key.uaddr)
			waited = word_waited(b, k, to, op);	/* once a word */
		if (f->key.op != FCT_FUTEX_OP_WAKE || !waited || tgid_of(b, f->key.tid) != n->tgid)
			continue;
		n->wakes += f->val.wakes;
		if (among(waiters, nw, f->key.tid))
			n->wakes_by_waiters += f->val.wakes;
	}
	if (!n->is_lock && n->wakes >= LOCKNAME_TURNS_MIN_WAKES &&
	    n->wakes_by_waiters * 2 > n->wakes && nw >= 3)
		n->turns = n->is_lock = true;
	free(waiters);
}

/*
 * An event whose every wake-up came from a thread that then exited, one
 * wake-up each: a wait for threads to end, a join however it is built
 * (pthread_join's tid word is cleared and woken by the kernel at the
 * exit, with no waker seen; CPython's Thread.join waits on a lock each
 * thread releases as it ends).
 */
#define JOIN_EXIT_GAP_NS	1000000ull	/* 1 ms */

static bool woken_by_exits(const struct build *b, const struct lock_name *n)
{
	uint64_t wakes = 0, waiters_end = UINT64_MAX;
	int from, to;

	object_entries(b, n, &from, &to);
	/* the waiters outlive the wakers: a thread that signals once and
	 * lives on (to exit with the process) is no thread being joined */
	for (int k = from; k < to; k++) {
		const struct kv_futex *f = entry(b, k);
		const struct fct_thread *t = kv_index_thread(&b->ix, f->key.tid);

		if (f->key.op != FCT_FUTEX_OP_WAKE && f->val.waits && t && t->end_ns < waiters_end)
			waiters_end = t->end_ns;
	}
	for (int k = from; k < to; k++) {
		const struct kv_futex *f = entry(b, k);
		const struct fct_thread *t;

		if (f->key.op != FCT_FUTEX_OP_WAKE || tgid_of(b, f->key.tid) != n->tgid)
			continue;
		t = kv_index_thread(&b->ix, f->key.tid);
		/* not the main thread, whose exit ends them all; and ended before
		 * the waiters by more than a process exit's spread */
		if (!t || !(t->how & FCT_HOW_EXITED) || f->val.wakes > 1 || t->tid == t->tgid ||
		    t->end_ns + JOIN_EXIT_GAP_NS >= waiters_end)
			return false;
		wakes += f->val.wakes;
	}
	return wakes > 0;
}

static int by_name_addr(const void *a, const void *b, void *arg)
{
	const struct lock_name *n = arg;
	int x = *(const int *)a, y = *(const int *)b;

	if (n[x].addr != n[y].addr)
		return n[x].addr < n[y].addr ? -1 : 1;
	return (x > y) - (x < y);
}

/* Name i takes the site and kind of the first other process's name at
 * its address (order[from, to): those names, in the array's order). */
static void share_one(struct lock_name *names, const char **kinds, const int *order,
		      int from, int to, int i)
{
	for (int k = from; k < to; k++) {
		int j = order[k];

		if (j == i || names[j].tgid == names[i].tgid || !names[j].site[0] || !kinds[j])
			continue;
		memcpy(names[i].site, names[j].site, sizeof(names[i].site));
		kinds[i] = kinds[j];
		names[i].kind = names[j].kind;
		return;
	}
}

/*
 * A word no stack was sampled for, at the address where another process
 * of the run has one that was: processes forked from one program keep
 * their objects at the same addresses (a process-shared semaphore is the
 * same object in each), and the same code waits there. It takes the
 * other's site and kind, so that one object is not a named row in one
 * process and "condvar 0x7f..." in the next. Only names at one address
 * meet: the names are sorted by it first.
 */
static int share_across_forks(struct lock_name *names, const char **kinds, int n)
{
	int *order = malloc((size_t)(n ? n : 1) * sizeof(*order));

	if (!order)
		return -1;
	for (int i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, (size_t)n, sizeof(*order), by_name_addr, names);
	for (int from = 0, to; from < n; from = to) {
		for (to = from + 1; to < n && names[order[to]].addr == names[order[from]].addr; to++)
			;
		for (int k = from; to - from > 1 && k < to; k++) {
			int i = order[k];

			if (!names[i].site[0] && !names[i].name[0] && kinds[i])
				share_one(names, kinds, order, from, to, i);
		}
	}
	free(order);
	return 0;
}

/* "sym (kind)", "kind @ site" or "kind 0x..." (name holds sym, or "") */
static void write_name(struct lock_name *n)
{
	char kind[48], sym[sizeof(n->name)];

	snprintf(kind, sizeof(kind), "%s%s", lock_kind_name(n->kind), !n->turns ? "" :
		 n->kind == LK_SEMAPHORE ?
		 " used as a lock" : " taken in turns");
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

static bool waited_with(const struct build *b, uint32_t tgid, uint64_t uaddr, uint32_t op)
{
	int from, to;

	kv_index_words(&b->ix, uaddr, uaddr + 1, &from, &to);
	for (int k = from; k < to; k++)
		if (entry(b, k)->key.op == op && entry(b, k)->val.waits &&
		    tgid_of(b, entry(b, k)->key.tid) == tgid)
			return true;
	return false;
}

static bool is_condvar(const struct lock_name *n)
{
	return n->kind == LK_CONDVAR;
}

/* The condvar whose __g_refs word n is, or NULL: a lone word waited with
 * FUTEX_WAIT 24 bytes before a condvar word waited with WAIT_BITSET lies
 * inside that condvar (48 bytes from 40 or 44 before it), whatever else
 * is near. */
static const struct lock_name *grefs_of(const struct build *b, const struct name_index *ni,
					const struct lock_name *n)
{
	uint64_t sig = n->addr + COND_GREFS_TO_GSIGNALS;

	if (n->size != 4 || !waited_with(b, n->tgid, n->addr, FUTEX_OP_WAIT) ||
	    !waited_with(b, n->tgid, sig, FUTEX_OP_WAIT_BITSET))
		return NULL;
	return name_index_find_if(ni, n->tgid, sig, is_condvar);
}

/* glibc's own words of a condvar are named as the condvar they serve. */
static int name_grefs(const struct build *b, struct lock_name *names, int count)
{
	struct name_index ni;

	if (name_index_build(&ni, names, count))
		return -1;
	for (int i = 0; i < count; i++) {
		const struct lock_name *cv = grefs_of(b, &ni, &names[i]);

		if (!cv)
			continue;
		snprintf(names[i].name, sizeof(names[i].name), "%s", cv->name);
		names[i].kind = cv->kind;
		names[i].is_lock = cv->is_lock;
		names[i].turns = cv->turns;
	}
	name_index_free(&ni);
	return 0;
}

/* Out of time, or fctrace asked to stop (Ctrl-C): the words left are
 * named by their address. */
static bool hurry(const struct lockname *ln)
{
	return out_of_time(ln) || signals_caught();
}

/* A word named by its address and op only: no time left to study it. */
static void name_by_address(struct lock_name *n, const struct kv_futex *f, uint32_t tgid)
{
	enum lock_kind kind = kind_of_op(f->key.op) == WK_UNKNOWN ? LK_LOCK : LK_CONDVAR;

	*n = (struct lock_name){ .tgid = tgid, .addr = f->key.uaddr, .size = 4, .kind = kind,
				 .is_lock = kind == LK_LOCK };
	write_name(n);
}

/* Name the word of entry f as names[n]; kinds[n] stays NULL when it is
 * named already (by address). */
static void name_word(struct build *b, const struct kv_futex *f, uint32_t tgid,
		      struct lock_name *names, const char **kinds, int n)
{
	const char *kind_name;

	if (hurry(b->ln)) {
		name_by_address(&names[n], f, tgid);
		if (b->ln)
			b->ln->unnamed++;
		return;
	}
	place_word(b, f, tgid, &names[n], &kind_name);
	count_wakes(b, &names[n], object_op(b, &names[n], f->key.op));
	if (!names[n].is_lock && woken_by_exits(b, &names[n])) {
		kind_name = "join";
		names[n].kind = LK_JOIN;
	}
	kinds[n] = kind_name;
}

static int build_init(struct build *b, struct lockname *ln, const struct kview *kv)
{
	*b = (struct build){ .ln = ln };
	if (kv_index_build(&b->ix, kv) || sites_index(b) || blocks_init(b, kv->nfutex)) {
		build_free(b);
		return -1;
	}
	return 0;
}

/* Each word once, in the view's order; then what only all of them tell. */
static int name_words(struct build *b, const struct kview *kv, struct lock_name *names,
		      const char **kinds)
{
	int n = 0;

	for (int i = 0; i < kv->nfutex; i++) {
		const struct kv_futex *f = &kv->futex[i];
		uint32_t tgid = tgid_of(b, f->key.tid);

		if (f->key.op == FCT_FUTEX_OP_WAKE)
			continue;	/* wakes only: the word is named by its waits */
		if (known(b, names, tgid, f->key.uaddr))
			continue;
		name_word(b, f, tgid, names, kinds, n);
		blocks_add(b, names, n++);
	}
	if (share_across_forks(names, kinds, n))
		return -1;
	semlock_classify(&b->ix, names, n);
	for (int i = 0; i < n; i++)
		if (kinds[i])
			write_name(&names[i]);
	return name_grefs(b, names, n) ? -1 : n;
}

int lockname_build(struct lockname *ln, const struct kview *kv, struct lock_name **out)
{
	struct lock_name *names = calloc(kv->nfutex ? kv->nfutex : 1, sizeof(*names));
	const char **kinds = calloc(kv->nfutex ? kv->nfutex : 1, sizeof(*kinds));
	struct build b;
	int n = -1;

	*out = NULL;
	if (names && kinds && !build_init(&b, ln, kv)) {
		n = name_words(&b, kv, names, kinds);
		build_free(&b);
	}
	free(kinds);
	if (n < 0) {
		free(names);
		return -1;
	}
	*out = names;
	return n;
}
