/*
 * test_bpf_pcevict.c - who removed the pages a traced thread then read
 * from disk again (pc-evict), with exact page counts: the thread's own
 * fadvise(DONTNEED), another process's, and reclaim forced by a memory
 * cgroup limit (needs root; the cgroup part skips where it cannot run).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "bpfutil.h"
#include "cli/commands.h"
#include "session/session.h"
#include "testutil.h"
#include "workload.h"
#include "join/evictions.h"

#define K_PAGES		64
#define BIG_PAGES	8192		/* 32 MiB: four times the cgroup's limit */
#define CG_LIMIT	(8u << 20)

struct pfile {
	char dir[256], path[300];
	unsigned pages;
};

static void pfile_make(struct pfile *c, unsigned pages)
{
	char buf[4096];
	int fd;

	snprintf(c->dir, sizeof(c->dir), "%s/fct-pcev-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/var/tmp");
	assert_non_null(mkdtemp(c->dir));
	snprintf(c->path, sizeof(c->path), "%s/data", c->dir);
	c->pages = pages;
	fd = open(c->path, O_CREAT | O_RDWR | O_TRUNC, 0600);
	assert_true(fd >= 0);
	for (unsigned i = 0; i < pages; i++) {
		memset(buf, 'a' + i % 26, sizeof(buf));
		assert_int_equal(write(fd, buf, sizeof(buf)), sizeof(buf));
	}
	assert_int_equal(fsync(fd), 0);
	assert_int_equal(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
	close(fd);
}

static void pfile_remove(struct pfile *c)
{
	unlink(c->path);
	rmdir(c->dir);
}

static void drop(const char *path)
{
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return;
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
}

static void read_file(const struct pfile *c, struct marked *m)
{
	char buf[4096];
	int fd = open(c->path, O_RDONLY);

	if (fd < 0)
		return;
	for (unsigned i = 0; i < c->pages; i++)
		m->user[0] += pread(fd, buf, sizeof(buf), (off_t)i * 4096) == sizeof(buf);
	close(fd);
}

static void read_once(struct marked *m)
{
	read_file(m->arg, m);
}

/* read, drop, read, drop, read: its own removals between its reads */
static void read_drop_read(struct marked *m)
{
	const struct pfile *c = m->arg;

	for (int r = 0; r < 3; r++) {
		read_file(c, m);
		if (r < 2)
			drop(c->path);
	}
}

static const struct kv_evict *evictor(const struct kview *kv, uint32_t tgid, unsigned how)
{
	for (int i = 0; i < kv->nevict; i++)
		if (kv->evict[i].key.tgid == tgid && kv->evict[i].key.how == how)
			return &kv->evict[i];
	return NULL;
}

static void test_own_fadvise(void **state)
{
	struct bpf_fixture fx;
	struct pfile c;
	struct marked m[1];
	const struct kv_evict *e;

	BPF_TEST_REQUIRE();
	pfile_make(&c, K_PAGES);
	bpf_fixture_start(&fx, PG_FULL);
	assert_true(fx.kv.groups & PG_MASK(PG_PC_EVICT));
	run_marked(m, 1, read_drop_read, &c);
	bpf_fixture_read(&fx);

	assert_int_equal(m[0].user[0], 3 * K_PAGES);
	assert_int_equal(kview_thread(&fx.kv, m[0].tid)->pages_added, 3 * K_PAGES);
	e = evictor(&fx.kv, (uint32_t)getpid(), FCT_EV_FADVISE);
	assert_non_null(e);
	assert_int_equal(e->val.pages, 2 * K_PAGES);
	assert_int_equal(e->val.reread_pages, 2 * K_PAGES);
	assert_int_equal(e->val.tid, (uint32_t)m[0].tid);
	assert_int_equal(e->key.flags & (FCT_EV_F_TARGET | FCT_EV_F_TRACED),
			 FCT_EV_F_TARGET | FCT_EV_F_TRACED);
	assert_int_equal(fx.kv.evict_global.reread_pages, 2 * K_PAGES);
	assert_int_equal(fx.kv.lost.pc_evict_full, 0);
	bpf_fixture_done(&fx);
	pfile_remove(&c);
}

/* Another process drops the file between the traced thread's two reads. */
static void test_other_process(void **state)
{
	struct bpf_fixture fx;
	struct pfile c;
	struct marked m[2];
	const struct kv_evict *e;
	pid_t pid;
	int st;

	BPF_TEST_REQUIRE();
	pfile_make(&c, K_PAGES);
	bpf_fixture_start(&fx, PG_FULL);
	run_marked(&m[0], 1, read_once, &c);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		prctl(PR_SET_NAME, "pc-dropper");
		drop(c.path);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	run_marked(&m[1], 1, read_once, &c);
	bpf_fixture_read(&fx);

	assert_int_equal(kview_thread(&fx.kv, m[0].tid)->pages_added, K_PAGES);	/* cold */
	assert_int_equal(kview_thread(&fx.kv, m[1].tid)->pages_added, K_PAGES);
	e = evictor(&fx.kv, (uint32_t)pid, FCT_EV_FADVISE);
	assert_non_null(e);
	assert_string_equal(e->val.comm, "pc-dropper");
	assert_int_equal(e->val.pages, K_PAGES);
	assert_int_equal(e->val.reread_pages, K_PAGES);
	assert_int_equal(e->key.flags & FCT_EV_F_TARGET, 0);
	assert_int_equal(fx.kv.evict_global.reread_pages, K_PAGES);
	assert_null(evictor(&fx.kv, (uint32_t)getpid(), FCT_EV_FADVISE));
	bpf_fixture_done(&fx);
	pfile_remove(&c);
}

/* A memory cgroup (v2, else v1's memory hierarchy) this process can
 * enter with a limit; "" and the reason in why when there is none. */
struct memcg {
	char dir[128], back[256];
	const char *procs, *limit;
};

static bool memcg_make(struct memcg *g, char *why, size_t len)
{
	static const struct { const char *root, *ctl, *limit; } kinds[] = {
		{ "/sys/fs/cgroup", "/sys/fs/cgroup/cgroup.subtree_control", "memory.max" },
		{ "/sys/fs/cgroup/memory", "/sys/fs/cgroup/memory/memory.limit_in_bytes",
		  "memory.limit_in_bytes" },
	};
	char path[300];
	FILE *f;

	for (size_t i = 0; i < sizeof(kinds) / sizeof(*kinds); i++) {
		if (access(kinds[i].ctl, R_OK))
			continue;
		snprintf(g->dir, sizeof(g->dir), "%s/fct-pcev-%d", kinds[i].root, (int)getpid());
		if (mkdir(g->dir, 0700) && errno != EEXIST)
			break;
		g->limit = kinds[i].limit;
		snprintf(path, sizeof(path), "%s/%s", g->dir, g->limit);
		if (!(f = fopen(path, "w")) || (fprintf(f, "%u\n", CG_LIMIT) < 0) | fclose(f)) {
			rmdir(g->dir);
			break;
		}
		return true;
	}
	snprintf(why, len, "no memory cgroup with a writable limit here (cgroup v2 with the "
		 "memory controller, or v1's /sys/fs/cgroup/memory)");
	return false;
}

/* Move this process into cgroup dir (its cgroup.procs). */
static bool cg_enter(const char *dir)
{
	char path[300];
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	if (!(f = fopen(path, "w")))
		return false;
	rc = fprintf(f, "%d\n", (int)getpid());
	return (fclose(f) == 0) & (rc > 0);
}

/* The cgroup this process is in now, to come back to. */
static void cg_current(struct memcg *g)
{
	char line[256], *p;
	FILE *f = fopen("/proc/self/cgroup", "re");
	bool v2 = !strcmp(g->limit, "memory.max");

	g->back[0] = '\0';
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		p = strchr(strchr(line, ':') + 1, ':') + 1;
		if ((v2 && !strncmp(line, "0::", 3)) || (!v2 && strstr(line, ":memory:")))
			snprintf(g->back, sizeof(g->back), "%s%s", v2 ? "/sys/fs/cgroup" :
				 "/sys/fs/cgroup/memory", p);
	}
	if (f)
		fclose(f);
}

