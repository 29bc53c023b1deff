/*
 * fileuse.h - the handles' reference stream (bpf/fileuse.bpf.c, probe
 * group "handles") turned, per process, into the working set of the
 * files it opens again and again and the hit ratio an LRU of open
 * descriptors would have had on it at every size.
 *
 * A file joins a process's set at its second open: a file opened once
 * and kept (a log, a database file) is not cached, it is held; a file
 * opened again was let go and wanted back, which is what a handle cache
 * too small for its working set does. From then on each reference to it
 * (an open, or a call on one of its descriptors; a thread's calls on the
 * file it used last are one reference) is a reference of the stream.
 */
#ifndef FCTRACE_FILEUSE_H
#define FCTRACE_FILEUSE_H

#include <stdint.h>
#include <sys/types.h>
#include "fctrace.h"
#include "trace/blockuse.h"
#include "trace/connuse.h"

#define FU_MRC_MAX	128	/* points of a curve */
#define FU_DIRS_MAX	3	/* directories named, most files first */

struct fu_point {
	uint64_t size;		/* descriptors kept open */
	double hit_ratio;	/* an LRU of that size on this run's stream */
};

/* One process's handles, as the run saw them. */
struct kv_handles {
	pid_t tgid;
	char comm[FCT_COMM_LEN];
	uint64_t accesses;	/* references to the set's files */
	uint64_t opens, closes;	/* of the set's files, counted in the stream */
	uint64_t files;		/* the set: files opened more than once (estimated
				 * when sampled) */
	uint64_t bytes;		/* and their sizes summed */
	uint64_t files_once;	/* regular files opened once (held, not cached) */
	uint64_t size_now;	/* most of the set's files open at once */
	double hit_ratio_now;	/* 1 - opens / accesses */
	double sample_rate;	/* the share of files whose references were kept (1: all) */
	uint64_t fix_size;	/* the smallest LRU that reaches the ceiling */
	double hit_ratio_fix;	/* its hit ratio */
	struct fu_point mrc[FU_MRC_MAX];
	int nmrc;
	/* the directories the set's files are in (names only, the parent's
	 * last component), most files first */
	char dirs[FU_DIRS_MAX][FCT_FU_NAME_LEN];
	uint32_t dir_files[FU_DIRS_MAX];
	int ndirs;
	struct kv_blocks blocks;	/* its positional reads (blockuse.h) */
	struct kv_conns conns;		/* its new connections (connuse.h) */
};

struct fu_streams;

struct fu_streams *fu_streams_new(void);
void fu_streams_free(struct fu_streams *s);
/* One event from the ring (len its size: a short record is ignored). */
void fu_streams_event(struct fu_streams *s, const void *data, size_t len);
/* Each process's set, those with a file opened more than once or a
 * positional read; *out is
 * malloc'd (NULL with 0). 0, or -ENOMEM. */
int fu_streams_read(struct fu_streams *s, struct kv_handles **out, int *n);
/* References that could not be counted (out of memory). */
uint64_t fu_streams_lost(const struct fu_streams *s);
/* The connections the traced processes made so far (their events read):
 * the pump scans for proxies again soon after it changes. */
uint64_t fu_streams_connects(const struct fu_streams *s);

#endif /* FCTRACE_FILEUSE_H */
