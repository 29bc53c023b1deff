/*
 * kview.c - the kernel view's small helpers.
 */
#include <stdbool.h>
#include <stdlib.h>
#include "trace/kview.h"

/* Free what tracer_read allocated; the probe status stays. */
uint64_t kview_lost_total(const struct kview *kv)
{
	const struct fct_lost *l = &kv->lost;

	return l->slot_full + l->futex_map_full + l->klock_map_full + l->pc_map_full +
	       l->stack_lost + l->ustack_drops + l->jvm_threads_full + l->jvm_monitors_full +
	       l->tgids_full + l->pc_evict_full + l->sc_hist_full + l->wake_after_full +
	       l->pool_full + l->flame_stack_drops + l->nr_spill_full + l->hooks_skipped +
	       kv->tl.dropped;
}

void kview_free(struct kview *kv)
{
	if (!kv)
		return;
	free(kv->threads);
	acct_arena_free(&kv->nr_arena);
	free(kv->futex);
	free(kv->wake_after);
	free(kv->sib_after);
	free(kv->pools);
	kv->pools = NULL;
	kv->npools = 0;
	free(kv->sc_hists);
	kv->sc_hists = NULL;
	kv->nsc_hists = 0;
	free(kv->klock);
	free(kv->pc);
	free(kv->holds);
	free(kv->others);
	kv->others = NULL;
	kv->nothers = 0;
	free(kv->evict);
	kv->evict = NULL;
	kv->nevict = 0;
	free(kv->disk_devs);
	free(kv->uring);
	free(kv->disk_threads);
	kv->disk_devs = NULL;
	kv->uring = NULL;
	kv->nuring = 0;
	kv->disk_threads = NULL;
	kv->ndisk_devs = kv->ndisk_threads = 0;
	free(kv->handles);
	kv->handles = NULL;
	kv->nhandles = 0;
	free(kv->flows);
	kv->flows = NULL;
	kv->nflows = 0;
	kv->threads = NULL;
	kv->futex = NULL;
	kv->wake_after = NULL;
	kv->nwake_after = 0;
	kv->sib_after = NULL;
	kv->nsib_after = 0;
	kv->klock = NULL;
	kv->pc = NULL;
	kv->holds = NULL;
	kv->nthreads = kv->nfutex = kv->nklock = kv->npc = kv->nholds = 0;
	kv->nmissing = 0;
	kv->missing_more = 0;
}

/* The account of thread tid; if the tid was reused for a second
 * window, the latest one. */
const struct fct_thread *kview_thread(const struct kview *kv, uint32_t tid)
{
	const struct fct_thread *best = NULL;

	for (int i = 0; kv && i < kv->nthreads; i++) {
		const struct fct_thread *t = &kv->threads[i];

		if (t->tid == tid && (!best || t->begin_ns > best->begin_ns))
			best = t;
	}
	return best;
}

static int tid_at_cmp(const void *a, const void *b)
{
	const struct kv_tid_at *x = a, *y = b;

	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* Each tid's latest account (kview_thread's answer), sorted by tid: who
 * looks up every thread of a target with 10 000 of them cannot walk the
 * accounts (20 KB each) once a lookup. NULL with *n = 0 when there are
 * none or no memory; kview_tids_find then walks. */
struct kv_tid_at *kview_tids_sorted(const struct kview *kv, int *n)
{
	struct kv_tid_at *ix = kv->nthreads ? malloc(sizeof(*ix) * (size_t)kv->nthreads) : NULL;
	int k = 0;

	*n = 0;
	if (!ix)
		return NULL;
	for (int i = 0; i < kv->nthreads; i++)
		ix[i] = (struct kv_tid_at){ .tid = kv->threads[i].tid, .at = i };
	qsort(ix, (size_t)kv->nthreads, sizeof(*ix), tid_at_cmp);
	for (int i = 0; i < kv->nthreads; i++) {	/* one entry a tid: the latest */
		if (k && ix[k - 1].tid == ix[i].tid) {
			if (kv->threads[ix[i].at].begin_ns > kv->threads[ix[k - 1].at].begin_ns)
				ix[k - 1].at = ix[i].at;
			continue;
		}
		ix[k++] = ix[i];
	}
	*n = k;
	return ix;
}

const struct fct_thread *kview_tids_find(const struct kview *kv, const struct kv_tid_at *ix,
					 int n, uint32_t tid)
{
	struct kv_tid_at key = { .tid = tid }, *hit;

	if (!ix)
		return kview_thread(kv, tid);
	hit = bsearch(&key, ix, (size_t)n, sizeof(*ix), tid_at_cmp);
	return hit ? &kv->threads[hit->at] : NULL;
}

static int sc_hist_cmp(const void *a, const void *b)
{
	const struct fct_sc_hist_key *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->nr < y->nr ? -1 : x->nr > y->nr;
}

void kview_sort_sc_hists(struct kview *kv)
{
	if (kv->nsc_hists > 1)
		qsort(kv->sc_hists, (size_t)kv->nsc_hists, sizeof(*kv->sc_hists), sc_hist_cmp);
}

const struct fct_sc_hist *kview_sc_hist(const struct kview *kv, uint32_t tid, uint32_t nr)
{
	struct fct_sc_hist_key key = { .tid = tid, .nr = nr };
	const struct kv_sc_hist *h;

	if (!kv->nsc_hists)
		return NULL;
	h = bsearch(&key, kv->sc_hists, (size_t)kv->nsc_hists, sizeof(*kv->sc_hists),
		    sc_hist_cmp);
	return h ? &h->val : NULL;
}

