/*
 * disk.c - the disk probes' maps (kview) into the joined run: the traced
 * program's requests, its threads', and every disk's.
 */
#include <stdlib.h>
#include <string.h>
#include "base/hist.h"
#include "join/disk.h"

struct disk_thread_row disk_thread_of(const struct kview *kv, uint32_t tid)
{
	struct disk_thread_row r = { 0 };

	for (int i = 0; kv && i < kv->ndisk_threads; i++) {
		const struct fct_disk_thread *t = &kv->disk_threads[i];

		if (t->tid != tid)
			continue;
		r.reads = t->ios[FCT_DISK_READ];
		r.read_bytes = t->bytes[FCT_DISK_READ];
		r.read_ns = t->ns[FCT_DISK_READ];
		r.writes = t->ios[FCT_DISK_WRITE];
		r.write_bytes = t->bytes[FCT_DISK_WRITE];
		r.write_ns = t->ns[FCT_DISK_WRITE];
		r.flushes = t->flushes;
	}
	return r;
}

/* The mean of a histogram, each slot at its midpoint. */
static uint64_t hist_mean(const uint64_t *h, unsigned n)
{
	double sum = 0, cnt = 0;

	for (unsigned i = 0; i < n; i++) {
		sum += (double)h[i] * ((double)hist_slot_lower(i) + (double)hist_slot_width(i) / 2);
		cnt += (double)h[i];
	}
	return cnt ? (uint64_t)(sum / cnt) : 0;
}

static int by_requests(const void *a, const void *b)
{
	const struct disk_dev_row *x = a, *y = b;
	uint64_t nx = x->reads + x->writes, ny = y->reads + y->writes;

	return nx < ny ? 1 : nx > ny ? -1 : strcmp(x->name, y->name);
}

/* The kernel's own counters for the disk over the window, where it kept
 * them: the device view agrees with iostat's; the probes' counts stay
 * beside them as the check. */
static void from_diskstats(struct disk_dev_row *o, const struct kview *kv)
{
	struct diskstat s;

	o->probed_reads = o->reads;
	o->probed_writes = o->writes;
	if (!diskstats_delta(&kv->disks_open, &kv->disks_close, o->name, &s))
		return;
	o->from_diskstats = true;
	o->reads = s.reads;
	o->read_bytes = s.read_sectors * 512;
	o->writes = s.writes;
	o->write_bytes = s.write_sectors * 512;
	o->flushes = s.flushes;
	o->busy_ns = s.io_ms * 1000000;
	o->queue_ns = s.weighted_ms * 1000000;
}

static void dev_row(struct disk_dev_row *o, const struct fct_disk_dev *d)
{
	uint64_t h[FCT_HIST_SLOTS];

	memcpy(o->name, d->name, sizeof(o->name));
	o->reads = d->ios[FCT_DISK_READ];
	o->read_bytes = d->bytes[FCT_DISK_READ];
	o->writes = d->ios[FCT_DISK_WRITE];
	o->write_bytes = d->bytes[FCT_DISK_WRITE];
	o->flushes = d->flushes;
	o->busy_ns = d->busy_ns;
	o->queue_ns = d->queue_ns[FCT_DISK_READ] + d->queue_ns[FCT_DISK_WRITE];
	for (int i = 0; i < FCT_HIST_SLOTS; i++)
		h[i] = d->hist[FCT_DISK_READ][i];
	o->read_p50_ns = hist_percentile(h, FCT_HIST_SLOTS, 0.50, 0);
	o->read_p99_ns = hist_percentile(h, FCT_HIST_SLOTS, 0.99, 0);
}

static uint64_t ring_ops(const struct disk_ring *r)
{
	return r->submitted[FCT_URING_READ] + r->submitted[FCT_URING_WRITE] +
	       r->submitted[FCT_URING_OTHER];
}

static int by_submitted(const void *a, const void *b)
{
	uint64_t x = ring_ops(a), y = ring_ops(b);

	return x < y ? 1 : x > y ? -1 : 0;
}

