/*
 * timeline_json.h - a timeline as Chrome's trace-event JSON, the format
 * Perfetto (ui.perfetto.dev) and chrome://tracing open: thread_name
 * metadata ("ph":"M"), one complete event ("ph":"X", ts and dur in µs
 * from the window's start) per interval, and a flow arrow ("ph":"s" ->
 * "ph":"f") from each waker to the thread it woke.
 */
#ifndef FCTRACE_TIMELINE_JSON_H
#define FCTRACE_TIMELINE_JSON_H

#include <json-c/json.h>
#include "join/timeline.h"

/* A thread's lane name ("worker 3 (tid 1234)"), written into buf. */
typedef const char *(*tl_name_fn)(void *arg, uint32_t tid, char *buf, size_t n);

/* The whole document {"traceEvents": [...], "displayTimeUnit": "ns",
 * "otherData": {...}}; pid labels every event, process names the
 * process. NULL if out of memory. */
struct json_object *timeline_chrome_json(const struct timeline *tl, int pid, const char *process,
					 tl_name_fn name, void *arg);

#endif
