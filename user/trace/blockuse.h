/*
 * blockuse.h - a process's positional reads (pread64, preadv, preadv2)
 * as the block stream of a cache it keeps itself: a database's buffer
 * pool, a user-level block cache. Only the cache's misses reach the
 * kernel (its hits make no syscall), so the stream is of misses: a read
 * of a block read before in the window is a re-read, and its distance in
 * distinct blocks on that stream is how much bigger the cache would have
 * had to be to keep it (an approximation: exact for an LRU in front of
 * the stream, and a bound for one whose hits reorder it). No re-read comes
 * sooner than the cache's own size allows, so where re-reads begin is
 * what it holds now (held), and the curve's N blocks more is the
 * stream's LRU at held + N.
 */
#ifndef FCTRACE_BLOCKUSE_H
#define FCTRACE_BLOCKUSE_H

#include <stdint.h>
#include <sys/types.h>
#include "fctrace.h"

#define BU_MRC_MAX	128
#define BU_PATH_LEN	128

struct bu_point {
	uint64_t size;		/* blocks more than the cache has now */
	double hit_ratio;	/* the share of the reads they would have served */
};

/* One process's block stream, as the run saw it. */
struct kv_blocks {
	uint64_t reads;		/* positional reads of regular files */
	uint64_t direct;	/* of those, on files open O_DIRECT */
	uint64_t bytes;		/* bytes asked for */
	uint64_t block_bytes;	/* the reads' mean size: a block */
	uint64_t blocks;	/* distinct blocks read (estimated when sampled) */
	double rereads;		/* reads of a block read before (estimated) */
	double sample_rate;
	uint64_t held;		/* blocks the cache holds now, estimated: where
				 * re-reads begin on the miss stream (0: too few) */
	uint64_t fix_size;	/* blocks more that keep all but half a percent */
	double hit_ratio_fix;
	struct bu_point mrc[BU_MRC_MAX];
	int nmrc;
	char top_file[BU_PATH_LEN];	/* the file read most, and its share */
	double top_share;
	unsigned files;		/* files read */
	unsigned procs;		/* processes whose reads these are: more than
				 * one share the cache (base/procshm.h) */
	uint64_t shared_bytes;	/* their shared mapping's size (0: not shared) */
};

struct bu_proc;

struct bu_proc *bu_proc_new(void);
void bu_proc_free(struct bu_proc *b);
/* One FCT_FU_READ event of process tgid: path names the file when it is
 * the first read of it (else NULL). */
void bu_read(struct bu_proc *b, const struct fct_fileuse *e, uint64_t file_key);
/* Does the table want the file's path (its first read)? */
int bu_wants_path(const struct bu_proc *b, uint64_t file_key);
void bu_set_path(struct bu_proc *b, uint64_t file_key, const char *path);
/* The figures, 0 reads when none; -ENOMEM. */
int bu_figures(const struct bu_proc *b, struct kv_blocks *out);
uint64_t bu_lost(const struct bu_proc *b);

#endif
