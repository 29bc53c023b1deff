/*
 * stacks.h - call stacks weighted by the time they stand for: what the
 * flame graphs (--folded, --pprof, the HTML report) are drawn from, and
 * what a saved run's "stacks" section holds. Frames are interned once;
 * a stack is a list of frame numbers, root first, with the thread that
 * made it and the lock (as the lock table names it) it waited on.
 */
#ifndef FCTRACE_STACKS_H
#define FCTRACE_STACKS_H

#include <stdbool.h>
#include <stdint.h>
#include "base/idxhash.h"

enum stack_kind { STK_WAIT, STK_CPU, STK_N };

struct sframe {
	char *func;		/* "run", "mutex_lock_[k]" (kernel), "[no user stack]" */
	char *file;		/* source file base name, or "" */
	uint32_t line;		/* 0: unknown */
	bool inlined;		/* inlined into the frame before it (its caller,
				 * root first): one address, DWARF's inlined
				 * subroutine; pprof puts them in one Location */
};

struct sstack {
	uint32_t id;		/* 1, 2, ... (stacks_order) */
	enum stack_kind kind;
	char thread[32];	/* the thread's name */
	char lock[160];		/* what it waited on, as the lock table names it, or "" */
	uint64_t ns;		/* the time it stands for */
	uint64_t samples;	/* the samples it was drawn from (0: an unsampled share) */
	uint32_t *frames;	/* indices into stack_set.frames, root first */
	int nframes;
};

struct stack_set {
	struct sframe *frames;
	int nframes, fcap;
	struct idxhash frame_index;	/* frames by what frame_same compares */
	struct sstack *stacks;
	int n, cap;
	struct idxhash stack_index;	/* stacks by what stack_same compares; emptied
					 * by stacks_order, made again by the next add */
};

/* How a sampled stack's weight is set: docs/flame-graphs.md, JSON and the reports say it. */
#define STACKS_SCALING "each sampled user stack of a (thread, futex word) stands for " \
	"that word's measured wait time divided by its samples; kernel lock stacks carry " \
	"their site's attributed wait time; a thread's sleeps in a syscall (outside futex " \
	"waits) share its exact blocked time there by the time their samples stand for; " \
	"with --cpu-stacks each cpu-clock sample's stack stands for 1/997 s of CPU time"

/* The lock of a sleep's stacks: "[blocked in pread64]", its frame too. */
#define STACKS_BLOCKED_PREFIX "[blocked in "

/* The index of frame (func, file, line), added if new; -1 out of memory. */
int stacks_frame(struct stack_set *ss, const char *func, const char *file, uint32_t line);
/* The same, for a frame that may be inlined into its caller (a frame
 * inlined and one not are two frames). */
int stacks_frame_inl(struct stack_set *ss, const char *func, const char *file, uint32_t line,
		     bool inlined);
/* Add ns (and samples) to the stack (kind, thread, lock, frames): an
 * equal one is merged into. 0, or -1 out of memory. */
int stacks_add(struct stack_set *ss, enum stack_kind kind, const char *thread, const char *lock,
	       const uint32_t *frames, int nframes, uint64_t ns, uint64_t samples);
/* Largest first, ids 1..n in that order. */
void stacks_order(struct stack_set *ss);
uint64_t stacks_total(const struct stack_set *ss, enum stack_kind kind);
/* Of the wait stacks' total: the sleeps in syscalls (STACKS_BLOCKED_PREFIX). */
uint64_t stacks_blocked_total(const struct stack_set *ss);
const char *stacks_kind_name(enum stack_kind kind);	/* "wait", "cpu" */
void stacks_free(struct stack_set *ss);

#endif
