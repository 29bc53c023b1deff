/*
 * record_join.c - record one traced run as a test fixture (C data, see
 * join_fixture.h) for test_join. Needs root; run by hand, not by make
 * test, and commit what it writes:
 *
 *   .output/tests/join/record_join NAME run --workload fcp ... > tests/join/fixtures/NAME.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "trace/loader.h"
#include "cli/options.h"
#include "workload.h"

static int window_open(void *arg, const struct wl_thread_stats *th, unsigned n)
{
	tracer_start(arg);
	return 0;
}

static void window_close(void *arg)
{
	tracer_stop(arg);
}

#define F(p, f) do { if ((p)->f) printf(" ." #f " = %llu,", (unsigned long long)(p)->f); } while (0)

static void print_user(const struct wl_thread_stats *u)
{
	printf("\t{");
	F(u, tid); F(u, index); F(u, ops); F(u, start_ns); F(u, end_ns);
	F(u, lock_wait_ns); F(u, lock_hold_ns); F(u, lock_acquires); F(u, lock_contended);
	F(u, read_ns); F(u, lookup_ns); F(u, miss_read_ns); F(u, hits); F(u, misses);
	F(u, evictions); F(u, syscalls_in_lock); F(u, bytes_read); F(u, lat_timed);
	printf(" },\n");
}

static void print_nr(const struct fct_nr_stats *s)
{
	printf(" {");
	F(s, count); F(s, errors); F(s, timed); F(s, total_ns); F(s, blocked_ns);
	printf(" },");
}

static void print_sc_hist(const struct kv_sc_hist *h)
{
	printf("\t{ { %u, %u }, {", h->key.tid, h->key.nr);
	F(&h->val, min_ns); F(&h->val, max_ns);
	printf(" .hist = {");
	for (int i = 0; i < FCT_HIST_SLOTS; i++)
		if (h->val.hist[i])
			printf(" [%d] = %u,", i, h->val.hist[i]);
	printf(" } } },\n");
}

static void print_kthread(const struct fct_thread *t)
{
	printf("\t{");
	F(t, tid); F(t, begin_ns); F(t, end_ns);
	F(t, oncpu_ns); F(t, runq_ns); F(t, blocked_ns); F(t, futex_off_ns); F(t, futex_on_ns);
	F(t, sys_on_est_ns); F(t, offcpu_ns); F(t, runq_total_ns);
	F(t, vol_switches); F(t, invol_switches); F(t, futex_waits);
	F(t, pages_asked); F(t, pages_added); F(t, klock_waits); F(t, klock_wait_ns);
	printf(" .nr_at = {");
	for (unsigned i = 0; i < FCT_NR_MAX; i++)
		if (t->nr_at[i])
			printf(" [%u] = %u,", i, t->nr_at[i]);
	printf(" }, .nr_used = %u, .nr_room = %u,\n\t\t.nr_e = (struct fct_nr_stats[]){",
	       t->nr_used, t->nr_used);
	for (unsigned i = 0; i < t->nr_used; i++)
		print_nr(&t->nr_e[i]);
	printf(" } },\n");
}

static void print_kview(const char *name, const struct kview *kv)
{
	printf("static const struct fct_thread %s_k[] = {\n", name);
	for (int i = 0; i < kv->nthreads; i++)
		print_kthread(&kv->threads[i]);
	printf("};\n\nstatic const struct kv_sc_hist %s_sc_hists[] = {\n", name);
	for (int i = 0; i < kv->nsc_hists; i++)
		print_sc_hist(&kv->sc_hists[i]);
	printf("\t{ .key = { .tid = 0 } }	/* never empty */\n");
	printf("};\n\nstatic const struct kv_futex %s_futex[] = {\n", name);
	for (int i = 0; i < kv->nfutex; i++) {
		const struct kv_futex *f = &kv->futex[i];

		printf("\t{ { %u, %u, %#llxull }, {", f->key.tid, f->key.op,
		       (unsigned long long)f->key.uaddr);
		F(&f->val, waits); F(&f->val, wait_ns); F(&f->val, max_ns); F(&f->val, errors);
		printf(" } },\n");
	}
	printf("\t{ .key = { .tid = 0 } }	/* never empty */\n};\n\nstatic const struct kv_klock %s_klock[] = {\n", name);
	for (int i = 0; i < kv->nklock; i++) {
		const struct kv_klock *k = &kv->klock[i];

		printf("\t{ { .tid = %u, .flags = %#x, .ips = { %#llxull } }, {", k->key.tid,
		       k->key.flags, (unsigned long long)k->key.ips[0]);
		F(&k->val, waits); F(&k->val, wait_ns); F(&k->val, max_ns); F(&k->val, sampled);
		printf(" }, \"%s\", %llu, %llu },\n", k->caller, (unsigned long long)k->est_waits,
		       (unsigned long long)k->est_wait_ns);
	}
	printf("\t{ .key = { .tid = 0 } }\n};\n\nstatic const struct kv_pc %s_pc[] = {\n", name);
	for (int i = 0; i < kv->npc; i++) {
		const struct kv_pc *p = &kv->pc[i];

		printf("\t{ { %u, %u, %llu }, {", p->key.tid, p->key.dev, (unsigned long long)p->key.ino);
		F(&p->val, pages); F(&p->val, folios); F(&p->val, lookups); F(&p->val, lookup_pages);
		printf(" } },\n");
	}
	printf("\t{ .key = { .tid = 0 } }\n};\n\n");
}

