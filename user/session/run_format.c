/*
 * run_format.c - the saved run's members, described once (run_format.h).
 */
#include "session/session.h"
#include "session/run_format.h"

#define OPT		JR_SINCE	/* absent in runs saved before the key */
#define OPT_NULL	(JR_SINCE | JR_NULL)
#define LOAD_MAX_ROWS	16384		/* threads of another program, JVMs included */

/* absent in runs saved before kinds were written: LK_LOCK, a lock of no
 * named type */
static const char *const lock_kinds[LK_N] = LOCK_KIND_NAMES;
static const char *const handles[] = { "shared", "per-thread", "locked" };
static const char *const caches[] = { "warm", "cold" };

static const struct jr_field config[] = {
	JR_FIELD(wl_config, "files", files), JR_FIELD(wl_config, "threads", threads),
	JR_FIELD(wl_config, "ops", ops), JR_FIELD(wl_config, "file_size", file_size),
	JR_FIELD(wl_config, "chunk", chunk), JR_FIELD(wl_config, "pool", pool),
	JR_FIELD(wl_config, "block", block), JR_FIELD(wl_config, "cache_size", cache_size),
	JR_FIELD(wl_config, "seed", seed), JR_BOOLF(wl_config, "shared_file", shared_file),
	JR_CHOICEF(wl_config, "handle", handle, handles),
	JR_CHOICEF(wl_config, "cache", cache, caches),
	JR_DOUBLEF(wl_config, "pressure", pressure),
};
const struct jr_table rf_config = JR_TABLE(config);

static const char *const modes[] = { [TGT_EXEC] = "exec", [TGT_ATTACH] = "attach" };

static const struct jr_field program[] = {
	JR_CHOICEF(target_info, "mode", mode, modes),
	JR_STRF(target_info, "argv", cmdline, 0),
	JR_MAX(target_info, "pid", pid, INT32_MAX),
};
const struct jr_table rf_program = JR_TABLE(program);

static const struct jr_field sampling[] = {
	JR_FIELD(target_info, "uid", uid), JR_FIELD_IF(target_info, "gid", gid, OPT),
	JR_FIELD(target_info, "stacks_sampled", stacks_received),
	JR_FIELD(target_info, "stacks_unwound", stacks_unwound),
	JR_FIELD_IF(target_info, "stacks_dropped", stacks_dropped, OPT),
	JR_FIELD_IF(target_info, "words_unnamed", words_unnamed, OPT),
	JR_STRF(target_info, "unsymbolised", unsymbolised, OPT_NULL),
};
const struct jr_table rf_sampling = JR_TABLE(sampling);

static const struct jr_field lock_name[] = {
	JR_STRF(lock_name, "name", name, 0), JR_STRF(lock_name, "site", site, 0),
	JR_CHOICE_IF(lock_name, "kind", kind, lock_kinds, OPT),
	JR_BOOLF(lock_name, "is_lock", is_lock), JR_FIELD(lock_name, "samples", samples),
};
const struct jr_table rf_lock_name = JR_TABLE(lock_name);

static const struct jr_field agent[] = {
	JR_FIELD(joined_run, "walks_first", jvm_agent_walks),
	JR_FIELD(joined_run, "walks_every", jvm_agent_every),
	JR_FIELD(joined_run, "park_period_ms", jvm_agent_period_ms),
	JR_FIELD(joined_run, "park_stacks", jvm_agent_park_walks),
};
const struct jr_table rf_agent = JR_TABLE(agent);

