/*
 * run_format.h - the saved run's members, described once: each table
 * names an object's keys in the order report_json.c writes them, their
 * kinds and the struct members they hold. report_json.c writes by them
 * (jw_fields), load_run.c reads by them (jr_fields), so a member added to
 * a table is written and read back alike; docs/fctrace.schema.json
 * describes them, and tests/session/test_saved.c checks the three field by field.
 * What a table cannot say (figures derived in writing, maps keyed by
 * data, values checked against each other) stays beside it in code.
 */
#ifndef FCTRACE_RUN_FORMAT_H
#define FCTRACE_RUN_FORMAT_H

#include "base/jsonread.h"

/* config, but its workload (a program's comm for run -- CMD) */
extern const struct jr_table rf_config;
/* target: what the program was (mode, argv, pid) and how it was sampled
 * (uid, gid, stacks_*, unsymbolised), its ending written between them */
extern const struct jr_table rf_program, rf_sampling;
extern const struct jr_table rf_lock_name;	/* target.lock_names[] */
extern const struct jr_table rf_agent;		/* target.jvm.agent */
extern const struct jr_table rf_lost;		/* lost_events, but its sums */
extern const struct jr_table rf_cost;		/* overhead, but its derived figures */
extern const struct jr_table rf_lock;		/* locks[], but holders, stacks, sites */
extern const struct jr_table rf_site;		/* locks[].sites[] */
/* locks[].wakers, but its threads[] and after[]; and those */
extern const struct jr_table rf_wakers, rf_waker_thread, rf_waker_call;
extern const struct jr_table rf_sib_wakers, rf_sib_call, rf_sib_edge;
extern const struct jr_table rf_chain;		/* locks[].holders.waiting_for[] */
extern const struct jr_table rf_use;		/* threads[].locks.NAME */
extern const struct jr_table rf_other;		/* machine_cpu.others[] */
extern const struct jr_table rf_op_cost;	/* op_costs, but solo */
extern const struct jr_table rf_solo;		/* op_costs.solo */
extern const struct jr_table rf_loss;		/* losses[], but touches */
extern const struct jr_table rf_cpu_split;	/* cpu_split, but method and hz */
extern const struct jr_table rf_klock_sites;	/* kernel_lock_sites, but attribution */
extern const struct jr_table rf_rereads;	/* pagecache_rereads */
extern const struct jr_table rf_disk;		/* disk, but devices */
extern const struct jr_table rf_disk_dev;
extern const struct jr_table rf_disk_ring;	/* disk.devices[] */
/* caches[]: its members before size_now and mrc, and after them */
extern const struct jr_table rf_cache_head, rf_cache_tail;
extern const struct jr_table rf_cache_point;	/* caches[].mrc[], but size_bytes */
/* pools[]: before capacity, after it (whatif aside), and whatif[] */
extern const struct jr_table rf_pool_head, rf_pool_tail, rf_pool_whatif;
/* locks[].wakers.while_waited */
extern const struct jr_table rf_wakers_while;

#endif
