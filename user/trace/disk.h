/*
 * disk.h - the disk probes' maps (disk.bpf.c) read into the kernel view.
 */
#ifndef FCTRACE_TRACE_DISK_H
#define FCTRACE_TRACE_DISK_H

#include "trace/kview.h"

/* Copy the disks (devs_fd) and the traced threads' requests (threads_fd)
 * into kv->disk_devs and kv->disk_threads, disks sorted by name; 0 or
 * -errno. */
int disk_read_maps(int devs_fd, int threads_fd, struct kview *kv);

#endif
