/*
 * holdprog.c - a program fctrace did not write, for the holders probes'
 * ground truth: N threads share one static pthread mutex guarding a
 * handle table (file -> open fd, LRU, capacity C). A hit only touches
 * the table (user work); a miss stats and opens the file and closes the
 * evicted one - inside the lock, or with --fixed outside it. Outside the
 * lock each op reads 4 KiB from a file of the thread's own (pread64) and
 * spins a little.
 *
 * The program times itself with CLOCK_MONOTONIC (the vDSO: no syscall):
 * every hold, from the lock's return to the unlock, and every syscall it
 * makes inside the lock. At exit it prints them as one JSON object:
 *   wall_ns, holds, held_ns, misses, syscalls_in_lock {name: count},
 *   syscall_ns_in_lock, syscall_ns_by_name {name: ns}
 *
 * --hold-ns: every hold also spins HOLD_NS nanoseconds (user work in
 * the lock beside its syscalls).
 *
 * --preempt: every hold also does HOLD_US microseconds of CPU work (a
 * loop calibrated alone at start), and SPINNERS
 * threads burn CPU the whole run: more runnable threads than CPUs, so
 * holders are preempted inside the lock.
 *
 * --cold: the files' pages are dropped (posix_fadvise DONTNEED) before
 * the run, and a miss also reads the new file's first page, and drops
 * the evicted file's pages before it closes it, inside the lock: the
 * holder sleeps in I/O there (a page-cache miss on a file read again).
 *
 * --fifo: the workers run SCHED_FIFO (priority 1; root): the spinners
 * (SCHED_OTHER) never preempt a holder, so with --preempt it is the
 * program the "holders never preempted" what-if describes. Exit status 3
 * when the scheduler refuses it.
 *
 * Built alone (no fctrace headers), like tests/target_prog.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

enum { SC_STAT, SC_OPEN, SC_PREAD, SC_FADVISE, SC_CLOSE, SC_N };
static const char *const sc_names[SC_N] = { "newfstatat", "openat", "pread64", "fadvise64",
					    "close" };

struct cfg {
	int threads, ops, files, cap, spinners;
	int hold_us, hold_ns, work_ns;
	int fixed, preempt, cold, fifo;
	char dir[64];
};

struct entry {
	int file;		/* -1: free */
	int fd;
	uint64_t used;		/* LRU clock */
};

/* the lock under study: a static normal mutex */
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static struct entry *table;
static uint64_t lru_clock;
static struct cfg cfg;
static atomic_int stop_spinners;
/* the workers start together, so the lock is contended from its first
 * hold (the probes watch a word from its first contended wait on) */
static pthread_barrier_t start_gate;

