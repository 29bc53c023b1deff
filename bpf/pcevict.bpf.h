/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * pcevict.bpf.h - who took the target's pages out of the page cache, and
 * how; and which of the target's misses were re-reads of those pages
 * (`--probes pc-evict`; layout and meaning in fctrace.h, "Page-cache
 * removals"). Included by pagecache.bpf.c only: it defines maps, and its
 * join runs inside that file's add_to_page_cache program.
 *
 * The remover is the task running when the folio leaves the cache: its
 * flags say reclaim (PF_KSWAPD: kswapd; PF_MEMALLOC: direct reclaim in
 * the name of that task), else the syscall it is in says how (its user
 * registers' syscall number: no syscall hook needed, so any process is
 * named, traced or not).
 */
#ifndef FCTRACE_PCEVICT_BPF_H
#define FCTRACE_PCEVICT_BPF_H

#include "common.bpf.h"
#include "sysnr.bpf.h"

const volatile __u32 pc_evict_on = 0;	/* rodata: the pc-evict group loaded */
struct fct_evict_global pc_evict = {};	/* bss */

struct pcev_file_key {
	__u32 dev;		/* the kernel's encoding */
	__u32 pad;
	__u64 ino;
};

struct pcev_block_key {
	struct pcev_file_key f;
	__u64 block;		/* page index / FCT_PCEV_BLOCK */
};

struct pcev_block {
	__u64 bits;		/* pages removed and not read back yet */
	struct fct_evict_key by;	/* the block's last remover */
	__u64 stamp;		/* pc_evict.reclaimed_pages at that removal */
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FCT_PCEV_FILES);
	__type(key, struct pcev_file_key);
	__type(value, __u32);
} pcev_files SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FCT_PCEV_BLOCKS);
	__type(key, struct pcev_block_key);
	__type(value, struct pcev_block);
} pcev_blocks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FCT_PCEV_REMOVERS);
	__type(key, struct fct_evict_key);
	__type(value, struct fct_evict_val);
} pc_evictors SEC(".maps");

/* task->flags (include/linux/sched.h: #defines, not in vmlinux.h) */
#define PF_MEMALLOC	0x00000800
#define PF_KSWAPD	0x00020000
#define PF_KTHREAD	0x00200000

#if defined(__TARGET_ARCH_x86)
#define NR_MADVISE	28
#define NR_FADVISE64	221
#define NR_OPEN		2
#define NR_CREAT	85
#define NR_TRUNCATE	76
#define NR_FTRUNCATE	77
#define NR_UNLINK	87
#define NR_UNLINKAT	263
#define NR_RENAME	82
#define NR_RENAMEAT	264
#define NR_RENAMEAT2	316
#define NR_OPENAT2	437
#define PCEV_SYSCALL_NR(regs)	((regs)->orig_ax)
#elif defined(__TARGET_ARCH_arm64)
#define NR_MADVISE	233
#define NR_FADVISE64	223
#define NR_OPEN		(-1)	/* no such call on arm64 */
#define NR_CREAT	(-2)
#define NR_TRUNCATE	45
#define NR_FTRUNCATE	46
#define NR_UNLINK	(-3)
#define NR_UNLINKAT	35
#define NR_RENAME	(-4)
#define NR_RENAMEAT	38
#define NR_RENAMEAT2	276
#define NR_OPENAT2	437
#define PCEV_SYSCALL_NR(regs)	((regs)->syscallno)
#endif

static __always_inline void pcev_file(struct inode *host, struct pcev_file_key *k)
{
	struct super_block *sb = host->i_sb;

	k->dev = sb ? sb->s_dev : host->i_rdev;
	k->pad = 0;
	k->ino = host->i_ino;
}

/* The target touched this file: its removals count from now on. */
static __always_inline void pcev_mark(const struct pcev_file_key *k)
{
	static const __u32 one = 1;
	long err;

	if (bpf_map_lookup_elem(&pcev_files, k))
		return;
	err = bpf_map_update_elem(&pcev_files, k, &one, BPF_NOEXIST);
	if (!err)
		__sync_fetch_and_add(&pc_evict.files, 1);
	else if (err != -17)	/* EEXIST: another CPU was first */
		__sync_fetch_and_add(&lost.pc_evict_full, 1);
}

static __always_inline void pcev_mark_inode(struct inode *host)
{
	struct pcev_file_key k;

	if (!pc_evict_on)
		return;
	pcev_file(host, &k);
	pcev_mark(&k);
}

/* The bits of pages [lo, hi) within their block (hi - lo <= 64). */
static __always_inline __u64 pcev_bits(__u64 lo, __u64 hi)
{
	__u64 n = hi - lo;

	return n >= FCT_PCEV_BLOCK ? ~0ULL : ((1ULL << n) - 1) << (lo & (FCT_PCEV_BLOCK - 1));
}

/* Blocks a folio can span: the page cache's largest folios are PMD-sized
 * (order 9, MAX_PAGECACHE_ORDER on x86-64 and 4 KiB-page arm64): 512
 * pages, 8 blocks. Each iteration is verified apart, so no more. */
