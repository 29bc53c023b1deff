/*
 * disk_json.h - the JSON's `disk` (the traced program's requests to the
 * disk and every disk's over the window) and each thread's disk_* keys;
 * session/load_disk.c reads them back.
 */
#ifndef FCTRACE_DISK_JSON_H
#define FCTRACE_DISK_JSON_H

#include <json-c/json.h>
#include "join/join.h"

/* doc's "disk": null when the disk probes did not run */
void disk_json(struct json_object *doc, const struct disk_run *d);
/* a thread's disk_reads, disk_read_ns, disk_writes, disk_write_ns: null
 * without the disk probes or a kernel account */
void disk_thread_json(struct json_object *o, const struct thread_row *r, unsigned groups);

#endif
