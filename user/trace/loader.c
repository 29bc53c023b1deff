/*
 * loader.c - the BPF side's lifecycle: prepare (open, filter, load,
 * attach), start/stop (the counting window), read (maps -> kview) and
 * finish. One skeleton holds every program; the loader turns off the
 * ones not wanted, attaches the rest one by one and reports each one's
 * fate in kv->probes.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include <sys/sysmacros.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "base/units.h"
#include "base/clock.h"
#include "trace/loader.h"	/* before the skeleton: it defines struct fct_lost */
#include "trace/slotrecycle.h"
#include "trace/slots.h"
#include "fctrace.skel.h"
#include "trace/cpustat.h"
#include "trace/cpuclock.h"
#include "trace/ksyms.h"
#include "jvm/jvm.h"
#include "trace/tlrec.h"
#include "trace/disk.h"
#include "trace/fupump.h"
#include "trace/selfcost.h"
#include "trace/sockinv.h"
#include "base/termsafe.h"

/* Every program in the skeleton, with the name shown to the user. A
 * program with `alt` falls back to that form if it cannot load. */
struct prog_desc {
	const char *prog;	/* bpf_program__name() */
	const char *shown;
	enum probe_group group;
	const char *alt;	/* fallback form, or NULL */
	bool is_alt;		/* loaded only in place of its primary */
	const char *uprobe_func;
	bool manual;		/* loaded, but run by the loader itself (no link) */
	bool per_cpu;		/* on a cpu-clock event per CPU (cpuclock.c) */
	bool flag;		/* no program: code inside others, on while the
				 * rodata flag holders_on is set */
	const char *host;	/* its code also rides in this program (a rodata
				 * flag, handles_on): then it is not loaded itself */
};

#define HOLDERS_ROW	"fct_holders"
/* the programs the holders code rides in */
static const char *const holders_hosts[] = { "fct_sys_enter", "fct_sys_exit", "fct_sched_switch" };

static const struct prog_desc progs[] = {
	{ .prog = "fct_mark_begin", .shown = "uprobe/fctrace_thread_begin",
	  .group = PG_MARKS, .uprobe_func = "fctrace_thread_begin" },
	{ .prog = "fct_mark_end", .shown = "uprobe/fctrace_thread_end",
	  .group = PG_MARKS, .uprobe_func = "fctrace_thread_end" },
	{ .prog = "fct_proc_exec", .shown = "tp_btf/sched_process_exec", .group = PG_THREADS },
	{ .prog = "fct_proc_fork", .shown = "tp_btf/sched_process_fork", .group = PG_THREADS },
	{ .prog = "fct_proc_exit", .shown = "tp_btf/sched_process_exit", .group = PG_THREADS },
	{ .prog = "fct_adopt_threads", .shown = "iter/task", .group = PG_THREADS, .manual = true },
	{ .prog = "fct_close_all", .shown = "syscall/close_all", .group = PG_THREADS,
	  .manual = true },
	{ .prog = "fct_sys_enter", .shown = "tp_btf/sys_enter",
	  .group = PG_SYSCALLS, .alt = "fct_sys_enter_raw" },
	{ .prog = "fct_sys_exit", .shown = "tp_btf/sys_exit",
	  .group = PG_SYSCALLS, .alt = "fct_sys_exit_raw" },
	{ .prog = "fct_sys_enter_raw", .shown = "raw_tp/sys_enter",
	  .group = PG_SYSCALLS, .is_alt = true },
	{ .prog = "fct_sys_exit_raw", .shown = "raw_tp/sys_exit",
	  .group = PG_SYSCALLS, .is_alt = true },
	{ .prog = "fct_sched_switch", .shown = "tp_btf/sched_switch", .group = PG_SCHED },
	{ .prog = "fct_sched_wakeup", .shown = "tp_btf/sched_wakeup", .group = PG_SCHED },
	{ .prog = "fct_sched_wakeup_new", .shown = "tp_btf/sched_wakeup_new", .group = PG_SCHED },
	{ .prog = "fct_sched_waking", .shown = "tp_btf/sched_waking", .group = PG_SCHED },
	{ .prog = "fct_contention_begin", .shown = "tp_btf/contention_begin", .group = PG_KLOCK },
	{ .prog = "fct_contention_end", .shown = "tp_btf/contention_end", .group = PG_KLOCK },
	{ .prog = "fct_pc_add", .shown = "tp_btf/mm_filemap_add_to_page_cache",
	  .group = PG_PAGECACHE },
	{ .prog = "fct_pc_lookup", .shown = "tp_btf/mm_filemap_get_pages", .group = PG_PC_LOOKUPS },
	{ .prog = "fct_pc_remove", .shown = "tp_btf/mm_filemap_delete_from_page_cache",
	  .group = PG_PC_EVICT },
	{ .prog = "fct_cpu_sample", .shown = "perf_event/cpu-clock", .group = PG_CPUCLOCK,
	  .per_cpu = true },
	{ .prog = "fct_disk_start", .shown = "tp_btf/block_io_start", .group = PG_DISK },
	{ .prog = "fct_disk_issue", .shown = "tp_btf/block_rq_issue", .group = PG_DISK },
	{ .prog = "fct_disk_complete", .shown = "tp_btf/block_rq_complete", .group = PG_DISK },
	{ .prog = "fct_disk_merge", .shown = "tp_btf/block_rq_merge", .group = PG_DISK },
	{ .prog = "fct_uring_submit", .shown = "tp_btf/io_uring_submit_req",
	  .group = PG_DISK },
	{ .prog = "fct_uring_async", .shown = "tp_btf/io_uring_queue_async_work",
	  .group = PG_DISK },
	{ .prog = "fct_uring_complete", .shown = "tp_btf/io_uring_complete",
	  .group = PG_DISK },
	/* the handles' stream (fileuse.bpf.h): inside the syscall programs when
	 * they load in their tp_btf form, in programs of its own otherwise */
	{ .prog = "fct_fu_enter", .shown = "tp_btf/sys_enter (handles)", .group = PG_HANDLES,
	  .host = "fct_sys_enter" },
	{ .prog = "fct_fu_exit", .shown = "tp_btf/sys_exit (handles)", .group = PG_HANDLES,
	  .host = "fct_sys_exit" },
	/* holders of contended user locks (holders.bpf.h): code inside the
	 * tp_btf syscall programs and fct_sched_switch (their on-CPU time
	 * comes from fct_cpu_sample, so they want the cpuclock group too) */
	{ .prog = HOLDERS_ROW, .shown = "holders (in sys_enter/exit and sched_switch)",
	  .group = PG_HOLDERS, .flag = true },
	/* the floor set (floor.bpf.c): the same hook points, trivial programs */
	{ .prog = "fct_floor_mark_begin", .shown = "uprobe/fctrace_thread_begin",
	  .group = PG_FLOOR, .uprobe_func = "fctrace_thread_begin" },
	{ .prog = "fct_floor_mark_end", .shown = "uprobe/fctrace_thread_end",
	  .group = PG_FLOOR, .uprobe_func = "fctrace_thread_end" },
	{ .prog = "fct_floor_sys_enter", .shown = "tp_btf/sys_enter", .group = PG_FLOOR },
	{ .prog = "fct_floor_sys_exit", .shown = "tp_btf/sys_exit", .group = PG_FLOOR },
	{ .prog = "fct_floor_sched_switch", .shown = "tp_btf/sched_switch", .group = PG_FLOOR },
	{ .prog = "fct_floor_sched_wakeup", .shown = "tp_btf/sched_wakeup", .group = PG_FLOOR },
	{ .prog = "fct_floor_sched_wakeup_new", .shown = "tp_btf/sched_wakeup_new",
	  .group = PG_FLOOR },
	{ .prog = "fct_floor_sched_waking", .shown = "tp_btf/sched_waking", .group = PG_FLOOR },
	{ .prog = "fct_floor_contention_begin", .shown = "tp_btf/contention_begin",
	  .group = PG_FLOOR },
	{ .prog = "fct_floor_contention_end", .shown = "tp_btf/contention_end",
	  .group = PG_FLOOR },
	{ .prog = "fct_floor_pc_add", .shown = "tp_btf/mm_filemap_add_to_page_cache",
	  .group = PG_FLOOR },
	{ .prog = "fct_floor_pc_remove", .shown = "tp_btf/mm_filemap_delete_from_page_cache",
	  .group = PG_FLOOR },
	{ .prog = "fct_floor_disk_start", .shown = "tp_btf/block_io_start", .group = PG_FLOOR },
	{ .prog = "fct_floor_disk_issue", .shown = "tp_btf/block_rq_issue", .group = PG_FLOOR },
	{ .prog = "fct_floor_disk_complete", .shown = "tp_btf/block_rq_complete",
	  .group = PG_FLOOR },
	{ .prog = "fct_floor_disk_merge", .shown = "tp_btf/block_rq_merge", .group = PG_FLOOR },
	{ .prog = "fct_floor_cpu_sample", .shown = "perf_event/cpu-clock", .group = PG_FLOOR,
	  .per_cpu = true },
};
#define NPROGS ((int)(sizeof(progs) / sizeof(*progs)))

/* What the loader decided for each program. */
enum prog_plan { PLAN_OFF, PLAN_LOAD, PLAN_FAILED };

