/*
 * test_bpf_disk.c - the disk probes (disk.bpf.c) against a thread that
 * reads N blocks with O_DIRECT (each one request to the disk, in its own
 * context) and one that writes a block and fsyncs it N times (needs root
 * and a file system that takes O_DIRECT: the test's directory is made
 * beside the test binary unless $FCTRACE_DISK_DIR says where).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "binutil.h"
#include "bpfutil.h"
#include "jsonutil.h"
#include "testutil.h"
#include "uring.h"
#include "workload.h"
#include "join/disk.h"
#include "trace/fileuse.h"

#define N_BLOCKS	48
#define BLOCK		4096

struct disk_file {
	char dir[256], path[300];
	struct stat st;
};

static void disk_file_make(struct disk_file *c)
{
	char buf[BLOCK];
	const char *base = getenv("FCTRACE_DISK_DIR") ? getenv("FCTRACE_DISK_DIR") : ".output";
	int fd;

	snprintf(c->dir, sizeof(c->dir), "%s/fct-disk-XXXXXX", base);
	assert_non_null(mkdtemp(c->dir));
	snprintf(c->path, sizeof(c->path), "%s/data", c->dir);
	fd = open(c->path, O_CREAT | O_RDWR | O_TRUNC, 0600);
	assert_true(fd >= 0);
	for (int i = 0; i < N_BLOCKS; i++) {
		memset(buf, 'a' + i % 26, sizeof(buf));
		assert_int_equal(write(fd, buf, sizeof(buf)), sizeof(buf));
	}
	assert_int_equal(fsync(fd), 0);
	assert_int_equal(fstat(fd, &c->st), 0);
	close(fd);
}

static void disk_file_done(struct disk_file *c)
{
	unlink(c->path);
	rmdir(c->dir);
}

/* The calling thread's major page faults so far: each read a page from
 * the disk in its context (the test's own code paged in again after the
 * machine's memory went elsewhere), a request the disk group rightly
 * counts for it. */
/* the major faults of the children waited for, theirs included */
static uint64_t children_majflt(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_CHILDREN, &ru) ? 0 : (uint64_t)ru.ru_majflt;
}

static uint64_t majflt_now(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) ? 0 : (uint64_t)ru.ru_majflt;
}

/* N_BLOCKS reads of one block each, O_DIRECT: N_BLOCKS requests
 * (user[3]: the thread's major faults meanwhile) */
static void read_direct(struct marked *m)
{
	const struct disk_file *c = m->arg;
	uint64_t faults = majflt_now();
	void *buf;
	int fd = open(c->path, O_RDONLY | O_DIRECT);

	if (fd < 0 || posix_memalign(&buf, BLOCK, BLOCK)) {
		m->user[1] = (uint64_t)errno;
		return;
	}
	for (int i = 0; i < N_BLOCKS; i++)
		m->user[0] += pread(fd, buf, BLOCK, (off_t)i * BLOCK) == BLOCK;
	free(buf);
	close(fd);
	m->user[3] = majflt_now() - faults;
}

/* N_BLOCKS / 2 reads of one block each (every other block), O_DIRECT,
 * through io_uring: each one request, submitted inside io_uring_enter in
 * the thread's own context */
static void read_uring(struct marked *m)
{
	const struct disk_file *c = m->arg;
	uint64_t faults = majflt_now();
	void *buf;
	int fd = open(c->path, O_RDONLY | O_DIRECT), n;

	if (fd < 0 || posix_memalign(&buf, BLOCK, 4 * BLOCK)) {
		m->user[1] = (uint64_t)errno;
		return;
	}
	n = uring_read_blocks(fd, buf, BLOCK, N_BLOCKS / 2);
	if (n < 0)
		m->user[1] = (uint64_t)-n;
	else
		m->user[0] = (uint64_t)n;
	free(buf);
	close(fd);
	m->user[3] += majflt_now() - faults;
}

/* read_uring's N_BLOCKS / 2 reads twice over: the second pass re-reads
 * every block of the first */
