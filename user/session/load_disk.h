/*
 * load_disk.h - a saved run's `disk` read back (report/disk_json.c
 * writes it).
 */
#ifndef FCTRACE_LOAD_DISK_H
#define FCTRACE_LOAD_DISK_H

#include "base/jsonread.h"
#include "join/disk.h"

/* doc's "disk" into d (absent or null: d->on false); 0 or -1 */
int load_disk(struct jr *r, struct json_object *doc, struct disk_run *d);

#endif
