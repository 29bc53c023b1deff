/*
 * stacks.c - the weighted stack set: frames interned through an index,
 * equal stacks merged through another (base/idxhash.h: a target of
 * 10 000 threads has a stack per thread and word, and a scan per stack
 * added was quadratic).
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "join/stacks.h"
#include "base/idxhash.h"

static uint64_t frame_hash(const char *func, const char *file, uint32_t line, bool inlined)
{
	uint64_t h = idxhash_bytes(IDXHASH_SEED, func, strlen(func) + 1);

	h = idxhash_bytes(h, file, strlen(file) + 1);
	h = idxhash_bytes(h, &inlined, sizeof(inlined));
	return idxhash_bytes(h, &line, sizeof(line));
}

struct frame_key {
	const struct stack_set *ss;
	const char *func, *file;
	uint32_t line;
	bool inlined;
};

static bool frame_same(const void *ctx, int i)
{
	const struct frame_key *k = ctx;
	const struct sframe *f = &k->ss->frames[i];

	return f->line == k->line && f->inlined == k->inlined && !strcmp(f->func, k->func) &&
	       !strcmp(f->file, k->file);
}

static int frame_new(struct stack_set *ss, const char *func, const char *file, uint32_t line,
		     bool inlined)
{
	struct sframe *f;

	if (ss->nframes == ss->fcap) {
		int cap = ss->fcap ? 2 * ss->fcap : 128;

		f = realloc(ss->frames, (size_t)cap * sizeof(*f));
		if (!f)
			return -1;
		ss->frames = f;
		ss->fcap = cap;
	}
	f = &ss->frames[ss->nframes];
	f->func = strdup(func);
	f->file = strdup(file);
	f->line = line;
	f->inlined = inlined;
	if (!f->func || !f->file) {
		free(f->func);
		free(f->file);
		return -1;
	}
	return ss->nframes++;
}

int stacks_frame(struct stack_set *ss, const char *func, const char *file, uint32_t line)
{
	return stacks_frame_inl(ss, func, file, line, false);
}

int stacks_frame_inl(struct stack_set *ss, const char *func, const char *file, uint32_t line,
		     bool inlined)
{
	struct frame_key key = { ss, func, file ? file : "", line, inlined };
	uint64_t hash = frame_hash(func, key.file, line, inlined);
	int i = idxhash_find(&ss->frame_index, hash, frame_same, &key);

	if (i >= 0)
		return i;
	i = frame_new(ss, func, key.file, line, inlined);
	if (i >= 0 && idxhash_add(&ss->frame_index, hash, i)) {
		ss->nframes--;		/* not findable: not kept */
		free(ss->frames[i].func);
		free(ss->frames[i].file);
		return -1;
	}
	return i;
}

/* A stack as stacks_add looks it up: names cut as stored. */
struct stack_key {
	const struct stack_set *ss;
	const struct sstack *s;
};

static bool stack_same(const void *ctx, int i)
{
	const struct stack_key *k = ctx;
	const struct sstack *a = &k->ss->stacks[i], *b = k->s;

	return a->kind == b->kind && a->nframes == b->nframes && !strcmp(a->thread, b->thread) &&
	       !strcmp(a->lock, b->lock) &&
	       !memcmp(a->frames, b->frames, (size_t)b->nframes * sizeof(*b->frames));
}

static struct sstack *stack_new(struct stack_set *ss)
{
	if (ss->n == ss->cap) {
		int cap = ss->cap ? 2 * ss->cap : 64;
		struct sstack *s = realloc(ss->stacks, (size_t)cap * sizeof(*s));

		if (!s)
			return NULL;
		ss->stacks = s;
		ss->cap = cap;
	}
	memset(&ss->stacks[ss->n], 0, sizeof(ss->stacks[0]));
	return &ss->stacks[ss->n++];
}

/* A stack's hash, of what stack_same compares (thread and lock as stored:
 * cut to their fields' size). */
static uint64_t stack_hash(enum stack_kind kind, const char *thread, const char *lock,
			   const uint32_t *frames, int n)
{
	uint64_t h = idxhash_bytes(IDXHASH_SEED, &kind, sizeof(kind));

	h = idxhash_bytes(h, thread, strnlen(thread, sizeof(((struct sstack *)0)->thread) - 1) + 1);
	h = idxhash_bytes(h, lock, strnlen(lock, sizeof(((struct sstack *)0)->lock) - 1) + 1);
	return idxhash_bytes(h, frames, (size_t)n * sizeof(*frames));
}

static uint64_t stack_hash_of(const struct sstack *s)
{
	return stack_hash(s->kind, s->thread, s->lock, s->frames, s->nframes);
}

