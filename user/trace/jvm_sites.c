/*
 * jvm_sites.c - the agent's totals (trace/jvmti_agent.c's dump) and a
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
#include "trace/jvm.h"

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

static uint32_t host_tid(const struct tidmap *m, int n, pid_t pid, uint32_t ns)
{
	if (!m)
		return ns;
	for (int i = 0; i < n; i++)
		if (m[i].ns == ns)
			return m[i].host;
	return 0;	/* gone: its host tid is no longer known */
}

static int cmp_thread(const void *a, const void *b)
{
	const struct jvm_thread_info *x = a, *y = b;

	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* Name thread tid (added when the probes never saw it). */
static int name_tid(struct jvm_view *v, pid_t pid, uint32_t tid, const char *name)
{
	struct jvm_thread_info *t = (struct jvm_thread_info *)jvm_view_thread(v, tid);

	if (!tid || !name[0])
		return 0;
	if (!t) {
		void *n = realloc(v->threads, (v->nthreads + 1) * sizeof(*v->threads));

		if (!n)
			return -ENOMEM;
		v->threads = n;
		t = &v->threads[v->nthreads++];
		memset(t, 0, sizeof(*t));
		t->tid = tid;
	} else if (t->java_name) {
		return 0;	/* thread__start's: the same name */
	}
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->java_name = true;
	t->group = jvm_thread_group(t->name, pid > 0 && tid == (uint32_t)pid);
	qsort(v->threads, v->nthreads, sizeof(*v->threads), cmp_thread);
	return 0;
}

/* park rows and stacks: their Java id's tid */
static void give_tid(struct jvm_view *v, int64_t jid, uint32_t tid)
{
	for (int i = 0; i < v->sites.nrows; i++)
		if (v->sites.rows[i].jid == jid && !v->sites.rows[i].tid)
			v->sites.rows[i].tid = tid;
	for (int i = 0; i < v->sites.nstacks; i++)
		if (v->sites.stacks[i].jid == jid && !v->sites.stacks[i].tid)
			v->sites.stacks[i].tid = tid;
}

/* K KIND TID JID WALKS NS CLASS SITE FRAME...: a walked Java stack. */
static int add_stack(struct jvm_view *v, const char *line, const struct tidmap *m, int nm,
		     pid_t pid)
{
	struct jvm_site_stack k = { 0 };
	unsigned long long walks, ns;
	unsigned tid;
	long long jid;
	int off = 0, f = 0;
	const char *at;
	void *n;

	if (sscanf(line, "K\t%c\t%u\t%lld\t%llu\t%llu\t%n", &k.kind, &tid, &jid, &walks, &ns,
		   &off) != 5 || !off)
		return 0;
	if (sscanf(line + off, "%159[^\t]\t%199[^\t\n]%n", k.cls, k.site, &f) != 2 ||
	    line[off + f] != '\t')
		return 0;
	at = line + off + f + 1;
	if (!(k.frames = strndup(at, strcspn(at, "\n"))))
		return -ENOMEM;
	k.tid = tid ? host_tid(m, nm, pid, tid) : 0;
	k.jid = jid;
	k.walks = walks;
	k.ns = ns;
	if (!(n = realloc(v->sites.stacks, (v->sites.nstacks + 1) * sizeof(k)))) {
		free(k.frames);
		return -ENOMEM;
	}
	v->sites.stacks = n;
	v->sites.stacks[v->sites.nstacks++] = k;
	return 0;
}

static int add_row(struct jvm_view *v, const char *line, const struct tidmap *m, int nm,
		   pid_t pid)
{
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
	r.tid = tid ? host_tid(m, nm, pid, tid) : 0;
	r.jid = jid;
	r.waits = waits;
	r.ns = ns;
	r.walks = walks;
	r.max_ns = max;
	if (!(n = realloc(v->sites.rows, (v->sites.nrows + 1) * sizeof(r))))
		return -ENOMEM;
	v->sites.rows = n;
	v->sites.rows[v->sites.nrows++] = r;
	return 0;
}

static int add_mon(struct jvm_view *v, const char *line)
{
	struct jvm_site_mon o = { 0 };
	unsigned long long mon;
	void *n;

	if (sscanf(line, "O\t%llx\t%159[^\t\n]", &mon, o.cls) != 2 || !mon)
		return 0;
	o.mon = mon;
	if (!(n = realloc(v->sites.mons, (v->sites.nmons + 1) * sizeof(o))))
		return -ENOMEM;
	v->sites.mons = n;
	v->sites.mons[v->sites.nmons++] = o;
	return 0;
}

static int add_name(struct jvm_view *v, const char *line, const struct tidmap *m, int nm,
		    pid_t pid)
{
	char name[FCT_JVM_NAME_LEN] = "";
	unsigned tid;
	long long jid;
	uint32_t host;

	if (sscanf(line, "N\t%lld\t%u\t%63[^\n]", &jid, &tid, name) < 2 || !tid)
		return 0;
	host = host_tid(m, nm, pid, tid);
	give_tid(v, jid, host);
	return name_tid(v, pid, host, name);
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

int jvm_sites_parse(const char *text, pid_t pid, const struct jvm_tidpair *known, int n,
		    struct jvm_view *v)
{
	struct tidmap *m = NULL;
	int nm = all_tids(pid, known, n, &m), err = 0;
	unsigned long long lost, pw;

	/* rows first, names after: a name gives its tid to the park rows */
	for (int pass = 0; text && pass < 2 && !err; pass++) {
		for (const char *l = text; *l && !err; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] != 0)) {
			if (pass == 0 && l[0] == 'R')
				err = add_row(v, l, m, nm, pid);
			else if (pass == 0 && l[0] == 'O')
				err = add_mon(v, l);
			else if (pass == 0 && l[0] == 'K')
				err = add_stack(v, l, m, nm, pid);
			else if (pass == 1 && l[0] == 'N')
				err = add_name(v, l, m, nm, pid);
			else if (pass == 1 && l[0] == 'L' &&
				 sscanf(l, "L\t%llu\t%llu\t%u\t%u\t%u", &lost, &pw, &v->sites.walks,
					&v->sites.every, &v->sites.period_ms) == 5) {
				v->sites.lost = lost;
				v->sites.park_walks = pw;
				v->sites.loaded = true;
			}
		}
	}
	free(m);
	return err;
}

/* `"name" #ID [daemon] prio=... nid=0x1a2b ...` (JDK 21: nid=6699) */
static int dump_line(struct jvm_view *v, const char *l, const struct tidmap *m, int nm, pid_t pid)
{
	const char *end = strstr(l, "\" #"), *nid = strstr(l, " nid=");
	char name[FCT_JVM_NAME_LEN];
	unsigned long tid;
	long long jid;

	if (l[0] != '"' || !end || !nid || sscanf(end + 3, "%lld", &jid) != 1)
		return 0;
	tid = strtoul(nid + 5, NULL, strncmp(nid + 5, "0x", 2) ? 10 : 16);
	snprintf(name, sizeof(name), "%.*s", (int)(end - l - 1), l + 1);
	tid = host_tid(m, nm, pid, (uint32_t)tid);
	give_tid(v, jid, (uint32_t)tid);
	return name_tid(v, pid, (uint32_t)tid, name);
}

int jvm_names_from_dump(const char *dump, pid_t pid, struct jvm_view *v)
{
	struct tidmap *m = NULL;
	int nm = load_tids(pid, &m), err = 0;

	for (const char *l = dump; l && *l && !err; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] != 0))
		err = dump_line(v, l, m, nm, pid);
	free(m);
	return err;
}
