/*
 * join.h - one run, joined: a row per thread the kernel accounted for,
 * whoever wrote the program, with what the subject timed of it beside
 * (an attachment, subject.h), plus the run-wide figures. explain/rules.c
 * and every reporter read only this.
 */
#ifndef FCTRACE_JOIN_H
#define FCTRACE_JOIN_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "join/subject.h"
#include "trace/kview.h"
#include "join/holders.h"
#include "join/losses.h"
#include "join/evictions.h"
#include "join/disk.h"
#include "join/caches.h"
#include "join/waitgraph.h"
#include "join/wakers.h"
#include "join/roots.h"
#include "join/pools.h"

#define MODEL_MAX_NAMED	16	/* named user locks shown per thread */

/* A syscall's figures, one thread's or summed over threads: its counts
 * and times by number (struct fct_nr_stats) with the shape of its timed
 * calls (struct fct_sc_hist). min_ns and max_ns are 0 when none was timed. */
struct sc_stats {
	uint64_t count;		/* exact */
	uint64_t errors;	/* exact */
	uint64_t timed;
	uint64_t total_ns;	/* estimate, scaled to count */
	uint64_t min_ns, max_ns;
	uint64_t blocked_ns;	/* asleep inside it, outside futex waits */
	uint32_t hist[FCT_HIST_SLOTS];	/* estimate: weights per slot */
};

/*
 * The rows of the saved run's "syscalls" objects (each thread's and the
 * run's): the built-in workloads' calls by name (futex_waitv with
 * futex), then "other", every other number summed. A view of the table
 * by number that the saved-run format keeps per thread; what the rules
 * and models read, they read by number (joined_run.nr_total).
 */
enum sc_row {
	SC_ROW_OPENAT,
	SC_ROW_CLOSE,
	SC_ROW_PREAD64,
	SC_ROW_NEWFSTATAT,
	SC_ROW_STATX,
	SC_ROW_FUTEX,
	SC_ROW_OTHER,
	SC_ROW_N,
};

/* Where a thread's wall time went; disjoint, as shares of its wall time. */
enum acct_bucket {
	ACCT_CPU_USER,		/* on CPU in user space */
	ACCT_CPU_SYS,		/* on CPU in syscalls */
	ACCT_LOCK_NAMED,	/* blocked in futex waits on the workload's named locks */
	ACCT_FUTEX_OTHER,	/* other futex waits (join, barrier, condvars) */
	ACCT_BLOCKED,		/* asleep outside futexes: I/O and the rest */
	ACCT_RUNQ,		/* runnable, waiting for a CPU */
	ACCT_N,
};
const char *acct_bucket_name(enum acct_bucket b);	/* JSON-stable ids */

/* A futex word of a program fctrace did not write, named (lockname.c). */
struct lock_name {
	uint32_t tgid;
	uint64_t addr, size;		/* the words [addr, addr + size) */
	char name[160];			/* "session_table_lock (mutex)", "condvar @ f+0x4a" */
	char site[128];			/* the first call site outside the C library, or "" */
	enum lock_kind kind;		/* what its frames (or its op) said it is */
	bool is_lock;			/* a mutex or rwlock, or an event taken in turns */
	bool turns;			/* an event its own waiters wake: a lock built
					 * from a condvar (a GIL, a baton) or a
					 * semaphore (semlock.h) */
	uint64_t samples;		/* stacks the name was read from */
	uint64_t wakes;			/* futex calls that woke a waiter on it */
	uint64_t wakes_by_waiters;	/* of those, by threads that also waited on it */
};

struct lock_use {		/* one thread's waits on one named futex word */
	char name[160];
	enum lock_kind kind;
	bool is_lock;			/* lock wait; else an event (condvar, join, ...) */
	uint64_t waits;
	uint64_t wait_ns;
	uint64_t max_ns;
	uint64_t runq_ns;		/* of wait_ns: woken, waiting for a CPU */
};

