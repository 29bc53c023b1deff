/*
 * wakers.c - each lock's wakers and the calls before their wakes
 * (wakers.h), from the kernel view's wake_after entries.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/sysnames.h"
#include "join/join.h"
#include "join/wakers.h"
#include "join/wordindex.h"

/* One entry's share of a lock: by waker (key = tid) or by call (key = nr). */
struct acc {
	int lock;
	int key;
	uint64_t wakes;
};

struct accs {
	struct acc *a;
	size_t n, cap;
};

static int push(struct accs *s, int lock, int key, uint64_t wakes)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 256;
		struct acc *a = realloc(s->a, cap * sizeof(*a));

		if (!a)
			return -1;
		s->a = a;
		s->cap = cap;
	}
	s->a[s->n++] = (struct acc){ lock, key, wakes };
	return 0;
}

static int by_lock_key(const void *x, const void *y)
{
	const struct acc *a = x, *b = y;

	if (a->lock != b->lock)
		return a->lock < b->lock ? -1 : 1;
	return a->key < b->key ? -1 : a->key > b->key;
}

static int by_lock_wakes(const void *x, const void *y)
{
	const struct acc *a = x, *b = y;

	if (a->lock != b->lock)
		return a->lock < b->lock ? -1 : 1;
	return a->wakes < b->wakes ? 1 : a->wakes > b->wakes ? -1 : (a->key > b->key) - (a->key < b->key);
}

/* Equal (lock, key) summed, then each lock's largest first. */
static void fold(struct accs *s)
{
	size_t w = 0;

	qsort(s->a, s->n, sizeof(*s->a), by_lock_key);
	for (size_t i = 0; i < s->n; i++) {
		if (w && s->a[w - 1].lock == s->a[i].lock && s->a[w - 1].key == s->a[i].key)
			s->a[w - 1].wakes += s->a[i].wakes;
		else
			s->a[w++] = s->a[i];
	}
	s->n = w;
	qsort(s->a, s->n, sizeof(*s->a), by_lock_wakes);
}

/* ---- lookups: a waker's process, a name's lock ----------------------- */

static int by_tid(const void *x, const void *y)
{
	const struct fct_thread *a = x, *b = y;

	return a->tid < b->tid ? -1 : a->tid > b->tid;
}

static const struct fct_thread *thread_of(const struct fct_thread *sorted, int n, uint32_t tid)
{
	struct fct_thread key = { .tid = tid };

	return bsearch(&key, sorted, (size_t)n, sizeof(*sorted), by_tid);
}

/* Is process tgid's first thread seen of the same program as thread t
 * (the same name: forked processes keep theirs)? */
static bool same_program(const struct fct_thread *sorted, int n, uint32_t tgid,
			 const struct fct_thread *t)
{
	const struct fct_thread *main = thread_of(sorted, n, tgid);

	return main && !strncmp(main->comm, t->comm, sizeof(t->comm));
}

/*
 * The words waited on, by process and op: only wakes of a word waited on
 * with its lock's op count, as lockname.c counts a name's wakes (a
 * condvar's signaller waits on glibc's __g_refs word beside it with
 * another op, and a waiter wakes it: bookkeeping, not the condvar's).
 */
struct word {
	uint32_t tgid, op;
	uint64_t uaddr;
};

static int by_word(const void *x, const void *y)
{
	const struct word *a = x, *b = y;

	if (a->tgid != b->tgid)
		return a->tgid < b->tgid ? -1 : 1;
	if (a->uaddr != b->uaddr)
		return a->uaddr < b->uaddr ? -1 : 1;
	return a->op < b->op ? -1 : a->op > b->op;
}

struct waited {
	struct word *w;
	size_t n;
	struct word *by_addr;	/* the same words by (address, process) */
	uint32_t *op;		/* per lock: the op of its largest wait entry */
};

static int by_addr(const void *x, const void *y)
{
	const struct word *a = x, *b = y;

	if (a->uaddr != b->uaddr)
		return a->uaddr < b->uaddr ? -1 : 1;
	return a->tgid < b->tgid ? -1 : a->tgid > b->tgid;
}

