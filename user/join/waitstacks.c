/*
 * waitstacks.c - sampled futex wait stacks counted per (thread, word, op),
 * and sampled sleeps in other syscalls per (thread, syscall), as they
 * arrive; weighted by the measured waits at the end (waitstacks.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "join/waitstacks.h"
#include "base/sysnames.h"
#include "trace/ksyms.h"
#include "join/wordindex.h"
#include "base/idxhash.h"

struct raw {			/* one distinct stack of one (thread, word, op) */
	uint32_t tid, op;
	uint64_t uaddr;		/* FCT_USTACK_OP_BLOCKED: the syscall's number */
	uint32_t *frames;	/* root first, into ws->set's frames */
	int nframes;
	uint64_t n;		/* samples */
	uint64_t ns;		/* FCT_USTACK_OP_BLOCKED: the blocked time they stand for */
};

/* a stack's most frames: the user's, a sleep's syscall, the kernel's */
#define RAW_MAX		(USYM_MAX_STACK + 1 + FCT_USTACK_KDEPTH)

struct waitstacks {
	struct stack_set set;	/* frames interned as samples arrive */
	struct ksyms *ks;	/* the cpu samples' kernel frames, loaded at the first */
	bool ks_tried;
	struct raw *raw;
	int nraw, cap;
	struct idxhash index;	/* raw by what raw_same compares */
};

struct waitstacks *waitstacks_new(void)
{
	return calloc(1, sizeof(struct waitstacks));
}

void waitstacks_free(struct waitstacks *ws)
{
	if (!ws)
		return;
	for (int i = 0; i < ws->nraw; i++)
		free(ws->raw[i].frames);
	free(ws->raw);
	idxhash_free(&ws->index);
	stacks_free(&ws->set);
	ksyms_free(ws->ks);
	free(ws);
}

struct raw_key {		/* what a sample is counted by */
	const struct waitstacks *ws;
	const struct fct_ustack *e;
	const uint32_t *fr;
	int n;
};

static uint64_t raw_hash(const struct fct_ustack *e, const uint32_t *fr, int n)
{
	uint64_t h = idxhash_bytes(IDXHASH_SEED, &e->tid, sizeof(e->tid));

	h = idxhash_bytes(h, &e->op, sizeof(e->op));
	h = idxhash_bytes(h, &e->uaddr, sizeof(e->uaddr));
	return idxhash_bytes(h, fr, (size_t)n * sizeof(*fr));
}

static bool raw_same(const void *ctx, int i)
{
	const struct raw_key *k = ctx;
	const struct raw *r = &k->ws->raw[i];

	return r->tid == k->e->tid && r->op == k->e->op && r->uaddr == k->e->uaddr &&
	       r->nframes == k->n && !memcmp(r->frames, k->fr, (size_t)k->n * sizeof(*k->fr));
}

static struct raw *raw_of(struct waitstacks *ws, const struct fct_ustack *e,
			  const uint32_t *fr, int n)
{
	struct raw_key key = { ws, e, fr, n };
	uint64_t hash = raw_hash(e, fr, n);
	int i = idxhash_find(&ws->index, hash, raw_same, &key);
	struct raw *r;

	if (i >= 0)
		return &ws->raw[i];
	if (ws->nraw == ws->cap) {
		int cap = ws->cap ? 2 * ws->cap : 64;

		r = realloc(ws->raw, (size_t)cap * sizeof(*r));
		if (!r)
			return NULL;
		ws->raw = r;
		ws->cap = cap;
	}
	r = &ws->raw[ws->nraw];
	*r = (struct raw){ .tid = e->tid, .op = e->op, .uaddr = e->uaddr, .nframes = n };
	r->frames = malloc((size_t)(n ? n : 1) * sizeof(*fr));
	if (!r->frames || idxhash_add(&ws->index, hash, ws->nraw)) {
		free(r->frames);
		return NULL;
	}
	memcpy(r->frames, fr, (size_t)n * sizeof(*fr));
	ws->nraw++;
	return r;
}

