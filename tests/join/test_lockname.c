/*
 * test_lockname.c - another program's futex words named and joined at the
 * scale of a 10 000-thread target (issue 37: 45 s and 3.1 GB for a 3 s
 * run, naming words x futex entries x threads), from a kernel view built
 * by hand: no root, no BPF. Every name is checked, and every thread's
 * share of each; Ctrl-C ends the naming with the words named so far.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "base/signals.h"
#include "join/join.h"
#include "join/lockname.h"
#include "join/stacks.h"
#include "join/waitstacks.h"

#define NTH		10000		/* threads of one process */
#define TGID		100000u
#define NSHARED		64		/* words a few threads share */
#define MUTEX		0x10000ull	/* every thread waits here (op 0: a mutex) */
#define BATON		0x30000ull	/* a condvar every thread waits on and wakes */
#define SHARED_AT	0x200000ull	/* + (i % NSHARED) * 64 */
#define OWN_AT		0x400000ull	/* + i * 64: each thread's own condvar */
#define WORDS		(2 + NSHARED + NTH)

struct big {
	struct fct_thread *th;
	struct kv_futex *f;
	struct kview kv;
};

static uint32_t tid_of(int i)
{
	return TGID + (uint32_t)i;
}

static uint64_t shared_word(int i)
{
	return SHARED_AT + (uint64_t)(i % NSHARED) * 64;
}

static uint64_t own_word(int i)
{
	return OWN_AT + (uint64_t)i * 64;
}

static void wait_on(struct big *b, int i, uint32_t op, uint64_t uaddr, uint64_t ns)
{
	b->f[b->kv.nfutex++] = (struct kv_futex){ .key = { tid_of(i), op, uaddr },
		.val = { .waits = 2, .wait_ns = ns, .max_ns = ns / 2 } };
}

static void wake(struct big *b, int i, uint64_t uaddr)
{
	b->f[b->kv.nfutex++] = (struct kv_futex){ .key = { tid_of(i), FCT_FUTEX_OP_WAKE, uaddr },
		.val = { .wakes = 3, .woken = 3 } };
}

/* Six entries a thread: waits on the mutex, its own condvar, a shared
 * word and the baton, wakes of the mutex and the baton. */
static struct big *big_view(void)
{
	struct big *b = calloc(1, sizeof(*b));

	assert_non_null(b);
	b->th = calloc(NTH, sizeof(*b->th));
	b->f = calloc(6 * NTH, sizeof(*b->f));
	assert_true(b->th && b->f);
	for (int i = 0; i < NTH; i++) {
		/* its account holds the same futex time as its words' waits */
		b->th[i] = (struct fct_thread){ .tid = tid_of(i), .tgid = TGID, .begin_ns = 1,
						.end_ns = 2000000000,
						.futex_off_ns = 1000 + 2000 + 3000 + 4000 };
		snprintf(b->th[i].comm, sizeof(b->th[i].comm), "w%d", i);
		wait_on(b, i, 0, MUTEX, 1000);
		wait_on(b, i, 9, own_word(i), 2000);
		wait_on(b, i, 0, shared_word(i), 3000);
		wait_on(b, i, 9, BATON, 4000);
		wake(b, i, MUTEX);
		wake(b, i, BATON);
	}
	b->kv = (struct kview){ .groups = PG_FULL, .threads = b->th, .nthreads = NTH,
				.futex = b->f, .nfutex = b->kv.nfutex };
	return b;
}

static void big_free(struct big *b)
{
	free(b->th);
	free(b->f);
	free(b);
}

/* The k-th word the view shows first: thread 0's four, then for each
 * thread its own condvar and, for the first NSHARED, its shared word. */
static uint64_t word_at(int k)
{
	static const uint64_t first[4] = { MUTEX, OWN_AT, SHARED_AT, BATON };
	int i;

	if (k < 4)
		return first[k];
	k -= 4;
	if (k < 2 * (NSHARED - 1))
		return k % 2 ? shared_word(1 + k / 2) : own_word(1 + k / 2);
	i = NSHARED + k - 2 * (NSHARED - 1);
	return own_word(i);
}

/* Its name: by address and kind, no symbols or samples in this view. */
static void want_name(char *buf, size_t n, uint64_t addr)
{
	const char *kind = addr == BATON ? "condvar taken in turns" :
			   addr >= OWN_AT ? "condvar" : "lock";

	snprintf(buf, n, "%s 0x%llx", kind, (unsigned long long)addr);
}

