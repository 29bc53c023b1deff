/*
 * fuzz_ksyms.c - libFuzzer target for /proc/kallsyms (ksyms.c), the one
 * file fctrace reads: the input is the file, handed over as a memfd.
 *
 * The symbols found are then searched with addresses taken from the
 * input's first bytes, as a kernel stack would be, and named the way a
 * contended lock's caller is.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "trace/ksyms.h"

#define NIPS 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	uint64_t ips[NIPS] = { 0 }, off;
	char caller[128];
	struct ksyms *ks;
	const char *name;

	if (fd < 0) {
		fd = memfd_create("kallsyms", 0);
		if (fd < 0)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	ks = ksyms_load(path);
	if (!ks)
		return 0;
	memcpy(ips, data, size < sizeof(ips) ? size : sizeof(ips));
	for (int i = 0; i < NIPS; i++) {
		name = ksyms_find(ks, ips[i], &off);
		if (name && (off > ips[i] || !*name))
			abort();
	}
	ksyms_caller(ks, ips, NIPS, caller, sizeof(caller));
	if (!caller[0])
		abort();
	ksyms_free(ks);
	return 0;
}
