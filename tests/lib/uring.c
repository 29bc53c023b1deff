/*
 * uring.c - a minimal io_uring reader for the disk tests (uring.h): the
 * rings mapped as the kernel lays them out, submissions and completions
 * by hand, with the barriers the ring protocol asks for.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <linux/io_uring.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include "uring.h"

#define DEPTH	4

struct ring {
	int fd;
	void *sq_map, *cq_map;
	size_t sq_len, cq_len;
	struct io_uring_sqe *sqes;
	unsigned *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail, *cq_mask;
	struct io_uring_cqe *cqes;
};

static int ring_map(struct ring *r, const struct io_uring_params *p)
{
	r->sq_len = p->sq_off.array + p->sq_entries * sizeof(unsigned);
	r->cq_len = p->cq_off.cqes + p->cq_entries * sizeof(struct io_uring_cqe);
	r->sq_map = mmap(NULL, r->sq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
			 r->fd, IORING_OFF_SQ_RING);
	r->cq_map = mmap(NULL, r->cq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
			 r->fd, IORING_OFF_CQ_RING);
	r->sqes = mmap(NULL, p->sq_entries * sizeof(struct io_uring_sqe), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQES);
	if (r->sq_map == MAP_FAILED || r->cq_map == MAP_FAILED || r->sqes == MAP_FAILED)
		return -errno;
	r->sq_tail = (unsigned *)((char *)r->sq_map + p->sq_off.tail);
	r->sq_mask = (unsigned *)((char *)r->sq_map + p->sq_off.ring_mask);
	r->sq_array = (unsigned *)((char *)r->sq_map + p->sq_off.array);
	r->cq_head = (unsigned *)((char *)r->cq_map + p->cq_off.head);
	r->cq_tail = (unsigned *)((char *)r->cq_map + p->cq_off.tail);
	r->cq_mask = (unsigned *)((char *)r->cq_map + p->cq_off.ring_mask);
	r->cqes = (struct io_uring_cqe *)((char *)r->cq_map + p->cq_off.cqes);
	return 0;
}

static void ring_unmap(struct ring *r, const struct io_uring_params *p)
{
	if (r->sq_map && r->sq_map != MAP_FAILED)
		munmap(r->sq_map, r->sq_len);
	if (r->cq_map && r->cq_map != MAP_FAILED)
		munmap(r->cq_map, r->cq_len);
	if (r->sqes && r->sqes != MAP_FAILED)
		munmap(r->sqes, p->sq_entries * sizeof(struct io_uring_sqe));
}

/* Queue a read of block i into its slot of buf. */
static void queue_read(struct ring *r, int fd, char *buf, unsigned block, unsigned i)
{
	unsigned tail = *r->sq_tail, idx = tail & *r->sq_mask;
	struct io_uring_sqe *e = &r->sqes[idx];

	memset(e, 0, sizeof(*e));
	e->opcode = IORING_OP_READ;
	e->fd = fd;
	e->addr = (unsigned long)(buf + (size_t)(i % DEPTH) * block);
	e->len = block;
	e->off = (unsigned long long)i * 2 * block;	/* apart: no two merge */
	e->user_data = i;
	r->sq_array[idx] = idx;
	__atomic_store_n(r->sq_tail, tail + 1, __ATOMIC_RELEASE);
}

/* Take every completion there is; how many were whole reads. */
static unsigned reap(struct ring *r, unsigned block, unsigned *seen)
{
	unsigned head = *r->cq_head, ok = 0;

	while (head != __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE)) {
		ok += r->cqes[head & *r->cq_mask].res == (int)block;
		head++;
		(*seen)++;
	}
	__atomic_store_n(r->cq_head, head, __ATOMIC_RELEASE);
	return ok;
}

int uring_read_blocks(int fd, void *buf, unsigned block, unsigned n)
{
	struct io_uring_params p = { 0 };
	struct ring r = { 0 };
	unsigned sent = 0, seen = 0, ok = 0;
	int err;

	r.fd = (int)syscall(__NR_io_uring_setup, DEPTH, &p);
	if (r.fd < 0)
		return -errno;
	if ((err = ring_map(&r, &p)))
		goto out;
	while (seen < n) {
		unsigned batch = 0;

		while (sent < n && sent - seen < DEPTH) {
			queue_read(&r, fd, buf, block, sent++);
			batch++;
		}
		if (syscall(__NR_io_uring_enter, r.fd, batch, 1, IORING_ENTER_GETEVENTS, NULL, 0) < 0) {
			err = -errno;
			goto out;
		}
		ok += reap(&r, block, &seen);
	}
	err = (int)ok;
out:
	ring_unmap(&r, &p);
	close(r.fd);
	return err;
}
