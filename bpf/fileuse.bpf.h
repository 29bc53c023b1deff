/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * fileuse.bpf.h - the reference stream of a program's handles (probe
 * group "handles", struct fct_fileuse): each open of a regular file, each
 * call on a descriptor of one, each close, by device and inode, and each
 * new connection (a connect, its set-up, its close: see below), so that
 * user space sees the working set of the files a program opens again and
 * again and the hit ratio its handle cache would have at every size
 * (user/trace/fileuse.c, user/join/caches.c). The descriptor is read from
 * the task's own file table at the entry (a use, a close) or the exit (an
 * open), with CO-RE.
 *
 * The code runs inside the syscall group's tp_btf programs while the
 * rodata flag handles_on is set (syscalls.bpf.c): one dispatch per
 * syscall fewer than programs of its own, which cost as much again on a
 * retpoline machine. fileuse.bpf.c's own programs carry it when the
 * syscall group is not loaded in its tp_btf form.
 */
#ifndef FCTRACE_FILEUSE_BPF_H
#define FCTRACE_FILEUSE_BPF_H

#include "common.bpf.h"
#include "fdfile.bpf.h"
#include "sockflow.bpf.h"

/* The ring to user space (trace/fupump.c); in common.bpf.c, as the
 * linker needs (see there). */
struct fct_fileuse_map {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 8 << 20);
};

extern struct fct_fileuse_map fileuse SEC(".maps");
extern __u64 fu_drops;				/* bss: events the ring had no room for */
extern __u64 fu_sent;				/* bss */
extern __u32 fu_paused;				/* bss: the file stream stopped (user
						 * space's budget: trace/selfcost.h) */
extern const volatile __u32 handles_on;	/* rodata: the syscall programs carry this */
extern const volatile __u32 handles_stream;	/* rodata: the stream is drained, in either
						 * form (hosted or the group's own programs) */

#define MAP_ANONYMOUS	0x20
#define AT_EMPTY_PATH	0x1000

#if defined(__TARGET_ARCH_x86)
#define FU_NR(regs)	((long)BPF_CORE_READ(regs, orig_ax))
enum {
	FU_READ = 0, FU_WRITE = 1, FU_OPEN = 2, FU_CLOSE = 3, FU_FSTAT = 5, FU_LSEEK = 8,
	FU_MMAP = 9, FU_PREAD64 = 17, FU_PWRITE64 = 18, FU_READV = 19, FU_WRITEV = 20,
	FU_SENDFILE = 40, FU_FLOCK = 73, FU_FSYNC = 74, FU_FDATASYNC = 75, FU_FTRUNCATE = 77,
	FU_CREAT = 85, FU_READAHEAD = 187, FU_FADVISE = 221, FU_OPENAT = 257,
	FU_NEWFSTATAT = 262, FU_SPLICE = 275, FU_FALLOCATE = 285, FU_PREADV = 295,
	FU_PWRITEV = 296, FU_COPY_RANGE = 326, FU_PREADV2 = 327, FU_PWRITEV2 = 328,
	FU_STATX = 332, FU_OPENAT2 = 437, FU_CONNECT = 42, FU_SENDTO = 44, FU_RECVFROM = 45,
	FU_SENDMSG = 46, FU_RECVMSG = 47, FU_ACCEPT = 43, FU_ACCEPT4 = 288,
};
#elif defined(__TARGET_ARCH_arm64)
#define FU_NR(regs)	((long)BPF_CORE_READ(regs, syscallno))
enum {
	FU_READ = 63, FU_WRITE = 64, FU_OPEN = -2, FU_CLOSE = 57, FU_FSTAT = 80, FU_LSEEK = 62,
	FU_MMAP = 222, FU_PREAD64 = 67, FU_PWRITE64 = 68, FU_READV = 65, FU_WRITEV = 66,
	FU_SENDFILE = 71, FU_FLOCK = 32, FU_FSYNC = 82, FU_FDATASYNC = 83, FU_FTRUNCATE = 46,
	FU_CREAT = -3, FU_READAHEAD = 213, FU_FADVISE = 223, FU_OPENAT = 56,
	FU_NEWFSTATAT = 79, FU_SPLICE = 76, FU_FALLOCATE = 47, FU_PREADV = 69,
	FU_PWRITEV = 70, FU_COPY_RANGE = 285, FU_PREADV2 = 286, FU_PWRITEV2 = 287,
	FU_STATX = 291, FU_OPENAT2 = 437, FU_CONNECT = 203, FU_SENDTO = 206, FU_RECVFROM = 207,
	FU_SENDMSG = 211, FU_RECVMSG = 212, FU_ACCEPT = 202, FU_ACCEPT4 = 242,
};
#else
#error "fctrace: syscall numbers unknown for this architecture"
#endif