#define PCEV_MAX_SPAN	8

/*
 * A folio's pages [index, end), block by block, walked with bpf_loop: the
 * verifier checks a callback once, where it checks a bounded loop's body
 * once per iteration (that cost ~100 ms more of load time).
 */
struct pcev_walk {
	struct pcev_block_key k;
	__u64 index, end;
	struct fct_evict_key by;	/* set: the remover */
	__u64 stamp;			/* set: the reclaim count then */
};

/* Block i of the walk: [lo, hi) in *lo, *hi, its key in w->k; false past the end. */
static __always_inline bool pcev_block_of(struct pcev_walk *w, __u64 i, __u64 *lo, __u64 *hi)
{
	__u64 first = (w->index / FCT_PCEV_BLOCK + i) * FCT_PCEV_BLOCK;

	*lo = w->index > first ? w->index : first;
	if (*lo >= w->end)
		return false;
	*hi = (*lo / FCT_PCEV_BLOCK + 1) * FCT_PCEV_BLOCK;
	*hi = *hi < w->end ? *hi : w->end;
	w->k.block = *lo / FCT_PCEV_BLOCK;
	return true;
}

static long pcev_set_one(__u64 i, void *ctx)
{
	struct pcev_walk *w = ctx;
	struct pcev_block nb = { .by = w->by, .stamp = w->stamp }, *b;
	__u64 lo, hi;

	if (!pcev_block_of(w, i, &lo, &hi))
		return 1;
	b = bpf_map_lookup_elem(&pcev_blocks, &w->k);
	if (b) {
		__sync_fetch_and_or(&b->bits, pcev_bits(lo, hi));
		b->by = w->by;
		b->stamp = w->stamp;
		return 0;
	}
	nb.bits = pcev_bits(lo, hi);
	if (bpf_map_update_elem(&pcev_blocks, &w->k, &nb, BPF_NOEXIST))
		__sync_fetch_and_add(&lost.pc_evict_full, 1);
	return 0;
}

/* Remember pages [index, index + n) as removed by `by`. */
static __always_inline void pcev_set(const struct pcev_file_key *f, __u64 index, __u64 n,
				     const struct fct_evict_key *by)
{
	struct pcev_walk w = { .k = { .f = *f }, .index = index, .end = index + n, .by = *by,
			       .stamp = pc_evict.reclaimed_pages };

	bpf_loop(PCEV_MAX_SPAN, pcev_set_one, &w, 0);
}

/* A re-read of cnt pages reclaim removed, d pages of reclaim ago. */
static __always_inline void pcev_reclaim_reread(__u64 d, __u64 cnt)
{
	__u32 s = fct_hist_slot(d, FCT_HIST_SLOTS);

	__sync_fetch_and_add(&pc_evict.reclaim_reread_pages, cnt);
	if (s < FCT_HIST_SLOTS)	/* for the verifier */
		__sync_fetch_and_add(&pc_evict.reclaim_dist[s], cnt);
}

static long pcev_reread_one(__u64 i, void *ctx)
{
	struct pcev_walk *w = ctx;
	struct fct_evict_val *v;
	struct pcev_block *b;
	__u64 lo, hi, m, cnt;

	if (!pcev_block_of(w, i, &lo, &hi))
		return 1;
	b = bpf_map_lookup_elem(&pcev_blocks, &w->k);
	if (!b || !(m = b->bits & pcev_bits(lo, hi)))
		return 0;
	__sync_fetch_and_and(&b->bits, ~m);
	cnt = __builtin_popcountll(m);
	__sync_fetch_and_add(&pc_evict.reread_pages, cnt);
	if (b->by.how == FCT_EV_RECLAIM)
		pcev_reclaim_reread(pc_evict.reclaimed_pages - b->stamp, cnt);
	v = bpf_map_lookup_elem(&pc_evictors, &b->by);
	if (v)
		__sync_fetch_and_add(&v->reread_pages, cnt);
	return 0;
}

/* Pages [index, index + n) were read from disk by the target: those
 * removed before are re-reads, charged to their block's remover. */
static __always_inline void pcev_reread(struct inode *host, __u64 index, __u64 n)
{
	struct pcev_walk w = { .index = index, .end = index + n };

	if (!pc_evict_on)
		return;
	pcev_file(host, &w.k.f);
	pcev_mark(&w.k.f);
	bpf_loop(PCEV_MAX_SPAN, pcev_reread_one, &w, 0);
}

static __always_inline bool pcev_is_truncate(long nr)
{
	return nr == NR_TRUNCATE || nr == NR_FTRUNCATE || nr == NR_OPEN || nr == NR_OPENAT ||
	       nr == NR_OPENAT2 || nr == NR_CREAT || nr == NR_UNLINK || nr == NR_UNLINKAT ||
	       nr == NR_RENAME || nr == NR_RENAMEAT || nr == NR_RENAMEAT2 ||
	       nr == NR_FALLOCATE || nr == NR_CLOSE;
}

