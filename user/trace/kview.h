/*
 * kview.h - the kernel's view of one run, as read back from the BPF maps.
 *
 * The loader (loader.c) fills this; join_run (join/join.c) joins it with
 * the threads' own timings. Nothing here depends on libbpf, so tests can
 * build a kview by hand or from a recorded run (tests/join/test_join.c).
 */
#ifndef FCTRACE_KVIEW_H
#define FCTRACE_KVIEW_H

#include <stdbool.h>
#include <stdint.h>
#include "fctrace.h"
#include "trace/account.h"
#include "trace/cpustat.h"
#include "trace/diskstats.h"
#include "trace/fileuse.h"
#include "trace/selfcost.h"
#include "trace/sockinv.h"
#include "trace/meminfo.h"
#include "trace/probes.h"

struct kv_futex {
	struct fct_futex_key key;
	struct fct_futex_val val;
};

/* A waker's wakes of a word after one call (struct fct_wake_after_key). */
struct kv_wake_after {
	struct fct_wake_after_key key;
	struct fct_wake_after_val val;
};

/* A waker's ends of others' sleeps by kill or write, after one call
 * (struct fct_sib_after_key). */
struct kv_sib_after {
	struct fct_sib_after_key key;
	struct fct_sib_after_val val;
};

/* A traced process's io_uring ring (uring.bpf.c; struct fct_uring_key). */
struct kv_uring {
	struct fct_uring_key key;
	struct fct_uring_val val;
};

/* A futex object's waiters and holds (pools.bpf.h; struct fct_pool_key). */
struct kv_pool {
	struct fct_pool_key key;
	struct fct_pool_val val;
};

/* The shape of a thread's timed calls of one syscall number (the
 * sc_hists map); its counts and times are in the account's nr[]. */
struct kv_sc_hist {
	struct fct_sc_hist_key key;
	struct fct_sc_hist val;
};

/* A kernel lock site. val.waits and val.wait_ns are the thread's exact
 * totals split over its sites (kview_klock_attribute); est_* keep what
 * the sampled stacks estimated, weighted, before the split. */
struct kv_klock {
	struct fct_klock_key key;
	struct fct_klock_val val;
	char caller[96];	/* first non-locking kernel function, symbolised */
	uint64_t est_waits, est_wait_ns;
};

/* How kview_klock_attribute gives sites their times: what the reports say. */
#define KV_KLOCK_ATTRIBUTION "each thread's exact kernel lock waits and wait time, " \
	"split over its sites in proportion to its sampled waits' weighted times " \
	"(stacks walked at contention_end)"

/* Another process the cpu-clock samples found on the CPUs. */
struct kv_other {
	uint32_t tgid;
	uint64_t samples;
	char comm[FCT_COMM_LEN];
};

struct kv_pc {
	struct fct_pc_key key;
	struct fct_pc_val val;
};

/* One remover of the target's pages from the page cache (pc-evict):
 * a process, how and in which syscall (pcevict.bpf.h). */
struct kv_evict {
	struct fct_evict_key key;
	struct fct_evict_val val;
};

/* How the timeline's recording went (--timeline). */
struct kv_timeline {
	bool on;		/* asked for */
	uint64_t begin_ns, end_ns;	/* the window it recorded ([0, 0]: never opened) */
	uint64_t asked_ns;	/* the window asked for (--timeline-window); 0: unknown */
	uint64_t dropped;	/* records lost: no room in the ring buffer, or no memory */
	uint64_t ring_bytes;
};

/* What user space derives from a thread's account (kview_derived): the
 * [A] buckets of struct fct_thread's comment. Never in the ABI: the
 * kernel books the [K] fields, these follow from them. */
struct kv_derived {
	uint64_t cpu_user_ns;	/* on CPU, not in a syscall */
	uint64_t cpu_sys_ns;	/* on CPU inside a (non-futex-wait) syscall */
	uint64_t futex_wait_ns;	/* inside futex wait syscalls, enter to exit */
	bool cpu_split_sampled;	/* cpu_sys came from the cpu-clock samples */
};

/* Programs whose fate the view keeps (struct kview.probes). */
#define KV_PROBES_MAX	64

/* A thread alive at the end that the full thread table left without an
 * account (named from /proc). */
struct kv_missing {
	uint32_t tid;
	char comm[FCT_COMM_LEN];
};
#define KV_MISSING_MAX	8

struct kview {
	unsigned groups;	/* PG_MASK bits that loaded and attached */
	struct probe_status probes[KV_PROBES_MAX];
	int nprobes;
	struct fct_lost lost;

