/*
 * slots.h - the BPF thread table's size, and the threads it had no room
 * for. The table (the `slots` array map, bpf/common.bpf.h) is sized at
 * load: twice the target's threads at the start, at least FCT_SLOTS_MIN,
 * at most FCT_SLOTS_MAX, or --max-threads; a power of two, since the BPF
 * side indexes it by tid & (size - 1). A slot's account
 * (struct fct_account) becomes user space's struct fct_thread here.
 */
#ifndef FCTRACE_SLOTS_H
#define FCTRACE_SLOTS_H

#include <stddef.h>
#include <sys/types.h>
#include "trace/kview.h"

/* The threads of process tgid now (its /proc/PID/task entries); 0 if
 * it cannot be read. */
unsigned slots_threads_of(pid_t tgid);
/* The table's size: want rounded up to a power of two when given, else
 * twice nthreads; within [FCT_SLOTS_MIN or 64 when wanted, FCT_SLOTS_MAX]. */
unsigned slots_size(unsigned want, unsigned nthreads);
/* Name the threads of tgid alive now that have no account in kv (a full
 * table lost them): into kv->missing, at most KV_MISSING_MAX. */
void slots_find_missing(struct kview *kv, pid_t tgid);

/* A slot's account as user space keeps it: the same fields, and its
 * syscall table's entries (the slot holds FCT_NR_SLOT numbers in the
 * order first called) in arena, with room for the numbers it spilled;
 * -1 without memory. */
int slots_account_copy(struct fct_thread *out, struct acct_arena *arena,
		       const struct fct_account *a);
/* v added to number nr's figures in t (its entry made if it had none);
 * -1 without memory. */
int slots_nr_add(struct fct_thread *t, struct acct_arena *arena, unsigned nr,
		 const struct fct_nr_stats *v);
/* A number the slot spilled (the nr_spill map's entry k, v) into its
 * thread's table: the latest thread of that tid in kv (ix, n:
 * kview_tids_sorted's); dropped when none has it; -1 without memory. */
int slots_add_spilled(struct kview *kv, const struct kv_tid_at *ix, int n,
		      const struct fct_sc_hist_key *k, const struct fct_nr_stats *v);

#endif /* FCTRACE_SLOTS_H */
