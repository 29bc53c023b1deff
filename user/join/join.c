/*
 * join.c - the join: a row per thread the kernel accounted for, the
 * subject's own timings of it beside when it timed it (matched by tid),
 * futex words named by the subject's lock ranges or by lockname.c, and
 * run-wide totals for explain and reporters.
 */
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "base/hist.h"
#include "base/places.h"
#include "base/sysnames.h"
#include "join/join.h"
#include "join/sibedges.h"
#include "join/jvmstacks.h"
#include "join/wordindex.h"

static const char *const acct_names[ACCT_N] = {
	"cpu_user", "cpu_sys", "lock_wait", "futex_other", "blocked", "runqueue",
};

const struct thread_timings thread_timings_none;

const char *acct_bucket_name(enum acct_bucket b)
{
	return b < ACCT_N ? acct_names[b] : "?";
}

static const char *const sc_row_names[SC_ROW_N] = {
	"openat", "close", "pread64", "newfstatat", "statx", "futex", "other",
};

const char *sc_row_name(enum sc_row row)
{
	return row < SC_ROW_N ? sc_row_names[row] : "?";
}

enum sc_row sc_row_of(unsigned nr)
{
	switch (nr) {
	case __NR_openat:	return SC_ROW_OPENAT;
	case __NR_close:	return SC_ROW_CLOSE;
	case __NR_pread64:	return SC_ROW_PREAD64;
	case __NR_newfstatat:	return SC_ROW_NEWFSTATAT;
	case __NR_statx:	return SC_ROW_STATX;
	case __NR_futex:	return SC_ROW_FUTEX;
	case __NR_futex_waitv:	return SC_ROW_FUTEX;	/* a futex wait too */
	default:		return SC_ROW_OTHER;
	}
}

int sc_row_nr(enum sc_row row)
{
	static const int nrs[SC_ROW_N] = {
		__NR_openat, __NR_close, __NR_pread64, __NR_newfstatat, __NR_statx,
		__NR_futex, -1,
	};

	return row < SC_ROW_N ? nrs[row] : -1;
}

void sc_stats_of(struct sc_stats *dst, const struct fct_nr_stats *n, const struct fct_sc_hist *h)
{
	memset(dst, 0, sizeof(*dst));
	dst->count = n->count;
	dst->errors = n->errors;
	dst->timed = n->timed;
	dst->total_ns = n->total_ns;
	dst->blocked_ns = n->blocked_ns;
	if (!h)
		return;
	dst->min_ns = h->min_ns;
	dst->max_ns = h->max_ns;
	memcpy(dst->hist, h->hist, sizeof(dst->hist));
}

void sc_stats_add(struct sc_stats *dst, const struct sc_stats *src)
{
	if (!src->count && !src->blocked_ns)
		return;
	/* min over the sums that timed a call (0: none did) */
	if (src->timed && (!dst->timed || src->min_ns < dst->min_ns))
		dst->min_ns = src->min_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	dst->count += src->count;
	dst->errors += src->errors;
	dst->timed += src->timed;
	dst->total_ns += src->total_ns;
	dst->blocked_ns += src->blocked_ns;
	for (int i = 0; i < FCT_HIST_SLOTS; i++)
		dst->hist[i] += src->hist[i];
}

struct sc_stats join_calls(const struct joined_run *m, const int *nrs, int n)
{
	struct sc_stats s = { 0 };

	for (int i = 0; i < n; i++)
		if (nrs[i] >= 0 && nrs[i] < FCT_NR_MAX)
			sc_stats_add(&s, &m->nr_total[nrs[i]]);
	return s;
}

/* The subject's own lock whose object holds this futex word, or NULL. */
static const struct own_lock *lock_of(const struct subject_timings *own, uint64_t uaddr)
{
	for (int i = 0; own && i < own->nlocks; i++)
		if (uaddr >= own->locks[i].addr &&
		    uaddr < own->locks[i].addr + own->locks[i].size)
			return &own->locks[i];
	return NULL;
}

/* The name given to a futex word of process tgid, or NULL. */
static const struct lock_name *name_of(const struct joined_run *m, uint32_t tgid,
				       uint64_t uaddr)
{
	if (m->nix)
		return name_index_find(m->nix, tgid, uaddr);
	for (int i = 0; i < m->nnames; i++)
		if (m->names[i].tgid == tgid && uaddr >= m->names[i].addr &&
		    uaddr < m->names[i].addr + m->names[i].size)
			return &m->names[i];
	return NULL;
}

/* This thread's use of the lock or event `name`, a zeroed new one if it
 * has none (a slot freed by a dropped use still holds that use's data). */
struct lock_use *join_row_use(struct thread_row *r, const char *name, bool is_lock)
{
	struct lock_use *u;

