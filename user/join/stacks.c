/*
 * stacks.c - the weighted stack set: frames interned through a hash, equal
 * stacks merged through another (a target of 10 000 threads has a stack
 * per thread and word: a scan per stack added was quadratic).
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

/* Double the frame hash (and rehash) once it is half full. */
static int fhash_grow(struct stack_set *ss)
{
	int cap = ss->fhcap ? 2 * ss->fhcap : 256;
	int *h = malloc((size_t)cap * sizeof(*h));

	if (!h)
		return -1;
	memset(h, -1, (size_t)cap * sizeof(*h));
	for (int i = 0; i < ss->nframes; i++) {
		const struct sframe *f = &ss->frames[i];
		size_t at = frame_hash(f->func, f->file, f->line, f->inlined) & (size_t)(cap - 1);

		while (h[at] >= 0)
			at = (at + 1) & (size_t)(cap - 1);
		h[at] = i;
	}
	free(ss->fhash);
	ss->fhash = h;
	ss->fhcap = cap;
	return 0;
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
	size_t at;
	int i;

	if (!file)
		file = "";
	if (2 * (ss->nframes + 1) > ss->fhcap && fhash_grow(ss))
		return -1;
	at = frame_hash(func, file, line, inlined) & (size_t)(ss->fhcap - 1);
	for (; ss->fhash[at] >= 0; at = (at + 1) & (size_t)(ss->fhcap - 1)) {
		const struct sframe *f = &ss->frames[ss->fhash[at]];

		if (f->line == line && f->inlined == inlined && !strcmp(f->func, func) &&
		    !strcmp(f->file, file))
			return ss->fhash[at];
	}
	i = frame_new(ss, func, file, line, inlined);
	if (i >= 0)
		ss->fhash[at] = i;
	return i;
}

static bool same_stack(const struct sstack *s, enum stack_kind kind, const char *thread,
		       const char *lock, const uint32_t *frames, int n)
{
	return s->kind == kind && s->nframes == n && !strcmp(s->thread, thread) &&
	       !strcmp(s->lock, lock) && !memcmp(s->frames, frames, (size_t)n * sizeof(*frames));
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

/* A stack's hash, of what same_stack compares (thread and lock as stored:
 * cut to their fields' size). */
static uint64_t stack_hash(enum stack_kind kind, const char *thread, const char *lock,
			   const uint32_t *frames, int n)
{
	uint64_t h = idxhash_bytes(IDXHASH_SEED, &kind, sizeof(kind));

	h = idxhash_bytes(h, thread, strnlen(thread, sizeof(((struct sstack *)0)->thread) - 1) + 1);
	h = idxhash_bytes(h, lock, strnlen(lock, sizeof(((struct sstack *)0)->lock) - 1) + 1);
	return idxhash_bytes(h, frames, (size_t)n * sizeof(*frames));
}

static size_t stack_slot(const struct stack_set *ss, const struct sstack *s)
{
	return stack_hash(s->kind, s->thread, s->lock, s->frames, s->nframes) &
	       (size_t)(ss->shcap - 1);
}

/* Double the stack hash (and rehash) once it is half full; made anew
 * after stacks_order moved the stacks. */
static int shash_grow(struct stack_set *ss)
{
	int cap = ss->shcap ? 2 * ss->shcap : 256;
	int *h;

	while (cap < 2 * (ss->n + 1))
		cap *= 2;
	if (!(h = malloc((size_t)cap * sizeof(*h))))
		return -1;
	memset(h, -1, (size_t)cap * sizeof(*h));
	free(ss->shash);
	ss->shash = h;
	ss->shcap = cap;
	for (int i = 0; i < ss->n; i++) {
		size_t at = stack_slot(ss, &ss->stacks[i]);

		while (h[at] >= 0)
			at = (at + 1) & (size_t)(cap - 1);
		h[at] = i;
	}
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
	struct sstack *s = NULL, key;
	size_t at;

	thread = thread ? thread : "";
	lock = lock ? lock : "";
	if (2 * (ss->n + 1) > ss->shcap && shash_grow(ss))
		return -1;
	/* as stored: a name longer than its field matches its cut copy */
	key = (struct sstack){ .kind = kind, .frames = (uint32_t *)frames, .nframes = nframes };
	snprintf(key.thread, sizeof(key.thread), "%s", thread);
	snprintf(key.lock, sizeof(key.lock), "%s", lock);
	for (at = stack_slot(ss, &key); ss->shash[at] >= 0 && !s; at = (at + 1) & (size_t)(ss->shcap - 1))
		if (same_stack(&ss->stacks[ss->shash[at]], kind, key.thread, key.lock, frames, nframes))
			s = &ss->stacks[ss->shash[at]];
	if (!s) {
		if (!(s = stack_made(ss, kind, key.thread, key.lock, frames, nframes)))
			return -1;
		ss->shash[at] = ss->n - 1;
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
	free(ss->shash);	/* the stacks move: the next add hashes them again */
	ss->shash = NULL;
	ss->shcap = 0;
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
	free(ss->fhash);
	free(ss->shash);
	free(ss->stacks);
	memset(ss, 0, sizeof(*ss));
}