#define MAX_TRACERS 4

/* Stacks kept over from one turn to the next (4.4 KiB each) before more
 * are dropped. */
#define USTACKS_PENDING		64

struct tracer {
	bool in_use;
	struct fctrace_bpf *skel;
	struct bpf_link *links[NPROGS];
	enum prog_plan plan[NPROGS];
	char why[NPROGS][128];		/* reason for PLAN_FAILED */
	short probe_prog[KV_PROBES_MAX];	/* kv->probes[j]'s program, or -1 (HotSpot's) */
	unsigned groups;		/* wanted, marks included */
	bool floor;			/* the floor set instead of the real programs */
	bool holders;			/* holders_on, as loaded */
	bool hosted;			/* handles_on: the handles' code in its hosts */
	pid_t tgid;
	enum tracer_target target;
	bool follow;
	bool tgid_list;
	unsigned time_every;		/* sc_time_every */
	unsigned nslots;		/* the thread table's size (slot_mask + 1) */
	unsigned threads_at_start;	/* the target's threads when it was sized */
	struct ring_buffer *ustacks;	/* NULL unless user stacks are sampled */
	struct fu_streams *fu;		/* NULL unless the handles group runs */
	struct fupump *fupump;		/* draining into fu, from start to stop */
	struct sockinv *flows;		/* the proxies found, scanned by fupump's tick */
	double budget;			/* tracer_opts.budget */
	struct selfcost *cost;		/* sampling the cost, from start to stop */
	struct slotrec *recycle;	/* ended threads' slots emptied, from start */
	struct selfcost_figures cost_f;
	struct cpuclock cpu;		/* the per_cpu program's events */
	const char *libjvm;		/* a JVM target's libjvm.so, or NULL */
	struct jvm_links jvm;
	tracer_ustack_fn on_ustack;
	bool cpu_stacks;		/* --cpu-stacks: the sampler sends stacks too */
	bool sleep_stacks;		/* the sleeps in syscalls send stacks too */
	void *ustack_arg;
	uint64_t poll_end_ns;		/* this turn's stacks are handed out until then */
	bool ustacks_draining;		/* after the window: count what is left, no more */
	/* stacks that came after their turn's time: kept for the next turn */
	struct fct_ustack *pending[USTACKS_PENDING];
	size_t pending_len[USTACKS_PENDING];
	int npending;
	uint64_t ustacks_dropped;	/* stacks received but never handed out */
	uint64_t last_turn_ns;		/* the stacks' turn after the window (0: the default) */
	uint64_t drained_ns;		/* the last poll that handed stacks out */
	struct cpustat cpu_start, cpu_end;	/* the machine's CPUs over the window */
	struct meminfo mem_open, mem_close;	/* and its free memory at the edges */
	struct diskstats disks_open, disks_close;	/* and its disks' counters */
	uint64_t on_ns, off_ns;		/* when the window opened and closed (monotonic_ns) */
	uint64_t tl_start_ns, tl_len_ns;	/* --timeline; tl_len_ns 0: off */
	size_t tl_bytes;
	struct tl_events *tl_out;
	struct tlrec *tlrec;		/* recording, between start and stop */
	struct kv_timeline tl;
};

/* After the window, the stacks still in the ring are named for this
 * long; the rest are counted as dropped. */
#define USTACKS_LAST_TURN_NS	100000000ull
/* and counted for at most this long after that (a target still sending) */
#define USTACKS_DRAIN_NS	50000000ull
/* The least time between two polls that hand stacks out: the ring wakes
 * its reader at the first record after a drain, and a server's waits
 * sent stacks in ones - MariaDB under sysbench woke fctrace 1000 times a
 * second, each wake-up a turn of the watch loop and two context switches.
 * Batched, a stack waits at most this long: a process's maps are read at
 * its first stack, so a process that lives shorter than that may go
 * unnamed (PostgreSQL's backends under -C live 20 ms and more; forked
 * ones unwind with their parent's maps, usym.c's twins). The handles'
 * pump stays at its 2 ms: it reads the shared mappings and descriptors
 * of short-lived processes (test_bpf_handles' shared pool lost its
 * processes at 20 ms). */
#define USTACKS_BATCH_NS	5000000ull

/* A static pool, so that tracer_finish on a finished tracer is a no-op. */
static struct tracer tracers[MAX_TRACERS];

static bool libbpf_verbose;

/* -v: libbpf's messages name a target's files (a USDT's path): escaped */
static int print_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	FILE *f;
	int n;

	if (!libbpf_verbose || !(f = term_stream(stderr)))
		return 0;
	n = vfprintf(f, fmt, ap);
	fclose(f);
	return n;
}

/* Is capability cap in this thread's effective set? (no libcap needed) */
static bool has_cap(int cap)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = { 0 };

	if (syscall(SYS_capget, &hdr, data))
		return false;
	return data[cap / 32].effective & (1u << (cap % 32));
}

const char *tracer_unavailable_reason(void)
{
	if (geteuid() != 0 && !(has_cap(CAP_BPF) && has_cap(CAP_PERFMON)))
		return "root, or CAP_BPF and CAP_PERFMON, to load BPF programs";
	if (access("/sys/kernel/btf/vmlinux", R_OK))
		return "a kernel with BTF (/sys/kernel/btf/vmlinux is missing: CONFIG_DEBUG_INFO_BTF)";
	return NULL;
}

static int prog_index(const char *name)
{
	for (int i = 0; i < NPROGS; i++)
		if (!strcmp(progs[i].prog, name))
			return i;
	return -1;
}

/* The first plan: the primary forms of the wanted groups. */
static void plan_initial(struct tracer *t)
{
	for (int i = 0; i < NPROGS; i++)
		t->plan[i] = (t->groups & PG_MASK(progs[i].group)) && !progs[i].is_alt
			     ? PLAN_LOAD : PLAN_OFF;
	t->holders = t->plan[prog_index(HOLDERS_ROW)] == PLAN_LOAD;
}

/* Is program i's code carried by its host this time (no program of its
 * own)? */
static bool rides_host(const struct tracer *t, int i)
{
	return progs[i].host && t->hosted;
}

/* The handles' code rides in the syscall programs when every host loads
 * in its tp_btf form (one dispatch per syscall fewer); otherwise its own
 * programs carry it. FCTRACE_HANDLES_APART=1 keeps them apart (the bench
 * compares the two). */
static void route_hosted(struct tracer *t)
{
	bool hosts = true, wanted = false;

	for (int i = 0; i < NPROGS; i++) {
		if (!progs[i].host)
			continue;
		wanted |= t->plan[i] == PLAN_LOAD;
		hosts &= t->plan[prog_index(progs[i].host)] == PLAN_LOAD;
	}
	t->hosted = wanted && hosts && !getenv("FCTRACE_HANDLES_APART");
}

/*
 * Test hook: FCTRACE_TEST_FAIL_PROBE=NAME[,NAME] (program names such as
 * fct_sys_enter, or the names shown, such as tp_btf/sys_enter) makes
 * those programs fail as on a kernel that cannot run them: a tp_btf
 * program is loaded with a flag no kernel knows, so the kernel refuses it
 * and the fallbacks run for real; any other fails to attach (ENOENT).
 * fct_holders refuses fct_sys_enter while it carries the holders code.
 */
static bool fail_injected(int i)
{
	const char *list = getenv("FCTRACE_TEST_FAIL_PROBE"), *p = list;

	while (p && *p) {
		size_t n = strcspn(p, ",");

		if ((strlen(progs[i].prog) == n && !strncmp(p, progs[i].prog, n)) ||
		    (strlen(progs[i].shown) == n && !strncmp(p, progs[i].shown, n)))
			return true;
		p += n + (p[n] == ',');
	}
	return false;
}

static bool is_tp_btf(int i)
{
	return !strncmp(progs[i].shown, "tp_btf/", 7);
}

/* The futex table's size: more threads wait on more words. */
static unsigned futex_entries(unsigned nslots)
{
	return nslots * FCT_FUTEX_PER_SLOT > FCT_FUTEX_ENTRIES ? nslots * FCT_FUTEX_PER_SLOT
							    : FCT_FUTEX_ENTRIES;
}

/* The syscall histograms' table size: a thread times a few dozen
 * numbers at most. */
static unsigned sc_hist_entries(unsigned nslots)
{
	return nslots * FCT_SC_HIST_PER_SLOT > FCT_SC_HIST_ENTRIES ?
	       nslots * FCT_SC_HIST_PER_SLOT : FCT_SC_HIST_ENTRIES;
}

/* The spilled syscall numbers' table: few threads call more than
 * FCT_NR_SLOT numbers (allocated as used). */
static unsigned nr_spill_entries(unsigned nslots)
{
	return nslots * FCT_NR_SPILL_PER_SLOT > FCT_NR_SPILL_ENTRIES ?
	       nslots * FCT_NR_SPILL_PER_SLOT : FCT_NR_SPILL_ENTRIES;
}

/* The handles' streams, drained by their own thread from tracer_start
 * to tracer_stop (fupump.h), when the group runs in either form. */
static bool fileuse_drained(const struct tracer *t)
{
	return (t->groups & PG_MASK(PG_HANDLES)) &&
	       t->plan[prog_index("fct_fu_enter")] == PLAN_LOAD;
}

