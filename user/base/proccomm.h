/*
 * proccomm.h - a process's name as the kernel has it (/proc/PID/comm),
 * for the streams that meet a process before any account names it.
 */
#ifndef FCTRACE_PROCCOMM_H
#define FCTRACE_PROCCOMM_H

#include <stddef.h>
#include <sys/types.h>

/* pid's comm into comm (n bytes), "" when it cannot be read. */
void proc_comm(pid_t pid, char *comm, size_t n);

#endif
