// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * common.bpf.c - the one definition of everything the BPF files share:
 * the thread slots, the run's filter, the window flag, the lost counters.
 * The other files declare them extern (common.bpf.h).
 *
 * The Makefile links this file first (BPF_SRCS names it before the
 * sorted rest): libbpf 1.1's static linker mis-relocates an extern map
 * used by a file that has maps of its own when that file precedes the
 * map's definition.
 */
#include "common.bpf.h"
#include "holders.bpf.h"
#include "fileuse.bpf.h"

struct fct_slots_map slots SEC(".maps");
struct fct_nr_spill_map nr_spill SEC(".maps");
struct fct_tgids_map tgids SEC(".maps");
struct fct_tl_map timeline SEC(".maps");
struct fct_ustacks_map ustacks SEC(".maps");
/* the watched user locks (holders.bpf.h): here, as the linker needs
 * (see above), for the syscall, switch and sampler programs use them */
struct fct_holds_map holds SEC(".maps");
struct fct_hold_sync_map hold_sync SEC(".maps");
/* the handles' stream (fileuse.bpf.h), for the same reason */
struct fct_fileuse_map fileuse SEC(".maps");
/* a proxy's sockets and their exchanges (sockflow.bpf.h), the same */
struct fct_flow_socks_map flow_socks SEC(".maps");
struct fct_flow_groups_map flow_groups SEC(".maps");

const volatile __u32 target_tgid = 0;
const volatile __u32 follow_forks = 0;
const volatile __u32 tgid_list = 0;
const volatile __u32 slot_mask = FCT_MAX_SLOTS - 1;
/* bss, not rodata: the budget (user/trace/selfcost.h) raises it while
 * the programs run, to time fewer calls */
__u32 sc_time_every = FCT_SC_EVERY_DEFAULT;
const volatile __u32 holders_on = 0;
const volatile __u32 handles_on = 0;
const volatile __u32 handles_stream = 0;
const volatile __u32 blocked_stacks = 0;
__u32 enabled = 0;
__u64 slots_claimed = 0;
struct fct_lost lost = {};
__u32 tl_on = 0;
__u64 tl_end_ns = 0;
__u64 tl_drops = 0;
__u64 fu_drops = 0;
__u64 fu_sent = 0;
__u32 fu_paused = 0;
__u32 flow_on = 0;
struct fct_hold_global hold_global = {};
__u32 hold_skip = 0;

char LICENSE[] SEC("license") = "Dual BSD/GPL";