static void read_uring_twice(struct marked *m)
{
	read_uring(m);
	if (!m->user[1])
		read_uring(m);
}

/* N_BLOCKS writes of one block each, O_DIRECT, over allocated blocks */
static void write_direct(struct marked *m)
{
	const struct disk_file *c = m->arg;
	void *buf;
	int fd = open(c->path, O_WRONLY | O_DIRECT);

	if (fd < 0 || posix_memalign(&buf, BLOCK, BLOCK)) {
		m->user[1] = (uint64_t)errno;
		return;
	}
	memset(buf, 'd', BLOCK);
	for (int i = 0; i < N_BLOCKS; i++)
		m->user[0] += pwrite(fd, buf, BLOCK, (off_t)i * BLOCK) == BLOCK;
	free(buf);
	close(fd);
}

/* N_BLOCKS times: overwrite one block in the page cache, then fsync it
 * (arg user[2] == 0) or fdatasync it (1) */
static void write_sync(struct marked *m)
{
	const struct disk_file *c = m->arg;
	char buf[BLOCK];
	int fd = open(c->path, O_WRONLY);

	if (fd < 0)
		return;
	for (int i = 0; i < N_BLOCKS; i++) {
		memset(buf, 'A' + i % 26, sizeof(buf));
		if (pwrite(fd, buf, sizeof(buf), (off_t)i * BLOCK) == BLOCK &&
		    !(m->user[2] ? fdatasync(fd) : fsync(fd)))
			m->user[0]++;
	}
	close(fd);
}

/* run write_sync on one marked thread, datasync or not */
static void run_sync(struct marked *m, struct disk_file *c, int datasync)
{
	memset(m, 0, sizeof(*m));
	m->user[2] = (uint64_t)datasync;
	start_marked(m, 1, write_sync, c);
	join_marked(m, 1);
}

static const struct fct_disk_thread *disk_thread(const struct kview *kv, pid_t tid)
{
	for (int i = 0; i < kv->ndisk_threads; i++)
		if (kv->disk_threads[i].tid == (uint32_t)tid)
			return &kv->disk_threads[i];
	return NULL;
}

/* The disk holding the file: its whole disk's entry (a partition's
 * requests count for its disk), found by the traced requests on it. */
static const struct fct_disk_dev *busiest_traced(const struct kview *kv, int dir)
{
	const struct fct_disk_dev *best = NULL;

	for (int i = 0; i < kv->ndisk_devs; i++)
		if (!best || kv->disk_devs[i].traced_ios[dir] > best->traced_ios[dir])
			best = &kv->disk_devs[i];
	return best;
}

/* The reads the traced threads caused, by the threads' rows and by the
 * devices' traced counts: one figure counted twice in disk.bpf.c. */
static void traced_reads(const struct kview *kv, uint64_t *by_threads, uint64_t *by_devs)
{
	*by_threads = *by_devs = 0;
	for (int i = 0; i < kv->ndisk_threads; i++)
		*by_threads += kv->disk_threads[i].ios[FCT_DISK_READ];
	for (int i = 0; i < kv->ndisk_devs; i++)
		*by_devs += kv->disk_devs[i].traced_ios[FCT_DISK_READ];
}

static uint64_t hist_total(const uint32_t *h)
{
	uint64_t n = 0;

	for (int i = 0; i < FCT_HIST_SLOTS; i++)
		n += h[i];
	return n;
}

/* The runs of the disk programs the kernel skipped (probes.h): a
 * completion's interrupt inside another completion's program on one CPU
 * is not run, and is counted only there. */
static uint64_t disk_skipped(const struct kview *kv)
{
	uint64_t n = 0;

	for (int i = 0; i < kv->nprobes; i++)
		if (kv->probes[i].group == PG_DISK)
			n += kv->probes[i].skipped;
	return n;
}

/* A thread's requests of one direction: want exactly, but for what the
 * kernel said it skipped and, reading, the thread's own major faults
 * (each a page read in its context); the histogram counts every read. */
