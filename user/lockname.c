/*
 * lockname.c - naming futex words from symbols and sampled call sites.
 *
 * Samples are unwound as they arrive and kept as counts per (process,
 * word, call site, kind); at the end each word takes its symbol if one
 * covers it, else its most frequent call site, and the kind most of its
 * samples showed (without samples: the futex op says lock or wait).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lockname.h"
#include "usym.h"

struct site_count {
	uint32_t tgid;
	uint64_t uaddr;
	char site[128];
	enum wait_kind kind;
	uint64_t n;
};

struct lockname {
	struct usym *u;
	struct site_count *sites;
	int nsites, cap;
	uint64_t received, unwound;
	pid_t last_tgid;
};

struct lockname *lockname_new(void)
{
	struct lockname *ln = calloc(1, sizeof(*ln));

	if (ln && !(ln->u = usym_new())) {
		free(ln);
		return NULL;
	}
	return ln;
}

void lockname_free(struct lockname *ln)
{
	if (!ln)
		return;
	usym_free(ln->u);
	free(ln->sites);
	free(ln);
}

void lockname_snapshot(struct lockname *ln, pid_t tgid)
{
	if (ln)
		usym_snapshot(ln->u, tgid);
}

void lockname_stats(const struct lockname *ln, uint64_t *received, uint64_t *unwound)
{
	*received = ln ? ln->received : 0;
	*unwound = ln ? ln->unwound : 0;
}

static struct site_count *site_slot(struct lockname *ln, uint32_t tgid, uint64_t uaddr,
				    const char *site, enum wait_kind kind)
{
	struct site_count *s;

	for (int i = 0; i < ln->nsites; i++) {
		s = &ln->sites[i];
		if (s->tgid == tgid && s->uaddr == uaddr && s->kind == kind &&
		    !strcmp(s->site, site))
			return s;
	}
	if (ln->nsites == ln->cap) {
		int cap = ln->cap ? 2 * ln->cap : 64;

		s = realloc(ln->sites, (size_t)cap * sizeof(*s));
		if (!s)
			return NULL;
		ln->sites = s;
		ln->cap = cap;
	}
	s = &ln->sites[ln->nsites++];
	memset(s, 0, sizeof(*s));
	s->tgid = tgid;
	s->uaddr = uaddr;
	s->kind = kind;
	snprintf(s->site, sizeof(s->site), "%s", site);
	return s;
}

void lockname_on_ustack(void *arg, const struct fct_ustack *e, size_t len)
{
	struct lockname *ln = arg;
	struct site_count *s;
	enum wait_kind kind;
	char site[128];

	ln->received++;
	if (ln->last_tgid != (pid_t)e->tgid) {	/* a process we have no map of yet */
		usym_snapshot(ln->u, (pid_t)e->tgid);
		ln->last_tgid = (pid_t)e->tgid;
	}
	if (usym_wait_site(ln->u, e, len, site, sizeof(site), &kind) == 0)
		ln->unwound++;
	s = site_slot(ln, e->tgid, e->uaddr, site, kind);
	if (s)
		s->n++;
}

/* Without a stack the op still tells: glibc's mutexes wait with
 * FUTEX_WAIT (0) or LOCK_PI (6, 13); condvars, semaphores, rwlocks and
 * joins with WAIT_BITSET (9). */
static enum wait_kind kind_of_op(uint32_t op)
{
	return op == 0 || op == 6 || op == 13 ? WK_UNKNOWN : WK_CONDVAR;
}

/* The most sampled site and kind of one word. */
static const struct site_count *best_site(const struct lockname *ln, uint32_t tgid,
					  uint64_t uaddr, uint64_t *samples)
{
	const struct site_count *best = NULL;

	*samples = 0;
	for (int i = 0; ln && i < ln->nsites; i++) {
		const struct site_count *s = &ln->sites[i];

		if (s->tgid != tgid || s->uaddr != uaddr)
			continue;
		*samples += s->n;
		if (!best || s->n > best->n || (strcmp(best->site, "?") == 0 && s->n == best->n))
			best = s;
	}
	return best;
}

static uint32_t tgid_of(const struct kview *kv, uint32_t tid)
{
	const struct fct_thread *t = kview_thread(kv, tid);

	return t ? t->tgid : 0;
}

static int known(const struct lock_name *names, int n, uint32_t tgid, uint64_t uaddr)
{
	for (int i = 0; i < n; i++)
		if (names[i].tgid == tgid && uaddr >= names[i].addr &&
		    uaddr < names[i].addr + names[i].size)
			return 1;
	return 0;
}

static void name_word(struct lockname *ln, const struct kv_futex *f, uint32_t tgid,
		      struct lock_name *out)
{
	const struct site_count *s = best_site(ln, tgid, f->key.uaddr, &out->samples);
	enum wait_kind kind = s && s->kind != WK_UNKNOWN ? s->kind : kind_of_op(f->key.op);
	const char *kname = kind == WK_UNKNOWN ? "lock" : wait_kind_name(kind);
	char sym[64];

	if (f->key.op == FCT_FUTEX_OP_WAITV)
		kind = WK_UNKNOWN, kname = "futex_waitv";
	out->tgid = tgid;
	out->addr = f->key.uaddr;
	out->size = 4;
	out->is_lock = wait_kind_is_lock(kind);
	snprintf(out->site, sizeof(out->site), "%s", s && strcmp(s->site, "?") ? s->site : "");
	if (ln && usym_data_name(ln->u, (pid_t)tgid, f->key.uaddr, sym, sizeof(sym),
				 &out->addr, &out->size) == 0)
		snprintf(out->name, sizeof(out->name), "%s (%s)", sym, kname);
	else if (out->site[0])
		snprintf(out->name, sizeof(out->name), "%s @ %.120s", kname, out->site);
	else
		snprintf(out->name, sizeof(out->name), "%s 0x%llx", kname,
			 (unsigned long long)f->key.uaddr);
}

int lockname_build(struct lockname *ln, const struct kview *kv, struct lock_name **out)
{
	struct lock_name *names = calloc(kv->nfutex ? kv->nfutex : 1, sizeof(*names));
	int n = 0;

	*out = NULL;
	if (!names)
		return -1;
	for (int i = 0; i < kv->nfutex; i++) {
		uint32_t tgid = tgid_of(kv, kv->futex[i].key.tid);

		if (!known(names, n, tgid, kv->futex[i].key.uaddr))
			name_word(ln, &kv->futex[i], tgid, &names[n++]);
	}
	*out = names;
	return n;
}