	struct fct_thread *threads;	/* worker slots that were used */
	int nthreads;
	struct acct_arena nr_arena;	/* their syscall tables' entries */
	struct kv_futex *futex;
	int nfutex;
	struct kv_wake_after *wake_after;	/* the wakes by the call before them */
	int nwake_after;
	struct kv_sib_after *sib_after;		/* sleeps ended by a sibling, by its call */
	int nsib_after;
	struct kv_pool *pools;	/* futex objects' waiters and holds (pools.bpf.h) */
	int npools;
	bool pools_ran;		/* that code ran (other programs, tp_btf syscalls) */
	struct kv_sc_hist *sc_hists;	/* sorted by (tid, nr): kview_sort_sc_hists */
	int nsc_hists;
	struct kv_klock *klock;
	int nklock;
	struct kv_pc *pc;
	int npc;
	/* the holders probes' watched locks (PG_HOLDERS; holders.bpf.h) */
	struct fct_hold_lock *holds;
	int nholds;
	struct fct_hold_global hold_global;
	/* page-cache removals of the target's files (PG_PC_EVICT) */
	struct kv_evict *evict;
	int nevict;
	struct fct_evict_global evict_global;
	/* disk requests (PG_DISK; disk.bpf.c): per disk, and per traced
	 * thread that caused some (trace/disk.c reads them) */
	struct fct_disk_dev *disk_devs;
	int ndisk_devs;
	struct kv_uring *uring;		/* io_uring rings (the disk group) */
	int nuring;
	struct fct_disk_thread *disk_threads;
	int ndisk_threads;
	struct fct_disk_global disk_global;
	struct diskstats disks_open, disks_close;	/* /proc/diskstats at the edges */
	/* the handles' stream per process (PG_HANDLES; fileuse.h): those with
	 * a file opened more than once */
	struct kv_handles *handles;
	int nhandles;
	uint64_t fu_sent, fu_drops;	/* the stream's events, and those the ring lost */
	/* fctrace's cost, sampled (selfcost.h); cost_measured false when the
	 * statistics could not be turned on or no second was sampled */
	bool cost_measured;
	struct selfcost_figures cost;
	uint64_t fu_uncounted;		/* references not counted (out of memory) */
	/* proxies with a pool of connections, and their exchanges (sockinv.h) */
	struct kv_flow *flows;
	int nflows;
	struct meminfo mem_open, mem_close;	/* at the window's edges (0: unknown) */

	unsigned time_every;	/* one syscall in this many was timed */
	struct cpustat cpu;	/* the machine's CPUs over the window (/proc/stat) */
	struct fct_machine machine;	/* and sampled: other work, idle (cpuclock) */
	bool machine_sampled;	/* the cpu-clock sampler ran */
	struct kv_other *others;	/* of machine.other, by process, most first */
	int nothers;
	uint64_t machine_ns;	/* the interval cpu and machine cover: tracer_start
				 * to tracer_stop (0: unknown, e.g. a saved run) */
	unsigned machine_cpus;	/* the CPUs the sampler ran on */
	uint64_t events;	/* hook invocations counted in the window, if known */
	unsigned slots;		/* the thread table's size (0: not known, a saved run) */
	uint64_t slots_bytes;	/* and its kernel memory */
	uint64_t slots_recycled;	/* ended threads' slots given to new ones */
	unsigned futex_entries;	/* the futex table's size (0: not known) */
	/* lost.slot_full: the target's threads alive at the end with no account,
	 * the first KV_MISSING_MAX of them and how many more */
	struct kv_missing missing[KV_MISSING_MAX];
	int nmissing;
	unsigned missing_more;
	struct kv_timeline tl;
};

void kview_free(struct kview *kv);
/* Every event lost, of every kind (struct fct_lost, the timeline's drops). */
uint64_t kview_lost_total(const struct kview *kv);
const struct fct_thread *kview_thread(const struct kview *kv, uint32_t tid);
/* kview_thread for many lookups: an index built once (free it). */
struct kv_tid_at {
	uint32_t tid;
	int at;		/* in kv->threads */
};
struct kv_tid_at *kview_tids_sorted(const struct kview *kv, int *n);
const struct fct_thread *kview_tids_find(const struct kview *kv, const struct kv_tid_at *ix,
					 int n, uint32_t tid);
/* The [A] buckets of an account read from the kernel. */
struct kv_derived kview_derived(const struct fct_thread *t);
/* Sort the syscall histograms by (tid, nr) for kview_sc_hist. */
void kview_sort_sc_hists(struct kview *kv);
/* The shape of thread tid's timed calls of number nr, or NULL (none
 * timed, or the map was full). A reused tid's accounts share it. */
const struct fct_sc_hist *kview_sc_hist(const struct kview *kv, uint32_t tid, uint32_t nr);
/* Scale each account's estimated syscall totals so that each number's
 * histogram weights match its exact count (done once, as the view is
 * read, after kview_sort_sc_hists). */
void kview_scale(struct kview *kv);
/* Split each thread's exact kernel lock totals over its sampled sites,
 * so that the sites add up to them exactly; keeps the estimates in est_*.
 * Sites of a tid with no account keep their estimates. */
void kview_klock_attribute(struct kview *kv);

#endif /* FCTRACE_KVIEW_H */
