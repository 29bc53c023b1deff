/*
 * bpfutil.c - helpers for the privileged BPF tests (see bpfutil.h).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <bpf/bpf.h>
#include "bpfutil.h"
#include "join/join.h"
#include "progwalk.h"
#include "workload.h"

const char *bpf_test_unavailable(void)
{
	return tracer_unavailable_reason();
}

bool bpf_test_required(void)
{
	const char *r = getenv("FCTRACE_REQUIRE_BPF"), *ci = getenv("CI");

	return (r && !strcmp(r, "1")) || (ci && !strcmp(ci, "true"));
}

void bpf_fixture_start(struct bpf_fixture *f, unsigned groups)
{
	bpf_fixture_start_every(f, groups, 0);
}

void bpf_fixture_start_every(struct bpf_fixture *f, unsigned groups, unsigned time_every)
{
	struct tracer_opts o = { .groups = groups, .tgid = getpid(), .time_every = time_every,
				 .verbose = getenv("FCTRACE_TEST_VERBOSE") != NULL };

	memset(f, 0, sizeof(*f));
	assert_int_equal(tracer_prepare(&f->t, &o, &f->kv), 0);
	assert_non_null(f->t);
	tracer_start(f->t);
}

void bpf_fixture_read(struct bpf_fixture *f)
{
	tracer_stop(f->t);
	assert_int_equal(tracer_read(f->t, &f->kv), 0);
}

void bpf_fixture_done(struct bpf_fixture *f)
{
	tracer_finish(f->t);
	kview_free(&f->kv);
	f->t = NULL;
}

static void *marked_main(void *p)
{
	struct marked *m = p;

	m->tid = (pid_t)syscall(SYS_gettid);
	m->begin_ns = wl_now_ns();
	fctrace_thread_begin(m->begin_ns, m->index);
	m->fn(m);
	m->end_ns = wl_now_ns();
	fctrace_thread_end(m->end_ns, m->index);
	return NULL;
}

void start_marked(struct marked *m, unsigned n, void (*fn)(struct marked *m), void *arg)
{
	for (unsigned i = 0; i < n; i++) {
		memset(&m[i], 0, sizeof(m[i]));
		m[i].index = i;
		m[i].fn = fn;
		m[i].arg = arg;
		assert_int_equal(pthread_create(&m[i].th, NULL, marked_main, &m[i]), 0);
	}
}

void join_marked(struct marked *m, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		pthread_join(m[i].th, NULL);
}

void run_marked(struct marked *m, unsigned n, void (*fn)(struct marked *m), void *arg)
{
	start_marked(m, n, fn, arg);
	join_marked(m, n);
}

uint64_t acct_sum(const struct fct_thread *t)
{
	return kview_derived(t).cpu_user_ns + kview_derived(t).cpu_sys_ns + t->runq_ns + t->blocked_ns + kview_derived(t).futex_wait_ns;
}

struct id_list {
	uint32_t *ids;
	int max, n;
};

static void add_id(int fd, const struct bpf_prog_info *info, void *arg)
{
	struct id_list *l = arg;

	if (l->n < l->max)
		l->ids[l->n] = info->id;
	l->n++;
}

/* fctrace programs (named fct_*) whose fds this process holds */
int bpf_fct_prog_ids(uint32_t *ids, int max)
{
	struct id_list l = { ids, ids ? max : 0, 0 };

	return fct_progs_each(add_id, &l);
}

bool bpf_prog_id_exists(uint32_t id)
{
	int fd = bpf_prog_get_fd_by_id(id);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* Of n events sampled as fctrace.h says (the first `warmup`, then one in
 * `every`), how many are sampled, and the sum of their weights. */
/* n calls: the warm-up, one a full block, and the last block's one if
 * its position (fct_sc_offset) was reached */
uint64_t sampled_count(uint64_t n, unsigned warmup, unsigned every)
{
	uint64_t past = n - warmup, full = past / every, rem = past % every;

	if (n <= warmup)
		return n;
	return warmup + full + (rem > fct_sc_offset(warmup / every + full, every));
}

uint64_t sampled_weight(uint64_t n, unsigned warmup, unsigned every)
{
	return n <= warmup ? n : warmup + (sampled_count(n, warmup, every) - warmup) * every;
}

const struct probe_status *probe_named(const struct kview *kv, const char *name)
{
	for (int i = 0; i < kv->nprobes; i++)
		if (!strcmp(kv->probes[i].name, name))
			return &kv->probes[i];
	return NULL;
}

/* The first user-space lock row whose name starts with prefix; the user rows
 * printed when there is none, for the failure that follows. */
const struct lock_total *lock_starting(const struct joined_run *m, const char *prefix)
{
	for (int i = 0; i < m->nlocks; i++)
		if (!m->locks[i].kernel && !strncmp(m->locks[i].name, prefix, strlen(prefix)))
			return &m->locks[i];
	/* not there: say what was, for the failure that follows */
	for (int i = 0; i < m->nlocks; i++)
		if (!m->locks[i].kernel)
			print_message("  user word: %s, %llu waits\n", m->locks[i].name,
				      (unsigned long long)m->locks[i].waits);
	return NULL;
}

const char *target_prog(void)
{
	const char *env = getenv("FCTRACE_TARGET_PROG");

	return env ? env : ".output/tests/target_prog";
}

void gated_start_fn(struct gated *g, void (*child)(void *arg), void *arg)
{
	int in[2], out[2];
	size_t n = 0;
	char c;

	assert_int_equal(pipe(in), 0);
	assert_int_equal(pipe(out), 0);
	g->pid = fork();
	assert_true(g->pid >= 0);
	if (g->pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[1]);
		close(out[0]);
		child(arg);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	/* a byte at a time up to its newline, so nothing after it is taken */
	while (n + 1 < sizeof(g->ready) && read(out[0], &c, 1) == 1 && c != '\n')
		g->ready[n++] = c;
	g->ready[n] = '\0';
	close(out[0]);
	g->in_fd = in[1];
	if (strncmp(g->ready, "ready", 5))
		fail_msg("pid %d said \"%s\", not ready", (int)g->pid, g->ready);
}

static void exec_target_prog(void *arg)
{
	const char *const *args = arg;
	const char *argv[16] = { target_prog() };
	int n = 1;

	for (; *args && n < 15; args++)
		argv[n++] = *args;
	argv[n] = NULL;
	execv(argv[0], (char *const *)argv);
}

void gated_start(struct gated *g, const char *const *args)
{
	gated_start_fn(g, exec_target_prog, (void *)args);
}

void gated_go(void *arg)
{
	struct gated *g = arg;

	assert_int_equal(write(g->in_fd, "go\n", 3), 3);
}

void gated_end(struct gated *g)
{
	int status;

	if (g->in_fd >= 0)
		close(g->in_fd);
	g->in_fd = -1;
	assert_int_equal(waitpid(g->pid, &status, 0), g->pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}