struct tstats {
	uint64_t holds, held_ns, misses;
	uint64_t sc_count[SC_N], sc_ns[SC_N];
	pthread_t th;
	unsigned seed;
	uint64_t start_ns, end_ns;	/* its work, gate to last op */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void spin_ns(uint64_t ns)
{
	uint64_t end = now_ns() + ns;

	while (now_ns() < end)
		;
}

static unsigned next_rand(unsigned *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static void file_path(char *buf, size_t n, int file)
{
	snprintf(buf, n, "%s/f%04d", cfg.dir, file);
}

/* --preempt's hold: CPU work, not a wall-clock spin (a holder preempted
 * in a wall-clock spin would find its time up sooner): this many loop
 * turns make one microsecond, measured alone before the threads start. */
static uint64_t turns_per_us;
static volatile uint64_t sink;

static void spin_turns(uint64_t n)
{
	uint64_t x = sink;

	for (uint64_t i = 0; i < n; i++)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	sink = x;
}

/* Turns per microsecond of this thread's CPU time (not wall time: a
 * calibration preempted by other work would come out short). */
static void calibrate(void)
{
	uint64_t n = 1 << 16, t0, d;
	struct timespec ts;

	for (;;) {
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
		t0 = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
		spin_turns(n);
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
		d = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec - t0;
		if (d >= 20000000 || n >= (1ull << 40))
			break;
		n *= 2;
	}
	turns_per_us = n * 1000 / (d ? d : 1);
	if (!turns_per_us)
		turns_per_us = 1;
}

/* User work in every hold: --preempt's long spin, or --hold-ns. */
static void hold_work(void)
{
	if (cfg.preempt)
		spin_turns(turns_per_us * (uint64_t)cfg.hold_us);
	else
		spin_ns((uint64_t)cfg.hold_ns);
}

/* Time one syscall made inside the lock. */
#define TIMED(st, kind, call)						\
	({ uint64_t t0_ = now_ns(); long r_ = (call);			\
	   (st)->sc_ns[kind] += now_ns() - t0_; (st)->sc_count[kind]++; r_; })

/* The slot holding file, or -1; bumps its LRU stamp (lock held). */
static int lookup(int file)
{
	for (int i = 0; i < cfg.cap; i++)
		if (table[i].file == file) {
			table[i].used = ++lru_clock;
			return i;
		}
	return -1;
}

/* A slot for a new entry: a free one, or the least recently used one,
 * whose fd is returned in *victim (-1 if none) (lock held). */
static int victim_slot(int *victim)
{
	int v = 0;

	*victim = -1;
	for (int i = 0; i < cfg.cap; i++) {
		if (table[i].file < 0)
			return i;
		if (table[i].used < table[v].used)
			v = i;
	}
	*victim = table[v].fd;
	return v;
}

static void insert(int slot, int file, int fd)
{
	table[slot].file = file;
	table[slot].fd = fd;
	table[slot].used = ++lru_clock;
}

/* One op with the syscalls inside the lock (the pool's design). */
static void op_locked(struct tstats *st, int file)
{
	char path[128], page[4096];
	struct stat sb;
	uint64_t t0;
	int victim, slot, fd;

	file_path(path, sizeof(path), file);
	pthread_mutex_lock(&table_lock);
	t0 = now_ns();
	if (lookup(file) < 0) {
		st->misses++;
		TIMED(st, SC_STAT, fstatat(AT_FDCWD, path, &sb, 0));
		fd = TIMED(st, SC_OPEN, openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC));
		if (cfg.cold && fd >= 0)
			TIMED(st, SC_PREAD, pread(fd, page, sizeof(page), 0));
		slot = victim_slot(&victim);
		if (cfg.cold && victim >= 0)
			TIMED(st, SC_FADVISE, posix_fadvise(victim, 0, 0, POSIX_FADV_DONTNEED));
		if (victim >= 0)
			TIMED(st, SC_CLOSE, close(victim));
		insert(slot, file, fd);
	}
	hold_work();
	st->held_ns += now_ns() - t0;
	st->holds++;
	pthread_mutex_unlock(&table_lock);
}

/* Take the lock and time the hold until release_hold. */
static uint64_t take(void)
{
	pthread_mutex_lock(&table_lock);
	return now_ns();
}

static void release_hold(struct tstats *st, uint64_t t0)
{
	st->held_ns += now_ns() - t0;
	st->holds++;
	pthread_mutex_unlock(&table_lock);
}

/* The same op with the syscalls outside the lock (--fixed). */
static void op_fixed(struct tstats *st, int file)
{
	char path[128], page[4096];
	struct stat sb;
	uint64_t t0 = take();
	int victim = -1, slot, fd;

	hold_work();
	if (lookup(file) >= 0) {
		release_hold(st, t0);
		return;
	}
	release_hold(st, t0);
	st->misses++;
	file_path(path, sizeof(path), file);
	fstatat(AT_FDCWD, path, &sb, 0);
	fd = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	if (cfg.cold && fd >= 0)
		(void)!pread(fd, page, sizeof(page), 0);
	t0 = take();
	if (lookup(file) >= 0) {	/* another thread opened it meanwhile */
		victim = fd;
	} else {
		slot = victim_slot(&victim);
		insert(slot, file, fd);
	}
	release_hold(st, t0);
	if (cfg.cold && victim >= 0)
		posix_fadvise(victim, 0, 0, POSIX_FADV_DONTNEED);
	if (victim >= 0)
		close(victim);
}

static void *worker(void *arg)
{
	struct tstats *st = arg;
	char buf[4096], path[128];
	int own;

	file_path(path, sizeof(path), next_rand(&st->seed) % cfg.files);
	own = open(path, O_RDONLY | O_CLOEXEC);
	if (cfg.fifo) {
		struct sched_param sp = { .sched_priority = 1 };

		if (pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp)) {
			fprintf(stderr, "holdprog: SCHED_FIFO refused\n");
			exit(3);	/* the variant cannot be had here */
		}
	}
	pthread_barrier_wait(&start_gate);
	st->start_ns = now_ns();
	for (int i = 0; i < cfg.ops; i++) {
		int file = next_rand(&st->seed) % cfg.files;

		if (cfg.fixed)
			op_fixed(st, file);
		else
			op_locked(st, file);
		if (own >= 0 && pread(own, buf, sizeof(buf), 0) < 0)
			break;
		spin_ns(cfg.work_ns);
	}
	st->end_ns = now_ns();
	if (own >= 0)
		close(own);
	return NULL;
}

