/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * account_test.h - what tests/bpf/test_bpf_charge.c hands the test-only BPF
 * program account_test.bpf.c: a few steps to apply, in order, to the one
 * struct fct_thread in its map, with common.bpf.h's own helpers.
 */
#ifndef FCTRACE_ACCOUNT_TEST_H
#define FCTRACE_ACCOUNT_TEST_H

#define ACCT_TEST_STEPS	8

enum acct_test_op {
	ACCT_END,		/* no more steps */
	ACCT_CHARGE,		/* fct_charge(t, ns) */
	ACCT_UNCHARGE_AFTER,	/* fct_uncharge_after(t, ns) */
	ACCT_STATE,		/* st_state = state, in_futex_wait = futex */
};

struct acct_test_step {
	__u32 op;		/* enum acct_test_op */
	__u32 state;		/* ACCT_STATE: enum fct_run_state */
	__u32 futex;		/* ACCT_STATE: inside a futex wait */
	__u32 pad;
	__u64 ns;
};

struct acct_test_ctx {
	struct acct_test_step step[ACCT_TEST_STEPS];
};

#endif
