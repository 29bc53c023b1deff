/*
 * slotrecycle.c - ended threads' slots emptied while the run goes on
 * (slotrecycle.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <bpf/bpf.h>
#include "trace/slotrecycle.h"
#include "trace/slots.h"

/* A thread's last events come just after its exit tracepoint closes the
 * account (its final switch finds no open slot and leaves it alone);
 * a slot is emptied only this long after its end. */
#define SLOTREC_AGE_NS		100000000ull
/* A pass looks at each slot's tid and end (a cache line a slot: under a
 * millisecond for 16 384) and copies out the ended ones (~20 us each
 * here: 8 161 in 158 ms under `run --follow` of a shell running
 * /bin/true 12 000 times). At most ten a second, and only once half the
 * table is taken and an eighth of it was claimed since the last pass:
 * churn worth collecting, not a big process's live threads looked at
 * again and again. */
#define SLOTREC_EVERY_NS	100000000ull

/* A map whose key begins with a thread's tid: the entries of the threads
 * a pass recycled are moved out with them (a server making a process a
 * connection filled the syscall histograms' table in minutes). */
#define SLOTREC_MAPS		8
#define SLOTREC_BATCH		1024

struct tidmap {
	int fd;
	size_t ksz, vsz;
	char *kv;			/* the entries moved out: key, value, ... */
	size_t n, cap;
};

struct slotrec {
	char *base;			/* the slots, mapped read-write */
	size_t len, stride, vsz;
	unsigned nslots;
	int spill_fd;
	const volatile __u64 *claimed;
	uint64_t claimed_at_pass;	/* *claimed at the last pass */
	uint64_t last_pass_ns;
	uint64_t recycled;
	struct fct_thread *out;		/* the accounts taken out */
	int n, cap;
	struct acct_arena arena;	/* their syscall tables */
	__u32 *pass_tids;		/* the tids this pass recycled, sorted */
	int npass, cappass;
	struct tidmap maps[SLOTREC_MAPS];
	int nmaps;
	uint64_t moved;			/* map entries moved out */
};

struct slotrec *slotrec_open(int fd, size_t vsz, unsigned nslots, int spill_fd,
			     const volatile __u64 *claimed)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct slotrec *r;

	if (vsz < sizeof(struct fct_account) || !claimed || !(r = calloc(1, sizeof(*r))))
		return NULL;
	r->vsz = vsz;
	r->stride = (vsz + 7) & ~(size_t)7;	/* an array's values, 8-byte aligned */
	r->len = (r->stride * nslots + page - 1) / page * page;
	r->nslots = nslots;
	r->spill_fd = spill_fd;
	r->claimed = claimed;
	r->base = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (r->base == MAP_FAILED) {
		free(r);
		return NULL;
	}
	return r;
}

/* Room for one more account taken out. */
static struct fct_thread *next_out(struct slotrec *r)
{
	if (r->n == r->cap) {
		int cap = r->cap ? 2 * r->cap : 256;
		void *p = realloc(r->out, (size_t)cap * sizeof(*r->out));

		if (!p)
			return NULL;
		r->out = p;
		r->cap = cap;
	}
	return &r->out[r->n];
}

/* The numbers a's thread spilled into the nr_spill map, moved into t:
 * a later thread of the same tid must not find them. */
static int take_spilled(struct slotrec *r, struct fct_thread *t, const struct fct_account *a)
{
	for (unsigned nr = 0; nr < FCT_NR_MAX && a->nrt.spilled; nr++) {
		struct fct_sc_hist_key k = { .tid = a->tid, .nr = nr };
		struct fct_nr_stats v;

		if (a->nrt.at[nr] != FCT_NR_SPILLED || bpf_map_lookup_elem(r->spill_fd, &k, &v))
			continue;
		if (slots_nr_add(t, &r->arena, nr, &v))
			return -1;
		bpf_map_delete_elem(r->spill_fd, &k);
	}
	return 0;
}

/* Slot k's account copied out and the slot given back, if its thread
 * ended before `before`: 1 when it was, 0 when not, -1 without memory. */
static int recycle_one(struct slotrec *r, unsigned k, uint64_t before)
{
	char *slot = r->base + (size_t)k * r->stride;
	const struct fct_account *a = (const struct fct_account *)slot;
	struct fct_thread *t;

	/* end_ns is set only where an account closes (a slot is claimed
	 * zeroed), so it says the thread ended */
	if (!a->tid || a->tid == FCT_TID_RECYCLED || !a->end_ns || a->end_ns > before)
		return 0;
	if (!(t = next_out(r)) || slots_account_copy(t, &r->arena, a) || take_spilled(r, t, a))
		return -1;
	r->n++;
	if (r->npass == r->cappass) {
		int cap = r->cappass ? 2 * r->cappass : 256;
		void *p = realloc(r->pass_tids, (size_t)cap * sizeof(*r->pass_tids));

		if (!p)
			return -1;
		r->pass_tids = p;
		r->cappass = cap;
	}
	r->pass_tids[r->npass++] = a->tid;
	/* zero under the old tid, which no claim or lookup takes, then
	 * free: a claim sees a clean slot */
	memset(slot + sizeof(a->tid), 0, r->vsz - sizeof(a->tid));
	__atomic_store_n((uint32_t *)slot, FCT_TID_RECYCLED, __ATOMIC_RELEASE);
	return 1;
}

static int cmp_tid(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;

	return x < y ? -1 : x > y;
}

static bool recycled_now(const struct slotrec *r, __u32 tid)
{
	return bsearch(&tid, r->pass_tids, (size_t)r->npass, sizeof(tid), cmp_tid) != NULL;
}