/* The stacks indexed again after stacks_order moved them. */
static int stacks_reindex(struct stack_set *ss)
{
	idxhash_free(&ss->stack_index);
	for (int i = 0; i < ss->n; i++)
		if (idxhash_add(&ss->stack_index, stack_hash_of(&ss->stacks[i]), i))
			return -1;
	return 0;
}

static struct sstack *stack_made(struct stack_set *ss, enum stack_kind kind, const char *thread,
				 const char *lock, const uint32_t *frames, int nframes)
{
	struct sstack *s = stack_new(ss);

	if (!s)
		return NULL;
	s->frames = malloc((size_t)(nframes ? nframes : 1) * sizeof(*frames));
	if (!s->frames) {
		ss->n--;
		return NULL;
	}
	memcpy(s->frames, frames, (size_t)nframes * sizeof(*frames));
	s->nframes = nframes;
	s->kind = kind;
	snprintf(s->thread, sizeof(s->thread), "%s", thread);
	snprintf(s->lock, sizeof(s->lock), "%s", lock);
	return s;
}

int stacks_add(struct stack_set *ss, enum stack_kind kind, const char *thread, const char *lock,
	       const uint32_t *frames, int nframes, uint64_t ns, uint64_t samples)
{
	struct sstack *s, key;
	struct stack_key k = { ss, &key };
	uint64_t hash;
	int i;

	if (ss->stack_index.n != (size_t)ss->n && stacks_reindex(ss))
		return -1;
	/* as stored: a name longer than its field matches its cut copy */
	key = (struct sstack){ .kind = kind, .frames = (uint32_t *)frames, .nframes = nframes };
	snprintf(key.thread, sizeof(key.thread), "%s", thread ? thread : "");
	snprintf(key.lock, sizeof(key.lock), "%s", lock ? lock : "");
	hash = stack_hash_of(&key);
	if ((i = idxhash_find(&ss->stack_index, hash, stack_same, &k)) >= 0) {
		s = &ss->stacks[i];
	} else {
		if (!(s = stack_made(ss, kind, key.thread, key.lock, frames, nframes)))
			return -1;
		if (idxhash_add(&ss->stack_index, hash, ss->n - 1)) {
			free(s->frames);
			ss->n--;
			return -1;
		}
	}
	s->ns += ns;
	s->samples += samples;
	return 0;
}

/* Largest first; ties in an order that depends on nothing but the
 * stacks (a saved run read back numbers them as they were written). */
static int by_ns(const void *a, const void *b)
{
	const struct sstack *x = a, *y = b;
	int c;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	if ((c = strcmp(x->thread, y->thread)) || (c = strcmp(x->lock, y->lock)))
		return c;
	if (x->nframes != y->nframes)
		return x->nframes < y->nframes ? -1 : 1;
	return memcmp(x->frames, y->frames, (size_t)x->nframes * sizeof(*x->frames));
}

void stacks_order(struct stack_set *ss)
{
	idxhash_free(&ss->stack_index);	/* the stacks move: the next add indexes them again */
	if (ss->n)
		qsort(ss->stacks, (size_t)ss->n, sizeof(*ss->stacks), by_ns);
	for (int i = 0; i < ss->n; i++)
		ss->stacks[i].id = (uint32_t)i + 1;
}

uint64_t stacks_total(const struct stack_set *ss, enum stack_kind kind)
{
	uint64_t t = 0;

	for (int i = 0; ss && i < ss->n; i++)
		if (ss->stacks[i].kind == kind)
			t += ss->stacks[i].ns;
	return t;
}

uint64_t stacks_blocked_total(const struct stack_set *ss)
{
	size_t n = strlen(STACKS_BLOCKED_PREFIX);
	uint64_t t = 0;

	for (int i = 0; ss && i < ss->n; i++)
		if (ss->stacks[i].kind == STK_WAIT && !strncmp(ss->stacks[i].lock, STACKS_BLOCKED_PREFIX, n))
			t += ss->stacks[i].ns;
	return t;
}

const char *stacks_kind_name(enum stack_kind kind)
{
	return kind == STK_CPU ? "cpu" : "wait";
}

void stacks_free(struct stack_set *ss)
{
	if (!ss)
		return;
	for (int i = 0; i < ss->nframes; i++) {
		free(ss->frames[i].func);
		free(ss->frames[i].file);
	}
	for (int i = 0; i < ss->n; i++)
		free(ss->stacks[i].frames);
	free(ss->frames);
	idxhash_free(&ss->frame_index);
	idxhash_free(&ss->stack_index);
	free(ss->stacks);
	memset(ss, 0, sizeof(*ss));
}
