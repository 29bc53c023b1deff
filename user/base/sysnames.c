/*
 * sysnames.c - syscall names, generated at build time from the C
 * library's <asm/unistd_64.h> (Makefile: .output/sysnames.h.in).
 */
#include <stdio.h>
#include "base/sysnames.h"

static const char *const names[] = {
#include "sysnames.h.in"
};

const char *syscall_name(unsigned nr, char *buf, unsigned len)
{
	if (nr < sizeof(names) / sizeof(*names) && names[nr])
		return names[nr];
	snprintf(buf, len, "syscall_%u", nr);
	return buf;
}
