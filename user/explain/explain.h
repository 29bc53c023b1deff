/*
 * explain.h - why a run took the time it took: rules over the joined run
 * (never over workload names) rank causes by their share of the threads'
 * wall time, each with the measured figures that support it, then say
 * what is not the problem and what to change; the what-if model is
 * fitted in the same stage and kept with the diagnosis.
 *
 *   rules.c   the facts read off the joined run, one rule per cause,
 *             ranking, "not the problem", headline and fix
 *   whatif.c  the what-if model
 *   floor.c   the confidence floor: which causes are ranked
 * The reporters print the result (report/why.c); they compute nothing.
 */
#ifndef FCTRACE_EXPLAIN_H
#define FCTRACE_EXPLAIN_H

#include <stdio.h>
#include "join/join.h"
#include "explain/whatif.h"
#include "explain/whatif_lock.h"

/* A cause needs at least this share of thread wall time to be named. */
#define EXPLAIN_MIN_SHARE	0.05
/* A cause the evidence shows with less confidence than this is not
 * ranked: it goes to the Why's "Also seen" line (floor.c). */
#define EXPLAIN_RANK_FLOOR	0.10
/* Other processes and the hypervisor took at least this share of the
 * CPUs: run-queue time is the machine's competition, not the program's
 * own threads outnumbering the CPUs. */
#define EXPLAIN_CPU_TAKEN	0.25
#define EXPLAIN_MAX_CAUSES	8
#define EXPLAIN_MAX_EVIDENCE	10
/* Figures a cause or the Why's other lines carry by key (words.c). */
#define EXPLAIN_MAX_FIGS	24
#define EXPLAIN_MAX_WHY_FIGS	48
/* Rows given a role in the diagnosis (the loader reads at most as many):
 * the rows past it are shown working. */
#define EXPLAIN_MAX_ROLES	16384

/*
 * A measured figure the words say, by a stable key, for scripts and tests
 * that must not parse English. Keys are snake_case; the suffix is the
 * unit: _ns, _bytes, _mib, _ratio and _share (0..1); none: a count. The
 * keys each cause writes are listed in docs/json.md.
 */
struct diag_fig {
	char key[28];
	double value;
};

struct diag_cause {
	char cause[32];		/* stable id: "pool_lock_serialisation", "healthy", ... */
	double share;		/* of total thread wall time, 0..1 */
	double confidence;	/* 0..1, from how directly the evidence shows it */
	char title[320];	/* one line, plain words with numbers (a Java lock's
				 * name with its call site is long) */
	char evidence[EXPLAIN_MAX_EVIDENCE][480];	/* each a sentence with measured figures
							 * (a Java lock is named twice in some) */
	int nevidence;
	bool ranked;		/* confidence at EXPLAIN_RANK_FLOOR or over: numbered */
	char share_of[32];	/* what share is of: "" the threads' time (the
				 * default), or "its clients' time" (a proxy's pool) */
	struct diag_fig figs[EXPLAIN_MAX_FIGS];	/* what title and evidence say */
	int nfigs;
	/* the known program's setting its fix changes ("shared_buffers"),
	 * its value in the figure "fix_value"; "" when the fix is words */
	char knob[40];
};

struct diagnosis {
	struct diag_cause causes[EXPLAIN_MAX_CAUSES];	/* largest share first */
	int n;
	char headline[200];	/* "Why fcp takes 2.31 s here (100 files, pool 50, ...)" */
	char fix[800];		/* what to change, for the first cause; then, when
				 * that is a change of code and a ranked cause's
				 * fix is a setting, that one too ("Then, for 3: ") */
	char also[1200];	/* "Also seen ...": the causes under the floor, or "" */
	char beyond[300];	/* what is not the problem, and what the machine adds */
	char threads[400];	/* which threads the shares are of, and each role
				 * (explain/roles.c); "" when all worked alike */
	/* the figures headline, beyond and threads say (the causes keep theirs) */
	struct diag_fig figs[EXPLAIN_MAX_WHY_FIGS];
	int nfigs;
	/* each row's role (enum thread_role), in the joined run's order; the
	 * table prints them */
	unsigned char role[EXPLAIN_MAX_ROLES];
	unsigned nroles;
	struct whatif_params whatif;	/* the what-if model fitted to the run */
	bool has_whatif;		/* false: the run is not one it models */
	/* what-ifs on the locks whose holders were measured (whatif_lock.h) */
	struct lock_whatif lock_whatifs[WHATIF_LOCK_MAX];
	int nlock_whatifs;
};

/*
 * Cause ids, and the rule that names each (rules.c):
 *   pool_lock_serialisation  pool misses make syscalls inside the pool lock
 *   pool_lock_contention     threads queue on a pool lock with no syscall inside
 *   cache_lock_contention    threads queue on a user-level cache's lock(s)
 *   user_lock_contention     threads queue on a user-space lock (a futex
 *                            word named by the program, a symbol or a site)
 *   page_cache_misses        reads wait for the disk
 *   block_cache_too_small    a process re-reads blocks it read before (its
 *                            positional reads are a block cache's misses)
 *   connections_not_kept     a process connects to one peer again and again
 *                            (a pool of connections missing or too small)
 *   sibling_wait             asleep until another traced process's kill or
 *                            write woke it (a latch): waiting for it
 *   durable_writes           asleep in fsync, fdatasync, sync_file_range ...
 *   blocked_other            asleep outside locks, not on page-cache misses
 *   cpu_oversubscription     runnable, waiting for a CPU, threads > CPUs
 *   cpu_competition          the same with threads <= CPUs (other processes)
 *   kernel_lock_contention   kernel locks (type @ caller)
 *   lock_gate                a lock whose holder sleeps outside it while
 *                            holding it (a parking device)
 *   event_wait               asleep on condvars, semaphores, barriers
 *                            (idle, not a lock; joins left out)
 *   saturated_thread         one thread on CPU or runnable most of its
 *                            window while others wait or work less
 *   process_churn            many processes of one program made and ended
 *                            in the run while connections were accepted:
 *                            a process a connection (their CPU)
 *   stopped                  stopped by SIGSTOP or a debugger
 *   jvm_safepoints           a JVM's safepoints (GC pauses) stopped its threads
 *   healthy                  none of the above reaches EXPLAIN_MIN_SHARE
 * Always fills at least one cause, and fits the what-if model where the
 * run is one it models; returns d->n, or -1 for an empty run.
 */
int explain_run(const struct joined_run *m, struct diagnosis *d);
/* The what-ifs on every lock whose holders were measured, into d (as
 * explain_run makes them; a saved run's are made again from its locks). */
void explain_lock_whatifs(const struct joined_run *m, struct diagnosis *d);
/* What explain_run adds to a saved run's causes, made again from its
 * figures: the what-if models and the threads' roles. */
void explain_saved(const struct joined_run *m, struct diagnosis *d);
/* The confidence floor over d's causes: marks each ranked or not, puts
 * the ranked first (the largest share still leads when none reaches it)
 * and writes d->also; returns how many are ranked (floor.c). */
int explain_floor(struct diagnosis *d);

#endif /* FCTRACE_EXPLAIN_H */