static int waited_words(const struct joined_run *m, const struct lock_index *ix,
			const struct fct_thread *th, int nth, struct waited *o)
{
	const struct kview *kv = m->kv;
	uint64_t *most = calloc((size_t)m->nlocks, sizeof(*most));
	char name[160];

	o->n = 0;
	o->w = malloc(((size_t)kv->nfutex + 1) * sizeof(*o->w));
	o->op = calloc((size_t)m->nlocks, sizeof(*o->op));
	for (int i = 0; most && o->w && o->op && i < kv->nfutex; i++) {
		const struct kv_futex *f = &kv->futex[i];
		const struct fct_thread *t = thread_of(th, nth, f->key.tid);
		int l;

		if (!t || f->key.op == FCT_FUTEX_OP_WAKE || !f->val.waits)
			continue;
		o->w[o->n++] = (struct word){ t->tgid, f->key.op, f->key.uaddr };
		join_name_word(m, t->tgid, f->key.uaddr, name, sizeof(name));
		if ((l = lock_index_find(ix, name)) >= 0 && f->val.waits > most[l]) {
			most[l] = f->val.waits;
			o->op[l] = f->key.op;
		}
	}
	free(most);
	if (!o->w || !o->op)
		return -1;
	qsort(o->w, o->n, sizeof(*o->w), by_word);
	o->by_addr = malloc((o->n + 1) * sizeof(*o->by_addr));
	if (!o->by_addr)
		return -1;
	memcpy(o->by_addr, o->w, o->n * sizeof(*o->w));
	qsort(o->by_addr, o->n, sizeof(*o->by_addr), by_addr);
	return 0;
}

/* A wake of a word its waker's process never waited on: a semaphore in
 * memory shared by processes forked from one parent lies at the same
 * address in each (PostgreSQL's: a backend sleeps on its own, and the
 * one that releases an LWLock posts the waiter's). The lock of the word
 * as the process of the same program that waited on it names it, when
 * that is a semaphore; -1 when none is. */
