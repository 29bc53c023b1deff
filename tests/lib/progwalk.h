/*
 * progwalk.h - the fctrace BPF programs (named fct_*) whose fds this
 * process holds, found by walking /proc/self/fd: the tests count them,
 * bench_probe reads their statistics.
 */
#ifndef FCTRACE_PROGWALK_H
#define FCTRACE_PROGWALK_H

#include <bpf/bpf.h>

typedef void (*fct_prog_fn)(int fd, const struct bpf_prog_info *info, void *arg);

/* fn for each program; returns how many, or -1 when /proc/self/fd
 * cannot be read */
int fct_progs_each(fct_prog_fn fn, void *arg);

#endif
