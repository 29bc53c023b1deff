/*
 * jvm_sites.c - the agent's totals (jvm/agent/jvmti_agent.c's dump) and a
 * thread dump's names into a struct jvm_view: rows by (kind, thread,
 * class, call site), Java thread names by tid.
 *
 * The agent knows a thread's tid only on that thread (its own events);
 * the park sampler sees other threads, known by Thread.getId(), so each
 * park row is given the tid its Java id has: from the agent's names, or
 * from a thread dump's "#ID ... nid=TID". Tids are the JVM's own pid
 * namespace's: mapped to the host's through /proc/PID/task/T/status.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/signals.h"
#include "jvm/jvm.h"

#define tidmap jvm_tidpair

static int load_tids(pid_t pid, struct tidmap **out)
{
	char path[64];
	struct dirent *d;
	int n = 0, cap = 0;
	DIR *dir;

	*out = NULL;
	if (jvm_ns_pid(pid, pid) == pid)
		return 0;	/* one namespace: tids are tids */
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if (!(dir = opendir(path)))
		return 0;
	while ((d = readdir(dir))) {
		pid_t t = (pid_t)atoi(d->d_name);

		if (t <= 0)
			continue;
		if (n == cap) {
			struct tidmap *nm = realloc(*out, (cap = cap * 2 + 64) * sizeof(**out));

			if (!nm)
				break;
			*out = nm;
		}
		(*out)[n].ns = (uint32_t)jvm_ns_pid(pid, t);
		(*out)[n++].host = (uint32_t)t;
	}
	closedir(dir);
	return n;
}

/*
 * The namespace map, sorted for lookups (a name per line looked up over
 * the whole map was names x threads). A key is (ns << 32 | place): the
 * first pair of a tid in the map wins, as known's come before the live.
 */
