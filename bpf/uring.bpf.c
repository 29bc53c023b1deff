// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * uring.bpf.c - io_uring per ring (probe group disk): each request a
 * traced process submits is followed by its address from
 * io_uring_submit_req to io_uring_complete, which fires wherever the
 * completion runs - an interrupt, an iou-wrk worker the request was
 * punted to (io_uring_queue_async_work), the submitter's own task work -
 * and is booked to the submitting process's ring (struct fct_uring_val).
 * The block layer's view (disk.bpf.c) has the requests' disk side; this
 * has the program's: its operations, their results and latency.
 */
#include "common.bpf.h"
#include "fileuse.bpf.h"

struct uring_rq {
	__u64 start_ns;
	__u64 ctx;
	__u32 tgid;
	__u32 kind;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FCT_URING_INFLIGHT);
	__type(key, __u64);		/* the io_kiocb */
	__type(value, struct uring_rq);
} uring_rqs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FCT_URING_RINGS);
	__type(key, struct fct_uring_key);
	__type(value, struct fct_uring_val);
} uring_rings SEC(".maps");

#define IORING_OP_READ_FIXED_	4
#define IORING_OP_READ_		22
#define REQ_F_FIXED_FILE_	1ull	/* IOSQE_FIXED_FILE's bit */

/* A read's block into the traced thread's handles stream (fileuse.bpf.h):
 * its offset and, for a plain or fixed-buffer read, its length, as the
 * request's prep left them in its io_rw (sqe->off, sqe->len). */
static __always_inline void uring_block_read(struct io_kiocb *req)
{
	struct io_rw *rw = (struct io_rw *)&req->cmd;
	struct fct_slot *t;
	__u64 off;
	__u32 len;

	if (!handles_stream || (req->flags & REQ_F_FIXED_FILE_) || !(t = fct_current_slot()))
		return;
	off = (__u64)BPF_CORE_READ(rw, kiocb.ki_pos);
	len = req->opcode == IORING_OP_READ_ || req->opcode == IORING_OP_READ_FIXED_ ?
	      BPF_CORE_READ(rw, len) : 0;
	fu_uring_read(t, req->cqe.fd, off, len);
}

/* IORING_OP_READV, READ_FIXED, READ; WRITEV, WRITE_FIXED, WRITE */
static __always_inline __u32 uring_kind(__u8 op)
{
	if (op == 1 || op == 4 || op == 22)
		return FCT_URING_READ;
	if (op == 2 || op == 5 || op == 23)
		return FCT_URING_WRITE;
	return FCT_URING_OTHER;
}

static __always_inline struct fct_uring_val *ring_entry(__u32 tgid, __u64 ctx)
{
	static const struct fct_uring_val zero = {};
	struct fct_uring_key key = { .tgid = tgid, .ctx = ctx };
	struct fct_uring_val *v = bpf_map_lookup_elem(&uring_rings, &key);

	if (v)
		return v;
	bpf_map_update_elem(&uring_rings, &key, &zero, BPF_NOEXIST);
	return bpf_map_lookup_elem(&uring_rings, &key);
}

/* tp_btf rather than the classic tracepoints: cheaper on each request, and
 * a classic tracepoint's perf event costs ~50 ms to close here (the
 * kernel waits for an RCU grace period per event), which every run paid
 * three times at its end. */
SEC("tp_btf/io_uring_submit_req")
int BPF_PROG(fct_uring_submit, struct io_kiocb *req)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid(), key = (__u64)req;
	struct uring_rq r = { .start_ns = bpf_ktime_get_ns(), .ctx = (__u64)req->ctx,
			      .tgid = pid_tgid >> 32, .kind = uring_kind(req->opcode) };
	struct fct_uring_val *v;

	if (!enabled || !fct_is_target(pid_tgid))
		return 0;
	v = ring_entry(r.tgid, r.ctx);
	if (!v)
		return 0;
	if (r.kind < FCT_URING_KINDS)
		__sync_fetch_and_add(&v->submitted[r.kind], 1);
	if (r.kind == FCT_URING_READ)
		uring_block_read(req);
	if (bpf_map_update_elem(&uring_rqs, &key, &r, BPF_ANY))
		__sync_fetch_and_add(&v->untracked, 1);
	return 0;
}

SEC("tp_btf/io_uring_queue_async_work")
int BPF_PROG(fct_uring_async, struct io_kiocb *req, int rw)
{
	__u64 key = (__u64)req;
	struct uring_rq *r = bpf_map_lookup_elem(&uring_rqs, &key);
	struct fct_uring_val *v;

	if (!r)
		return 0;
	v = ring_entry(r->tgid, r->ctx);
	if (v)
		__sync_fetch_and_add(&v->async, 1);
	return 0;
}

SEC("tp_btf/io_uring_complete")
int BPF_PROG(fct_uring_complete, struct io_ring_ctx *ring, void *req, struct io_uring_cqe *cqe)
{
	__u64 key = (__u64)req, now = bpf_ktime_get_ns(), d;
	struct uring_rq *r = bpf_map_lookup_elem(&uring_rqs, &key);
	struct fct_uring_val *v;
	__u32 kind;
	int res;

	if (!r)
		return 0;
	kind = r->kind;
	d = now > r->start_ns ? now - r->start_ns : 0;
	v = ring_entry(r->tgid, r->ctx);
	bpf_map_delete_elem(&uring_rqs, &key);
	if (!v || kind >= FCT_URING_KINDS)
		return 0;
	res = BPF_CORE_READ(cqe, res);
	__sync_fetch_and_add(&v->completed[kind], 1);
	__sync_fetch_and_add(&v->lat_ns[kind], d);
	if (res > 0)
		__sync_fetch_and_add(&v->bytes[kind], (__u64)res);
	else if (res < 0)
		__sync_fetch_and_add(&v->errors, 1);
	if (d > v->max_ns)
		v->max_ns = d;
	return 0;
}
