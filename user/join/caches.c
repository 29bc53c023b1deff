/*
 * caches.c - the caches of a run's processes (caches.h).
 */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include "join/caches.h"
#include "join/join.h"

const char *const cache_kind_names[CACHE_KINDS] = {
	[CACHE_HANDLES] = "handles",
	[CACHE_BLOCKS] = "blocks",
	[CACHE_PAGES] = "pages",
	[CACHE_CONNS] = "connections",
};

const char *cache_kind_name(enum cache_kind k)
{
	return (unsigned)k < CACHE_KINDS ? cache_kind_names[k] : "unknown";
}

int cache_kind_parse(const char *s)
{
	for (int k = 0; k < CACHE_KINDS; k++)
		if (s && !strcmp(s, cache_kind_names[k]))
			return k;
	return -1;
}

bool cache_sizes_relative(const struct cache_entry *c)
{
	return c->kind == CACHE_BLOCKS || c->kind == CACHE_PAGES;
}

double cache_hit_ratio_at(const struct cache_entry *c, uint64_t size)
{
	const struct fu_point *p = c->mrc;

	if (!c->nmrc || size <= p[0].size)
		return c->nmrc && size == p[0].size ? p[0].hit_ratio :
		       c->nmrc ? p[0].hit_ratio * (double)size / (double)p[0].size : 0;
	for (int i = 1; i < c->nmrc; i++)
		if (size <= p[i].size)
			return p[i - 1].hit_ratio + (p[i].hit_ratio - p[i - 1].hit_ratio) *
			       (double)(size - p[i - 1].size) / (double)(p[i].size - p[i - 1].size);
	return p[c->nmrc - 1].hit_ratio;
}

static const int open_nrs[] = { SYS_open, SYS_openat, SYS_openat2, SYS_creat };
static const int close_nrs[] = { SYS_close };

/* The mean time of a call of any of nrs by the threads of process pid,
 * and their count. */
static double mean_ns(const struct joined_run *m, pid_t pid, const int *nrs, int n,
		      double *count)
{
	double ns = 0, calls = 0, all = 0;

	for (unsigned i = 0; i < m->nrows; i++) {
		const struct thread_row *r = &m->rows[i];

		if (!r->has_kernel || (pid_t)r->k.tgid != pid)
			continue;
		for (int j = 0; j < n; j++) {
			const struct fct_nr_stats *s = acct_nr(&r->k, nrs[j] & (FCT_NR_MAX - 1));

			all += (double)s->count;
			if (s->timed)
				ns += (double)s->total_ns, calls += (double)s->count;
		}
	}
	if (count)
		*count = all;
	return calls > 0 ? ns / calls : 0;
}

static const int stat_nrs[] = { SYS_newfstatat, SYS_statx, SYS_stat, SYS_lstat };

/* What c's misses cost at each_ns a miss, and what the fix size saves. In
 * whole nanoseconds, as the saved run keeps them: a report of the saved
 * run prints the same figures as the run did. */
void cache_costs(struct cache_entry *c, double each_ns)
{
	c->miss_each_ns = round(each_ns);
	c->miss_ns = round(c->miss_each_ns * (double)c->misses);
	c->misses_at_fix = (uint64_t)((double)c->accesses * (1.0 - c->hit_ratio_fix) + 0.5);
	if (c->misses_at_fix < c->misses)
		c->saved_ns = round(c->miss_each_ns * (double)(c->misses - c->misses_at_fix));
}

/* A miss's calls at the process's mean times: an open and a close, and
 * the stats by path its opens come with (as many as opens, at most one
 * each: a cache checks a file before it opens it again). */
static double miss_each_ns(const struct joined_run *m, pid_t pid)
{
	double opens, stats, open = mean_ns(m, pid, open_nrs, 4, &opens);
	double stat = mean_ns(m, pid, stat_nrs, 4, &stats);

	return open + mean_ns(m, pid, close_nrs, 1, NULL) +
	       (opens > 0 ? stat * (stats < opens ? stats / opens : 1) : 0);
}


/* "html/ (60 files)", or "a/ (40 files), b/ (20 files)": where the set is */
static void name_object(struct cache_entry *c, const struct kv_handles *h)
{
	size_t n = 0;

	c->object[0] = '\0';
	for (int i = 0; i < h->ndirs && n < sizeof(c->object); i++)
		n += (size_t)snprintf(c->object + n, sizeof(c->object) - n, "%s%s/ (%u file%s)",
				      i ? ", " : "", h->dirs[i], h->dir_files[i],
				      h->dir_files[i] == 1 ? "" : "s");
}