/* The frames below a sleep's kernel work: the tracepoint's BPF glue and
 * the scheduler's own (the leaf is then io_schedule, pipe_read ...). */
static bool sleep_glue(const char *name)
{
	return !strncmp(name, "bpf_", 4) || !strncmp(name, "__bpf_", 6) ||
	       !strncmp(name, "__traceiter_", 12) || !strcmp(name, "__schedule") ||
	       !strcmp(name, "schedule");
}

/* The frames above the syscall's own function: the entry path. */
static bool entry_glue(const char *name)
{
	return !strncmp(name, "entry_SYSCALL", 13) || !strcmp(name, "do_syscall_64") ||
	       !strcmp(name, "x64_sys_call");
}

static const char *kname(struct waitstacks *ws, uint64_t ip)
{
	uint64_t off;

	if (!ws->ks_tried) {
		ws->ks = ksyms_load(NULL);
		ws->ks_tried = true;
	}
	return ip && ws->ks ? ksyms_find(ws->ks, ip, &off) : NULL;
}

/* A sample's kernel frames after its user ones (root first): its
 * leaves; a sleep's without the glue at either end. 0, or -1. */
static int kernel_frames(struct waitstacks *ws, const struct fct_ustack *e, uint32_t *fr,
			 int *k)
{
	bool sleep = e->op == FCT_USTACK_OP_BLOCKED;
	int lo = 0, hi = FCT_USTACK_KDEPTH - 1;
	char fn[160];

	while (hi >= 0 && (!e->kips[hi] || (sleep && kname(ws, e->kips[hi]) &&
					    entry_glue(kname(ws, e->kips[hi])))))
		hi--;
	while (sleep && lo < hi && kname(ws, e->kips[lo]) && sleep_glue(kname(ws, e->kips[lo])))
		lo++;
	for (int i = hi; i >= lo; i--) {
		const char *name = kname(ws, e->kips[i]);
		int idx;

		if (!e->kips[i])
			continue;
		if (name)
			snprintf(fn, sizeof(fn), "%s_[k]", name);
		else
			snprintf(fn, sizeof(fn), "0x%llx_[k]", (unsigned long long)e->kips[i]);
		if ((idx = stacks_frame(&ws->set, fn, "", 0)) < 0)
			return -1;
		fr[(*k)++] = (uint32_t)idx;
	}
	return 0;
}

/* "[blocked in pread64]": the frame between a sleep's user and kernel frames. */
static void blocked_frame(uint32_t nr, char *buf, size_t len)
{
	char tmp[32];

	snprintf(buf, len, STACKS_BLOCKED_PREFIX "%s]", syscall_name(nr, tmp, sizeof(tmp)));
}

void waitstacks_add(struct waitstacks *ws, const struct fct_ustack *e, const struct uframe *f,
		    int n)
{
	uint32_t fr[RAW_MAX];
	struct raw *r;
	char name[64];
	int k = 0, idx;

	if (!ws)
		return;
	for (int i = n - 1; i >= 0 && k < USYM_MAX_STACK; i--) {	/* root first */
		idx = stacks_frame_inl(&ws->set, f[i].func, f[i].file, (uint32_t)f[i].line,
				       f[i].inlined);
		if (idx < 0)
			return;
		fr[k++] = (uint32_t)idx;
	}
	if (e->op == FCT_USTACK_OP_BLOCKED) {
		blocked_frame((uint32_t)e->uaddr, name, sizeof(name));
		if ((idx = stacks_frame(&ws->set, name, "", 0)) < 0)
			return;
		fr[k++] = (uint32_t)idx;
	}
	if (((e->op == FCT_USTACK_OP_CPU && e->uaddr) || e->op == FCT_USTACK_OP_BLOCKED) &&
	    kernel_frames(ws, e, fr, &k))
		return;
	r = raw_of(ws, e, fr, k);
	if (r) {
		r->n++;
		/* what the size-proportional sampler's sample stands for */
		r->ns += e->op == FCT_USTACK_OP_BLOCKED ? e->ns : FCT_BSTACK_NS;
	}
}

