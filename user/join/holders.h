/*
 * holders.h - what the holders of a contended user lock did while they
 * held it, from the holders probes (bpf/holders.bpf.h), as one partition
 * of the time held and the same partition of the waiters' time:
 *
 *   held = syscall + blocked + preempted + user + waiting
 *
 *   syscall    on CPU inside syscalls (futex waits on other words aside),
 *              their entry and exit paths included (timed between two
 *              calls, holders_span_user_share; elsewhere sampled and
 *              calibrated in place: holders_edge_share), and preempted
 *              on the way back or between two calls
 *   blocked    asleep holding it: I/O, a page-cache miss, a sleep, a fault
 *   preempted  runnable but not running: inside a syscall or in user space
 *   user       on CPU in user space (estimated from cpu-clock samples),
 *              with the faults and interrupts it took: kernel samples
 *              past what its syscalls' paths can take (holders.c)
 *   waiting    in a futex wait on another word: another lock, a chain
 *
 * The syscalls and every interval off CPU are exact (the owner field is
 * read at the holder's own state edges); on-CPU time outside syscalls is
 * sampled at FCT_CPUCLOCK_HZ, so held is an estimate whose error is that
 * of the sampled part. Each figure also comes weighted by the waiters
 * queued meanwhile (`waited`): of the waiters' time, how much passed
 * while the holder was in each state; the rest of it passed with the
 * lock released and the next waiter not yet running: the hand-off.
 */
#ifndef FCTRACE_HOLDERS_H
#define FCTRACE_HOLDERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "fctrace.h"

/* syscalls kept by number per lock, the most frequent first */
#define HOLDERS_MAX_NR	24

/* the other locks its holders waited for (a chain), named by the join */
#define HOLDERS_MAX_CHAIN	FCT_HOLD_CHAIN

struct hold_chain {
	uint64_t uaddr;		/* the word or monitor (0 after a load) */
	uint32_t tgid;
	char lock[160];		/* its name ("" until the join names it) */
	bool is_lock;		/* a lock (not a condvar's word, not unknown) */
	uint64_t count;
	double ns;		/* futex waits on it, entry to exit */
};

enum hold_state { HS_SYSCALL, HS_BLOCKED, HS_PREEMPTED, HS_USER, HS_WAITING, HS_N };

struct hold_nr {
	uint16_t nr;
	uint64_t count;		/* exact */
	double ns;		/* entry to exit, as the tracepoints see it */
};

struct lock_holders {
	bool measured;		/* a watched word of this lock */
	bool java;		/* its words are HotSpot ObjectMonitors */
	unsigned words;		/* futex words summed into it */
	double held_ns;		/* sum of state_ns */
	double state_ns[HS_N];
	double waited_ns[HS_N];	/* the waiters' time while the holder was in each */
	double waiter_ns;	/* all the waiters' time on its words (the futex waits) */
	double contended_ns;	/* held while at least one thread waited */
	uint64_t samples;	/* cpu-clock samples behind user (and the paths) */
	uint64_t syscalls;	/* made holding it, exact */
	struct hold_nr nr[HOLDERS_MAX_NR];
	int nnr;
	uint64_t waits;		/* futex waits on its words (holders' view) */
	struct hold_chain chain[HOLDERS_MAX_CHAIN];	/* the most waited for first */
	int nchain;
	/* of the syscalls' time: the disk requests the holders submitted and
	 * waited for inside them (submission to completion), and the waiters'
	 * time meanwhile; measured only with the disk group */
	bool disk_measured;
	uint64_t disk_ios;
	double disk_ns, disk_waited_ns;
};

/* Of a word's kernel-mode samples outside syscalls, the share that can
 * be its charged syscalls' entry and exit paths (the rest: faults and
 * interrupts in its holders' user code, counted as user). */
double holders_path_share(const struct fct_hold_lock *k);
/* Of its user-mode samples, the share that is its syscalls' paths seen
 * late (calibrated by the shortest exit-to-entry span measured). */
double holders_edge_share(const struct fct_hold_lock *k);
/* Of the time its spans from a charged exit to the next edge took past
 * their bound (span_user), the share that is user work, not interrupts
 * in the paths: the share of the samples inside the spans in user mode. */
double holders_span_user_share(const struct fct_hold_lock *k);
/* Add one watched word's figures to h; disk: the disk group ran (its
 * requests' figures are measured). */
void holders_add(struct lock_holders *h, const struct fct_hold_lock *k, bool disk);
/* Name chain entries still unnamed: namer(arg, tgid, uaddr, buf, n)
 * writes the name and says whether it is a lock's. */
typedef bool (*hold_namer_fn)(const void *arg, uint32_t tgid, uint64_t uaddr, char *buf,
			      size_t n);
void holders_name_chain(struct lock_holders *h, hold_namer_fn namer, const void *arg);
/* After the last holders_add and waiter_ns: every figure in whole
 * nanoseconds, as the JSON keeps them, so that a saved run computes the
 * same what-ifs as the run did. */
void holders_whole_ns(struct lock_holders *h);
/* After the last holders_add: waiters' time not spent behind a holder in
 * a known state is hand-off; with waiter_ns the futex waits' own total. */
double holders_handoff_ns(const struct lock_holders *h);
/* "syscalls", "blocked", ... (the JSON keys, without _ns) */
const char *hold_state_name(enum hold_state s);
/* How held_ns was had, one sentence. */
const char *holders_method(const struct lock_holders *h);

#endif
