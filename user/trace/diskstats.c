/*
 * diskstats.c - /proc/diskstats read and differenced (diskstats.h).
 */
#include <inttypes.h>
#include <string.h>
#include "trace/diskstats.h"

bool diskstat_parse(const char *line, struct diskstat *d)
{
	unsigned major, minor;
	uint64_t f[17] = { 0 };
	int got;

	memset(d, 0, sizeof(*d));
	got = sscanf(line, "%u %u %31s %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
		     " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
		     " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64,
		     &major, &minor, d->name, &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6],
		     &f[7], &f[8], &f[9], &f[10], &f[11], &f[12], &f[13], &f[14], &f[15], &f[16]);
	if (got < 3 + 11)	/* the eleven fields every kernel since 2.6 has */
		return false;
	d->reads = f[0];
	d->read_sectors = f[2];
	d->writes = f[4];
	d->write_sectors = f[6];
	d->io_ms = f[9];
	d->weighted_ms = f[10];
	d->flushes = got >= 3 + 16 ? f[15] : 0;
	return true;
}

int diskstats_parse(FILE *f, struct diskstats *s)
{
	char line[512];
	struct diskstat d;
	bool any = false;

	s->n = 0;
	while (fgets(line, sizeof(line), f)) {
		if (!diskstat_parse(line, &d))
			continue;
		any = true;
		/* idle loop and ram devices would crowd out the disks */
		if (s->n < DISKSTATS_MAX && (d.reads || d.writes || d.flushes))
			s->d[s->n++] = d;
	}
	return any ? 0 : -1;
}

int diskstats_read(struct diskstats *s)
{
	FILE *f = fopen("/proc/diskstats", "re");
	int err;

	s->n = 0;
	if (!f)
		return -1;
	err = diskstats_parse(f, s);
	fclose(f);
	return err;
}

static const struct diskstat *find(const struct diskstats *s, const char *name)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->d[i].name, name))
			return &s->d[i];
	return NULL;
}

/* b - a, 0 where a counter went back (a device re-created in between) */
static uint64_t since(uint64_t a, uint64_t b)
{
	return b >= a ? b - a : 0;
}

bool diskstats_delta(const struct diskstats *a, const struct diskstats *b, const char *name,
		     struct diskstat *out)
{
	const struct diskstat *x = find(a, name), *y = find(b, name);

	memset(out, 0, sizeof(*out));
	if (!a->n || !y)	/* unread at the start: no difference to take */
		return false;
	if (!x)	/* no I/O ever at the start: every counter was 0 */
		x = out;
	snprintf(out->name, sizeof(out->name), "%s", name);
	out->reads = since(x->reads, y->reads);
	out->read_sectors = since(x->read_sectors, y->read_sectors);
	out->writes = since(x->writes, y->writes);
	out->write_sectors = since(x->write_sectors, y->write_sectors);
	out->io_ms = since(x->io_ms, y->io_ms);
	out->weighted_ms = since(x->weighted_ms, y->weighted_ms);
	out->flushes = since(x->flushes, y->flushes);
	return true;
}