static const struct jr_field lost[] = {
	JR_FIELD(fct_lost, "slot_full", slot_full),
	JR_FIELD(fct_lost, "futex_map_full", futex_map_full),
	JR_FIELD(fct_lost, "klock_map_full", klock_map_full),
	JR_FIELD(fct_lost, "pagecache_map_full", pc_map_full),
	JR_FIELD(fct_lost, "stack_lost", stack_lost),
	JR_FIELD(fct_lost, "ustack_drops", ustack_drops),
	/* the JVM's and the evictions' losses joined the rest later */
	JR_FIELD_IF(fct_lost, "jvm_threads_full", jvm_threads_full, OPT),
	JR_FIELD_IF(fct_lost, "jvm_monitors_full", jvm_monitors_full, OPT),
	JR_FIELD_IF(fct_lost, "tgids_full", tgids_full, OPT),
	JR_FIELD_IF(fct_lost, "pagecache_evict_full", pc_evict_full, OPT),
	JR_FIELD_IF(fct_lost, "syscall_hist_full", sc_hist_full, OPT),
	JR_FIELD_IF(fct_lost, "syscall_spill_full", nr_spill_full, OPT),
	JR_FIELD_IF(fct_lost, "wake_after_full", wake_after_full, OPT),
	JR_FIELD_IF(fct_lost, "pool_full", pool_full, OPT),
	JR_FIELD_IF(fct_lost, "flame_stack_drops", flame_stack_drops, OPT),
	JR_FIELD_IF(fct_lost, "hooks_skipped", hooks_skipped, OPT),
};
const struct jr_table rf_lost = JR_TABLE(lost);

/* fctrace's cost, sampled (trace/selfcost.h); `share` and `bpf_est_ns`
 * are written beside them, derived */
static const struct jr_field cost[] = {
	JR_FIELD(selfcost_figures, "samples", samples),
	JR_FIELD(selfcost_figures, "sampled_ns", sampled_ns),
	JR_FIELD(selfcost_figures, "bpf_ns", bpf_ns),
	JR_FIELD(selfcost_figures, "bpf_runs", bpf_runs),
	JR_FIELD(selfcost_figures, "target_cpu_ns", target_ns),
	JR_FIELD(selfcost_figures, "tracer_cpu_ns", tracer_ns),
	JR_FIELD(selfcost_figures, "window_ns", window_ns),
	JR_DOUBLEF(selfcost_figures, "budget", budget),
	JR_DOUBLEF(selfcost_figures, "peak_share", peak_share),
	JR_FIELD(selfcost_figures, "files_stopped_at_ns", paused_at_ns),
	JR_DOUBLEF(selfcost_figures, "with_files_share", with_files_share),
	JR_DOUBLEF(selfcost_figures, "without_files_share", without_files_share),
	JR_FIELD(selfcost_figures, "files_trial_ns", trial_ns),
	JR_FIELD_IF(selfcost_figures, "files_void_trial_ns", void_trial_ns, OPT),
	JR_FIELD_IF(selfcost_figures, "timing_stepped_at_ns", timing_at_ns, OPT),
	JR_MAX_IF(selfcost_figures, "time_every_before", time_every_before, FCT_SC_EVERY_MAX, OPT),
	JR_MAX_IF(selfcost_figures, "time_every_after", time_every_after, FCT_SC_EVERY_MAX, OPT),
	{ .key = "timing_share", .kind = JR_DOUBLE, .flags = OPT,
	  JR_AT(selfcost_figures, timing_share) },
	JR_FIELD_IF(selfcost_figures, "holders_narrowed_at_ns", holders_at_ns, OPT),
	JR_MAX_IF(selfcost_figures, "holders_kept", holders_kept, FCT_HOLD_SLOTS, OPT),
	JR_MAX_IF(selfcost_figures, "holders_dropped", holders_dropped, FCT_HOLD_SLOTS, OPT),
	{ .key = "holders_share", .kind = JR_DOUBLE, .flags = OPT,
	  JR_AT(selfcost_figures, holders_share) },
};
const struct jr_table rf_cost = JR_TABLE(cost);