static void assert_thread_ios(const struct kview *kv, const struct fct_disk_thread *d, int dir,
			      uint64_t want, uint64_t faults)
{
	uint64_t got = d->ios[dir], skipped = disk_skipped(kv);

	if (got != want)
		print_message("  %llu of %llu requests counted; the kernel skipped %llu runs of the "
			      "disk programs, the thread faulted %llu pages in\n",
			      (unsigned long long)got, (unsigned long long)want,
			      (unsigned long long)skipped, (unsigned long long)faults);
	assert_true(got <= want + faults);
	assert_true(got + skipped >= want);
	if (got == want)
		assert_int_equal(d->bytes[dir], got * BLOCK);
	if (dir == FCT_DISK_READ)
		assert_int_equal(hist_total(d->hist), got);
}

/* The device view's row for disk name, NULL when it has none. */
static const struct disk_dev_row *dev_row_named(const struct disk_run *d, const char *name)
{
	for (int i = 0; i < d->ndevs; i++)
		if (!strcmp(d->dev[i].name, name))
			return &d->dev[i];
	return NULL;
}

/* Trace one marked thread running fn over a fresh disk file: the file
 * made, the probes loaded, the thread run and the maps read; fn set no
 * errno (user[1]). The caller checks the figures, then disk_run_done. */
static void disk_run_one(struct bpf_fixture *fx, struct disk_file *c, struct marked *m,
			 void (*fn)(struct marked *m))
{
	disk_file_make(c);
	bpf_fixture_start(fx, PG_FULL);
	if (!(fx->kv.groups & PG_MASK(PG_DISK)) && bpf_test_required())
		fail_msg("the disk probes did not load: %s",
			 probe_status_text(probe_named(&fx->kv, "tp_btf/block_io_start")));
	run_marked(m, 1, fn, c);
	bpf_fixture_read(fx);
	assert_int_equal(m[0].user[1], 0);	/* opened O_DIRECT, the ring set up */
}

static void disk_run_done(struct bpf_fixture *fx, struct disk_file *c)
{
	bpf_fixture_done(fx);
	disk_file_done(c);
}

static void test_odirect_reads(void **state)
{
	const struct disk_dev_row *row;
	struct disk_run view;
	struct bpf_fixture fx;
	struct disk_file c;
	struct marked m[1];
	const struct fct_disk_thread *d;
	const struct fct_disk_dev *dev;
	uint64_t by_threads, by_devs;

	BPF_TEST_REQUIRE();
	disk_run_one(&fx, &c, m, read_direct);
	assert_int_equal(m[0].user[0], N_BLOCKS);
	assert_true(fx.kv.groups & PG_MASK(PG_DISK));

	d = disk_thread(&fx.kv, m[0].tid);
	assert_non_null(d);
	assert_int_equal(d->tgid, getpid());
	assert_thread_ios(&fx.kv, d, FCT_DISK_READ, N_BLOCKS, m[0].user[3]);
	assert_int_equal(d->ios[FCT_DISK_WRITE], 0);
	assert_true(d->ns[FCT_DISK_READ] > 0);
	assert_true(d->ns[FCT_DISK_READ] <= m[0].end_ns - m[0].begin_ns);
	/* the page cache saw none of it, and pread64 read past it */
	/* nothing in the page cache but what its own faults read in (this VM's
	 * proactive reclaim, kdamond, evicts the test's own code between runs) */
	if (!m[0].user[3])
		assert_int_equal(kview_thread(&fx.kv, m[0].tid)->pages_added, 0);
	assert_int_equal(kview_thread(&fx.kv, m[0].tid)->pages_asked, 0);
	assert_int_equal(kview_thread(&fx.kv, m[0].tid)->pages_direct, N_BLOCKS);

	dev = busiest_traced(&fx.kv, FCT_DISK_READ);
	assert_non_null(dev);
	/* the device holds our reads and those of the test's other threads
	 * (a fresh clone's CI once saw 2 more, 50 against 48: pages of the
	 * test's own files read in): each read is the thread's and the
	 * device's alike */
	traced_reads(&fx.kv, &by_threads, &by_devs);
	if (by_threads > N_BLOCKS)
		print_message("  the test's other threads read %llu blocks\n",
			      (unsigned long long)(by_threads - N_BLOCKS));
	assert_int_equal(by_devs, by_threads);
	assert_true(dev->traced_ios[FCT_DISK_READ] >= d->ios[FCT_DISK_READ]);
	assert_true(dev->traced_bytes[FCT_DISK_READ] >= d->bytes[FCT_DISK_READ]);
	assert_true(dev->ios[FCT_DISK_READ] >= d->ios[FCT_DISK_READ]);
	assert_true(dev->name[0]);
	/* the device view: /proc/diskstats over the window, the probes'
	 * count beside it; both hold our reads */
	disk_build(&view, &fx.kv);
	row = dev_row_named(&view, dev->name);
	assert_non_null(row);
	assert_true(row->from_diskstats);
	assert_true(row->reads >= N_BLOCKS);
	assert_int_equal(row->probed_reads, dev->ios[FCT_DISK_READ]);
	assert_true(row->read_bytes >= (uint64_t)N_BLOCKS * BLOCK);
	assert_int_equal(fx.kv.disk_global.rqs_full + fx.kv.disk_global.devs_full +
			 fx.kv.disk_global.threads_full, 0);
	disk_run_done(&fx, &c);
}

