/*
 * target_prog.c - a program fctrace did not write, with known behaviour,
 * for the `run -- CMD` and `attach` tests. It makes no use of fctrace's
 * headers: the tests see it exactly as they would see a stranger's.
 *
 *   target_prog hold MS      a static mutex and a heap mutex, each held by
 *                            main for MS ms while one named thread waits;
 *                            a condvar waited for MS ms; two threads
 *                            making exactly 1000 pread64 calls each
 *   target_prog fork N       fork a child that makes N pread64 calls
 *   target_prog serve MS     hold the static mutex with a thread waiting
 *                            on it, print "ready", and at a line on stdin
 *                            start a new thread, hold MS ms more, end
 *   target_prog sleep MS     sleep, then exit 0
 *   target_prog escape MS    as hold's static mutex, but the waiting thread
 *                            is named "\e[31m..\e]0;x\a" and main
 *                            "\xc2\x9b31m\e[2J" (C1 CSI in UTF-8): names
 *                            a terminal would act on
 *   target_prog bss MS       as hold's static mutex, but the mutex lies in
 *                            a static object past a 4 MiB buffer: in the
 *                            .bss beyond the file-backed pages
 *   target_prog turns N      three threads "turn-N" pass a baton (a
 *                            condvar, a turn counter) round N times each;
 *                            then "producer" posts N items, one per 20 µs,
 *                            to "consumer", which waits on another condvar
 *   target_prog workq N      "producer" posts N items in bursts of 8 (one
 *                            sleep of 200 µs between bursts) to a queue of
 *                            4 that four "worker-K" threads take from,
 *                            ~30 µs of work each: workers wait on the
 *                            static condvar cond_add, the producer on
 *                            cond_result beside it (git grep's shape)
 *   target_prog threads N    N threads at once, each makes one getppid and
 *                            exits (small stacks); main joins them
 *   target_prog forker N     N child processes one after another, each
 *                            makes one getppid and exits
 *   target_prog fanout N     N child processes alive at once: each sleeps
 *                            1.5 s and exits; main waits for them all
 *   target_prog words N      one thread waits on N distinct futex words,
 *                            each wait refused at once (EAGAIN)
 *   target_prog zleader MS   main starts a thread that sleeps MS ms, prints
 *                            "ready" and leaves by pthread_exit: a zombie
 *                            leader with a live thread
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/futex.h>

#define PREADS_PER_THREAD	1000

pthread_mutex_t session_table_lock = PTHREAD_MUTEX_INITIALIZER;

struct store {
	pthread_mutex_t mu;
	int fd;
};

static struct store *store;
static pthread_mutex_t cond_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int signalled;

/* a lock built from a condvar, as CPython's GIL is: one global object */
#define TURN_THREADS	3
struct baton {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	long turn;
};
struct baton baton = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 };
struct queue {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	long items, taken, n;
};
struct queue queue = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0 };

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts))
		;
}

/* The heap mutex's one call site: waits on it are named after this. */
__attribute__((noinline)) int get_fd(struct store *s)
{
	int fd;

	pthread_mutex_lock(&s->mu);
	fd = s->fd;
	pthread_mutex_unlock(&s->mu);
	return fd;
}

static void *static_waiter(void *arg)
{
	pthread_setname_np(pthread_self(), "waiter-static");
	pthread_mutex_lock(&session_table_lock);
	pthread_mutex_unlock(&session_table_lock);
	return NULL;
}

static void *heap_waiter(void *arg)
{
	pthread_setname_np(pthread_self(), "waiter-heap");
	return (void *)(long)get_fd(store);
}

static void *cond_waiter(void *arg)
{
	pthread_setname_np(pthread_self(), "waiter-cond");
	pthread_mutex_lock(&cond_mu);
	while (!signalled)
		pthread_cond_wait(&cond, &cond_mu);
	pthread_mutex_unlock(&cond_mu);
	return NULL;
}

static void preads(int n)
{
	char buf[64];
	int fd = open("/proc/self/exe", O_RDONLY);

	for (int i = 0; i < n; i++)
		(void)!pread(fd, buf, sizeof(buf), 0);
	close(fd);
}

static void *reader(void *arg)
{
	char name[16];

	snprintf(name, sizeof(name), "reader-%ld", (long)arg);
	pthread_setname_np(pthread_self(), name);
	preads(PREADS_PER_THREAD);
	return NULL;
}

/* main holds lock for ms while thread fn waits on it */
static void hold_while(pthread_mutex_t *lock, void *(*fn)(void *), long ms)
{
	pthread_t th;

	pthread_mutex_lock(lock);
	pthread_create(&th, NULL, fn, NULL);
	sleep_ms(ms);
	pthread_mutex_unlock(lock);
	pthread_join(th, NULL);
}