static int shared_sem_lock(const struct joined_run *m, const struct lock_index *ix,
			   const struct waited *ww, const struct fct_thread *waker,
			   const struct fct_thread *th, int nth, uint64_t uaddr)
{
	struct word key = { 0, 0, uaddr };
	size_t lo = 0, hi = ww->n;
	char name[160];

	while (lo < hi) {	/* the first word at uaddr */
		size_t mid = lo + (hi - lo) / 2;

		if (ww->by_addr[mid].uaddr < uaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < ww->n && ww->by_addr[i].uaddr == key.uaddr; i++) {
		const struct word *w = &ww->by_addr[i];
		int l;

		if (w->tgid == waker->tgid || !same_program(th, nth, w->tgid, waker))
			continue;
		join_name_word(m, w->tgid, uaddr, name, sizeof(name));
		l = lock_index_find(ix, name);
		if (l >= 0 && m->locks[l].kind == LK_SEMAPHORE && w->op == ww->op[l])
			return l;
	}
	return -1;
}

/* ---- what ended the waits ----------------------------------------------- */

const char *const wake_class_names[WC_N] = {
	[WC_NONE] = "none", [WC_MIXED] = "mixed", [WC_HANDOFF] = "handoff",
	[WC_DURABLE] = "durable", [WC_INPUT] = "input", [WC_OUTPUT] = "output",
	[WC_POLL] = "poll", [WC_TIMER] = "timer", [WC_OTHER] = "other",
};

static const struct {
	const char *call;
	enum wake_class cls;
} call_classes[] = {
	{ "fsync", WC_DURABLE }, { "fdatasync", WC_DURABLE }, { "sync_file_range", WC_DURABLE },
	{ "read", WC_INPUT }, { "readv", WC_INPUT }, { "recvfrom", WC_INPUT },
	{ "recvmsg", WC_INPUT }, { "recvmmsg", WC_INPUT }, { "accept", WC_INPUT },
	{ "accept4", WC_INPUT }, { "write", WC_OUTPUT }, { "writev", WC_OUTPUT },
	{ "sendto", WC_OUTPUT }, { "sendmsg", WC_OUTPUT }, { "sendmmsg", WC_OUTPUT },
	{ "epoll_wait", WC_POLL }, { "epoll_pwait", WC_POLL }, { "epoll_pwait2", WC_POLL },
	{ "poll", WC_POLL }, { "ppoll", WC_POLL }, { "select", WC_POLL }, { "pselect6", WC_POLL },
	{ "nanosleep", WC_TIMER }, { "clock_nanosleep", WC_TIMER },
};

enum wake_class wake_class_of(const char *call)
{
	if (!call[0])
		return WC_HANDOFF;
	for (size_t i = 0; i < sizeof(call_classes) / sizeof(call_classes[0]); i++)
		if (!strcmp(call, call_classes[i].call))
			return call_classes[i].cls;
	return WC_OTHER;
}

const char *wake_class_name(enum wake_class c)
{
	return (unsigned)c < WC_N ? wake_class_names[c] : "none";
}

/* The class of the call most wakes followed, when half or more did. */
static void classify(struct lock_wakers *w)
{
	if (!w->wakes || !w->nafter)
		w->cls = WC_NONE;
	else if (w->after[0].wakes * 2 < w->wakes)
		w->cls = WC_MIXED;
	else
		w->cls = wake_class_of(w->after[0].call);
}

/* ---- the join ---------------------------------------------------------- */

static void put_threads(struct joined_run *m, const struct accs *s, const struct fct_thread *th,
			int nth)
{
	for (size_t i = 0; i < s->n; i++) {
		struct lock_wakers *w = &m->locks[s->a[i].lock].wakers;
		const struct fct_thread *t;

		w->wakes += s->a[i].wakes;
		if (w->nthreads == WAKERS_MAX) {
			w->more_threads++;
			continue;
		}
		t = thread_of(th, nth, (uint32_t)s->a[i].key);
		w->threads[w->nthreads] = (struct waker_thread){ .tid = s->a[i].key,
								 .wakes = s->a[i].wakes };
		if (t)
			memcpy(w->threads[w->nthreads].comm, t->comm, sizeof(t->comm));
		w->nthreads++;
	}
}

static void put_calls(struct joined_run *m, const struct accs *s)
{
	char buf[32];

	for (size_t i = 0; i < s->n; i++) {
		struct lock_wakers *w = &m->locks[s->a[i].lock].wakers;

		struct waker_call *c;

		if (w->nafter == WAKERS_MAX)
			continue;
		c = &w->after[w->nafter++];
		c->wakes = s->a[i].wakes;
		c->call[0] = '\0';
		if (s->a[i].key > 0)
			snprintf(c->call, sizeof(c->call), "%s",
				 syscall_name((unsigned)s->a[i].key - 1, buf, sizeof(buf)));
	}
}

/* What entry e's waker did between its wakes, into w. */
static void add_between(struct lock_wakers *w, const struct fct_wake_after_val *v)
{
	double sys = (double)(v->sys_ns < v->oncpu_ns ? v->sys_ns : v->oncpu_ns);

	w->cycles += v->cycles;
	w->span_ns += (double)v->span_ns;
	w->between_ns[HS_SYSCALL] += sys;
	w->between_ns[HS_USER] += (double)v->oncpu_ns - sys;
	w->between_ns[HS_PREEMPTED] += (double)v->runq_ns;
	w->between_ns[HS_BLOCKED] += (double)v->blocked_ns;
	w->between_ns[HS_WAITING] += (double)v->futex_ns;
}

/* The waiters' time in the wakers' proportions, whole nanoseconds (as the
 * JSON keeps them). */
static void charge_waits(struct lock_total *l)
{
	struct lock_wakers *w = &l->wakers;
	double all = 0;

	for (int s = 0; s < HS_N; s++)
		all += w->between_ns[s];
	for (int s = 0; s < HS_N; s++) {
		w->between_ns[s] = (double)(uint64_t)w->between_ns[s];
		w->while_waited_ns[s] = all > 0 ?
			(double)(uint64_t)((double)l->wait_ns * w->between_ns[s] / all) : 0;
	}
	w->span_ns = (double)(uint64_t)w->span_ns;
}

/* Each entry to its lock, by waker and by call; -1 when out of memory. */
static int collect(struct joined_run *m, const struct lock_index *ix, const struct fct_thread *th,
		   int nth, struct accs *by_thread, struct accs *by_call)
{
	const struct kview *kv = m->kv;
	struct waited ww = { 0 };
	char name[160];
	int err = waited_words(m, ix, th, nth, &ww);

	for (int i = 0; !err && i < kv->nwake_after; i++) {
		const struct kv_wake_after *e = &kv->wake_after[i];
		const struct fct_thread *t = thread_of(th, nth, e->key.tid);
		struct word key;
		int l;

		if (!t)
			continue;
		join_name_word(m, t->tgid, e->key.uaddr, name, sizeof(name));
		l = lock_index_find(ix, name);
		key = (struct word){ t->tgid, l >= 0 ? ww.op[l] : 0, e->key.uaddr };
		if ((l < 0 || !bsearch(&key, ww.w, ww.n, sizeof(*ww.w), by_word)) &&
		    (l = shared_sem_lock(m, ix, &ww, t, th, nth, e->key.uaddr)) < 0)
			continue;
		if (push(by_thread, l, (int)e->key.tid, e->val.wakes) ||
		    push(by_call, l, (int)e->key.nr, e->val.wakes))
			err = -1;
		add_between(&m->locks[l].wakers, &e->val);
	}
	free(ww.w);
	free(ww.by_addr);
	free(ww.op);
	return err;
}

void wakers_join(struct joined_run *m)
{
	struct accs by_thread = { 0 }, by_call = { 0 };
	struct lock_index ix;
	struct fct_thread *th;

	for (int i = 0; i < m->nlocks; i++)
		memset(&m->locks[i].wakers, 0, sizeof(m->locks[i].wakers));
	if (!m->kv || !m->kv->nwake_after || !m->nlocks)
		return;
	th = malloc(((size_t)m->kv->nthreads + 1) * sizeof(*th));
	if (th && !lock_index_build(&ix, m->locks, m->nlocks)) {
		memcpy(th, m->kv->threads, (size_t)m->kv->nthreads * sizeof(*th));
		qsort(th, (size_t)m->kv->nthreads, sizeof(*th), by_tid);
		if (!collect(m, &ix, th, m->kv->nthreads, &by_thread, &by_call)) {
			fold(&by_thread);
			fold(&by_call);
			put_threads(m, &by_thread, th, m->kv->nthreads);
			put_calls(m, &by_call);
			for (int i = 0; i < m->nlocks; i++) {
				classify(&m->locks[i].wakers);
				charge_waits(&m->locks[i]);
			}
		}
		lock_index_free(&ix);
	}
	free(by_thread.a);
	free(by_call.a);
	free(th);
}

void wakers_keep(struct joined_run *m, const struct lock_total *old, int n)
{
	for (int i = 0; i < m->nlocks; i++)
		for (int j = 0; j < n; j++)
			if (old[j].kernel == m->locks[i].kernel &&
			    !strcmp(old[j].name, m->locks[i].name)) {
				m->locks[i].wakers = old[j].wakers;
				charge_waits(&m->locks[i]);	/* its waits as summed now */
				break;
			}
}

/* ---- sleeps ended by a sibling's kill or write ------------------------- */

static void sib_add(struct sib_wakers *w, unsigned nr, const struct fct_sib_after_val *v)
{
	char name[24] = "", buf[32];
	int i;

	if (nr)
		snprintf(name, sizeof(name), "%s", syscall_name(nr - 1, buf, sizeof(buf)));
	w->wakes += v->wakes;
	w->wait_ns += v->wait_ns;
	for (i = 0; i < w->nafter && strcmp(w->after[i].call, name); i++)
		;
	if (i == w->nafter) {
		if (w->nafter == WAKERS_MAX) {	/* the smallest gives way */
			int small = 0;

			for (int k = 1; k < w->nafter; k++)
				if (w->after[k].wakes < w->after[small].wakes)
					small = k;
			if (w->after[small].wakes >= v->wakes)
				return;
			i = small;
		} else {
			w->nafter++;
		}
		w->after[i] = (struct sib_call){ .wakes = 0 };
		snprintf(w->after[i].call, sizeof(w->after[i].call), "%s", name);
	}
	w->after[i].wakes += v->wakes;
	w->after[i].wait_ns += v->wait_ns;
}

static int by_sib_wakes(const void *x, const void *y)
{
	const struct sib_call *a = x, *b = y;

	return a->wakes < b->wakes ? 1 : a->wakes > b->wakes ? -1 : strcmp(a->call, b->call);
}

const char *const sib_kind_names[FCT_WAKE_N] = { "signal", "write", "request" };

void sib_wakers_join(struct joined_run *m)
{
	memset(m->sib, 0, sizeof(m->sib));
	m->sib_measured = m->kv && m->kv->nsib_after > 0;
	for (int i = 0; m->sib_measured && i < m->kv->nsib_after; i++) {
		const struct kv_sib_after *e = &m->kv->sib_after[i];

		if (e->key.by < FCT_WAKE_N)
			sib_add(&m->sib[e->key.by], e->key.nr, &e->val);
	}
	for (int b = 0; b < FCT_WAKE_N; b++) {
		struct sib_wakers *w = &m->sib[b];

		w->by = (enum fct_wake_by)b;
		qsort(w->after, (size_t)w->nafter, sizeof(*w->after), by_sib_wakes);
		w->cls = !w->nafter ? WC_NONE : w->after[0].wakes * 2 < w->wakes ? WC_MIXED :
			 wake_class_of(w->after[0].call);
	}
}
