/* sysnames.h - syscall names by number, for the by-number table. */
#ifndef FCTRACE_SYSNAMES_H
#define FCTRACE_SYSNAMES_H

/* "read", "epoll_wait", ...; "syscall_N" for a number without a name */
const char *syscall_name(unsigned nr, char *buf, unsigned len);
/* The number syscall_name gives this name, or -1. */
int syscall_nr(const char *name);

#endif