/* One entry kept in m; -1 without memory. */
static int keep_entry(struct tidmap *m, const char *k, const char *v)
{
	size_t esz = m->ksz + m->vsz;

	if (m->n == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 256;
		void *p = realloc(m->kv, cap * esz);

		if (!p)
			return -1;
		m->kv = p;
		m->cap = cap;
	}
	memcpy(m->kv + m->n * esz, k, m->ksz);
	memcpy(m->kv + m->n * esz + m->ksz, v, m->vsz);
	m->n++;
	return 0;
}

/* The entries of this pass's threads in map m moved out: read in
 * batches, the chosen keys deleted after each. */
static void move_entries(struct slotrec *r, struct tidmap *m, char *keys, char *vals, char *del)
{
	__u32 in = 0, out = 0, count, ndel;
	bool first = true, done = false;

	while (!done) {
		count = SLOTREC_BATCH;
		if (bpf_map_lookup_batch(m->fd, first ? NULL : &in, &out, keys, vals, &count, NULL)) {
			if (errno != ENOENT)
				return;		/* ENOSPC, EINVAL ...: left in place */
			done = true;
		}
		first = false;
		in = out;
		ndel = 0;
		for (__u32 i = 0; i < count; i++) {
			const char *k = keys + i * m->ksz;

			if (!recycled_now(r, *(const __u32 *)k))
				continue;
			if (keep_entry(m, k, vals + i * m->vsz))
				return;
			memcpy(del + ndel++ * m->ksz, k, m->ksz);
		}
		if (ndel && !bpf_map_delete_batch(m->fd, del, &ndel, NULL))
			r->moved += ndel;
	}
}

static void move_map_entries(struct slotrec *r)
{
	size_t kmax = 0, vmax = 0;
	char *keys, *vals, *del;

	if (!r->npass || !r->nmaps)
		return;
	qsort(r->pass_tids, (size_t)r->npass, sizeof(*r->pass_tids), cmp_tid);
	for (int i = 0; i < r->nmaps; i++) {
		kmax = r->maps[i].ksz > kmax ? r->maps[i].ksz : kmax;
		vmax = r->maps[i].vsz > vmax ? r->maps[i].vsz : vmax;
	}
	keys = malloc(SLOTREC_BATCH * kmax);
	vals = malloc(SLOTREC_BATCH * vmax);
	del = malloc(SLOTREC_BATCH * kmax);
	for (int i = 0; keys && vals && del && i < r->nmaps; i++)
		move_entries(r, &r->maps[i], keys, vals, del);
	free(keys);
	free(vals);
	free(del);
}

unsigned slotrec_pass(struct slotrec *r, uint64_t now)
{
	unsigned done = 0;

	if (!r)
		return 0;
	r->last_pass_ns = now;
	r->claimed_at_pass = *r->claimed;
	r->npass = 0;
	for (unsigned k = 0; k < r->nslots; k++) {
		int got = recycle_one(r, k, now > SLOTREC_AGE_NS ? now - SLOTREC_AGE_NS : 0);

		if (got < 0)
			break;		/* no memory: the rest stay in the table */
		done += (unsigned)got;
	}
	r->recycled += done;
	move_map_entries(r);
	return done;
}

int slotrec_track_map(struct slotrec *r, int fd, size_t ksz, size_t vsz)
{
	if (!r || r->nmaps == SLOTREC_MAPS || ksz < sizeof(__u32) || fd < 0)
		return -1;
	r->maps[r->nmaps++] = (struct tidmap){ .fd = fd, .ksz = ksz, .vsz = vsz };
	return 0;
}

int slotrec_each_moved(const struct slotrec *r, int fd, slotrec_add_fn add,
		       struct kview *kv, void *arg)
{
	for (int i = 0; r && i < r->nmaps; i++) {
		const struct tidmap *m = &r->maps[i];
		size_t esz = m->ksz + m->vsz;
		int err;

		if (m->fd != fd)
			continue;
		for (size_t j = 0; j < m->n; j++)
			if ((err = add(kv, m->kv + j * esz, m->kv + j * esz + m->ksz, arg)))
				return err;
	}
	return 0;
}

uint64_t slotrec_moved(const struct slotrec *r)
{
	return r ? r->moved : 0;
}

void slotrec_tick(struct slotrec *r, uint64_t now)
{
	uint64_t claimed;

	if (!r || now - r->last_pass_ns < SLOTREC_EVERY_NS)
		return;
	claimed = *r->claimed;
	if (claimed - r->recycled < r->nslots / 2 ||
	    claimed - r->claimed_at_pass < r->nslots / 8)
		return;
	slotrec_pass(r, now);
}

uint64_t slotrec_recycled(const struct slotrec *r)
{
	return r ? r->recycled : 0;
}

int slotrec_move_into(struct slotrec *r, struct kview *kv)
{
	void *p;

	if (!r || !r->n)
		return 0;
	p = realloc(kv->threads, (size_t)(kv->nthreads + r->n) * sizeof(*kv->threads));
	if (!p)
		return -ENOMEM;
	kv->threads = p;
	memcpy(kv->threads + kv->nthreads, r->out, (size_t)r->n * sizeof(*r->out));
	kv->nthreads += r->n;
	acct_arena_adopt(&kv->nr_arena, &r->arena);
	free(r->out);
	r->out = NULL;
	r->n = r->cap = 0;
	return 0;
}

void slotrec_free(struct slotrec *r)
{
	if (!r)
		return;
	munmap(r->base, r->len);
	free(r->out);
	free(r->pass_tids);
	for (int i = 0; i < r->nmaps; i++)
		free(r->maps[i].kv);
	acct_arena_free(&r->arena);
	free(r);
}
