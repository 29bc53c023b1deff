/*
 * report_timeline.c - --timeline-out: the run's timeline as Chrome
 * trace-event JSON (timeline_json.c), and the lane names it shares with
 * the HTML swimlanes.
 */
#include <stdio.h>
#include <unistd.h>
#include <json-c/json.h>
#include "base/outfile.h"
#include "report/report.h"
#include "report/timeline_json.h"

const char *report_lane_name(const struct session *s, uint32_t tid, char *buf, size_t n)
{
	const struct joined_run *m = &s->joined;

	for (unsigned i = 0; i < m->nrows; i++) {
		const struct thread_row *r = &m->rows[i];

		if ((uint32_t)r->tid != tid)
			continue;
		if (s->target.mode == TGT_NONE)
			snprintf(buf, n, "worker %u (tid %u)", r->index, (unsigned)tid);
		else
			snprintf(buf, n, "%s (tid %u)", r->name[0] ? r->name : r->k.comm,
				 (unsigned)tid);
		return buf;
	}
	snprintf(buf, n, "tid %u", (unsigned)tid);
	return buf;
}

static const char *lane(void *arg, uint32_t tid, char *buf, size_t n)
{
	return report_lane_name(arg, tid, buf, n);
}

int report_timeline_write(const struct session *s, const char *path)
{
	char process[160];
	struct json_object *doc;
	struct outfile out;
	FILE *f;
	int rc;

	if (!s->timeline) {
		fprintf(stderr, "fctrace: --timeline-out %s: no timeline was recorded\n", path);
		return -1;
	}
	snprintf(process, sizeof(process), "fctrace: %s", s->subject ? s->subject : "?");
	doc = timeline_chrome_json(s->timeline, s->target.mode == TGT_NONE ? (int)getpid()
				   : (int)s->target.pid, process, lane, (void *)s);
	if (!doc || !(f = outfile_open(&out, "--timeline-out", path))) {
		json_object_put(doc);
		return -1;
	}
	fprintf(f, "%s\n", json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN |
							   JSON_C_TO_STRING_NOSLASHESCAPE));
	rc = outfile_close(&out);
	json_object_put(doc);
	return rc;
}