/* Reading a file four times the cgroup's limit twice: every page is
 * read from disk once cold, and every other miss is a re-read of a page
 * reclaim took (readahead's pages too, taken before the read got them). */
static void test_cgroup_reclaim(void **state)
{
	struct bpf_fixture fx;
	struct pfile c;
	struct marked m[2];
	struct memcg g;
	const struct kv_evict *e;
	uint64_t added, reread = 0, reclaimed = 0;
	struct pc_evictions o;
	char why[200];

	BPF_TEST_REQUIRE();
	if (!memcg_make(&g, why, sizeof(why))) {
		print_message("skip: %s\n", why);
		skip();
	}
	cg_current(&g);
	pfile_make(&c, BIG_PAGES);
	bpf_fixture_start(&fx, PG_FULL);	/* its maps charged outside the limit */
	assert_true(cg_enter(g.dir));
	run_marked(&m[0], 1, read_once, &c);
	run_marked(&m[1], 1, read_once, &c);
	assert_true(cg_enter(g.back));
	bpf_fixture_read(&fx);

	added = kview_thread(&fx.kv, m[0].tid)->pages_added;
	assert_true(kview_thread(&fx.kv, m[1].tid)->pages_added > BIG_PAGES / 2);	/* the
					 * limit keeps at most a quarter of the file */
	added += kview_thread(&fx.kv, m[1].tid)->pages_added;
	for (int i = 0; i < fx.kv.nevict; i++) {
		e = &fx.kv.evict[i];
		assert_int_equal(e->key.how, FCT_EV_RECLAIM);
		reread += e->val.reread_pages;
		reclaimed += e->val.pages;
	}
	assert_int_equal(added - reread, BIG_PAGES);
	assert_int_equal(fx.kv.evict_global.reread_pages, reread);
	assert_true(reclaimed >= reread);
	/* all after reclaim. The second pass's re-reads of the first's pages
	 * come after at least half the file was reclaimed (the limit keeps a
	 * quarter of it), so nine in ten need that much more; readahead's
	 * pages taken before the read got them come back at once (short
	 * distances: the median is theirs); never more than all reclaimed */
	assert_int_equal(fx.kv.evict_global.reclaim_reread_pages, reread);
	assert_true(fx.kv.evict_global.reclaimed_pages >= reclaimed);
	evictions_build(&o, &fx.kv, added);
	print_message("reclaimed %llu, re-read after reclaim %llu, keep half %llu most %llu\n",
		      (unsigned long long)fx.kv.evict_global.reclaimed_pages,
		      (unsigned long long)fx.kv.evict_global.reclaim_reread_pages,
		      (unsigned long long)o.keep_half_pages, (unsigned long long)o.keep_most_pages);
	assert_in_range(o.keep_most_pages, BIG_PAGES / 2, fx.kv.evict_global.reclaimed_pages);
	assert_in_range(o.keep_half_pages, 1, o.keep_most_pages);
	assert_int_equal(fx.kv.lost.pc_evict_full, 0);
	assert_non_null(e = evictor(&fx.kv, (uint32_t)getpid(), FCT_EV_RECLAIM));
	assert_int_equal(e->key.flags & FCT_EV_F_TARGET, FCT_EV_F_TARGET);
	bpf_fixture_done(&fx);
	pfile_remove(&c);
	rmdir(g.dir);
}