/* Open the skeleton with the programs in `load` switched on. */
static struct fctrace_bpf *open_with(const struct tracer *t, const bool *load)
{
	struct fctrace_bpf *skel = fctrace_bpf__open();
	struct bpf_program *p;

	if (!skel)
		return NULL;
	skel->rodata->target_tgid = t->tgid;
	skel->data->sc_time_every = t->time_every;
	skel->rodata->slot_mask = t->nslots - 1;
	bpf_map__set_max_entries(skel->maps.slots, t->nslots);
	/* allocated as used (BPF_F_NO_PREALLOC): room costs only its buckets */
	bpf_map__set_max_entries(skel->maps.futex_waits, futex_entries(t->nslots));
	bpf_map__set_max_entries(skel->maps.sc_hists, sc_hist_entries(t->nslots));
	bpf_map__set_max_entries(skel->maps.nr_spill, nr_spill_entries(t->nslots));
	skel->rodata->follow_forks = t->follow;
	skel->rodata->tgid_list = t->tgid_list;
	skel->rodata->tracer_tgid = (__u32)getpid();	/* its own samples apart */
	skel->rodata->ustack_sample = t->on_ustack != NULL;
	skel->rodata->cpu_stacks = t->on_ustack != NULL && t->cpu_stacks;
	skel->rodata->wake_count = t->on_ustack != NULL;	/* the same programs' words */
	/* and their pools; FCTRACE_POOLS_OFF=1 leaves that code out (the bench) */
	skel->rodata->pools_on = t->on_ustack != NULL && !getenv("FCTRACE_POOLS_OFF");
	/* the kernel stacks of sleeps in syscalls, for the wait flame graph */
	skel->rodata->blocked_stacks = t->on_ustack != NULL && t->sleep_stacks;
	skel->rodata->holders_on = t->holders;
	skel->rodata->handles_on = t->hosted;
	/* io_uring's reads join the stream only where it is drained */
	skel->rodata->handles_stream = fileuse_drained(t);
	/* the re-read join in fct_pc_add runs only with the removals */
	skel->rodata->pc_evict_on = load[prog_index("fct_pc_remove")];
	/* one page when off: the map must exist, but costs nothing */
	bpf_map__set_max_entries(skel->maps.timeline, t->tl_len_ns ? t->tl_bytes : 4096);
	bpf_object__for_each_program(p, skel->obj) {
		int i = prog_index(bpf_program__name(p));

		bpf_program__set_autoload(p, i >= 0 && load[i] && !rides_host(t, i));
		if (i >= 0 && load[i] && is_tp_btf(i) && fail_injected(i))
			bpf_program__set_flags(p, 1u << 31);	/* a flag no kernel knows */
	}
	/* the holders code refused: its first host is, while it carries it */
	if (t->holders && fail_injected(prog_index(HOLDERS_ROW)))
		bpf_program__set_flags(skel->progs.fct_sys_enter, 1u << 31);
	/* nor is the timeline's opening snapshot (tlrec.c runs it) */
	bpf_program__set_autoload(skel->progs.fct_tl_snapshot, t->tl_len_ns != 0);
	if (t->libjvm) {	/* jvm.bpf.c's programs are not in progs[] */
		jvm_set_autoload(skel, true);
		jvm_set_holders_autoload(skel, t->holders);
		jvm_set_target(skel, t->tgid);
	}
	return skel;
}

/* Load one program alone; 0 or -errno. */
static int try_alone(const struct tracer *t, int i)
{
	bool load[NPROGS] = { 0 };
	struct fctrace_bpf *skel;
	int err;

	load[i] = true;
	skel = open_with(t, load);
	if (!skel)
		return -errno;
	err = fctrace_bpf__load(skel);
	fctrace_bpf__destroy(skel);
	return err;
}

/* The whole load failed: find the programs that cannot load, alone,
 * and swap in their alternative forms where there are some. */
static void plan_isolate(struct tracer *t)
{
	for (int i = 0; i < NPROGS; i++) {
		int err, a;

		if (t->plan[i] != PLAN_LOAD || progs[i].flag || !(err = try_alone(t, i)))
			continue;
		t->plan[i] = PLAN_FAILED;
		snprintf(t->why[i], sizeof(t->why[i]), "load failed: %s", strerror(-err));
		a = progs[i].alt ? prog_index(progs[i].alt) : -1;
		if (a >= 0 && try_alone(t, a) == 0)
			t->plan[a] = PLAN_LOAD;
	}
}

/* Open and load the plan, holders_on as t->holders says; 0 or -errno. */
static int load_plan(struct tracer *t)
{
	bool want[NPROGS];
	int err;

	for (int i = 0; i < NPROGS; i++)
		want[i] = t->plan[i] == PLAN_LOAD;
	t->skel = open_with(t, want);
	if (!t->skel)
		return -errno;
	err = fctrace_bpf__load(t->skel);
	if (err) {
		fctrace_bpf__destroy(t->skel);
		t->skel = NULL;
	}
	return err;
}

/* The set loads without the holders code, not with it (err). */
static void holders_drop(struct tracer *t, int err)
{
	int h = prog_index(HOLDERS_ROW);

	t->holders = false;
	t->plan[h] = PLAN_FAILED;
	snprintf(t->why[h], sizeof(t->why[h]), "load failed: %s; the rest ran without it",
		 strerror(-err));
}

/*
 * Load the plan. If it does not load: without the holders code, if it
 * was in (the newest verifier features are there); if that does not
 * load either, the programs that cannot load alone give way to their
 * other forms, and the holders code is tried once more with those.
 */
static int load(struct tracer *t)
{
	bool holders = t->holders;
	int err = load_plan(t), herr;

	if (!err)
		return 0;
	if (t->hosted) {	/* the handles' own programs instead, from here on */
		t->hosted = false;
		if (!load_plan(t))
			return 0;
	}
	if (holders) {
		t->holders = false;
		if (!load_plan(t)) {
			holders_drop(t, err);
			return 0;
		}
	}
	plan_isolate(t);
	if (!holders)
		return load_plan(t);
	t->holders = true;
	if (!(herr = load_plan(t)))
		return 0;
	t->holders = false;
	if (!(err = load_plan(t)))
		holders_drop(t, herr);
	return err;
}

static struct bpf_program *find_prog(struct tracer *t, int i)
{
	return bpf_object__find_program_by_name(t->skel->obj, progs[i].prog);
}

