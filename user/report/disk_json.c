/*
 * disk_json.c - the disk into the run document (the saved-run reader,
 * session/load_disk.c, reads it back by the same tables).
 */
#include "report/disk_json.h"
#include "session/run_format.h"

void disk_json(struct json_object *doc, const struct disk_run *d)
{
	struct json_object *o, *a;

	if (!d->on) {
		json_object_object_add(doc, "disk", NULL);
		return;
	}
	o = JW_T(json_object_new_object(), d, rf_disk);
	a = json_object_new_array();
	for (int i = 0; i < d->ndevs; i++)
		json_object_array_add(a, JW_T(json_object_new_object(), &d->dev[i], rf_disk_dev));
	json_object_object_add(o, "devices", a);
	a = json_object_new_array();
	for (int i = 0; i < d->nrings; i++)
		json_object_array_add(a, JW_T(json_object_new_object(), &d->ring[i], rf_disk_ring));
	json_object_object_add(o, "io_uring", a);
	json_object_object_add(doc, "disk", o);
}

static void put(struct json_object *o, const char *k, bool on, uint64_t v)
{
	json_object_object_add(o, k, on ? json_object_new_uint64(v) : NULL);
}

void disk_thread_json(struct json_object *o, const struct thread_row *r, unsigned groups)
{
	bool on = r->has_kernel && (groups & PG_MASK(PG_DISK));

	put(o, "disk_reads", on, r->disk.reads);
	put(o, "disk_read_ns", on, r->disk.read_ns);
	put(o, "disk_writes", on, r->disk.writes);
	put(o, "disk_write_ns", on, r->disk.write_ns);
}
