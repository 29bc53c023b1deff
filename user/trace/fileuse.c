/*
 * fileuse.c - the handles' reference stream per process (fileuse.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/reuse.h"
#include "base/proccomm.h"
#include "base/procshm.h"
#include "trace/connuse.h"
#include "trace/fileuse.h"

#define FILES_MIN	256
#define FILES_MAX	(1u << 16)	/* files a process's table keeps; past it,
					 * new files are counted, not kept */
#define REUSE_KEYS	(1u << 14)	/* keys the distances keep before sampling */
#define SLACK		0.005		/* "reaches the ceiling": within half a point */

struct fu_file {
	uint64_t key;		/* 0: an empty slot */
	uint64_t size;
	uint32_t opens;
	int32_t open_now;	/* its descriptors open (never below 0: opened
				 * before the window) */
	char dir[FCT_FU_NAME_LEN];
};

struct fu_proc {
	pid_t tgid;
	char comm[FCT_COMM_LEN];
	struct fu_file *files;	/* open addressing */
	uint32_t cap, nfiles, untracked;
	struct reuse *dist;	/* the set's stream */
	uint64_t accesses, opens, closes, files_once;
	int64_t open_now;	/* the set's descriptors open */
	uint64_t open_max;
	struct bu_proc *blocks;	/* its positional reads, from the first: its own
				 * stream, or its shared pool's (pool >= 0) */
	int pool;
	struct cu_proc *conns;	/* its new connections, from the first */
};

/* Processes that share a writable mapping (base/procshm.h): one cache,
 * so one block stream for their reads, reported with the first. */
struct fu_pool {
	uint64_t key, bytes;
	pid_t first;
	unsigned procs;
	struct bu_proc *blocks;
};

#define POOLS_MAX	64

struct fu_streams {
	struct fu_proc *procs;
	int nprocs, cap;
	int last;		/* the process of the last event */
	struct fu_pool pools[POOLS_MAX];
	int npools;
	uint64_t lost;
	uint64_t connects;	/* FCT_FU_CONNECT events read */
};

struct fu_streams *fu_streams_new(void)
{
	return calloc(1, sizeof(struct fu_streams));
}

void fu_streams_free(struct fu_streams *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->nprocs; i++) {
		free(s->procs[i].files);
		reuse_free(s->procs[i].dist);
		if (s->procs[i].pool < 0)
			bu_proc_free(s->procs[i].blocks);
		cu_proc_free(s->procs[i].conns);
	}
	for (int i = 0; i < s->npools; i++)
		bu_proc_free(s->pools[i].blocks);
	free(s->procs);
	free(s);
}

uint64_t fu_streams_connects(const struct fu_streams *s)
{
	return s->connects;
}

uint64_t fu_streams_lost(const struct fu_streams *s)
{
	uint64_t n = s ? s->lost : 0;

	struct kv_conns c;

	for (int i = 0; s && i < s->nprocs; i++) {
		if (s->procs[i].pool < 0)
			n += bu_lost(s->procs[i].blocks);
		cu_figures(s->procs[i].conns, &c);
		n += c.lost;
	}
	for (int i = 0; s && i < s->npools; i++)
		n += bu_lost(s->pools[i].blocks);
	return n;
}

/* The process's entry if it has one. */
static struct fu_proc *known_proc(struct fu_streams *s, pid_t tgid)
{
	if (s->last < s->nprocs && s->procs[s->last].tgid == tgid)
		return &s->procs[s->last];
	for (int i = 0; i < s->nprocs; i++)
		if (s->procs[i].tgid == tgid)
			return &s->procs[s->last = i];
	return NULL;
}

static struct fu_proc *proc_of(struct fu_streams *s, pid_t tgid)
{
	struct fu_proc *p = known_proc(s, tgid);

