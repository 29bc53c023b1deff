/*
 * procshm.c - a process's largest writable shared mapping (procshm.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include "base/procshm.h"

/* One line of /proc/PID/maps: "start-end perms offset maj:min inode path";
 * its size and identity when it is a writable shared mapping of a file
 * (an anonymous shared one is a file of the kernel's shmem: it has one). */
static uint64_t shared_line(const char *line, uint64_t *bytes)
{
	unsigned long long start, end, ino;
	unsigned maj, min;
	char perms[8];

	if (sscanf(line, "%llx-%llx %7s %*x %x:%x %llu", &start, &end, perms, &maj, &min,
		   &ino) != 6 || perms[1] != 'w' || perms[3] != 's' || !ino)
		return 0;
	*bytes = end - start;
	return ((uint64_t)((maj << 20) | min) << 40) ^ ino ^ (1ull << 63);
}

uint64_t proc_shared_pool(pid_t pid, uint64_t *bytes)
{
	char path[40], line[512];
	uint64_t best = 0, key, size;
	FILE *f;

	*bytes = 0;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	if (!(f = fopen(path, "re")))
		return 0;
	while (fgets(line, sizeof(line), f))
		if ((key = shared_line(line, &size)) && size >= PROCSHM_MIN_BYTES &&
		    size > *bytes) {
			best = key;
			*bytes = size;
		}
	fclose(f);
	return best;
}
