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
 *   target_prog threads N [together]  N threads at once, each makes one
 *                            getppid and exits (small stacks); main joins
 *                            them. together: each lives until all are made
 *   target_prog churn N MS [wide]  N threads one after another, a new one
 *                            every MS ms, each makes exactly 3 getppid calls
 *                            and exits; main joins each before the next.
 *                            wide: each also makes one call of each of
 *                            WIDE_CALLS' numbers (bad arguments: an error
 *                            at once), 1 + 56 numbers a thread
 *   target_prog crowd N      N threads "crowd" at once; "ready" when all
 *                            are made; at a line on stdin each makes
 *                            exactly 3 getppid calls; all then wait for
 *                            stdin's end and exit
 *   target_prog forker N [MS]  N child processes "forked" one after another, each
 *                            makes one getppid, spins MS ms of CPU (0) and
 *                            exits
 *   target_prog forkserver N MS  a server of a process a connection: a
 *                            "client" process connects N times in turn
 *                            (a byte each way, then closes) to a UNIX
 *                            socket main accepts on; for each accept main
 *                            forks "conn", which spins MS ms of CPU and
 *                            replies; main waits for each
 *   target_prog fanout N     N child processes alive at once: each sleeps
 *                            1.5 s and exits; main waits for them all
 *   target_prog words N      one thread waits on N distinct futex words,
 *                            each wait refused at once (EAGAIN)
 *   target_prog zleader MS   main starts a thread that sleeps MS ms, prints
 *                            "ready" and leaves by pthread_exit: a zombie
 *                            leader with a live thread
 *   target_prog tree N       a server made of processes: N children
 *                            "child-I" and, under child-0, "grandchild",
 *                            all started and asleep in read() on a pipe
 *                            when main prints "ready PID..." (the
 *                            children's pids); at a line on stdin each
 *                            makes 100 * (I + 1) pread64 calls (the
 *                            grandchild 50) and exits; main reaps them
 *   target_prog semlock N    three processes "semlock-I" take one
 *                            process-shared semaphore (count 1) as a lock
 *                            N times each, holding it 2 ms (asleep) each
 *                            time: a semaphore used as a mutex
 *   target_prog fsync N      append 4 KiB to a new file in the current
 *                            directory and fdatasync it, N times; the file
 *                            is removed
 *   target_prog uring N      N one-block reads of a file it writes in the
 *                            current directory, through one io_uring ring
 *                            (4 in flight); the file is removed
 *   target_prog latch N      two processes wait for each other N times each
 *                            in epoll_wait on a self-pipe, as PostgreSQL's
 *                            latch: "latch-a" (main) wakes "latch-b" with
 *                            kill(SIGUSR1), whose handler writes to b's
 *                            pipe; b wakes a by writing to a's pipe. Each
 *                            wakes the other only once it is asleep (its
 *                            voluntary switches have moved and it is in S)
 *   target_prog paths N      N threads "worker", one after another, each
 *                            waits 4 times on the static mutex paths_lock
 *                            while main holds it: 3 times called from
 *                            handle_get, once from handle_put (both through
 *                            lookup_locked); main lets go only once the
 *                            worker sleeps in futex on it (/proc's syscall
 *                            file), so every call waits exactly once
 *   target_prog coldread N OUT  thread "reader" reads one page from disk
 *                            4 N times: each round drops the file's pages
 *                            (fadvise DONTNEED), then load_index reads 3
 *                            pages and load_blob 1 (all through read_page,
 *                            readahead off); writes the time each path
 *                            slept inside pread64 (wall less CPU less
 *                            run-queue time: schedstat) to OUT ("INDEX_NS
 *                            BLOB_NS"); the file is removed
 *   target_prog groupcommit N  a group commit: three threads "writer-K"
 *                            each append N records (a write to a new file,
 *                            under gc_mu) and wait on the condvar
 *                            gc_commit until "flusher" has fdatasynced
 *                            past theirs; the flusher waits on gc_work for
 *                            records, fdatasyncs, then broadcasts
 *                            gc_commit: every wake of a writer comes
 *                            right after its fdatasync. Prints "flushes F"
 *   target_prog mutexes N MS  4 threads take N mutexes for MS ms, mutex I
 *                            in N - I of each N (N + 1) / 2 turns (the
 *                            first the most waited for), each hold two
 *                            getppid calls and 20 us of spin; prints the
 *                            holds of each
 *   target_prog sharedpool N SHARED  two child processes "pool-a" then
 *                            "pool-b" each read every page of an N-page
 *                            file once (pread64, 4 KiB); with SHARED 1
 *                            they inherit a 2 MiB MAP_SHARED anonymous
 *                            mapping first, as PostgreSQL's backends their
 *                            shared_buffers; the file is removed
 *   target_prog execspin MS  spins MS ms of CPU in user space in
 *                            spin_before_exec, then execs itself as
 *                            "execspun MS", which spins MS ms of CPU in
 *                            spin_after_exec: one pid, two images
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "uring.h"
#include <signal.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <linux/futex.h>
#include <semaphore.h>

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

/* The thread about to block on the held lock, so that the holder times
 * its hold from when the waiter sleeps, not from pthread_create (on a busy
 * machine a new thread may first run tens of ms later). */
static _Atomic pid_t arriving_waiter;

static void waiter_arrives(void)
{
	atomic_store(&arriving_waiter, (pid_t)syscall(SYS_gettid));
}

/* Whether thread tid of this process is asleep (state S in its stat). */
static int thread_sleeps(pid_t tid)
{
	char path[64], buf[256], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] == 'S';
}

/* Until the waiter announced itself and sleeps (at most 5 s). */
static void await_waiter_asleep(void)
{
	for (int i = 0; i < 5000; i++) {
		pid_t tid = atomic_load(&arriving_waiter);

		if (tid && thread_sleeps(tid))
			return;
		usleep(1000);
	}
}

static void *static_waiter(void *arg)
{
	pthread_setname_np(pthread_self(), "waiter-static");
	waiter_arrives();
	pthread_mutex_lock(&session_table_lock);
	pthread_mutex_unlock(&session_table_lock);
	return NULL;
}

static void *heap_waiter(void *arg)
{
	pthread_setname_np(pthread_self(), "waiter-heap");
	waiter_arrives();
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

/* main holds lock for ms after thread fn fell asleep waiting on it */
static void hold_while(pthread_mutex_t *lock, void *(*fn)(void *), long ms)
{
	pthread_t th;

	atomic_store(&arriving_waiter, 0);
	pthread_mutex_lock(lock);
	pthread_create(&th, NULL, fn, NULL);
	await_waiter_asleep();
	sleep_ms(ms);
	pthread_mutex_unlock(lock);
	pthread_join(th, NULL);
}

static void *escape_waiter(void *arg)
{
	pthread_setname_np(pthread_self(), "\033[31m..\033]0;x\a");
	waiter_arrives();
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
	waiter_arrives();
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

static volatile int threads_released;

static void *one_call(void *arg)
{
	(void)!getppid();
	while (arg && !threads_released)	/* together: alive until all are made */
		usleep(1000);
	return NULL;
}

static int threads(long n, int together)
{
	pthread_t *th = calloc((size_t)n, sizeof(*th));
	pthread_attr_t at;
	long made = 0;

	pthread_attr_init(&at);
	pthread_attr_setstacksize(&at, 64 * 1024);
	for (; th && made < n; made++)
		if (pthread_create(&th[made], &at, one_call, together ? (void *)1 : NULL))
			break;
	threads_released = 1;
	for (long i = 0; i < made; i++)
		pthread_join(th[i], NULL);
	free(th);
	return made == n ? 0 : 1;
}

/* Numbers that fail at once on (-1, 0, 0) or ignore their arguments:
 * a thread that calls them all has 56 numbers in its syscall tables. */
static const long wide_calls[] = {
	SYS_read, SYS_write, SYS_close, SYS_fstat, SYS_lseek, SYS_ioctl, SYS_pread64,
	SYS_pwrite64, SYS_readv, SYS_writev, SYS_access, SYS_sched_yield, SYS_dup,
	SYS_getpid, SYS_sendfile, SYS_connect, SYS_accept, SYS_sendto, SYS_recvfrom,
	SYS_shutdown, SYS_bind, SYS_listen, SYS_getsockname, SYS_getpeername,
	SYS_getsockopt, SYS_fcntl, SYS_flock, SYS_fsync, SYS_fdatasync, SYS_ftruncate,
	SYS_getdents, SYS_getcwd, SYS_fchdir, SYS_fchmod, SYS_fchown, SYS_gettimeofday,
	SYS_getrusage, SYS_sysinfo, SYS_times, SYS_getuid, SYS_getgid, SYS_geteuid,
	SYS_getegid, SYS_getpgrp, SYS_getgroups, SYS_getpgid, SYS_getsid, SYS_capget,
	SYS_sigaltstack, SYS_fstatfs, SYS_getpriority, SYS_sched_getparam,
	SYS_sched_getscheduler, SYS_gettid, SYS_time, SYS_sched_getaffinity,
};

static void *three_calls(void *arg)
{
	for (int i = 0; i < 3; i++)
		(void)!getppid();
	for (size_t i = 0; arg && i < sizeof(wide_calls) / sizeof(wide_calls[0]); i++)
		(void)!syscall(wide_calls[i], -1L, 0L, 0L);
	return NULL;
}

/* churn: threads that live one after another, never many at once */
static int churn(long n, long ms, int wide)
{
	pthread_t th;

	for (long i = 0; i < n; i++) {
		if (pthread_create(&th, NULL, three_calls, wide ? (void *)1 : NULL))
			return 1;
		pthread_join(th, NULL);
		sleep_ms(ms);
	}
	return 0;
}

/* crowd: three barriers, the main thread in each: made, go, the end */
static pthread_barrier_t crowd_made, crowd_go, crowd_end;

static void *crowd_one(void *arg)
{
	pthread_barrier_wait(&crowd_made);
	pthread_barrier_wait(&crowd_go);
	for (int i = 0; i < 3; i++)
		(void)!getppid();
	pthread_barrier_wait(&crowd_end);
	return NULL;
}

static int crowd(long n)
{
	pthread_t *th = calloc((size_t)n, sizeof(*th));
	char line[16];
	pthread_attr_t at;

	if (!th)
		return 1;
	pthread_barrier_init(&crowd_made, NULL, (unsigned)n + 1);
	pthread_barrier_init(&crowd_go, NULL, (unsigned)n + 1);
	pthread_barrier_init(&crowd_end, NULL, (unsigned)n + 1);
	pthread_attr_init(&at);
	pthread_attr_setstacksize(&at, 64 * 1024);
	for (long i = 0; i < n; i++) {
		if (pthread_create(&th[i], &at, crowd_one, NULL))
			return 1;	/* the others wait for ever: exit ends them */
		pthread_setname_np(th[i], "crowd");
	}
	pthread_barrier_wait(&crowd_made);
	printf("ready\n");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 1;
	pthread_barrier_wait(&crowd_go);
	while (fgets(line, sizeof(line), stdin))
		;
	pthread_barrier_wait(&crowd_end);
	for (long i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	free(th);
	return 0;
}

static void spin_cpu_ms(long ms);

/* forkserver: a process a connection, as PostgreSQL's postmaster */
static void serve_one(int c, long ms)
{
	char b[8];

	prctl(PR_SET_NAME, "conn");
	if (read(c, b, 1) != 1)
		_exit(1);
	spin_cpu_ms(ms);
	_exit(write(c, "r", 1) == 1 ? 0 : 1);
}

static void client_loop(const char *path, long n)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	char b;

	prctl(PR_SET_NAME, "client");
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	for (long i = 0; i < n; i++) {
		int s = socket(AF_UNIX, SOCK_STREAM, 0);

		if (s < 0 || connect(s, (struct sockaddr *)&a, sizeof(a)) ||
		    write(s, "q", 1) != 1 || read(s, &b, 1) != 1)
			_exit(1);
		close(s);
	}
	_exit(0);
}

static int forkserver(long n, long ms)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int l = socket(AF_UNIX, SOCK_STREAM, 0), st, bad = 0;
	pid_t client;

	snprintf(a.sun_path, sizeof(a.sun_path), ".forkserver.%d", (int)getpid());
	if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 8))
		return 1;
	if ((client = fork()) == 0)
		client_loop(a.sun_path, n);
	for (long i = 0; i < n && client > 0; i++) {
		int c = accept4(l, NULL, NULL, SOCK_CLOEXEC);
		pid_t w;

		if (c < 0)
			break;
		if ((w = fork()) == 0)
			serve_one(c, ms);
		close(c);
		bad |= w < 0 || waitpid(w, &st, 0) != w || !WIFEXITED(st) || WEXITSTATUS(st);
	}
	bad |= client <= 0 || waitpid(client, &st, 0) != client || WEXITSTATUS(st);
	unlink(a.sun_path);
	return bad;
}