static void handles_entry(struct cache_entry *c, const struct joined_run *m,
			  const struct kv_handles *h)
{
	double bytes_each = h->files ? (double)h->bytes / (double)h->files : 0;

	memset(c, 0, sizeof(*c));
	c->procs = 1;
	c->kind = CACHE_HANDLES;
	c->pid = h->tgid;
	memcpy(c->comm, h->comm, sizeof(c->comm));
	name_object(c, h);
	c->accesses = h->accesses;
	c->misses = h->opens;
	c->ws_items = h->files;
	c->ws_bytes = h->bytes;
	c->size_known = true;
	c->size_items = h->size_now;
	c->hit_ratio_now = h->hit_ratio_now;
	memcpy(c->mrc, h->mrc, sizeof(c->mrc));
	c->nmrc = h->nmrc;
	c->fix_items = h->fix_size;
	c->fix_bytes = (uint64_t)(bytes_each * (double)h->fix_size);
	c->hit_ratio_fix = h->hit_ratio_fix;
	c->sample_rate = h->sample_rate;
	cache_costs(c, miss_each_ns(m, h->tgid));
}

static const int pread_nrs[] = { SYS_pread64, SYS_preadv, SYS_preadv2 };

/*
 * What one positional read costs process pid's threads, which a hit in
 * its cache would save: its sleep (the disk), exact, and the rest of its
 * time in the call at the share of their runnable time they were on a CPU
 * - on a machine short of CPUs most of a read's time past its sleep is the
 * wait for a CPU after the wake-up, which the CPU rules count, not this.
 */
static double read_cost_ns(const struct joined_run *m, pid_t pid)
{
	double calls = 0, total = 0, asleep = 0, cpu = 0, runq = 0;

	for (unsigned i = 0; i < m->nrows; i++) {
		const struct thread_row *r = &m->rows[i];

		if (!r->has_kernel || (pid_t)r->k.tgid != pid)
			continue;
		for (int j = 0; j < 3; j++) {
			const struct fct_nr_stats *s = acct_nr(&r->k, pread_nrs[j] & (FCT_NR_MAX - 1));

			if (!s->timed)
				continue;
			calls += (double)s->count;
			total += (double)s->total_ns;
			asleep += (double)s->blocked_ns;
		}
		cpu += (double)(r->acct_ns[ACCT_CPU_USER] + r->acct_ns[ACCT_CPU_SYS]);
		runq += (double)r->acct_ns[ACCT_RUNQ];
	}
	if (calls <= 0)
		return 0;
	return (asleep + fmax(0, total - asleep) * (cpu + runq > 0 ? cpu / (cpu + runq) : 1)) /
	       calls;
}

#define BLOCKS_UNKNOWN "its cache serves hits without a syscall: only its misses are seen, " \
	"so its size and hit ratio are not, and the curve's sizes are blocks more than it has"

static void blocks_object(struct cache_entry *c, const struct kv_blocks *b)
{
	if (b->files > 1)
		snprintf(c->object, sizeof(c->object), "%.100s (%.0f %% of the reads) and %u other "
			 "file%s", b->top_file, 100 * b->top_share, b->files - 1,
			 b->files == 2 ? "" : "s");
	else
		snprintf(c->object, sizeof(c->object), "%s", b->top_file);
}

static void blocks_entry(struct cache_entry *c, const struct joined_run *m,
			 const struct kv_handles *h)
{
	const struct kv_blocks *b = &h->blocks;

	memset(c, 0, sizeof(*c));
	c->procs = 1;
	c->kind = CACHE_BLOCKS;
	c->pid = h->tgid;
	memcpy(c->comm, h->comm, sizeof(c->comm));
	blocks_object(c, b);
	c->accesses = c->misses = b->reads;
	c->ws_items = b->blocks;
	c->ws_bytes = b->blocks * b->block_bytes;
	snprintf(c->why_unknown, sizeof(c->why_unknown), "%s", BLOCKS_UNKNOWN);
	for (int i = 0; i < b->nmrc && i < FU_MRC_MAX; i++, c->nmrc++)
		c->mrc[i] = (struct fu_point){ b->mrc[i].size, b->mrc[i].hit_ratio };
	c->fix_items = b->fix_size;
	c->fix_bytes = b->fix_size * b->block_bytes;
	c->hit_ratio_fix = b->hit_ratio_fix;
	c->sample_rate = b->sample_rate;
	c->direct = b->direct;
	c->rereads = b->rereads;
	c->procs = b->procs;
	c->held_items = b->held;
	c->shared_bytes = b->shared_bytes;
	cache_costs(c, read_cost_ns(m, h->tgid));
}

#define CONNS_UNKNOWN "a connection a program keeps is reused without a call the kernel sees: " \
	"only new connections are seen, each a miss, and the curve is the share of them a pool " \
	"of each size would have served"
#define CONNS_SLACK	0.005	/* "reaches the ceiling": within half a point */

