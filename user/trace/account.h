/*
 * account.h - a thread's kernel account as user space keeps it: the
 * slot's fields (FCT_ACCOUNT_FIELDS) and its syscall table by number,
 * compact. A table with an entry for every number (512 x 40 bytes) made
 * each account 20 KiB; a joined run holds the kernel view's and its
 * rows', and after a window over 5 000 threads fctrace spent seconds and
 * half a gigabyte copying zeros. A thread calls a few dozen numbers: the
 * entries it has live in an arena (the kernel view's, struct kview), an
 * index by number points at them, and copies of an account share them.
 * Only the account's builder (the loader, a saved run's reader) writes.
 */
#ifndef FCTRACE_ACCOUNT_H
#define FCTRACE_ACCOUNT_H

#include <stddef.h>
#include <stdint.h>
#include "fctrace.h"

struct fct_thread {
	FCT_ACCOUNT_FIELDS
	uint16_t nr_at[FCT_NR_MAX];	/* its entry in nr_e + 1; 0: never called */
	uint16_t nr_used, nr_room;	/* entries in nr_e, and room for */
	struct fct_nr_stats *nr_e;	/* in an arena; shared by copies */
};

/* Blocks the entries are taken from, freed all at once. */
struct acct_arena {
	struct acct_block *blocks;
};

extern const struct fct_nr_stats acct_nr_none;

/* Number nr's figures in t: zeros when t never called it (or nr is out
 * of the table). */
static inline const struct fct_nr_stats *acct_nr(const struct fct_thread *t, unsigned nr)
{
	unsigned at = nr < FCT_NR_MAX ? t->nr_at[nr] : 0;

	return at ? &t->nr_e[at - 1] : &acct_nr_none;
}

/* Number nr's entry in t to write, or NULL when t never called it. */
static inline struct fct_nr_stats *acct_nr_had(struct fct_thread *t, unsigned nr)
{
	unsigned at = nr < FCT_NR_MAX ? t->nr_at[nr] : 0;

	return at ? &t->nr_e[at - 1] : NULL;
}

/* Number nr's entry in t to write, added (zeroed) if t had none; NULL
 * when nr is out of the table or memory ran out. Entries move when the
 * table grows: copies made before see the table as it was. */
struct fct_nr_stats *acct_nr_put(struct fct_thread *t, struct acct_arena *a, unsigned nr);
/* Room for n more numbers in t's table at once (one block, not a growth
 * per number); -1 without memory. */
int acct_nr_reserve(struct fct_thread *t, struct acct_arena *a, unsigned n);
/* t's entries copied into a, so that what writes them changes t's
 * alone (a table t shares with the accounts it was copied from); -1
 * without memory. */
int acct_nr_own(struct fct_thread *t, struct acct_arena *a);
/* from's blocks become into's (the entries stay where they are: the
 * accounts pointing at them need no change); from is left empty. */
void acct_arena_adopt(struct acct_arena *into, struct acct_arena *from);
void acct_arena_free(struct acct_arena *a);

#endif /* FCTRACE_ACCOUNT_H */