struct thread_row {
	pid_t tid;
	unsigned index;			/* the subject's numbering, else the kernel view's */
	uint64_t start_ns, end_ns;	/* its window: by the subject's own clock when it
					 * timed the thread, else the kernel account's */
	bool timed;			/* the subject timed it: own points at its timings */
	/* what the subject timed of it: an entry of the subject's timings
	 * (not owned, not copied: 10 KB a row); NULL when nothing. Read it
	 * through row_own, which gives zeros for NULL. */
	const struct thread_timings *own;
	bool has_kernel;		/* a kernel account was found by tid */
	struct fct_thread k;		/* the kernel's account of it (a saved run's:
					 * nr[] of the named rows' numbers only) */
	/* a saved run's: its syscalls by the named rows (SC_ROW_N of them,
	 * in the joined run's saved_sc), as the file kept them with their
	 * histograms; NULL in a live run, whose rows join_row_calls makes
	 * from the account when asked (7 KB a row kept for nothing) */
	struct sc_stats *sc;
	struct kv_derived d;		/* and what follows from it (kview_derived) */
	uint64_t acct_ns[ACCT_N];
	double accounted_ratio;		/* sum(acct_ns) / user wall */
	struct lock_use locks[MODEL_MAX_NAMED];
	int nlocks;
	uint64_t futex_other_waits, futex_other_ns;
	uint64_t pagecache_hits, pagecache_misses;
	uint64_t pagecache_written;	/* pages added by writes: not misses */
	uint64_t idle_ns;		/* of acct BLOCKED: asleep in timers and polls
					 * (join_idle_call): idle, not I/O */
	struct disk_thread_row disk;	/* the disk requests it caused (disk.h) */
	char name[64];			/* a JVM's Java thread name, else "" (use k.comm) */
	bool aside;			/* out of the run-wide totals: a JVM's own thread */
	const char *group;		/* a JVM's thread group ("application", "GC" ...) */
};

/* What the subject timed of row r: its timings, or zeros. */
static inline const struct thread_timings *row_own(const struct thread_row *r)
{
	return r->own ? r->own : &thread_timings_none;
}

/* A JVM lock's waits at one Java call site (the JVMTI agent's) */
#define LOCK_SITES_MAX	8
struct lock_site {
	char site[200];			/* pkg.Class.method(File.java:LINE) */
	uint64_t waits, wait_ns;
};

/* run-wide totals for one named lock or kernel lock site */
struct lock_total {
	char name[160];			/* "fcp.pool", or "spinlock @ caller" */
	enum lock_kind kind;		/* LK_KERNEL for a kernel lock site */
	bool kernel;
	bool is_lock;			/* false: waits for an event (condvar, join, ...) */
	uint64_t waits, wait_ns, max_ns;
	uint64_t runq_ns;		/* of wait_ns: woken, waiting for a CPU (futex words) */
	unsigned threads;		/* how many threads waited on it */
	/* another program's word: its wake-ups, and the share its own
	 * waiters made (struct lock_name) */
	bool turns;
	uint64_t wakes, wakes_by_waiters;
	struct lock_holders holders;	/* what its holders did (holders.h) */
	struct lock_wakers wakers;	/* who ended its waits, after what (wakers.h) */
	struct lock_root root;		/* its wait chain to the root (roots.h) */
	struct lock_site sites[LOCK_SITES_MAX];	/* a JVM's: the largest first */
	int nsites;
};

/* Why the Java holders code (jvmhold.bpf.c) did not run, as data. */
enum jvm_holders_why {
	JH_RAN,			/* it ran (or there is no JVM) */
	JH_ENTER_UNPROBED,	/* HotSpot's ObjectMonitor::EnterI could not be probed */
	JH_NO_VMSTRUCTS,	/* the JVM's field offsets could not be read */
	JH_AS_SAVED,		/* a saved run's words, in detail */
};
struct jvm_holders_off {
	enum jvm_holders_why why;
	int err;			/* JH_NO_VMSTRUCTS: the read's -errno */
	char detail[160];		/* JH_ENTER_UNPROBED: the probe's status;
					 * JH_AS_SAVED: the saved words */
};
struct kv_index;
struct name_index;

