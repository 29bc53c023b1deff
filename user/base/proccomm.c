/*
 * proccomm.c - a process's name from /proc (proccomm.h).
 */
#include <stdio.h>
#include <string.h>
#include "base/proccomm.h"

void proc_comm(pid_t pid, char *comm, size_t n)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	comm[0] = '\0';
	if (!(f = fopen(path, "re")))
		return;
	if (fgets(comm, (int)n, f))
		comm[strcspn(comm, "\n")] = '\0';
	fclose(f);
}