	for (int i = 0; i < r->nlocks; i++)
		if (!strcmp(r->locks[i].name, name))
			return &r->locks[i];
	if (r->nlocks == MODEL_MAX_NAMED)
		return NULL;
	u = &r->locks[r->nlocks++];
	memset(u, 0, sizeof(*u));
	snprintf(u->name, sizeof(u->name), "%s", name);
	u->is_lock = is_lock;
	return u;
}

/* Uses of one name made one: a rename (two HotSpot sleep sites both
 * "Thread.sleep") must not leave a row two entries a reader keys by name. */
void join_row_merge_names(struct thread_row *r)
{
	for (int i = 0; i < r->nlocks; i++)
		for (int j = r->nlocks - 1; j > i; j--) {
			struct lock_use *a = &r->locks[i], *b = &r->locks[j];

			if (strcmp(a->name, b->name))
				continue;
			a->waits += b->waits;
			a->wait_ns += b->wait_ns;
			a->runq_ns += b->runq_ns;
			if (b->max_ns > a->max_ns)
				a->max_ns = b->max_ns;
			*b = r->locks[--r->nlocks];
		}
}

/* The named lock or event a futex word belongs to, or NULL. */
static struct lock_use *use_of(struct thread_row *r, const struct joined_run *m,
			       uint64_t uaddr)
{
	const struct own_lock *d;
	const struct lock_name *ln;

	struct lock_use *u = NULL;

	if (m->names) {
		ln = name_of(m, r->k.tgid, uaddr);
		if (ln && (u = join_row_use(r, ln->name, ln->is_lock)))
			u->kind = ln->kind;
		return u;
	}
	d = lock_of(m->timings, uaddr);
	if (d && (u = join_row_use(r, d->name, true)))
		u->kind = d->kind;
	return u;
}

/* Split this thread's futex waits into named locks and the rest. */
static void join_futex(struct thread_row *r, const struct joined_run *m,
		       const struct kview *kv)
{
	int from = 0, to = kv->nfutex;

	if (m->kix)	/* the thread's own entries, in the view's order */
		kv_index_tid(m->kix, (uint32_t)r->tid, &from, &to);
	for (int k = from; k < to; k++) {
		const struct kv_futex *f = &kv->futex[m->kix ? m->kix->by_tid[k] : k];
		struct lock_use *u;

		if (f->key.tid != (uint32_t)r->tid || f->key.op == FCT_FUTEX_OP_WAKE)
			continue;
		u = use_of(r, m, f->key.uaddr);
		if (!u || !u->is_lock) {
			r->futex_other_waits += f->val.waits;
			r->futex_other_ns += f->val.wait_ns;
		}
		if (!u)
			continue;
		u->waits += f->val.waits;
		u->wait_ns += f->val.wait_ns;
		u->runq_ns += f->val.runq_ns;
		if (f->val.max_ns > u->max_ns)
			u->max_ns = f->val.max_ns;
	}
}

static uint64_t named_wait_ns(const struct thread_row *r)
{
	uint64_t sum = 0;

	for (int i = 0; i < r->nlocks; i++)
		if (r->locks[i].is_lock)
			sum += r->locks[i].wait_ns;
	return sum;
}

/*
 * A thread's lock waits past its futex time: the waits are each call's
 * own enter-to-exit time, exact; the futex time's on-CPU part is held to
 * the on-CPU time the switches had booked, which can lag. The lock keeps
 * its exact figure (the table, the flame graph's stacks and the Why show
 * one) and the excess comes out of the buckets the lag left it in, so
 * that the account still tiles the window.
 */
static void take_excess(struct thread_row *r, uint64_t excess)
{
	static const int from[] = { ACCT_CPU_SYS, ACCT_CPU_USER, ACCT_RUNQ, ACCT_BLOCKED };

	for (size_t i = 0; i < sizeof(from) / sizeof(from[0]) && excess; i++) {
		uint64_t take = r->acct_ns[from[i]] < excess ? r->acct_ns[from[i]] : excess;

		r->acct_ns[from[i]] -= take;
		excess -= take;
	}
}

/*
 * Full probe set: the kernel's disjoint buckets, with its futex time split
 * by lock. Without syscall hooks the futex time is hidden inside "blocked":
 * the workload's own lock-wait clock says how much of it was the lock.
 */
static void fill_account(struct thread_row *r, unsigned groups)
{
	const struct fct_thread *k = &r->k;
	const struct kv_derived *d = &r->d;
	uint64_t named = named_wait_ns(r);

	r->acct_ns[ACCT_CPU_USER] = d->cpu_user_ns;
	r->acct_ns[ACCT_CPU_SYS] = d->cpu_sys_ns;
	r->acct_ns[ACCT_RUNQ] = k->runq_ns;
	r->acct_ns[ACCT_BLOCKED] = k->blocked_ns;
	if (groups & PG_MASK(PG_SYSCALLS)) {
		r->acct_ns[ACCT_LOCK_NAMED] = named;
		r->acct_ns[ACCT_FUTEX_OTHER] = named < d->futex_wait_ns ? d->futex_wait_ns - named : 0;
		if (named > d->futex_wait_ns)
			take_excess(r, named - d->futex_wait_ns);
		return;
	}
	named = row_own(r)->lock_wait_ns < k->blocked_ns ? row_own(r)->lock_wait_ns : k->blocked_ns;
	r->acct_ns[ACCT_LOCK_NAMED] = named;
	r->acct_ns[ACCT_BLOCKED] = k->blocked_ns - named;
}

