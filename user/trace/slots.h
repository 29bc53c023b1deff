/*
 * slots.h - the BPF thread table's size, and the threads it had no room
 * for. The table (the `slots` array map, bpf/common.bpf.h) is sized at
 * load: twice the target's threads at the start, at least FCT_SLOTS_MIN,
 * at most FCT_SLOTS_MAX, or --max-threads; a power of two, since the BPF
 * side indexes it by tid & (size - 1).
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

#endif /* FCTRACE_SLOTS_H */
