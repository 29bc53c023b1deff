/*
 * held.h - the holder's side of a lock in words, from what the holders
 * probes measured (join/holders.h): how busy the lock was, what its
 * holders did inside it, what the waiters waited behind, and the
 * hand-off. One chain for every lock of every program: the rules for
 * fctrace's own pool and for any other program's locks both use it.
 */
#ifndef FCTRACE_HELD_H
#define FCTRACE_HELD_H

#include <stddef.h>
#include "explain/explain.h"

/* Where the run's threads and CPUs come in. */
struct held_ctx {
	double wall_ns;		/* the run's window */
	double thread_ns;	/* all threads' time: the shares' denominator */
	unsigned threads, ncpus;
};

/* The state the holders spent the most of the held time in. */
enum hold_state held_main_state(const struct lock_holders *h);
/* The share of the held time in one state (0 when nothing was held). */
double held_share(const struct lock_holders *h, enum hold_state s);
/* "in syscalls (openat, newfstatat, close)", "preempted", ... */
void held_state_words(char *buf, size_t n, const struct lock_holders *h, enum hold_state s);
/* The chain's sentences: busy, inside, the cap, behind whom the waiters
 * waited, the hand-off. */
void held_evidence(struct diag_cause *c, const struct lock_total *l, const struct held_ctx *x);
/* What to change, for the state the holders spent the most time in. */
void held_fix(char *buf, size_t n, const struct lock_total *l);

#endif