static const struct jr_field lock[] = {
	JR_STRF(lock_total, "name", name, 0), JR_BOOLF(lock_total, "kernel", kernel),
	JR_FIELD(lock_total, "waits", waits), JR_FIELD(lock_total, "wait_ns", wait_ns),
	JR_FIELD(lock_total, "max_ns", max_ns),
	JR_MAX(lock_total, "threads", threads, LOAD_MAX_ROWS),
	JR_CHOICE_IF(lock_total, "kind", kind, lock_kinds, OPT),
	JR_BOOLF(lock_total, "is_lock", is_lock), JR_FIELD(lock_total, "runq_ns", runq_ns),
	JR_FIELD(lock_total, "wakes", wakes),
	JR_FIELD(lock_total, "wakes_by_waiters", wakes_by_waiters),
	JR_BOOLF(lock_total, "taken_in_turns", turns),
};
const struct jr_table rf_lock = JR_TABLE(lock);

static const struct jr_field wakers[] = {
	JR_FIELD(lock_wakers, "wakes", wakes),
	JR_CHOICEF(lock_wakers, "class", cls, wake_class_names),
	JR_FIELD(lock_wakers, "more_threads", more_threads),
};
const struct jr_table rf_wakers = JR_TABLE(wakers);

/* wakers.while_waited: the waiters' time by what the wakers did between
 * their wakes, and the spans that rests on */
static const struct jr_field wakers_while[] = {
	JR_NSF(lock_wakers, "syscall_ns", while_waited_ns[HS_SYSCALL]),
	JR_NSF(lock_wakers, "blocked_ns", while_waited_ns[HS_BLOCKED]),
	JR_NSF(lock_wakers, "preempted_ns", while_waited_ns[HS_PREEMPTED]),
	JR_NSF(lock_wakers, "user_ns", while_waited_ns[HS_USER]),
	JR_NSF(lock_wakers, "waiting_ns", while_waited_ns[HS_WAITING]),
	JR_FIELD(lock_wakers, "cycles", cycles),
	JR_NSF(lock_wakers, "span_ns", span_ns),
	JR_NSF(lock_wakers, "between_syscall_ns", between_ns[HS_SYSCALL]),
	JR_NSF(lock_wakers, "between_blocked_ns", between_ns[HS_BLOCKED]),
	JR_NSF(lock_wakers, "between_preempted_ns", between_ns[HS_PREEMPTED]),
	JR_NSF(lock_wakers, "between_user_ns", between_ns[HS_USER]),
	JR_NSF(lock_wakers, "between_waiting_ns", between_ns[HS_WAITING]),
};
const struct jr_table rf_wakers_while = JR_TABLE(wakers_while);

static const struct jr_field waker_thread[] = {
	JR_FIELD(waker_thread, "tid", tid), JR_STRF(waker_thread, "comm", comm, 0),
	JR_FIELD(waker_thread, "wakes", wakes),
};
const struct jr_table rf_waker_thread = JR_TABLE(waker_thread);

static const struct jr_field waker_call[] = {
	JR_STRF(waker_call, "syscall", call, 0), JR_FIELD(waker_call, "wakes", wakes),
};
const struct jr_table rf_waker_call = JR_TABLE(waker_call);

/* sibling_wakers[]: sleeps ended by a sibling's kill or write, by the
 * waker's call before the wake; after is written in code */
static const struct jr_field sib_wakers_row[] = {
	JR_CHOICEF(sib_wakers, "kind", by, sib_kind_names),
	JR_FIELD(sib_wakers, "wakes", wakes), JR_FIELD(sib_wakers, "wait_ns", wait_ns),
	JR_CHOICEF(sib_wakers, "class", cls, wake_class_names),
};
const struct jr_table rf_sib_wakers = JR_TABLE(sib_wakers_row);

static const struct jr_field sib_call_row[] = {
	JR_STRF(sib_call, "syscall", call, 0), JR_FIELD(sib_call, "wakes", wakes),
	JR_FIELD(sib_call, "wait_ns", wait_ns),
};
const struct jr_table rf_sib_call = JR_TABLE(sib_call_row);

