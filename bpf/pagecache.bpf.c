// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * pagecache.bpf.c - page cache misses: folios the traced threads added
 * (filemap:mm_filemap_add_to_page_cache, one event per folio, 1 << order
 * pages), per (thread, device, inode). A folio added inside a write is
 * new data, not a miss: it is counted apart (pages_written). Optional: read lookups
 * (mm_filemap_get_pages) per inode, off unless PG_PC_LOOKUPS.
 *
 * tp_btf hands us the folio itself; the inode and the order are read
 * with CO-RE-relocated plain loads (no tracefs, no probe-read helpers).
 */
#include "common.bpf.h"
#include "sysnr.bpf.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FCT_PC_ENTRIES);
	__type(key, struct fct_pc_key);
	__type(value, struct fct_pc_val);
} pc_pages SEC(".maps");

static __always_inline struct fct_pc_val *pc_entry(struct fct_slot *t,
						   struct inode *host)
{
	static const struct fct_pc_val zero = {};
	struct fct_pc_key key = { .tid = t->a.tid };
	struct super_block *sb;

	key.ino = host->i_ino;
	sb = host->i_sb;
	key.dev = sb ? sb->s_dev : host->i_rdev;
	return fct_hash_entry(&pc_pages, &key, &zero, &lost.pc_map_full);
}

/* folio_order(): 0 unless the folio is large (PG_head in its first
 * flags word), then the low byte of _flags_1. */
static __always_inline __u32 folio_order(struct folio *folio)
{
	unsigned long flags = 0;

	bpf_probe_read_kernel(&flags, sizeof(flags), folio);	/* flags: offset 0 */
	if (!(flags & (1UL << bpf_core_enum_value(enum pageflags, PG_head))))
		return 0;
	return folio->_flags_1 & 0xff;
}

#include "pcevict.bpf.h"	/* after folio_order(), which it uses */

SEC("tp_btf/mm_filemap_add_to_page_cache")
int BPF_PROG(fct_pc_add, struct folio *folio)
{
	struct fct_slot *t = fct_current_slot();
	struct fct_pc_val *v;
	__u64 pages;

	if (!t)
		return 0;
	pages = 1ULL << (folio_order(folio) & 31);
	if (t->in_syscall && sc_writes_file(t->in_nr)) {
		t->a.pages_written += pages;	/* new data, not a miss */
		pcev_mark_inode(folio->mapping->host);
		return 0;
	}
	t->a.pages_added += pages;
	pcev_reread(folio->mapping->host, folio->index, pages);
	v = pc_entry(t, folio->mapping->host);
	if (!v)
		return 0;
	v->pages += pages;
	v->folios++;
	return 0;
}

SEC("tp_btf/mm_filemap_get_pages")
int BPF_PROG(fct_pc_lookup, struct address_space *mapping, unsigned long index,
	     unsigned long last_index)
{
	struct fct_slot *t = fct_current_slot();
	struct fct_pc_val *v;

	if (!t)
		return 0;
	pcev_mark_inode(mapping->host);
	v = pc_entry(t, mapping->host);
	if (!v)
		return 0;
	v->lookups++;
	v->lookup_pages += last_index >= index ? last_index - index + 1 : 0;
	return 0;
}
