/*
 * slots.c - how many thread accounts the BPF side makes room for, and,
 * when that was too few, which threads went without one.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trace/slots.h"

unsigned slots_threads_of(pid_t tgid)
{
	char path[40];
	struct dirent *e;
	unsigned n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)tgid);
	if (!(d = opendir(path)))
		return 0;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

unsigned slots_size(unsigned want, unsigned nthreads)
{
	unsigned lo = want ? 64 : FCT_SLOTS_MIN;
	unsigned need = want ? want : 2 * nthreads;
	unsigned n = lo;

	while (n < need && n < FCT_SLOTS_MAX)
		n *= 2;
	return n;
}

/* The thread's name, from /proc/TGID/task/TID/comm ("?" if gone). */
static void thread_comm(pid_t tgid, unsigned tid, char *out, size_t n)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%u/comm", (int)tgid, tid);
	snprintf(out, n, "?");
	if (!(f = fopen(path, "re")))
		return;
	if (fgets(out, (int)n, f))
		out[strcspn(out, "\n")] = 0;
	fclose(f);
}

void slots_find_missing(struct kview *kv, pid_t tgid)
{
	char path[40];
	struct dirent *e;
	DIR *d;

	struct kv_tid_at *ix;
	int n;

	kv->nmissing = 0;
	kv->missing_more = 0;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)tgid);
	if (!(d = opendir(path)))
		return;
	ix = kview_tids_sorted(kv, &n);
	while ((e = readdir(d))) {
		unsigned tid = (unsigned)strtoul(e->d_name, NULL, 10);
		struct kv_missing *m;

		if (!tid || kview_tids_find(kv, ix, n, tid))
			continue;
		if (kv->nmissing == KV_MISSING_MAX) {
			kv->missing_more++;
			continue;
		}
		m = &kv->missing[kv->nmissing++];
		m->tid = tid;
		thread_comm(tgid, tid, m->comm, sizeof(m->comm));
	}
	free(ix);
	closedir(d);
}
