/*
 * timeline.c - state edges -> per-thread intervals and wakes.
 *
 * Records are sorted by time and replayed through one small state machine
 * per thread (on CPU or not; which syscall; asleep or runnable; which
 * futex word). A thread's first record also says what it was doing
 * before it (every record carries its syscall context), so each lane is
 * filled from the window's start. A wakeup of a futex waiter is put down
 * to the thread that was inside a futex call on the same word at that
 * instant (the holder releasing the lock); the tid the hook saw running
 * is only a fallback, since a wakeup can fire from another CPU's IPI.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "join/timeline.h"

struct tl_st {			/* one thread's state while replaying */
	bool known, on_cpu, runnable, waiting;
	uint16_t nr;
	uint64_t word;		/* the futex word of a wait */
	uint64_t call_word;	/* the futex word the current call named */
	uint64_t done_word;	/* and the last such call's, once it ended */
	uint64_t done_ns;	/* when it ended */
	uint64_t since;		/* start of the open interval */
	uint64_t until;		/* the end of the thread's lane */
	uint32_t woken_by;	/* set by a wakeup, for the interval it closes */
};

const char *tl_state_name(enum tl_state s)
{
	static const char *const names[TL_NSTATES] = {
		"user", "syscall", "lock wait", "futex wait", "runnable", "blocked",
	};
	return s < TL_NSTATES ? names[s] : "?";
}

void timeline_free(struct timeline *tl)
{
	free(tl->threads);
	free(tl->iv);
	free(tl->wakes);
	free(tl->locks);
	memset(tl, 0, sizeof(*tl));
}

static int find_lock(const struct timeline *tl, uint64_t word)
{
	for (int i = 0; i < tl->nlocks; i++)
		if (word >= tl->locks[i].addr && word - tl->locks[i].addr < tl->locks[i].size)
			return i;
	return -1;
}

