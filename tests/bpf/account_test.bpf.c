// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * account_test.bpf.c - a test-only program (never in fctrace's skeleton):
 * run with BPF_PROG_TEST_RUN, it applies the steps it is given to the
 * account in its map with the very helpers the real hooks inline
 * (fct_charge, fct_uncharge_after from common.bpf.h), so the test can
 * check every booked field exactly, without attaching anything.
 */
#include "common.bpf.h"
#include "account_test.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct fct_slot);
} acct SEC(".maps");

/* what fct_charge reaches for a spilled syscall number (common.bpf.c's
 * in fctrace): defined here, this object being linked with nothing */
struct fct_nr_spill_map nr_spill SEC(".maps");
struct fct_lost lost = {};

SEC("syscall")
int fct_test_account(struct acct_test_ctx *ctx)
{
	__u32 k = 0;
	struct fct_slot *t = bpf_map_lookup_elem(&acct, &k);

	if (!t)
		return 1;
#pragma unroll
	for (int i = 0; i < ACCT_TEST_STEPS; i++) {
		struct acct_test_step s = ctx->step[i];

		if (s.op == ACCT_END)
			break;
		if (s.op == ACCT_CHARGE) {
			fct_charge(t, s.ns);
		} else if (s.op == ACCT_UNCHARGE_AFTER) {
			fct_uncharge_after(t, s.ns);
		} else if (s.op == ACCT_STATE) {
			t->st_state = s.state;
			t->in_futex_wait = s.futex;
		}
	}
	return 0;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
