/*
 * target_rows.c - what a program fctrace did not write says of itself
 * (target_int.h): nothing but its threads' names and its futex words
 * named, with the wait stacks sampled on them. The rows are the kernel's
 * accounts (join/join.c); these are the names on them.
 */
#include <stdio.h>
#include <string.h>
#include "base/clock.h"
#include "trace/loader.h"
#include "trace/slots.h"
#include "join/lockname.h"
#include "join/waitstacks.h"
#include "session/target_int.h"

/* The name of a thread whose account was closed while it lived. */
static void fill_comm(struct fct_thread *th)
{
	char path[64];
	FILE *f;

	if (th->comm[0])
		return;
	snprintf(path, sizeof(path), "/proc/%u/task/%u/comm", th->tgid, th->tid);
	f = fopen(path, "re");
	if (!f)
		return;
	if (fgets(th->comm, sizeof(th->comm), f))
		th->comm[strcspn(th->comm, "\n")] = '\0';
	fclose(f);
}

/*
 * attach: a process that has threads but not one account. Accounts begin
 * at an exec, a new thread or the adoption at the attach, which walks
 * the kernel's tasks (iter/task); Linux 6.18's walk never returns pid 1
 * (tested: its 40 threads were missing, pid 2 was there), so "0 threads"
 * would stand without a word.
 */
static void say_none_adopted(const struct session *s)
{
	const struct target_info *ti = &s->target;
	unsigned live;

	if (ti->mode != TGT_ATTACH || ti->exited)
		return;
	for (int i = 0; i < s->kv.nthreads; i++)
		if (s->kv.threads[i].tgid == (uint32_t)ti->pid)
			return;
	if (!(live = slots_threads_of(ti->pid)))
		return;
	fprintf(stderr, "fctrace: -p %d: none of its %u thread%s was traced: the kernel's walk "
		"of its tasks at the attach (iter/task) returned none of them%s, and none began "
		"in the window\n", (int)ti->pid, live, live == 1 ? "" : "s",
		ti->pid == 1 ? " (this kernel's walk skips pid 1)" : "");
}

void target_name_rows(struct watch *w, struct session *s, struct tracer *t)
{
	int n;

	for (int i = 0; i < s->kv.nthreads; i++)
		fill_comm(&s->kv.threads[i]);
	say_none_adopted(s);
	lockname_stats(w->ln, &s->target.stacks_received, &s->target.stacks_unwound);
	s->target.stacks_dropped = tracer_ustacks_dropped(t);
	lockname_deadline(w->ln, monotonic_ns() + (w->hurry ? NAMES_NS : NAMES_DONE_NS));
	n = lockname_build(w->ln, &s->kv, &s->names);
	s->target.words_unnamed = lockname_unnamed(w->ln);
	lockname_unsymbolised(w->ln, s->target.unsymbolised, sizeof(s->target.unsymbolised));
	s->nnames = n > 0 ? n : 0;
	if (waitstacks_build(lockname_waitstacks(w->ln), &s->kv, s->names, s->nnames,
			     &s->stacks))
		fprintf(stderr, "fctrace: out of memory for the wait stacks\n");
	s->target.window_start_ns = w->start_ns;
	s->target.window_end_ns = w->end_ns;
}
