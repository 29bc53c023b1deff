/*
 * jvm_agent_int.h - the agent's connection, shared by jvm_agent.c (the
 * socket, the reader, the end) and jvm_agent_copy.c (the agent put where
 * a running JVM loads it). Not for other files: jvm/jvm.h is the API.
 */
#ifndef FCTRACE_JVM_AGENT_INT_H
#define FCTRACE_JVM_AGENT_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include "base/as_target.h"
#include "jvm/jvm.h"

/* What the agent may make fctrace keep: its last whole dump and what
 * came since (a dump of 10 000 threads' sites is a few MiB). */
#define AGENT_DATA_MAX	(64u << 20)
/* ns tids mapped to host tids at most (a pid namespace's threads) */
#define AGENT_TIDS_MAX	65536
#define PID_SPACE	(1u << 22)	/* the kernel's PID_MAX_LIMIT */
#define LOCK_DIR	"/run/fctrace"

struct jvm_agent {
	pid_t pid;		/* whose connection is kept */
	struct target_cred cred;	/* its owner: who makes and removes its files */
	char sock[200];		/* the socket, as fctrace reaches it */
	char sock_in[128];	/* ... and as the JVM does */
	char lock[80];		/* one fctrace per JVM, in LOCK_DIR */
	/* the JVM's /tmp, held open (as its owner opened it): its files are
	 * removed through it even once the JVM is gone */
	int dirfd;
	int lockdir, lfd, listen_fd, conn;
	char copy_dir[96];	/* the agent's copy's directory in dirfd, or "" */
	bool copy_pending;	/* the JVM has not answered: the copy stays */
	pthread_t thr;
	bool thr_on;
	volatile bool stop;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	char *buf;		/* what the agent sent: [0, n) */
	size_t n, cap;
	size_t dump_from, dump_to;	/* the last whole dump ("...E\n") */
	size_t scan_to;			/* dump ends looked for up to here */
	size_t lines_to;		/* "N" lines looked at up to here */
	uint64_t dropped;		/* bytes past AGENT_DATA_MAX, not kept */
	bool other_ns;			/* the JVM's tids are another pid namespace's */
	uint8_t *seen;			/* ns tids already taken (a bitmap) */
	uint32_t *pending;		/* ns tids told, not yet mapped */
	int npending;
	struct jvm_tidpair *tids;	/* ... mapped as each thread told its own */
	int ntids;
	unsigned dumps;
	bool eof;
};

/* the copy's directory removed, unless the JVM still holds the request */
void jvm_agent_remove_copy(struct jvm_agent *a);

#endif /* FCTRACE_JVM_AGENT_INT_H */