void join_row_calls(const struct joined_run *m, const struct thread_row *r, struct sc_stats *out)
{
	const struct kview *kv = m->kv;
	struct sc_stats s;

	if (r->sc) {
		memcpy(out, r->sc, SC_ROW_N * sizeof(*out));
		return;
	}
	memset(out, 0, SC_ROW_N * sizeof(*out));
	for (unsigned nr = 0; nr < FCT_NR_MAX; nr++) {
		const struct fct_nr_stats *n = acct_nr(&r->k, nr);

		if (!n->count && !n->blocked_ns)
			continue;
		sc_stats_of(&s, n, kv ? kview_sc_hist(kv, r->k.tid, nr) : NULL);
		sc_stats_add(&out[sc_row_of(nr)], &s);
	}
}

const struct fct_thread *join_account_of(const struct joined_run *m, pid_t tid)
{
	if (!m->kv)
		return NULL;
	return m->kix ? kv_index_thread(m->kix, (uint32_t)tid) : kview_thread(m->kv, (uint32_t)tid);
}

static void join_thread(struct thread_row *r, const struct joined_run *m,
			const struct kview *kv, unsigned groups)
{
	const struct fct_thread *k = join_account_of(m, r->tid);
	uint64_t wall = r->end_ns - r->start_ns, sum = 0;

	if (!k)
		return;
	r->has_kernel = true;
	r->k = *k;
	r->d = kview_derived(k);
	if (groups & PG_MASK(PG_SYSCALLS))
		join_futex(r, m, kv);
	fill_account(r, groups);
	for (int b = 0; b < ACCT_N; b++)
		sum += r->acct_ns[b];
	r->accounted_ratio = wall ? (double)sum / (double)wall : 0;
	if (groups & PG_MASK(PG_DISK))
		r->disk = disk_thread_of(kv, (uint32_t)r->tid);
	r->idle_ns = join_idle_ns(r);
	r->pagecache_misses = k->pages_added;
	r->pagecache_written = k->pages_written;
	r->pagecache_hits = k->pages_asked > k->pages_added ? k->pages_asked - k->pages_added : 0;
}

/* A new total, at the end of m->locks. */
static struct lock_total *lock_total_new(struct joined_run *m, const char *name, bool kernel,
					 bool is_lock)
{
	struct lock_total *t = realloc(m->locks, sizeof(*t) * (m->nlocks + 1));
	if (!t)
		return NULL;
	m->locks = t;
	t = &m->locks[m->nlocks++];
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->kernel = kernel;
	t->is_lock = is_lock;
	return t;
}

struct lock_total *join_lock_total(struct joined_run *m, const char *name, bool kernel,
				    bool is_lock)
{
	for (int i = 0; i < m->nlocks; i++)
		if (m->locks[i].kernel == kernel && !strcmp(m->locks[i].name, name))
			return &m->locks[i];
	return lock_total_new(m, name, kernel, is_lock);
}

static void add_lock(struct lock_total *t, uint64_t waits, uint64_t ns, uint64_t max)
{
	if (!t)
		return;
	t->waits += waits;
	t->wait_ns += ns;
	if (max > t->max_ns)
		t->max_ns = max;
	t->threads++;
}

static const char *const idle_calls[] = {
	"nanosleep", "clock_nanosleep", "epoll_wait", "epoll_pwait", "epoll_pwait2", "poll",
	"ppoll", "select", "pselect6", "rt_sigsuspend", "rt_sigtimedwait", "pause", "wait4",
	"waitid",
};

bool join_idle_call(unsigned nr)
{
	char buf[32];
	const char *name = syscall_name(nr, buf, sizeof(buf));

	for (size_t i = 0; i < sizeof(idle_calls) / sizeof(idle_calls[0]); i++)
		if (!strcmp(name, idle_calls[i]))
			return true;
	return false;
}

/* Calls that wait for asynchronous I/O to complete: idle while none of
 * the thread's requests is on the disk (a ring's reaper waiting for work). */
static const char *const completion_calls[] = { "io_uring_enter", "io_getevents",
						"io_pgetevents" };

static uint64_t blocked_in(const struct thread_row *r, const char *const *names, size_t n)
{
	uint64_t ns = 0;

	for (size_t i = 0; i < n; i++) {
		int nr = syscall_nr(names[i]);

		if (nr >= 0 && nr < FCT_NR_MAX)
			ns += acct_nr(&r->k, nr)->blocked_ns;
	}
	return ns;
}