/* Scale a syscall number's weighted total to its exact count: the mean
 * of the timed calls, weighted, times the calls made. */
static void scale_to_count(struct fct_nr_stats *s, const struct fct_sc_hist *h)
{
	uint64_t w = 0;

	for (int i = 0; i < FCT_HIST_SLOTS; i++)
		w += h->hist[i];
	if (w && w != s->count)
		s->total_ns = (uint64_t)((double)s->total_ns / (double)w * (double)s->count);
}

/*
 * The [A] buckets of one account from what the BPF side booked (see
 * struct fct_thread): the on-CPU part of futex waits moves to the futex
 * bucket, and the rest is split into user and sys by the cpu-clock
 * samples' ratio, or without enough samples by the syscall hooks'
 * estimate of on-CPU time inside syscalls (never more than what is
 * left; it misses the entry and exit paths, interrupts and page faults,
 * which then count as user). The buckets still tile the window.
 */
struct kv_derived kview_derived(const struct fct_thread *t)
{
	uint64_t oncpu = t->oncpu_ns, futex_on = t->futex_on_ns, left;
	uint64_t samples = t->cpu_samples_user + t->cpu_samples_sys;
	struct kv_derived d = { 0 };

	if (futex_on > oncpu)
		futex_on = oncpu;
	left = oncpu - futex_on;
	d.futex_wait_ns = t->futex_off_ns + futex_on;
	d.cpu_split_sampled = samples >= FCT_CPU_MIN_SAMPLES;
	if (d.cpu_split_sampled)
		d.cpu_sys_ns = (uint64_t)((unsigned __int128)left * t->cpu_samples_sys / samples);
	else
		d.cpu_sys_ns = t->sys_on_est_ns < left ? t->sys_on_est_ns : left;
	d.cpu_user_ns = left - d.cpu_sys_ns;
	return d;
}

void kview_scale(struct kview *kv)
{
	int n;
	struct kv_tid_at *ix = kview_tids_sorted(kv, &n);

	for (int i = 0; i < kv->nsc_hists; i++) {
		const struct kv_sc_hist *h = &kv->sc_hists[i];
		struct fct_thread *t = (struct fct_thread *)kview_tids_find(kv, ix, n, h->key.tid);
		struct fct_nr_stats *s = t ? acct_nr_had(t, h->key.nr) : NULL;

		if (s)
			scale_to_count(s, &h->val);
	}
	free(ix);
}

/* The thread tid's exact kernel lock waits and time, over every account
 * it had (a reused tid's windows share its klock map entries). */
static bool klock_exact(const struct kview *kv, uint32_t tid, uint64_t *waits, uint64_t *ns)
{
	bool found = false;

	*waits = *ns = 0;
	for (int i = 0; i < kv->nthreads; i++) {
		if (kv->threads[i].tid != tid)
			continue;
		*waits += kv->threads[i].klock_waits;
		*ns += kv->threads[i].klock_wait_ns;
		found = true;
	}
	return found;
}

/* The share of exact that a running sum `cum` of estimates out of `all`
 * reaches: differences of these add up to exact, with no rounding loss. */
static uint64_t share_of(uint64_t exact, uint64_t cum, uint64_t all)
{
	return all ? (uint64_t)((unsigned __int128)exact * cum / all) : 0;
}

/* The part of exact that a site with estimate est gets, after sites
 * that estimated cum before it, of all: the parts add up to exact. */
static uint64_t split(uint64_t exact, uint64_t est, uint64_t *cum, uint64_t all)
{
	uint64_t from = share_of(exact, *cum, all);

	*cum += est;
	return share_of(exact, *cum, all) - from;
}

/* Split one thread's exact totals over its sites (from index first on),
 * by their estimated times; by their weighted waits if none of its
 * sampled waits took a measurable time. */
static void attribute_tid(struct kview *kv, int first, uint64_t xwaits, uint64_t xns)
{
	uint32_t tid = kv->klock[first].key.tid;
	uint64_t all_ns = 0, all_w = 0, cum_ns = 0, cum_w = 0, cum_by_w = 0;

	for (int i = first; i < kv->nklock; i++)
		if (kv->klock[i].key.tid == tid) {
			all_ns += kv->klock[i].est_wait_ns;
			all_w += kv->klock[i].est_waits;
		}
	for (int i = first; i < kv->nklock; i++) {
		struct kv_klock *k = &kv->klock[i];

		if (k->key.tid != tid)
			continue;
		k->val.wait_ns = all_ns ? split(xns, k->est_wait_ns, &cum_ns, all_ns)
					: split(xns, k->est_waits, &cum_by_w, all_w);
		k->val.waits = split(xwaits, k->est_waits, &cum_w, all_w);
	}
}

static bool tid_seen_before(const struct kview *kv, int i)
{
	for (int j = 0; j < i; j++)
		if (kv->klock[j].key.tid == kv->klock[i].key.tid)
			return true;
	return false;
}

void kview_klock_attribute(struct kview *kv)
{
	uint64_t xwaits, xns;

	for (int i = 0; i < kv->nklock; i++) {
		kv->klock[i].est_waits = kv->klock[i].val.waits;
		kv->klock[i].est_wait_ns = kv->klock[i].val.wait_ns;
	}
	for (int i = 0; i < kv->nklock; i++)
		if (!tid_seen_before(kv, i) && klock_exact(kv, kv->klock[i].key.tid, &xwaits, &xns))
			attribute_tid(kv, i, xwaits, xns);
}
