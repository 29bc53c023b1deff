/*
 * slots.c - how many thread accounts the BPF side makes room for, and,
 * when that was too few, which threads went without one; a slot's
 * account into user space's form.
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

/* The two forms share their fields up to the syscall table (fctrace.h's
 * FCT_ACCOUNT_FIELDS). */
_Static_assert(offsetof(struct fct_thread, nr_at) == offsetof(struct fct_account, nrt),
	       "struct fct_thread and fct_account differ before their syscall tables");

int slots_account_copy(struct fct_thread *out, struct acct_arena *arena,
		       const struct fct_account *a)
{
	unsigned used = a->nrt.used < FCT_NR_SLOT ? a->nrt.used : FCT_NR_SLOT;

	memset(out, 0, sizeof(*out));
	memcpy(out, a, offsetof(struct fct_account, nrt));
	/* room for the spilled numbers too: they are added next; with the
	 * room taken, each put below finds it */
	if (acct_nr_reserve(out, arena, used + a->nrt.spilled))
		return -1;
	for (unsigned nr = 0; nr < FCT_NR_MAX; nr++) {
		unsigned at = a->nrt.at[nr];

		if (at >= 1 && at <= FCT_NR_SLOT)
			*acct_nr_put(out, arena, nr) = a->nrt.e[at - 1];
	}
	return 0;
}

int slots_nr_add(struct fct_thread *t, struct acct_arena *arena, unsigned nr,
		 const struct fct_nr_stats *v)
{
	struct fct_nr_stats *s;

	if (nr >= FCT_NR_MAX)
		return 0;
	if (!(s = acct_nr_put(t, arena, nr)))
		return -1;
	s->count += v->count;
	s->errors += v->errors;
	s->timed += v->timed;
	s->total_ns += v->total_ns;
	s->blocked_ns += v->blocked_ns;
	return 0;
}

int slots_add_spilled(struct kview *kv, const struct kv_tid_at *ix, int n,
		      const struct fct_sc_hist_key *k, const struct fct_nr_stats *v)
{
	struct fct_thread *t = (struct fct_thread *)kview_tids_find(kv, ix, n, k->tid);

	if (!t)
		return 0;
	return slots_nr_add(t, &kv->nr_arena, k->nr, v);
}
