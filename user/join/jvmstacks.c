/*
 * jvmstacks.c - a JVM's contended monitor enters in the wait flame graph
 * by their Java call paths (jvmstacks.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "join/jvmstacks.h"

#define JAVA_DEPTH	64	/* the agent walks 12 */

static const struct lock_use *use_of(const struct thread_row *r, const char *name)
{
	for (int i = 0; i < r->nlocks; i++)
		if (!strcmp(r->locks[i].name, name))
			return &r->locks[i];
	return NULL;
}

static const struct lock_total *total_of(const struct joined_run *m, const char *name)
{
	for (int i = 0; i < m->nlocks; i++)
		if (!strcmp(m->locks[i].name, name))
			return &m->locks[i];
	return NULL;
}

/* "pkg.C.m(F.java:12)": func "pkg.C.m", file "F.java", line 12. */
static int java_frame(struct stack_set *ss, const char *text, size_t len)
{
	char buf[512], *open, *colon;
	unsigned line = 0;

	snprintf(buf, sizeof(buf), "%.*s", (int)len, text);
	open = strchr(buf, '(');
	if (!open)
		return stacks_frame(ss, buf, "", 0);
	*open++ = '\0';
	open[strcspn(open, ")")] = '\0';
	colon = strrchr(open, ':');
	if (colon && sscanf(colon + 1, "%u", &line) == 1)
		*colon = '\0';
	return stacks_frame(ss, buf, strcmp(open, "?") ? open : "", line);
}

/* k's Java frames root first, then "monitor CLASS", into to: how many,
 * or -1 out of memory. */
static int java_stack(struct stack_set *ss, const struct jvm_site_stack *k, uint32_t *to)
{
	const char *f[JAVA_DEPTH];
	size_t len[JAVA_DEPTH];
	char leaf[200];
	int n = 0, idx;

	for (const char *p = k->frames; *p && n < JAVA_DEPTH; n++) {
		f[n] = p;
		len[n] = strcspn(p, "\t");
		p += len[n] + (p[len[n]] == '\t');
	}
	for (int i = n - 1; i >= 0; i--) {	/* the agent's are innermost first */
		if ((idx = java_frame(ss, f[i], len[i])) < 0)
			return -1;
		to[n - 1 - i] = (uint32_t)idx;
	}
	snprintf(leaf, sizeof(leaf), "monitor %s", k->cls);
	if ((idx = stacks_frame(ss, leaf, "", 0)) < 0)
		return -1;
	to[n] = (uint32_t)idx;
	return n + 1;
}

/* Is s a wait through HotSpot's monitor enter (ObjectMonitor::enter,
 * ::EnterI, or their mangled names)? */
static bool native_enter(const struct stack_set *ss, const struct sstack *s)
{
	for (int i = 0; i < s->nframes; i++) {
		const char *fn = ss->frames[s->frames[i]].func, *om = strstr(fn, "ObjectMonitor");

		if (om && (strstr(om, "enter") || strstr(om, "Enter")))
			return true;
	}
	return false;
}

/* Take ns off thread's native monitor-enter stacks, in proportion to
 * their time, at most all of it. */
static void take_native(struct stack_set *ss, const char *thread, uint64_t ns)
{
	uint64_t total = 0, left = ns;
	int last = -1;

	for (int i = 0; i < ss->n; i++)
		if (ss->stacks[i].kind == STK_WAIT && !strcmp(ss->stacks[i].thread, thread) &&
		    native_enter(ss, &ss->stacks[i]))
			total += ss->stacks[i].ns, last = i;
	for (int i = 0; i <= last && total; i++) {
		struct sstack *s = &ss->stacks[i];
		uint64_t cut;

		if (s->kind != STK_WAIT || strcmp(s->thread, thread) || !native_enter(ss, s))
			continue;
		cut = i == last ? left : (uint64_t)((double)ns * (double)s->ns / (double)total);
		cut = cut < s->ns ? cut : s->ns;
		cut = cut < left ? cut : left;
		s->ns -= cut;
		left -= cut;
	}
}

static bool stack_of(const struct jvm_site_stack *k, const char *cls, uint32_t tid)
{
	return k->kind == 'm' && !strcmp(k->cls, cls) && (!tid || k->tid == tid);
}

/* A thread's ns on lock name over its walked stacks of class cls (every
 * thread's when it walked none), by their walked waits' time. */
static int thread_stacks(struct stack_set *ss, const struct jvm_view *v, const char *thread,
			 uint32_t tid, const char *cls, const char *name, uint64_t ns)
{
	uint32_t to[JAVA_DEPTH + 1];
	uint64_t w = 0, given = 0;
	int last = -1, n;

	for (int i = 0; i < v->sites.nstacks; i++)
		if (stack_of(&v->sites.stacks[i], cls, tid))
			w += v->sites.stacks[i].ns + 1, last = i;	/* +1: a 0 ns walk counts */
	if (last < 0)
		return tid ? thread_stacks(ss, v, thread, 0, cls, name, ns) : 0;
	for (int i = 0; i <= last; i++) {
		const struct jvm_site_stack *k = &v->sites.stacks[i];
		uint64_t part;

		if (!stack_of(k, cls, tid))
			continue;
		part = i == last ? ns - given : (uint64_t)((double)ns * (double)(k->ns + 1) / (double)w);
		given += part;
		if ((n = java_stack(ss, k, to)) < 0 ||
		    stacks_add(ss, STK_WAIT, thread, name, to, n, part, k->walks))
			return -1;
	}
	return 0;
}

/* One monitor class's lock row over its threads. */
static int monitor_stacks(struct stack_set *ss, const struct joined_run *m,
			  const struct jvm_view *v, const char *cls)
{
	const struct lock_total *t;
	uint64_t given = 0, ns;
	char name[160];
	int last = -1;

	join_jvm_lock_name(v, 'm', cls, name, sizeof(name));
	if (!(t = total_of(m, name)))
		return 0;
	for (unsigned i = 0; i < m->nrows; i++)
		if (!m->rows[i].aside && use_of(&m->rows[i], name))
			last = (int)i;
	for (int i = 0; i <= last; i++) {
		const struct thread_row *r = &m->rows[i];
		const struct lock_use *u = r->aside ? NULL : use_of(r, name);
		const char *thread = r->k.comm[0] ? r->k.comm : "?";

		if (!u)
			continue;
		ns = i == last ? (t->wait_ns > given ? t->wait_ns - given : 0) : u->wait_ns;
		given += ns;
		take_native(ss, thread, ns);
		if (thread_stacks(ss, v, thread, r->k.tid, cls, name, ns))
			return -1;
	}
	return 0;
}

int jvmstacks_add(struct stack_set *ss, const struct joined_run *m, const struct jvm_view *v)
{
	int rc = 0;

	for (int i = 0; v && i < v->sites.nstacks && !rc; i++) {
		const struct jvm_site_stack *k = &v->sites.stacks[i];
		bool done = k->kind != 'm';

		/* each class once: at its first stack */
		for (int j = 0; j < i && !done; j++)
			done = v->sites.stacks[j].kind == 'm' && !strcmp(v->sites.stacks[j].cls, k->cls);
		if (!done)
			rc = monitor_stacks(ss, m, v, k->cls);
	}
	stacks_order(ss);
	return rc;
}
