/* sysnames.h - syscall names by number, for the by-number table. */
#ifndef FCTRACE_SYSNAMES_H
#define FCTRACE_SYSNAMES_H

/* "read", "epoll_wait", ...; "syscall_N" for a number without a name */
const char *syscall_name(unsigned nr, char *buf, unsigned len);

#endif
