/*
 * bench_probe.c - what `make bench` cannot read from fctrace's JSON: one
 * traced run through the loader's own API (prepare / start / stop / read /
 * finish, as session.c drives it), with the detach timed and, when
 * BENCH_STATS=1, every program's run count and run time from the kernel's
 * BPF statistics (bpf_enable_stats: on only for this process's lifetime).
 *
 *   bench_probe run --workload fcp --files 60 --threads 8 --ops N --probes SET
 *
 * Prints one "key value" per line:
 *   load_ns, detach_ns, wall_ns, ops, events (the target's hook hits in the
 *   window), lost, and per program "prog NAME run_cnt N run_ns T".
 * Needs root.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include "trace/loader.h"
#include "cli/options.h"
#include "progwalk.h"
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

/* A program's full name (info.name stops at 15 characters): its BTF
 * function name, or info.name when there is no BTF. */
static void prog_name(int fd, const struct bpf_prog_info *info, char *out, size_t n)
{
	struct bpf_func_info fi = { 0 };
	struct bpf_prog_info fin = {
		.nr_func_info = 1, .func_info_rec_size = sizeof(fi),
		.func_info = (__u64)(unsigned long)&fi,
	};
	__u32 len = sizeof(fin);
	struct btf *btf;
	const struct btf_type *ty;

	snprintf(out, n, "%s", info->name);
	if (!info->btf_id || bpf_obj_get_info_by_fd(fd, &fin, &len) || !fin.nr_func_info)
		return;
	btf = btf__load_from_kernel_by_id(info->btf_id);
	ty = btf ? btf__type_by_id(btf, fi.type_id) : NULL;
	if (ty)
		snprintf(out, n, "%s", btf__name_by_offset(btf, ty->name_off));
	btf__free(btf);
}

/* One fctrace program's kernel statistics. */
static void print_prog_stats(int fd, const struct bpf_prog_info *info, void *arg)
{
	char name[64];

	prog_name(fd, info, name, sizeof(name));
	printf("prog %s run_cnt %llu run_ns %llu misses %llu\n", name,
	       (unsigned long long)info->run_cnt, (unsigned long long)info->run_time_ns,
	       (unsigned long long)info->recursion_misses);
}

static uint64_t lost_total(const struct fct_lost *l)
{
	return l->slot_full + l->futex_map_full + l->klock_map_full + l->pc_map_full +
	       l->stack_lost;
}

int main(int argc, char **argv)
{
	const char *stats = getenv("BENCH_STATS");
	struct options o;
	struct tracer_opts topts = { 0 };
	struct kview kv = { 0 };
	struct wl_result res;
	struct wl_hooks hooks = { .window_open = window_open, .window_close = window_close,
				  .arg = NULL };
	struct tracer *t;
	uint64_t t0, ops = 0;
	int rc;

	if ((rc = options_parse(argc, argv, &o)))
		return rc < 0 ? 0 : rc;
	if (stats && !strcmp(stats, "1") && bpf_enable_stats(BPF_STATS_RUN_TIME) < 0)
		fprintf(stderr, "bench_probe: cannot enable BPF statistics\n");
	topts.groups = o.trace.probes;
	topts.time_every = o.trace.time_every;
	topts.tgid = getpid();
	t0 = wl_now_ns();
	if (tracer_prepare(&t, &topts, &kv))
		return 1;
	printf("load_ns %llu\n", (unsigned long long)(wl_now_ns() - t0));
	hooks.arg = t;
	rc = wl_run(&o.wl, NULL, &hooks, &res);
	for (unsigned i = 0; i < res.nthreads; i++)
		ops += res.threads[i].ops;
	fct_progs_each(print_prog_stats, NULL);
	if (!rc)
		rc = tracer_read(t, &kv);
	t0 = wl_now_ns();
	tracer_finish(t);
	printf("detach_ns %llu\n", (unsigned long long)(wl_now_ns() - t0));
	printf("wall_ns %llu\nops %llu\nevents %llu\nlost %llu\n",
	       (unsigned long long)res.wall_ns, (unsigned long long)ops,
	       (unsigned long long)kv.events, (unsigned long long)lost_total(&kv.lost));
	kview_free(&kv);
	wl_result_free(&res);
	return rc ? 1 : 0;
}