/* The descriptor a call uses, -1 when it uses none (or not a file's). */
static __always_inline long fu_fd_of(struct pt_regs *regs, long id)
{
	switch (id) {
	case FU_READ: case FU_WRITE: case FU_FSTAT: case FU_LSEEK: case FU_PREAD64:
	case FU_PWRITE64: case FU_READV: case FU_WRITEV: case FU_FLOCK: case FU_FSYNC:
	case FU_FDATASYNC: case FU_FTRUNCATE: case FU_READAHEAD: case FU_FADVISE:
	case FU_SPLICE: case FU_FALLOCATE: case FU_PREADV: case FU_PWRITEV:
	case FU_COPY_RANGE: case FU_PREADV2: case FU_PWRITEV2: case FU_CLOSE:
	case FU_SENDTO: case FU_RECVFROM: case FU_SENDMSG: case FU_RECVMSG:
		return (long)PT_REGS_PARM1_SYSCALL(regs);
	case FU_SENDFILE:		/* sendfile(out, in, ...): the file is in */
		return (long)PT_REGS_PARM2_SYSCALL(regs);
	case FU_MMAP:
		if (PT_REGS_PARM4_SYSCALL(regs) & MAP_ANONYMOUS)
			return -1;
		return (long)PT_REGS_PARM5_SYSCALL(regs);
	case FU_NEWFSTATAT:		/* glibc's fstat: fstatat(fd, "", AT_EMPTY_PATH) */
		if (!(PT_REGS_PARM4_SYSCALL(regs) & AT_EMPTY_PATH))
			return -1;
		return (long)PT_REGS_PARM1_SYSCALL(regs);
	case FU_STATX:
		if (!(PT_REGS_PARM3_SYSCALL(regs) & AT_EMPTY_PATH))
			return -1;
		return (long)PT_REGS_PARM1_SYSCALL(regs);
	}
	return -1;
}

static __always_inline bool fu_is_open(long id)
{
	return id == FU_OPENAT || id == FU_OPEN || id == FU_OPENAT2 || id == FU_CREAT;
}

/* io_uring_enter (x86-64's number and the generic table's alike): a
 * read it submits is sent as a positional read */
#define FU_IO_URING_ENTER	426

static __always_inline bool fu_is_pread(long id)
{
	return id == FU_PREAD64 || id == FU_PREADV || id == FU_PREADV2 || id == FU_IO_URING_ENTER;
}

/* A record of the ring: whole (with the names or the peer) or its head;
 * NULL, counted, when the ring has no room. */
static __always_inline struct fct_fileuse *fu_reserve(bool whole)
{
	struct fct_fileuse *e;

	if (whole)
		e = bpf_ringbuf_reserve(&fileuse, sizeof(*e), 0);
	else
		e = bpf_ringbuf_reserve(&fileuse, FCT_FU_HEAD_BYTES, 0);
	if (!e)
		__sync_fetch_and_add(&fu_drops, 1);
	return e;
}

/* Sends one event of file on fd; the thread's last file is now it. A
 * positional read (at off, len bytes: 0 not known) is always sent (each
 * is a block's read), marked when it is no new use of the handle. */
