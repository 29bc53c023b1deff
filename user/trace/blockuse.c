/*
 * blockuse.c - a process's block stream (blockuse.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "base/reuse.h"
#include "trace/blockuse.h"

#define BLOCK_KEYS	(1u << 16)	/* blocks the distances keep before sampling */
#define FILES_MAX	1024		/* files named; past it, read but not named */
#define SLACK		0.005
/* What the cache holds now, from outside: the distance on the miss stream
 * below which re-reads are rare (their first HELD_SHARE), once there are
 * HELD_MIN re-reads to tell it by. */
#define HELD_SHARE	0.01
#define HELD_MIN	100
#define ALIGN		4096ull		/* a block's key: its file and its 4 KiB page */

struct bu_file {
	uint64_t key;		/* 0: empty */
	uint64_t reads;
	char path[BU_PATH_LEN];
	int named;
};

struct bu_proc {
	struct reuse *dist;
	struct bu_file files[FILES_MAX];	/* open addressing */
	unsigned nfiles;
	uint64_t reads, direct, bytes, sized;
	uint64_t lost;
};

struct bu_proc *bu_proc_new(void)
{
	struct bu_proc *b = calloc(1, sizeof(*b));

	if (b && !(b->dist = reuse_new(BLOCK_KEYS))) {
		free(b);
		return NULL;
	}
	return b;
}

void bu_proc_free(struct bu_proc *b)
{
	if (!b)
		return;
	reuse_free(b->dist);
	free(b);
}

uint64_t bu_lost(const struct bu_proc *b)
{
	return b ? b->lost + reuse_lost(b->dist) : 0;
}

static struct bu_file *file_slot(const struct bu_proc *b, uint64_t key, int make)
{
	unsigned i = reuse_hash(key) & (FILES_MAX - 1);

	for (unsigned n = 0; n < FILES_MAX; n++, i = (i + 1) & (FILES_MAX - 1)) {
		struct bu_file *f = (struct bu_file *)&b->files[i];

		if (f->key == key)
			return f;
		if (!f->key)
			return make && b->nfiles * 4 < FILES_MAX * 3 ? f : NULL;
	}
	return NULL;
}

void bu_read(struct bu_proc *b, const struct fct_fileuse *e, uint64_t file_key)
{
	struct bu_file *f = file_slot(b, file_key, 1);
	/* a block: its file and page (mixed, so that reuse_hash spreads them) */
	uint64_t block = file_key * 0x9e3779b97f4a7c15ull ^ (e->off / ALIGN);

	b->reads++;
	b->direct += !!(e->flags & FCT_FU_DIRECT);
	if (e->len) {
		b->bytes += e->len;
		b->sized++;
	}
	if (f) {
		if (!f->key) {
			f->key = file_key;
			b->nfiles++;
		}
		f->reads++;
	}
	if (reuse_ref(b->dist, block ? block : 1))
		b->lost++;
}

int bu_wants_path(const struct bu_proc *b, uint64_t file_key)
{
	const struct bu_file *f = file_slot(b, file_key, 0);

	return f && !f->named;
}

void bu_set_path(struct bu_proc *b, uint64_t file_key, const char *path)
{
	struct bu_file *f = file_slot(b, file_key, 0);

	if (!f)
		return;
	strncpy(f->path, path, sizeof(f->path) - 1);
	f->named = 1;
}

static double served_at(const struct reuse *r, uint64_t size)
{
	double refs = reuse_refs_est(r);

	return refs > 0 ? reuse_hits_at(r, size) / refs : 0;
}

/*
 * What the cache holds now, in blocks, seen from its misses: a block it
 * still held would not be read, so a re-read's distance on the miss
 * stream (the distinct blocks read between) is at least what the cache
 * keeps of the blocks read - less the ones it holds for their hits. The
 * distance below which only HELD_SHARE of the re-reads fall is that
 * estimate (a pool of 1024 buffers: re-reads begin at 955-1146); 0 when
 * the re-reads are too few to tell.
 */
static uint64_t held_of(const struct reuse *r)
{
	double ceiling = reuse_ceiling(r);

	if (ceiling < HELD_MIN)
		return 0;
	return reuse_size_for_hits(r, HELD_SHARE * ceiling);
}

/* Each size up to 64 blocks, then steps of a fifth up to twice the
 * blocks read, and the fix: blocks more than the cache holds, each
 * served as the stream's LRU of held + that size serves it. */
static void curve(struct kv_blocks *o, const struct reuse *r)
{
	uint64_t top = 2 * o->blocks + 2, s = 1;

	o->nmrc = 0;
	while (o->nmrc < BU_MRC_MAX - 1 && s <= top) {
		if (o->fix_size > (o->nmrc ? o->mrc[o->nmrc - 1].size : 0) && o->fix_size < s) {
			o->mrc[o->nmrc].size = o->fix_size;
			o->mrc[o->nmrc++].hit_ratio = served_at(r, o->held + o->fix_size);
		}
		o->mrc[o->nmrc].size = s;
		o->mrc[o->nmrc++].hit_ratio = served_at(r, o->held + s);
		s = s < 64 ? s + 1 : s + s / 5;
	}
}

static void top_file(const struct bu_proc *b, struct kv_blocks *o)
{
	const struct bu_file *top = NULL;

	for (unsigned i = 0; i < FILES_MAX; i++)
		if (b->files[i].key && (!top || b->files[i].reads > top->reads))
			top = &b->files[i];
	o->files = b->nfiles;
	if (!top)
		return;
	memcpy(o->top_file, top->path, sizeof(o->top_file));
	o->top_share = b->reads ? (double)top->reads / (double)b->reads : 0;
}

int bu_figures(const struct bu_proc *b, struct kv_blocks *o)
{
	memset(o, 0, sizeof(*o));
	if (!b || !b->reads)
		return 0;
	o->reads = b->reads;
	o->direct = b->direct;
	o->bytes = b->bytes;
	o->block_bytes = b->sized ? b->bytes / b->sized : ALIGN;
	o->blocks = (uint64_t)(reuse_keys_est(b->dist) + 0.5);
	o->rereads = reuse_refs_est(b->dist) - reuse_keys_est(b->dist);
	o->sample_rate = reuse_rate(b->dist);
	o->held = held_of(b->dist);
	o->fix_size = reuse_size_for_ceiling(b->dist, SLACK);
	if (o->fix_size)
		o->fix_size = o->fix_size > o->held ? o->fix_size - o->held : 1;
	o->hit_ratio_fix = served_at(b->dist, o->held + o->fix_size);
	curve(o, b->dist);
	top_file(b, o);
	return 0;
}
