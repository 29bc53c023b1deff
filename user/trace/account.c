/*
 * account.c - the compact syscall table of a thread's account (account.h).
 */
#include <stdlib.h>
#include <string.h>
#include "trace/account.h"

const struct fct_nr_stats acct_nr_none;

#define ACCT_BLOCK_ENTRIES	4096	/* entries per block of the arena */

struct acct_block {
	struct acct_block *next;
	size_t used, room;		/* entries */
	struct fct_nr_stats e[];
};

/* n entries in a row from the arena's newest block, or a new block
 * (a block of its own for a run longer than one). */
static struct fct_nr_stats *arena_take(struct acct_arena *a, size_t n)
{
	struct acct_block *b = a->blocks;

	if (!b || b->room - b->used < n) {
		size_t room = n > ACCT_BLOCK_ENTRIES ? n : ACCT_BLOCK_ENTRIES;

		if (!(b = malloc(sizeof(*b) + room * sizeof(b->e[0]))))
			return NULL;
		*b = (struct acct_block){ .next = a->blocks, .room = room };
		a->blocks = b;
	}
	b->used += n;
	return memset(&b->e[b->used - n], 0, n * sizeof(b->e[0]));
}

int acct_nr_reserve(struct fct_thread *t, struct acct_arena *a, unsigned n)
{
	unsigned room = t->nr_used + n;
	struct fct_nr_stats *e;

	if (room <= t->nr_room)
		return 0;
	if (room > FCT_NR_MAX)
		room = FCT_NR_MAX;
	if (!(e = arena_take(a, room)))
		return -1;
	if (t->nr_used)
		memcpy(e, t->nr_e, t->nr_used * sizeof(*e));
	t->nr_e = e;
	t->nr_room = (uint16_t)room;
	return 0;
}

struct fct_nr_stats *acct_nr_put(struct fct_thread *t, struct acct_arena *a, unsigned nr)
{
	if (nr >= FCT_NR_MAX)
		return NULL;
	if (t->nr_at[nr])
		return &t->nr_e[t->nr_at[nr] - 1];
	if (t->nr_used == t->nr_room &&
	    acct_nr_reserve(t, a, t->nr_room ? t->nr_room : 8))
		return NULL;
	t->nr_at[nr] = ++t->nr_used;
	return &t->nr_e[t->nr_used - 1];
}

int acct_nr_own(struct fct_thread *t, struct acct_arena *a)
{
	t->nr_room = 0;		/* the reserve takes a block and copies */
	return t->nr_used ? acct_nr_reserve(t, a, 0) : 0;
}

void acct_arena_adopt(struct acct_arena *into, struct acct_arena *from)
{
	struct acct_block **end = &into->blocks;

	while (*end)
		end = &(*end)->next;
	*end = from->blocks;
	from->blocks = NULL;
}

void acct_arena_free(struct acct_arena *a)
{
	while (a->blocks) {
		struct acct_block *b = a->blocks;

		a->blocks = b->next;
		free(b);
	}
}