	if (p)
		return p;
	if (s->nprocs == s->cap) {
		int cap = s->cap ? 2 * s->cap : 8;
		struct fu_proc *np = realloc(s->procs, (size_t)cap * sizeof(*np));

		if (!np)
			return NULL;
		s->procs = np, s->cap = cap;
	}
	p = &s->procs[s->nprocs];
	memset(p, 0, sizeof(*p));
	p->tgid = tgid;
	p->pool = -1;
	p->dist = reuse_new(REUSE_KEYS);
	if (!p->dist)
		return NULL;
	proc_comm(tgid, p->comm, sizeof(p->comm));
	s->last = s->nprocs++;
	return p;
}

static struct fu_file *slot_of(struct fu_file *t, uint32_t cap, uint64_t key)
{
	uint32_t i = reuse_hash(key) & (cap - 1);

	while (t[i].key && t[i].key != key)
		i = (i + 1) & (cap - 1);
	return &t[i];
}

static int grow(struct fu_proc *p)
{
	uint32_t cap = p->cap ? 2 * p->cap : FILES_MIN;
	struct fu_file *t = calloc(cap, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (uint32_t i = 0; i < p->cap; i++)
		if (p->files[i].key)
			*slot_of(t, cap, p->files[i].key) = p->files[i];
	free(p->files);
	p->files = t, p->cap = cap;
	return 0;
}

/* The file's entry, made on its first event; NULL when the table is full. */
static struct fu_file *file_of(struct fu_proc *p, uint64_t key)
{
	struct fu_file *f;

	if (!key)
		key = 1;	/* 0 marks an empty slot */
	if (p->cap) {
		f = slot_of(p->files, p->cap, key);
		if (f->key)
			return f;
	}
	if (p->nfiles >= FILES_MAX) {
		p->untracked++;
		return NULL;
	}
	if ((p->nfiles + 1) * 4 > p->cap * 3 && grow(p))
		return NULL;
	f = slot_of(p->files, p->cap, key);
	f->key = key;
	p->nfiles++;
	return f;
}

static bool in_set(const struct fu_file *f)
{
	return f->opens >= 2;
}

static void reference(struct fu_streams *s, struct fu_proc *p, const struct fu_file *f)
{
	p->accesses++;
	if (reuse_ref(p->dist, f->key))
		s->lost++;
}

static void on_open(struct fu_streams *s, struct fu_proc *p, struct fu_file *f,
		    const struct fct_fileuse *e)
{
	f->opens++;
	f->open_now++;
	f->size = e->size;
	if (e->dir[0])
		memcpy(f->dir, e->dir, sizeof(f->dir));
	f->dir[sizeof(f->dir) - 1] = '\0';
	if (f->opens == 1) {
		p->files_once++;
		return;
	}
	if (f->opens == 2) {	/* joins the set with the descriptors it has open */
		p->files_once--;
		p->open_now += f->open_now - 1;
	}
	p->opens++;
	p->open_now++;
	if (p->open_now > 0 && (uint64_t)p->open_now > p->open_max)
		p->open_max = (uint64_t)p->open_now;
	reference(s, p, f);
}

static void on_close(struct fu_proc *p, struct fu_file *f)
{
	if (f->open_now <= 0)
		return;		/* opened before the window */
	f->open_now--;
	if (!in_set(f))
		return;
	p->closes++;
	if (p->open_now > 0)
		p->open_now--;
}

/* The pool of the processes that share key, made on its first reader. */
static int pool_of(struct fu_streams *s, uint64_t key, uint64_t bytes, pid_t tgid)
{
	struct fu_pool *o;

	for (int i = 0; i < s->npools; i++)
		if (s->pools[i].key == key) {
			s->pools[i].procs++;
			return i;
		}
	if (s->npools == POOLS_MAX)
		return -1;
	o = &s->pools[s->npools];
	if (!(o->blocks = bu_proc_new()))
		return -1;
	o->key = key, o->bytes = bytes, o->first = tgid, o->procs = 1;
	return s->npools++;
}

/* The block stream a process's reads go to, looked for at its first:
 * its shared pool's, else its own. */
static struct bu_proc *blocks_of(struct fu_streams *s, struct fu_proc *p)
{
	uint64_t bytes, key;

	if (p->blocks)
		return p->blocks;
	key = proc_shared_pool(p->tgid, &bytes);
	if (key && (p->pool = pool_of(s, key, bytes, p->tgid)) >= 0)
		return p->blocks = s->pools[p->pool].blocks;
	return p->blocks = bu_proc_new();
}

/* A positional read: a block of the process's own cache's misses, and a
 * use of the handle unless the thread's last file again. */
static void on_read(struct fu_streams *s, struct fu_proc *p, struct fu_file *f,
		    const struct fct_fileuse *e)
{
	char link[64], path[BU_PATH_LEN];
	ssize_t n;

	if (!blocks_of(s, p)) {
		s->lost++;
		return;
	}
	bu_read(p->blocks, e, f->key);
	if (bu_wants_path(p->blocks, f->key)) {
		snprintf(link, sizeof(link), "/proc/%u/fd/%d", e->tgid, e->fd);
		n = readlink(link, path, sizeof(path) - 1);
		path[n > 0 ? n : 0] = '\0';
		bu_set_path(p->blocks, f->key, n > 0 ? path : "?");
	}
	if (!(e->flags & FCT_FU_REPEAT) && in_set(f))
		reference(s, p, f);
}

static bool is_socket_event(const struct fct_fileuse *e)
{
	return e->op == FCT_FU_CONNECT || e->op == FCT_FU_SETUP ||
	       (e->op == FCT_FU_CLOSE && (e->flags & FCT_FU_SOCKET));
}

/* A connection's event; a close of a socket the process never connected
 * (an accepted one, a datagram's) makes no entry. */
static void on_socket(struct fu_streams *s, struct fu_proc *p, const struct fct_fileuse *e)
{
	if (!p->conns) {
		if (e->op != FCT_FU_CONNECT)
			return;
		if (!(p->conns = cu_proc_new())) {
			s->lost++;
			return;
		}
	}
	cu_event(p->conns, e);
}

void fu_streams_event(struct fu_streams *s, const void *data, size_t len)
{
	const struct fct_fileuse *e = data;
	struct fu_proc *p;
	struct fu_file *f;

	if (len < FCT_FU_HEAD_BYTES ||
	    ((e->op == FCT_FU_OPEN || e->op == FCT_FU_CONNECT) && len < sizeof(*e)))
		return;
	if (is_socket_event(e)) {
		s->connects += e->op == FCT_FU_CONNECT;
		/* a process that only closes sockets gets no entry */
		p = e->op == FCT_FU_CONNECT ? proc_of(s, (pid_t)e->tgid) :
		    known_proc(s, (pid_t)e->tgid);
		if (p)
			on_socket(s, p, e);
		return;
	}
	if (!(p = proc_of(s, (pid_t)e->tgid)))
		return;
	if (!(f = file_of(p, fct_fileuse_key(e->dev, e->ino))))
		return;
	switch (e->op) {
	case FCT_FU_OPEN:
		on_open(s, p, f, e);
		break;
	case FCT_FU_CLOSE:
		on_close(p, f);
		break;
	case FCT_FU_USE:
		if (in_set(f))
			reference(s, p, f);
		break;
	case FCT_FU_READ:
		on_read(s, p, f, e);
		break;
	}
}

/* ---- the figures at the end --------------------------------------------- */

static double hit_ratio_at(const struct reuse *r, uint64_t size)
{
	double refs = reuse_refs_est(r);

	return refs > 0 ? reuse_hits_at(r, size) / refs : 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The sizes a curve is given at: each size up to 64 (small caches are
 * read at their exact size), then steps of a fifth up to twice the
 * working set, and the size now and the fix. */
static void curve(struct kv_handles *h, const struct reuse *r)
{
	uint64_t sizes[FU_MRC_MAX + 2], top = 2 * h->files + 2;
	int n = 0;

	sizes[n++] = h->size_now;
	sizes[n++] = h->fix_size;
	for (uint64_t s = 1; n < FU_MRC_MAX && s <= top; s = s < 64 ? s + 1 : s + s / 5)
		sizes[n++] = s;
	qsort(sizes, (size_t)n, sizeof(*sizes), cmp_u64);
	h->nmrc = 0;
	for (int i = 0; i < n && h->nmrc < FU_MRC_MAX; i++) {
		if (!sizes[i] || (h->nmrc && h->mrc[h->nmrc - 1].size == sizes[i]))
			continue;
		h->mrc[h->nmrc].size = sizes[i];
		h->mrc[h->nmrc++].hit_ratio = hit_ratio_at(r, sizes[i]);
	}
}

static void add_dir(const char *dir, uint32_t *counts, char (*names)[FCT_FU_NAME_LEN], int *n,
		    int max)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp(names[i], dir)) {
			counts[i]++;
			return;
		}
	if (*n < max) {
		memcpy(names[*n], dir, FCT_FU_NAME_LEN);
		counts[(*n)++] = 1;
	}
}

