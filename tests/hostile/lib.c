/*
 * hostile/lib.c - the library a hostile target maps (test_bpf_hostile.c
 * builds it at test time): one global mutex, held in turns. Built again
 * with -DLIB_LOCK=TOPSECRET_... it is the root-only look-alike, its
 * symbol at the same offset.
 */
#include <pthread.h>
#include <time.h>

#ifndef LIB_LOCK
#define LIB_LOCK lib_lock
#endif

pthread_mutex_t LIB_LOCK = PTHREAD_MUTEX_INITIALIZER;

/* Take the lock and keep it ms: another thread doing the same waits. */
void lib_hold(int ms)
{
	struct timespec ts = { 0, ms * 1000000L };

	pthread_mutex_lock(&LIB_LOCK);
	nanosleep(&ts, NULL);
	pthread_mutex_unlock(&LIB_LOCK);
}
