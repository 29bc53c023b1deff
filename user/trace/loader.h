/*
 * loader.h - the BPF side's lifecycle, perf-style:
 *   tracer_prepare  open the skeleton, filter on the target, load, attach
 *   tracer_start    open the counting window
 *   tracer_stop     close it
 *   tracer_read     copy the maps into a struct kview
 *   tracer_finish   detach and free everything (safe on a partial prepare)
 */
#ifndef FCTRACE_LOADER_H
#define FCTRACE_LOADER_H

#include <stdbool.h>
#include <sys/types.h>
#include "trace/kview.h"
#include "trace/tlrec.h"

struct tracer;

/* Whose threads, and how their windows are found. */
enum tracer_target {
	TT_SELF,		/* fctrace's own workers: their begin/end marks */
	TT_EXEC,		/* a child about to exec: from its exec to its exit */
	TT_ATTACH,		/* a running process: from the attach to the close */
};

/* A sampled futex wait's user stack, as it arrives (during the run). */
typedef void (*tracer_ustack_fn)(void *arg, const struct fct_ustack *e, size_t len);

struct tracer_opts {
	unsigned groups;	/* PG_MASK bits wanted */
	pid_t tgid;		/* the process to trace (fctrace itself for TT_SELF) */
	enum tracer_target target;
	bool follow;		/* TT_EXEC/TT_ATTACH: and the processes it forks */
	bool tgid_list;		/* TT_ATTACH: more processes are added with
				 * tracer_add_process before tracer_adopt */
	unsigned time_every;	/* time 1 syscall in this many (power of 2); 0: default */
	unsigned max_threads;	/* accounts at once; 0: twice the target's threads now,
				 * at least FCT_SLOTS_MIN (rounded up to a power of 2) */
	bool verbose;		/* libbpf's debug output */
	double budget;		/* TT_EXEC/TT_ATTACH: fctrace's cost at most this share of
				 * the traced CPU time, or the file stream stops
				 * (selfcost.h); 0: no budget */
	tracer_ustack_fn on_ustack;	/* NULL: no user stacks are sampled */
	bool cpu_stacks;	/* and with on_ustack: each cpu-clock sample's stack
				 * too (op FCT_USTACK_OP_CPU) */
	bool sleep_stacks;	/* and with on_ustack: the sleeps' in syscalls
				 * (bstack.bpf.h) */
	void *ustack_arg;
	const char *libjvm;	/* a JVM target: its libjvm.so, for the USDT probes */
	/* --timeline: state edges from tl_start_ns after tracer_start, for
	 * tl_len_ns (0: no timeline), through a ring buffer of tl_bytes,
	 * into *tl_out (kv->tl says how it went) */
	uint64_t tl_start_ns, tl_len_ns;
	size_t tl_bytes;
	struct tl_events *tl_out;
};

/* Returns 0 when at least the marks and one other group attached; the
 * fate of every program is in kv->probes either way. On failure *out is
 * NULL and a one-line reason is printed. */
int tracer_prepare(struct tracer **out, const struct tracer_opts *opts,
		   struct kview *kv);
void tracer_start(struct tracer *t);
/* TT_ATTACH: open the accounts of the threads already running (after
 * tracer_start, so that no edge between the two is missed); 0 or -errno */
int tracer_adopt(struct tracer *t);
/* TT_ATTACH with tgid_list or follow: trace process tgid too, from now
 * on (its threads already running are taken over by tracer_adopt);
 * 0, or -errno (-E2BIG: the process table is full) */
int tracer_add_process(struct tracer *t, pid_t tgid);
/* Deliver the user stacks that arrived, waiting up to timeout_ms, and
 * returning within about timeout_ms however many arrive: a stack that
 * would be handed out after that is dropped and counted, the rest wait
 * in the ring for the next call. Returns how many, or -errno */
int tracer_poll(struct tracer *t, int timeout_ms);
/* Stacks that arrived but were never handed out (out of time in a turn,
 * or left in the ring at tracer_stop) */
uint64_t tracer_ustacks_dropped(const struct tracer *t);
/* How long tracer_stop hands out the stacks left in the ring before it
 * counts the rest as dropped: short when the user waits (the default,
 * 100 ms), longer when the program ended by itself. */
void tracer_last_turn(struct tracer *t, uint64_t ns);
/* Close the window; accounts still open are closed now (TT_EXEC,
 * TT_ATTACH) */
void tracer_stop(struct tracer *t);
int tracer_read(struct tracer *t, struct kview *kv);
/* A JVM target: what HotSpot's probes saw (jvm.h); 0 or -errno */
struct jvm_view;
int tracer_read_jvm(struct tracer *t, struct jvm_view *v);
/* Give the Java holders code (jvmhold.bpf.c) the JVM's field offsets
 * (jvm/jvm_structs.h): until then it watches no monitor. */
void tracer_set_jvm_structs(struct tracer *t, const struct fct_jvm_structs *js);
/* The watched user locks (--probes holders): up to max slots into out,
 * the run's counters into *g; how many, or -errno */
int tracer_read_holds(struct tracer *t, struct fct_hold_lock *out, int max,
		      struct fct_hold_global *g);
void tracer_finish(struct tracer *t);

/* Why BPF cannot run here (not root, no BTF, ...), or NULL if it can. */
const char *tracer_unavailable_reason(void);

#endif /* FCTRACE_LOADER_H */