/* The traced processes' rings, the most submitted first. */
static void rings_build(struct disk_run *o, const struct kview *kv)
{
	struct disk_ring *all = calloc(kv->nuring ? kv->nuring : 1, sizeof(*all));

	if (!all)
		return;
	for (int i = 0; i < kv->nuring; i++) {
		const struct kv_uring *u = &kv->uring[i];
		struct disk_ring *r = &all[i];

		r->pid = u->key.tgid;
		memcpy(r->submitted, u->val.submitted, sizeof(r->submitted));
		memcpy(r->completed, u->val.completed, sizeof(r->completed));
		memcpy(r->bytes, u->val.bytes, sizeof(r->bytes));
		memcpy(r->lat_ns, u->val.lat_ns, sizeof(r->lat_ns));
		r->max_ns = u->val.max_ns;
		r->errors = u->val.errors;
		r->async = u->val.async;
		r->untracked = u->val.untracked;
	}
	for (int i = 0; i < kv->nuring; i++)	/* numbered within the process */
		for (int j = 0; j < kv->nuring; j++)
			if (kv->uring[j].key.tgid == kv->uring[i].key.tgid &&
			    kv->uring[j].key.ctx <= kv->uring[i].key.ctx)
				all[i].ring++;
	qsort(all, (size_t)kv->nuring, sizeof(*all), by_submitted);
	for (int i = 0; i < kv->nuring && o->nrings < DISK_RINGS_MAX; i++)
		o->ring[o->nrings++] = all[i];
	free(all);
}

void disk_build(struct disk_run *o, const struct kview *kv)
{
	uint64_t h[FCT_HIST_SLOTS] = { 0 };
	struct disk_dev_row *all;

	memset(o, 0, sizeof(*o));
	if (!kv || !(kv->groups & PG_MASK(PG_DISK)))
		return;
	o->on = true;
	o->window_ns = kv->machine_ns;
	o->lost = kv->disk_global.rqs_full + kv->disk_global.devs_full +
		  kv->disk_global.threads_full;
	for (int i = 0; i < kv->ndisk_threads; i++) {
		const struct fct_disk_thread *t = &kv->disk_threads[i];

		o->reads += t->ios[FCT_DISK_READ];
		o->read_bytes += t->bytes[FCT_DISK_READ];
		o->read_ns += t->ns[FCT_DISK_READ];
		o->writes += t->ios[FCT_DISK_WRITE];
		o->write_bytes += t->bytes[FCT_DISK_WRITE];
		o->write_ns += t->ns[FCT_DISK_WRITE];
		o->flushes += t->flushes;
		for (int s = 0; s < FCT_HIST_SLOTS; s++)
			h[s] += t->hist[s];
	}
	o->read_p50_ns = hist_percentile(h, FCT_HIST_SLOTS, 0.50, 0);
	o->read_p99_ns = hist_percentile(h, FCT_HIST_SLOTS, 0.99, 0);
	o->read_mean_ns = hist_mean(h, FCT_HIST_SLOTS);
	all = calloc(kv->ndisk_devs ? kv->ndisk_devs : 1, sizeof(*all));
	if (!all)
		return;
	for (int i = 0; i < kv->ndisk_devs; i++) {
		dev_row(&all[i], &kv->disk_devs[i]);
		from_diskstats(&all[i], kv);
	}
	qsort(all, kv->ndisk_devs, sizeof(*all), by_requests);
	for (int i = 0; i < kv->ndisk_devs && o->ndevs < DISK_DEVS_MAX; i++)
		if (all[i].reads + all[i].writes + all[i].flushes)
			o->dev[o->ndevs++] = all[i];
	free(all);
	rings_build(o, kv);
}

double disk_queue_depth(const struct disk_run *o, const struct disk_dev_row *d)
{
	return o->window_ns ? (double)d->queue_ns / (double)o->window_ns : 0;
}