static struct bpf_link *attach_uprobe(struct tracer *t, int i)
{
	LIBBPF_OPTS(bpf_uprobe_opts, uo, .func_name = progs[i].uprobe_func);
	char link[64], exe[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/%d/exe", (int)t->tgid);
	n = readlink(link, exe, sizeof(exe) - 1);
	if (n < 0)
		return NULL;
	exe[n] = '\0';
	return bpf_program__attach_uprobe_opts(find_prog(t, i), t->tgid, exe, 0, &uo);
}

/* The user/sys sampler on every CPU. Without it the split falls back to
 * the syscall hooks' (kview_derived), and the reason says so. */
static void attach_per_cpu(struct tracer *t, int i)
{
	int err = fail_injected(i) ? -ENOENT
				   : cpuclock_attach(&t->cpu, find_prog(t, i), FCT_CPUCLOCK_HZ);

	if (!err)
		return;
	t->plan[i] = PLAN_FAILED;
	snprintf(t->why[i], sizeof(t->why[i]), "cannot open a cpu-clock event: %s; "
		 "user/sys split from the syscall hooks", strerror(-err));
}

/* Attach every loaded program; note each one's fate. */
static void attach_all(struct tracer *t)
{
	for (int i = 0; i < NPROGS; i++) {
		struct bpf_link *l;

		if (t->plan[i] != PLAN_LOAD || progs[i].manual || progs[i].flag ||
		    rides_host(t, i))
			continue;
		if (progs[i].per_cpu) {
			attach_per_cpu(t, i);
			continue;
		}
		if (!is_tp_btf(i) && fail_injected(i)) {
			l = NULL;
			errno = ENOENT;
		} else {
			l = progs[i].uprobe_func ? attach_uprobe(t, i)
						 : bpf_program__attach(find_prog(t, i));
		}
		if (!l) {
			int err = errno;

			t->plan[i] = PLAN_FAILED;
			snprintf(t->why[i], sizeof(t->why[i]), "attach failed: %s", strerror(err));
			continue;
		}
		t->links[i] = l;
	}
}

/* The holders code runs only if every program it rides in is attached
 * in its tp_btf form (the raw_tp forms do not carry it). */
static void holders_check_hosts(struct tracer *t)
{
	int h = prog_index(HOLDERS_ROW);

	if (t->plan[h] != PLAN_LOAD)
		return;
	for (size_t k = 0; k < sizeof(holders_hosts) / sizeof(*holders_hosts); k++) {
		int i = prog_index(holders_hosts[k]);

		if (t->links[i])
			continue;
		t->plan[h] = PLAN_FAILED;
		snprintf(t->why[h], sizeof(t->why[h]), "%s did not run: the holders code "
			 "rides in it", progs[i].shown);
		return;
	}
}

/* Did program i's fallback form take its place? */
static bool fallback_ran(const struct tracer *t, int i)
{
	int a = progs[i].alt ? prog_index(progs[i].alt) : -1;

	return a >= 0 && t->links[a];
}

/* Is program i running: attached, on its CPUs, or loaded for the loader
 * to run itself? */
static bool prog_running(const struct tracer *t, int i)
{
	if (progs[i].per_cpu)
		return t->plan[i] == PLAN_LOAD && t->cpu.n;
	if (progs[i].flag)
		return t->plan[i] == PLAN_LOAD && t->holders;
	if (rides_host(t, i))
		return t->plan[i] == PLAN_LOAD && t->links[prog_index(progs[i].host)];
	return t->links[i] || (progs[i].manual && t->plan[i] == PLAN_LOAD);
}

/* A group ran if it was wanted and every program it needs is attached,
 * in one form or the other. */
static unsigned groups_attached(const struct tracer *t)
{
	unsigned ok = t->groups;

	for (int i = 0; i < NPROGS; i++) {
		bool done = prog_running(t, i) || fallback_ran(t, i);

		if (!progs[i].is_alt && (t->groups & PG_MASK(progs[i].group)) && !done)
			ok &= ~PG_MASK(progs[i].group);
	}
	return ok;
}

/* " (first failure: NAME: reason)" for the messages below, which print
 * before any table could show the probe status */
static const char *first_failure(const struct kview *kv, char *buf, size_t n)
{
	buf[0] = '\0';
	for (int i = 0; i < kv->nprobes; i++)
		if (kv->probes[i].state == PROBE_FAILED) {
			snprintf(buf, n, " (first failure: %s: %s)", kv->probes[i].name,
				 kv->probes[i].reason);
			break;
		}
	return buf;
}

static void report_probes(struct tracer *t, struct kview *kv)
{
	kv->nprobes = 0;
	for (int i = 0; i < NPROGS && kv->nprobes < (int)(sizeof(kv->probes) / sizeof(*kv->probes)); i++) {
		struct probe_status *ps;

		if (progs[i].is_alt && t->plan[i] == PLAN_OFF)
			continue;	/* an unused fallback form */
		if ((progs[i].group == PG_FLOOR) != t->floor)
			continue;	/* the floor set and the real one hide each other */
		t->probe_prog[kv->nprobes] = (short)i;
		ps = &kv->probes[kv->nprobes++];
		if (rides_host(t, i))	/* "handles in tp_btf/sys_enter" */
			snprintf(ps->name, sizeof(ps->name), "%s in %s",
				 probe_group_name(progs[i].group),
				 progs[prog_index(progs[i].host)].shown);
		else
			snprintf(ps->name, sizeof(ps->name), "%s", progs[i].shown);
		ps->group = progs[i].group;
		if (prog_running(t, i))
			ps->state = PROBE_OK;
		else if (!(t->groups & PG_MASK(progs[i].group)))
			ps->state = PROBE_NOT_SELECTED;
		else
			ps->state = PROBE_FAILED;
		if (ps->state == PROBE_FAILED)
			snprintf(ps->reason, sizeof(ps->reason), "%s%s%s",
				 t->why[i][0] ? t->why[i] : "not loaded",
				 fallback_ran(t, i) ? "; ran as " : "",
				 fallback_ran(t, i) ? progs[prog_index(progs[i].alt)].shown : "");
	}
}

/* HotSpot's probes, after the others in the table. */
static void report_jvm_probes(struct tracer *t, struct kview *kv)
{
	int max = (int)(sizeof(kv->probes) / sizeof(*kv->probes));

	for (int p = 0; t->libjvm && p < JVM_NPROBES && kv->nprobes < max; p++) {
		struct probe_status *ps;

		t->probe_prog[kv->nprobes] = -1;
		ps = &kv->probes[kv->nprobes++];
		snprintf(ps->name, sizeof(ps->name), "%s", jvm_probe_shown(p));
		ps->group = PG_JVM;
		ps->state = t->jvm.link[p] ? PROBE_OK : PROBE_FAILED;
		if (jvm_probe_for_holders(p) && !t->holders) {
			ps->group = PG_HOLDERS;
			ps->state = PROBE_NOT_SELECTED;
		} else if (!t->jvm.link[p])
			snprintf(ps->reason, sizeof(ps->reason), "attach failed: %s",
				 strerror(t->jvm.err[p] ? -t->jvm.err[p] : ENOENT));
	}
}

/* The runs the kernel skipped of each program with code of its own (a
 * group riding a host's program is the host's): a hook hit again on a
 * CPU where its program is still at work - an interrupt inside it - is
 * not run, and only bpf_prog_info counts it. */
static void read_skipped(struct tracer *t, struct kview *kv)
{
	kv->lost.hooks_skipped = 0;
	for (int j = 0; j < kv->nprobes; j++) {
		int i = t->probe_prog[j], fd;
		struct bpf_program *p;
		struct bpf_prog_info info;
		__u32 len = sizeof(info);

		kv->probes[j].skipped = kv->probes[j].runs = 0;
		if (i < 0 || kv->probes[j].state != PROBE_OK || rides_host(t, i) || progs[i].flag)
			continue;
		p = find_prog(t, i);
		fd = p ? bpf_program__fd(p) : -1;
		memset(&info, 0, sizeof(info));
		if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
			continue;
		kv->probes[j].skipped = info.recursion_misses;
		kv->probes[j].runs = info.run_cnt;
		kv->lost.hooks_skipped += info.recursion_misses;
	}
}

int tracer_read_jvm(struct tracer *t, struct jvm_view *v)
{
	if (!t || !t->skel || !t->libjvm)
		return -EINVAL;
	return jvm_read(t->skel, t->tgid, v);
}

static struct tracer *tracer_alloc(void)
{
	for (int i = 0; i < MAX_TRACERS; i++) {
		if (!tracers[i].in_use) {
			memset(&tracers[i], 0, sizeof(tracers[i]));
			tracers[i].in_use = true;
			return &tracers[i];
		}
	}
	return NULL;
}

/* The group that opens and closes the accounts: always wanted. */
static unsigned window_group(enum tracer_target target)
{
	return PG_MASK(target == TT_SELF ? PG_MARKS : PG_THREADS);
}

static void tracer_setup(struct tracer *t, const struct tracer_opts *opts)
{
	unsigned wanted = opts->groups & ~(PG_MASK(PG_MARKS) | PG_MASK(PG_THREADS));

	/* the holders code rides in the syscall and switch programs */
	if (wanted & PG_MASK(PG_HOLDERS))
		wanted |= PG_MASK(PG_SYSCALLS) | PG_MASK(PG_SCHED);

	t->floor = opts->groups & PG_MASK(PG_FLOOR);
	t->target = opts->target;
	/* the floor set has marks of its own; the real sets need the real ones */
	t->groups = t->floor ? PG_MASK(PG_FLOOR) : wanted | window_group(t->target);
	t->tgid = opts->tgid ? opts->tgid : getpid();
	t->follow = opts->follow && t->target != TT_SELF;
	t->tgid_list = opts->tgid_list && t->target == TT_ATTACH;
	t->time_every = opts->time_every ? opts->time_every : FCT_SC_EVERY_DEFAULT;
	t->budget = t->target == TT_SELF ? 0 : opts->budget;
	t->threads_at_start = t->target == TT_ATTACH ? slots_threads_of(t->tgid) : 0;
	t->nslots = slots_size(opts->max_threads, t->threads_at_start);
	t->on_ustack = t->target != TT_SELF ? opts->on_ustack : NULL;
	t->libjvm = t->target != TT_SELF && !t->floor ? opts->libjvm : NULL;
	t->ustack_arg = opts->ustack_arg;
	t->cpu_stacks = opts->cpu_stacks;
	t->sleep_stacks = opts->sleep_stacks;
	if (opts->tl_len_ns && opts->tl_out && !t->floor) {
		t->tl_start_ns = opts->tl_start_ns;
		t->tl_len_ns = opts->tl_len_ns;
		t->tl_bytes = opts->tl_bytes;
		t->tl_out = opts->tl_out;
		t->tl.on = true;
		t->tl.ring_bytes = opts->tl_bytes;
		t->tl.asked_ns = opts->tl_len_ns;
	}
}

/* The one-line reason the loaded set cannot be used, or NULL. */
static const char *unusable(const struct tracer *t, unsigned groups)
{
	static char why[160];
	unsigned win = window_group(t->target);

	if (t->floor && !groups)
		return "cannot attach the whole floor set";
	if (t->floor)
		return NULL;
	if (!(groups & win) && t->target == TT_SELF) {
		snprintf(why, sizeof(why), "cannot attach uprobes to fctrace_thread_begin/end "
			 "in /proc/%d/exe", (int)t->tgid);
		return why;
	}
	if (!(groups & win))
		return "cannot attach the thread lifecycle tracepoints (sched_process_*)";
	if (!(groups & ~win) && (t->groups & ~win))
		return "no probe group could be attached";
	return NULL;
}

/* One stack out of the ring: handed out within the turn's time, else
 * dropped and counted, and the turn ends (the rest stay in the ring for
 * the next turn; the kernel drops and counts what does not fit). */
/* A stack past its turn's time: copied aside for the next turn, or
 * dropped when the queue is full. */
static bool keep_pending(struct tracer *t, const void *data, size_t len)
{
	struct fct_ustack *copy;

	if (t->npending == USTACKS_PENDING || len > sizeof(*copy) || !(copy = malloc(len)))
		return false;
	memcpy(copy, data, len);
	t->pending[t->npending] = copy;
	t->pending_len[t->npending++] = len;
	return true;
}

/* The stacks kept from the last turn, oldest first, within this turn. */
static void hand_out_pending(struct tracer *t)
{
	int i = 0;

	for (; i < t->npending && monotonic_ns() < t->poll_end_ns; i++) {
		t->on_ustack(t->ustack_arg, t->pending[i], t->pending_len[i]);
		free(t->pending[i]);
	}
	memmove(t->pending, t->pending + i, (size_t)(t->npending - i) * sizeof(*t->pending));
	memmove(t->pending_len, t->pending_len + i,
		(size_t)(t->npending - i) * sizeof(*t->pending_len));
	t->npending -= i;
}

static void drop_pending(struct tracer *t)
{
	for (int i = 0; i < t->npending; i++)
		free(t->pending[i]);
	t->ustacks_dropped += (uint64_t)t->npending;
	t->npending = 0;
}

static int ustack_event(void *ctx, void *data, size_t len)
{
	struct tracer *t = ctx;

	if (!t->ustacks_draining && monotonic_ns() >= t->poll_end_ns &&
	    len >= sizeof(struct fct_ustack) - FCT_USTACK_BYTES && keep_pending(t, data, len))
		return -EAGAIN;		/* the turn is over: the rest wait in the ring */
	if (t->ustacks_draining || monotonic_ns() >= t->poll_end_ns) {
		t->ustacks_dropped++;
		return t->ustacks_draining && monotonic_ns() < t->poll_end_ns + USTACKS_DRAIN_NS ?
		       0 : -EAGAIN;
	}
	if (len >= sizeof(struct fct_ustack) - FCT_USTACK_BYTES)
		t->on_ustack(t->ustack_arg, data, len);
	return 0;
}

static int open_ustacks(struct tracer *t)
{
	if (!t->on_ustack || !(t->groups & PG_MASK(PG_SYSCALLS)))
		return 0;
	t->ustacks = ring_buffer__new(bpf_map__fd(t->skel->maps.ustacks), ustack_event, t, NULL);
	return t->ustacks ? 0 : -errno;
}

static int open_fileuse(struct tracer *t)
{
	if (!fileuse_drained(t))
		return 0;
	t->fu = fu_streams_new();
	return t->fu ? 0 : -ENOMEM;
}

/* The processes traced now: the target, and the tgids map's (a list, or
 * the forks followed), at most max. */
static int traced_tgids(struct tracer *t, pid_t *out, int max)
{
	int fd = bpf_map__fd(t->skel->maps.tgids), n = 0;
	__u32 k, next;
	bool first = true;

	if (t->tgid > 0)
		out[n++] = t->tgid;
	while (n < max && !bpf_map_get_next_key(fd, first ? NULL : &k, &next)) {
		first = false;
		k = next;
		if ((pid_t)k != t->tgid)
			out[n++] = (pid_t)k;
	}
	return n;
}

/* Once a second in the pump's thread: the traced proxies' sockets into
 * the flow table (sockinv.h). */
static void scan_flows(void *arg)
{
	struct tracer *t = arg;
	pid_t tgids[256];

	if (t->flows)
		sockinv_scan(t->flows, tgids, traced_tgids(t, tgids, 256));
}

static int tgids_of(void *arg, pid_t *out, int max)
{
	return traced_tgids(arg, out, max);
}

/* The budget's third step (selfcost.h): the mask of the holders' slots
 * that keeps the keep watched words waited on most, free slots included
 * (a word watched later is not read either); *watched: the words watched. */
static uint32_t hold_rank(void *arg, int keep, int *watched)
{
	struct tracer *t = arg;
	struct fct_hold_lock *h = calloc(FCT_HOLD_SLOTS, sizeof(*h));
	uint32_t skip = (1u << FCT_HOLD_SLOTS) - 1;
	int fd = bpf_map__fd(t->skel->maps.holds);
	__u32 k;

	*watched = 0;
	if (!h)
		return 0;	/* no memory: nothing narrowed */
	for (k = 0; k < FCT_HOLD_SLOTS; k++)
		if (!bpf_map_lookup_elem(fd, &k, &h[k]) && h[k].uaddr)
			(*watched)++;
	for (int n = 0; n < keep; n++) {
		int best = -1;

		for (k = 0; k < FCT_HOLD_SLOTS; k++)
			if (h[k].uaddr && ((skip >> k) & 1) &&
			    (best < 0 || h[k].waits > h[best].waits))
				best = (int)k;
		if (best < 0)
			break;
		skip &= ~(1u << best);
	}
	free(h);
	return skip;
}

/* The cost's sampler over the loaded programs (selfcost.h). */
static void start_selfcost(struct tracer *t)
{
	struct selfcost_hooks h = { .tgids = tgids_of, .arg = t, .budget = t->budget,
				    .own_cpu = t->target != TT_SELF, .children = t->follow };
	struct bpf_program *p;

	bpf_object__for_each_program(p, t->skel->obj)
		if (h.nprogs < SELFCOST_PROGS && bpf_program__fd(p) >= 0)
			h.prog_fd[h.nprogs++] = bpf_program__fd(p);
	if (t->fu)
		h.fu_paused = &t->skel->bss->fu_paused;
	h.time_every = &t->skel->data->sc_time_every;
	if (t->groups & PG_MASK(PG_HOLDERS)) {
		h.hold_skip = &t->skel->bss->hold_skip;
		h.hold_rank = hold_rank;
	}
	t->cost = selfcost_start(&h);
}

static void start_fileuse(struct tracer *t)
{
	if (t->fu && !t->flows)
		t->flows = sockinv_new(bpf_map__fd(t->skel->maps.flow_socks),
				       bpf_map__fd(t->skel->maps.flow_groups), &t->skel->bss->flow_on);
	if (t->fu && !t->fupump && !(t->fupump = fupump_start(
			bpf_map__fd(t->skel->maps.fileuse), t->fu, &t->skel->bss->fu_paused,
			scan_flows, t)))
		fprintf(stderr, "fctrace: cannot drain the handles' ring buffer: %s\n",
			strerror(errno));
}

static void stop_fileuse(struct tracer *t)
{
	fupump_stop(t->fupump);
	t->fupump = NULL;
}

static int read_fileuse(struct tracer *t, struct kview *kv)
{
	if (!t->fu)
		return 0;
	stop_fileuse(t);
	kv->fu_sent = t->skel->bss->fu_sent;
	kv->fu_drops = t->skel->bss->fu_drops;
	kv->fu_uncounted = fu_streams_lost(t->fu);
	if (sockinv_read(t->flows, &kv->flows, &kv->nflows))
		return -ENOMEM;
	return fu_streams_read(t->fu, &kv->handles, &kv->nhandles);
}

/* The thread table's size and memory: in kv, and on stderr with -v. */
static void say_slots(const struct tracer *t, struct kview *kv, bool verbose)
{
	kv->slots = t->nslots;
	kv->futex_entries = futex_entries(t->nslots);
	kv->slots_bytes = (uint64_t)t->nslots * bpf_map__value_size(t->skel->maps.slots);
	if (!verbose)
		return;
	fprintf(stderr, "fctrace: thread table: %u accounts at once (", t->nslots);
	if (t->threads_at_start)
		fprintf(stderr, "the target had %u thread%s; ", t->threads_at_start,
			units_plural(t->threads_at_start));
	fprintf(stderr, "--max-threads sets it), %.1f MiB of kernel memory\n",
		(double)kv->slots_bytes / (1024.0 * 1024.0));
}

int tracer_prepare(struct tracer **out, const struct tracer_opts *opts,
		   struct kview *kv)
{
	const char *why = tracer_unavailable_reason();
	struct tracer *t;
	char failed[200];
	int err;

