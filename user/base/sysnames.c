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

/* Newer than the C library's headers, met in runs: a uretprobe's
 * trampoline traps with its own syscall since Linux 6.11 (x86-64). */
static const struct { unsigned nr; const char *name; } newer[] = {
#if defined(__x86_64__)
	{ 335, "uretprobe" },
#endif
	{ 0, NULL },
};

const char *syscall_name(unsigned nr, char *buf, unsigned len)
{
	if (nr < sizeof(names) / sizeof(*names) && names[nr])
		return names[nr];
	for (int i = 0; newer[i].name; i++)
		if (newer[i].nr == nr)
			return newer[i].name;
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
	for (int i = 0; newer[i].name; i++)
		if (!strcmp(newer[i].name, name))
			return (int)newer[i].nr;
	if (strncmp(name, "syscall_", 8) || !name[8])
		return -1;
	v = strtoul(name + 8, &end, 10);
	return *end || v > 0xffff ? -1 : (int)v;
}