/* ms of CPU time, spent spinning */
static void spin_cpu_ms(long ms)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	do
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

static int forker(long n, long ms)
{
	for (long i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			prctl(PR_SET_NAME, "forked");
			(void)!getppid();
			spin_cpu_ms(ms);
			_exit(0);
		}
		if (pid < 0 || waitpid(pid, NULL, 0) != pid)
			return 1;
	}
	return 0;
}

/* ms of the process's CPU time spent spinning in user space: its clock is
 * read once every few hundred microseconds of work, so a CPU sample lands
 * in the caller's frames (not in clock_gettime's syscall), and a machine
 * busy with other work stretches the wall time, not the CPU time. */
static void spin_user_ms(long ms)
{
	struct timespec t0, t;
	volatile unsigned long x = 0;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	do {
		for (int i = 0; i < 1000000; i++)
			x += (unsigned long)i;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

/* Each its own frame in a CPU stack (noinline: named, not folded in). */
static __attribute__((noinline)) void spin_before_exec(long ms)
{
	spin_user_ms(ms);
	__asm__ volatile("" ::: "memory");
}

static __attribute__((noinline)) void spin_after_exec(long ms)
{
	spin_user_ms(ms);
	__asm__ volatile("" ::: "memory");
}

static int execspin(long ms)
{
	char arg[24];

	spin_before_exec(ms);
	snprintf(arg, sizeof(arg), "%ld", ms);
	execl("/proc/self/exe", "target_prog", "execspun", arg, (char *)NULL);
	return 1;
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

/* ---- latch: two processes, each asleep in epoll_wait until the other
 * sets its latch ---------------------------------------------------------- */

struct latch_side {
	int pipe[2];		/* the self-pipe: readable when the latch is set */
	int ep;
	volatile long vcsw;	/* its voluntary switches just before it waits */
};

static struct latch_side *latch_sides;	/* [0] a, [1] b, shared */
static int latch_me;

static void latch_handler(int sig)
{
	(void)sig;
	(void)!write(latch_sides[latch_me].pipe[1], "s", 1);
}

static long own_vcsw(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return ru.ru_nvcsw;
}

/* Wait for process pid to be asleep past its vcsw mark. */
static void latch_until_asleep(pid_t pid, long mark)
{
	char path[64], line[128], st = 0;
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	while (st != 'S' || v <= mark) {
		st = 0;
		v = -1;
		if (!(f = fopen(path, "r")))
			return;
		while (fgets(line, sizeof(line), f)) {
			sscanf(line, "State: %c", &st);
			sscanf(line, "voluntary_ctxt_switches: %ld", &v);
		}
		fclose(f);
		if (st != 'S' || v <= mark)
			sched_yield();
	}
}

/* Sleep in epoll_wait until the latch is set; then clear it. */
static void latch_wait(struct latch_side *me)
{
	struct epoll_event ev;
	char buf[16];

	me->vcsw = own_vcsw();
	while (epoll_wait(me->ep, &ev, 1, -1) != 1)
		;
	while (read(me->pipe[0], buf, sizeof(buf)) > 0)
		;
}

static void latch_open(struct latch_side *s)
{
	struct epoll_event ev = { .events = EPOLLIN };

	(void)!pipe2(s->pipe, O_NONBLOCK | O_CLOEXEC);
	s->ep = epoll_create1(EPOLL_CLOEXEC);
	epoll_ctl(s->ep, EPOLL_CTL_ADD, s->pipe[0], &ev);
	s->vcsw = -1;
}

static int latch(long n)
{
	struct sigaction sa = { .sa_handler = latch_handler };
	struct latch_side *a, *b;
	pid_t pb;

	latch_sides = mmap(NULL, 2 * sizeof(*latch_sides), PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (latch_sides == MAP_FAILED)
		return 1;
	a = &latch_sides[0];
	b = &latch_sides[1];
	latch_open(a);
	latch_open(b);
	sigaction(SIGUSR1, &sa, NULL);
	if ((pb = fork()) == 0) {
		latch_me = 1;
		prctl(PR_SET_NAME, "latch-b");
		for (long i = 0; i < n; i++) {
			latch_wait(b);			/* a's kill */
			while (a->vcsw < 0)
				sched_yield();
			latch_until_asleep(getppid(), a->vcsw);
			(void)!write(a->pipe[1], "w", 1);	/* a's latch, directly */
		}
		_exit(0);
	}
	prctl(PR_SET_NAME, "latch-a");
	for (long i = 0; i < n; i++) {
		while (b->vcsw < 0)
			sched_yield();
		latch_until_asleep(pb, b->vcsw);
		b->vcsw = -1;
		kill(pb, SIGUSR1);
		latch_wait(a);				/* b's write */
		a->vcsw = -1;
	}
	return waitpid(pb, NULL, 0) == pb ? 0 : 1;
}

#define SEMLOCK_PROCS	3
#define SEMLOCK_HOLD_MS	2

__attribute__((noinline)) static void semlock_section(sem_t *sem)
{
	while (sem_wait(sem))
		;
	sleep_ms(SEMLOCK_HOLD_MS);
	sem_post(sem);
}

static int semlock(long n)
{
	sem_t *sem = mmap(NULL, sizeof(*sem), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			  -1, 0);
	char name[16];
	int me = 0;

	if (sem == MAP_FAILED || sem_init(sem, 1, 1))
		return 1;
	for (int i = 1; i < SEMLOCK_PROCS && !me; i++)
		if (fork() == 0)
			me = i;
	snprintf(name, sizeof(name), "semlock-%d", me);
	prctl(PR_SET_NAME, name);
	for (long i = 0; i < n; i++) {
		semlock_section(sem);
		sched_yield();
	}
	if (me)
		_exit(0);
	while (wait(NULL) > 0)
		;
	return 0;
}

static int durable(long n)
{
	char name[] = "target_prog.fsync.XXXXXX", buf[4096];
	int fd = mkstemp(name), bad = fd < 0;

	memset(buf, 'd', sizeof(buf));
	for (long i = 0; i < n && !bad; i++)
		bad = write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf) || fdatasync(fd);
	if (fd >= 0) {
		unlink(name);
		close(fd);
	}
	return bad;
}

/* uring: n one-block reads of a file it made, through one io_uring ring
 * (tests/lib/uring.c); the file is removed */
static int uring(long n)
{
	static char buf[4 * 4096] __attribute__((aligned(4096)));
	char name[] = "target_prog.uring.XXXXXX";
	int fd = mkstemp(name), bad = fd < 0, got = -1;

	memset(buf, 'u', sizeof(buf));
	for (long i = 0; i < 2 * n && !bad; i++)
		bad = write(fd, buf, 4096) != 4096;
	if (!bad)
		got = uring_read_blocks(fd, buf, 4096, (unsigned)n);
	if (fd >= 0) {
		unlink(name);
		close(fd);
	}
	return bad || got != n;
}

#define TREE_MAX	16

/* One process of tree: started, asleep until a byte arrives, then its
 * known number of preads. */
static void tree_member(const char *name, int npreads, int started, int go)
{
	char c;

	prctl(PR_SET_NAME, name);
	(void)!write(started, "s", 1);
	if (read(go, &c, 1) == 1)
		preads(npreads);
}

static int tree(long n)
{
	int started[2], go[2];
	pid_t kids[TREE_MAX];
	char name[16], c, line[16];

	if (n < 1 || n > TREE_MAX || pipe(started) || pipe(go))
		return 2;
	for (long i = 0; i < n; i++) {
		if ((kids[i] = fork()) < 0)
			return 1;
		if (kids[i])
			continue;
		if (i == 0 && fork() == 0) {
			tree_member("grandchild", 50, started[1], go[0]);
			_exit(0);
		}
		snprintf(name, sizeof(name), "child-%ld", i);
		tree_member(name, 100 * ((int)i + 1), started[1], go[0]);
		while (wait(NULL) > 0)
			;
		_exit(0);
	}
	for (long i = 0; i <= n; i++)		/* every one is in read() soon after */
		if (read(started[0], &c, 1) != 1)
			return 1;
	printf("ready");
	for (long i = 0; i < n; i++)
		printf(" %d", (int)kids[i]);
	printf("\n");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 1;
	for (long i = 0; i <= n; i++)
		(void)!write(go[1], "g", 1);
	while (wait(NULL) > 0)
		;
	return 0;
}

/* ---- paths: two call paths to one lock, 3 waits to 1 ------------------- */

pthread_mutex_t paths_lock = PTHREAD_MUTEX_INITIALIZER;
static sem_t paths_go, paths_done;
static volatile pid_t paths_tid;
static volatile long paths_sink;

__attribute__((noinline)) void lookup_locked(long k)
{
	pthread_mutex_lock(&paths_lock);
	paths_sink += k;
	pthread_mutex_unlock(&paths_lock);
}

/* the volatile adds after the calls keep them calls, not tail jumps */
__attribute__((noinline)) void handle_get(long k)
{
	lookup_locked(k);
	paths_sink++;
}

__attribute__((noinline)) void handle_put(long k)
{
	lookup_locked(k);
	paths_sink++;
}

static void *paths_worker(void *arg)
{
	long t = (long)arg;

	pthread_setname_np(pthread_self(), "worker");
	paths_tid = (pid_t)syscall(SYS_gettid);
	for (long k = 0; k < 4; k++) {
		sem_wait(&paths_go);
		if (k == t % 4)
			handle_put(k);
		else
			handle_get(k);
		sem_post(&paths_done);
	}
	return NULL;
}

/* Until thread tid sleeps in futex on paths_lock (at most 2 s). */
static void wait_blocked(pid_t tid)
{
	char path[64], buf[128];
	unsigned long want = (unsigned long)&paths_lock;

	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", (int)tid);
	for (int i = 0; i < 10000; i++) {
		FILE *f = fopen(path, "re");
		long nr = -1;
		unsigned long a0 = 0;

		if (f && fgets(buf, sizeof(buf), f) && sscanf(buf, "%ld %lx", &nr, &a0) == 2 &&
		    nr == SYS_futex && a0 == want) {
			fclose(f);
			return;
		}
		if (f)
			fclose(f);
		usleep(200);
	}
}

static int paths(long n)
{
	sem_init(&paths_go, 0, 0);
	sem_init(&paths_done, 0, 0);
	for (long t = 0; t < n; t++) {
		pthread_t th;

		paths_tid = 0;
		pthread_create(&th, NULL, paths_worker, (void *)t);
		while (!paths_tid)
			usleep(100);
		for (int k = 0; k < 4; k++) {
			pthread_mutex_lock(&paths_lock);
			sem_post(&paths_go);
			wait_blocked(paths_tid);
			sleep_ms(1);
			pthread_mutex_unlock(&paths_lock);
			sem_wait(&paths_done);
		}
		pthread_join(th, NULL);
	}
	return 0;
}

/*
 * chain N: a lock chain. "outer" threads (two) each take outer_lock N
 * times and, holding it, take inner_lock (then sleep 1 ms outside both);
 * an "inner" thread keeps taking inner_lock and sleeping CHAIN_MS holding
 * it, 0.1 ms apart. So outer_lock's holders
 * wait for inner_lock while holding it: most of outer_lock's held time
 * is waiting for another lock, and that lock is inner_lock.
 */
#define CHAIN_MS	2
static pthread_mutex_t outer_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t inner_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int chain_left;

static void *chain_outer(void *arg)
{
	long n = (long)arg;

	pthread_setname_np(pthread_self(), "outer");
	for (long i = 0; i < n; i++) {
		pthread_mutex_lock(&outer_lock);
		pthread_mutex_lock(&inner_lock);
		pthread_mutex_unlock(&inner_lock);
		pthread_mutex_unlock(&outer_lock);
		sleep_ms(1);
	}
	atomic_fetch_sub(&chain_left, 1);
	return NULL;
}

static void *chain_inner(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "inner");
	while (atomic_load(&chain_left) > 0) {
		pthread_mutex_lock(&inner_lock);
		sleep_ms(CHAIN_MS);
		pthread_mutex_unlock(&inner_lock);
		usleep(100);
	}
	return NULL;
}

static int chain(long n)
{
	pthread_t th[3];

	atomic_store(&chain_left, 2);
	pthread_create(&th[2], NULL, chain_inner, NULL);
	for (long i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, chain_outer, (void *)n);
	for (int i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	return 0;
}

/* ---- coldread: two call paths into cold page-cache reads, 3 to 1 ------- */

#define COLD_PAGE	4096
static uint64_t cold_ns[2];	/* asleep in pread64: [0] load_index, [1] load_blob */
static volatile long cold_sink;
static int cold_stat = -1;	/* /proc/thread-self/schedstat */

static uint64_t clock_of(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The thread's time waiting for a CPU (schedstat's second field). */
static uint64_t runq_wait_ns(void)
{
	char buf[96];
	unsigned long long run, wait;
	ssize_t n = pread(cold_stat, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		exit(1);
	buf[n] = '\0';
	return sscanf(buf, "%llu %llu", &run, &wait) == 2 ? wait : 0;
}

/* Asleep inside the pread: its wall time less its CPU and run-queue time. */
__attribute__((noinline)) void read_page(int fd, long page, int path)
{
	char buf[256];		/* small: the caller's frames stay in a sampled slice */
	uint64_t w0 = clock_of(CLOCK_MONOTONIC), c0 = clock_of(CLOCK_THREAD_CPUTIME_ID);
	uint64_t q0 = runq_wait_ns(), w, c, q;

	if (pread(fd, buf, sizeof(buf), page * COLD_PAGE) != sizeof(buf))
		exit(1);
	q = runq_wait_ns() - q0;
	c = clock_of(CLOCK_THREAD_CPUTIME_ID) - c0;
	w = clock_of(CLOCK_MONOTONIC) - w0;
	cold_ns[path] += w > c + q ? w - c - q : 0;
	cold_sink += buf[0];
}

__attribute__((noinline)) void load_index(int fd, long round)
{
	for (long k = 0; k < 3; k++)
		read_page(fd, 4 * round + k, 0);
	cold_sink++;
}

__attribute__((noinline)) void load_blob(int fd, long round)
{
	read_page(fd, 4 * round + 3, 1);
	cold_sink++;
}

/* A file of 4 n pages, clean (synced) so that DONTNEED drops them. */
static int cold_file(long n, char *name, size_t len)
{
	char page[COLD_PAGE];
	int fd;

	snprintf(name, len, ".coldread.%d", (int)getpid());
	fd = open(name, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	for (long i = 0; i < 4 * n; i++) {
		memset(page, (int)(i & 0xff), sizeof(page));
		if (write(fd, page, sizeof(page)) != sizeof(page))
			return -1;
	}
	if (fsync(fd) || posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM))
		return -1;
	return fd;
}

static int coldread(long n, const char *out)
{
	char name[64];
	FILE *f;
	int fd;

	prctl(PR_SET_NAME, "reader");
	fd = cold_file(n, name, sizeof(name));
	cold_stat = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || cold_stat < 0 || !out)
		return 1;
	for (long r = 0; r < n; r++) {
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		load_index(fd, r);
		load_blob(fd, r);
	}
	close(fd);
	unlink(name);
	f = fopen(out, "we");
	if (!f)
		return 1;
	fprintf(f, "%llu %llu\n", (unsigned long long)cold_ns[0], (unsigned long long)cold_ns[1]);
	return fclose(f) ? 1 : 0;
}

#define GC_WRITERS	3

static pthread_mutex_t gc_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gc_work = PTHREAD_COND_INITIALIZER;	/* records to flush */
static pthread_cond_t gc_commit = PTHREAD_COND_INITIALIZER;	/* flushed past them */
static long gc_appended, gc_flushed, gc_flushes;
static int gc_fd = -1, gc_done;

static void *gc_writer(void *arg)
{
	char name[16], rec[512];
	long n = (long)arg;

	memset(rec, 'r', sizeof(rec));
	snprintf(name, sizeof(name), "writer-%ld", n % 10);
	pthread_setname_np(pthread_self(), name);
	for (long i = 0; i < n / 10; i++) {
		long mine;

		pthread_mutex_lock(&gc_mu);
		if (write(gc_fd, rec, sizeof(rec)) != (ssize_t)sizeof(rec))
			abort();
		mine = ++gc_appended;
		pthread_cond_signal(&gc_work);
		while (gc_flushed < mine)
			pthread_cond_wait(&gc_commit, &gc_mu);
		pthread_mutex_unlock(&gc_mu);
	}
	return NULL;
}

static void *gc_flusher(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "flusher");
	for (;;) {
		long upto;

		pthread_mutex_lock(&gc_mu);
		while (gc_appended == gc_flushed && !gc_done)
			pthread_cond_wait(&gc_work, &gc_mu);
		upto = gc_appended;
		if (upto == gc_flushed) {	/* done, nothing left */
			pthread_mutex_unlock(&gc_mu);
			return NULL;
		}
		pthread_mutex_unlock(&gc_mu);
		if (fdatasync(gc_fd))
			abort();
		pthread_mutex_lock(&gc_mu);
		gc_flushed = upto;
		gc_flushes++;
		pthread_cond_broadcast(&gc_commit);
		pthread_mutex_unlock(&gc_mu);
	}
}

static int groupcommit(long n)
{
	char name[] = "target_prog.wal.XXXXXX";
	pthread_t w[GC_WRITERS], f;

	if ((gc_fd = mkstemp(name)) < 0)
		return 1;
	unlink(name);
	pthread_create(&f, NULL, gc_flusher, NULL);
	for (long i = 0; i < GC_WRITERS; i++)	/* n records each, the index in the units */
		pthread_create(&w[i], NULL, gc_writer, (void *)(n * 10 + i));
	for (int i = 0; i < GC_WRITERS; i++)
		pthread_join(w[i], NULL);
	pthread_mutex_lock(&gc_mu);
	gc_done = 1;
	pthread_cond_signal(&gc_work);
	pthread_mutex_unlock(&gc_mu);
	pthread_join(f, NULL);
	close(gc_fd);
	printf("flushes %ld\n", gc_flushes);
	return 0;
}

/* ---- sharedpool: two processes read the same pages, sharing memory or not */

#define POOL_PAGE	4096

static void pool_reader(const char *name, const char *file, long n, volatile char *shm)
{
	char page[POOL_PAGE];
	int fd;

	prctl(PR_SET_NAME, name);
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		_exit(1);
	for (long i = 0; i < n; i++) {
		if (pread(fd, page, sizeof(page), i * POOL_PAGE) != sizeof(page))
			_exit(1);
		if (shm)	/* the "pool": written, as a cache would */
			shm[(i * POOL_PAGE) % (2 << 20)] = page[0];
	}
	_exit(0);
}

static int sharedpool(long n, int shared)
{
	char name[64], page[POOL_PAGE];
	const char *who[2] = { "pool-a", "pool-b" };
	volatile char *shm = NULL;
	int fd, st, bad = 0;

	snprintf(name, sizeof(name), ".sharedpool.%d", (int)getpid());
	fd = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return 1;
	memset(page, 'p', sizeof(page));
	for (long i = 0; i < n; i++)
		if (write(fd, page, sizeof(page)) != sizeof(page))
			return 1;
	close(fd);
	if (shared) {
		void *m = mmap(NULL, 2 << 20, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			       -1, 0);

		if (m == MAP_FAILED)
			return 1;
		shm = m;
		shm[0] = 1;
	}
	for (int k = 0; k < 2; k++) {	/* one after the other: b's reads all re-reads */
		pid_t c = fork();

		if (c == 0)
			pool_reader(who[k], name, n, shm);
		if (c < 0 || waitpid(c, &st, 0) != c || !WIFEXITED(st) || WEXITSTATUS(st))
			bad = 1;
	}
	unlink(name);
	return bad;
}

/* ---- mutexes: several contended mutexes, the first the most ---------- */

#define MUTEXES_MAX	8
#define MUTEXES_THREADS	4
static pthread_mutex_t mutexes[MUTEXES_MAX];
static long mutexes_n, mutexes_ms, mutexes_holds[MUTEXES_MAX];

static void *mutexes_worker(void *arg)
{
	long turns = mutexes_n * (mutexes_n + 1) / 2, k = (long)arg;
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		long t = k++ % turns, i = 0;

		while (t >= mutexes_n - i)	/* mutex i has n - i turns */
			t -= mutexes_n - i++;
		pthread_mutex_lock(&mutexes[i]);
		mutexes_holds[i]++;
		getppid();
		getppid();
		spin_us(20);
		pthread_mutex_unlock(&mutexes[i]);
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while ((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 < mutexes_ms);
	return NULL;
}

static int mutexes_run(long n, long ms)
{
	pthread_t th[MUTEXES_THREADS];

	mutexes_n = n < 1 ? 1 : n > MUTEXES_MAX ? MUTEXES_MAX : n;
	mutexes_ms = ms;
	for (long i = 0; i < mutexes_n; i++)
		pthread_mutex_init(&mutexes[i], NULL);
	for (long i = 0; i < MUTEXES_THREADS; i++)
		pthread_create(&th[i], NULL, mutexes_worker, (void *)(i * 7));
	for (long i = 0; i < MUTEXES_THREADS; i++)
		pthread_join(th[i], NULL);
	for (long i = 0; i < mutexes_n; i++)
		printf("mutex %ld holds %ld\n", i, mutexes_holds[i]);
	return 0;
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 0;

	if (argc < 3) {
		fprintf(stderr, "usage: target_prog hold|fork|serve|sleep|turns|escape|bss|threads|crowd|churn|forker|\n"
			"       fanout|words|zleader|tree|latch|fsync|uring|semlock|paths|workq|chain|coldread|\n"
			"       groupcommit|mutexes|sharedpool|execspin N\n");
		return 2;
	}
	if (!strcmp(argv[1], "hold"))
		return hold(n);
	if (!strcmp(argv[1], "execspin"))
		return execspin(n);
	if (!strcmp(argv[1], "execspun")) {
		spin_after_exec(n);
		return 0;
	}
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
		return threads(n, argc > 3 && !strcmp(argv[3], "together"));
	if (!strcmp(argv[1], "crowd"))
		return crowd(n);
	if (!strcmp(argv[1], "churn"))
		return churn(n, argc > 3 ? atol(argv[3]) : 5, argc > 4 && !strcmp(argv[4], "wide"));
	if (!strcmp(argv[1], "workq"))
		return workq(n);
	if (!strcmp(argv[1], "forkserver"))
		return forkserver(n, argc > 3 ? atol(argv[3]) : 0);
	if (!strcmp(argv[1], "forker"))
		return forker(n, argc > 3 ? atol(argv[3]) : 0);
	if (!strcmp(argv[1], "fanout"))
		return fanout(n);
	if (!strcmp(argv[1], "words"))
		return words(n);
	if (!strcmp(argv[1], "zleader"))
		return zleader(n);
	if (!strcmp(argv[1], "tree"))
		return tree(n);
	if (!strcmp(argv[1], "latch"))
		return latch(n);
	if (!strcmp(argv[1], "fsync"))
		return durable(n);
	if (!strcmp(argv[1], "uring"))
		return uring(n);
	if (!strcmp(argv[1], "semlock"))
		return semlock(n);
	if (!strcmp(argv[1], "paths"))
		return paths(n);
	if (!strcmp(argv[1], "chain"))
		return chain(n);
	if (!strcmp(argv[1], "groupcommit"))
		return groupcommit(n);
	if (!strcmp(argv[1], "mutexes"))
		return mutexes_run(n, argc > 3 ? atol(argv[3]) : 1000);
	if (!strcmp(argv[1], "sharedpool"))
		return sharedpool(n, argc > 3 && atoi(argv[3]) == 1);
	if (!strcmp(argv[1], "coldread"))
		return coldread(n, argc > 3 ? argv[3] : NULL);
	if (!strcmp(argv[1], "sleep")) {
		sleep_ms(n);
		return 0;
	}
	return 2;
}
