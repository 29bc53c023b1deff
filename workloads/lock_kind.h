/*
 * lock_kind.h - what a lock or a wait is, as a type: set where the lock
 * is named (a workload's own locks, join/lockname.c's futex words, the
 * JVM's monitors and parks, the kernel's lock sites) and carried with its
 * figures, so that explain/ asks "of what kind is this lock?" and never
 * reads a display name. Shared by workloads/ (its named locks) and user/.
 */
#ifndef FCTRACE_LOCK_KIND_H
#define FCTRACE_LOCK_KIND_H

#include <stdbool.h>
#include <string.h>

enum lock_kind {
	LK_LOCK,	/* a futex word waited on as a lock is (FUTEX_WAIT, LOCK_PI)
			 * that no C library frame named: most likely a mutex */
	LK_MUTEX,	/* pthread_mutex_t, __lll_lock_wait */
	LK_RWLOCK,
	LK_CONDVAR,	/* waiting to be signalled */
	LK_SEMAPHORE,
	LK_BARRIER,
	LK_JOIN,	/* waiting for a thread to end (pthread_join, or a word
			 * each thread's exit woke) */
	LK_WAITV,	/* futex_waitv: several words at once */
	LK_MONITOR,	/* a Java monitor's contended enter */
	LK_OBJECT_WAIT,	/* Java's Object.wait */
	LK_PARK,	/* Java's LockSupport.park */
	LK_KERNEL,	/* a kernel lock site (type @ caller) */
	LK_SLEEP,	/* a timed sleep on a futex word: a JVM's Thread.sleep */
	LK_CONNECTIONS,	/* a proxy's pool of connections to a peer (no futex:
			 * its clients' requests wait in it for one) */
	LK_N,
};

/* The words the JSON uses for the kinds, in enum order (JSON-stable):
 * the saved run's tables read and write them (session/run_format.c). */
#define LOCK_KIND_NAMES { "lock", "mutex", "rwlock", "condvar", "semaphore", "barrier", \
			  "join", "futex_waitv", "monitor", "object_wait", "park", "kernel", "sleep", \
			  "connections" }

/* The word a lock's name and the JSON use for its kind: "mutex",
 * "condvar", "lock" ... */
static inline const char *lock_kind_name(enum lock_kind k)
{
	static const char *const names[LK_N] = LOCK_KIND_NAMES;

	return (unsigned)k < LK_N ? names[k] : "lock";
}

/* The kind named name (lock_kind_name's word); LK_LOCK when none is. */
static inline enum lock_kind lock_kind_of(const char *name)
{
	for (int k = 0; name && k < LK_N; k++)
		if (!strcmp(name, lock_kind_name((enum lock_kind)k)))
			return (enum lock_kind)k;
	return LK_LOCK;
}

/*
 * What a thread waits for when it waits on a lock or event: a holder to
 * let go (a lock, or an event its own waiters pass round: taken in turns,
 * is_lock), a signal that there is work (condvars, semaphores, barriers,
 * parks), a thread to end (a join), or time to pass (a sleep). The
 * rules rank the first as contention; the others are no cause of their
 * own (a sleep is the thread's own pacing, as nanosleep is).
 */
enum wait_class { WAIT_LOCK, WAIT_EVENT, WAIT_EXIT, WAIT_TIME };

static inline enum wait_class wait_class_of(enum lock_kind k, bool is_lock)
{
	if (is_lock)
		return WAIT_LOCK;
	return k == LK_JOIN ? WAIT_EXIT : k == LK_SLEEP ? WAIT_TIME : WAIT_EVENT;
}

#endif /* FCTRACE_LOCK_KIND_H */