/* sibling_edges[]: the same sleeps by waiter and waker thread */
static const struct jr_field sib_edge_row[] = {
	JR_FIELD(sib_edge, "waiter", waiter), JR_STRF(sib_edge, "waiter_comm", waiter_comm, 0),
	JR_FIELD(sib_edge, "waker", waker), JR_STRF(sib_edge, "waker_comm", waker_comm, 0),
	JR_CHOICEF(sib_edge, "kind", by, sib_kind_names), JR_STRF(sib_edge, "syscall", call, 0),
	JR_FIELD(sib_edge, "wakes", wakes), JR_FIELD(sib_edge, "wait_ns", wait_ns),
};
const struct jr_table rf_sib_edge = JR_TABLE(sib_edge_row);

static const struct jr_field site[] = {
	JR_STRF(lock_site, "site", site, 0), JR_FIELD(lock_site, "waits", waits),
	JR_FIELD(lock_site, "wait_ns", wait_ns),
};
const struct jr_table rf_site = JR_TABLE(site);

static const struct jr_field chain[] = {
	JR_STRF(hold_chain, "lock", lock, 0), JR_BOOLF(hold_chain, "is_lock", is_lock),
	JR_FIELD(hold_chain, "waits", count), JR_NSF(hold_chain, "ns", ns),
};
const struct jr_table rf_chain = JR_TABLE(chain);

static const struct jr_field use[] = {
	JR_FIELD(lock_use, "waits", waits), JR_FIELD(lock_use, "wait_ns", wait_ns),
	JR_FIELD(lock_use, "max_ns", max_ns),
	JR_CHOICE_IF(lock_use, "kind", kind, lock_kinds, OPT),
	JR_BOOLF(lock_use, "is_lock", is_lock),
	JR_FIELD(lock_use, "runq_ns", runq_ns),
};
const struct jr_table rf_use = JR_TABLE(use);

static const struct jr_field other[] = {
	JR_FIELD(kv_other, "pid", tgid), JR_STRF(kv_other, "comm", comm, 0),
	JR_FIELD(kv_other, "samples", samples),
};
const struct jr_table rf_other = JR_TABLE(other);

static const struct jr_field op_cost[] = {
	JR_FIELD(joined_run, "hit_p50_ns", op_hit_p50_ns),
	JR_FIELD(joined_run, "miss_p50_ns", op_miss_p50_ns),
	JR_FIELD(joined_run, "read_p50_ns", read_p50_ns),
	JR_FIELD(joined_run, "hold_hit_ns", hold_hit_ns),
	JR_FIELD(joined_run, "hold_miss_ns", hold_miss_ns),
	JR_FIELD(joined_run, "hold_put_ns", hold_put_ns),
};
const struct jr_table rf_op_cost = JR_TABLE(op_cost);

static const struct jr_field solo[] = {
	JR_FIELD(solo_costs, "hit_ns", hit_ns), JR_FIELD(solo_costs, "miss_ns", miss_ns),
	JR_FIELD(solo_costs, "fc_ns", fc_ns),
};
const struct jr_table rf_solo = JR_TABLE(solo);

static const struct jr_field loss[] = {
	JR_STRF(loss, "lost", id, 0), JR_FIELD(loss, "count", count),
	JR_DOUBLEF(loss, "kept", kept), JR_STRF(loss, "says", says, 0),
};
const struct jr_table rf_loss = JR_TABLE(loss);

static const struct jr_field cpu_split[] = {
	JR_MAX(joined_run, "threads", cpu_split_rows, LOAD_MAX_ROWS),
	JR_MAX(joined_run, "threads_sampled", cpu_split_sampled, LOAD_MAX_ROWS),
	JR_FIELD(joined_run, "samples_user", cpu_samples_user),
	JR_FIELD(joined_run, "samples_sys", cpu_samples_sys),
	JR_FIELD(joined_run, "samples_futex", cpu_samples_futex),
};
const struct jr_table rf_cpu_split = JR_TABLE(cpu_split);

static const struct jr_field klock_sites[] = {
	JR_FIELD(joined_run, "exact_wait_ns", klock_exact_ns),
	JR_FIELD(joined_run, "sampled_wait_ns", klock_est_ns),
};
const struct jr_table rf_klock_sites = JR_TABLE(klock_sites);