struct tids {
	const struct tidmap *m;
	uint64_t *by_ns;
	int n;
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static int tids_index(struct tids *t, const struct tidmap *m, int n)
{
	*t = (struct tids){ .m = m, .n = n };
	if (!m || !n)
		return 0;
	if (!(t->by_ns = malloc((size_t)n * sizeof(*t->by_ns))))
		return -ENOMEM;
	for (int i = 0; i < n; i++)
		t->by_ns[i] = (uint64_t)m[i].ns << 32 | (uint32_t)i;
	qsort(t->by_ns, (size_t)n, sizeof(*t->by_ns), cmp_u64);
	return 0;
}

/* ns's tid here: itself in one namespace, 0 when gone */
static uint32_t host_tid(const struct tids *t, uint32_t ns)
{
	int lo = 0, hi = t->n;

	if (!t->m)
		return ns;
	while (lo < hi) {	/* the first key of ns */
		int mid = lo + (hi - lo) / 2;

		if (t->by_ns[mid] >> 32 < ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < t->n && t->by_ns[lo] >> 32 == ns)
		return t->m[(uint32_t)t->by_ns[lo]].host;
	return 0;	/* gone: its host tid is no longer known */
}

static int cmp_thread(const void *a, const void *b)
{
	const struct jvm_thread_info *x = a, *y = b;

	return (x->tid > y->tid) - (x->tid < y->tid);
}

/*
 * The names a text gave, applied once it is read: looked up and sorted
 * in one by one, each name cost the threads and rows over again. The
 * first name of a thread wins (the probes' thread__start name stays),
 * and a Java id's first known tid goes to its park rows and stacks.
 */
struct found_name {
	uint32_t tid;		/* host tid, 0: gone */
	int64_t jid;
	int seq;		/* its place in the text */
	char name[FCT_JVM_NAME_LEN];
};

struct found {
	struct found_name *v;
	int n, cap;
};

static int found_add(struct found *f, int64_t jid, uint32_t tid, const char *name, int len)
{
	struct found_name *x;

	if (f->n == f->cap) {
		int cap = f->cap ? 2 * f->cap : 64;

		if (!(x = realloc(f->v, (size_t)cap * sizeof(*x))))
			return -ENOMEM;
		f->v = x;
		f->cap = cap;
	}
	x = &f->v[f->n];
	*x = (struct found_name){ .tid = tid, .jid = jid, .seq = f->n };
	snprintf(x->name, sizeof(x->name), "%.*s", len, name);
	f->n++;
	return 0;
}

static int by_jid(const void *a, const void *b)
{
	const struct found_name *x = a, *y = b;

	if (x->jid != y->jid)
		return x->jid < y->jid ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* by tid, the named first: a tid's first name is first among its own */
static int by_tid(const void *a, const void *b)
{
	const struct found_name *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (!x->name[0] != !y->name[0])
		return !x->name[0] ? 1 : -1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* The first tid a Java id was given (f sorted by_jid), or 0. */
static uint32_t tid_of_jid(const struct found *f, int64_t jid)
{
	int lo = 0, hi = f->n;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (f->v[mid].jid < jid)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < f->n && f->v[lo].jid == jid; lo++)
		if (f->v[lo].tid)
			return f->v[lo].tid;
	return 0;
}

/* park rows and stacks: their Java id's tid */
static void give_tids(struct jvm_view *v, struct found *f)
{
	qsort(f->v, (size_t)f->n, sizeof(*f->v), by_jid);
	for (int i = 0; i < v->sites.nrows; i++)
		if (!v->sites.rows[i].tid)
			v->sites.rows[i].tid = tid_of_jid(f, v->sites.rows[i].jid);
	for (int i = 0; i < v->sites.nstacks; i++)
		if (!v->sites.stacks[i].tid)
			v->sites.stacks[i].tid = tid_of_jid(f, v->sites.stacks[i].jid);
}

static void name_thread(struct jvm_thread_info *t, pid_t pid, const struct found_name *x)
{
	snprintf(t->name, sizeof(t->name), "%s", x->name);
	t->java_name = true;
	t->group = jvm_thread_group(t->name, pid > 0 && t->tid == (uint32_t)pid);
}

/* Name the threads (added when the probes never saw them), one sort. */
static int name_threads(struct jvm_view *v, pid_t pid, struct found *f)
{
	int old = v->nthreads, added = 0;
	struct jvm_thread_info *t = NULL;

	qsort(f->v, (size_t)f->n, sizeof(*f->v), by_tid);
	for (int i = 0; i < f->n; i++)
		added += f->v[i].tid && f->v[i].name[0] && (i == 0 || f->v[i - 1].tid != f->v[i].tid);
	if (added && !(t = realloc(v->threads, (size_t)(old + added) * sizeof(*t))))
		return -ENOMEM;
	if (added)
		v->threads = t;
	for (int i = 0; i < f->n; i++) {
		const struct found_name *x = &f->v[i];
		struct jvm_thread_info key = { .tid = x->tid }, *have;

		if (!x->tid || !x->name[0] || (i > 0 && f->v[i - 1].tid == x->tid))
			continue;	/* no thread, no name, or not the first */
		have = bsearch(&key, v->threads, (size_t)old, sizeof(key), cmp_thread);
		if (have && have->java_name)
			continue;	/* thread__start's: the same name */
		if (!have) {
			have = &v->threads[v->nthreads++];
			memset(have, 0, sizeof(*have));
			have->tid = x->tid;
		}
		name_thread(have, pid, x);
	}
	qsort(v->threads, (size_t)v->nthreads, sizeof(*v->threads), cmp_thread);
	return 0;
}

/* A name per tid, as several tids of one Java id (a thread seen twice,
 * wrongly) would not: the names are kept in the order read. */
static int found_apply(struct jvm_view *v, pid_t pid, struct found *f)
{
	if (!f->n)
		return 0;
	give_tids(v, f);
	return name_threads(v, pid, f);
}

/*
 * Each line of text to fn, NUL-ended in a private copy: a search or a
 * sscanf (glibc's measures its whole input) then stops at the line's end,
 * not the text's, and the parse is linear in the text. Stops when
 * fctrace is asked to stop (Ctrl-C): -EINTR. 0, or fn's error.
 */
static int each_line(const char *text, int (*fn)(char *line, void *arg), void *arg)
{
	char *copy = text ? strdup(text) : NULL, *l, *nl;
	int err = 0;

	if (text && !copy)
		return -ENOMEM;
	for (l = copy; l && *l && !err; l = nl ? nl + 1 : l + strlen(l)) {
		if (signals_caught()) {
			err = -EINTR;
			break;
		}
		if ((nl = strchr(l, '\n')))
			*nl = '\0';
		err = fn(l, arg);
	}
	free(copy);
	return err;
}

/* What a parse reads into, and how it maps tids; the room its sites'
 * arrays have (grown by doubling: a dump of hundreds of thousands of rows
 * took minutes with one realloc a row) */
struct parse {
	struct jvm_view *v;
	pid_t pid;
	struct tids tids;
	struct found names;
	int cap_rows, cap_mons, cap_stacks;
};

/* a (of size each, n used, *cap there) with room for one more: a itself,
 * or it moved, or NULL with a untouched (no memory) */
static void *grown(void *a, int n, int *cap, size_t size)
{
	void *m;
	int c;

	if (n < *cap)
		return a;
	c = n < 8 ? 16 : 2 * n;
	if ((m = realloc(a, (size_t)c * size)))
		*cap = c;
	return m;
}

/* K KIND TID JID WALKS NS CLASS SITE FRAME...: a walked Java stack. */
static int add_stack(struct parse *p, const char *line)
{
	struct jvm_view *v = p->v;
	struct jvm_site_stack k = { 0 };
	unsigned long long walks, ns;
	unsigned tid;
	long long jid;
	int off = 0, f = 0;
	void *n;

	if (sscanf(line, "K\t%c\t%u\t%lld\t%llu\t%llu\t%n", &k.kind, &tid, &jid, &walks, &ns,
		   &off) != 5 || !off)
		return 0;
	if (sscanf(line + off, "%159[^\t]\t%199[^\t]%n", k.cls, k.site, &f) != 2 ||
	    line[off + f] != '\t')
		return 0;
	if (!(k.frames = strdup(line + off + f + 1)))
		return -ENOMEM;
	k.tid = tid ? host_tid(&p->tids, tid) : 0;
	k.jid = jid;
	k.walks = walks;
	k.ns = ns;
	if (!(n = grown(v->sites.stacks, v->sites.nstacks, &p->cap_stacks, sizeof(k)))) {
		free(k.frames);
		return -ENOMEM;
	}
	v->sites.stacks = n;
	v->sites.stacks[v->sites.nstacks++] = k;
	return 0;
}

static int add_row(struct parse *p, const char *line)
{
	struct jvm_view *v = p->v;
	struct jvm_site_row r = { 0 };
	unsigned long long waits, ns, walks, max;
	unsigned tid;
	long long jid;
	int off = 0;
	void *n;

	if (sscanf(line, "R\t%c\t%u\t%lld\t%llu\t%llu\t%llu\t%llu\t%n", &r.kind, &tid, &jid,
		   &waits, &ns, &walks, &max, &off) != 7 || !off)
		return 0;
	sscanf(line + off, "%159[^\t]\t%199[^\n]", r.cls, r.site);
	r.tid = tid ? host_tid(&p->tids, tid) : 0;
	r.jid = jid;
	r.waits = waits;
	r.ns = ns;
	r.walks = walks;
	r.max_ns = max;
	if (!(n = grown(v->sites.rows, v->sites.nrows, &p->cap_rows, sizeof(r))))
		return -ENOMEM;
	v->sites.rows = n;
	v->sites.rows[v->sites.nrows++] = r;
	return 0;
}

static int add_mon(struct parse *p, const char *line)
{
	struct jvm_view *v = p->v;
	struct jvm_site_mon o = { 0 };
	unsigned long long mon;
	void *n;

	if (sscanf(line, "O\t%llx\t%159[^\t\n]", &mon, o.cls) != 2 || !mon)
		return 0;
	o.mon = mon;
	if (!(n = grown(v->sites.mons, v->sites.nmons, &p->cap_mons, sizeof(o))))
		return -ENOMEM;
	v->sites.mons = n;
	v->sites.mons[v->sites.nmons++] = o;
	return 0;
}

static int add_name(struct parse *p, const char *line)
{
	char name[FCT_JVM_NAME_LEN] = "";
	unsigned tid;
	long long jid;

	if (sscanf(line, "N\t%lld\t%u\t%63[^\n]", &jid, &tid, name) < 2 || !tid)
		return 0;
	return found_add(&p->names, jid, host_tid(&p->tids, tid), name, (int)strlen(name));
}

/* the live map, with known's pairs first (threads gone by now) */
static int all_tids(pid_t pid, const struct tidmap *known, int n, struct tidmap **out)
{
	struct tidmap *live = NULL, *m;
	int nl = load_tids(pid, &live);

	if (!n) {
		*out = live;
		return nl;
	}
	if (!(m = malloc((n + nl) * sizeof(*m)))) {
		*out = live;
		return nl;
	}
	memcpy(m, known, n * sizeof(*m));
	if (nl)
		memcpy(m + n, live, nl * sizeof(*m));
	free(live);
	*out = m;
	return n + nl;
}

/* rows first, names after: a name gives its tid to the park rows */
static int rows_line(char *l, void *arg)
{
	struct parse *p = arg;

	if (l[0] == 'R')
		return add_row(p, l);
	if (l[0] == 'O')
		return add_mon(p, l);
	if (l[0] == 'K')
		return add_stack(p, l);
	return 0;
}

static int names_line(char *l, void *arg)
{
	struct parse *p = arg;
	struct jvm_sites *s = &p->v->sites;
	unsigned long long lost, pw;

	if (l[0] == 'N')
		return add_name(p, l);
	if (l[0] == 'L' && sscanf(l, "L\t%llu\t%llu\t%u\t%u\t%u", &lost, &pw, &s->walks,
				  &s->every, &s->period_ms) == 5) {
		s->lost = lost;
		s->park_walks = pw;
		s->loaded = true;
	}
	return 0;
}

/* Parse text with map (malloc'd, taken) by the line functions, in turn. */
static int parse_with(struct parse *p, struct tidmap *map, int nmap, const char *text,
		      int (*const fns[])(char *, void *), int nfns)
{
	int err = tids_index(&p->tids, map, nmap);

	for (int i = 0; i < nfns && !err; i++)
		err = each_line(text, fns[i], p);
	if (!err)
		err = found_apply(p->v, p->pid, &p->names);
	free(p->names.v);
	free(p->tids.by_ns);
	free(map);
	return err;
}

int jvm_sites_parse(const char *text, pid_t pid, const struct jvm_tidpair *known, int n,
		    struct jvm_view *v)
{
	static int (*const fns[])(char *, void *) = { rows_line, names_line };
	/* v's arrays may hold an earlier parse's: just that much room is known */
	struct parse p = { .v = v, .pid = pid, .cap_rows = v->sites.nrows,
			   .cap_mons = v->sites.nmons, .cap_stacks = v->sites.nstacks };
	struct tidmap *m = NULL;
	int nm = all_tids(pid, known, n, &m);

	return parse_with(&p, m, nm, text, fns, 2);
}

/* `"name" #ID [daemon] prio=... nid=0x1a2b ...` (JDK 21: nid=6699) */
static int dump_line(char *l, void *arg)
{
	struct parse *p = arg;
	const char *end, *nid;
	unsigned long tid;
	long long jid;

	if (l[0] != '"' || !(end = strstr(l + 1, "\" #")) || !(nid = strstr(l, " nid=")) ||
	    sscanf(end + 3, "%lld", &jid) != 1)
		return 0;
	tid = strtoul(nid + 5, NULL, strncmp(nid + 5, "0x", 2) ? 10 : 16);
	return found_add(&p->names, jid, host_tid(&p->tids, (uint32_t)tid), l + 1,
			 (int)(end - l - 1));
}

int jvm_names_from_dump(const char *dump, pid_t pid, struct jvm_view *v)
{
	static int (*const fns[])(char *, void *) = { dump_line };
	struct parse p = { .v = v, .pid = pid };
	struct tidmap *m = NULL;
	int nm = load_tids(pid, &m);

	return parse_with(&p, m, nm, dump, fns, 1);
}
