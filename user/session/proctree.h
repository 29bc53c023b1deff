/*
 * proctree.h - a server made of processes, as attach takes it in: the
 * processes listed (-p A,B) and, with --follow, every descendant
 * already running at attach (new ones are followed by the kernel side
 * from the moment their parent is in the table).
 */
#ifndef FCTRACE_PROCTREE_H
#define FCTRACE_PROCTREE_H

#include <sys/types.h>

struct proctree {
	pid_t *pids;			/* roots first, then descendants in the */
	int n, cap;			/* order they were found */
	int nroots;
	int full;			/* add() refused this many: not traced */
};

/* Called for each process taken in, before its children are looked
 * for: 0 to keep it, or -errno (it is left out, counted in full). */
typedef int (*proctree_add_fn)(void *arg, pid_t pid);

/* Take in roots[0..n), and with descendants every process whose parent
 * was taken in, until a whole scan of /proc finds no new one (so that a
 * child forked while the scan runs is found, or seen by the kernel side
 * once its parent is added). 0, or -ENOMEM. */
int proctree_take(struct proctree *pt, const pid_t *roots, int n, int descendants,
		  proctree_add_fn add, void *arg);

/* The parent of process pid from /proc/PID/stat, or -1. */
pid_t proctree_ppid(pid_t pid);

void proctree_free(struct proctree *pt);

#endif /* FCTRACE_PROCTREE_H */