	*out = NULL;
	if (why) {
		fprintf(stderr, "fctrace: cannot trace: %s\n", why);
		return -EPERM;
	}
	t = tracer_alloc();
	if (!t) {
		fprintf(stderr, "fctrace: too many tracers at once (at most %d)\n", MAX_TRACERS);
		return -EBUSY;
	}
	libbpf_verbose = opts->verbose;
	libbpf_set_print(print_libbpf);
	tracer_setup(t, opts);

	plan_initial(t);
	route_hosted(t);
	err = load(t);
	if (!err) {
		attach_all(t);
		holders_check_hosts(t);
	}
	if (!err && t->libjvm)
		jvm_attach(t->skel, t->tgid, t->libjvm, &t->jvm);
	report_probes(t, kv);
	report_jvm_probes(t, kv);
	kv->groups = err ? 0 : groups_attached(t) | (t->jvm.nattached ? PG_MASK(PG_JVM) : 0);
	kv->time_every = t->time_every;
	if (!err)
		say_slots(t, kv, opts->verbose);

	if (err) {
		fprintf(stderr, "fctrace: cannot load the BPF programs: %s (-v shows libbpf's log)\n",
			strerror(-err));
	} else if ((why = unusable(t, kv->groups))) {
		fprintf(stderr, "fctrace: %s%s\n", why, first_failure(kv, failed, sizeof(failed)));
		err = -ENOENT;
	} else if ((err = open_ustacks(t))) {
		fprintf(stderr, "fctrace: cannot open the user stack ring buffer: %s\n",
			strerror(-err));
	} else if ((err = open_fileuse(t))) {
		fprintf(stderr, "fctrace: cannot open the handles' ring buffer: %s\n",
			strerror(-err));
	}
	if (err) {
		tracer_finish(t);
		return err;
	}
	*out = t;
	return 0;
}

/* The maps keyed by thread whose entries go with a recycled slot. */
static void track_tid_maps(struct tracer *t)
{
	struct bpf_map *const maps[] = {
		t->skel->maps.futex_waits, t->skel->maps.wake_after, t->skel->maps.sib_after,
		t->skel->maps.sc_hists, t->skel->maps.pc_pages, t->skel->maps.klock_waits,
	};

	for (size_t i = 0; i < sizeof(maps) / sizeof(maps[0]); i++)
		slotrec_track_map(t->recycle, bpf_map__fd(maps[i]), bpf_map__key_size(maps[i]),
				  bpf_map__value_size(maps[i]));
}

void tracer_start(struct tracer *t)
{
	if (!t || !t->skel)
		return;
	cpustat_read(&t->cpu_start);
	meminfo_read(&t->mem_open);
	diskstats_read(&t->disks_open);
	t->on_ns = monotonic_ns();
	__atomic_store_n(&t->skel->bss->enabled, 1, __ATOMIC_SEQ_CST);
	if (!t->recycle && (t->recycle = slotrec_open(bpf_map__fd(t->skel->maps.slots),
						      bpf_map__value_size(t->skel->maps.slots),
						      t->nslots, bpf_map__fd(t->skel->maps.nr_spill),
						      &t->skel->bss->slots_claimed)))
		track_tid_maps(t);	/* once: a map tracked twice would give its entries twice */
	start_fileuse(t);
	if (t->target != TT_ATTACH)	/* an attach's, once its processes are adopted */
		start_selfcost(t);
	if (t->tl_len_ns && !t->tlrec) {
		struct tlrec_flags fl = { &t->skel->bss->tl_on, &t->skel->bss->tl_end_ns,
			bpf_program__fd(t->skel->progs.fct_tl_snapshot) };

		t->tlrec = tlrec_start(bpf_map__fd(t->skel->maps.timeline), fl,
				       monotonic_ns() + t->tl_start_ns, t->tl_len_ns, t->tl_out);
	}
	if (t->tl_len_ns && !t->tlrec)
		fprintf(stderr, "fctrace: cannot record the timeline: %s\n", strerror(errno));
}

/* Close the timeline's window (if still open) and keep what it recorded. */
static void timeline_stop(struct tracer *t)
{
	uint64_t lost = 0;

	if (!t->tlrec)
		return;
	tlrec_stop(t->tlrec, &t->tl.begin_ns, &t->tl.end_ns, &lost);
	t->tlrec = NULL;
	t->tl.dropped = lost + t->skel->bss->tl_drops;
}

/* Run the task iterator once: it claims a slot for every thread of the
 * target that is alive now. */
int tracer_adopt(struct tracer *t)
{
	struct bpf_link *link;
	char buf[64];
	int fd, err = 0;

	if (!t || !t->skel || t->target != TT_ATTACH)
		return -EINVAL;
	link = bpf_program__attach_iter(t->skel->progs.fct_adopt_threads, NULL);
	if (!link)
		return -errno;
	fd = bpf_iter_create(bpf_link__fd(link));
	if (fd < 0)
		err = -errno;
	while (fd >= 0 && read(fd, buf, sizeof(buf)) > 0)
		;
	if (fd >= 0)
		close(fd);
	bpf_link__destroy(link);
	/* the cost sampled from here: the processes listed, the adoption's
	 * one-time work (the iterator, the first stacks' symbols) behind */
	if (!t->cost)
		start_selfcost(t);
	return err;
}

int tracer_add_process(struct tracer *t, pid_t tgid)
{
	__u32 k = (__u32)tgid, one = 1;

	if (!t || !t->skel || t->target != TT_ATTACH || !(t->tgid_list || t->follow))
		return -EINVAL;
	if (tgid == t->tgid)
		return 0;
	if (bpf_map__update_elem(t->skel->maps.tgids, &k, sizeof(k), &one, sizeof(one), BPF_ANY))
		return errno == E2BIG || errno == ENOMEM ? -E2BIG : -errno;
	return 0;
}

int tracer_poll(struct tracer *t, int timeout_ms)
{
	uint64_t now;
	int n;

	if (t)
		slotrec_tick(t->recycle, monotonic_ns());
	if (!t || !t->ustacks) {
		if (timeout_ms > 0)
			usleep((useconds_t)timeout_ms * 1000);
		return 0;
	}
	now = monotonic_ns();
	t->poll_end_ns = now + (uint64_t)(timeout_ms > 0 ? timeout_ms : 0) * 1000000ull;
	hand_out_pending(t);
	if (t->npending)	/* still behind: no new stacks this turn */
		return 0;
	if (timeout_ms > 0 && t->drained_ns && now - t->drained_ns < USTACKS_BATCH_NS) {
		uint64_t wait = t->drained_ns + USTACKS_BATCH_NS - now;
		struct timespec ts = { 0, (long)(wait < t->poll_end_ns - now ? wait :
						 t->poll_end_ns - now) };

		nanosleep(&ts, NULL);	/* a signal ends it early: the loop looks */
		now = monotonic_ns();
		timeout_ms = now >= t->poll_end_ns ? 0 :
			     (int)((t->poll_end_ns - now + 999999) / 1000000);
	}
	n = ring_buffer__poll(t->ustacks, timeout_ms);
	if (n > 0)
		t->drained_ns = monotonic_ns();
	return n == -EAGAIN || n == -EINTR ? 0 : n;
}

void tracer_last_turn(struct tracer *t, uint64_t ns)
{
	if (t)
		t->last_turn_ns = ns;
}

uint64_t tracer_ustacks_dropped(const struct tracer *t)
{
	return t ? t->ustacks_dropped : 0;
}

/* After the window: what is left in the ring was never handed out. */
static void ustacks_drain(struct tracer *t)
{
	if (!t->ustacks || t->ustacks_draining)
		return;
	t->ustacks_draining = true;
	ring_buffer__consume(t->ustacks);
}

/* Close every account still open, in the kernel, at one instant. */
static void close_open_accounts(struct tracer *t)
{
	LIBBPF_OPTS(bpf_test_run_opts, ro);

	if (t->target == TT_SELF || !t->skel)
		return;
	bpf_prog_test_run_opts(bpf_program__fd(t->skel->progs.fct_close_all), &ro);
}

void tracer_stop(struct tracer *t)
{
	if (!t || !t->skel)
		return;
	timeline_stop(t);
	__atomic_store_n(&t->skel->bss->enabled, 0, __ATOMIC_SEQ_CST);
	t->off_ns = monotonic_ns();
	selfcost_stop(t->cost, &t->cost_f);
	t->cost = NULL;
	cpustat_read(&t->cpu_end);
	meminfo_read(&t->mem_close);
	diskstats_read(&t->disks_close);
	close_open_accounts(t);
	/* the stacks left: named for one more turn's time, the rest counted */
	if (t->ustacks) {
		t->poll_end_ns = monotonic_ns() + (t->last_turn_ns ? t->last_turn_ns :
						 USTACKS_LAST_TURN_NS);
		hand_out_pending(t);
		drop_pending(t);
		ring_buffer__consume(t->ustacks);
		ustacks_drain(t);
	}
}

/* One used slot's account onto kv->threads; -ENOMEM. */
static int keep_thread(struct kview *kv, const struct fct_account *a, int *cap)
{
	if (kv->nthreads == *cap) {
		void *p = realloc(kv->threads, (size_t)(*cap = *cap ? 2 * *cap : 64) *
				  sizeof(*kv->threads));

		if (!p)
			return -ENOMEM;
		kv->threads = p;
	}
	return slots_account_copy(&kv->threads[kv->nthreads++], &kv->nr_arena, a) ? -ENOMEM : 0;
}

/* A slot holding an account (not never used, not recycled empty). */
static bool used_slot(const struct fct_account *a)
{
	return a->tid && a->tid != FCT_TID_RECYCLED;
}

/* The slots read in place through the map's mapping (BPF_F_MMAPABLE: an
 * array's values are 8-byte aligned, one after the other); 1 when it
 * cannot be mapped, and the caller looks them up one by one. */
static int read_threads_mapped(struct tracer *t, struct kview *kv, int fd, size_t vsz)
{
	size_t stride = (vsz + 7) & ~(size_t)7, page = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = (stride * t->nslots + page - 1) / page * page;
	const char *base = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	int cap = 0, err = 0;

	if (base == MAP_FAILED)
		return 1;
	/* one allocation for the used slots: doubling copied each
	 * struct fct_thread again and again */
	for (__u32 k = 0; k < t->nslots; k++)
		cap += used_slot((const struct fct_account *)(base + k * stride));
	if (cap && !(kv->threads = calloc((size_t)cap, sizeof(*kv->threads))))
		err = -ENOMEM;
	for (__u32 k = 0; k < t->nslots && !err; k++) {
		const struct fct_account *a = (const struct fct_account *)(base + k * stride);

		if (used_slot(a))
			err = keep_thread(kv, a, &cap);
	}
	munmap((void *)base, len);
	return err;
}

/* Every slot a thread used, active or closed. A slot is the account
 * (struct fct_account) followed by the BPF programs' private state: only
 * the account is kept, as a struct fct_thread. */
static int read_threads(struct tracer *t, struct kview *kv)
{
	int fd = bpf_map__fd(t->skel->maps.slots), cap = 0, err;
	size_t vsz = bpf_map__value_size(t->skel->maps.slots);
	char *val;

	if (vsz < sizeof(struct fct_account))
		return -ENOMEM;
	if ((err = read_threads_mapped(t, kv, fd, vsz)) <= 0)
		return err;
	if (!(val = calloc(1, vsz)))
		return -ENOMEM;
	for (__u32 k = 0; k < t->nslots && !err; k++)
		if (!bpf_map_lookup_elem(fd, &k, val) && used_slot((struct fct_account *)val))
			err = keep_thread(kv, (const struct fct_account *)val, &cap);
	free(val);
	return err;
}

/* Copy a hash map: calls add(key, value) for every entry, in no order. */
static int read_hash(int fd, size_t ksz, size_t vsz,
		     int (*add)(struct kview *kv, const void *k, const void *v, void *arg),
		     struct kview *kv, void *arg)
{
	char key[128], next[128], val[2048];
	void *prev = NULL;
	int err;