static const struct jr_field mem_available[] = {
	JR_FIELD(pc_evictions, "open", avail_kb[0]),
	JR_FIELD(pc_evictions, "close", avail_kb[1]),
};

static const struct jr_field rereads[] = {
	JR_FIELD(pc_evictions, "reread_pages", reread_pages),
	JR_FIELD(pc_evictions, "first_read_pages", first_pages),
	JR_FIELD(pc_evictions, "removed_pages", removed_pages),
	JR_FIELD(pc_evictions, "files", files),
	JR_OBJECT("mem_available_kb", mem_available, 0),
	JR_FIELD_IF(pc_evictions, "reclaimed_pages", reclaimed_pages, OPT),
	JR_FIELD_IF(pc_evictions, "reclaim_reread_pages", reclaim_reread_pages, OPT),
	JR_FIELD_IF(pc_evictions, "keep_half_pages", keep_half_pages, OPT),
	JR_FIELD_IF(pc_evictions, "keep_most_pages", keep_most_pages, OPT),
};
const struct jr_table rf_rereads = JR_TABLE(rereads);

/* disk (the disk probe group; join/disk.h) */
static const struct jr_field disk_latency[] = {
	JR_FIELD(disk_run, "p50", read_p50_ns), JR_FIELD(disk_run, "p99", read_p99_ns),
	JR_FIELD(disk_run, "mean", read_mean_ns),
};

static const struct jr_field disk[] = {
	JR_FIELD(disk_run, "reads", reads), JR_FIELD(disk_run, "read_bytes", read_bytes),
	JR_FIELD(disk_run, "writes", writes), JR_FIELD(disk_run, "write_bytes", write_bytes),
	JR_FIELD(disk_run, "flushes", flushes),
	JR_FIELD(disk_run, "read_ns", read_ns), JR_FIELD(disk_run, "write_ns", write_ns),
	JR_OBJECT("read_latency_ns", disk_latency, 0),
	JR_FIELD(disk_run, "window_ns", window_ns), JR_FIELD(disk_run, "lost", lost),
};
const struct jr_table rf_disk = JR_TABLE(disk);

static const struct jr_field disk_dev_latency[] = {
	JR_FIELD(disk_dev_row, "p50", read_p50_ns), JR_FIELD(disk_dev_row, "p99", read_p99_ns),
};

static const struct jr_field disk_dev[] = {
	JR_STRF(disk_dev_row, "name", name, 0),
	JR_FIELD(disk_dev_row, "reads", reads), JR_FIELD(disk_dev_row, "read_bytes", read_bytes),
	JR_FIELD(disk_dev_row, "writes", writes),
	JR_FIELD(disk_dev_row, "write_bytes", write_bytes),
	JR_FIELD(disk_dev_row, "flushes", flushes), JR_FIELD(disk_dev_row, "busy_ns", busy_ns),
	JR_FIELD(disk_dev_row, "queue_ns", queue_ns),
	JR_OBJECT("read_latency_ns", disk_dev_latency, 0),
	{ .key = "from_diskstats", .kind = JR_BOOL, .flags = OPT, JR_AT(disk_dev_row, from_diskstats) },
	JR_FIELD_IF(disk_dev_row, "probed_reads", probed_reads, OPT),
	JR_FIELD_IF(disk_dev_row, "probed_writes", probed_writes, OPT),
};
const struct jr_table rf_disk_dev = JR_TABLE(disk_dev);

/* disk.io_uring[]: a ring's operations by kind (fctrace.h's enum
 * fct_uring_kind: reads, writes, others) */
