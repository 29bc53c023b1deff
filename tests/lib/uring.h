/*
 * uring.h - the least io_uring a test needs, on the raw syscalls (no
 * liburing): read n blocks of a file through one ring, so that a test
 * knows exactly how many reads it submitted.
 */
#ifndef FCTRACE_TEST_URING_H
#define FCTRACE_TEST_URING_H

/* Read blocks 0, 2, 4 ... 2(n-1) of size block from fd into buf (4 blocks,
 * aligned for O_DIRECT), one IORING_OP_READ each, up to 4 in flight: no
 * two adjacent, so that the block layer merges none and each is one request. The reads that
 * completed whole; -errno when the ring could not be set up. */
int uring_read_blocks(int fd, void *buf, unsigned block, unsigned n);

#endif
