/*
 * holdutil.h - the holders probes against a program's own figures
 * (tests/holdprog's JSON), shared by tests/holdcheck.c (`sudo make
 * holdcheck`) and tests/bpf/test_bpf_holders.c (`make test`): run a program
 * under a probe set from its exec to its exit, read the watched locks,
 * and put the two sides next to each other. Root (it loads BPF).
 */
#ifndef FCTRACE_HOLDUTIL_H
#define FCTRACE_HOLDUTIL_H

#include <stdint.h>
#include <stdio.h>
#include "trace/loader.h"
#include "explain/whatif_lock.h"

#define HOLD_SC_NAMES	8

/* The program's own figures: its JSON on stdout (wall_ns, held_ns,
 * syscall_ns_in_lock, syscalls_in_lock {name: count}). */
struct hold_truth {
	double wall_ns, held_ns, sc_ns;
	double oncpu_ns;	/* on CPU inside the holds, by the threads' CPU
				 * clocks; NAN when the program did not say */
	int nsc;
	char sc_name[HOLD_SC_NAMES][24];
	double sc_count[HOLD_SC_NAMES];
	char json[4096];
};

/* The BPF side's figures for one lock, in ns. */
struct hold_measured {
	double held_ns, sc_ns, blocked_ns, preempted_ns, oncpu_ns, user_ns;
	double sc_blocked_ns, sc_preempted_ns, sc_edge_ns, sc_paths_ns;
	double sc_seen_ns;	/* syscalls as the program times them: the
				 * exact window + the edges + the sampled paths */
	double cont_held_ns, waiter_ns_in_hold;
};

/* The comparisons the checks make, in percent. */
struct hold_cmp {
	double held_err;			/* (bpf - program) / program held */
	double sc_share_bpf, sc_share_prog;	/* syscalls' share of the hold */
	double preempted_share;			/* bpf: preempted, of the hold */
	double blocked_share;			/* bpf: asleep, of the hold */
	double offcpu_share_bpf;		/* bpf: preempted or asleep, in or out
						 * of syscalls, on their way back too */
	double offcpu_share_prog;		/* program: held less on CPU, of the
						 * hold (NAN when it did not say) */
};

/* One run of a program under the probes. */
struct hold_run {
	struct hold_truth truth;
	struct fct_hold_lock locks[FCT_HOLD_SLOTS];
	int nlocks;
	struct fct_hold_global g;
	struct probe_status holders;	/* the holders row, as the loader reported it */
	int status;			/* the program's wait status */
};

/* Run argv (argv[0] a path) under probe groups `groups`, from its exec
 * to its exit; log (or NULL) gets the probes' fates and, with
 * kernel.bpf_stats_enabled=1, each program's runs. 0, or -1 when it
 * could not be run or traced. */
int hold_run(char **argv, unsigned groups, FILE *log, struct hold_run *r);

/* tr->json (a program's own figures, holdprog's keys) into tr's fields */
void hold_parse_truth(struct hold_truth *tr);

/* The watched lock its holders held longest, or NULL. */
const struct fct_hold_lock *hold_main_lock(const struct hold_run *r);
void hold_measure(const struct fct_hold_lock *h, struct hold_measured *m);
void hold_compare(const struct fct_hold_lock *h, const struct hold_truth *tr,
		  struct hold_cmp *c);
/* The syscalls named name the BPF side charged to h. */
uint64_t hold_sc_count(const struct fct_hold_lock *h, const char *name);

/* The lock what-if of change c in a diagnosis, or NULL. */
struct diagnosis;
const struct lock_whatif *hold_whatif_of(const struct diagnosis *d, enum lock_change c);

/* Both sides of every watched lock, as holdcheck prints them. */
void hold_print(FILE *f, const struct hold_run *r);

#endif /* FCTRACE_HOLDUTIL_H */