/* The set's files, bytes and directories, most files first. */
static void set_members(struct kv_handles *h, const struct fu_proc *p)
{
	char names[32][FCT_FU_NAME_LEN];
	uint32_t counts[32];
	int n = 0;

	for (uint32_t i = 0; i < p->cap; i++) {
		const struct fu_file *f = &p->files[i];

		if (!f->key || !in_set(f))
			continue;
		h->files++;
		h->bytes += f->size;
		add_dir(f->dir, counts, names, &n, 32);
	}
	for (h->ndirs = 0; h->ndirs < FU_DIRS_MAX && n > 0; h->ndirs++) {
		int best = 0;

		for (int i = 1; i < n; i++)
			if (counts[i] > counts[best])
				best = i;
		memcpy(h->dirs[h->ndirs], names[best], FCT_FU_NAME_LEN);
		h->dir_files[h->ndirs] = counts[best];
		counts[best] = counts[--n];
		memcpy(names[best], names[n], FCT_FU_NAME_LEN);
	}
}

/* Does p report its block stream: its own, or as its shared pool's first
 * reader (the pool's other processes report none)? */
static bool reports_blocks(const struct fu_streams *s, const struct fu_proc *p)
{
	return p->blocks && (p->pool < 0 || s->pools[p->pool].first == p->tgid);
}

