/*
 * inline_prog.c - a program fctrace did not write, built -O2 -g, whose
 * lock is taken in a static function inlined into its caller (issue 43):
 * run() calls get_locked(), always inlined, which calls
 * pthread_mutex_lock. Its stack has no frame of get_locked: only DWARF's
 * DW_TAG_inlined_subroutine tells it was there.
 *
 *   inline_prog N    N threads "inliner", one after another, each waits
 *                    twice on the mutex inline_lock, which main holds
 *                    until the thread sleeps in futex on it. The mutex is
 *                    on the heap: no symbol names it, its call site does
 *
 * Built alone (no fctrace headers), like tests/target_prog.c; check the
 * inlining with `eu-addr2line -i -f -e inline_prog ADDR` on a call of
 * pthread_mutex_lock inside run (objdump -d).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t *inline_lock;
static sem_t go, done;
static volatile pid_t worker_tid;
static volatile long sink;

/* the function of the issue: static, taking the lock, inlined */
static inline __attribute__((always_inline)) long get_locked(long k)
{
	long v;

	pthread_mutex_lock(inline_lock);
	v = sink += k;
	pthread_mutex_unlock(inline_lock);
	return v;
}

__attribute__((noinline)) long run(long k)
{
	long v = get_locked(k);

	sink += v & 1;		/* work after the call: no tail call */
	return v;
}

static void *worker(void *arg)
{
	long t = (long)arg;

	pthread_setname_np(pthread_self(), "inliner");
	worker_tid = (pid_t)syscall(SYS_gettid);
	for (int k = 0; k < 2; k++) {
		sem_wait(&go);
		run(t + k);
		sem_post(&done);
	}
	return NULL;
}

/* Until thread tid sleeps in futex on inline_lock (at most 2 s). */
static void wait_blocked(pid_t tid)
{
	char path[64], buf[128];
	unsigned long want = (unsigned long)inline_lock;

	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", (int)tid);
	for (int i = 0; i < 10000; i++) {
		FILE *f = fopen(path, "re");
		long nr = -1;
		unsigned long a0 = 0;
		int hit = f && fgets(buf, sizeof(buf), f) &&
			  sscanf(buf, "%ld %lx", &nr, &a0) == 2 && nr == SYS_futex && a0 == want;

		if (f)
			fclose(f);
		if (hit)
			return;
		usleep(200);
	}
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2;
	struct timespec ms = { 0, 1000000 };

	inline_lock = malloc(sizeof(*inline_lock));
	if (!inline_lock)
		return 1;
	pthread_mutex_init(inline_lock, NULL);
	sem_init(&go, 0, 0);
	sem_init(&done, 0, 0);
	for (long t = 0; t < n; t++) {
		pthread_t th;

		worker_tid = 0;
		pthread_create(&th, NULL, worker, (void *)t);
		while (!worker_tid)
			usleep(100);
		for (int k = 0; k < 2; k++) {
			pthread_mutex_lock(inline_lock);
			sem_post(&go);
			wait_blocked(worker_tid);
			nanosleep(&ms, NULL);
			pthread_mutex_unlock(inline_lock);
			sem_wait(&done);
		}
		pthread_join(th, NULL);
	}
	printf("%ld\n", sink);
	return 0;
}