static __always_inline void fu_send(struct fct_slot *t, struct file *file, long fd, long id,
				    __u32 op, __u64 off, __u32 len)
{
	struct inode *inode = BPF_CORE_READ(file, f_inode);
	__u32 dev = BPF_CORE_READ(inode, i_sb, s_dev);
	__u64 ino = BPF_CORE_READ(inode, i_ino), key = fct_fileuse_key(dev, ino);
	struct fct_fileuse *e;
	__u32 flags = 0;

	if (op == FCT_FU_USE && t->fu_last == key) {
		if (!fu_is_pread(id))
			return;		/* the same file again: one reference */
		flags = FCT_FU_REPEAT;
	}
	if (fu_is_pread(id))
		op = FCT_FU_READ;
	/* a close of another file (a cache evicting one) leaves the one in
	 * use as the last: the calls on it that follow are the same use */
	if (op != FCT_FU_CLOSE)
		t->fu_last = key;
	else if (t->fu_last == key)
		t->fu_last = 0;
	/* names only with an open: a use or a close is the record's head */
	if (!(e = fu_reserve(op == FCT_FU_OPEN)))
		return;
	e->tgid = t->a.tgid;
	e->tid = t->a.tid;
	e->ino = ino;
	e->dev = dev;
	e->op = op;
	e->fd = (__s32)fd;
	e->nr = (__u32)id;
	e->size = BPF_CORE_READ(inode, i_size);
	e->off = e->len = 0;
	if (op == FCT_FU_READ) {
		e->off = off;
		e->len = len;
		if (BPF_CORE_READ(file, f_flags) & FCT_O_DIRECT)
			flags |= FCT_FU_DIRECT;
	}
	e->flags = flags;
	if (op == FCT_FU_OPEN) {
		struct dentry *d = BPF_CORE_READ(file, f_path.dentry);

		bpf_probe_read_kernel_str(e->name, sizeof(e->name), BPF_CORE_READ(d, d_name.name));
		bpf_probe_read_kernel_str(e->dir, sizeof(e->dir),
					  BPF_CORE_READ(d, d_parent, d_name.name));
	}
	/* no wakeup: user space drains on its own clock (trace/fupump.c) */
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
	__sync_fetch_and_add(&fu_sent, 1);
}

/*
 * Connections. A connect is a pool's miss; so that user space can say
 * what a pool would save, the thread that connected is followed on that
 * socket until the connection carries a second exchange: a send after
 * the first read that returned data. The time from connect's entry to the
 * end of that read is the connection's set-up (a server's greeting, a
 * start-up and authentication), sent as FCT_FU_SETUP; a connection used
 * for one exchange and closed has none past its connect. The state is the
 * thread's own (struct fct_slot.conn_*): a connection set up by one thread
 * and used by another is counted, its set-up not measured.
 */
enum fu_conn_state {
	FU_CONN_NONE,		/* no connection being followed */
	FU_CONN_CALLING,	/* inside connect(conn_fd) */
	FU_CONN_OPEN,		/* connected, nothing read yet */
	FU_CONN_REPLIED,	/* its first read returned data at conn_reply_ns */
};

#define FU_EINPROGRESS	115
#define FU_SOCK_STREAM	1

static __always_inline bool fu_is_send(long id)
{
	return id == FU_WRITE || id == FU_SENDTO || id == FU_SENDMSG || id == FU_WRITEV;
}

static __always_inline bool fu_is_recv(long id)
{
	return id == FU_READ || id == FU_RECVFROM || id == FU_RECVMSG || id == FU_READV;
}

/* Sends a socket's event (op, flags): ts and off as fctrace.h says, the
 * peer from connect's arguments when regs is given. */
