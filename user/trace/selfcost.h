/*
 * selfcost.h - what fctrace costs the program it traces, measured while
 * it runs, and the budget that bounds it.
 *
 * The BPF programs run inside the traced threads (a tracepoint runs in
 * the task that hits it), so their run time is the cost the program
 * pays; the kernel counts it only while statistics are on
 * (BPF_ENABLE_STATS), which costs two clock reads a run. So they are on
 * for one second in every SELFCOST_EVERY (the first second of the window
 * always): the run time over those seconds, against the traced
 * processes' CPU time over the same seconds (/proc/PID/stat) and
 * fctrace's own, is the cost's share, and the whole window's BPF time
 * is estimated from it.
 *
 * The budget: when a sampled second's share passes it (attach and
 * run -- only: fctrace's own workloads are benchmarks, kept exact; from
 * the second sample on, 5 s into the window: a shorter run keeps its
 * stream whole), the
 * handles group's file stream - the dearest per event - stops (the bss
 * flag fu_paused) and the next second is sampled at once: if stopping
 * it took a measurable part of the share off, the stream stays stopped
 * and the report says from when the caches' figures stop; if it took
 * next to nothing off, the stream was not the cost (the syscall hooks
 * are), it goes on, and the report says both shares.
 * Still over the budget after the trial (or with no stream, or past it
 * later), syscall timing steps from 1 call in --time-every to 1
 * in FCT_SC_EVERY_MAX (the counts stay exact, the times become estimates
 * from fewer calls) and the next second says what that left. Still over
 * after that, the holders are followed for the SELFCOST_HOLD_KEEP watched
 * locks waited on most; the others' holders figures are dropped (a
 * part of a window would be no figure of it).
 * A trial's second in which the traced processes ran too little to judge
 * (idle, gone, the window closed) decides nothing: the stream goes on and
 * the report says how long it was off.
 */
#ifndef FCTRACE_SELFCOST_H
#define FCTRACE_SELFCOST_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define SELFCOST_EVERY	5	/* a sampled second in this many */
#define SELFCOST_PROGS	64
#define SELFCOST_HOLD_KEEP 2	/* watched locks whose holders the third step keeps */

/* What the tracer gives the sampler: its loaded programs' fds, the
 * processes it traces now (filled into out, at most max), and the flag
 * that stops the file stream (NULL: none to stop). */
struct selfcost_hooks {
	int prog_fd[SELFCOST_PROGS];
	int nprogs;
	int (*tgids)(void *arg, pid_t *out, int max);
	void *arg;
	volatile uint32_t *fu_paused;
	volatile uint32_t *time_every;	/* syscall timing, 1 call in N (NULL: none) */
	volatile uint32_t *hold_skip;	/* the holders' slots not read, a bit each
					 * (NULL: no holders group) */
	/* the mask that keeps the keep watched words waited on most, and how
	 * many are watched */
	uint32_t (*hold_rank)(void *arg, int keep, int *watched);
	double budget;		/* a share of the traced CPU time; 0: none */
	bool own_cpu;		/* fctrace's CPU is not the target's (not TT_SELF) */
	bool children;		/* forks are traced (--follow): the children a
				 * traced process reaped were the target's */
};

/* The figures (kview.h's kv_selfcost copies them). */
struct selfcost_figures {
	uint64_t sampled_ns;	/* seconds with statistics on, summed */
	uint64_t samples;
	uint64_t bpf_ns;	/* the programs' run time in them */
	uint64_t bpf_runs;
	uint64_t target_ns;	/* the traced processes' CPU time in them */
	uint64_t tracer_ns;	/* fctrace's own (0 when own_cpu is false) */
	uint64_t window_ns;	/* the whole window */
	double budget;
	double peak_share;	/* the dearest sampled second's */
	/* the budget's trial: the share of the second that passed it, with
	 * the file stream, and of the next, without (0: no trial) */
	double with_files_share, without_files_share;
	uint64_t paused_at_ns;	/* the file stream stopped for good this far
				 * into the window (0: never) */
	uint64_t trial_ns;	/* or stopped this long and went on (0: not) */
	uint64_t void_trial_ns;	/* stopped this long for trials whose second
				 * measured nothing, and went on (0: none) */
	/* the budget's next step: syscall timing from 1 call in
	 * time_every_before to 1 in time_every_after, this far into the
	 * window (0: not stepped), and the share of the second after */
	uint64_t timing_at_ns;
	uint32_t time_every_before, time_every_after;
	double timing_share;
	/* the third: the holders followed for the most waited-for locks only,
	 * this far into the window (0: not), how many kept and dropped, and
	 * the share of the second after */
	uint64_t holders_at_ns;
	uint32_t holders_kept, holders_dropped;
	double holders_share;
};

struct selfcost;

/* Start sampling now (the window opens); NULL when it cannot run. */
struct selfcost *selfcost_start(const struct selfcost_hooks *h);
/* Stop (the window closed) and fill f; frees s. */
void selfcost_stop(struct selfcost *s, struct selfcost_figures *f);

/* The share of the traced CPU time fctrace took in the sampled seconds:
 * (BPF + its own CPU) / the traced processes' CPU less the BPF time in
 * it; and the whole window's BPF time estimated from the samples. */
double selfcost_share(const struct selfcost_figures *f);
uint64_t selfcost_bpf_est_ns(const struct selfcost_figures *f);

#endif /* FCTRACE_SELFCOST_H */