static const struct jr_field disk_ring_row[] = {
	JR_FIELD(disk_ring, "pid", pid), JR_FIELD(disk_ring, "ring", ring),
	JR_NUMSF(disk_ring, "submitted", submitted), JR_NUMSF(disk_ring, "completed", completed),
	JR_NUMSF(disk_ring, "bytes", bytes), JR_NUMSF(disk_ring, "latency_ns", lat_ns),
	JR_FIELD(disk_ring, "max_ns", max_ns), JR_FIELD(disk_ring, "errors", errors),
	JR_FIELD(disk_ring, "async", async), JR_FIELD(disk_ring, "untracked", untracked),
};
const struct jr_table rf_disk_ring = JR_TABLE(disk_ring_row);
/* ---- caches[] (report/caches_json.c, session/load_caches.c) ---------------- */

static const struct jr_field cache_ws[] = {
	JR_FIELD(cache_entry, "items", ws_items),
	JR_FIELD(cache_entry, "bytes", ws_bytes),
};

static const struct jr_field cache_fix[] = {
	JR_FIELD(cache_entry, "items", fix_items),
	JR_FIELD(cache_entry, "bytes", fix_bytes),
	JR_DOUBLEF(cache_entry, "hit_ratio", hit_ratio_fix),
	JR_FIELD(cache_entry, "misses", misses_at_fix),
	JR_NSF(cache_entry, "saved_ns", saved_ns),
};

static const struct jr_field cache_cost[] = {
	JR_NSF(cache_entry, "each_ns", miss_each_ns),
	JR_NSF(cache_entry, "total_ns", miss_ns),
};

/* connections: the peer, and what a connection cost and how long it lived */
static const struct jr_field cache_conn[] = {
	JR_STRF(cache_entry, "peer", conn.peer, 0),
	JR_FIELD(cache_entry, "setups", conn.setups),
	JR_FIELD(cache_entry, "closes", conn.closes),
	JR_NSF(cache_entry, "connect_each_ns", conn.connect_each_ns),
	JR_NSF(cache_entry, "setup_each_ns", conn.setup_each_ns),
	JR_NSF(cache_entry, "lived_each_ns", conn.lived_each_ns),
};

/* in the order written: size_now and mrc, written in code, between
 * working_set and fix_size */
static const struct jr_field cache_head[] = {
	JR_CHOICEF(cache_entry, "kind", kind, cache_kind_names),
	JR_STRF(cache_entry, "object", object, 0),
	JR_FIELD(cache_entry, "pid", pid),
	JR_STRF(cache_entry, "comm", comm, 0),
	JR_FIELD(cache_entry, "accesses", accesses),
	JR_FIELD(cache_entry, "misses", misses),
	JR_OBJECT("working_set", cache_ws, 0),
};
static const struct jr_field cache_tail[] = {
	JR_OBJECT("fix_size", cache_fix, 0),
	JR_OBJECT("miss_cost", cache_cost, 0),
	JR_DOUBLEF(cache_entry, "sample_rate", sample_rate),
	/* blocks: what the Why's block_cache_too_small is made of; absent in
	 * runs saved before it */
	{ .key = "rereads", .kind = JR_DOUBLE, .flags = JR_SINCE, JR_AT(cache_entry, rereads) },
	JR_FIELD_IF(cache_entry, "direct", direct, JR_SINCE),
	JR_FIELD_IF(cache_entry, "processes", procs, JR_SINCE),
	JR_FIELD_IF(cache_entry, "held_items", held_items, JR_SINCE),
	JR_FIELD_IF(cache_entry, "shared_bytes", shared_bytes, JR_SINCE),
	/* connections only (null for the other kinds); absent before them */
	JR_OBJECT_AS(cache_entry, "connection", has_conn, cache_conn, JR_NULL | JR_SINCE),
};
const struct jr_table rf_cache_head = JR_TABLE(cache_head);
const struct jr_table rf_cache_tail = JR_TABLE(cache_tail);

static const struct jr_field cache_point[] = {
	JR_FIELD(fu_point, "size_items", size),
	JR_DOUBLEF(fu_point, "hit_ratio", hit_ratio),
};
const struct jr_table rf_cache_point = JR_TABLE(cache_point);

