/*
 * knobs.h - the settings that size a known program's caches and pools: a small
 * table, each entry checked on the real program (docs/caches.md says
 * how). A program not in it gets a fix in general words.
 */
#ifndef FCTRACE_KNOBS_H
#define FCTRACE_KNOBS_H

#include <stddef.h>
#include "join/caches.h"

/* The fix's setting for a cache of kind k in a program named comm, sized
 * `items` (handles: descriptors; blocks: MiB), into buf ("open_file_cache
 * max=60 (per worker process)"), and the setting's name into *name when
 * name is not NULL ("open_file_cache max": a cause's knob, its value
 * `items`); false when fctrace does not know the program's knob. */
bool knob_for(const char *comm, enum cache_kind k, uint64_t items, char *buf, size_t n,
	      const char **name);
/* The cache's items the program keeps free of data whatever its size
 * (InnoDB's innodb_lru_scan_depth pages), which the size set must add to
 * the working set, and why in words; 0 when none is known. */
uint64_t knob_margin(const char *comm, enum cache_kind k, const char **why);

/* The setting that sizes a known pool, named as the lock table names its
 * waits (a JVM's class and call site), at capacity, into buf, and its
 * name into *setting when not NULL ("setMaxTotal"); false when fctrace
 * does not know it. */
bool pool_knob_for(const char *name, unsigned capacity, char *buf, size_t n,
		   const char **setting);

#endif
