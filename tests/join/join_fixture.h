/*
 * join_fixture.h - one traced run as join_run saw it: the workers'
 * own timings and locks, and the kernel view tracer_read returned
 * (derived buckets filled in). tests/join/record_join.c writes these as C
 * data from a real run; tests/join/fixtures/ holds the recorded ones and
 * test_join.c builds models from them without root.
 */
#ifndef FCTRACE_MODEL_FIXTURE_H
#define FCTRACE_MODEL_FIXTURE_H

#include "trace/kview.h"
#include "workload.h"

struct join_fixture {
	const char *what;		/* the command line it was recorded with */
	unsigned groups;		/* kv.groups */
	unsigned time_every;
	uint64_t wall_ns;
	const struct wl_thread_stats *user;
	unsigned nuser;
	const struct wl_lock_desc *locks;
	int nlocks;
	const struct fct_thread *kthreads;
	int nkthreads;
	const struct kv_sc_hist *sc_hists;	/* in any order */
	int nsc_hists;
	const struct kv_futex *futex;
	int nfutex;
	const struct kv_klock *klock;
	int nklock;
	const struct kv_pc *pc;
	int npc;
};

extern const struct join_fixture fixture_fcp_full, fixture_fcp_light;

#endif
