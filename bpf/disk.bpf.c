// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * disk.bpf.c - disk I/O at the block layer (`--probes disk`): every
 * request the block layer accounts, from block_io_start (in the context
 * of the thread that submitted it) through block_rq_issue (the driver
 * takes it) to block_rq_complete; per disk for every process, and per
 * traced thread that caused it (struct fct_disk_dev, fct_disk_thread).
 *
 * Three hooks per request, none per syscall: the cost grows with the
 * disk's request rate, not the program's syscall rate.
 */
#include "common.bpf.h"

struct disk_rq {
	__u64 start_ns;		/* block_io_start; 0: not seen (a flush machinery's own) */
	__u64 issue_ns;		/* block_rq_issue; 0: not yet */
	__u32 tid;		/* the submitter, when traced (else 0) */
	__u32 tgid;
	__u32 dev;
	__u32 bytes;
	__u32 dir;		/* enum fct_disk_dir, or FCT_DISK_DIRS: neither */
	__u32 flush;		/* a flush, or a write with a preflush */
	__u32 ended;		/* completed or merged away, but still in the table */
	__u32 pad;
};


struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FCT_DISK_RQS);
	__type(key, __u64);		/* the struct request */
	__type(value, struct disk_rq);
} disk_rqs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FCT_DISK_DEVS);
	__type(key, __u32);
	__type(value, struct fct_disk_dev);
} disk_devs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FCT_DISK_THREADS);
	__type(key, __u32);
	__type(value, struct fct_disk_thread);
} disk_threads SEC(".maps");

struct fct_disk_global disk_global = {};

/*
 * The request's entry while it is in flight, or NULL. A delete can fail:
 * a completion's interrupt that lands while this CPU's program holds the
 * table's bucket lock gets -EBUSY. Such an entry is marked ended first, so
 * that it never counts again when the request is reused for another that
 * does not pass block_io_start (a flush); block_io_start overwrites it.
 */
static __always_inline struct disk_rq *rq_live(__u64 *key)
{
	struct disk_rq *p = bpf_map_lookup_elem(&disk_rqs, key);

	return p && !p->ended ? p : NULL;
}

static __always_inline void rq_end(struct disk_rq *p, __u64 *key)
{
	p->ended = 1;
	bpf_map_delete_elem(&disk_rqs, key);
}

/* scratch zero values, too large for the BPF stack */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct fct_disk_dev);
} disk_zero_dev SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct fct_disk_thread);
} disk_zero_thread SEC(".maps");

#define REQ_OP_MASK_	0xff
#define REQ_OP_READ_	0
#define REQ_OP_WRITE_	1
#define REQ_OP_FLUSH_	2

/* The request's disk as MKDEV(major, first_minor), kernel encoding. */
static __always_inline __u32 rq_dev(struct request *rq, struct gendisk **diskp)
{
	struct gendisk *disk = BPF_CORE_READ(rq, q, disk);

	*diskp = disk;
	if (!disk)
		return 0;
	return ((__u32)BPF_CORE_READ(disk, major) << 20) | (__u32)BPF_CORE_READ(disk, first_minor);
}

static __always_inline struct fct_disk_dev *dev_entry(__u32 dev, struct gendisk *disk)
{
	struct fct_disk_dev *d = bpf_map_lookup_elem(&disk_devs, &dev), *z;
	__u32 k = 0;

	if (d)
		return d;
	z = bpf_map_lookup_elem(&disk_zero_dev, &k);
	if (!z)
		return NULL;
	z->dev = dev;
	if (disk)
		bpf_probe_read_kernel_str(z->name, sizeof(z->name), disk->disk_name);
	bpf_map_update_elem(&disk_devs, &dev, z, BPF_NOEXIST);
	d = bpf_map_lookup_elem(&disk_devs, &dev);
	if (!d)
		__sync_fetch_and_add(&disk_global.devs_full, 1);
	return d;
}

static __always_inline struct fct_disk_thread *thread_entry(__u32 tid, __u32 tgid)
{
	struct fct_disk_thread *t = bpf_map_lookup_elem(&disk_threads, &tid), *z;
	__u32 k = 0;

	if (t)
		return t;
	z = bpf_map_lookup_elem(&disk_zero_thread, &k);
	if (!z)
		return NULL;
	z->tid = tid;
	z->tgid = tgid;
	bpf_map_update_elem(&disk_threads, &tid, z, BPF_NOEXIST);
	t = bpf_map_lookup_elem(&disk_threads, &tid);
	if (!t)
		__sync_fetch_and_add(&disk_global.threads_full, 1);
	return t;
}