static int thread_index(const struct timeline *tl, uint32_t tid)
{
	int lo = 0, hi = tl->nthreads - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;

		if (tl->threads[mid].tid == tid)
			return mid;
		if (tl->threads[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

const struct tl_thread *timeline_thread(const struct timeline *tl, uint32_t tid)
{
	int i = thread_index(tl, tid);

	return i < 0 ? NULL : &tl->threads[i];
}

/* What a state machine's variables mean as one state. */
static enum tl_state state_of(const struct timeline *tl, const struct tl_st *s)
{
	if (s->on_cpu)
		return s->nr == FCT_TL_NO_SC ? TL_USER : TL_SYSCALL;
	if (s->runnable)
		return TL_RUNNABLE;
	if (!s->waiting)
		return TL_BLOCKED;
	return find_lock(tl, s->word) >= 0 ? TL_LOCK : TL_FUTEX;
}

/* Two moments in the same state draw as one interval. */
static bool same_state(const struct timeline *tl, const struct tl_st *a, const struct tl_st *b)
{
	enum tl_state sa = state_of(tl, a);

	if (sa != state_of(tl, b))
		return false;
	if (sa == TL_SYSCALL)
		return a->nr == b->nr;
	if (sa == TL_LOCK || sa == TL_FUTEX)
		return a->word == b->word;
	return true;
}

/* The syscall context a record carries. */
static void take_context(struct tl_st *s, const struct fct_tl_event *e)
{
	s->nr = e->nr;
	s->waiting = e->flags & FCT_TL_F_FUTEX_WAIT;
	s->word = s->waiting ? e->arg : 0;
}

/* The state just before a thread's first record. */
static void state_before(struct tl_st *s, const struct fct_tl_event *e)
{
	take_context(s, e);
	s->on_cpu = e->kind != FCT_TL_SWITCH_IN && e->kind != FCT_TL_WAKEUP;
	s->runnable = e->kind == FCT_TL_SWITCH_IN;
	if (e->kind == FCT_TL_STATE) {
		s->on_cpu = e->op == FCT_ST_RUNNING;
		s->runnable = e->op == FCT_ST_RUNNABLE;
	}
	if (e->kind == FCT_TL_SYS_ENTER) {
		s->nr = FCT_TL_NO_SC;
		s->waiting = false;
		s->word = 0;
	}
	if (e->kind == FCT_TL_SYS_EXIT)
		s->call_word = s->word;
}

/* The state just after a record. */
static void state_after(struct tl_st *s, const struct fct_tl_event *e)
{
	switch (e->kind) {
	case FCT_TL_SYS_ENTER:
		take_context(s, e);
		s->call_word = e->arg;
		s->on_cpu = true;
		break;
	case FCT_TL_SYS_EXIT:
		if (s->call_word && !s->waiting) {
			s->done_word = s->call_word;
			s->done_ns = e->ts;
		}
		s->nr = FCT_TL_NO_SC;
		s->waiting = false;
		s->word = s->call_word = 0;
		s->on_cpu = true;
		break;
	case FCT_TL_SWITCH_OUT:
		take_context(s, e);
		s->on_cpu = false;
		s->runnable = e->op == FCT_ST_RUNNABLE;
		break;
	case FCT_TL_SWITCH_IN:
		take_context(s, e);
		s->on_cpu = true;
		break;
	case FCT_TL_WAKEUP:
		take_context(s, e);
		s->on_cpu = false;
		s->runnable = true;
		break;
	}
}

/* A wakeup's tracepoint may fire on the wakee's CPU (an IPI) after the
 * waker's futex call returned: a call that ended this recently counts. */
#define WAKE_LATE_NS	2000000ull

/* How surely thread state o woke a waiter on word at ts: 2 inside a
 * (non-waiting) futex call on it, 1 just out of one, 0 not at all. */
static int woke(const struct tl_st *o, uint64_t word, uint64_t ts)
{
	if (o->nr != FCT_TL_NO_SC && !o->waiting && o->call_word == word)
		return 2;
	return o->done_word == word && ts - o->done_ns <= WAKE_LATE_NS;
}

/* Who woke thread wi (in state st[wi], before the record) at record e:
 * the surest candidate, the hook's own guess on a tie. */
static struct tl_wake wake_of(const struct timeline *tl, const struct tl_st *st, int wi,
			      const struct fct_tl_event *e)
{
	struct tl_wake w = { .ts = e->ts, .waker = e->op, .wakee = e->tid, .lock = -1 };
	uint64_t word = st[wi].word;
	int hint = thread_index(tl, e->op), found = -1, best = 0;

	if (!st[wi].waiting)
		return w;
	w.lock = find_lock(tl, word);
	if (hint >= 0 && hint != wi && (best = woke(&st[hint], word, e->ts)))
		found = hint;
	for (int i = 0; best < 2 && i < tl->nthreads; i++) {
		int sure = i != wi ? woke(&st[i], word, e->ts) : 0;

		if (sure > best) {
			best = sure;
			found = i;
		}
	}
	if (found >= 0) {
		w.waker = tl->threads[found].tid;
		w.handoff = true;
	}
	return w;
}

struct builder {
	struct timeline *tl;
	struct tl_st *st;
	const struct tl_input *in;
	size_t cap_iv, cap_wakes;
};

/* Thread tid's lane, clipped to its life: [*from, *to]. */
static void lane_bounds(const struct builder *b, uint32_t tid, uint64_t *from, uint64_t *to)
{
	*from = b->tl->begin_ns;
	*to = b->tl->end_ns;
	for (int i = 0; i < b->in->nlives; i++) {
		const struct tl_life *l = &b->in->lives[i];

		if (l->tid != tid)
			continue;
		if (l->begin_ns > *from)
			*from = l->begin_ns < *to ? l->begin_ns : *to;
		if (l->end_ns && l->end_ns < *to)
			*to = l->end_ns > *from ? l->end_ns : *from;
	}
}

static int grow(void **arr, size_t *cap, size_t n, size_t sz)
{
	void *p;

	if (n < *cap)
		return 0;
	p = realloc(*arr, (*cap ? *cap * 2 : 1024) * sz);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = *cap ? *cap * 2 : 1024;
	return 0;
}

/* Close thread i's open interval at t (if it has any length). */
static int close_interval(struct builder *b, int i, uint64_t t)
{
	struct timeline *tl = b->tl;
	struct tl_st *s = &b->st[i];
	struct tl_interval *v;
	enum tl_state state = state_of(tl, s);

	if (t > s->until)	/* a record after the thread's end mark */
		t = s->until;
	if (t <= s->since)
		return 0;
	if (grow((void **)&tl->iv, &b->cap_iv, tl->niv, sizeof(*tl->iv)))
		return -ENOMEM;
	v = &tl->iv[tl->niv++];
	*v = (struct tl_interval){ .start_ns = s->since, .end_ns = t, .tid = tl->threads[i].tid,
		.state = state, .nr = state == TL_SYSCALL ? s->nr : FCT_TL_NO_SC,
		.word = s->word, .lock = state == TL_LOCK ? find_lock(tl, s->word) : -1,
		.woken_by = s->woken_by };
	tl->threads[i].state_ns[state] += t - s->since;
	tl->threads[i].lock_sleeps += state == TL_LOCK;
	s->since = t;
	return 0;
}

static int add_wake(struct builder *b, const struct tl_wake *w)
{
	struct timeline *tl = b->tl;

	if (grow((void **)&tl->wakes, &b->cap_wakes, tl->nwakes, sizeof(*tl->wakes)))
		return -ENOMEM;
	tl->wakes[tl->nwakes++] = *w;
	return 0;
}

/* Replay one record through its thread's state machine. */
static int replay(struct builder *b, const struct fct_tl_event *e)
{
	int i = thread_index(b->tl, e->tid);
	struct tl_st *s, next;
	struct tl_wake w;

	if (i < 0)
		return 0;
	s = &b->st[i];
	if (!s->known) {
		state_before(s, e);
		s->known = true;
		lane_bounds(b, e->tid, &s->since, &s->until);
	}
	if (e->kind == FCT_TL_STATE)	/* the snapshot only says where a lane starts */
		return 0;
	next = *s;
	state_after(&next, e);
	if (e->kind == FCT_TL_WAKEUP) {
		w = wake_of(b->tl, b->st, i, e);
		s->woken_by = w.waker;
		if (add_wake(b, &w))
			return -ENOMEM;
	}
	if (!same_state(b->tl, s, &next) && close_interval(b, i, e->ts))
		return -ENOMEM;
	next.since = s->since;
	next.until = s->until;
	next.woken_by = 0;
	*s = next;
	return 0;
}

static int cmp_event(const void *a, const void *b)
{
	const struct fct_tl_event *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return (x->kind == FCT_TL_WAKEUP) - (y->kind == FCT_TL_WAKEUP);
}

static int cmp_tid(const void *a, const void *b)
{
	uint32_t x = ((const struct tl_thread *)a)->tid, y = ((const struct tl_thread *)b)->tid;

	return (x > y) - (x < y);
}

static int cmp_interval(const void *a, const void *b)
{
	const struct tl_interval *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
}

/* The threads the records name, one entry each, by tid. */
static int collect_threads(struct timeline *tl, const struct fct_tl_event *ev, size_t n)
{
	int j = 0;

	tl->threads = calloc(n ? n : 1, sizeof(*tl->threads));
	if (!tl->threads)
		return -ENOMEM;
	for (size_t k = 0; k < n; k++) {
		if (k && ev[k].tid == ev[k - 1].tid)
			continue;
		tl->threads[tl->nthreads++].tid = ev[k].tid;
	}
	qsort(tl->threads, tl->nthreads, sizeof(*tl->threads), cmp_tid);
	for (int i = 0; i < tl->nthreads; i++)		/* drop duplicates */
		if (!j || tl->threads[i].tid != tl->threads[j - 1].tid)
			tl->threads[j++] = tl->threads[i];
	tl->nthreads = j;
	return 0;
}

static int copy_locks(struct timeline *tl, const struct tl_lock *locks, int nlocks)
{
	if (nlocks <= 0)
		return 0;
	tl->locks = malloc(nlocks * sizeof(*locks));
	if (!tl->locks)
		return -ENOMEM;
	memcpy(tl->locks, locks, nlocks * sizeof(*locks));
	tl->nlocks = nlocks;
	return 0;
}

static int replay_all(struct timeline *tl, const struct fct_tl_event *ev, size_t n,
		      const struct tl_input *in)
{
	struct builder b = { .tl = tl, .in = in,
			     .st = calloc(tl->nthreads ? tl->nthreads : 1, sizeof(*b.st)) };
	uint64_t from, to;
	int err = b.st ? 0 : -ENOMEM;

	for (size_t k = 0; !err && k < n; k++)
		err = replay(&b, &ev[k]);
	for (int i = 0; !err && i < tl->nthreads; i++) {
		lane_bounds(&b, tl->threads[i].tid, &from, &to);
		err = close_interval(&b, i, to);
	}
	free(b.st);
	return err;
}

int timeline_build(struct timeline *tl, const struct fct_tl_event *ev, size_t n,
		   const struct tl_input *in)
{
	uint64_t begin = in->begin_ns, end = in->end_ns;
	struct fct_tl_event *sorted = malloc((n ? n : 1) * sizeof(*sorted));
	int err;

	memset(tl, 0, sizeof(*tl));
	if (!sorted)
		return -ENOMEM;
	if (n) {	/* ev may be NULL when there is nothing */
		memcpy(sorted, ev, n * sizeof(*ev));
		qsort(sorted, n, sizeof(*sorted), cmp_event);
	}
	tl->begin_ns = n && sorted[0].ts < begin ? sorted[0].ts : begin;
	tl->end_ns = n && sorted[n - 1].ts > end ? sorted[n - 1].ts : end;
	tl->events = n;
	err = copy_locks(tl, in->locks, in->nlocks);
	if (!err)
		err = collect_threads(tl, sorted, n);
	if (!err)
		err = replay_all(tl, sorted, n, in);
	free(sorted);
	if (err) {
		timeline_free(tl);
		return err;
	}
	if (tl->niv)
		qsort(tl->iv, tl->niv, sizeof(*tl->iv), cmp_interval);
	return 0;
}
