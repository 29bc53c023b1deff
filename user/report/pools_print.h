/*
 * pools_print.h - the text report's pools of N (join/pools.h): each
 * pool's capacity, queue and holds, and its what-ifs.
 */
#ifndef FCTRACE_POOLS_PRINT_H
#define FCTRACE_POOLS_PRINT_H

#include <stdio.h>
#include "join/join.h"

/* Nothing when the run found no pool. */
void pools_print(FILE *f, const struct joined_run *m);

#endif
