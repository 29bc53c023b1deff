/*
 * jvmstacks.h - a JVM's contended monitor enters in the wait flame graph
 * by their Java call paths: the stacks fctrace's JVMTI agent walked at
 * sampled enters (struct jvm_site_stack), drawn as
 * "thread;Java frames, root first;monitor CLASS".
 */
#ifndef FCTRACE_JVMSTACKS_H
#define FCTRACE_JVMSTACKS_H

#include "join/join.h"
#include "join/stacks.h"
#include "jvm/jvm.h"

/*
 * Each thread's time on a monitor lock, as the lock table's row counts it
 * (its lock use; the last thread takes the row's rounding, so the Java
 * stacks of a lock add up to its row), split over the Java stacks that
 * thread walked by their walked waits' measured time (the class's stacks
 * of all threads when it walked none). The same time is taken off the
 * thread's native stacks through HotSpot's ObjectMonitor::enter, in
 * proportion, as the join moved it from the futex waits to the lock: the
 * graph shows it once. 0, or -1 out of memory.
 */
int jvmstacks_add(struct stack_set *ss, const struct joined_run *m, const struct jvm_view *v);

#endif