/* io_uring's reads: charged to the thread that submitted them, exactly;
 * no pread64, so no pages_direct, and nothing in the page cache */
static void test_uring_reads(void **state)
{
	struct bpf_fixture fx;
	struct disk_file c;
	struct marked m[1];
	const struct fct_disk_thread *d;

	BPF_TEST_REQUIRE();
	disk_run_one(&fx, &c, m, read_uring);
	assert_int_equal(m[0].user[0], N_BLOCKS / 2);
	d = disk_thread(&fx.kv, m[0].tid);
	assert_non_null(d);
	assert_thread_ios(&fx.kv, d, FCT_DISK_READ, N_BLOCKS / 2, m[0].user[3]);
	/* nothing in the page cache but what its own faults read in (this VM's
	 * proactive reclaim, kdamond, evicts the test's own code between runs) */
	if (!m[0].user[3])
		assert_int_equal(kview_thread(&fx.kv, m[0].tid)->pages_added, 0);
	assert_int_equal(kview_thread(&fx.kv, m[0].tid)->pages_direct, 0);
	/* and its ring (uring.bpf.c): the reads submitted and completed on it,
	 * each a whole block, exactly, none another kind */
	{
		const struct kv_uring *u = NULL;

		for (int i = 0; i < fx.kv.nuring; i++)
			if (fx.kv.uring[i].key.tgid == (uint32_t)getpid())
				u = &fx.kv.uring[i];
		assert_non_null(u);
		print_message("  ring: %llu reads submitted, %llu completed, %llu bytes, mean %.1f us\n",
			      (unsigned long long)u->val.submitted[FCT_URING_READ],
			      (unsigned long long)u->val.completed[FCT_URING_READ],
			      (unsigned long long)u->val.bytes[FCT_URING_READ],
			      u->val.completed[FCT_URING_READ] ?
			      u->val.lat_ns[FCT_URING_READ] / 1e3 / u->val.completed[FCT_URING_READ] : 0);
		assert_int_equal(u->val.submitted[FCT_URING_READ], N_BLOCKS / 2);
		assert_int_equal(u->val.completed[FCT_URING_READ], N_BLOCKS / 2);
		assert_int_equal(u->val.bytes[FCT_URING_READ], (uint64_t)N_BLOCKS / 2 * BLOCK);
		assert_int_equal(u->val.submitted[FCT_URING_WRITE] + u->val.submitted[FCT_URING_OTHER], 0);
		assert_int_equal(u->val.errors + u->val.untracked, 0);
		assert_true(u->val.lat_ns[FCT_URING_READ] > 0);
	}
	disk_run_done(&fx, &c);
}