/* pools[] (join/pools.h): capacity and whatif are written in code */
static const char *const pool_kind_names[LK_N] = LOCK_KIND_NAMES;

static const struct jr_field pool_head[] = {
	JR_STRF(pool_row, "name", name, 0),
	JR_CHOICEF(pool_row, "kind", kind, pool_kind_names),
	JR_FIELD(pool_row, "pid", tgid),
	JR_FIELD(pool_row, "threads", threads),
	/* connections only (null for the others); absent before them */
	JR_STRF(pool_row, "peer", peer, JR_NULL | JR_SINCE),
};

static const struct jr_field pool_state[] = {
	JR_NSF(pool_row, "syscall_ns", state_ns[HS_SYSCALL]),
	JR_NSF(pool_row, "blocked_ns", state_ns[HS_BLOCKED]),
	JR_NSF(pool_row, "preempted_ns", state_ns[HS_PREEMPTED]),
	JR_NSF(pool_row, "user_ns", state_ns[HS_USER]),
	JR_NSF(pool_row, "waiting_ns", state_ns[HS_WAITING]),
};

static const struct jr_field pool_tail[] = {
	JR_CHOICEF(pool_row, "capacity_method", how, pool_capacity_how_names),
	JR_DOUBLEF(pool_row, "capacity_estimate", capacity_est),
	JR_DOUBLEF(pool_row, "capacity_low", capacity_low),
	JR_FIELD(pool_row, "acquisitions", releases),
	JR_FIELD(pool_row, "acquisitions_queued", queued_releases),
	JR_FIELD(pool_row, "waits", waits),
	JR_FIELD(pool_row, "wait_ns", wait_ns),
	JR_FIELD(pool_row, "holds_seen", holds),
	JR_FIELD(pool_row, "retries", retries),
	JR_NSF(pool_row, "hold_ns_mean", hold_ns),
	JR_DOUBLEF(pool_row, "holders_mean", holders_mean),
	JR_DOUBLEF(pool_row, "waiters_mean", waiters_mean),
	JR_FIELD(pool_row, "max_holders_seen", max_holding),
	JR_FIELD(pool_row, "queued_ns", queued_ns),
	JR_NSF(pool_row, "outside_ns", outside_ns),
	JR_NSF(pool_row, "cpu_ns", cpu_ns),
	JR_NSF(pool_row, "queue_cpu_ns", queue_cpu_ns),
	JR_DOUBLEF(pool_row, "runq_share", runq_share),
	JR_NSF(pool_row, "window_ns", window_ns),
	JR_FIELD(pool_row, "cpus", ncpus),
	JR_OBJECT("hold_state", pool_state, 0),
	/* connections whose peer was traced too (pools_peer.h); 0 for the
	 * others; absent before them */
	JR_FIELD_IF(pool_row, "peer_processes", peer_processes, OPT),
	JR_FIELD_IF(pool_row, "peer_threads", peer_threads, OPT),
	JR_FIELD_IF(pool_row, "peer_connections", peer_connections, OPT),
	{ .key = "peer_wait_ns", .kind = JR_NS, .flags = OPT, JR_AT(pool_row, peer_wait_ns) },
	{ .key = "peer_work_share", .kind = JR_DOUBLE, .flags = OPT,
	  JR_AT(pool_row, peer_work_share) },
	{ .key = "peer_idle_share", .kind = JR_DOUBLE, .flags = OPT,
	  JR_AT(pool_row, peer_idle_share) },
};

static const struct jr_field pool_whatif_row[] = {
	JR_FIELD(pool_whatif, "capacity", capacity),
	JR_FIELD(pool_whatif, "threads", threads),
	JR_NSF(pool_whatif, "predicted_wall_ns", wall_ns),
};
const struct jr_table rf_pool_head = JR_TABLE(pool_head);
const struct jr_table rf_pool_tail = JR_TABLE(pool_tail);
const struct jr_table rf_pool_whatif = JR_TABLE(pool_whatif_row);
