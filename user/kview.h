/*
 * kview.h - the kernel's view of one run, as read back from the BPF maps.
 *
 * The loader (loader.c) fills this; join.c matches it with the threads'
 * own timings. Nothing here depends on libbpf, so tests can build a
 * kview by hand.
 */
#ifndef FCTRACE_KVIEW_H
#define FCTRACE_KVIEW_H

#include <stdbool.h>
#include <stdint.h>
#include "../bpf/fctrace.h"

/* Probe groups a user can select with --probes. */
enum probe_group {
	PG_SYSCALLS,		/* raw sys_enter/sys_exit: syscall table, futex waits, pages asked */
	PG_SCHED,		/* sched_switch/sched_wakeup: on/off-CPU, run queue */
	PG_KLOCK,		/* lock:contention_begin/end */
	PG_PAGECACHE,		/* filemap:mm_filemap_add_to_page_cache: misses */
	PG_PC_LOOKUPS,		/* filemap:mm_filemap_get_pages: per-inode lookups (optional) */
	PG_MARKS,		/* uprobes on the workload's begin/end marks (always, own workloads) */
	PG_THREADS,		/* exec/fork/exit and the attach iterator (always, other programs) */
	PG_N,
	/* hidden (`--probes floor`, make bench): full's hook points, each with
	 * a trivial program; alone, without the marks' accounts */
	PG_FLOOR = PG_N,
};

#define PG_MASK(g)	(1u << (g))
#define PG_FULL		(PG_MASK(PG_SYSCALLS) | PG_MASK(PG_SCHED) | PG_MASK(PG_KLOCK) | \
			 PG_MASK(PG_PAGECACHE) | PG_MASK(PG_MARKS))
#define PG_LIGHT	(PG_MASK(PG_SCHED) | PG_MASK(PG_KLOCK) | PG_MASK(PG_PAGECACHE) | \
			 PG_MASK(PG_MARKS))

const char *probe_group_name(enum probe_group g);
/* parse "full", "light" or a comma list of group names; -1 on error */
int probe_groups_parse(const char *s, unsigned *mask);
/* the wall-time cost make bench measured for a set ("full", ...), or NULL */
const char *probe_set_cost(const char *set);

/* One BPF program's fate: "ok", "not selected", or why it failed. */
struct probe_status {
	char name[48];		/* e.g. "tp_btf/sched_switch" */
	enum probe_group group;
	bool ok;
	char reason[128];	/* "ok", or e.g. "attach failed: -EPERM" */
};

struct kv_futex {
	struct fct_futex_key key;
	struct fct_futex_val val;
};

struct kv_klock {
	struct fct_klock_key key;
	struct fct_klock_val val;
	char caller[96];	/* first non-locking kernel function, symbolised */
};

struct kv_pc {
	struct fct_pc_key key;
	struct fct_pc_val val;
};

struct kview {
	unsigned groups;	/* PG_MASK bits that loaded and attached */
	struct probe_status probes[32];
	int nprobes;
	struct fct_lost lost;

	struct fct_thread *threads;	/* worker slots that were used */
	int nthreads;
	struct kv_futex *futex;
	int nfutex;
	struct kv_klock *klock;
	int nklock;
	struct kv_pc *pc;
	int npc;

	uint64_t load_ns;	/* open+load+attach time */
	unsigned time_every;	/* one syscall in this many was timed */
	uint64_t events;	/* hook invocations counted in the window, if known */
};

void kview_free(struct kview *kv);
const struct fct_thread *kview_thread(const struct kview *kv, uint32_t tid);
/* fill the derived [A] buckets of an account read from the kernel */
void kview_derive(struct fct_thread *t);

#endif /* FCTRACE_KVIEW_H */
