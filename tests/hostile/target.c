/*
 * hostile/target.c - a target that plays tricks on a root fctrace
 * (test_bpf_hostile.c builds it at test time and runs it as nobody).
 *
 *   target lib LIB MS [FROM TO LINK AT_MS]
 *       map LIB (dlopen), two threads take its lock in turns for MS ms;
 *       with FROM..: at AT_MS rename directory FROM to TO and put a
 *       symlink to LINK at FROM/libx.so (the renamed-directory trick)
 *   target flood MS
 *       four threads make timed-out futex waits on 512 words each, as
 *       fast as they can, for MS ms: a flood of sampled stacks
 *
 * "ready" on stdout once the library is mapped and the threads run.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static void (*hold)(int ms);
static volatile int stop;

static void *taker(void *arg)
{
	(void)arg;
	while (!stop)
		hold(20);
	return NULL;
}

#define WORDS	512
static unsigned words[4][WORDS];

static void *flooder(void *arg)
{
	unsigned *w = arg;
	struct timespec zero = { 0, 1 };

	while (!stop)
		for (int i = 0; i < WORDS && !stop; i++)
			syscall(SYS_futex, &w[i], FUTEX_WAIT_PRIVATE, 0, &zero, NULL, 0);
	return NULL;
}

static void plant(char **argv)
{
	char link[4096];

	snprintf(link, sizeof(link), "%s/libx.so", argv[0]);
	if (rename(argv[0], argv[1]) || mkdir(argv[0], 0755) || symlink(argv[2], link))
		perror("plant");
}

int main(int argc, char **argv)
{
	pthread_t th[4];
	int n = 0, ms = argc > 3 ? atoi(argv[3]) : 0;
	void *lib;

	if (argc > 2 && !strcmp(argv[1], "flood")) {
		ms = atoi(argv[2]);
		for (n = 0; n < 4; n++)
			pthread_create(&th[n], NULL, flooder, words[n]);
	} else if (argc > 3 && !strcmp(argv[1], "lib")) {
		lib = dlopen(argv[2], RTLD_NOW);
		hold = lib ? (void (*)(int))dlsym(lib, "lib_hold") : NULL;
		if (!hold) {
			fprintf(stderr, "target: %s\n", dlerror());
			return 1;
		}
		for (n = 0; n < 2; n++)
			pthread_create(&th[n], NULL, taker, NULL);
	} else {
		fprintf(stderr, "usage: target lib LIB MS [FROM TO LINK AT_MS] | flood MS\n");
		return 2;
	}
	printf("ready\n");
	fflush(stdout);
	if (argc > 7) {
		usleep((useconds_t)atoi(argv[7]) * 1000);
		plant(argv + 4);
		ms -= atoi(argv[7]);
	}
	usleep((useconds_t)(ms > 0 ? ms : 0) * 1000);
	stop = 1;
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	return 0;
}
