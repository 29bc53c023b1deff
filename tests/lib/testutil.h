/*
 * testutil.h - fakes for the workload tests: a wl_io that counts every
 * call per file and can tell whether a watched lock was held during it,
 * and a pass-through wl_io that corrupts what pread returns.
 */
#ifndef FCTRACE_TESTUTIL_H
#define FCTRACE_TESTUTIL_H

#include <pthread.h>
#include <stdbool.h>
#include <sys/types.h>
#include "workload.h"

#define FAKE_FILES	128
#define FAKE_FDS	4096
#define FAKE_FD0	100	/* fds handed out by fake open start here */
#define FAKE_BLOCKS	64	/* preads counted per (file, block of 4096) */

/*
 * No real files: "open" accepts any name ending in f<N> (N < FAKE_FILES), in any dirfd,
 * and returns a fresh fd; pread serves wl_content of file N up to
 * file_size. An fd of FAKE_FILE_FD(N) reads file N without an open.
 */
#define FAKE_FILE_FD(n)	(10000 + (n))

struct fake_io {
	struct wl_io io;
	pthread_mutex_t mu;
	uint64_t file_size;
	pthread_mutex_t *watch;		/* a lock to check, or NULL */
	unsigned opens[FAKE_FILES], closes[FAKE_FILES], stats[FAKE_FILES];
	unsigned preads[FAKE_FILES][FAKE_BLOCKS];
	unsigned preads_total;
	unsigned in_lock, outside_lock;	/* stat/open/close vs the watch lock */
	unsigned nopen, max_open, bad_closes;
	int fd_file[FAKE_FDS];		/* -1: not open */
	/* called by open before it returns: lets a test act as a racing
	 * thread at the point where the lock is (or is not) held */
	void (*on_open)(struct fake_io *f, const char *path);
	void *arg;
};

void fake_io_init(struct fake_io *f, uint64_t file_size);
unsigned fake_total(const unsigned *per_file);

/* Real syscalls, but pread flips one byte in the middle of what it read. */
extern const struct wl_io flip_io;

/* Sleep ms milliseconds, all of them (a signal does not cut it short). */
void test_sleep_ms(long ms);
/* The one-letter state in /proc/PID/stat ('Z' a zombie), or 0 when the
 * process is gone. */
char test_proc_state(pid_t pid);

/* SIGINT and SIGQUIT at their defaults, for a test that sends them to the
 * fctrace it starts: tests/run.sh runs some tests in the background, where
 * sh starts them ignored, and fctrace (rightly) keeps an ignored SIGQUIT
 * ignored. A user's fctrace from a terminal has them at their defaults. */
void test_signals_default(void);

/* A private directory under $TMPDIR or /tmp for one test; removed with
 * test_dir_remove (rmdir: it must be empty by then). */
char *test_dir_make(void);
void test_dir_remove(char *dir);
/* nothing in dir, not even dot files */
bool test_dir_is_empty(const char *dir);

/* One scratch directory for a whole group of tests: cmocka's group setup
 * makes it (test_scratch_setup), group teardown empties and removes it
 * (test_scratch_teardown); test_at("name") is test_scratch/name, in one of
 * eight rotating buffers (a call may take several). */
extern char *test_scratch;
int test_scratch_setup(void **state);
int test_scratch_teardown(void **state);
/* the same, failing (-1) when a test left something in it */
int test_scratch_teardown_empty(void **state);
char *test_at(const char *name);

#endif /* FCTRACE_TESTUTIL_H */
