/*
 * disk.c - the disk probes' maps (disk.bpf.c) read into the kernel view:
 * every disk that completed a request in the window, and every traced
 * thread that caused one.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <bpf/bpf.h>
#include "trace/disk.h"

/* Every value of a hash map keyed by a __u32, into a new array. */
static int read_all(int fd, size_t vsz, void **out, int *n)
{
	__u32 key, next, *prev = NULL;
	char *arr = NULL, *p;
	int cnt = 0;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		p = realloc(arr, (cnt + 1) * vsz);
		if (!p) {
			free(arr);
			return -ENOMEM;
		}
		arr = p;
		if (bpf_map_lookup_elem(fd, &key, arr + cnt * vsz))
			continue;	/* deleted meanwhile */
		cnt++;
	}
	*out = arr;
	*n = cnt;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct fct_disk_dev *)a)->name, ((const struct fct_disk_dev *)b)->name);
}

int disk_read_maps(int devs_fd, int threads_fd, struct kview *kv)
{
	int err = read_all(devs_fd, sizeof(struct fct_disk_dev), (void **)&kv->disk_devs,
			   &kv->ndisk_devs);

	if (err)
		return err;
	for (int i = 0; i < kv->ndisk_devs; i++) {
		struct fct_disk_dev *d = &kv->disk_devs[i];

		/* kernel dev_t (major << 20 | minor) -> st_dev's encoding */
		d->dev = (__u32)makedev(d->dev >> 20, d->dev & 0xfffff);
		d->name[sizeof(d->name) - 1] = '\0';
	}
	qsort(kv->disk_devs, kv->ndisk_devs, sizeof(*kv->disk_devs), by_name);
	return read_all(threads_fd, sizeof(struct fct_disk_thread), (void **)&kv->disk_threads,
			&kv->ndisk_threads);
}