static __always_inline void fu_send_sock(struct fct_slot *t, __u32 op, __u32 flags, long fd,
					 __u64 ts, __u64 off, struct pt_regs *regs)
{
	struct fct_fileuse *e;
	__u64 len;

	if (!(e = fu_reserve(regs != NULL)))
		return;
	e->tgid = t->a.tgid;
	e->tid = t->a.tid;
	e->ino = t->conn_sock;
	e->dev = t->conn_dev;
	e->op = op;
	e->fd = (__s32)fd;
	e->nr = 0;
	e->ts = ts;
	e->off = off;
	e->len = 0;
	e->flags = flags;
	if (regs) {
		__builtin_memset(e->peer, 0, sizeof(e->peer));
		len = (__u64)PT_REGS_PARM3_SYSCALL(regs);
		if (len > FCT_FU_PEER_LEN)
			len = FCT_FU_PEER_LEN;
		if (len > 0 && len <= FCT_FU_PEER_LEN)
			bpf_probe_read_user(e->peer, len, (void *)PT_REGS_PARM2_SYSCALL(regs));
	}
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
	__sync_fetch_and_add(&fu_sent, 1);
}

/* The socket's identity into the thread's connection state; false when
 * file is no stream socket. */
static __always_inline bool fu_conn_sock(struct fct_slot *t, struct file *file)
{
	struct socket *sock;
	struct inode *inode;

	if (!fct_is_socket(file))
		return false;
	sock = BPF_CORE_READ(file, private_data);
	if (BPF_CORE_READ(sock, type) != FU_SOCK_STREAM)
		return false;	/* a datagram socket's connect only sets a default peer */
	inode = BPF_CORE_READ(file, f_inode);
	t->conn_sock = BPF_CORE_READ(inode, i_ino);
	t->conn_dev = BPF_CORE_READ(inode, i_sb, s_dev);
	return true;
}

/* connect's exit: a new connection, followed from here */
static __always_inline void fu_conn_made(struct fct_slot *t, struct pt_regs *regs, long ret)
{
	__u64 now = bpf_ktime_get_ns();

	t->conn_state = FU_CONN_NONE;
	if ((ret && ret != -FU_EINPROGRESS) || !fu_conn_sock(t, fct_fd_any_btf(t->conn_fd)))
		return;
	fu_send_sock(t, FCT_FU_CONNECT, 0, t->conn_fd, t->conn_start_ns, now - t->conn_start_ns,
		     regs);
	t->conn_state = FU_CONN_OPEN;
}

/* A syscall's exit while a connection is followed. */
static __always_inline void fu_conn_exit(struct fct_slot *t, struct pt_regs *regs, long ret)
{
	long id = FU_NR(regs);

	if (t->conn_state == FU_CONN_CALLING) {
		if (id == FU_CONNECT)
			fu_conn_made(t, regs, ret);
	} else if (t->conn_state == FU_CONN_OPEN && ret > 0 && fu_is_recv(id) &&
		   (long)PT_REGS_PARM1_SYSCALL(regs) == t->conn_fd) {
		t->conn_reply_ns = bpf_ktime_get_ns();
		t->conn_state = FU_CONN_REPLIED;
	}
}

/* A syscall's entry while a connection is followed, or a connect: the
 * set-up's end at a send after the first reply. */
static __always_inline void fu_conn_enter(struct fct_slot *t, struct pt_regs *regs, long id)
{
	long fd = (long)PT_REGS_PARM1_SYSCALL(regs);

	if (id == FU_CONNECT) {
		t->conn_state = FU_CONN_CALLING;
		t->conn_fd = (__s32)fd;
		t->conn_start_ns = bpf_ktime_get_ns();
	} else if (t->conn_state == FU_CONN_REPLIED && fu_is_send(id) && fd == t->conn_fd) {
		fu_send_sock(t, FCT_FU_SETUP, 0, fd, t->conn_reply_ns,
			     t->conn_reply_ns - t->conn_start_ns, NULL);
		t->conn_state = FU_CONN_NONE;
	} else if (id == FU_CLOSE && fd == t->conn_fd) {
		t->conn_state = FU_CONN_NONE;
	}
}

/* close of a socket: a connection's end, matched in user space to its
 * connect by the socket's identity (closes of others are ignored there) */
