/*
 * slotrecycle.h - the thread table's slots of ended threads, emptied while
 * the run goes on. A slot (bpf/common.bpf.h) used to stay its first
 * thread's for the whole run: a server that makes a process or a thread a
 * connection filled a table of 16 384 in minutes with two threads alive,
 * and every thread after was lost. Now, when half the table has been
 * claimed since the last pass, the accounts of threads that ended a
 * while ago are copied out (with the syscall numbers they spilled) and
 * their slots marked FCT_TID_RECYCLED for new threads to claim. The
 * copies join the table's own accounts when the run is read.
 */
#ifndef FCTRACE_SLOTRECYCLE_H
#define FCTRACE_SLOTRECYCLE_H

#include <stddef.h>
#include <stdint.h>
#include "trace/kview.h"

struct slotrec;

/* Over the slots map (fd, mmapable, nslots values of vsz bytes) and the
 * nr_spill map (spill_fd); claimed points at the BPF side's count of
 * slots given. NULL when the map cannot be mapped writable or memory
 * runs out: then nothing is recycled. */
struct slotrec *slotrec_open(int fd, size_t vsz, unsigned nslots, int spill_fd,
			     const volatile __u64 *claimed);
/* A turn of the watch loop at now (CLOCK_MONOTONIC ns): a pass when
 * half the table is taken and an eighth claimed since the last pass
 * (at most ten a second). */
void slotrec_tick(struct slotrec *r, uint64_t now);
/* One pass now: the slots of threads ended before now - SLOTREC_AGE_NS
 * emptied; how many. */
unsigned slotrec_pass(struct slotrec *r, uint64_t now);
/* Slots emptied so far. */
uint64_t slotrec_recycled(const struct slotrec *r);
/* The accounts taken out, moved onto kv->threads (their syscall tables
 * into kv->nr_arena); -ENOMEM. r keeps none after. */
int slotrec_move_into(struct slotrec *r, struct kview *kv);
void slotrec_free(struct slotrec *r);

#endif /* FCTRACE_SLOTRECYCLE_H */