struct joined_run {
	const char *subject;		/* the workload's or the program's name */
	pid_t subject_pid;		/* the process it is (run -- CMD's, the first
					 * attached); 0: a workload, or not known */
	const struct subject_timings *timings;	/* what the subject timed of itself
						 * (not owned); NULL: nothing */
	const struct kview *kv;		/* NULL when timing-only */
	unsigned groups;		/* probe groups that ran */
	const char *probe_set;		/* "full", "light", "custom", "none" */
	unsigned time_every;		/* one syscall in this many was timed */
	unsigned ncpus;
	uint64_t start_ns, wall_ns;	/* the run's span: the subject's own, else its
					 * threads' accounts' */
	struct thread_row *rows;	/* one per thread, in index order */
	unsigned nrows;
	struct lock_total *locks;	/* named user locks, then kernel locks */
	/* sleeps ended by a sibling's kill or write, by the waker's call
	 * before it (wakers.h); measured: the view had such wakes */
	struct sib_wakers sib[FCT_WAKE_N];
	bool sib_measured;
	struct sib_edge *sib_edges;	/* the same sleeps by waiter and waker thread,
					 * the most time first (owned) */
	int nsib_edges;
	struct sc_stats *saved_sc;	/* a saved run's rows' sc, SC_ROW_N a row (owned) */
	struct wait_graph graph;	/* who waited for whom (waitgraph.h) */
	int nlocks;
	struct sc_stats nr_total[FCT_NR_MAX];	/* every syscall by number, all workers summed */
	struct sc_stats sc_total[SC_ROW_N];	/* the saved run's rows of it: the rows'
						 * sc summed */
	uint64_t acct_total_ns[ACCT_N];	/* all workers summed */
	uint64_t thread_wall_total_ns;	/* sum of worker wall times */
	uint64_t pagecache_hits, pagecache_misses;
	uint64_t pagecache_written;	/* pages added by writes: not misses */
	uint64_t pages_asked;		/* by pread64 (hits are known for those) */
	uint64_t pages_direct;		/* read by pread64 past it (O_DIRECT files) */
	uint64_t ops;
	const struct lock_name *names;	/* other programs: their futex words, or NULL */
	int nnames;
	/* while join_build_named runs (else NULL): the view's entries by
	 * thread and word, the names by address (wordindex.h) */
	const struct kv_index *kix;
	const struct name_index *nix;
	uint64_t event_wait_ns;		/* of futex_other: waits on named events */
	/* the workers' kernel lock waits: exact, and what the sampled stacks
	 * estimated before the sites were given the exact figure */
	uint64_t klock_exact_ns, klock_est_ns;
	/* the user/sys split: the workers' cpu-clock samples, and how many of
	 * the workers traced had enough of them (the rest: the syscall hooks) */
	uint64_t cpu_samples_user, cpu_samples_sys, cpu_samples_futex;
	unsigned cpu_split_sampled, cpu_split_rows;
	/* pools: what one op costs uncontended, the medians of the workers'
	 * own clocks (0: not measured) - the what-if model's inputs */
	uint64_t op_hit_p50_ns;		/* an op whose get hit, get to put */
	uint64_t op_miss_p50_ns;	/* an op whose get missed */
	uint64_t read_p50_ns;		/* one pread, from user space */
	/* and how long the lock was held, per get that hit, per get that
	 * missed, per put (means: contention included) */
	uint64_t hold_hit_ns, hold_miss_ns, hold_put_ns;
	/* a JVM target (join_jvm.c) */
	bool jvm, jvm_monitors;		/* HotSpot's probes ran; its monitor probes fired */
	/* fctrace's JVMTI agent ran: its sampling (jvm.h struct jvm_sites) */
	bool jvm_agent;
	unsigned jvm_agent_walks, jvm_agent_every, jvm_agent_period_ms;
	uint64_t jvm_agent_park_walks;
	/* why the Java monitors' holders were not measured (JH_RAN: the code
	 * ran; join/holders.h); in words the JSON's target.jvm.monitor_holders
	 * (explain/words.h jvm_holders_words) */
	struct jvm_holders_off jvm_holders;
	const char *jvm_monitor_flag;	/* "on", "off", "unknown": the flag as read while
					 * the JVM lived (NULL: not a JVM) */
	uint64_t gcs, gc_ns, gc_max_ns;	/* collection pauses */
	uint64_t safepoints, safepoint_ns;	/* every Java thread stopped */
	uint64_t parks, park_ns;	/* LockSupport.park, all threads */
	unsigned app_threads;		/* threads in the application group */
	unsigned aside_rows;		/* rows set aside from the totals (the JVM's own) */
	uint64_t aside_cpu_ns;		/* and their time on CPU */
	struct losses losses;		/* what the kernel side lost, and what it touches */
	struct pc_evictions evictions;	/* who removed the target's pages (pc-evict) */
	struct disk_run disk;		/* the disk's requests (the disk group; disk.h) */
	struct cache_entry *caches;	/* the programs' caches, most costly first (caches.h) */
	int ncaches;
	struct pool_row *pools;		/* pools of N, the most waited for first (pools.h) */
	int npools;
};