static __always_inline void fu_sock_close(struct fct_slot *t, struct file *file, long fd)
{
	struct inode *inode = BPF_CORE_READ(file, f_inode);
	__u64 sock = t->conn_sock;
	__u32 dev = t->conn_dev;

	t->conn_sock = BPF_CORE_READ(inode, i_ino);
	t->conn_dev = BPF_CORE_READ(inode, i_sb, s_dev);
	fu_send_sock(t, FCT_FU_CLOSE, FCT_FU_SOCKET, fd, bpf_ktime_get_ns(), 0, NULL);
	t->conn_sock = sock;
	t->conn_dev = dev;
}

/* A read a traced thread submits to an io_uring (uring.bpf.c, in its own
 * io_uring_enter): one positional read of its block stream, as a pread
 * is, the ring's descriptor looked up in its file table. A fixed file (an
 * index into the ring's table) or a read at the file's position is not
 * sent: its block is not known. */
static __always_inline void fu_uring_read(struct fct_slot *t, long fd, __u64 off, __u32 len)
{
	struct file *file;

	if (!handles_stream || fu_paused || fd < 0 || off == (__u64)-1)
		return;
	file = fct_regular(fct_fd_any_btf(fd));
	if (file)
		fu_send(t, file, fd, FU_IO_URING_ENTER, FCT_FU_USE, off, len);
}

/* A syscall's entry: a use or a close of a file's descriptor, a
 * connection's events. Cheapest test first: most syscalls are not a
 * file's. */
static __always_inline void fu_enter(struct fct_slot *t, struct pt_regs *regs, long id)
{
	struct file *file;
	long fd;

	if (id == FU_CONNECT || t->conn_state)
		fu_conn_enter(t, regs, id);
	if (fu_paused && !flow_on)
		return;		/* the connections go on; the files stopped */
	/* calls only a socket takes: nothing to look up without a proxy's
	 * flows (a server's every request: MariaDB 19 k recvfrom and sendto
	 * a second under sysbench) */
	if (!flow_on && (id == FU_SENDTO || id == FU_RECVFROM || id == FU_SENDMSG ||
			 id == FU_RECVMSG))
		return;
	fd = fu_fd_of(regs, id);
	if (fd < 0 || !(file = fct_fd_any_btf(fd)))
		return;
	if (fct_regular(file)) {
		if (fu_paused)
			return;
		fu_send(t, file, fd, id, id == FU_CLOSE ? FCT_FU_CLOSE : FCT_FU_USE,
			(__u64)PT_REGS_PARM4_SYSCALL(regs),
			id == FU_PREAD64 ? (__u32)PT_REGS_PARM3_SYSCALL(regs) : 0);
	} else if (id == FU_CLOSE && fct_is_socket(file)) {
		if (flow_on)
			flow_forget(file);
		fu_sock_close(t, file, fd);
	} else if (flow_on && fu_is_send(id)) {
		flow_io(file, true);
	}
}

static __always_inline bool fu_is_accept(long id)
{
	return id == FU_ACCEPT || id == FU_ACCEPT4;
}

/* A proxy's sockets at a syscall's exit: a reply or a request read, a
 * client accepted (sockflow.bpf.h). */
static __always_inline void fu_flow_exit(struct pt_regs *regs, long id, long ret)
{
	long fd = (long)PT_REGS_PARM1_SYSCALL(regs);

	if (ret > 0 && fu_is_recv(id))
		flow_io(fct_fd_any_btf(fd), false);
	else if (ret >= 0 && fu_is_accept(id))
		flow_accept(fct_fd_any_btf(fd), fct_fd_any_btf(ret));
}

/* A syscall's exit: the descriptor an open returned; a connection's. */
static __always_inline void fu_exit(struct fct_slot *t, struct pt_regs *regs, long ret)
{
	struct file *file;

	if (t->conn_state)
		fu_conn_exit(t, regs, ret);
	if (flow_on)
		fu_flow_exit(regs, FU_NR(regs), ret);
	if (fu_paused || ret < 0 || !fu_is_open(FU_NR(regs)) || !(file = fct_fd_file_btf(ret)))
		return;
	fu_send(t, file, ret, FU_NR(regs), FCT_FU_OPEN, 0, 0);
}

#endif
