/*
 * bpfutil.h - helpers for the privileged BPF tests: skip (or fail, in
 * CI) when BPF is unavailable, a prepared tracer on this process, and
 * threads that run a known sequence between their begin/end marks.
 */
#ifndef FCTRACE_BPFUTIL_H
#define FCTRACE_BPFUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <sys/types.h>
#include <cmocka.h>
#include "trace/loader.h"
#include "workload.h"	/* wl_now_ns */

/* The program fctrace did not write (tests/target_prog.c) that the tests
 * trace: $FCTRACE_TARGET_PROG or .output/tests/target_prog. */
const char *target_prog(void);

/* A process that says "ready..." on its stdout and goes on at a line on
 * its stdin (tests/target_prog's protocol), started on two pipes. */
struct gated {
	pid_t pid;
	int in_fd;		/* its stdin; -1 once closed */
	char ready[128];	/* its first line, "ready" and what follows */
};
/* Fork; in the child, stdin and stdout on the pipes, then child(arg), which
 * must not return (exec or _exit). Returns at its first line, which must
 * start "ready". */
void gated_start_fn(struct gated *g, void (*child)(void *arg), void *arg);
/* the same, the child execs target_prog with args (NULL-ended) */
void gated_start(struct gated *g, const char *const *args);
/* "go" on its stdin: a target_opts' on_window, arg a struct gated */
void gated_go(void *g);
/* close its stdin and wait for it: it must exit 0 */
void gated_end(struct gated *g);

/* Why the BPF tests cannot run here, or NULL. */
const char *bpf_test_unavailable(void);
/* FCTRACE_REQUIRE_BPF=1 or CI=true: a missing capability is a failure. */
bool bpf_test_required(void);

/* First statement of every privileged test. */
#define BPF_TEST_REQUIRE()							\
	do {									\
		const char *why_ = bpf_test_unavailable();			\
		if (why_) {							\
			if (bpf_test_required())				\
				fail_msg("BPF required but unavailable: %s", why_); \
			print_message("skip: %s\n", why_);			\
			skip();							\
		}								\
	} while (0)

/* A tracer prepared for getpid() with these groups, window open. */
struct bpf_fixture {
	struct tracer *t;
	struct kview kv;
};
void bpf_fixture_start(struct bpf_fixture *f, unsigned groups);
/* the same, timing one syscall in time_every (0: the default) */
void bpf_fixture_start_every(struct bpf_fixture *f, unsigned groups, unsigned time_every);
/* close the window and read the maps into f->kv */
void bpf_fixture_read(struct bpf_fixture *f);
void bpf_fixture_done(struct bpf_fixture *f);

/* One thread of a marked run and what it measured itself. */
struct marked {
	unsigned index;
	pid_t tid;
	uint64_t begin_ns, end_ns;
	void (*fn)(struct marked *m);
	void *arg;
	uint64_t user[4];	/* the body's own measurements */
	pthread_t th;
};

/* Start n threads running fn between fctrace_thread_begin/end; join them. */
void run_marked(struct marked *m, unsigned n, void (*fn)(struct marked *m), void *arg);
/* the same, without joining: call join_marked later */
void start_marked(struct marked *m, unsigned n, void (*fn)(struct marked *m), void *arg);
void join_marked(struct marked *m, unsigned n);

/* The sum of a thread's disjoint [A] time buckets. */
uint64_t acct_sum(const struct fct_thread *t);

/* The status of the probe shown as name ("tp_btf/sys_enter"), or NULL. */
const struct probe_status *probe_named(const struct kview *kv, const char *name);
/* The first user-space lock row of a joined run whose name starts with
 * prefix, or NULL (the user rows are printed then). */
struct joined_run;
struct lock_total;
const struct lock_total *lock_starting(const struct joined_run *m, const char *prefix);

/* Of n events sampled as fctrace.h says (the first warmup, then one in
 * every), how many are sampled, and the sum of their weights. */
uint64_t sampled_count(uint64_t n, unsigned warmup, unsigned every);
uint64_t sampled_weight(uint64_t n, unsigned warmup, unsigned every);

/* The ids of the fctrace programs (named fct_*) this process holds,
 * up to max; returns how many (other processes' are not counted). */
int bpf_fct_prog_ids(uint32_t *ids, int max);
/* Is program id still loaded anywhere in the kernel? */
bool bpf_prog_id_exists(uint32_t id);

#endif /* FCTRACE_BPFUTIL_H */
