/*
 * join_sites.c - a JVM's waits named by Java call site (fctrace's JVMTI
 * agent, jvm/agent/jvmti_agent.c) folded into the joined run. One lock per
 * (kind, class): "monitor CLASS @ TOP SITE", "park CLASS @ TOP SITE",
 * "Object.wait on CLASS @ TOP SITE", with its largest sites.
 *
 * The time is the kernel's. A contended enter blocks in a futex wait:
 * the agent's enter -> entered time of a thread moves at most that
 * thread's futex (event) time to the lock bucket, and its sites are
 * scaled alike. A park has no JVMTI event: each thread's parks and park
 * time (HotSpot's thread__park probes, which fire with no flag) are
 * split over the sites the agent's sampler saw it parked at, in
 * proportion to the samples.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "jvm/jvm.h"
#include "join/join.h"

struct site_sum {
	const char *site;
	double waits, ns;
};

struct group {
	char kind;
	const char *cls;
	struct site_sum *s;
	int n;
	uint64_t max_ns;
};

static struct thread_row *row_of(struct joined_run *m, uint32_t tid)
{
	for (unsigned i = 0; tid && i < m->nrows; i++)
		if ((uint32_t)m->rows[i].tid == tid)
			return &m->rows[i];
	return NULL;
}

bool join_jvm_sampled_park(const struct jvm_view *v, uint32_t tid)
{
	for (int i = 0; v && i < v->sites.nrows; i++)
		if (v->sites.rows[i].kind == 'p' && v->sites.rows[i].tid == tid)
			return true;
	return false;
}

/* a thread's agent total of one kind (of one class, or of all: cls NULL) */
static uint64_t thread_sum(const struct jvm_view *v, char kind, const char *cls, uint32_t tid,
			   bool samples)
{
	uint64_t sum = 0;

	for (int i = 0; i < v->sites.nrows; i++) {
		const struct jvm_site_row *r = &v->sites.rows[i];

		if (r->kind == kind && r->tid == tid && (!cls || !strcmp(r->cls, cls)))
			sum += samples ? r->waits : r->ns;
	}
	return sum;
}

static void add_to_site(struct group *g, const char *site, double waits, double ns)
{
	for (int i = 0; i < g->n; i++) {
		if (!strcmp(g->s[i].site, site)) {
			g->s[i].waits += waits;
			g->s[i].ns += ns;
			return;
		}
	}
	struct site_sum *n = realloc(g->s, (g->n + 1) * sizeof(*g->s));

	if (!n)
		return;
	g->s = n;
	g->s[g->n++] = (struct site_sum){ site, waits, ns };
}

static int cmp_site(const void *a, const void *b)
{
	const struct site_sum *x = a, *y = b;

	return x->ns < y->ns ? 1 : x->ns > y->ns ? -1 : strcmp(x->site, y->site);
}

static const char *prefix_of(char kind)
{
	return kind == 'm' ? "monitor " : kind == 'p' ? "park " : "Object.wait on ";
}

enum lock_kind join_jvm_wait_kind(char kind, const char *cls)
{
	if (kind == 'm')
		return LK_MONITOR;
	if (kind == 'p')
		return LK_PARK;
	/* Thread.join is Object.wait on the Thread joined */
	return cls && !strcmp(cls, "java.lang.Thread") ? LK_JOIN : LK_OBJECT_WAIT;
}

/* The kernel's share of one row: (waits, ns). */
static void kernel_view(struct joined_run *m, const struct jvm_view *v,
			const struct jvm_site_row *r, double scale, double *waits, double *ns)
{
	const struct jvm_thread_info *th = jvm_view_thread(v, r->tid);
	uint64_t samples;

	*waits = (double)r->waits;
	*ns = (double)r->ns * scale;
	if (r->kind != 'p' || !th || !th->k.parks)
		return;
	samples = thread_sum(v, 'p', NULL, r->tid, true);
	*waits = (double)th->k.parks * (double)r->waits / (double)samples;
	*ns = (double)th->k.park_ns * (double)r->waits / (double)samples;
}

/* Contended enters: the thread's time for this class moved from its
 * futex (event) bucket to the lock bucket, at most what the kernel saw:
 * the scale that cap gives the thread's sites. */
static double move_enters(struct joined_run *m, struct thread_row *r, uint64_t ns)
{
	uint64_t moved = ns < r->acct_ns[ACCT_FUTEX_OTHER] ? ns : r->acct_ns[ACCT_FUTEX_OTHER];

	r->acct_ns[ACCT_FUTEX_OTHER] -= moved;
	r->acct_ns[ACCT_LOCK_NAMED] += moved;
	m->acct_total_ns[ACCT_FUTEX_OTHER] -= moved;
	m->acct_total_ns[ACCT_LOCK_NAMED] += moved;
	m->event_wait_ns -= moved < m->event_wait_ns ? moved : m->event_wait_ns;
	return ns ? (double)moved / (double)ns : 0;
}

static void fill_sites(struct lock_total *t, struct group *g)
{
	qsort(g->s, g->n, sizeof(*g->s), cmp_site);
	for (int i = 0; i < g->n && t->nsites < LOCK_SITES_MAX; i++) {
		struct lock_site *s = &t->sites[t->nsites++];

		snprintf(s->site, sizeof(s->site), "%s", g->s[i].site);
		s->waits = (uint64_t)(g->s[i].waits + 0.5);
		s->wait_ns = (uint64_t)(g->s[i].ns + 0.5);
	}
}

