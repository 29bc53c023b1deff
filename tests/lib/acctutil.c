/*
 * acctutil.c - hand-made accounts' syscall tables (acctutil.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "acctutil.h"

/* reachable until the binary exits: copies of the accounts share it */
static struct acct_arena au_arena;

struct fct_nr_stats *au_nr(struct fct_thread *k, unsigned nr)
{
	struct fct_nr_stats *s = acct_nr_put(k, &au_arena, nr);

	assert_non_null(s);
	return s;
}
