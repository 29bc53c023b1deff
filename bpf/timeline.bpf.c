// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * timeline.bpf.c - the timeline's opening snapshot. The hooks record
 * edges (common.bpf.h, fct_tl_emit); a thread that makes none during the
 * window (asleep on a lock throughout) would have no lane, so as the
 * window opens user space runs this once (BPF_PROG_TEST_RUN) and every
 * open account records the state it is in. Loaded only with --timeline.
 */
#include "common.bpf.h"

static long snapshot_one(__u32 k, void *ctx)
{
	struct fct_slot *t = bpf_map_lookup_elem(&slots, &k);

	if (t && t->active)
		fct_tl_emit(t, bpf_ktime_get_ns(), FCT_TL_STATE, t->st_state, 0);
	return 0;
}

SEC("?syscall")
int fct_tl_snapshot(void *ctx)
{
	bpf_loop(slot_mask + 1, snapshot_one, NULL, 0);
	return 0;
}