static void *spinner(void *arg)
{
	while (!atomic_load_explicit(&stop_spinners, memory_order_relaxed))
		;
	return NULL;
}

static int make_files(void)
{
	char path[128], data[4096];

	snprintf(cfg.dir, sizeof(cfg.dir), "/tmp/holdprog.XXXXXX");
	if (!mkdtemp(cfg.dir))
		return -1;
	memset(data, 'x', sizeof(data));
	for (int f = 0; f < cfg.files; f++) {
		int fd;

		file_path(path, sizeof(path), f);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || write(fd, data, sizeof(data)) != (ssize_t)sizeof(data))
			return -1;
		/* --cold: clean pages can be dropped, dirty ones cannot */
		if (cfg.cold && (fdatasync(fd) || posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)))
			return -1;
		close(fd);
	}
	return 0;
}

static void remove_files(void)
{
	char path[128];

	for (int f = 0; f < cfg.files; f++) {
		file_path(path, sizeof(path), f);
		unlink(path);
	}
	rmdir(cfg.dir);
}

static void print_json(const struct tstats *all, uint64_t wall)
{
	struct tstats s = { 0 };
	uint64_t sc_ns = 0;

	for (int i = 0; i < cfg.threads; i++) {
		s.holds += all[i].holds;
		s.held_ns += all[i].held_ns;
		s.misses += all[i].misses;
		for (int k = 0; k < SC_N; k++) {
			s.sc_count[k] += all[i].sc_count[k];
			s.sc_ns[k] += all[i].sc_ns[k];
		}
	}
	for (int k = 0; k < SC_N; k++)
		sc_ns += s.sc_ns[k];
	printf("{\"mode\": \"%s\", \"cold\": %d, \"threads\": %d, \"spinners\": %d, \"ops\": %d, \"files\": %d, "
	       "\"cap\": %d, \"wall_ns\": %llu, \"holds\": %llu, \"held_ns\": %llu, "
	       "\"misses\": %llu, \"syscall_ns_in_lock\": %llu, \"syscalls_in_lock\": {",
	       cfg.fixed ? "fixed" : "locked", cfg.cold, cfg.threads, cfg.preempt ? cfg.spinners : 0,
	       cfg.ops, cfg.files, cfg.cap, (unsigned long long)wall,
	       (unsigned long long)s.holds, (unsigned long long)s.held_ns,
	       (unsigned long long)s.misses, (unsigned long long)sc_ns);
	for (int k = 0; k < SC_N; k++)
		printf("%s\"%s\": %llu", k ? ", " : "", sc_names[k],
		       (unsigned long long)s.sc_count[k]);
	printf("}, \"syscall_ns_by_name\": {");
	for (int k = 0; k < SC_N; k++)
		printf("%s\"%s\": %llu", k ? ", " : "", sc_names[k], (unsigned long long)s.sc_ns[k]);
	printf("}}\n");
}