/* How many locks the subject named itself (0: none, or it timed nothing). */
static inline int join_own_locks(const struct joined_run *m)
{
	return m->timings ? m->timings->nlocks : 0;
}

/* Sum the run-wide totals again, over the rows not set aside. */
void join_retotal(struct joined_run *m);
/* The same for the rows' sums only (time, calls, page cache), the lock
 * totals left as they are; event_wait_ns is the locks' and stays too. */
void join_sum_rows(struct joined_run *m);
/* A row's use of a named lock or event, and the run-wide total of one
 * (not a kernel lock site): found, or added zeroed; NULL when full. */
struct lock_use *join_row_use(struct thread_row *r, const char *name, bool is_lock);
/* A row's uses of one name (after a rename) summed into one. */
void join_row_merge_names(struct thread_row *r);
struct lock_total *join_lock_total(struct joined_run *m, const char *name, bool kernel,
				    bool is_lock);

struct jvm_view;
/* Fold what HotSpot's probes saw into a built model: Java thread names
 * and groups, each class's contended monitor enters as a lock (moved
 * from the futex waits they blocked in), parks and GC pauses. */
void join_add_jvm(struct joined_run *m, const struct jvm_view *v, bool monitors_on);
/* The name of word uaddr of process tgid (arg: the joined run): its
 * lock's or event's, or "futex word 0x..." (holders_name_chain's namer);
 * whether it is a lock's. */
bool join_name_word(const void *arg, uint32_t tgid, uint64_t uaddr, char *buf, size_t n);
/* The lock table's name of a JVM lock of kind ('m', 'p', 'w') and class
 * cls: "monitor CLASS @ TOP SITE" (join_sites.c). */
void join_jvm_lock_name(const struct jvm_view *v, char kind, const char *cls, char *out,
			size_t len);
/* The kind of a JVM lock of kind ('m', 'p', 'w') and class cls: a
 * monitor, a park, an Object.wait (a join when on a Thread). */
enum lock_kind join_jvm_wait_kind(char kind, const char *cls);
/* The JVMTI agent's rows (join_sites.c): contended monitors, Object.wait
 * and parks as locks named by class and top call site, with their sites;
 * the time is the kernel's (capped by, or split from, the thread's own). */
void join_add_jvm_sites(struct joined_run *m, const struct jvm_view *v);
/* has the agent sampled thread tid parked (its parks are split by site)? */
bool join_jvm_sampled_park(const struct jvm_view *v, uint32_t tid);

struct jvm_view;
struct stack_set;