/* A kernel without the removal tracepoint (the program refused, as the
 * loader's test hook makes it): that program fails, the rest run, the
 * misses stay exact and the join stays off. */
static void test_tracepoint_refused(void **state)
{
	struct bpf_fixture fx;
	struct pfile c;
	struct marked m[1];
	const struct probe_status *ps;

	BPF_TEST_REQUIRE();
	pfile_make(&c, K_PAGES);
	setenv("FCTRACE_TEST_FAIL_PROBE", "fct_pc_remove", 1);
	bpf_fixture_start(&fx, PG_FULL);
	unsetenv("FCTRACE_TEST_FAIL_PROBE");
	ps = probe_named(&fx.kv, "tp_btf/mm_filemap_delete_from_page_cache");
	assert_non_null(ps);
	assert_int_equal(ps->state, PROBE_FAILED);
	assert_false(fx.kv.groups & PG_MASK(PG_PC_EVICT));
	assert_true(fx.kv.groups & PG_MASK(PG_PAGECACHE));
	run_marked(m, 1, read_drop_read, &c);
	bpf_fixture_read(&fx);
	assert_int_equal(kview_thread(&fx.kv, m[0].tid)->pages_added, 3 * K_PAGES);
	assert_int_equal(fx.kv.nevict, 0);
	assert_int_equal(fx.kv.evict_global.files, 0);
	bpf_fixture_done(&fx);
	pfile_remove(&c);
}