static int usage(void)
{
	fprintf(stderr, "usage: holdprog [--threads N] [--ops N] [--files N] [--cap N] "
		"[--work-ns N] [--hold-ns N] [--fixed] [--cold] [--fifo] [--preempt [--hold-us N] "
		"[--spinners N]]\n");
	return 2;
}

static int parse(int argc, char **argv)
{
	cfg = (struct cfg){ .threads = 8, .ops = 20000, .files = 60, .cap = 50,
			    .spinners = 4, .hold_us = 200, .work_ns = 2000 };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int *v = !strcmp(a, "--threads") ? &cfg.threads : !strcmp(a, "--ops") ? &cfg.ops :
			 !strcmp(a, "--files") ? &cfg.files : !strcmp(a, "--cap") ? &cfg.cap :
			 !strcmp(a, "--hold-us") ? &cfg.hold_us :
			 !strcmp(a, "--hold-ns") ? &cfg.hold_ns :
			 !strcmp(a, "--spinners") ? &cfg.spinners :
			 !strcmp(a, "--work-ns") ? &cfg.work_ns : NULL;

		if (!strcmp(a, "--fixed"))
			cfg.fixed = 1;
		else if (!strcmp(a, "--preempt"))
			cfg.preempt = 1;
		else if (!strcmp(a, "--cold"))
			cfg.cold = 1;
		else if (!strcmp(a, "--fifo"))
			cfg.fifo = 1;
		else if (v && i + 1 < argc)
			*v = atoi(argv[++i]);
		else
			return -1;
	}
	if (cfg.threads < 1 || cfg.threads > 256 || cfg.ops < 1 || cfg.files < 1 ||
	    cfg.cap < 1 || cfg.spinners < 0 || cfg.hold_us < 0 || cfg.hold_ns < 0 || cfg.work_ns < 0)
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	struct tstats *st;
	pthread_t *sp = NULL;
	uint64_t t0, wall;
	int nsp;

	if (parse(argc, argv))
		return usage();
	table = calloc(cfg.cap, sizeof(*table));
	st = calloc(cfg.threads, sizeof(*st));
	nsp = cfg.preempt ? cfg.spinners : 0;
	if (nsp)
		sp = calloc(nsp, sizeof(*sp));
	if (!table || !st || (nsp && !sp) || make_files()) {
		fprintf(stderr, "holdprog: setup failed: %s\n", strerror(errno));
		return 1;
	}
	for (int i = 0; i < cfg.cap; i++)
		table[i].file = -1;
	if (cfg.preempt)
		calibrate();
	pthread_barrier_init(&start_gate, NULL, (unsigned)cfg.threads + 1);
	for (int i = 0; i < cfg.threads; i++) {
		st[i].seed = 2463534242u + 7919u * (unsigned)i;
		pthread_create(&st[i].th, NULL, worker, &st[i]);
	}
	pthread_barrier_wait(&start_gate);
	/* after the gate: the workers meet at the lock before the spinners
	 * take the CPUs */
	for (int i = 0; i < nsp; i++)
		pthread_create(&sp[i], NULL, spinner, NULL);
	for (int i = 0; i < cfg.threads; i++)
		pthread_join(st[i].th, NULL);
	/* the workers' own span: with --fifo this thread may run late */
	t0 = st[0].start_ns;
	wall = st[0].end_ns;
	for (int i = 1; i < cfg.threads; i++) {
		t0 = st[i].start_ns < t0 ? st[i].start_ns : t0;
		wall = st[i].end_ns > wall ? st[i].end_ns : wall;
	}
	wall -= t0;
	atomic_store(&stop_spinners, 1);
	for (int i = 0; i < nsp; i++)
		pthread_join(sp[i], NULL);
	for (int i = 0; i < cfg.cap; i++)
		if (table[i].file >= 0)
			close(table[i].fd);
	print_json(st, wall);
	remove_files();
	free(sp);
	free(st);
	free(table);
	return 0;
}
