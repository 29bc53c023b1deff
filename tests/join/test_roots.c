/*
 * test_roots.c - each lock's wait chain to its root (join/roots.c) and
 * its figures (explain/held.c) over hand-made holders: A's holders wait for
 * B, B's for C, C's holders sleep in clock_nanosleep - A's root is that
 * sleep, three links; a chain that comes back (A for B, B for A) stops
 * and says so; a lock not measured ends the chain where it is; the
 * waiters' time, not the holds, chooses each link's state.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <cmocka.h>
#include "diagutil.h"
#include "explain/held.h"
#include "join/join.h"

/* A measured lock whose waiters waited `ns` behind holders in state s,
 * waiting for `next` ("" none) when s is HS_WAITING. */
static void lock_of(struct lock_total *l, const char *name, enum hold_state s, double ns,
		    const char *next)
{
	struct lock_holders *h = &l->holders;

	memset(l, 0, sizeof(*l));
	snprintf(l->name, sizeof(l->name), "%s", name);
	l->is_lock = true;
	l->waits = 100;
	l->wait_ns = (uint64_t)(ns / 0.9);
	h->measured = true;
	h->held_ns = ns;
	h->state_ns[s] = ns;
	h->waited_ns[s] = ns * 0.9;		/* 90 % behind s, */
	h->waited_ns[HS_USER] = ns * 0.1;	/* 10 % behind user work */
	h->waiter_ns = ns;
	if (s == HS_WAITING && next[0]) {
		h->nchain = 1;
		h->chain[0].is_lock = true;
		h->chain[0].count = 50;
		snprintf(h->chain[0].lock, sizeof(h->chain[0].lock), "%s", next);
	}
	if (s == HS_BLOCKED || s == HS_SYSCALL) {
		h->nnr = 2;
		h->nr[0] = (struct hold_nr){ .nr = __NR_read, .count = 900, .ns = ns / 10 };
		h->nr[1] = (struct hold_nr){ .nr = __NR_clock_nanosleep, .count = 10, .ns = ns };
	}
}

static void test_three_links(void **state)
{
	struct lock_total locks[4];
	struct joined_run m = { .locks = locks, .nlocks = 4 };

	(void)state;
	lock_of(&locks[0], "A", HS_WAITING, 9e8, "B");
	lock_of(&locks[1], "B", HS_WAITING, 8e8, "C");
	lock_of(&locks[2], "C", HS_BLOCKED, 7e8, "");
	lock_of(&locks[3], "D", HS_USER, 1e8, "");
	locks[3].holders.waited_ns[HS_USER] = 0;	/* held in user work, waited behind a sleep */
	locks[3].holders.waited_ns[HS_BLOCKED] = 5e7;
	roots_join(&m);
	assert_int_equal(locks[0].root.nlinks, 3);
	assert_string_equal(locks[0].root.link[1], "B");
	assert_string_equal(locks[0].root.link[2], "C");
	assert_float_equal(locks[0].root.share[0], 0.9, 1e-9);
	assert_int_equal(locks[0].root.state, HS_BLOCKED);
	assert_int_equal(locks[0].root.nr, __NR_clock_nanosleep);	/* the sleep, not the reads */
	assert_false(locks[0].root.cycle);
	assert_int_equal(locks[2].root.nlinks, 1);
	/* D: its waiters waited behind a sleep, though its holds were user work */
	assert_int_equal(locks[3].root.state, HS_BLOCKED);
	assert_int_equal(locks[3].root.nr, -1);		/* no call of its holders known */
}

static void test_cycle_and_unmeasured(void **state)
{
	struct lock_total locks[3];
	struct joined_run m = { .locks = locks, .nlocks = 3 };

	(void)state;
	lock_of(&locks[0], "A", HS_WAITING, 9e8, "B");
	lock_of(&locks[1], "B", HS_WAITING, 8e8, "A");
	lock_of(&locks[2], "E", HS_WAITING, 5e8, "F");	/* F: no such lock measured */
	roots_join(&m);
	assert_int_equal(locks[0].root.nlinks, 2);
	assert_true(locks[0].root.cycle);
	assert_int_equal(locks[2].root.nlinks, 1);
	assert_int_equal(locks[2].root.state, HS_WAITING);
	assert_false(locks[2].root.cycle);
	locks[1].holders.measured = false;		/* nor a lock not measured */
	roots_join(&m);
	assert_int_equal(locks[1].root.nlinks, 0);
	assert_int_equal(locks[0].root.nlinks, 1);
}

static void test_words(void **state)
{
	struct lock_total locks[3];
	struct joined_run m = { .locks = locks, .nlocks = 3 };
	struct held_ctx x = { .wall_ns = 1e9, .thread_ns = 4e9, .threads = 4, .ncpus = 2 };
	struct diag_cause c = { 0 };
	char fix[400];

	(void)state;
	lock_of(&locks[0], "A", HS_WAITING, 9e8, "B");
	lock_of(&locks[1], "B", HS_WAITING, 8e8, "C");
	lock_of(&locks[2], "C", HS_BLOCKED, 7e8, "");
	roots_join(&m);
	held_evidence(&c, &locks[0], &x);
	/* A, B, C: A's waiters 90 % behind holders waiting for B, and C's,
	 * the root's, 90 % behind holders asleep (roots_join's, tested above) */
	assert_true(fig_is(&c, "chain_links", 3));
	assert_true(fig_is(&c, "root_share", 0.9));
	assert_true(fig_is(&c, "behind_waiting_share", 0.9));
	assert_false(has_fig(&c, "chain_cycle"));
	/* the fix names the root's lock and call as the program made them */
	held_fix(fix, sizeof(fix), &locks[0]);
	assert_string_equal(fix, "Holders of A wait for B while holding it, and the chain ends at "
			    "C's holders asleep in clock_nanosleep: shorten that, or take no lock "
			    "while holding A.");
	memset(&c, 0, sizeof(c));
	held_evidence(&c, &locks[2], &x);		/* one link: no chain sentence */
	assert_false(has_fig(&c, "chain_links"));
	assert_true(fig_is(&c, "holders_blocked_share", 1));
	/* a chain that comes back: said so, no root */
	lock_of(&locks[1], "B", HS_WAITING, 8e8, "A");
	roots_join(&m);
	memset(&c, 0, sizeof(c));
	held_evidence(&c, &locks[0], &x);
	assert_true(fig_is(&c, "chain_links", 2));
	assert_true(fig_is(&c, "chain_cycle", 1));
	assert_false(has_fig(&c, "root_share"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_three_links),
		cmocka_unit_test(test_cycle_and_unmeasured),
		cmocka_unit_test(test_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
