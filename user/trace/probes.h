/*
 * probes.h - the probe groups a user selects with --probes, the sets
 * they make, and one BPF program's fate as the loader reports it.
 * Plain data and parsers: the options and `fctrace list` use it without
 * the kernel view.
 */
#ifndef FCTRACE_PROBES_H
#define FCTRACE_PROBES_H

#include <stdint.h>

/* Probe groups a user can select with --probes. */
enum probe_group {
	PG_SYSCALLS,		/* sys_enter/sys_exit (tp_btf, raw_tp fallback): syscall table, futex waits, pages asked */
	PG_SCHED,		/* sched_switch/sched_wakeup(_new): on/off-CPU, run queue */
	PG_KLOCK,		/* lock:contention_begin/end */
	PG_PAGECACHE,		/* filemap:mm_filemap_add_to_page_cache: misses */
	PG_PC_LOOKUPS,		/* filemap:mm_filemap_get_pages: per-inode lookups (optional) */
	PG_MARKS,		/* uprobes on the workload's begin/end marks (always, own workloads) */
	PG_THREADS,		/* exec/fork/exit and the attach iterator (always, other programs) */
	PG_JVM,			/* HotSpot's USDT probes in libjvm.so (a JVM target) */
	PG_CPUCLOCK,		/* perf_event cpu-clock per CPU: the user/sys split, sampled */
	PG_HOLDERS,		/* holders of contended glibc mutexes: code in the syscall and switch
				 * programs (brings syscalls and sched; samples need cpuclock) */
	PG_PC_EVICT,		/* filemap:mm_filemap_delete_from_page_cache: who removed the
				 * target's pages, and its re-reads of them (with pagecache) */
	PG_DISK,		/* block_io_start/rq_issue/rq_complete: disk requests per disk
				 * and per thread that caused them (disk.bpf.c) */
	PG_HANDLES,		/* sys_enter/sys_exit (tp_btf): each open of a regular file, each
				 * call on one of its descriptors, each close (fileuse.h) */
	PG_N,
	/* hidden (`--probes floor`, make bench): full's hook points, each with
	 * a trivial program; alone, without the marks' accounts */
	PG_FLOOR = PG_N,
};

#define PG_MASK(g)	(1u << (g))
#define PG_FULL		(PG_MASK(PG_SYSCALLS) | PG_MASK(PG_SCHED) | PG_MASK(PG_KLOCK) | \
			 PG_MASK(PG_PAGECACHE) | PG_MASK(PG_CPUCLOCK) | PG_MASK(PG_HOLDERS) | \
			 PG_MASK(PG_PC_EVICT) | PG_MASK(PG_DISK) | PG_MASK(PG_HANDLES) | \
			 PG_MASK(PG_MARKS))
#define PG_LIGHT	(PG_MASK(PG_SCHED) | PG_MASK(PG_KLOCK) | PG_MASK(PG_PAGECACHE) | \
			 PG_MASK(PG_CPUCLOCK) | PG_MASK(PG_PC_EVICT) | PG_MASK(PG_DISK) | \
			 PG_MASK(PG_MARKS))

const char *probe_group_name(enum probe_group g);
/* parse "full", "light" or a comma list of group names; -1 on error */
int probe_groups_parse(const char *s, unsigned *mask);
/* the wall-time cost make bench measured for a set ("full", ...), or NULL */
const char *probe_set_cost(const char *set);

/* What became of one BPF program. */
enum probe_state {
	PROBE_OK,		/* loaded and attached */
	PROBE_NOT_SELECTED,	/* its group was not asked for */
	PROBE_FAILED,		/* asked for, but did not load or attach: see reason */
};

struct probe_status {
	char name[48];		/* e.g. "tp_btf/sched_switch" */
	enum probe_group group;
	enum probe_state state;
	char reason[128];	/* PROBE_FAILED: e.g. "attach failed: -EPERM" */
	uint64_t skipped;	/* PROBE_OK: runs the kernel skipped, the program
				 * being still at work on that CPU (an interrupt
				 * inside it hit the same hook): their events are
				 * not counted (bpf_prog_info.recursion_misses) */
	uint64_t runs;		/* its runs, where the kernel's BPF statistics
				 * were on (fctrace's cost sampler turns them on) */
};

/* "ok", "not selected", or why it failed: what the reports print */
const char *probe_status_text(const struct probe_status *ps);

#endif /* FCTRACE_PROBES_H */