/* One view for the tests: 60 000 entries of 1 KB take a while to write. */
static int setup(void **state)
{
	*state = big_view();
	return 0;
}

static int teardown(void **state)
{
	big_free(*state);
	return 0;
}

/* The flame graphs' stacks: no samples, so one "[no stack sampled]"
 * stack per thread and word, under the word's name. */
static void check_stacks(const struct big *b, const struct lock_name *names, int count)
{
	struct waitstacks *ws = waitstacks_new();
	struct stack_set ss = { 0 };
	uint64_t ns = 0;

	assert_non_null(ws);
	assert_int_equal(waitstacks_build(ws, &b->kv, names, count, &ss), 0);
	assert_int_equal(ss.n, 4 * NTH);
	for (int i = 0; i < ss.n; i++)
		ns += ss.stacks[i].ns;
	assert_int_equal(ns, (1000ull + 2000 + 3000 + 4000) * NTH);
	assert_int_equal(ss.stacks[0].ns, 4000);	/* the largest first: the baton's */
	assert_string_equal(ss.stacks[0].lock, "condvar taken in turns 0x30000");
	stacks_free(&ss);
	waitstacks_free(ws);
}

static void test_many_threads(void **state)
{
	struct big *b = *state;
	struct lock_name *names;
	struct joined_run m;
	struct run_attachments att;
	int count = lockname_build(NULL, &b->kv, &names);

	assert_int_equal(count, WORDS);
	assert_string_equal(names[0].name, "lock 0x10000");
	assert_true(names[0].is_lock && !names[0].turns);
	assert_string_equal(names[3].name, "condvar taken in turns 0x30000");
	assert_true(names[3].is_lock && names[3].turns);
	assert_int_equal(names[3].wakes, 3ull * NTH);
	assert_int_equal(names[3].wakes_by_waiters, 3ull * NTH);
	for (int k = 0; k < count; k++) {
		char want[64];

		assert_int_equal(names[k].addr, word_at(k));
		want_name(want, sizeof(want), names[k].addr);
		assert_string_equal(names[k].name, want);
		assert_int_equal(names[k].tgid, TGID);
	}
	/* another program: its rows are the kernel's accounts of its threads */
	att = (struct run_attachments){ .subject = "big", .names = names, .nnames = count };
	assert_int_equal(join_run(&m, &b->kv, PG_FULL, &att), 0);
	for (int i = 0; i < NTH; i += 997) {
		const struct thread_row *r = &m.rows[i];

		assert_int_equal(r->nlocks, 4);
		assert_int_equal(r->locks[0].wait_ns, 1000);
		assert_int_equal(r->locks[1].wait_ns, 2000);
		assert_int_equal(r->locks[2].wait_ns, 3000);
		assert_int_equal(r->locks[3].wait_ns, 4000);
		assert_int_equal(r->futex_other_ns, 2000);	/* its own condvar: an event */
	}
	assert_int_equal(m.nlocks, WORDS);
	assert_string_equal(m.locks[0].name, "lock 0x10000");
	assert_int_equal(m.locks[0].threads, NTH);
	assert_int_equal(m.locks[0].wait_ns, 1000ull * NTH);
	join_free(&m);
	check_stacks(b, names, count);
	free(names);
}

/* Ctrl-C while naming: the words left are named by address, counted as
 * unnamed, and the names are still whole and exact. Last: the signal
 * stays caught. */
static void test_stop(void **state)
{
	struct lockname *ln = lockname_new();
	struct big *b = *state;
	struct lock_name *names;
	int count;

	assert_non_null(ln);
	signals_install(NULL);
	raise(SIGINT);
	count = lockname_build(ln, &b->kv, &names);
	assert_int_equal(count, WORDS);
	assert_int_equal(lockname_unnamed(ln), WORDS);
	assert_string_equal(names[0].name, "lock 0x10000");
	assert_string_equal(names[1].name, "condvar 0x400000");
	assert_string_equal(names[3].name, "condvar 0x30000");	/* not studied: no turns */
	free(names);
	lockname_free(ln);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_many_threads),
		cmocka_unit_test(test_stop),	/* last: it leaves a signal caught */
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
