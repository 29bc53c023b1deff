/*
 * semlock.h - semaphores used as locks, told apart from semaphores used
 * as events by who wakes their waiters (the futex wakes on their words,
 * across the traced processes).
 */
#ifndef FCTRACE_SEMLOCK_H
#define FCTRACE_SEMLOCK_H

#include "join/join.h"
#include "join/wordindex.h"

/* For each name of kind LK_SEMAPHORE: make it a lock (is_lock, turns) when
 *  - its wakes come mostly from threads that wait on it too, and two or
 *    more threads wait on it: a count that goes 1 -> 0 -> 1 around a
 *    short section, posted by the thread that took it (a mutex); or
 *  - it is one thread's own semaphore, woken mostly by threads that wait
 *    on their own semaphores too, three or more of them: the wait queue
 *    of a lock whose releaser wakes the next waiter (PostgreSQL's
 *    LWLocks sleep on each backend's semaphore this way).
 * A semaphore posted by threads that never wait on one stays an event
 * (a producer handing work on). ix: the view's index (wordindex.h). */
void semlock_classify(const struct kv_index *ix, struct lock_name *names, int n);

#endif /* FCTRACE_SEMLOCK_H */