/*
 * What waitstacks_build looks up, indexed once: the samples by (thread,
 * op, word), the view's threads by tid, the names by address. A target
 * of 10 000 threads has some 100 000 entries: each one scanned every
 * sample, thread and name before.
 */
struct build {
	struct waitstacks *ws;
	const struct kview *kv;
	int *raw;			/* ws->raw by (tid, op, word, place) */
	struct kv_index kix;
	struct name_index nix;
};

static int cmp_key(uint32_t tid, uint32_t op, uint64_t uaddr, const struct raw *r)
{
	if (tid != r->tid)
		return tid < r->tid ? -1 : 1;
	if (op != r->op)
		return op < r->op ? -1 : 1;
	return (uaddr > r->uaddr) - (uaddr < r->uaddr);
}

static int by_raw_key(const void *a, const void *b, void *arg)
{
	const struct raw *raw = arg;
	int x = *(const int *)a, y = *(const int *)b;
	const struct raw *rx = &raw[x];

	return cmp_key(rx->tid, rx->op, rx->uaddr, &raw[y]) ?: (x > y) - (x < y);
}

static int build_init(struct build *b, struct waitstacks *ws, const struct kview *kv,
		      const struct lock_name *names, int nnames)
{
	*b = (struct build){ .ws = ws, .kv = kv };
	if (!(b->raw = malloc((size_t)(ws->nraw ? ws->nraw : 1) * sizeof(*b->raw))))
		return -1;
	for (int i = 0; i < ws->nraw; i++)
		b->raw[i] = i;
	qsort_r(b->raw, (size_t)ws->nraw, sizeof(*b->raw), by_raw_key, ws->raw);
	if (kv_index_build(&b->kix, kv)) {
		free(b->raw);
		return -1;
	}
	if (name_index_build(&b->nix, names, nnames)) {
		kv_index_free(&b->kix);
		free(b->raw);
		return -1;
	}
	return 0;
}

static void build_free(struct build *b)
{
	free(b->raw);
	kv_index_free(&b->kix);
	name_index_free(&b->nix);
}

/* The samples of (tid, op, uaddr): ws->raw[b->raw[k]], k in [*from, *to),
 * in the order they came. */
