/*
 * test_bpf_inline.c - inlined frames (issue 43), as root: tests/inline_prog
 * (built -O2 -g) takes its heap mutex in get_locked, a static function
 * always inlined into run; 3 threads wait on it twice each (6 waits,
 * every one sampled). The stacks hold get_locked between run and
 * pthread_mutex_lock, marked inlined, with its line (the call of
 * pthread_mutex_lock in get_locked) and run's line (the call of
 * get_locked): the lines as the fixture's source has them, which is what
 * binutils' addr2line -i says of that address too. The folded stacks
 * carry all the lock's time through run;get_locked;pthread_mutex_lock, and
 * the lock table names the lock by its site in get_locked, from run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bpfutil.h"
#include "flameutil.h"
#include "report/flame.h"
#include "session/session.h"

#define WORKERS		3
#define SOURCE		"tests/inline_prog.c"

static const char *inline_prog(void)
{
	const char *env = getenv("FCTRACE_INLINE_PROG");

	return env ? env : ".output/tests/inline_prog";
}

/* The line of the fixture's source that first holds needle. */
static uint32_t source_line(const char *needle)
{
	FILE *f = fopen(SOURCE, "r");
	char buf[256];
	uint32_t n = 0;

	assert_non_null(f);
	while (fgets(buf, sizeof(buf), f)) {
		n++;
		if (strstr(buf, needle)) {
			fclose(f);
			return n;
		}
	}
	fclose(f);
	fail_msg("%s has no line with %s", SOURCE, needle);
	return 0;
}

static void run_inline(struct session *s)
{
	char n[8], *argv[] = { (char *)inline_prog(), n, NULL };
	struct trace_opts t = { .probes = PG_FULL };
	struct target_opts to = { .mode = TGT_EXEC, .argv = argv };

	snprintf(n, sizeof(n), "%d", WORKERS);
	assert_int_equal(session_run_target(&t, &to, s), 0);
	assert_int_equal(target_exit_status(&s->target), 0);
}

/* The lock the lock table names from get_locked's site. */
static const struct lock_total *inline_lock(const struct joined_run *m)
{
	for (int i = 0; i < m->nlocks; i++)
		if (strstr(m->locks[i].name, "get_locked"))
			return &m->locks[i];
	for (int i = 0; i < m->nlocks; i++)
		print_message("  lock: %s\n", m->locks[i].name);
	return NULL;
}

/* In stack st: frame k is get_locked (inlined) under run, over the lock. */
static int inlined_at(const struct stack_set *ss, const struct sstack *st)
{
	for (int k = 1; k + 1 < st->nframes; k++) {
		const struct sframe *f = &ss->frames[st->frames[k]];

		if (!strcmp(f->func, "get_locked") &&
		    !strcmp(ss->frames[st->frames[k - 1]].func, "run") &&
		    !strcmp(ss->frames[st->frames[k + 1]].func, "pthread_mutex_lock"))
			return k;
	}
	return -1;
}

static void test_inlined_frame_in_stacks(void **state)
{
	uint32_t lock_line = source_line("pthread_mutex_lock(inline_lock);");
	uint32_t call_line = source_line("get_locked(k);");
	const struct lock_total *l;
	struct session s;
	uint64_t ns = 0, samples = 0;

	BPF_TEST_REQUIRE();
	run_inline(&s);
	l = inline_lock(&s.joined);
	assert_non_null(l);
	print_message("lock: %s, %llu waits\n", l->name, (unsigned long long)l->waits);
	assert_int_equal(l->waits, 2 * WORKERS);	/* the ground truth */
	/* its site is in the inlined function, called from run */
	assert_non_null(strstr(l->name, "get_locked (inline_prog.c:"));
	assert_non_null(strstr(l->name, ", inlined) from run+0x"));
	for (int i = 0; i < s.stacks.n; i++) {
		const struct sstack *st = &s.stacks.stacks[i];
		int k;

		if (strcmp(st->lock, l->name))
			continue;
		k = inlined_at(&s.stacks, st);
		assert_true(k > 0);
		assert_true(s.stacks.frames[st->frames[k]].inlined);
		assert_false(s.stacks.frames[st->frames[k - 1]].inlined);
		assert_int_equal(s.stacks.frames[st->frames[k]].line, lock_line);
		assert_int_equal(s.stacks.frames[st->frames[k - 1]].line, call_line);
		assert_string_equal(s.stacks.frames[st->frames[k]].file, "inline_prog.c");
		ns += st->ns;
		samples += st->samples;
	}
	assert_int_equal(samples, 2 * WORKERS);		/* every wait sampled */
	assert_int_equal(ns, l->wait_ns);
	session_free(&s);
}

static void test_folded_through_inlined(void **state)
{
	char path[64];
	struct flame_opts fo = { 0 };
	const struct lock_total *l;
	struct session s;
	uint64_t ns;

	BPF_TEST_REQUIRE();
	run_inline(&s);
	l = inline_lock(&s.joined);
	assert_non_null(l);
	snprintf(path, sizeof(path), "/tmp/fctrace-inline-%d.folded", (int)getpid());
	assert_int_equal(flame_folded_write(&s.stacks, &fo, path), 0);
	/* the stack was run;pthread_mutex_lock: now the function between */
	ns = folded_ns(path, ";run;get_locked;pthread_mutex_lock", NULL);
	assert_int_equal(ns, l->wait_ns);
	assert_int_equal(folded_ns(path, ";run;pthread_mutex_lock", NULL), 0);
	unlink(path);
	session_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inlined_frame_in_stacks),
		cmocka_unit_test(test_folded_through_inlined),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
