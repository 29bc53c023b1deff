/*
 * load_disk.c - `disk` back into the joined run's struct disk_run, by
 * the tables report/disk_json.c writes by (session/run_format.c).
 */
#include <string.h>
#include <json-c/json.h>
#include "session/load_disk.h"
#include "session/run_format.h"

int load_disk(struct jr *r, struct json_object *doc, struct disk_run *d)
{
	const struct jr_rows rows = {
		"devices", 0, sizeof(struct disk_dev_row), DISK_DEVS_MAX,
		"has more disks than fctrace writes", rf_disk_dev.f, rf_disk_dev.n, NULL,
	};
	const struct jr_rows rings = {
		"io_uring", JR_SINCE, sizeof(struct disk_ring), DISK_RINGS_MAX,
		"has more rings than fctrace writes", rf_disk_ring.f, rf_disk_ring.n, NULL,
	};
	struct json_object *o = NULL;
	char saved[128];
	size_t n, nr = 0;

	memset(d, 0, sizeof(*d));
	if (!json_object_object_get_ex(doc, "disk", &o) || !o)
		return 0;	/* absent (saved before the key) or null: not traced */
	if (jr_object(r, doc, "disk", false, &o, saved, sizeof(saved)) ||
	    JR_READ_T(r, o, d, rf_disk) || jr_array_rows(r, o, &rows, d->dev, NULL, &n) ||
	    jr_array_rows(r, o, &rings, d->ring, NULL, &nr))
		return -1;
	jr_leave(r, saved);
	d->ndevs = (int)n;
	d->nrings = (int)nr;
	d->on = true;
	return 0;
}
