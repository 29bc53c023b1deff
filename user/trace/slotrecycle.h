/*
 * slotrecycle.h - the thread table's slots of ended threads, emptied while
 * the run goes on. A slot (bpf/common.bpf.h) used to stay its first
 * thread's for the whole run: a server that makes a process or a thread a
 * connection filled a table of 16 384 in minutes with two threads alive,
 * and every thread after was lost. Now, when half the table has been
 * claimed since the last pass, the accounts of threads that ended a
 * while ago are copied out (with the syscall numbers they spilled) and
 * their slots marked FCT_TID_RECYCLED for new threads to claim; their
 * entries in the maps keyed by thread go with them. The copies join the
 * table's own accounts and the maps' entries when the run is read.
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
/* A map whose key begins with a thread's tid (fd; key and value sizes):
 * each pass moves the entries of the threads it recycled out of it too;
 * -1 when r is NULL or has no room. */
int slotrec_track_map(struct slotrec *r, int fd, size_t ksz, size_t vsz);
/* The entries moved out of map fd, each given to add as the map's own
 * reader would be; add's first error ends it. */
typedef int (*slotrec_add_fn)(struct kview *kv, const void *k, const void *v, void *arg);
int slotrec_each_moved(const struct slotrec *r, int fd, slotrec_add_fn add,
		       struct kview *kv, void *arg);
/* Map entries moved out so far. */
uint64_t slotrec_moved(const struct slotrec *r);
/* Slots emptied so far. */
uint64_t slotrec_recycled(const struct slotrec *r);
/* The accounts taken out, moved onto kv->threads (their syscall tables
 * into kv->nr_arena); -ENOMEM. r keeps none after. */
int slotrec_move_into(struct slotrec *r, struct kview *kv);
void slotrec_free(struct slotrec *r);

#endif /* FCTRACE_SLOTRECYCLE_H */
