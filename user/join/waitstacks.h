/*
 * waitstacks.h - the wait flame graph of a program fctrace did not write:
 * each sampled futex wait's whole user stack (unwound as it arrives, by
 * usym), counted per (thread, word, op); at the end each stack of a
 * (thread, word, op) gets that entry's measured wait time divided by its
 * samples, a word without samples one "[not sampled]" frame, and each
 * kernel lock site its stack's kernel frames with the site's time. So
 * the graph's total is the lock table's.
 */
#ifndef FCTRACE_WAITSTACKS_H
#define FCTRACE_WAITSTACKS_H

#include <stddef.h>
#include "fctrace.h"
#include "join/join.h"
#include "join/stacks.h"
#include "trace/kview.h"
#include "trace/usym.h"

struct waitstacks;

struct waitstacks *waitstacks_new(void);
void waitstacks_free(struct waitstacks *ws);

/* One sampled wait of e's (thread, word, op), its frames innermost
 * first (n may be 0: it could not be unwound). */
void waitstacks_add(struct waitstacks *ws, const struct fct_ustack *e, const struct uframe *f,
		    int n);

/* The weighted stacks of kv's futex waits (named by names[]) and
 * kernel lock sites into out (emptied first). 0, or -1. */
int waitstacks_build(struct waitstacks *ws, const struct kview *kv,
		     const struct lock_name *names, int nnames, struct stack_set *out);

#endif
