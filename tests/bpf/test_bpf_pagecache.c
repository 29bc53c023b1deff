/*
 * test_bpf_pagecache.c - pages added to the page cache per (thread,
 * inode), cold and warm, against a file the test writes (needs root).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "bpfutil.h"
#include "workload.h"

#define K_PAGES 64

struct cold_file {
	char dir[256], path[300];
	struct stat st;
};

static void cold_file_make(struct cold_file *c)
{
	char buf[4096];
	int fd;

	snprintf(c->dir, sizeof(c->dir), "%s/fct-pc-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	assert_non_null(mkdtemp(c->dir));
	snprintf(c->path, sizeof(c->path), "%s/data", c->dir);
	fd = open(c->path, O_CREAT | O_RDWR | O_TRUNC, 0600);
	assert_true(fd >= 0);
	for (int i = 0; i < K_PAGES; i++) {
		memset(buf, 'a' + i % 26, sizeof(buf));
		assert_int_equal(write(fd, buf, sizeof(buf)), sizeof(buf));
	}
	assert_int_equal(fsync(fd), 0);
	assert_int_equal(fstat(fd, &c->st), 0);
	close(fd);
}

static void evict(const struct cold_file *c)
{
	int fd = open(c->path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
	close(fd);
}

/* read the whole file, one page per pread */
static void read_all(struct marked *m)
{
	const struct cold_file *c = m->arg;
	char buf[4096];
	int fd = open(c->path, O_RDONLY);

	if (fd < 0)
		return;
	for (int i = 0; i < K_PAGES; i++)
		m->user[0] += pread(fd, buf, sizeof(buf), (off_t)i * 4096) == sizeof(buf);
	close(fd);
}

static const struct kv_pc *pc_find(const struct kview *kv, pid_t tid, ino_t ino)
{
	for (int i = 0; i < kv->npc; i++)
		if (kv->pc[i].key.tid == (uint32_t)tid && kv->pc[i].key.ino == ino)
			return &kv->pc[i];
	return NULL;
}

static void test_cold_then_warm_read(void **state)
{
	struct bpf_fixture fx;
	struct cold_file c;
	struct marked m[2];
	const struct kv_pc *pc;

	BPF_TEST_REQUIRE();
	cold_file_make(&c);
	evict(&c);
	bpf_fixture_start(&fx, PG_FULL);
	run_marked(&m[0], 1, read_all, &c);	/* cold */
	run_marked(&m[1], 1, read_all, &c);	/* warm */
	bpf_fixture_read(&fx);

	assert_int_equal(m[0].user[0], K_PAGES);
	pc = pc_find(&fx.kv, m[0].tid, c.st.st_ino);
	assert_non_null(pc);
	assert_int_equal(pc->val.pages, K_PAGES);
	assert_true(pc->val.folios >= 1 && pc->val.folios <= K_PAGES);
	assert_int_equal(pc->key.dev, (uint32_t)c.st.st_dev);
	assert_int_equal(kview_thread(&fx.kv, m[0].tid)->pages_added, K_PAGES);
	assert_int_equal(kview_thread(&fx.kv, m[0].tid)->pages_asked, K_PAGES);

	assert_int_equal(m[1].user[0], K_PAGES);
	assert_null(pc_find(&fx.kv, m[1].tid, c.st.st_ino));
	assert_int_equal(kview_thread(&fx.kv, m[1].tid)->pages_added, 0);
	assert_int_equal(kview_thread(&fx.kv, m[1].tid)->pages_asked, K_PAGES);
	assert_int_equal(fx.kv.lost.pc_map_full, 0);
	bpf_fixture_done(&fx);
	unlink(c.path);
	rmdir(c.dir);
}

/* write a new file of K_PAGES pages, one write per page, then read the
 * cold file with read(2) */
static void write_new_read_cold(struct marked *m)
{
	const struct cold_file *c = m->arg;
	char path[320], buf[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/new", c->dir);
	fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0600);
	if (fd < 0)
		return;
	memset(buf, 'w', sizeof(buf));
	for (int i = 0; i < K_PAGES; i++)
		m->user[0] += write(fd, buf, sizeof(buf)) == sizeof(buf);
	close(fd);
	fd = open(c->path, O_RDONLY);
	if (fd < 0)
		return;
	while (read(fd, buf, sizeof(buf)) == sizeof(buf))
		m->user[1]++;
	close(fd);
}

/* Pages a write adds are new data, not misses; a read(2) that misses is
 * a miss even though no pread64 asked for it. */
static void test_written_pages_are_not_misses(void **state)
{
	struct bpf_fixture fx;
	struct cold_file c;
	struct marked m[1];
	const struct fct_thread *k;
	char path[320];
	struct stat st;

	BPF_TEST_REQUIRE();
	cold_file_make(&c);
	evict(&c);
	bpf_fixture_start(&fx, PG_FULL);
	run_marked(m, 1, write_new_read_cold, &c);
	bpf_fixture_read(&fx);
	snprintf(path, sizeof(path), "%s/new", c.dir);
	assert_int_equal(stat(path, &st), 0);

	assert_int_equal(m[0].user[0], K_PAGES);
	assert_int_equal(m[0].user[1], K_PAGES);
	k = kview_thread(&fx.kv, m[0].tid);
	assert_non_null(k);
	assert_int_equal(k->pages_written, K_PAGES);
	/* the cold file's, by read(2) - plus, at times, a block of the directory
	 * the new file was created in, read into the block device's cache: a
	 * page added that is neither file's (seen once in CI: 65) */
	assert_in_range(k->pages_added, K_PAGES, K_PAGES + 4);
	assert_int_equal(k->pages_asked, 0);		/* no pread64 */
	assert_null(pc_find(&fx.kv, m[0].tid, st.st_ino));
	assert_int_equal(pc_find(&fx.kv, m[0].tid, c.st.st_ino)->val.pages, K_PAGES);
	bpf_fixture_done(&fx);
	unlink(path);
	unlink(c.path);
	rmdir(c.dir);
}

/* The optional lookup group counts each pread's lookup per inode. */
static void test_lookups_when_selected(void **state)
{
	struct bpf_fixture fx;
	struct cold_file c;
	struct marked m[1];
	const struct kv_pc *pc;

	BPF_TEST_REQUIRE();
	cold_file_make(&c);
	bpf_fixture_start(&fx, PG_FULL | PG_MASK(PG_PC_LOOKUPS));
	assert_true(fx.kv.groups & PG_MASK(PG_PC_LOOKUPS));
	run_marked(m, 1, read_all, &c);
	bpf_fixture_read(&fx);
	pc = pc_find(&fx.kv, m[0].tid, c.st.st_ino);
	assert_non_null(pc);
	assert_true(pc->val.lookups >= K_PAGES);
	assert_true(pc->val.lookup_pages >= K_PAGES);
	bpf_fixture_done(&fx);
	unlink(c.path);
	rmdir(c.dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cold_then_warm_read),
		cmocka_unit_test(test_lookups_when_selected),
		cmocka_unit_test(test_written_pages_are_not_misses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
