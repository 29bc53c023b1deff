/*
 * sysnames.c - syscall names, generated at build time from the C
 * library's <asm/unistd_64.h> (Makefile: .output/sysnames.h.in).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int syscall_nr(const char *name)
{
	char *end;
	unsigned long v;

	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (names[i] && !strcmp(names[i], name))
			return (int)i;
	if (strncmp(name, "syscall_", 8) || !name[8])
		return -1;
	v = strtoul(name + 8, &end, 10);
	return *end || v > 0xffff ? -1 : (int)v;
}
