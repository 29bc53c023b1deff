/*
 * cpuclock.h - the software cpu-clock events that run the user/sys
 * sampler (bpf/cpuclock.bpf.c): one per online CPU, each with the
 * program attached.
 */
#ifndef FCTRACE_CPUCLOCK_H
#define FCTRACE_CPUCLOCK_H

struct bpf_program;
struct bpf_link;

struct cpuclock {
	struct bpf_link **links;	/* one per CPU that has an event */
	int n;
};

/* Open a cpu-clock event firing hz times a second of CPU time on every
 * online CPU and attach prog to each. 0, or -errno with nothing left
 * open (no CPU could have one). */
int cpuclock_attach(struct cpuclock *c, struct bpf_program *prog, unsigned hz);
/* Close them all; a no-op on a zeroed or detached struct. */
void cpuclock_detach(struct cpuclock *c);

#endif