/* io_uring's reads are the block stream's positional reads too (the
 * handles group, from io_uring_submit_req): N_BLOCKS / 2 blocks read
 * twice, the second time all re-reads, each read's bytes known. */
static void test_uring_block_stream(void **state)
{
	struct bpf_fixture fx;
	struct disk_file c;
	struct marked m[1];
	const struct kv_blocks *b = NULL;

	BPF_TEST_REQUIRE();
	disk_run_one(&fx, &c, m, read_uring_twice);
	assert_int_equal(m[0].user[0], N_BLOCKS / 2);	/* the second pass's */
	for (int i = 0; i < fx.kv.nhandles; i++)
		if (fx.kv.handles[i].tgid == getpid())
			b = &fx.kv.handles[i].blocks;
	assert_non_null(b);
	print_message("  stream: %llu reads, %llu direct, %llu blocks, %.0f re-reads\n",
		      (unsigned long long)b->reads, (unsigned long long)b->direct,
		      (unsigned long long)b->blocks, b->rereads);
	assert_int_equal(b->reads, N_BLOCKS);
	assert_int_equal(b->direct, N_BLOCKS);
	assert_int_equal(b->bytes, (uint64_t)N_BLOCKS * BLOCK);
	assert_int_equal(b->blocks, N_BLOCKS / 2);
	assert_true(b->rereads == N_BLOCKS / 2);
	disk_run_done(&fx, &c);
}

/* O_DIRECT overwrites of allocated blocks: one write request each, from
 * the caller, exactly; the times it changes wait for writeback */
static void test_odirect_writes(void **state)
{
	struct bpf_fixture fx;
	struct disk_file c;
	struct marked m[1];
	const struct fct_disk_thread *d;

	BPF_TEST_REQUIRE();
	disk_run_one(&fx, &c, m, write_direct);
	assert_int_equal(m[0].user[0], N_BLOCKS);

	d = disk_thread(&fx.kv, m[0].tid);
	assert_non_null(d);
	assert_thread_ios(&fx.kv, d, FCT_DISK_WRITE, N_BLOCKS, 0);
	assert_int_equal(d->ios[FCT_DISK_READ], 0);
	assert_true(d->ns[FCT_DISK_WRITE] > 0);
	disk_run_done(&fx, &c);
}

/* fsync writes the block and, when its times changed, the inode's block
 * too (from the caller without a journal, from the journal's thread with
 * one): at least the data, every byte of it, and never a read */
static void test_fsync_writes(void **state)
{
	struct bpf_fixture fx;
	struct disk_file c;
	struct marked m[1];
	const struct fct_disk_thread *d;

	BPF_TEST_REQUIRE();
	disk_file_make(&c);
	bpf_fixture_start(&fx, PG_FULL);
	run_sync(m, &c, 0);
	bpf_fixture_read(&fx);
	assert_int_equal(m[0].user[0], N_BLOCKS);

	d = disk_thread(&fx.kv, m[0].tid);
	assert_non_null(d);
	assert_in_range(d->ios[FCT_DISK_WRITE], N_BLOCKS, 3 * N_BLOCKS);
	assert_int_equal(d->bytes[FCT_DISK_WRITE] % BLOCK, 0);
	assert_true(d->bytes[FCT_DISK_WRITE] >= (uint64_t)N_BLOCKS * BLOCK);
	assert_int_equal(d->ios[FCT_DISK_READ], 0);
	/* the flushes: each fsync's own without a journal, else the journal's */
	assert_true(d->flushes <= N_BLOCKS);
	assert_true(d->ns[FCT_DISK_WRITE] > 0);
	assert_int_equal(acct_nr(kview_thread(&fx.kv, m[0].tid), 74)->count, N_BLOCKS);	/* fsync */
	bpf_fixture_done(&fx);
	disk_file_done(&c);
}

