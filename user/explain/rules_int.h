/*
 * rules_int.h - what the rule files share: rules.c ranks the findings,
 * facts.c sums the run and holds the helpers, rules_lock.c, rules_io.c and
 * rules_cpu.c each hold one family of rules. Internal to explain/.
 */
#ifndef FCTRACE_RULES_INT_H
#define FCTRACE_RULES_INT_H

#include <stdbool.h>
#include <stddef.h>
#include "explain/explain.h"
#include "explain/held.h"
#include "explain/roles.h"

#define PRINTF(f, a) __attribute__((format(printf, f, a)))

/* The model, summed once. */
struct facts {
	const struct joined_run *m;	/* the threads the shares are of */
	const struct joined_run *whole;	/* every thread (m, or m's superset) */
	const struct thread_roles *roles;	/* of whole's rows (= m's rows) */
	const struct subject_config *cfg;	/* the subject's own settings and */
	const struct subject_totals *tot;	/* counters: zero when it timed nothing */
	bool kernel, sched, sc, klock, pc;	/* what the kernel view measured */
	/* the program's own figures, where it handed them in: its ops
	 * counted, its file set, the futex words of its locks named */
	bool ops_counted, file_set, locks_named;
	double wall;		/* sum of worker wall times: the shares' denominator */
	double kwall;		/* the same over the workers the kernel saw */
	unsigned threads, ncpus, files;
	/* the workload's own clocks */
	double ops, hits, misses, acquires, contended, sc_in_lock;
	double lock_wait, lock_hold, read, miss_read;
	/* the kernel's per-thread counts */
	double pages_asked, invol, vol;
	double blocked_io, stopped;	/* of the blocked time: uninterruptible, stopped */
	double runq_in_wait;	/* runnable inside futex waits: woken, no CPU yet */
	/* the disk (its group ran: disk): the requests the threads caused,
	 * their time with a read in flight, and the pages pread64 read past
	 * the page cache (files open O_DIRECT; the syscalls group) */
	bool disk;
	double disk_reads, disk_read_bytes, disk_read_ns, disk_writes;
	double disk_write_bytes, disk_write_ns, disk_flushes;
	double pages_direct;
};

/* What a finding covers, so "not the problem" does not repeat it. */
enum { COV_LOCK = 1, COV_PC = 2, COV_BLOCKED = 4, COV_RUNQ = 8, COV_KLOCK = 16,
       COV_EVENT = 32, COV_CACHE = 64, COV_DISK = 128, COV_BLOCKS = 256, COV_CONNS = 512,
       COV_CHURN = 1024 };

struct finding {
	struct diag_cause c;
	unsigned covers;
	bool machine;		/* the machine's share (cores), not the code's */
	bool setting;		/* its fix is a setting with a measured value (a
				 * cache's or pool's size), not a change of code */
	char fix[400];
};

/* facts.c: the sums, and the helpers a rule writes its finding with */
double kshare(const struct facts *f, enum acct_bucket b);
void set_title(struct finding *o, const char *fmt, ...) PRINTF(2, 3);
void set_fix(struct finding *o, const char *fmt, ...) PRINTF(2, 3);
void found(struct finding *o, const char *id, double share, double conf, unsigned covers);
void facts_init(struct facts *f, const struct joined_run *m);
double lock_wait_ns(const struct facts *f);
double lock_share(const struct facts *f);
double conf_lock(const struct facts *f);
const struct lock_total *top_lock(const struct joined_run *m, bool kernel, int *n);
/* The mean time of a call of syscall numbers a and b together (a == b: one). */
double sc_mean(const struct joined_run *m, int a, int b);

/* the rules, one per cause: each fills o and returns true when its cause
 * holds at least EXPLAIN_MIN_SHARE of the threads' time (rules.c ranks
 * them) */
