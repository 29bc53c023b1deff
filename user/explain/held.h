/*
 * held.h - the holder's side of a lock in words, from what the holders
 * probes measured (join/holders.h): how busy the lock was, what its
 * holders did inside it, what the waiters waited behind, and the
 * hand-off. One chain for every lock of every program: the rules for
 * fctrace's own pool and for any other program's locks both use it.
 */
#ifndef FCTRACE_HELD_H
#define FCTRACE_HELD_H

#include <stdbool.h>
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
/* The key of a figure "share of OF's time in state s", into buf:
 * "holders_syscall_share" (of the time held), "behind_syscall_share" (of
 * the waiters' time behind a holder in it), "wakers_syscall_share", ... */
const char *held_state_key(char *buf, size_t n, const char *of, enum hold_state s);
/* The chain's figures into c (held_evidence sets them too): a rule that
 * must keep them among a cause's EXPLAIN_MAX_FIGS sets them first. */
void held_figures(struct diag_cause *c, const struct lock_total *l, const struct held_ctx *x);
/* The chain's sentences: busy, inside, the cap, behind whom the waiters
 * waited, the hand-off. */
void held_evidence(struct diag_cause *c, const struct lock_total *l, const struct held_ctx *x);
/* A lock whose holders spend at least this share of the time held
 * asleep in calls that wait for time or input (epoll_wait, poll,
 * nanosleep ...) is a gate: it parks its waiters on purpose. */
#define HELD_GATE_SHARE	0.2
/* The time held spent so, and the call the holders slept in most
 * (*nr = -1: none). */
double held_parked_ns(const struct lock_holders *h, int *nr);
bool held_is_gate(const struct lock_holders *h);
/* The gate's sentences and fix (is_gate must hold). */
void held_gate_evidence(struct diag_cause *c, const struct lock_total *l);
void held_gate_fix(char *buf, size_t n, const struct lock_total *l);
/* The disk's causes' link to the locks: the lock whose waiters waited
 * longest while a holder's disk request was in flight, as a sentence
 * into c ("2466 of these requests were submitted holding table_lock
 * ..."); nothing when no holder waited for the disk. */
void held_disk_link(struct diag_cause *c, const struct joined_run *m);
/* What to change, for the state the holders spent the most time in. */
void held_fix(char *buf, size_t n, const struct lock_total *l);

#endif
