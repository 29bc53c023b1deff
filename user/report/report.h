/* report.h - the reporters: terminal tables and JSON, each in its own file. */
#ifndef FCTRACE_REPORT_H
#define FCTRACE_REPORT_H

#include <stdio.h>
#include "base/schema.h"
#include "session/session.h"

/* Terminal: header, per-thread account, syscalls, locks, page cache, probes, Why. */
void report_table(FILE *f, const struct session *s);
/* One run's JSON document; caller frees with json_object_put. */
struct json_object *report_json_run(const struct session *s);
/* Write a JSON document to path ("-" = stdout); 0 or -1 with a message. */
int report_json_write(struct json_object *doc, const char *path);
/* One run's document written as report_json_run makes it, its threads
 * made and written one at a time (a run of 10 000 threads holds one
 * thread's objects, not all); 0 or -1 with a message. */
int report_json_write_run(const struct session *s, const char *path);

/* Self-contained HTML (inline SVG and CSS); 0 or -1 with a message. */
struct sweep;
int report_html_run(const char *path, const struct session *s);
int report_html_compare(const char *path, const struct session *a, const struct session *b);
int report_html_sweep(const char *path, const struct sweep *sw);

/* --timeline-out: the timeline as Chrome trace JSON; 0 or -1 with a message. */
int report_timeline_write(const struct session *s, const char *path);
/* A timeline lane's name: "worker 3 (tid 1234)", "java (tid 99)" */
const char *report_lane_name(const struct session *s, uint32_t tid, char *buf, size_t n);

/* How another program's run ended: "exited 0", "killed by signal 9 (Killed)" */
void report_target_end(char *buf, size_t n, const struct target_info *ti);

/* The page-cache sentence: pages read in (misses), pread64's hits where
 * known (the only read whose pages are counted), pages added by writes. */
void report_pagecache_text(char *buf, size_t n, const struct joined_run *m);
/* The Disk line's text (the disk group ran) */
void report_disk_text(char *buf, size_t n, const struct disk_run *d);

/* "fcp, 60 files, pool 50, 8 threads x 100000 ops" */
void report_describe(char *buf, size_t n, const struct session *s);

#endif
