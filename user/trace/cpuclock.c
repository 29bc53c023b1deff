/*
 * cpuclock.c - a cpu-clock event per CPU for the user/sys sampler. A
 * software event: hardware counters are not needed, and it fires on
 * CPU time (an hrtimer), so an idle CPU costs nothing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>
#include <bpf/libbpf.h>
#include "trace/cpuclock.h"

static int open_event(int cpu, unsigned hz)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_period = 1000000000ull / hz;	/* ns of CPU time */
	return (int)syscall(SYS_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

/* One CPU's event with prog attached; NULL with errno set. An offline
 * CPU answers ENODEV. */
static struct bpf_link *attach_cpu(struct bpf_program *prog, int cpu, unsigned hz)
{
	struct bpf_link *l;
	int fd = open_event(cpu, hz), err;

	if (fd < 0)
		return NULL;
	l = bpf_program__attach_perf_event(prog, fd);	/* owns fd from here */
	if (!l) {
		err = errno;
		close(fd);
		errno = err;
	}
	return l;
}

int cpuclock_attach(struct cpuclock *c, struct bpf_program *prog, unsigned hz)
{
	int ncpus = libbpf_num_possible_cpus(), first_err = 0;

	memset(c, 0, sizeof(*c));
	if (ncpus <= 0 || !hz)
		return -EINVAL;
	c->links = calloc(ncpus, sizeof(*c->links));
	if (!c->links)
		return -ENOMEM;
	for (int cpu = 0; cpu < ncpus; cpu++) {
		struct bpf_link *l = attach_cpu(prog, cpu, hz);

		if (l)
			c->links[c->n++] = l;
		else if (!first_err && errno != ENODEV)
			first_err = -errno;
	}
	if (c->n)
		return 0;
	cpuclock_detach(c);
	return first_err ? first_err : -ENODEV;
}

void cpuclock_detach(struct cpuclock *c)
{
	for (int i = 0; i < c->n; i++)
		bpf_link__destroy(c->links[i]);
	free(c->links);
	memset(c, 0, sizeof(*c));
}
