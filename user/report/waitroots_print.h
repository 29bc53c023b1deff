/*
 * waitroots_print.h - the text report's roots of the wait-for graph
 * (join/waitgraph.h): the threads the program's waits end in.
 */
#ifndef FCTRACE_WAITROOTS_PRINT_H
#define FCTRACE_WAITROOTS_PRINT_H

#include <stdio.h>
#include "join/join.h"

/* Nothing when no wait was joined to a waker. */
void wait_roots_print(FILE *f, const struct joined_run *m);

#endif