/* One more request in flight: the first starts a busy interval. */
static __always_inline void busy_begin(__s64 *inflight, __u64 *since, __u64 now)
{
	if (__sync_fetch_and_add(inflight, 1) == 0)
		*since = now;
}

/* One fewer: the last closes the interval; its length, or 0. */
static __always_inline __u64 busy_end(__s64 *inflight, __u64 since, __u64 now)
{
	if (__sync_fetch_and_add(inflight, -1) != 1)
		return 0;
	return now > since ? now - since : 0;
}

/* A direction as an index the verifier can bound (the compiler would
 * drop a plain mask it knows to be a no-op). */
static __always_inline __u32 dir_idx(__u32 dir)
{
	asm volatile("" : "+r"(dir));
	return dir & 1;
}

static __always_inline __u32 rq_dir(__u32 op)
{
	if (op == REQ_OP_READ_)
		return FCT_DISK_READ;
	if (op == REQ_OP_WRITE_)
		return FCT_DISK_WRITE;
	return FCT_DISK_DIRS;	/* flush, discard, zone ops ... */
}

/* In the submitter's context: the request is born (diskstats' start). */
SEC("tp_btf/block_io_start")
int BPF_PROG(fct_disk_start, struct request *rq)
{
	__u64 key = (__u64)rq, pid_tgid = bpf_get_current_pid_tgid(), now = bpf_ktime_get_ns();
	__u32 flags = BPF_CORE_READ(rq, cmd_flags), op = flags & REQ_OP_MASK_;
	struct disk_rq r = { .start_ns = now, .dir = rq_dir(op) };
	struct fct_disk_dev *d;
	struct gendisk *disk;

	r.dev = rq_dev(rq, &disk);
	r.bytes = BPF_CORE_READ(rq, __data_len);
	r.flush = op == REQ_OP_FLUSH_ ||
		  (flags & (1u << bpf_core_enum_value(enum req_flag_bits, __REQ_PREFLUSH)));
	if (r.flush && !r.bytes)	/* blkdev_issue_flush: an empty preflush write */
		r.dir = FCT_DISK_DIRS;
	if (enabled && fct_is_target(pid_tgid)) {
		r.tid = (__u32)pid_tgid;
		r.tgid = pid_tgid >> 32;
	}
	if (bpf_map_update_elem(&disk_rqs, &key, &r, BPF_ANY)) {
		__sync_fetch_and_add(&disk_global.rqs_full, 1);
		return 0;
	}
	d = dev_entry(r.dev, disk);
	if (d)
		busy_begin(&d->inflight, &d->busy_since, now);
	if (r.tid && r.dir < FCT_DISK_DIRS) {
		struct fct_disk_thread *t = thread_entry(r.tid, r.tgid);

		__u32 i = dir_idx(r.dir);

		if (t)
			busy_begin(&t->inflight[i], &t->since[i], now);
	}
	return 0;
}

/* The driver takes it (maybe from another context): service begins. */
SEC("tp_btf/block_rq_issue")
int BPF_PROG(fct_disk_issue, struct request *rq)
{
	__u64 key = (__u64)rq;
	struct disk_rq *r = rq_live(&key);
	struct disk_rq n = {};
	struct gendisk *disk;

	if (r) {
		r->issue_ns = bpf_ktime_get_ns();	/* a requeued one: again */
		return 0;
	}
	/* not born through block_io_start: the flush machinery's flush, a
	 * passthrough command; followed for the device's latency only */
	n.issue_ns = bpf_ktime_get_ns();
	n.dev = rq_dev(rq, &disk);
	n.dir = rq_dir(BPF_CORE_READ(rq, cmd_flags) & REQ_OP_MASK_);
	n.flush = (BPF_CORE_READ(rq, cmd_flags) & REQ_OP_MASK_) == REQ_OP_FLUSH_;
	if (bpf_map_update_elem(&disk_rqs, &key, &n, BPF_ANY))
		__sync_fetch_and_add(&disk_global.rqs_full, 1);
	return 0;
}

/* The thread's share of a completed request; its slot's running sums,
 * which the holders' code reads at a charged syscall's edges. */
