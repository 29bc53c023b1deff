/*
 * disk.h - the disk as the run saw it (the disk probe group,
 * bpf/disk.bpf.c): the traced program's requests and their latency, each
 * thread's, and every disk's for the window; what the report, the JSON's
 * `disk` and the disk-reads cause read.
 */
#ifndef FCTRACE_JOIN_DISK_H
#define FCTRACE_JOIN_DISK_H

#include <stdbool.h>
#include <stdint.h>
#include "trace/kview.h"

#define DISK_DEVS_MAX	8	/* disks kept, most requests first */

/* One disk, every process's requests completed in the window. */
struct disk_dev_row {
	char name[FCT_DISK_NAME_LEN];
	uint64_t reads, read_bytes, writes, write_bytes;
	uint64_t flushes;
	uint64_t busy_ns;	/* at least one request in flight */
	uint64_t queue_ns;	/* requests' time from start to completion, summed:
				 * queue_ns / window is the mean queue depth */
	uint64_t read_p50_ns, read_p99_ns;	/* issue to completion */
	bool from_diskstats;	/* the counts, busy and queue time are /proc/diskstats'
				 * over the window; else the probes' */
	uint64_t probed_reads, probed_writes;	/* what the probes saw complete */
};

/* A thread's requests (struct fct_disk_thread). */
struct disk_thread_row {
	uint64_t reads, read_bytes, read_ns;
	uint64_t writes, write_bytes, write_ns;
	uint64_t flushes;
};

#define DISK_RINGS_MAX	8	/* io_uring rings kept, most submitted first */

/* One io_uring ring of a traced process (struct fct_uring_val): its
 * operations by kind (reads, writes, others), their results and time. */
struct disk_ring {
	uint32_t pid;
	uint32_t ring;		/* 1, 2 ... among its process's rings (by the kernel's
				 * address, which is not shown: no kernel pointer leaves) */
	uint64_t submitted[FCT_URING_KINDS], completed[FCT_URING_KINDS];
	uint64_t bytes[FCT_URING_KINDS], lat_ns[FCT_URING_KINDS];
	uint64_t max_ns, errors, async, untracked;
};

struct disk_run {
	bool on;		/* the disk probes ran */
	/* the traced program's requests (every traced thread's, rows or not) */
	uint64_t reads, read_bytes, writes, write_bytes, flushes;
	uint64_t read_ns, write_ns;	/* its threads' time with one in flight, summed */
	uint64_t read_p50_ns, read_p99_ns;	/* its reads, issue to completion */
	uint64_t read_mean_ns;		/* the same, mean (from the histogram) */
	uint64_t window_ns;	/* the interval the disks' figures cover */
	struct disk_dev_row dev[DISK_DEVS_MAX];
	int ndevs;
	uint64_t lost;		/* requests not followed (the tables were full) */
	struct disk_ring ring[DISK_RINGS_MAX];	/* io_uring (uring.bpf.c) */
	int nrings;
};

/* From the kernel view (NULL or without the disk group: o->on false). */
void disk_build(struct disk_run *o, const struct kview *kv);
/* Thread tid's requests, zero when none. */
struct disk_thread_row disk_thread_of(const struct kview *kv, uint32_t tid);
/* A disk's mean queue depth over the window (0: unknown). */
double disk_queue_depth(const struct disk_run *o, const struct disk_dev_row *d);

#endif
