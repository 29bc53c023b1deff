/*
 * kview.c - the kernel view's small helpers.
 */
#include <stdlib.h>
#include "kview.h"

/* Free what tracer_read allocated; the probe status stays. */
void kview_free(struct kview *kv)
{
	if (!kv)
		return;
	free(kv->threads);
	free(kv->futex);
	free(kv->klock);
	free(kv->pc);
	kv->threads = NULL;
	kv->futex = NULL;
	kv->klock = NULL;
	kv->pc = NULL;
	kv->nthreads = kv->nfutex = kv->nklock = kv->npc = 0;
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

/* Scale a syscall kind's weighted total to its exact count: the mean
 * of the timed calls, weighted, times the calls made. */
static void scale_to_count(struct fct_sc_stats *s)
{
	uint64_t w = 0;

	for (int i = 0; i < FCT_HIST_SLOTS; i++)
		w += s->hist[i];
	if (w && w != s->count)
		s->total_ns = (uint64_t)((double)s->total_ns / (double)w * (double)s->count);
}

/*
 * The [A] buckets of one account from what the BPF side booked (see
 * struct fct_thread): the on-CPU part of futex waits moves to the futex
 * bucket, and the estimated on-CPU time in other syscalls (never more
 * than what is left) to cpu_sys. The buckets still tile the window.
 */
void kview_derive(struct fct_thread *t)
{
	uint64_t oncpu = t->oncpu_ns, futex_on = t->futex_on_ns, left;

	if (futex_on > oncpu)
		futex_on = oncpu;
	left = oncpu - futex_on;
	t->futex_wait_ns = t->futex_off_ns + futex_on;
	t->cpu_sys_ns = t->sys_on_est_ns < left ? t->sys_on_est_ns : left;
	t->cpu_user_ns = left - t->cpu_sys_ns;
	for (int i = 0; i < FCT_SC_N; i++)
		scale_to_count(&t->sc[i]);
}