static __always_inline bool pcev_is_drop_caches(const char *name)
{
	static const char want[12] = "drop_caches";

#pragma unroll
	for (int i = 0; i < 12; i++)
		if (name[i] != want[i])
			return false;
	return true;
}

/*
 * A removal inside a write: O_DIRECT invalidation when the file written
 * is the folio's own; drop_caches when it is /proc/sys/vm/drop_caches
 * (its handler walks every file system's inodes in the writer's task).
 */
static __always_inline __u16 pcev_write_how(struct task_struct *task, struct pt_regs *regs,
					    struct inode *host)
{
	unsigned long fd = PT_REGS_PARM1_CORE_SYSCALL(regs);
	struct fdtable *fdt = BPF_CORE_READ(task, files, fdt);
	struct file **fds, *file = NULL;
	char name[16] = {};
	const unsigned char *dname;

	if (!fdt || fd >= BPF_CORE_READ(fdt, max_fds))
		return FCT_EV_OTHER;
	fds = BPF_CORE_READ(fdt, fd);
	bpf_probe_read_kernel(&file, sizeof(file), &fds[fd]);
	if (!file)
		return FCT_EV_OTHER;
	if (BPF_CORE_READ(file, f_inode) == host)
		return FCT_EV_DIRECT_IO;
	dname = BPF_CORE_READ(file, f_path.dentry, d_name.name);
	bpf_probe_read_kernel_str(name, sizeof(name), dname);
	return pcev_is_drop_caches(name) ? FCT_EV_DROP_CACHES : FCT_EV_OTHER;
}

/* How the current task is removing a page of host. */
static __always_inline void pcev_remover(struct fct_evict_key *by, struct inode *host,
					 __u64 pid_tgid, bool target)
{
	struct task_struct *task = bpf_get_current_task_btf();
	unsigned int flags = task->flags;
	struct pt_regs *regs;
	long nr;

	by->tgid = pid_tgid >> 32;
	by->flags = target ? FCT_EV_F_TARGET : 0;
	if (target && fct_slot((__u32)pid_tgid))
		by->flags |= FCT_EV_F_TRACED;
	by->nr = FCT_EV_NO_NR;
	by->pad = 0;
	by->how = FCT_EV_OTHER;
	if (flags & PF_KTHREAD)
		by->flags |= FCT_EV_F_KTHREAD;
	if (flags & PF_KSWAPD)
		by->flags |= FCT_EV_F_KSWAPD;
	if (flags & (PF_KSWAPD | PF_MEMALLOC)) {
		by->how = FCT_EV_RECLAIM;
		return;
	}
	if (flags & PF_KTHREAD)
		return;
	regs = (struct pt_regs *)bpf_task_pt_regs(task);
	nr = PCEV_SYSCALL_NR(regs);
	if (nr < 0)
		return;
	by->nr = (__u32)nr;
	if (nr == NR_FADVISE64)
		by->how = FCT_EV_FADVISE;
	else if (nr == NR_MADVISE)
		by->how = FCT_EV_MADVISE;
	else if (pcev_is_truncate(nr))
		by->how = FCT_EV_TRUNCATE;
	else if (sc_writes_file((__u32)nr))
		by->how = pcev_write_how(task, regs, host);
}

/* folio_order() is the including file's (pagecache.bpf.c). */
SEC("tp_btf/mm_filemap_delete_from_page_cache")
int BPF_PROG(fct_pc_remove, struct folio *folio)
{
	static const struct fct_evict_val zero = {};
	__u64 pid_tgid = bpf_get_current_pid_tgid(), pages;
	struct address_space *mapping;
	struct pcev_file_key f;
	struct fct_evict_key by;
	struct fct_evict_val *v;
	struct inode *host;
	bool target;

	if (!enabled || !(mapping = folio->mapping) || !(host = mapping->host))
		return 0;
	/* reclaim's removals of every file: the distance a re-read measures */
	if (bpf_get_current_task_btf()->flags & (PF_KSWAPD | PF_MEMALLOC))
		__sync_fetch_and_add(&pc_evict.reclaimed_pages,
				     1ULL << (folio_order(folio) & 31));
	pcev_file(host, &f);
	target = fct_is_target(pid_tgid);
	if (target)
		pcev_mark(&f);		/* its own removals make a file its own */
	else if (!bpf_map_lookup_elem(&pcev_files, &f))
		return 0;
	pages = 1ULL << (folio_order(folio) & 31);
	pcev_remover(&by, host, pid_tgid, target);
	v = fct_hash_entry(&pc_evictors, &by, &zero, &lost.pc_evict_full);
	if (v) {
		bpf_get_current_comm(v->comm, sizeof(v->comm));
		v->tid = (__u32)pid_tgid;
		__sync_fetch_and_add(&v->pages, pages);
		__sync_fetch_and_add(&v->folios, 1);
	}
	__sync_fetch_and_add(&pc_evict.removed_pages, pages);
	pcev_set(&f, folio->index, pages, &by);
	return 0;
}

#endif /* FCTRACE_PCEVICT_BPF_H */
