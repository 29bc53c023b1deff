/*
 * acctutil.h - hand-made accounts' syscall tables for the tests that
 * build kernel views or joined runs by hand: the entries in one arena
 * for the test binary, as the loader keeps them in the kernel view's.
 */
#ifndef FCTRACE_ACCTUTIL_H
#define FCTRACE_ACCTUTIL_H

#include "trace/account.h"

/* Number nr's entry in k to write (added, zeroed, at its first use);
 * the test fails when it cannot be had. */
struct fct_nr_stats *au_nr(struct fct_thread *k, unsigned nr);

#endif