static __always_inline void thread_done(const struct disk_rq *r, __u64 now, __u64 lat)
{
	struct fct_disk_thread *t = bpf_map_lookup_elem(&disk_threads, &r->tid);
	struct fct_slot *s = fct_slot(r->tid);
	__u32 i;

	if (s && r->start_ns && now > r->start_ns) {
		__sync_fetch_and_add(&s->disk_done, 1);
		__sync_fetch_and_add(&s->disk_wait_ns, now - r->start_ns);
	}
	if (!t)
		return;
	if (r->flush)
		t->flushes++;
	if (r->dir >= FCT_DISK_DIRS)
		return;
	i = dir_idx(r->dir);
	t->ns[i] += busy_end(&t->inflight[i], t->since[i], now);
	t->ios[i]++;
	t->bytes[i] += r->bytes;
	if (i == FCT_DISK_READ && r->issue_ns)
		fct_hist_add(t->hist, lat);
}

/* The device's share: counted as diskstats counts (born at io_start). */
static __always_inline void dev_done(struct fct_disk_dev *d, const struct disk_rq *r,
				     __u64 now, __u64 lat)
{
	__u32 i;

	if (!r->start_ns) {		/* the flush machinery's own */
		if (r->flush && enabled)
			d->flushes++;
		return;
	}
	if (enabled)
		d->busy_ns += busy_end(&d->inflight, d->busy_since, now);
	else
		busy_end(&d->inflight, d->busy_since, now);
	if (!enabled || r->dir >= FCT_DISK_DIRS)
		return;
	i = dir_idx(r->dir);
	d->ios[i]++;
	d->bytes[i] += r->bytes;
	d->queue_ns[i] += now - r->start_ns;
	if (r->issue_ns) {
		d->service_ns[i] += lat;
		fct_hist_add(d->hist[i], lat);
	}
	if (r->tid) {
		d->traced_ios[i]++;
		d->traced_bytes[i] += r->bytes;
	}
}

SEC("tp_btf/block_rq_complete")
int BPF_PROG(fct_disk_complete, struct request *rq, blk_status_t error, unsigned int nr_bytes)
{
	__u64 key = (__u64)rq, now = bpf_ktime_get_ns(), lat;
	struct disk_rq *p = rq_live(&key), r;
	struct fct_disk_dev *d;

	if (!p)
		return 0;
	r = *p;
	rq_end(p, &key);	/* a second completion (flush sequence) is ignored */
	lat = r.issue_ns && now > r.issue_ns ? now - r.issue_ns : 0;
	d = bpf_map_lookup_elem(&disk_devs, &r.dev);
	if (!d && !r.start_ns && r.flush && enabled)
		d = dev_entry(r.dev, NULL);
	if (d)
		dev_done(d, &r, now, lat);
	if (r.tid)
		thread_done(&r, now, lat);
	return 0;
}

/*
 * A request merged into another before it was issued (an I/O scheduler's
 * request merge): it will never complete on its own. Its bytes are the
 * other's now - counted here, as diskstats counts the merged request's
 * whole size at its completion - and it leaves the in-flight counts and
 * the table, which would otherwise fill with requests that never end.
 */
SEC("tp_btf/block_rq_merge")
int BPF_PROG(fct_disk_merge, struct request *rq)
{
	__u64 key = (__u64)rq, now = bpf_ktime_get_ns();
	struct disk_rq *p = rq_live(&key), r;
	struct fct_disk_dev *d;
	struct fct_disk_thread *t;
	__u32 i;

	if (!p)
		return 0;
	r = *p;
	rq_end(p, &key);
	if (!r.start_ns || r.dir >= FCT_DISK_DIRS)
		return 0;
	i = dir_idx(r.dir);
	d = bpf_map_lookup_elem(&disk_devs, &r.dev);
	if (d) {
		busy_end(&d->inflight, d->busy_since, now);
		if (enabled) {
			d->bytes[i] += r.bytes;
			d->merges[i]++;
			if (r.tid)
				d->traced_bytes[i] += r.bytes;
		}
	}
	t = r.tid ? bpf_map_lookup_elem(&disk_threads, &r.tid) : NULL;
	if (t) {
		t->ns[i] += busy_end(&t->inflight[i], t->since[i], now);
		t->bytes[i] += r.bytes;
	}
	return 0;
}