static void blocks_figures(const struct fu_streams *s, const struct fu_proc *p,
			   struct kv_blocks *b)
{
	const struct fu_pool *o = p->pool >= 0 ? &s->pools[p->pool] : NULL;

	memset(b, 0, sizeof(*b));
	if (!reports_blocks(s, p))
		return;
	bu_figures(p->blocks, b);
	b->procs = o ? o->procs : 1;
	b->shared_bytes = o ? o->bytes : 0;
}

static void figures(const struct fu_streams *s, struct kv_handles *h, const struct fu_proc *p)
{
	memset(h, 0, sizeof(*h));
	h->tgid = p->tgid;
	memcpy(h->comm, p->comm, sizeof(h->comm));
	h->accesses = p->accesses;
	h->opens = p->opens;
	h->closes = p->closes;
	h->files_once = p->files_once;
	h->size_now = p->open_max;
	h->hit_ratio_now = p->accesses ? 1.0 - (double)p->opens / (double)p->accesses : 0;
	h->sample_rate = reuse_rate(p->dist);
	set_members(h, p);
	h->fix_size = reuse_size_for_ceiling(p->dist, SLACK);
	h->hit_ratio_fix = hit_ratio_at(p->dist, h->fix_size);
	curve(h, p->dist);
	blocks_figures(s, p, &h->blocks);
	cu_figures(p->conns, &h->conns);
}

static bool reported(const struct fu_streams *s, const struct fu_proc *p)
{
	return p->opens > 0 || reports_blocks(s, p) || p->conns;
}

int fu_streams_read(struct fu_streams *s, struct kv_handles **out, int *n)
{
	int k = 0;

	*out = NULL;
	*n = 0;
	if (!s)
		return 0;
	for (int i = 0; i < s->nprocs; i++)
		k += reported(s, &s->procs[i]);
	if (!k)
		return 0;
	*out = calloc((size_t)k, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (int i = 0; i < s->nprocs; i++)
		if (reported(s, &s->procs[i]))
			figures(s, &(*out)[(*n)++], &s->procs[i]);
	return 0;
}