/* Without the group, nothing is read and nothing is loaded. */
static void test_not_selected(void **state)
{
	struct bpf_fixture fx;

	BPF_TEST_REQUIRE();
	bpf_fixture_start(&fx, PG_FULL & ~PG_MASK(PG_DISK));
	bpf_fixture_read(&fx);
	assert_false(fx.kv.groups & PG_MASK(PG_DISK));
	assert_int_equal(fx.kv.ndisk_devs + fx.kv.ndisk_threads, 0);
	assert_int_equal(probe_named(&fx.kv, "tp_btf/block_rq_issue")->state, PROBE_NOT_SELECTED);
	bpf_fixture_done(&fx);
}

/* dd, a program nobody here wrote, reading a file O_DIRECT in 16 KiB
 * blocks under `fctrace run`: each read one disk request in dd's own
 * context. The run document has them all (dd makes DD_BLOCKS reads, and a
 * few of its start-up's), the Why names them as disk reads past the page
 * cache, and nothing says the page cache served them. */
#define DD_BLOCKS	256
#define DD_BLOCK	16384

static void dd_file_make(const char *path)
{
	static char buf[DD_BLOCK];
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0600);

	assert_true(fd >= 0);
	for (int i = 0; i < DD_BLOCKS; i++) {
		memset(buf, 'a' + i % 26, sizeof(buf));
		assert_int_equal(write(fd, buf, sizeof(buf)), sizeof(buf));
	}
	assert_int_equal(fsync(fd), 0);
	close(fd);
}

static void test_dd_direct_why(void **state)
{
	char *json = test_at("dd.json"), data[320], err[4096], iff[340];
	struct disk_file c;
	struct spawn_opts so = { .uid = -1, .errfd = -1 };
	struct json_object *doc, *cause;
	const char *beyond;
	uint64_t reads, skipped, faults;

	BPF_TEST_REQUIRE();
	disk_file_make(&c);	/* a directory on a disk that takes O_DIRECT */
	snprintf(data, sizeof(data), "%s/dd.data", c.dir);
	dd_file_make(data);
	snprintf(iff, sizeof(iff), "if=%s", data);
	char *const argv[] = { (char *)fctrace_binary(), "run", "--quiet", "--budget", "0", "--json", json,
			       "--",
			       "dd", iff, "of=/dev/null", "bs=16k", "iflag=direct", "status=none",
			       NULL };
	faults = children_majflt();
	if (run_fctrace(argv, &so, err, sizeof(err)))
		fail_msg("fctrace run -- dd failed: %s", err);
	faults = children_majflt() - faults;
	doc = json_file(json);
	reads = json_u64_at(doc, "disk.reads");
	skipped = json_u64_at(doc, "lost_events.hooks_skipped");
	print_message("dd: %d reads made, %llu disk reads by the program, %llu runs skipped, "
		      "%llu major faults (dd and fctrace)\n", DD_BLOCKS, (unsigned long long)reads,
		      (unsigned long long)skipped, (unsigned long long)faults);
	/* every read, but for runs the kernel said it skipped; beyond them,
	 * dd's start (its code paged in: this VM's kdamond reclaims the page
	 * cache between runs), up to a readahead window's requests a fault */
	assert_true(reads + skipped >= DD_BLOCKS && reads <= DD_BLOCKS + 16 + 4 * faults);
	assert_true(json_u64_at(doc, "disk.read_bytes") >= (uint64_t)DD_BLOCKS * DD_BLOCK);
	cause = json_find(doc, "diagnosis", "cause", "disk_reads");
	assert_non_null(cause);
	assert_true(json_num_at(cause, "share") > 0);
	beyond = json_str_at(doc, "why.beyond");
	assert_null(strstr(beyond, "100 % hits"));
	json_object_put(doc);
	unlink(json);
	unlink(data);
	disk_file_done(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_odirect_reads),
		cmocka_unit_test(test_uring_reads),
		cmocka_unit_test(test_uring_block_stream),
		cmocka_unit_test(test_odirect_writes),
		cmocka_unit_test(test_fsync_writes),
		cmocka_unit_test(test_not_selected),
		cmocka_unit_test(test_dd_direct_why),
	};

	return cmocka_run_group_tests(tests, test_scratch_setup, test_scratch_teardown);
}