/* The pool sizes of the curve: each up to the peak (at most FU_MRC_MAX),
 * and the smallest that reaches the ceiling. */
static void conns_curve(struct cache_entry *c, const struct kv_conn *k)
{
	uint64_t top = k->peak < FU_MRC_MAX ? k->peak : FU_MRC_MAX;
	double ceiling = cu_hit_ratio_at(k, k->peak);

	for (uint64_t s = 1; s <= top; s++, c->nmrc++)
		c->mrc[c->nmrc] = (struct fu_point){ s, cu_hit_ratio_at(k, s) };
	c->fix_items = k->peak;
	for (uint64_t s = 1; s <= k->peak; s++)
		if (cu_hit_ratio_at(k, s) >= ceiling - CONNS_SLACK) {
			c->fix_items = s;
			break;
		}
	c->hit_ratio_fix = cu_hit_ratio_at(k, c->fix_items);
}

/* What a new connection costs that a kept one would not: its set-up where
 * measured (connect to the first reply), its connect call where not, and
 * its close at the process's mean. */
static double conn_miss_ns(const struct joined_run *m, pid_t pid, const struct kv_conn *k)
{
	double connect = k->connects ? (double)k->connect_ns / (double)k->connects : 0;
	double unmeasured = k->connects > k->setups ? (double)(k->connects - k->setups) : 0;

	if (!k->connects)
		return 0;
	return ((double)k->setup_ns + unmeasured * connect) / (double)k->connects +
	       mean_ns(m, pid, close_nrs, 1, NULL);
}

static void conns_entry(struct cache_entry *c, const struct joined_run *m,
			const struct kv_handles *h, const struct kv_conn *k)
{
	memset(c, 0, sizeof(*c));
	c->procs = 1;
	c->kind = CACHE_CONNS;
	c->pid = h->tgid;
	memcpy(c->comm, h->comm, sizeof(c->comm));
	snprintf(c->object, sizeof(c->object), "connections to %s", k->peer);
	c->accesses = c->misses = k->connects;
	c->ws_items = k->peak;
	snprintf(c->why_unknown, sizeof(c->why_unknown), "%s", CONNS_UNKNOWN);
	c->sample_rate = 1;
	conns_curve(c, k);
	c->has_conn = true;
	snprintf(c->conn.peer, sizeof(c->conn.peer), "%s", k->peer);
	c->conn.setups = k->setups;
	c->conn.closes = k->closes;
	c->conn.connect_each_ns = round((double)k->connect_ns / (double)k->connects);
	c->conn.setup_each_ns = k->setups ? round((double)k->setup_ns / (double)k->setups) : 0;
	c->conn.lived_each_ns = k->closes ? round((double)k->life_ns / (double)k->closes) : 0;
	cache_costs(c, conn_miss_ns(m, h->tgid, k));
}

static int by_saving(const void *a, const void *b)
{
	const struct cache_entry *x = a, *y = b;

	return (x->saved_ns < y->saved_ns) - (x->saved_ns > y->saved_ns);
}

/* Fewer positional reads are a program's start-up (a locale file read
 * twice), not a cache's misses. */
#define BLOCKS_MIN_READS	32
/* Fewer new connections to a peer are a program's start-up (a name
 * service asked once or twice), not a pool's misses. */
#define CONNS_MIN	4

static int entries_of(const struct kv_handles *h)
{
	int n = 2;

	for (int j = 0; j < h->conns.npeers; j++)
		n += h->conns.peers[j].connects >= CONNS_MIN;
	return n;
}

int caches_build(struct joined_run *m, const struct kview *kv)
{
	size_t n = 1;

	if (!kv)
		return 0;
	for (int i = 0; i < kv->nhandles; i++)
		n += (size_t)entries_of(&kv->handles[i]);
	m->caches = calloc(n, sizeof(*m->caches));
	if (!m->caches)
		return -1;
	if (caches_pages_entry(&m->caches[m->ncaches], m, kv))
		m->ncaches++;
	for (int i = 0; i < kv->nhandles; i++) {
		const struct kv_handles *h = &kv->handles[i];

		if (h->opens)
			handles_entry(&m->caches[m->ncaches++], m, h);
		/* a stream with no block read twice is not a cache's misses */
		if (h->blocks.reads >= BLOCKS_MIN_READS && h->blocks.rereads >= 1)
			blocks_entry(&m->caches[m->ncaches++], m, h);
		for (int j = 0; j < h->conns.npeers; j++)
			if (h->conns.peers[j].connects >= CONNS_MIN)
				conns_entry(&m->caches[m->ncaches++], m, h, &h->conns.peers[j]);
	}
	qsort(m->caches, (size_t)m->ncaches, sizeof(*m->caches), by_saving);
	return 0;
}