/* A built-in fc run through the whole pipeline, as `fctrace run fc`. */
static void run_fc(struct session *s, const char *dir, enum wl_cache_mode cache, double pressure)
{
	struct options o;
	struct trace_opts topts;

	memset(&o, 0, sizeof(o));
	wl_config_defaults(&o.wl);
	o.wl.workload = "fc";
	o.wl.files = 200;
	o.wl.threads = 1;
	o.wl.ops = 4000;
	o.wl.dir = dir;
	o.wl.cache = cache;
	o.wl.pressure = pressure;
	o.trace.probes = PG_FULL;
	o.probe_set = "full";
	topts = o.trace;
	assert_int_equal(session_run(&topts, &o.wl, s), 0);
	assert_true(s->joined.evictions.on);
}

static bool evidence_has(const struct diagnosis *d, const char *cause, const char *text)
{
	for (int i = 0; i < d->n; i++)
		for (int j = 0; !strcmp(d->causes[i].cause, cause) && j < d->causes[i].nevidence; j++)
			if (strstr(d->causes[i].evidence[j], text))
				return true;
	return false;
}

/* --cache cold: fctrace's own eviction comes before the window, so it
 * is not the program's; every miss is a first read unless something
 * else on the machine removed the page in the window. */
static void test_builtin_cold(void **state)
{
	struct session s;
	const struct pc_evictions *e;
	uint64_t others = 0;
	char *dir = test_dir_make();

	BPF_TEST_REQUIRE();
	run_fc(&s, dir, WL_CACHE_COLD, 0);
	e = &s.joined.evictions;
	assert_true(s.joined.pagecache_misses > 0);
	for (int i = 0; i < e->n; i++) {
		assert_false(e->e[i].target);	/* nothing of fctrace's own */
		others += e->e[i].reread_pages;
	}
	assert_int_equal(e->reread_pages, others);
	assert_int_equal(e->first_pages + e->reread_pages, s.joined.pagecache_misses);
	if (others == 0 && s.diag.n)
		assert_true(evidence_has(&s.diag, "page_cache_misses", "first reads"));
	session_free(&s);
	test_dir_remove(dir);
}

/* --pressure: the evictor thread is in fctrace's process but not a
 * worker, and what it removed is at most what it asked to drop. */
static void test_builtin_pressure(void **state)
{
	struct session s;
	const struct pc_evictions *e;
	const struct pc_eviction *ev = NULL;
	char *dir = test_dir_make();

	BPF_TEST_REQUIRE();
	run_fc(&s, dir, WL_CACHE_WARM, 20000);
	e = &s.joined.evictions;
	for (int i = 0; i < e->n; i++)
		if (e->e[i].pid == (uint32_t)getpid() && e->e[i].how == FCT_EV_FADVISE)
			ev = &e->e[i];
	assert_non_null(ev);
	assert_string_equal(ev->comm, "fct-evictor");
	assert_true(ev->target && !ev->traced);
	assert_true(ev->pages > 0 && ev->pages <= s.timings.pressure_pages_dropped);
	assert_true(ev->reread_pages <= e->reread_pages);
	assert_true(ev->reread_pages > 0);
	if (evidence_has(&s.diag, "page_cache_misses", "of the"))
		assert_true(evidence_has(&s.diag, "page_cache_misses", "--pressure evictor"));
	session_free(&s);
	test_dir_remove(dir);
}

/* Without the group: no removals recorded, the join off. */
static void test_not_selected(void **state)
{
	struct bpf_fixture fx;
	struct pfile c;
	struct marked m[1];

	BPF_TEST_REQUIRE();
	pfile_make(&c, K_PAGES);
	bpf_fixture_start(&fx, PG_FULL & ~PG_MASK(PG_PC_EVICT));
	run_marked(m, 1, read_drop_read, &c);
	bpf_fixture_read(&fx);
	assert_int_equal(kview_thread(&fx.kv, m[0].tid)->pages_added, 3 * K_PAGES);
	assert_int_equal(fx.kv.nevict, 0);
	assert_int_equal(fx.kv.evict_global.reread_pages, 0);
	assert_int_equal(fx.kv.evict_global.files, 0);
	bpf_fixture_done(&fx);
	pfile_remove(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_own_fadvise),
		cmocka_unit_test(test_other_process),
		cmocka_unit_test(test_cgroup_reclaim),
		cmocka_unit_test(test_not_selected),
		cmocka_unit_test(test_tracepoint_refused),
		cmocka_unit_test(test_builtin_cold),
		cmocka_unit_test(test_builtin_pressure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
