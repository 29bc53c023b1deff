/*
 * knobs.c - known programs' cache and pool settings (knobs.h).
 */
#include <stdio.h>
#include <string.h>
#include "explain/knobs.h"

struct knob {
	const char *comm;	/* the process's name, as the kernel has it */
	enum cache_kind kind;
	const char *name;	/* the setting, as the program's own docs name it */
	const char *fmt;	/* with the size: handles in items, blocks in MiB */
	uint64_t margin;	/* items it keeps free of data, to add */
	const char *margin_why;
};

/* InnoDB's page cleaner keeps innodb_lru_scan_depth (1536 by default)
 * pages free: MariaDB 10.11 with a 41 MiB pool (its working set) held
 * 1412 data pages of 2594 and read 0.72 pages a transaction; with 66 MiB
 * (the working set and the margin) 46 reads in 11 s (docs/caches.md). */
#define INNODB_FREE_PAGES	1536
#define INNODB_WHY		"InnoDB keeps free (innodb_lru_scan_depth)"

static const struct knob knobs[] = {
	/* each worker keeps its own cache of open descriptors */
	{ "nginx", CACHE_HANDLES, "open_file_cache max",
	  "open_file_cache max=%llu (it is per worker process)", 0, NULL },
	/* one buffer pool per server, shared by its threads or backends */
	{ "mariadbd", CACHE_BLOCKS, "innodb_buffer_pool_size", "innodb_buffer_pool_size=%lluM",
	  INNODB_FREE_PAGES, INNODB_WHY },
	{ "mysqld", CACHE_BLOCKS, "innodb_buffer_pool_size", "innodb_buffer_pool_size=%lluM",
	  INNODB_FREE_PAGES, INNODB_WHY },
	{ "postgres", CACHE_BLOCKS, "shared_buffers", "shared_buffers = %lluMB", 0, NULL },
	/* pgbench -C connects for every transaction (checked: 213 transactions,
	 * 214 connects; without -C one per client) */
	{ "pgbench", CACHE_CONNS, "pgbench -C", "Run pgbench without -C: each of its clients "
	  "(%llu at once here) then keeps its connection", 0, NULL },
	/* the built-in workload */
	{ "fctrace", CACHE_BLOCKS, "--cache-size", "--cache-size %lluM", 0, NULL },
};

bool knob_for(const char *comm, enum cache_kind k, uint64_t items, char *buf, size_t n,
	      const char **name)
{
	for (size_t i = 0; i < sizeof(knobs) / sizeof(*knobs); i++) {
		if (knobs[i].kind != k || strcmp(knobs[i].comm, comm))
			continue;
		snprintf(buf, n, knobs[i].fmt, (unsigned long long)items);
		if (name)
			*name = knobs[i].name;
		return true;
	}
	return false;
}

uint64_t knob_margin(const char *comm, enum cache_kind k, const char **why)
{
	for (size_t i = 0; i < sizeof(knobs) / sizeof(*knobs); i++) {
		if (knobs[i].kind != k || strcmp(knobs[i].comm, comm))
			continue;
		*why = knobs[i].margin_why;
		return knobs[i].margin;
	}
	*why = NULL;
	return 0;
}

/* Pools by what names their waits: the JVM groups' class and call site
 * (join/pools_jvm.c). Commons Pool 1's borrowers wait on a
 * GenericObjectPool$Latch, Commons Pool 2's on its LinkedBlockingDeque;
 * both sized by tests/realjvm's drivers with these calls. */
static const struct { const char *in_name, *name, *fmt; } pool_knobs[] = {
	{ "org.apache.commons.pool.impl.GenericObjectPool", "setMaxActive",
	  "setMaxActive(%u) on the GenericObjectPool (Commons Pool 1's maxActive)" },
	{ "org.apache.commons.pool2.", "setMaxTotal",
	  "setMaxTotal(%u) on the GenericObjectPool (Commons Pool 2's maxTotal)" },
	/* a proxy's pool (pools_proxy.c names it "COMM's connections to
	 * PEER"): pgbouncer 1.18 sizes it per database and user */
	{ "pgbouncer's connections", "default_pool_size",
	  "default_pool_size = %u in pgbouncer.ini (or pool_size in "
	  "the database's line), then RELOAD" },
};

bool pool_knob_for(const char *name, unsigned capacity, char *buf, size_t n,
		   const char **setting)
{
	for (size_t i = 0; i < sizeof(pool_knobs) / sizeof(*pool_knobs); i++) {
		if (!strstr(name, pool_knobs[i].in_name))
			continue;
		snprintf(buf, n, pool_knobs[i].fmt, capacity);
		if (setting)
			*setting = pool_knobs[i].name;
		return true;
	}
	return false;
}