/* io_uring's kernel workers (the kernel names them iou-wrk-PID) wait for
 * work in an interruptible sleep outside any syscall: that sleep is
 * idle; their uninterruptible sleep is the I/O they do. */
static uint64_t io_worker_idle_ns(const struct thread_row *r)
{
	if (strncmp(r->k.comm, "iou-wrk-", 8) && strncmp(r->k.comm, "iou-sqp-", 8))
		return 0;
	return r->k.blocked_ns > r->k.blocked_io_ns ? r->k.blocked_ns - r->k.blocked_io_ns : 0;
}

uint64_t join_idle_ns(const struct thread_row *r)
{
	uint64_t ns = blocked_in(r, idle_calls, sizeof(idle_calls) / sizeof(idle_calls[0]));
	uint64_t reap = blocked_in(r, completion_calls,
				   sizeof(completion_calls) / sizeof(completion_calls[0]));
	uint64_t inflight = r->disk.read_ns + r->disk.write_ns;

	ns += reap > inflight ? reap - inflight : 0;
	ns += io_worker_idle_ns(r);
	return ns < r->acct_ns[ACCT_BLOCKED] ? ns : r->acct_ns[ACCT_BLOCKED];
}

/* The kernel's lock type from contention_begin's LCB_F_* flags. */
const char *klock_type(uint32_t flags)
{
	enum { SPIN = 1, READ = 2, WRITE = 4, RT = 8, PERCPU = 16, MUTEX = 32 };

	if (flags & MUTEX)
		return "mutex";
	if (flags & RT)
		return "rt-mutex";
	if (flags & PERCPU)
		return flags & WRITE ? "percpu-rwsem:W" : "percpu-rwsem:R";
	if (flags & SPIN)
		return flags & READ ? "rwlock:R" : flags & WRITE ? "rwlock:W" : "spinlock";
	return flags & READ ? "rwsem:R" : flags & WRITE ? "rwsem:W" : "other";
}

const char *join_cpu_split(const struct joined_run *m)
{
	if (!(m->groups & PG_MASK(PG_SCHED)) || !m->cpu_split_rows)
		return NULL;
	if (m->cpu_split_sampled == m->cpu_split_rows)
		return "cpu-clock samples";
	return m->cpu_split_sampled ? "mixed" : "syscall hooks";
}

/*
 * What total_locks looks up, indexed: the totals by name as they are
 * made (open addressing; a target's thousands of words each looked for
 * its name in every total before), the names by their text, the rows by
 * tid. Out of memory, an index is NULL and the lookup scans.
 */
struct totals_ix {
	int *slots;		/* indices into m->locks, -1 free */
	unsigned cap;		/* a power of two, > 2 x the totals there can be */
	int *names;		/* m->names by name */
	int *rows;		/* m->rows by tid */
};