	if (ksz > sizeof(key) || vsz > sizeof(val))
		return -EINVAL;
	while (!bpf_map_get_next_key(fd, prev, next)) {
		memcpy(key, next, ksz);
		prev = key;
		if (bpf_map_lookup_elem(fd, key, val))
			continue;	/* deleted meanwhile */
		if ((err = add(kv, key, val, arg)))
			return err;
	}
	return 0;
}

/* A map keyed by thread: the entries the recycler moved out, then the
 * map's own. */
static int read_tid_hash(struct tracer *t, struct bpf_map *map, size_t ksz, size_t vsz,
			 int (*add)(struct kview *kv, const void *k, const void *v, void *arg),
			 struct kview *kv, void *arg)
{
	int err = slotrec_each_moved(t->recycle, bpf_map__fd(map), add, kv, arg);

	return err ? err : read_hash(bpf_map__fd(map), ksz, vsz, add, kv, arg);
}

struct spill_ix {
	struct kv_tid_at *ix;
	int n;
};

static int add_spilled(struct kview *kv, const void *k, const void *v, void *arg)
{
	const struct spill_ix *s = arg;

	return slots_add_spilled(kv, s->ix, s->n, k, v) ? -ENOMEM : 0;
}

/* The numbers threads called past their slots' tables, into them. */
static int read_spilled(struct tracer *t, struct kview *kv)
{
	struct spill_ix s = { .ix = kview_tids_sorted(kv, &s.n) };
	int err;

	if (kv->nthreads && !s.ix)
		return -ENOMEM;
	err = read_hash(bpf_map__fd(t->skel->maps.nr_spill), sizeof(struct fct_sc_hist_key),
			sizeof(struct fct_nr_stats), add_spilled, kv, &s);
	free(s.ix);
	return err;
}

/* grow *arr of *n elements by one; the new element, zeroed */
static void *grow(void *arrp, int *n, size_t sz)
{
	void **arr = arrp;
	char *p = realloc(*arr, (*n + 1) * sz);

	if (!p)
		return NULL;
	*arr = p;
	memset(p + *n * sz, 0, sz);
	return p + (*n)++ * sz;
}

static int add_sc_hist(struct kview *kv, const void *k, const void *v, void *arg)
{
	struct kv_sc_hist *h = grow(&kv->sc_hists, &kv->nsc_hists, sizeof(*h));

	if (!h)
		return -ENOMEM;
	memcpy(&h->key, k, sizeof(h->key));
	memcpy(&h->val, v, sizeof(h->val));
	return 0;
}

static int add_futex(struct kview *kv, const void *k, const void *v, void *arg)
{
	struct kv_futex *f = grow(&kv->futex, &kv->nfutex, sizeof(*f));

	if (!f)
		return -ENOMEM;
	memcpy(&f->key, k, sizeof(f->key));
	memcpy(&f->val, v, sizeof(f->val));
	return 0;
}

static int add_wake_after(struct kview *kv, const void *k, const void *v, void *arg)
{
	struct kv_wake_after *w = grow(&kv->wake_after, &kv->nwake_after, sizeof(*w));

	if (!w)
		return -ENOMEM;
	memcpy(&w->key, k, sizeof(w->key));
	memcpy(&w->val, v, sizeof(w->val));
	return 0;
}

static int add_uring(struct kview *kv, const void *k, const void *v, void *arg)
{
	struct kv_uring *u = grow(&kv->uring, &kv->nuring, sizeof(*u));

	if (!u)
		return -ENOMEM;
	memcpy(&u->key, k, sizeof(u->key));
	memcpy(&u->val, v, sizeof(u->val));
	return 0;
}

static int add_sib_after(struct kview *kv, const void *k, const void *v, void *arg)
{
	struct kv_sib_after *w = grow(&kv->sib_after, &kv->nsib_after, sizeof(*w));

	if (!w)
		return -ENOMEM;
	memcpy(&w->key, k, sizeof(w->key));
	memcpy(&w->val, v, sizeof(w->val));
	return 0;
}

static int add_pool(struct kview *kv, const void *k, const void *v, void *arg)
{
	struct kv_pool *p = grow(&kv->pools, &kv->npools, sizeof(*p));

	if (!p)
		return -ENOMEM;
	memcpy(&p->key, k, sizeof(p->key));
	memcpy(&p->val, v, sizeof(p->val));
	return 0;
}

static int add_evict(struct kview *kv, const void *k, const void *v, void *arg)
{
	struct kv_evict *e = grow(&kv->evict, &kv->nevict, sizeof(*e));

	if (!e)
		return -ENOMEM;
	memcpy(&e->key, k, sizeof(e->key));
	memcpy(&e->val, v, sizeof(e->val));
	return 0;
}

static int add_pc(struct kview *kv, const void *k, const void *v, void *arg)
{
	struct kv_pc *p = grow(&kv->pc, &kv->npc, sizeof(*p));

	if (!p)
		return -ENOMEM;
	memcpy(&p->key, k, sizeof(p->key));
	memcpy(&p->val, v, sizeof(p->val));
	/* kernel dev_t (major << 20 | minor) -> st_dev's encoding */
	p->key.dev = (__u32)makedev(p->key.dev >> 20, p->key.dev & 0xfffff);
	return 0;
}

static int add_other(struct kview *kv, const void *k, const void *v, void *arg)
{
	const struct fct_other_val *val = v;
	struct kv_other *o = grow(&kv->others, &kv->nothers, sizeof(*o));

	(void)arg;
	if (!o)
		return -ENOMEM;
	memcpy(&o->tgid, k, sizeof(o->tgid));
	o->samples = val->samples;
	memcpy(o->comm, val->comm, sizeof(o->comm));
	o->comm[sizeof(o->comm) - 1] = '\0';
	return 0;
}

static int by_samples(const void *a, const void *b)
{
	const struct kv_other *x = a, *y = b;

	return x->samples < y->samples ? 1 : x->samples > y->samples ? -1 :
	       x->tgid < y->tgid ? -1 : x->tgid > y->tgid;
}

/* The other processes the sampler saw, most sampled first. */
static int read_others(struct tracer *t, struct kview *kv)
{
	int err = read_hash(bpf_map__fd(t->skel->maps.other_procs), sizeof(__u32),
			    sizeof(struct fct_other_val), add_other, kv, NULL);

	if (!err && kv->nothers > 1)
		qsort(kv->others, (size_t)kv->nothers, sizeof(*kv->others), by_samples);
	return err;
}

struct klock_ctx {
	struct ksyms *ks;
	bool ks_tried;
};

static int add_klock(struct kview *kv, const void *k, const void *v, void *arg)
{
	struct kv_klock *l = grow(&kv->klock, &kv->nklock, sizeof(*l));
	struct klock_ctx *c = arg;

	if (!l)
		return -ENOMEM;
	memcpy(&l->key, k, sizeof(l->key));
	memcpy(&l->val, v, sizeof(l->val));
	snprintf(l->caller, sizeof(l->caller), "?");
	if (!l->key.ips[0])
		return 0;
	if (!c->ks_tried) {
		c->ks = ksyms_load(NULL);
		c->ks_tried = true;
	}
	if (c->ks)
		ksyms_caller(c->ks, (const uint64_t *)l->key.ips, FCT_STACK_DEPTH, l->caller,
			     sizeof(l->caller));
	return 0;
}

/* The timeline recorded nothing before the first account opened (a
 * program run by fctrace starts at its exec, which a loaded machine
 * makes tens of ms late) nor after the last closed (the program ended;
 * fctrace may have been stopped and woken past the window's end): its
 * window is cut to them. */
static void timeline_cut(struct kview *kv)
{
	uint64_t first = UINT64_MAX, last = 0;

	for (int i = 0; i < kv->nthreads; i++)
		if (kv->threads[i].begin_ns && kv->threads[i].begin_ns < first)
			first = kv->threads[i].begin_ns;
	if (kv->nthreads && first != UINT64_MAX && first > kv->tl.begin_ns &&
	    first < kv->tl.end_ns)
		kv->tl.begin_ns = first;
	for (int i = 0; i < kv->nthreads; i++) {
		if (!kv->threads[i].end_ns)
			return;		/* one still open: nothing to cut */
		if (kv->threads[i].end_ns > last)
			last = kv->threads[i].end_ns;
	}
	if (kv->nthreads && last < kv->tl.end_ns)
		kv->tl.end_ns = last > kv->tl.begin_ns ? last : kv->tl.begin_ns;
}

/* Hook invocations inside the window, as far as the accounts tell. */
static uint64_t count_events(const struct kview *kv)
{
	uint64_t n = 0;

	for (int i = 0; i < kv->nthreads; i++) {
		const struct fct_thread *th = &kv->threads[i];

		for (int s = 0; s < FCT_NR_MAX; s++)
			n += 2 * acct_nr(th, s)->count;
		n += th->vol_switches + th->invol_switches + 2 * th->klock_waits + 2;
		n += th->cpu_samples_user + th->cpu_samples_sys + th->cpu_samples_futex;
	}
	for (int i = 0; i < kv->npc; i++)
		n += kv->pc[i].val.folios + kv->pc[i].val.lookups;
	for (int i = 0; i < kv->nevict; i++)	/* removals of the target's files only */
		n += kv->evict[i].val.folios;
	return n;
}

/* The floor set's hook invocations in the window: its per-CPU counters. */
static uint64_t floor_hits(struct tracer *t)
{
	int fd = bpf_map__fd(t->skel->maps.floor_hits), ncpus = libbpf_num_possible_cpus();
	uint64_t n = 0, *v;

	if (ncpus <= 0 || !(v = calloc(ncpus, sizeof(*v))))
		return 0;
	for (__u32 k = 0; k < FCT_FL_N; k++)
		if (!bpf_map_lookup_elem(fd, &k, v))
			for (int c = 0; c < ncpus; c++)
				n += v[c];
	free(v);
	return n;
}

/* The watched locks, into kv (none when memory runs out: said as lost). */
static void read_holds(struct tracer *t, struct kview *kv)
{
	kv->holds = calloc(FCT_HOLD_SLOTS, sizeof(*kv->holds));
	if (!kv->holds)
		return;
	kv->nholds = tracer_read_holds(t, kv->holds, FCT_HOLD_SLOTS, &kv->hold_global);
	if (kv->nholds < 0)
		kv->nholds = 0;
}

int tracer_read(struct tracer *t, struct kview *kv)
{
	struct klock_ctx kc = { 0 };
	int err;

	if (!t || !t->skel)
		return -EINVAL;
	kview_free(kv);
	kv->lost = t->skel->bss->lost;
	read_skipped(t, kv);
	kv->cpu = cpustat_diff(&t->cpu_start, &t->cpu_end);
	kv->machine = t->skel->bss->machine;
	kv->evict_global = t->skel->bss->pc_evict;
	kv->mem_open = t->mem_open;
	kv->mem_close = t->mem_close;
	kv->disks_open = t->disks_open;
	kv->disks_close = t->disks_close;
	kv->machine_sampled = t->cpu.n > 0;
	/* what the samples and /proc/stat cover: the whole window, not the
	 * program's own (which can be a small part of it) */
	kv->machine_ns = t->off_ns > t->on_ns ? t->off_ns - t->on_ns : 0;
	kv->cost = t->cost_f;
	kv->cost_measured = t->cost_f.samples > 0;
	kv->machine_cpus = (unsigned)t->cpu.n;
	err = read_threads(t, kv);
	kv->slots_recycled = slotrec_recycled(t->recycle);
	if (!err)
		err = slotrec_move_into(t->recycle, kv);
	if (!err)
		err = read_spilled(t, kv);
	if (!err && kv->lost.slot_full && t->target != TT_SELF)
		slots_find_missing(kv, t->tgid);
	if (!err && kv->machine_sampled)
		err = read_others(t, kv);
	if (!err)
		err = read_tid_hash(t, t->skel->maps.futex_waits, sizeof(struct fct_futex_key),
				sizeof(struct fct_futex_val), add_futex, kv, NULL);
	if (!err)
		err = read_tid_hash(t, t->skel->maps.wake_after,
				sizeof(struct fct_wake_after_key), sizeof(struct fct_wake_after_val),
				add_wake_after, kv, NULL);
	if (!err)
		err = read_tid_hash(t, t->skel->maps.sib_after,
				sizeof(struct fct_sib_after_key), sizeof(struct fct_sib_after_val),
				add_sib_after, kv, NULL);
	kv->pools_ran = t->skel->rodata->pools_on && t->links[prog_index("fct_sys_enter")] &&
			t->links[prog_index("fct_sys_exit")];
	if (!err && kv->pools_ran)
		err = read_hash(bpf_map__fd(t->skel->maps.pools), sizeof(struct fct_pool_key),
				sizeof(struct fct_pool_val), add_pool, kv, NULL);
	if (!err)
		err = read_tid_hash(t, t->skel->maps.sc_hists, sizeof(struct fct_sc_hist_key),
				sizeof(struct fct_sc_hist), add_sc_hist, kv, NULL);
	if (!err) {
		kview_sort_sc_hists(kv);
		kview_scale(kv);
	}
	if (!err)
		err = read_tid_hash(t, t->skel->maps.pc_pages, sizeof(struct fct_pc_key),
				sizeof(struct fct_pc_val), add_pc, kv, NULL);
	if (!err)
		err = read_fileuse(t, kv);
	if (!err && (kv->groups & PG_MASK(PG_PC_EVICT)))
		err = read_hash(bpf_map__fd(t->skel->maps.pc_evictors),
				sizeof(struct fct_evict_key), sizeof(struct fct_evict_val),
				add_evict, kv, NULL);
	if (!err && (kv->groups & PG_MASK(PG_DISK))) {
		kv->disk_global = t->skel->bss->disk_global;
		err = disk_read_maps(bpf_map__fd(t->skel->maps.disk_devs),
				     bpf_map__fd(t->skel->maps.disk_threads), kv);
		if (!err)
			err = read_hash(bpf_map__fd(t->skel->maps.uring_rings),
					sizeof(struct fct_uring_key), sizeof(struct fct_uring_val),
					add_uring, kv, NULL);
	}
	if (!err) {
		err = read_tid_hash(t, t->skel->maps.klock_waits, sizeof(struct fct_klock_key),
				sizeof(struct fct_klock_val), add_klock, kv, &kc);
		ksyms_free(kc.ks);
	}
	if (err) {
		kview_free(kv);
		return err;
	}
	if (kv->groups & PG_MASK(PG_HOLDERS))
		read_holds(t, kv);
	kview_klock_attribute(kv);
	kv->events = t->floor ? floor_hits(t) : count_events(kv);
	kv->tl = t->tl;
	if (kv->tl.on)
		timeline_cut(kv);
	return 0;
}

/* The watched user locks (holders.bpf.h): the used slots into out (up
 * to max) and the run's counters; how many, or -errno. */
int tracer_read_holds(struct tracer *t, struct fct_hold_lock *out, int max,
		      struct fct_hold_global *g)
{
	int fd, n = 0;

