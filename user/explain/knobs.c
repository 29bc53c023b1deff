/*
 * knobs.c - known programs' cache settings (knobs.h).
 */
#include <stdio.h>
#include <string.h>
#include "explain/knobs.h"

struct knob {
	const char *comm;	/* the process's name, as the kernel has it */
	enum cache_kind kind;
	const char *fmt;	/* with the size: handles in items, blocks in MiB */
};

static const struct knob knobs[] = {
	/* each worker keeps its own cache of open descriptors */
	{ "nginx", CACHE_HANDLES, "open_file_cache max=%llu (it is per worker process)" },
	/* one buffer pool per server, shared by its threads or backends */
	{ "mariadbd", CACHE_BLOCKS, "innodb_buffer_pool_size=%lluM" },
	{ "mysqld", CACHE_BLOCKS, "innodb_buffer_pool_size=%lluM" },
	{ "postgres", CACHE_BLOCKS, "shared_buffers = %lluMB" },
	/* the built-in workload */
	{ "fctrace", CACHE_BLOCKS, "--cache-size %lluM" },
};

bool knob_for(const char *comm, enum cache_kind k, uint64_t items, char *buf, size_t n)
{
	for (size_t i = 0; i < sizeof(knobs) / sizeof(*knobs); i++) {
		if (knobs[i].kind != k || strcmp(knobs[i].comm, comm))
			continue;
		snprintf(buf, n, knobs[i].fmt, (unsigned long long)items);
		return true;
	}
	return false;
}