bool rule_pool(const struct facts *f, struct finding *o);
bool rule_cache(const struct facts *f, struct finding *o);
bool rule_user_lock(const struct facts *f, struct finding *o);
bool rule_event_wait(const struct facts *f, struct finding *o);
bool rule_gc(const struct facts *f, struct finding *o);
bool rule_stopped(const struct facts *f, struct finding *o);
bool rule_pagecache(const struct facts *f, struct finding *o);
bool rule_blocked_other(const struct facts *f, struct finding *o);
/* rules_disk.c: reads the disk served past the page cache (O_DIRECT) */
bool rule_disk_reads(const struct facts *f, struct finding *o);
double disk_direct_ns(const struct facts *f);	/* their time, 0 below the floor */
/* rules_proc.c: sleeps another traced process ended (a latch) */
bool rule_sibling_wait(const struct facts *f, struct finding *o);
double sibling_wait_ns(const struct facts *f);
/* rules_cache.c: a program's handle cache smaller than its working set */
bool rule_handle_cache(const struct facts *f, struct finding *o);
/* and when it is below the floor, a phrase for "Not the problem" (false: none) */
bool cache_below_floor(const struct facts *f, char *buf, size_t n);
/* and a block cache it keeps (its positional reads re-read blocks) */
bool rule_block_cache(const struct facts *f, struct finding *o);
bool rule_process_churn(const struct facts *f, struct finding *o);
/* rules_churn.c: of bucket b, the time of the processes the churn made
 * (0 when it is no cause): the run-queue and sleep rules leave it to it */
double churn_ns(const struct facts *f, enum acct_bucket b);
/* and below the floor, a phrase for "Not the problem" (false: none) */
bool blocks_below_floor(const struct facts *f, char *buf, size_t n);
double blocks_disk_ns(const struct facts *f);	/* of its time, the O_DIRECT re-reads' */
/* the waits on locks (is_lock) or events it counts as its re-reads' (the
 * waker had just read a block), which the lock and event rules leave to
 * it; 0 when it is no cause */
double blocks_wait_ns(const struct facts *f, bool is_lock);
bool rule_conns(const struct facts *f, struct finding *o);	/* rules_conns.c */
bool rule_proxy_pool(const struct facts *f, struct finding *o);	/* rules_proxy.c */
double conns_apart_ns(const struct facts *f);	/* its time, which the sleeps' rule leaves */
/* wakers_ev.c: who ended a lock's or event's waits, after what call */
void ev_word_wakers(struct diag_cause *c, const struct facts *f, const struct lock_total *l);
/* where the run's waits end, followed through the wakers' own waits
 * (join/waitroots.c): the first roots with their accounts and the call
 * each slept in most */
void ev_roots(struct diag_cause *c, const struct joined_run *m);
/* rules_durable.c: time asleep in fsync, fdatasync ... */
bool rule_durable_writes(const struct facts *f, struct finding *o);
double durable_ns(const struct facts *f);
void durable_calls(const struct facts *f, char *buf, size_t len);
/* rules_cpu.c's figures that the healthy verdict and the ranking reuse */
void ev_oncpu(struct diag_cause *c, const struct facts *f);
bool rule_runq(const struct facts *f, struct finding *o);
double klock_wait_ns(const struct joined_run *m);

bool rule_klock(const struct facts *f, struct finding *o);
/* The other processes that took the CPUs, largest first (rules_cpu.c). */
void ev_competitors(struct diag_cause *c, const struct facts *f);

/* rules_pool.c: a pool of N its threads queue for (join/pools.h); the
 * pool a lock or event is, if any; the pools' waits on locks (is_lock)
 * or on events, which the lock and event rules leave to it */
bool rule_pool_of_n(const struct facts *f, struct finding *o);
const struct pool_row *pool_of_lock(const struct joined_run *m, const struct lock_total *l);
double pool_wait_ns(const struct facts *f, bool is_lock);

/* rules_thread.c: a thread saturated, on CPU or runnable most of its window */
bool rule_saturated(const struct facts *f, struct finding *o);

/* rules_cache.c: the known setting a cause's fix changes (knobs.h), its
 * name into c->knob and the value it is given into the figure fix_value */
void cause_knob(struct diag_cause *c, const char *name, double value);

#endif
