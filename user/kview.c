/*
 * kview.c - the kernel view's small helpers.
 */
#include <stdlib.h>
#include "kview.h"

/* Free what tracer_read allocated; probe status and load time stay. */
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