	if (!t || !t->skel)
		return -EINVAL;
	*g = t->skel->bss->hold_global;
	fd = bpf_map__fd(t->skel->maps.holds);
	/* a slot the budget stopped reading holds a part of the window: none */
	for (__u32 k = 0; k < FCT_HOLD_SLOTS && n < max; k++)
		if (!((t->skel->bss->hold_skip >> k) & 1) &&
		    !bpf_map_lookup_elem(fd, &k, &out[n]) && out[n].uaddr)
			n++;
	return n;
}

void tracer_set_jvm_structs(struct tracer *t, const struct fct_jvm_structs *js)
{
	struct fct_jvm_structs *b;

	if (!t || !t->skel || !js->ready)
		return;
	b = &t->skel->bss->jvm_structs;
	b->owner = js->owner;
	b->osthread = js->osthread;
	b->thread_id = js->thread_id;
	/* the offsets before the flag that lets the programs use them */
	__atomic_store_n(&b->ready, 1, __ATOMIC_RELEASE);
}

void tracer_finish(struct tracer *t)
{
	if (!t || !t->in_use)
		return;
	if (t->skel)
		timeline_stop(t);
	selfcost_stop(t->cost, &t->cost_f);	/* a run that never stopped */
	t->cost = NULL;
	for (int i = 0; i < NPROGS; i++)
		bpf_link__destroy(t->links[i]);
	cpuclock_detach(&t->cpu);
	jvm_detach(&t->jvm);
	drop_pending(t);
	ring_buffer__free(t->ustacks);
	stop_fileuse(t);
	fu_streams_free(t->fu);
	sockinv_free(t->flows);
	slotrec_free(t->recycle);
	fctrace_bpf__destroy(t->skel);
	memset(t, 0, sizeof(*t));
}