static unsigned text_hash(const char *s, bool kernel)
{
	unsigned h = 2166136261u ^ kernel;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static int by_name_text(const void *a, const void *b, void *arg)
{
	const struct lock_name *n = arg;
	int x = *(const int *)a, y = *(const int *)b;

	return strcmp(n[x].name, n[y].name) ?: (x > y) - (x < y);
}

static int by_row_tid(const void *a, const void *b, void *arg)
{
	const struct thread_row *r = arg;
	int x = *(const int *)a, y = *(const int *)b;
	uint32_t tx = (uint32_t)r[x].tid, ty = (uint32_t)r[y].tid;

	return tx != ty ? (tx > ty) - (tx < ty) : (x > y) - (x < y);
}

static void totals_ix_init(struct totals_ix *x, struct joined_run *m)
{
	unsigned most = 1 + (m->kv ? (unsigned)m->kv->nklock : 0);

	for (unsigned i = 0; i < m->nrows; i++)
		most += (unsigned)m->rows[i].nlocks;
	*x = (struct totals_ix){ 0 };
	for (x->cap = 16; x->cap < 2 * most; x->cap *= 2)
		;
	if ((x->slots = malloc(x->cap * sizeof(*x->slots))))
		memset(x->slots, 0xff, x->cap * sizeof(*x->slots));
	x->names = places_sorted(m->nnames, (void *)m->names, by_name_text);
	x->rows = places_sorted((int)m->nrows, m->rows, by_row_tid);
}

static void totals_ix_free(struct totals_ix *x)
{
	free(x->slots);
	free(x->names);
	free(x->rows);
}

static struct lock_total *total_of(struct joined_run *m, struct totals_ix *x, const char *name,
				   bool kernel, bool is_lock)
{
	struct lock_total *t;
	unsigned i;

	if (!x->slots)
		return join_lock_total(m, name, kernel, is_lock);
	for (i = text_hash(name, kernel) & (x->cap - 1); x->slots[i] >= 0; i = (i + 1) & (x->cap - 1)) {
		t = &m->locks[x->slots[i]];
		if (t->kernel == kernel && !strcmp(t->name, name))
			return t;
	}
	if ((t = lock_total_new(m, name, kernel, is_lock)))
		x->slots[i] = m->nlocks - 1;
	return t;
}

static bool is_worker(const struct joined_run *m, const struct totals_ix *x, uint32_t tid)
{
	int lo = 0, hi = (int)m->nrows;

	if (!x->rows) {
		for (unsigned i = 0; i < m->nrows; i++)
			if ((uint32_t)m->rows[i].tid == tid)
				return !m->rows[i].aside;
		return false;
	}
	while (lo < hi) {	/* the first row of tid */
		int mid = lo + (hi - lo) / 2;

		if ((uint32_t)m->rows[x->rows[mid]].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < (int)m->nrows && (uint32_t)m->rows[x->rows[lo]].tid == tid &&
	       !m->rows[x->rows[lo]].aside;
}

static void add_wakes(struct lock_total *t, const struct lock_name *n)
{
	t->turns |= n->turns;
	t->wakes += n->wakes;
	t->wakes_by_waiters += n->wakes_by_waiters;
}

/* A word's wake-ups, from its name (other programs' words only); a name
 * covers all the words of one symbol, so they are summed once per name. */
static void take_wakes(struct lock_total *t, const struct joined_run *m,
		       const struct totals_ix *x)
{
	int lo = 0, hi = m->nnames;

	if (!x->names) {
		for (int i = 0; i < m->nnames; i++)
			if (!strcmp(m->names[i].name, t->name))
				add_wakes(t, &m->names[i]);
		return;
	}
	while (lo < hi) {	/* the first name of this text */
		int mid = lo + (hi - lo) / 2;

		if (strcmp(m->names[x->names[mid]].name, t->name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < m->nnames && !strcmp(m->names[x->names[lo]].name, t->name); lo++)
		add_wakes(t, &m->names[x->names[lo]]);
}

static void total_locks(struct joined_run *m)
{
	struct totals_ix x;
	char name[160];

	totals_ix_init(&x, m);
	for (unsigned i = 0; i < m->nrows; i++)
		for (int j = 0; !m->rows[i].aside && j < m->rows[i].nlocks; j++) {
			const struct lock_use *u = &m->rows[i].locks[j];

			struct lock_total *t = total_of(m, &x, u->name, false, u->is_lock);

			if (t && !t->threads) {
				t->kind = u->kind;
				take_wakes(t, m, &x);
			}
			add_lock(t, u->waits, u->wait_ns, u->max_ns);
			if (t)
				t->runq_ns += u->runq_ns;
			if (!u->is_lock)
				m->event_wait_ns += u->wait_ns;
		}
	for (int i = 0; m->kv && i < m->kv->nklock; i++) {
		const struct kv_klock *k = &m->kv->klock[i];

		if (!is_worker(m, &x, k->key.tid))
			continue;
		snprintf(name, sizeof(name), "%s @ %s", klock_type(k->key.flags),
			 k->caller[0] ? k->caller : "?");
		struct lock_total *kt = total_of(m, &x, name, true, true);

		if (kt)
			kt->kind = LK_KERNEL;
		add_lock(kt, k->val.waits, k->val.wait_ns, k->val.max_ns);
		m->klock_est_ns += k->est_wait_ns;
	}
	totals_ix_free(&x);
}

/* The lock a watched word belongs to: one the subject named itself, or
 * another program's named word. */
static const char *holder_lock_name(const struct joined_run *m, const struct fct_hold_lock *h)
{
	const struct own_lock *d;
	const struct lock_name *ln;

	if (h->kind != FCT_HOLD_GLIBC)
		return NULL;	/* a Java monitor: join_jvm.c names it */
	if (m->names) {
		ln = name_of(m, h->tgid, h->uaddr);
		return ln && ln->is_lock ? ln->name : NULL;
	}
	d = lock_of(m->timings, h->uaddr);
	return d ? d->name : NULL;
}

bool join_name_word(const void *arg, uint32_t tgid, uint64_t uaddr, char *buf, size_t n)
{
	const struct joined_run *m = arg;
	const struct own_lock *d;
	const struct lock_name *ln;

	if (m->names && (ln = name_of(m, tgid, uaddr))) {
		snprintf(buf, n, "%s", ln->name);
		return ln->is_lock;
	}
	if (!m->names && (d = lock_of(m->timings, uaddr))) {
		snprintf(buf, n, "%s", d->name);
		return true;
	}
	snprintf(buf, n, "futex word 0x%llx", (unsigned long long)uaddr);
	return false;
}

/* What each contended lock's holders did, from the watched words. */
static void join_holders(struct joined_run *m)
{
	for (int i = 0; m->kv && i < m->kv->nholds; i++) {
		const char *name = holder_lock_name(m, &m->kv->holds[i]);
		struct lock_total *t = NULL;

		for (int j = 0; name && j < m->nlocks && !t; j++)
			if (!m->locks[j].kernel && !strcmp(m->locks[j].name, name))
				t = &m->locks[j];
		if (t) {
			holders_add(&t->holders, &m->kv->holds[i],
				    (m->groups & PG_MASK(PG_DISK)) != 0);
			holders_name_chain(&t->holders, join_name_word, m);
		}
	}
	for (int j = 0; j < m->nlocks; j++) {
		m->locks[j].holders.waiter_ns = (double)m->locks[j].wait_ns;
		holders_whole_ns(&m->locks[j].holders);
	}
}

/* A row's numbers into the run's table by number, with their histograms
 * from the kernel's view, and into the saved run's named rows; a saved
 * run's view has none: its rows keep the named rows whole (with their
 * histograms) and the shapes of their own numbers only. */
static void total_calls(struct joined_run *m, const struct thread_row *r)
{
	bool saved = !m->kv || !m->kv->nsc_hists;
	struct sc_stats s;

	for (unsigned nr = 0; nr < FCT_NR_MAX; nr++) {
		const struct fct_nr_stats *n = acct_nr(&r->k, nr);
		enum sc_row row = sc_row_of(nr);

		if (!n->count && !n->blocked_ns)
			continue;
		sc_stats_of(&s, n, saved ? NULL : kview_sc_hist(m->kv, r->k.tid, nr));
		if (saved && r->sc && sc_row_nr(row) == (int)nr) {
			s.min_ns = r->sc[row].min_ns;
			s.max_ns = r->sc[row].max_ns;
			memcpy(s.hist, r->sc[row].hist, sizeof(s.hist));
		}
		sc_stats_add(&m->nr_total[nr], &s);
		if (!r->sc)	/* join_row_calls' rows, summed as they are made */
			sc_stats_add(&m->sc_total[row], &s);
	}
	for (int k = 0; r->sc && k < SC_ROW_N; k++)
		sc_stats_add(&m->sc_total[k], &r->sc[k]);
}

static void total_rows(struct joined_run *m)
{
	for (unsigned i = 0; i < m->nrows; i++) {
		const struct thread_row *r = &m->rows[i];

		if (r->aside) {
			m->aside_rows++;
			m->aside_cpu_ns += r->acct_ns[ACCT_CPU_USER] + r->acct_ns[ACCT_CPU_SYS];
			continue;
		}
		m->ops += row_own(r)->ops;
		m->thread_wall_total_ns += r->end_ns - r->start_ns;
		if (!r->has_kernel)
			continue;
		total_calls(m, r);
		for (int b = 0; b < ACCT_N; b++)
			m->acct_total_ns[b] += r->acct_ns[b];
		m->pagecache_hits += r->pagecache_hits;
		m->pagecache_misses += r->pagecache_misses;
		m->pagecache_written += r->pagecache_written;
		m->pages_asked += r->k.pages_asked;
		m->pages_direct += r->k.pages_direct;
		m->klock_exact_ns += r->k.klock_wait_ns;
		m->cpu_samples_user += r->k.cpu_samples_user;
		m->cpu_samples_sys += r->k.cpu_samples_sys;
		m->cpu_samples_futex += r->k.cpu_samples_futex;
		m->cpu_split_sampled += r->d.cpu_split_sampled;
		m->cpu_split_rows++;
	}
}

void join_sum_rows(struct joined_run *m)
{
	m->ops = m->thread_wall_total_ns = m->pagecache_hits = m->pagecache_misses = 0;
	m->pagecache_written = m->pages_asked = m->pages_direct = 0;
	m->aside_cpu_ns = 0;
	m->klock_exact_ns = 0;
	m->cpu_samples_user = m->cpu_samples_sys = m->cpu_samples_futex = 0;
	m->cpu_split_sampled = m->cpu_split_rows = 0;
	m->aside_rows = 0;
	memset(m->sc_total, 0, sizeof(m->sc_total));
	memset(m->nr_total, 0, sizeof(m->nr_total));
	memset(m->acct_total_ns, 0, sizeof(m->acct_total_ns));
	total_rows(m);
}

void join_retotal(struct joined_run *m)
{
	struct lock_total *old = m->locks;
	int nold = m->nlocks;

	m->locks = NULL;
	m->nlocks = 0;
	m->event_wait_ns = m->klock_est_ns = 0;
	join_sum_rows(m);
	total_locks(m);
	wakers_keep(m, old, nold);
	free(old);
}

static const char *probe_set_name(const struct kview *kv, unsigned groups)
{
	if (!kv)
		return "none";
	if (groups & PG_MASK(PG_FLOOR))
		return "floor";
	/* the marks or the lifecycle: whichever opens the windows; a
	 * cpu-clock sampler that could not open is a fallback, which the
	 * probes and the cpu split report, not another set; so is holders
	 * code that could not load (and runs recorded before full had it);
	 * so is a kernel without the page-cache removal tracepoint, and a
	 * run recorded before full had the handles stream or the disk */
	groups = (groups & ~(PG_MASK(PG_THREADS) | PG_MASK(PG_JVM))) | PG_MASK(PG_MARKS) |
		 PG_MASK(PG_CPUCLOCK) | PG_MASK(PG_PC_EVICT);
	if (((groups | PG_MASK(PG_HOLDERS) | PG_MASK(PG_HANDLES) | PG_MASK(PG_DISK)) &
	     ~PG_MASK(PG_PC_LOOKUPS)) == PG_FULL)
		return "full";
	return (groups | PG_MASK(PG_DISK)) == PG_LIGHT ? "light" : "custom";
}

/* sampled values below which a median is not taken (op_costs: 0) */
#define MODEL_MIN_SAMPLES	32

/* The median of one histogram summed over the rows; 0 with too few values. */
static uint64_t rows_median(const struct joined_run *m, size_t field)
{
	uint64_t sum[OWN_HIST_SLOTS] = { 0 }, n = 0;

	for (unsigned i = 0; i < m->nrows; i++) {
		const uint64_t *h = (const uint64_t *)((const char *)row_own(&m->rows[i]) + field);

		for (unsigned b = 0; b < OWN_HIST_SLOTS; b++) {
			sum[b] += h[b];
			n += h[b];
		}
	}
	return n < MODEL_MIN_SAMPLES ? 0 : (uint64_t)(hist_quantile(sum, OWN_HIST_SLOTS, 0.5) + 0.5);
}

static uint64_t per(uint64_t ns, uint64_t n)
{
	return n ? (ns + n / 2) / n : 0;
}

static void op_costs(struct joined_run *m)
{
	uint64_t hit = 0, miss = 0, put = 0, hits = 0, misses = 0, ops = 0;

	for (unsigned i = 0; i < m->nrows; i++) {
		const struct thread_timings *u = row_own(&m->rows[i]);

		hit += u->hold_hit_ns;
		miss += u->hold_miss_ns;
		put += u->hold_put_ns;
		hits += u->hits;
		misses += u->misses;
		ops += u->ops;
	}
	m->hold_hit_ns = per(hit, hits);
	m->hold_miss_ns = per(miss, misses);
	m->hold_put_ns = per(put, ops);
	m->op_hit_p50_ns = rows_median(m, offsetof(struct thread_timings, op_hit_hist));
	m->op_miss_p50_ns = rows_median(m, offsetof(struct thread_timings, op_miss_hist));
	m->read_p50_ns = rows_median(m, offsetof(struct thread_timings, read_hist));
}

unsigned join_usable_cpus(pid_t pid)
{
	cpu_set_t set;
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	if (sched_getaffinity(pid, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return (unsigned)CPU_COUNT(&set);
	return online > 0 ? (unsigned)online : 1;
}

/* The view's and the names' indexes for the join (wordindex.h): a
 * thread's entries and a word's name are then looked up, not scanned
 * for (threads x entries x names). Out of memory: scanned. */
static void index_view(struct joined_run *m, struct kv_index *kix, struct name_index *nix)
{
	if (m->kv && !kv_index_build(kix, m->kv))
		m->kix = kix;
	if (m->names && !name_index_build(nix, m->names, m->nnames))
		m->nix = nix;
}

static void unindex_view(struct joined_run *m, struct kv_index *kix, struct name_index *nix)
{
	if (m->kix)
		kv_index_free(kix);
	if (m->nix)
		name_index_free(nix);
	m->kix = NULL;
	m->nix = NULL;
}

/* Why the Java holders code (jvmhold.bpf.c) did not run, if it did not:
 * its uprobes, or the JVM's field offsets. */
static void jvm_holders_state(struct jvm_holders_off *h, const struct kview *kv, int structs)
{
	memset(h, 0, sizeof(*h));
	if (!kv || !(kv->groups & PG_MASK(PG_HOLDERS)))
		return;
	for (int i = 0; i < kv->nprobes; i++)
		if (strstr(kv->probes[i].name, "ObjectMonitor::EnterI") &&
		    kv->probes[i].state != PROBE_OK) {
			h->why = JH_ENTER_UNPROBED;
			snprintf(h->detail, sizeof(h->detail), "%s",
				 probe_status_text(&kv->probes[i]));
			return;
		}
	if (structs) {
		h->why = JH_NO_VMSTRUCTS;
		h->err = structs;
	}
}

/* A JVM's part: its threads, monitors and parks into the rows, why its
 * holders were or were not measured, its monitors' Java call paths. */
static int join_jvm(struct joined_run *m, const struct kview *kv,
		    const struct run_attachments *att)
{
	join_add_jvm(m, att->jvm, att->jvm_monitors);
	if (!att->jvm)
		return 0;
	jvm_holders_state(&m->jvm_holders, kv, att->jvm_structs);
	m->jvm_monitor_flag = jvm_flag_name((enum jvm_flag)att->jvm_flag);
	if (att->stacks && att->stacks->n && jvmstacks_add(att->stacks, m, att->jvm))
		fprintf(stderr, "fctrace: out of memory for the Java stacks\n");
	return 0;
}

/* A row for each thread the kernel accounted for, whoever wrote the
 * program, its window the account's (a thread still running at the close
 * ends there). */
static unsigned rows_from_kernel(struct thread_row *rows, const struct kview *kv)
{
	for (int i = 0; kv && i < kv->nthreads; i++) {
		const struct fct_thread *k = &kv->threads[i];

		rows[i].tid = (pid_t)k->tid;
		rows[i].index = (unsigned)i;
		rows[i].start_ns = k->begin_ns;
		rows[i].end_ns = k->end_ns > k->begin_ns ? k->end_ns : k->begin_ns;
	}
	return kv ? (unsigned)kv->nthreads : 0;
}

/* A row for each thread the subject timed, in its own order, its window
 * the subject's clock's: a subject that times its threads says which are
 * its own, and the kernel's account of any other thread of the process
 * (none, with the workers' marks) is not the subject's. */
static unsigned rows_from_timings(struct thread_row *rows, const struct subject_timings *own)
{
	for (unsigned i = 0; i < own->nthreads; i++) {
		const struct thread_timings *t = &own->threads[i];

		rows[i].tid = t->tid;
		rows[i].index = t->index;
		rows[i].start_ns = t->start_ns;
		rows[i].end_ns = t->end_ns;
		rows[i].timed = true;
		rows[i].own = t;
	}
	return own->nthreads;
}

/* The run's span: the subject's own, else from its threads' first start
 * to their last end, else the driver's window. */
static void run_span(struct joined_run *m, const struct run_attachments *att)
{
	uint64_t start = att->window_start_ns, end = att->window_end_ns;

	if (m->timings) {
		m->start_ns = m->timings->start_ns;
		m->wall_ns = m->timings->wall_ns;
		return;
	}
	for (unsigned i = 0; i < m->nrows; i++) {
		if (i == 0 || m->rows[i].start_ns < start)
			start = m->rows[i].start_ns;
		if (i == 0 || m->rows[i].end_ns > end)
			end = m->rows[i].end_ns;
	}
	m->start_ns = start;
	m->wall_ns = end > start ? end - start : 0;
}

/* The rows, each joined to the kernel's account of its thread by tid
 * (a reused tid: its later window). */
static int build_rows(struct joined_run *m, const struct kview *kv,
		      const struct subject_timings *own)
{
	unsigned most = own ? own->nthreads : kv ? (unsigned)kv->nthreads : 0;

	m->rows = calloc(most ? most : 1, sizeof(*m->rows));
	if (!m->rows)
		return -1;
	m->nrows = own ? rows_from_timings(m->rows, own) : rows_from_kernel(m->rows, kv);
	for (unsigned i = 0; i < m->nrows; i++)
		join_thread(&m->rows[i], m, kv, m->groups);
	return 0;
}

int join_run(struct joined_run *m, const struct kview *kv, unsigned groups,
	     const struct run_attachments *att)
{
	struct kv_index kix;
	struct name_index nix;
	int rc;

	memset(m, 0, sizeof(*m));
	m->subject = att->subject;
	m->subject_pid = att->subject_pid;
	m->timings = att->timings;
	m->names = att->names;
	m->nnames = att->nnames;
	m->kv = kv;
	m->groups = kv ? groups : 0;
	m->probe_set = probe_set_name(kv, m->groups);
	m->time_every = kv ? kv->time_every : 0;
	m->ncpus = join_usable_cpus(att->cpus_of);
	index_view(m, &kix, &nix);
	if (build_rows(m, kv, att->timings)) {
		unindex_view(m, &kix, &nix);
		return -1;
	}
	run_span(m, att);
	total_rows(m);
	total_locks(m);
	join_holders(m);
	wakers_join(m);
	sib_wakers_join(m);
	rc = sib_edges_join(m);
	unindex_view(m, &kix, &nix);
	if (rc)
		return -1;
	op_costs(m);
	losses_find(kv, &m->losses);
	evictions_build(&m->evictions, kv, m->pagecache_misses);
	disk_build(&m->disk, kv);
	if (caches_build(m, kv) || pools_build(m, kv) || join_jvm(m, kv, att) ||
	    pools_add_jvm(m) || pools_add_proxies(m, kv))
		return -1;
	roots_join(m);	/* after the JVM's monitors got their holders */
	return wait_graph_build(m);
}

void join_free(struct joined_run *m)
{
	free(m->rows);
	free(m->locks);
	free(m->caches);
	free(m->pools);
	free(m->sib_edges);
	free(m->saved_sc);
	m->saved_sc = NULL;
	wait_graph_free(&m->graph);
	m->sib_edges = NULL;
	m->nsib_edges = 0;
	m->pools = NULL;
	m->npools = 0;
	m->rows = NULL;
	m->locks = NULL;
	m->caches = NULL;
	m->ncaches = 0;
}