static void *escape_waiter(void *arg)
{
	pthread_setname_np(pthread_self(), "\033[31m..\033]0;x\a");
	pthread_mutex_lock(&session_table_lock);
	pthread_mutex_unlock(&session_table_lock);
	return NULL;
}

/* A lock in the .bss where it outgrows the last file-backed page. */
static struct {
	char buf[4 << 20];
	pthread_mutex_t mu;
} big_store;

static void *bss_waiter(void *arg)
{
	pthread_setname_np(pthread_self(), "waiter-bss");
	pthread_mutex_lock(&big_store.mu);
	pthread_mutex_unlock(&big_store.mu);
	return NULL;
}

static int bss(long ms)
{
	hold_while(&big_store.mu, bss_waiter, ms);
	return 0;
}

static int escape(long ms)
{
	pthread_setname_np(pthread_self(), "\xc2\x9b" "31m\033[2J");
	hold_while(&session_table_lock, escape_waiter, ms);
	return 0;
}

static int hold(long ms)
{
	pthread_t th[2];

	store = calloc(1, sizeof(*store));
	pthread_mutex_init(&store->mu, NULL);
	hold_while(&session_table_lock, static_waiter, ms);
	hold_while(&store->mu, heap_waiter, ms);
	pthread_create(&th[0], NULL, cond_waiter, NULL);
	sleep_ms(ms);
	pthread_mutex_lock(&cond_mu);
	signalled = 1;
	pthread_cond_signal(&cond);
	pthread_mutex_unlock(&cond_mu);
	pthread_join(th[0], NULL);
	for (long i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, reader, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	return 0;
}

struct turner {
	long me, n;
};

static void *turner(void *arg)
{
	const struct turner *t = arg;
	char name[16];

	snprintf(name, sizeof(name), "turn-%ld", t->me);
	pthread_setname_np(pthread_self(), name);
	for (long k = 0; k < t->n; k++) {
		pthread_mutex_lock(&baton.mu);
		while (baton.turn % TURN_THREADS != t->me)
			pthread_cond_wait(&baton.cv, &baton.mu);
		baton.turn++;
		pthread_cond_broadcast(&baton.cv);
		pthread_mutex_unlock(&baton.mu);
	}
	return NULL;
}

static void *consumer(void *arg)
{
	pthread_setname_np(pthread_self(), "consumer");
	pthread_mutex_lock(&queue.mu);
	while (queue.taken < queue.n) {
		while (queue.items == 0)
			pthread_cond_wait(&queue.cv, &queue.mu);
		queue.items--;
		queue.taken++;
	}
	pthread_mutex_unlock(&queue.mu);
	return NULL;
}

/* posts an item every 20 µs, never waiting on the condvar */
static void *producer(void *arg)
{
	struct timespec gap = { 0, 20000 };

	pthread_setname_np(pthread_self(), "producer");
	for (long k = 0; k < queue.n; k++) {
		nanosleep(&gap, NULL);
		pthread_mutex_lock(&queue.mu);
		queue.items++;
		pthread_cond_signal(&queue.cv);
		pthread_mutex_unlock(&queue.mu);
	}
	return NULL;
}

static int turns(long n)
{
	struct turner t[TURN_THREADS];
	pthread_t th[TURN_THREADS];

	for (long i = 0; i < TURN_THREADS; i++) {
		t[i] = (struct turner){ i, n };
		pthread_create(&th[i], NULL, turner, &t[i]);
	}
	for (int i = 0; i < TURN_THREADS; i++)
		pthread_join(th[i], NULL);
	queue.n = n;
	pthread_create(&th[0], NULL, consumer, NULL);
	pthread_create(&th[1], NULL, producer, NULL);
	pthread_join(th[0], NULL);
	pthread_join(th[1], NULL);
	return baton.turn == TURN_THREADS * n && queue.taken == n ? 0 : 1;
}

/* two condvars side by side, as git's builtin/grep.c has them */
#define WORKQ_CAP	4
#define WORKQ_WORKERS	4
static pthread_mutex_t work_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond_add = PTHREAD_COND_INITIALIZER;
static pthread_cond_t cond_result = PTHREAD_COND_INITIALIZER;
static long work_items, work_done, work_taken;

static void spin_us(long us)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000 + (b.tv_nsec - a.tv_nsec) / 1000 < us);
}

static void *worker(void *arg)
{
	char name[16];

	snprintf(name, sizeof(name), "worker-%ld", (long)arg);
	pthread_setname_np(pthread_self(), name);
	for (;;) {
		pthread_mutex_lock(&work_mu);
		while (work_items == 0 && !work_done)
			pthread_cond_wait(&cond_add, &work_mu);
		if (work_items == 0) {
			pthread_mutex_unlock(&work_mu);
			return NULL;
		}
		work_items--;
		work_taken++;
		pthread_cond_signal(&cond_result);
		pthread_mutex_unlock(&work_mu);
		spin_us(30);
	}
}