static void raw_range(const struct build *b, uint32_t tid, uint32_t op, uint64_t uaddr,
		      int *from, int *to)
{
	int lo = 0, hi = b->ws->nraw;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (cmp_key(tid, op, uaddr, &b->ws->raw[b->raw[mid]]) > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*from = *to = lo;
	while (*to < b->ws->nraw && !cmp_key(tid, op, uaddr, &b->ws->raw[b->raw[*to]]))
		(*to)++;
}

static const char *lock_of(const struct build *b, uint32_t tgid, uint64_t uaddr)
{
	const struct lock_name *n = name_index_find(&b->nix, tgid, uaddr);

	return n ? n->name : "";
}

/* A stack of the frames fr (indices into ws->set) copied into out. */
static int copy_frames(const struct stack_set *from, const uint32_t *fr, int n,
		       struct stack_set *out, uint32_t *to)
{
	for (int i = 0; i < n; i++) {
		const struct sframe *f = &from->frames[fr[i]];
		int idx = stacks_frame_inl(out, f->func, f->file, f->line, f->inlined);

		if (idx < 0)
			return -1;
		to[i] = (uint32_t)idx;
	}
	return 0;
}

/* r's frames into out's (one "[no user stack]" frame for a sample that
 * had none), in to: how many, or -1 when out is full. */
static int raw_frames(const struct waitstacks *ws, const struct raw *r, struct stack_set *out,
		      uint32_t *to)
{
	int idx;

	if (r->nframes)
		return copy_frames(&ws->set, r->frames, r->nframes, out, to) ? -1 : r->nframes;
	idx = stacks_frame(out, "[no user stack]", "", 0);
	to[0] = (uint32_t)idx;
	return idx < 0 ? -1 : 1;
}

/* One futex entry's waits over its sampled stacks, or one frame that
 * says none was sampled. */
static int futex_stacks(const struct build *b, const struct kv_futex *f, const char *thread,
			const char *lock, struct stack_set *out)
{
	uint32_t to[RAW_MAX + 1];
	uint64_t samples = 0, given = 0;
	int from, end, rc = 0, k;

	raw_range(b, f->key.tid, f->key.op, f->key.uaddr, &from, &end);
	for (k = from; k < end; k++)
		samples += b->ws->raw[b->raw[k]].n;
	if (!samples) {
		int idx = stacks_frame(out, "[no stack sampled]", "", 0);

		to[0] = (uint32_t)idx;
		return idx < 0 ? -1 : stacks_add(out, STK_WAIT, thread, lock, to, 1,
						 f->val.wait_ns, 0);
	}
	for (k = from; k < end && !rc; k++) {
		const struct raw *r = &b->ws->raw[b->raw[k]];
		uint64_t ns;
		int n;

		/* the last one takes the rounding: the word's stacks sum to its time */
		ns = k == end - 1 ? f->val.wait_ns - given :
		     (uint64_t)((double)f->val.wait_ns * (double)r->n / (double)samples);
		given += ns;
		n = raw_frames(b->ws, r, out, to);
		rc = n < 0 ? -1 : stacks_add(out, STK_WAIT, thread, lock, to, n, ns, r->n);
	}
	return rc;
}

/* A kernel lock site's stack: its kernel frames, root first, "_[k]". */
static int klock_stack(const struct ksyms *ks, const struct kv_klock *k, const char *thread,
		       struct stack_set *out)
{
	uint32_t to[FCT_STACK_DEPTH + 1];
	char lock[160], fn[160];
	int n = 0;

	snprintf(lock, sizeof(lock), "%s @ %s", klock_type(k->key.flags),
		 k->caller[0] ? k->caller : "?");
	for (int i = FCT_STACK_DEPTH - 1; i >= 0; i--) {
		uint64_t ip = k->key.ips[i], off;
		const char *name = ip && ks ? ksyms_find(ks, ip, &off) : NULL;
		int idx;

		if (!ip)
			continue;
		if (name)
			snprintf(fn, sizeof(fn), "%s_[k]", name);
		else
			snprintf(fn, sizeof(fn), "0x%llx_[k]", (unsigned long long)ip);
		if ((idx = stacks_frame(out, fn, "", 0)) < 0)
			return -1;
		to[n++] = (uint32_t)idx;
	}
	if (!n) {
		int idx = stacks_frame(out, "[no kernel stack]", "", 0);

		if (idx < 0)
			return -1;
		to[n++] = (uint32_t)idx;
	}
	return stacks_add(out, STK_WAIT, thread, lock, to, n, k->val.wait_ns, k->val.sampled);
}

static const char *thread_name(const struct build *b, uint32_t tid)
{
	const struct fct_thread *t = kv_index_thread(&b->kix, tid);

	return t && t->comm[0] ? t->comm : "?";
}

/* --cpu-stacks: each sample stands for one sampling period of CPU time. */
static int cpu_stacks(const struct build *b, struct stack_set *out)
{
	struct waitstacks *ws = b->ws;
	uint32_t to[RAW_MAX + 1];
	int rc = 0;

	for (int i = 0; i < ws->nraw && !rc; i++) {
		const struct raw *r = &ws->raw[i];
		int n;

		if (r->op != FCT_USTACK_OP_CPU)
			continue;
		n = raw_frames(ws, r, out, to);
		rc = n < 0 ? -1 : stacks_add(out, STK_CPU, thread_name(b, r->tid), "", to, n,
					     r->n * (1000000000ull / FCT_CPUCLOCK_HZ), r->n);
	}
	return rc;
}

/* One thread's sleeps in syscall nr: its exact blocked time there split
 * over the sampled stacks by the blocked time they stand for, or one
 * "[no stack sampled]" stack. */
static int sleep_stacks(const struct build *b, const struct fct_thread *t, uint32_t nr,
			struct stack_set *out)
{
	uint64_t total = acct_nr(t, nr)->blocked_ns, sum_ns = 0, given = 0;
	uint32_t to[RAW_MAX + 1];
	char lock[64];
	int from, end, rc = 0, k, n;

	blocked_frame(nr, lock, sizeof(lock));
	raw_range(b, t->tid, FCT_USTACK_OP_BLOCKED, nr, &from, &end);
	for (k = from; k < end; k++)
		sum_ns += b->ws->raw[b->raw[k]].ns;
	if (from == end) {
		if ((n = stacks_frame(out, lock, "", 0)) < 0)
			return -1;
		to[0] = (uint32_t)n;
		if ((n = stacks_frame(out, "[no stack sampled]", "", 0)) < 0)
			return -1;
		to[1] = (uint32_t)n;
		return stacks_add(out, STK_WAIT, t->comm[0] ? t->comm : "?", lock, to, 2, total, 0);
	}
	for (k = from; k < end && !rc; k++) {
		const struct raw *r = &b->ws->raw[b->raw[k]];
		uint64_t ns;

		/* the last one takes the rounding: the stacks sum to the time */
		ns = k == end - 1 ? total - given :
		     (uint64_t)((double)total * (double)r->ns / (double)sum_ns);
		given += ns;
		n = raw_frames(b->ws, r, out, to);
		rc = n < 0 ? -1 : stacks_add(out, STK_WAIT, t->comm[0] ? t->comm : "?", lock, to,
					     n, ns, r->n);
	}
	return rc;
}

/* Every thread's sleeps in syscalls outside futex waits: the account's
 * per-syscall blocked_ns, all of it. */
static int blocked_stacks(const struct build *b, const struct kview *kv, struct stack_set *out)
{
	int rc = 0;

	for (int i = 0; i < kv->nthreads && !rc; i++)
		for (uint32_t nr = 0; nr < FCT_NR_MAX && !rc; nr++)
			if (acct_nr(&kv->threads[i], nr)->blocked_ns)
				rc = sleep_stacks(b, &kv->threads[i], nr, out);
	return rc;
}

/* Each futex entry's waits over its sampled stacks. */
static int futex_entries(const struct build *b, const struct kview *kv, struct stack_set *out)
{
	int rc = 0;

	for (int i = 0; i < kv->nfutex && !rc; i++) {
		const struct kv_futex *f = &kv->futex[i];

		if (f->key.op == FCT_FUTEX_OP_WAKE || !f->val.waits)
			continue;
		rc = futex_stacks(b, f, thread_name(b, f->key.tid),
				  lock_of(b, kv_index_tgid(&b->kix, f->key.tid), f->key.uaddr), out);
	}
	return rc;
}

int waitstacks_build(struct waitstacks *ws, const struct kview *kv,
		     const struct lock_name *names, int nnames, struct stack_set *out)
{
	struct ksyms *ks = NULL;
	struct build b;
	int rc;

	stacks_free(out);
	if (!ws || !kv)
		return 0;
	if (build_init(&b, ws, kv, names, nnames))
		return -1;
	rc = futex_entries(&b, kv, out);
	if (kv->nklock)
		ks = ksyms_load(NULL);
	for (int i = 0; i < kv->nklock && !rc; i++)
		if (kv->klock[i].val.wait_ns)
			rc = klock_stack(ks, &kv->klock[i], thread_name(&b, kv->klock[i].key.tid),
					 out);
	ksyms_free(ks);
	if (!rc)
		rc = blocked_stacks(&b, kv, out);
	if (!rc)
		rc = cpu_stacks(&b, out);
	stacks_order(out);
	build_free(&b);
	return rc;
}
