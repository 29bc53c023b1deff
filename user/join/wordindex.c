/*
 * wordindex.c - sorted index arrays over a kernel view and its named
 * words (wordindex.h). Ties keep the view's order, so each lookup gives
 * what a scan from the start gave.
 */
#include <stdlib.h>
#include "base/places.h"
#include "join/wordindex.h"

static int cmp_u64(uint64_t a, uint64_t b)
{
	return (a > b) - (a < b);
}

static int by_addr(const void *a, const void *b, void *arg)
{
	const struct kv_futex *f = arg;
	int x = *(const int *)a, y = *(const int *)b;

	return cmp_u64(f[x].key.uaddr, f[y].key.uaddr) ?: (x > y) - (x < y);
}

static int by_tid(const void *a, const void *b, void *arg)
{
	const struct kv_futex *f = arg;
	int x = *(const int *)a, y = *(const int *)b;

	return cmp_u64(f[x].key.tid, f[y].key.tid) ?: (x > y) - (x < y);
}

/* by tid, the latest begin first, then the view's order */
static int by_thread(const void *a, const void *b, void *arg)
{
	const struct fct_thread *t = arg;
	int x = *(const int *)a, y = *(const int *)b;

	return cmp_u64(t[x].tid, t[y].tid) ?: cmp_u64(t[y].begin_ns, t[x].begin_ns) ?:
	       (x > y) - (x < y);
}

/* each tid once: the first of its run, which by_thread put first */
static int first_of_each_tid(const struct fct_thread *t, int *v, int n)
{
	int kept = 0;

	for (int i = 0; i < n; i++)
		if (!kept || t[v[kept - 1]].tid != t[v[i]].tid)
			v[kept++] = v[i];
	return kept;
}

int kv_index_build(struct kv_index *ix, const struct kview *kv)
{
	*ix = (struct kv_index){ .kv = kv };
	ix->by_addr = places_sorted(kv->nfutex, kv->futex, by_addr);
	ix->by_tid = places_sorted(kv->nfutex, kv->futex, by_tid);
	ix->threads = places_sorted(kv->nthreads, kv->threads, by_thread);
	if (!ix->by_addr || !ix->by_tid || !ix->threads) {
		kv_index_free(ix);
		return -1;
	}
	ix->nthreads = first_of_each_tid(kv->threads, ix->threads, kv->nthreads);
	return 0;
}

void kv_index_free(struct kv_index *ix)
{
	free(ix->by_addr);
	free(ix->by_tid);
	free(ix->threads);
	*ix = (struct kv_index){ 0 };
}

const struct fct_thread *kv_index_thread(const struct kv_index *ix, uint32_t tid)
{
	int lo = 0, hi = ix->nthreads;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		const struct fct_thread *t = &ix->kv->threads[ix->threads[mid]];

		if (t->tid == tid)
			return t;
		if (t->tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

uint32_t kv_index_tgid(const struct kv_index *ix, uint32_t tid)
{
	const struct fct_thread *t = kv_index_thread(ix, tid);

	return t ? t->tgid : 0;
}

/* The first place in v (n long) whose key is at least key. */
static int lower_bound(const int *v, int n, const struct kv_futex *f, bool tid, uint64_t key)
{
	int lo = 0, hi = n;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		uint64_t k = tid ? f[v[mid]].key.tid : f[v[mid]].key.uaddr;

		if (k < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void kv_index_words(const struct kv_index *ix, uint64_t lo, uint64_t hi, int *from, int *to)
{
	const struct kview *kv = ix->kv;

	*from = lower_bound(ix->by_addr, kv->nfutex, kv->futex, false, lo);
	*to = hi > lo ? lower_bound(ix->by_addr, kv->nfutex, kv->futex, false, hi) : *from;
}

void kv_index_tid(const struct kv_index *ix, uint32_t tid, int *from, int *to)
{
	const struct kview *kv = ix->kv;

	*from = lower_bound(ix->by_tid, kv->nfutex, kv->futex, true, tid);
	*to = lower_bound(ix->by_tid, kv->nfutex, kv->futex, true, (uint64_t)tid + 1);
}

/* ---- named words ----------------------------------------------------- */

static int by_name_place(const void *a, const void *b, void *arg)
{
	const struct lock_name *n = arg;
	int x = *(const int *)a, y = *(const int *)b;

	return cmp_u64(n[x].tgid, n[y].tgid) ?: cmp_u64(n[x].addr, n[y].addr) ?:
	       (x > y) - (x < y);
}

int name_index_build(struct name_index *ix, const struct lock_name *names, int n)
{
	*ix = (struct name_index){ .names = names, .n = n };
	if (!(ix->order = places_sorted(n, names, by_name_place)))
		return -1;
	for (int i = 0; i < n; i++)
		if (names[i].size > ix->max_size)
			ix->max_size = names[i].size;
	return 0;
}

void name_index_free(struct name_index *ix)
{
	free(ix->order);
	*ix = (struct name_index){ 0 };
}

/* The first place after every name at or before (tgid, uaddr). */
static int names_after(const struct name_index *ix, uint32_t tgid, uint64_t uaddr)
{
	int lo = 0, hi = ix->n;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		const struct lock_name *m = &ix->names[ix->order[mid]];

		if (m->tgid < tgid || (m->tgid == tgid && m->addr <= uaddr))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct lock_name *name_index_find_if(const struct name_index *ix, uint32_t tgid,
					   uint64_t uaddr, bool (*ok)(const struct lock_name *))
{
	int best = -1;

	/* back from uaddr over the names that start close enough to hold it */
	for (int k = names_after(ix, tgid, uaddr) - 1; k >= 0; k--) {
		const struct lock_name *m = &ix->names[ix->order[k]];

		if (m->tgid != tgid || uaddr - m->addr >= ix->max_size)
			break;
		if (uaddr - m->addr < m->size && (best < 0 || ix->order[k] < best) && (!ok || ok(m)))
			best = ix->order[k];
	}
	return best >= 0 ? &ix->names[best] : NULL;
}

const struct lock_name *name_index_find(const struct name_index *ix, uint32_t tgid,
					uint64_t uaddr)
{
	return name_index_find_if(ix, tgid, uaddr, NULL);
}

/* ---- locks by name --------------------------------------------------- */

static int by_lock_name(const void *a, const void *b, void *arg)
{
	const struct lock_total *l = arg;
	int i = *(const int *)a, j = *(const int *)b;

	if (l[i].kernel != l[j].kernel)
		return l[i].kernel ? 1 : -1;
	return strcmp(l[i].name, l[j].name);
}

int lock_index_build(struct lock_index *ix, const struct lock_total *locks, int nlocks)
{
	*ix = (struct lock_index){ .locks = locks, .nlocks = nlocks };
	ix->order = places_sorted(nlocks, locks, by_lock_name);
	for (int i = 0; ix->order && i < nlocks; i++)
		ix->n += !locks[i].kernel;
	return ix->order ? 0 : -1;
}

void lock_index_free(struct lock_index *ix)
{
	free(ix->order);
	*ix = (struct lock_index){ 0 };
}

int lock_index_find(const struct lock_index *ix, const char *name)
{
	int lo = 0, hi = ix->n - 1;

	if (!ix->order) {
		for (int i = 0; i < ix->nlocks; i++)
			if (!ix->locks[i].kernel && !strcmp(ix->locks[i].name, name))
				return i;
		return -1;
	}
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2, c = strcmp(ix->locks[ix->order[mid]].name, name);

		if (!c)
			return ix->order[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}