static int workq(long n)
{
	struct timespec gap = { 0, 200000 };
	pthread_t th[WORKQ_WORKERS];

	pthread_setname_np(pthread_self(), "producer");
	for (long i = 0; i < WORKQ_WORKERS; i++)
		pthread_create(&th[i], NULL, worker, (void *)i);
	for (long k = 0; k < n; k++) {
		if (k % 8 == 0)
			nanosleep(&gap, NULL);
		pthread_mutex_lock(&work_mu);
		while (work_items == WORKQ_CAP)
			pthread_cond_wait(&cond_result, &work_mu);
		work_items++;
		pthread_cond_signal(&cond_add);
		pthread_mutex_unlock(&work_mu);
	}
	pthread_mutex_lock(&work_mu);
	work_done = 1;
	pthread_cond_broadcast(&cond_add);
	pthread_mutex_unlock(&work_mu);
	for (int i = 0; i < WORKQ_WORKERS; i++)
		pthread_join(th[i], NULL);
	return work_taken == n ? 0 : 1;
}

static int forks(int n)
{
	pid_t pid = fork();

	if (pid == 0) {
		preads(n);
		_exit(0);
	}
	return pid > 0 && waitpid(pid, NULL, 0) == pid ? 0 : 1;
}

static void *late(void *arg)
{
	pthread_setname_np(pthread_self(), "late");
	preads(PREADS_PER_THREAD);
	return NULL;
}

static int serve(long ms)
{
	pthread_t waiter, newcomer;
	char line[16];

	pthread_mutex_lock(&session_table_lock);
	pthread_create(&waiter, NULL, static_waiter, NULL);
	sleep_ms(50);		/* the waiter is asleep on the lock by now */
	printf("ready\n");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 1;
	pthread_create(&newcomer, NULL, late, NULL);
	sleep_ms(ms);
	pthread_mutex_unlock(&session_table_lock);
	pthread_join(waiter, NULL);
	pthread_join(newcomer, NULL);
	return 0;
}

static void *one_call(void *arg)
{
	(void)!getppid();
	return NULL;
}

static int threads(long n)
{
	pthread_t *th = calloc((size_t)n, sizeof(*th));
	pthread_attr_t at;
	long made = 0;

	pthread_attr_init(&at);
	pthread_attr_setstacksize(&at, 64 * 1024);
	for (; th && made < n; made++)
		if (pthread_create(&th[made], &at, one_call, NULL))
			break;
	for (long i = 0; i < made; i++)
		pthread_join(th[i], NULL);
	free(th);
	return made == n ? 0 : 1;
}

static int forker(long n)
{
	for (long i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			(void)!getppid();
			_exit(0);
		}
		if (pid < 0 || waitpid(pid, NULL, 0) != pid)
			return 1;
	}
	return 0;
}

static int fanout(long n)
{
	int bad = 0;

	for (long i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			sleep_ms(1500);
			_exit(0);
		}
		bad |= pid < 0;
	}
	while (wait(NULL) > 0)
		;
	return bad;
}

static int words(long n)
{
	int *w = calloc((size_t)n, sizeof(*w));

	for (long i = 0; w && i < n; i++)	/* the word is 0, not 1: EAGAIN */
		syscall(SYS_futex, &w[i], FUTEX_WAIT_PRIVATE, 1, NULL, NULL, 0);
	free(w);
	return w ? 0 : 1;
}

static void *sleeper(void *arg)
{
	pthread_setname_np(pthread_self(), "sleeper");
	sleep_ms((long)arg);
	return NULL;
}

static int zleader(long ms)
{
	pthread_t th;

	pthread_create(&th, NULL, sleeper, (void *)ms);
	printf("ready\n");
	fflush(stdout);
	pthread_exit(NULL);
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 0;

	if (argc < 3) {
		fprintf(stderr, "usage: target_prog hold|fork|serve|sleep|turns|escape|bss|threads|forker|\n"
			"       fanout|words|zleader|workq N\n");
		return 2;
	}
	if (!strcmp(argv[1], "hold"))
		return hold(n);
	if (!strcmp(argv[1], "escape"))
		return escape(n);
	if (!strcmp(argv[1], "bss"))
		return bss(n);
	if (!strcmp(argv[1], "fork"))
		return forks((int)n);
	if (!strcmp(argv[1], "serve"))
		return serve(n);
	if (!strcmp(argv[1], "turns"))
		return turns(n);
	if (!strcmp(argv[1], "threads"))
		return threads(n);
	if (!strcmp(argv[1], "workq"))
		return workq(n);
	if (!strcmp(argv[1], "forker"))
		return forker(n);
	if (!strcmp(argv[1], "fanout"))
		return fanout(n);
	if (!strcmp(argv[1], "words"))
		return words(n);
	if (!strcmp(argv[1], "zleader"))
		return zleader(n);
	if (!strcmp(argv[1], "sleep")) {
		sleep_ms(n);
		return 0;
	}
	return 2;
}