/* What a session's driver hands the join beside the kernel view: what
 * the subject said of itself. None is owned; each may be left empty. */
struct run_attachments {
	const char *subject;		/* its name: a workload's, a program's comm */
	pid_t subject_pid;		/* its process (0: a workload's, none) */
	const struct subject_timings *timings;	/* its own clocks (a workload) */
	const struct lock_name *names;	/* another program's futex words, named */
	int nnames;
	/* the driver's window: the run's span when no thread was seen */
	uint64_t window_start_ns, window_end_ns;
	pid_t cpus_of;			/* whose CPUs the run had: 0 fctrace's (which a
					 * workload and run -- CMD inherit), else an
					 * attached process's */
	/* a JVM: what HotSpot's probes saw, and how they could run */
	const struct jvm_view *jvm;
	bool jvm_monitors;		/* its monitor probes fired (the flag was on) */
	int jvm_flag;			/* enum jvm_flag, as read while the JVM lived */
	int jvm_structs;		/* 0: its field offsets were read, else -errno */
	struct stack_set *stacks;	/* the flame graphs' stacks: a JVM monitor's
					 * Java paths are added on its lock row */
};

/* Build the whole joined run: a row per thread of the kernel view (kv
 * NULL: untraced), or, when the subject timed its threads, a row per
 * thread it timed, the kernel's account of each beside by tid; the
 * run-wide totals, the locks and their holders, a JVM's monitors, parks
 * and Java stacks; 0, or -1 out of memory. */
int join_run(struct joined_run *m, const struct kview *kv, unsigned groups,
	     const struct run_attachments *att);
void join_free(struct joined_run *m);
/* The CPUs process pid (0: this one) may run on: under taskset or a
 * cpuset fewer than are online; the CPUs online if it cannot be read. */
unsigned join_usable_cpus(pid_t pid);

const char *sc_row_name(enum sc_row row);	/* "openat", "close", ..., "other" */
enum sc_row sc_row_of(unsigned nr);		/* the row syscall nr is shown in */
/* The number a named row's figures are kept under when a saved run is
 * read (futex for the futex row); -1 for SC_ROW_OTHER. */
int sc_row_nr(enum sc_row row);
/* One number's figures from an account's nr[] entry and its histogram
 * (NULL: none timed), and figures summed. */
void sc_stats_of(struct sc_stats *dst, const struct fct_nr_stats *n, const struct fct_sc_hist *h);
/* Row r's syscalls by the saved run's named rows into out[SC_ROW_N]: a
 * saved run's as kept, a live run's from r's account and the kernel
 * view's histograms. */
void join_row_calls(const struct joined_run *m, const struct thread_row *r, struct sc_stats *out);
void sc_stats_add(struct sc_stats *dst, const struct sc_stats *src);
/* The figures of a few numbers summed (e.g. newfstatat and statx). */
struct sc_stats join_calls(const struct joined_run *m, const int *nrs, int n);
/* Thread tid's latest kernel account in m's view (through the view's
 * index while join_run builds it), or NULL. */
const struct fct_thread *join_account_of(const struct joined_run *m, pid_t tid);
/* A call that waits for time, input or a child: nanosleep, epoll_wait,
 * poll, select, rt_sigsuspend, wait4 ... (by number). */
bool join_idle_call(unsigned nr);
/* A row's sleep in those calls, and in io_uring_enter/io_getevents while
 * none of its disk requests was in flight, and an io_uring worker's
 * interruptible sleep (waiting for work): at most its blocked time. */
uint64_t join_idle_ns(const struct thread_row *r);
const char *klock_type(uint32_t flags);
/* How the workers' on-CPU time was split into user and sys: "cpu-clock
 * samples", "syscall hooks", or "mixed" (short threads had too few
 * samples); NULL without on-CPU times. */
const char *join_cpu_split(const struct joined_run *m);	/* "spinlock", "mutex", "rwsem:R", ... */

#endif /* FCTRACE_JOIN_H */
