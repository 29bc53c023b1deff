/*
 * pools.h - pools of N in a program fctrace did not write: a semaphore
 * of N permits, a free list a condvar guards - an object that threads
 * queue on for one of N items and that the holders themselves give back.
 * Measured from outside (bpf/pools.bpf.h): the waits, the holds the
 * woken waiters take (from their wake-up to the wake they give back),
 * and what the holders do meanwhile; the capacity follows by Little's
 * law, and a model of the threads' cycle predicts other capacities and
 * thread counts.
 */
#ifndef FCTRACE_POOLS_H
#define FCTRACE_POOLS_H

#include <stdint.h>
#include "fctrace.h"
#include "join/holders.h"
#include "lock_kind.h"

#define POOLS_MAX		8	/* pools kept, the most waited for first */
#define POOL_WHATIF_MAX		10
/* Little's estimate from which an object is a pool (of two or more), and
 * the same when the holds were stretched by the run queue (PC_CPU_BOUND) */
#define POOL_MIN_ITEMS			1.5
#define POOL_MIN_ITEMS_CPU_BOUND	2.5
/* waiters a release wakes on average, at most: a pool's give wakes one
 * (sem_post, pthread_cond_signal); more is a broadcast passing a turn */
#define POOL_MAX_WOKEN			1.5
/* the share of releases that wake every waiter, at most: past it the
 * object passes turns. A pool whose give broadcasts (every waiter woken
 * to recheck) is not told from a baton so: it stays a condvar taken in
 * turns (docs/pools.md) */
#define POOL_MAX_BROADCASTS		0.5
/* holds seen whole before an object is called a pool: fewer make a
 * noisy mean (a baton three threads pass round showed 20 - 26 long ones
 * and read 3.6 - 4.9) */
#define POOL_MIN_HOLDS		64
/* the threads' run-queue share above which their holds are stretched by
 * waiting for a CPU and a capacity is not read from them */
#define POOL_CPU_BOUND_SHARE	0.25

/* How a pool's capacity was had. */
enum pool_capacity_how {
	PC_LITTLE,	/* releases x mean hold / time with a waiter */
	PC_CPU_BOUND,	/* not: the holds are stretched by the run queue */
	PC_NOT_QUEUED,	/* at most: its threads not queued (pools_jvm.c) */
	PC_COUNTED,	/* counted: a proxy's connections to its peer (pools_proxy.c) */
	PC_N
};
extern const char *const pool_capacity_how_names[PC_N];	/* JSON ids */

/* Another capacity or thread count, and the wall time the same work
 * would take with it. */
struct pool_whatif {
	unsigned capacity;	/* 0: not known (the capacity of the run) */
	unsigned threads;
	double wall_ns;
};

struct pool_row {
	char name[160];		/* its object's name in the lock table */
	char peer[112];		/* connections: what the proxy's pool connects to */
	enum lock_kind kind;
	uint32_t tgid;
	unsigned threads;	/* threads that waited on it */
	uint64_t waits, wait_ns;	/* futex waits on it (the lock table's) */
	uint64_t releases;	/* futex wakes on it: items given back to a queue */
	uint64_t queued_releases;	/* of those, while a thread waited on it */
	uint64_t holds;		/* holds seen whole (a woken waiter's) */
	uint64_t retries;	/* wake-ups that found no item (waited again) */
	uint64_t queued_ns;	/* time with a thread waiting */
	unsigned max_holding;	/* most holds seen open at once with a waiter */
	double hold_ns;		/* mean hold, wake-up to the wake that gives it back */
	double state_ns[HS_N];	/* of the mean hold: syscall, blocked, preempted,
				 * user, waiting (holders.h) */
	double waiters_mean;	/* over the window */
	double holders_mean;	/* items held, over the window (Little) */
	double capacity_est;	/* releases x hold_ns / queued_ns */
	double capacity_low;	/* PC_NOT_QUEUED: its low bound (woken waiters
				 * not yet running counted queued); else
				 * capacity_est */
	unsigned capacity;	/* rounded; 0 when not measured */
	enum pool_capacity_how how;
	/* the threads' cycle, per item given back: outside the pool, on CPU */
	double outside_ns, cpu_ns;
	double queue_cpu_ns;	/* of cpu_ns: on CPU in the futex calls of its
				 * waits and wakes, which fewer waits save */
	double runq_share;	/* the waiting threads' run-queue share */
	double window_ns;	/* the span the means are over */
	unsigned ncpus;		/* the CPUs the program had */
	/* connections: the peer's side when it is traced too (pools_peer.h):
	 * its processes and threads joined, the connections joined to them;
	 * state_ns[] is then the peer's, peer_wait_ns the rest of the mean
	 * hold (the peer waiting on the proxy), peer_work_share its work
	 * over the exchanges' time (past 1: scaled to it), peer_idle_share
	 * its threads' time waiting for a request */
	unsigned peer_processes, peer_threads, peer_connections;
	double peer_wait_ns, peer_work_share, peer_idle_share;
	struct pool_whatif whatif[POOL_WHATIF_MAX];
	int nwhatif;
};