static void print_fixture(const char *name, const char *line, const struct wl_result *res,
			  const struct kview *kv)
{
	printf("/* recorded by tests/join/record_join.c from a real traced run (root):\n"
	       " *   record_join %s %s\n"
	       " * Do not edit: record again. */\n#include \"../join_fixture.h\"\n\n", name, line);
	printf("static const struct wl_thread_stats %s_user[] = {\n", name);
	for (unsigned i = 0; i < res->nthreads; i++)
		print_user(&res->threads[i]);
	printf("};\n\nstatic const struct wl_lock_desc %s_locks[] = {\n", name);
	for (int i = 0; i < res->nlocks; i++)
		printf("\t{ \"%s\", %#llxull, %llu, %s },\n", res->locks[i].name,
		       (unsigned long long)res->locks[i].addr, (unsigned long long)res->locks[i].size,
		       res->locks[i].kind == LK_RWLOCK ? "LK_RWLOCK" : "LK_MUTEX");
	printf("\t{ .name = \"\" }\n};\n\n");
	print_kview(name, kv);
	printf("const struct join_fixture fixture_%s = {\n\t.what = \"%s\",\n", name, line);
	printf("\t.groups = %#x, .time_every = %u, .wall_ns = %llu,\n", kv->groups,
	       kv->time_every, (unsigned long long)res->wall_ns);
	printf("\t.user = %s_user, .nuser = %u, .locks = %s_locks, .nlocks = %d,\n", name,
	       res->nthreads, name, res->nlocks);
	printf("\t.kthreads = %s_k, .nkthreads = %d, .sc_hists = %s_sc_hists, .nsc_hists = %d,\n",
	       name, kv->nthreads, name, kv->nsc_hists);
	printf("\t.futex = %s_futex, .nfutex = %d,\n", name, kv->nfutex);
	printf("\t.klock = %s_klock, .nklock = %d, .pc = %s_pc, .npc = %d,\n};\n", name,
	       kv->nklock, name, kv->npc);
}

int main(int argc, char **argv)
{
	struct tracer_opts topts = { 0 };
	struct kview kv = { 0 };
	struct wl_hooks hooks = { window_open, window_close, NULL };
	struct options o;
	struct wl_result res;
	struct tracer *t;
	char line[512];
	size_t n = 0;
	int rc;

	line[0] = '\0';
	for (int i = 2; i < argc && n < sizeof(line); i++)	/* before argp rewrites argv */
		n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%s", i > 2 ? " " : "", argv[i]);
	if (argc < 3) {
		fprintf(stderr, "usage: record_join NAME run [option...]\n");
		return 2;
	}
	if ((rc = options_parse(argc - 1, argv + 1, &o)))
		return rc < 0 ? 0 : rc;
	topts.groups = o.trace.probes;
	topts.time_every = o.trace.time_every;
	topts.tgid = getpid();
	if (tracer_prepare(&t, &topts, &kv))
		return 1;
	hooks.arg = t;
	rc = wl_run(&o.wl, NULL, &hooks, &res);
	if (!rc)
		rc = tracer_read(t, &kv);
	tracer_finish(t);
	if (!rc)
		print_fixture(argv[1], line, &res, &kv);
	kview_free(&kv);
	wl_result_free(&res);
	return rc ? 1 : 0;
}