/* the longest single wait: the agent's own for monitors and Object.wait,
 * the kernel's (the park probes') for parks */
static uint64_t longest(const struct jvm_view *v, const struct jvm_site_row *r)
{
	const struct jvm_thread_info *th = jvm_view_thread(v, r->tid);

	if (r->kind == 'p')
		return th && th->k.parks ? th->k.park_max_ns : r->max_ns;
	return r->max_ns;
}

/* One thread's rows of group g: into its own lock use and g's sites. */
static void add_thread(struct joined_run *m, const struct jvm_view *v, struct group *g,
		       struct thread_row *tr, struct lock_use *u, uint32_t tid)
{
	double scale = 1, w, ns, tw = 0, tns = 0;
	uint64_t mx = 0;

	if (g->kind == 'm')
		scale = move_enters(m, tr, thread_sum(v, 'm', g->cls, tid, false));
	for (int i = 0; i < v->sites.nrows; i++) {
		const struct jvm_site_row *r = &v->sites.rows[i];

		if (r->kind != g->kind || r->tid != tid || strcmp(r->cls, g->cls))
			continue;
		kernel_view(m, v, r, scale, &w, &ns);
		add_to_site(g, r->site, w, ns);
		mx = longest(v, r) > mx ? longest(v, r) : mx;
		tw += w;
		tns += ns;
	}
	if (u) {
		u->waits += (uint64_t)(tw + 0.5);
		u->wait_ns += (uint64_t)(tns + 0.5);
		u->max_ns = mx > u->max_ns ? mx : u->max_ns;
	}
	g->max_ns = mx > g->max_ns ? mx : g->max_ns;
	if (g->kind == 'p') {
		m->parks += (uint64_t)(tw + 0.5);
		m->park_ns += (uint64_t)(tns + 0.5);
	}
	if (g->kind != 'm')
		m->event_wait_ns += (uint64_t)(tns + 0.5);
}

void join_jvm_lock_name(const struct jvm_view *v, char kind, const char *cls, char *out,
			size_t len)
{
	const char *top = NULL;
	uint64_t best = 0;

	for (int i = 0; i < v->sites.nrows; i++) {
		const struct jvm_site_row *r = &v->sites.rows[i];

		if (r->kind == kind && !strcmp(r->cls, cls) && (!top || r->ns > best)) {
			top = r->site;
			best = r->ns;
		}
	}
	snprintf(out, len, "%s%s @ %s", prefix_of(kind),
		 strcmp(cls, "-") ? cls : "(no blocker)", top ? top : "?");
}

/* The lock's name: its class and its top site (the largest wait). */
static void lock_name(const struct jvm_view *v, const struct group *g, char *out, size_t len)
{
	join_jvm_lock_name(v, g->kind, g->cls, out, len);
}

static void add_group(struct joined_run *m, const struct jvm_view *v, struct group *g)
{
	uint32_t seen[4096];
	int nseen = 0;
	char name[160];
	struct lock_total *t = NULL;
	struct lock_use *u;
	uint64_t ns = 0, waits = 0;

	lock_name(v, g, name, sizeof(name));
	for (int i = 0; i < v->sites.nrows && nseen < 4096; i++) {
		const struct jvm_site_row *r = &v->sites.rows[i];
		struct thread_row *tr = row_of(m, r->tid);
		bool done = false;

		if (r->kind != g->kind || strcmp(r->cls, g->cls) || !tr || tr->aside)
			continue;
		for (int k = 0; k < nseen && !done; k++)
			done = seen[k] == r->tid;
		if (done)
			continue;
		seen[nseen++] = r->tid;
		/* made at the first application thread's: none for a lock
		 * only the JVM's own threads waited on */
		if (nseen == 1 && !(t = join_lock_total(m, name, false, g->kind == 'm')))
			return;
		t->kind = join_jvm_wait_kind(g->kind, g->cls);
		u = join_row_use(tr, name, g->kind == 'm');
		if (u)
			u->kind = t->kind;
		add_thread(m, v, g, tr, u, r->tid);
		t->threads++;
	}
	if (!nseen)
		return;
	fill_sites(t, g);
	for (int i = 0; i < g->n; i++) {
		waits += (uint64_t)(g->s[i].waits + 0.5);
		ns += (uint64_t)(g->s[i].ns + 0.5);
	}
	t->waits += waits;
	t->wait_ns += ns;
	t->max_ns = g->max_ns > t->max_ns ? g->max_ns : t->max_ns;
}

void join_add_jvm_sites(struct joined_run *m, const struct jvm_view *v)
{
	for (int i = 0; v && i < v->sites.nrows; i++) {
		const struct jvm_site_row *r = &v->sites.rows[i];
		struct group g = { r->kind, r->cls, NULL, 0, 0 };
		bool done = false;

		/* each (kind, class) once: at its first row */
		for (int k = 0; k < i && !done; k++)
			done = v->sites.rows[k].kind == r->kind && !strcmp(v->sites.rows[k].cls, r->cls);
		if (done)
			continue;
		add_group(m, v, &g);
		free(g.s);
	}
}