struct joined_run;
struct kview;
struct thread_row;

/* m->pools from the kernel view's futex objects, named by m's lock names
 * (other programs'): allocated, maybe empty, when the pools were measured
 * (kv->pools_ran), NULL when not. 0, or -1 out of memory. */
int pools_build(struct joined_run *m, const struct kview *kv);
/* What a pool's threads did while not queued for it (pools_queue.c),
 * summed over them: the items held, an upper bound when the threads also
 * work outside the pool. */
struct pool_awake {
	double span_ns;		/* first start to last end of the threads */
	double items;		/* threads not queued, on average over the span */
	double items_low;	/* the same, a woken waiter's runnable time queued */
	double state_ns[HS_N];	/* that time, by what the threads did */
	double oncpu_ns, runq_ns, thread_ns;
	double queue_cpu_ns;	/* on CPU in futex calls: waits' and wakes' */
};
/* p[0..n), the threads of the pool whose waits are named group. */
void pool_awake_sum(struct pool_awake *a, const struct thread_row *const *p, unsigned n,
		    const char *group);
/* Park blockers that are locks (a pool of one): ReentrantLock ... */
bool pool_blocker_is_lock(const char *name);

/* m->pools, the most waited for first, at most POOLS_MAX. */
void pools_rank(struct joined_run *m);
/* row appended to m->pools; 0, or -1 out of memory. */
int pools_append(struct joined_run *m, const struct pool_row *row);
/* The proxies' pools of connections (kv->flows, trace/sockinv.h)
 * appended to m->pools, ranked again: after the rows are joined. 0, or
 * -1 out of memory. */
int pools_add_proxies(struct joined_run *m, const struct kview *kv);
/* A JVM's pools whose waiters sleep each on a word of their own (an
 * Object.wait latch, a park on a Semaphore or a deque), from the agent's
 * groups of waits (join_sites.c) and the kernel's accounts, appended to
 * m->pools: after the JVM's join. 0, or -1 out of memory. */
int pools_add_jvm(struct joined_run *m);

/* The model: items given back per second with capacity n and t threads,
 * for a cycle of hold h and outside z (uncontended ns), cpu ns on CPU
 * per item and ncpus CPUs. */
double pool_rate(double n, double t, double h, double z, double cpu, unsigned ncpus);
/* A thread's time on CPU in futex calls: inside its waits (going to
 * sleep, waking up) and in its wakes - what a queue's waits cost it. */
double pool_futex_cpu(const struct fct_thread *k);
/* The what-if rows of p (its capacity, threads, hold, cycle and CPUs set). */
void pool_whatifs(struct pool_row *p);
/* Whether the model puts p's threads at their CPUs' bound: its items,
 * given back as fast as the holds allow, would take more CPU than the
 * CPUs have (more items would not help). */
bool pool_cpu_bound(const struct pool_row *p);
/* The smallest capacity whose predicted wall is within 10 % of the
 * best the what-ifs found at p's thread count; 0 when none is known. */
unsigned pool_capacity_enough(const struct pool_row *p);

#endif
