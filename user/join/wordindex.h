/*
 * wordindex.h - a kernel view's futex entries, threads and named words,
 * indexed for lookups: a target of 10 000 threads has some 100 000
 * entries, and questions asked of every entry for every word or thread
 * (words x entries x threads) took 45 s. Each index is built once, in
 * O(n log n), and answers in O(log n) plus what it returns.
 */
#ifndef FCTRACE_WORDINDEX_H
#define FCTRACE_WORDINDEX_H

#include "trace/kview.h"
#include "join/join.h"

struct kv_index {
	const struct kview *kv;
	int *by_addr;		/* futex entries by (word, place in the view) */
	int *by_tid;		/* futex entries by (thread, place in the view) */
	int *threads;		/* kv->threads by tid, a reused tid's latest only */
	int nthreads;
};

/* 0, or -1 out of memory (then nothing is held). */
int kv_index_build(struct kv_index *ix, const struct kview *kv);
void kv_index_free(struct kv_index *ix);

/* kview_thread's answer: the thread tid that began last, or NULL. */
const struct fct_thread *kv_index_thread(const struct kv_index *ix, uint32_t tid);
/* Its process, 0 when unknown. */
uint32_t kv_index_tgid(const struct kv_index *ix, uint32_t tid);

/* The entries on words in [lo, hi) are kv->futex[ix->by_addr[k]] for k
 * in [*from, *to), in the view's order for each word. */
void kv_index_words(const struct kv_index *ix, uint64_t lo, uint64_t hi, int *from, int *to);
/* Thread tid's entries: kv->futex[ix->by_tid[k]], k in [*from, *to). */
void kv_index_tid(const struct kv_index *ix, uint32_t tid, int *from, int *to);

/* Named words by (process, address): a word's name is the first in the
 * array whose words [addr, addr + size) hold it, as a scan would find. */
struct name_index {
	const struct lock_name *names;
	int *order;		/* names by (tgid, addr, place) */
	int n;
	uint64_t max_size;	/* the largest object: how far back a search looks */
};

int name_index_build(struct name_index *ix, const struct lock_name *names, int n);
void name_index_free(struct name_index *ix);
const struct lock_name *name_index_find(const struct name_index *ix, uint32_t tgid,
					uint64_t uaddr);
/* The same among the names ok accepts (their text may change between
 * lookups: the index holds places and addresses only). */
const struct lock_name *name_index_find_if(const struct name_index *ix, uint32_t tgid,
					   uint64_t uaddr, bool (*ok)(const struct lock_name *));

/* A joined run's user locks by name (the kernel's sites sort after them
 * and are never found): the lock a row's use names, for a server's
 * 10 000 uses of 10 000 words, without their product of compares. */
struct lock_index {
	const struct lock_total *locks;
	int *order;		/* NULL: no memory, lookups walk */
	int n;			/* the user locks: order's first n */
	int nlocks;
};

/* 0, or -1 out of memory (then lock_index_find walks the locks). */
int lock_index_build(struct lock_index *ix, const struct lock_total *locks, int nlocks);
void lock_index_free(struct lock_index *ix);
/* The place in locks of the user lock named name, or -1. */
int lock_index_find(const struct lock_index *ix, const char *name);

#endif /* FCTRACE_WORDINDEX_H */
