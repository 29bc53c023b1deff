/*
 * join_jvm.c - a JVM's side of the join. HotSpot blocks a thread that
 * finds a monitor owned (and a LockSupport.park) in a futex wait on the
 * thread's own park event, which the futex table can only call a
 * condvar in libjvm.so. The USDT probes say what the wait was for: the
 * contended enter -> entered time of a class's monitors is that lock's
 * wait, so it moves from the futex (event) bucket to the lock bucket.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "jvm/jvm.h"
#include "join/join.h"

static struct thread_row *row_of(struct joined_run *m, uint32_t tid)
{
	for (unsigned i = 0; i < m->nrows; i++)
		if ((uint32_t)m->rows[i].tid == tid)
			return &m->rows[i];
	return NULL;
}

/* Move up to ns of a row's futex (event) time to its lock bucket. */
static uint64_t to_lock_bucket(struct thread_row *r, uint64_t ns)
{
	if (ns > r->acct_ns[ACCT_FUTEX_OTHER])
		ns = r->acct_ns[ACCT_FUTEX_OTHER];
	r->acct_ns[ACCT_FUTEX_OTHER] -= ns;
	r->acct_ns[ACCT_LOCK_NAMED] += ns;
	return ns;
}

/* Object.wait on a class's monitors: an event, per thread, named. */
static void add_object_waits(struct joined_run *m, const struct jvm_monitor *mon)
{
	char name[160];
	struct lock_total *t;

	if (!mon->waits)
		return;
	/* Thread.join is Object.wait on the joined Thread */
	snprintf(name, sizeof(name), "%sObject.wait on %s",
		 strcmp(mon->cls, "java.lang.Thread") ? "" : "Thread.join: ", mon->cls);
	for (int i = 0; i < mon->nrows; i++) {
		const struct jvm_monitor_row *jr = &mon->rows[i];
		struct thread_row *r = row_of(m, jr->tid);
		struct lock_use *u;

		if (!r || r->aside || !jr->v.waits)
			continue;
		/* made at the first application thread's wait: none for a class
		 * only the JVM's own threads waited on */
		if (!(t = join_lock_total(m, name, false, false)))
			return;
		t->kind = join_jvm_wait_kind('w', mon->cls);
		if ((u = join_row_use(r, name, false))) {
			u->kind = t->kind;
			u->waits += jr->v.waits;
			u->wait_ns += jr->v.wait_ns;
			if (jr->v.wait_max_ns > u->max_ns)
				u->max_ns = jr->v.wait_max_ns;
		}
		t->waits += jr->v.waits;
		t->wait_ns += jr->v.wait_ns;
		if (jr->v.wait_max_ns > t->max_ns)
			t->max_ns = jr->v.wait_max_ns;
		t->threads++;
		m->event_wait_ns += jr->v.wait_ns;
	}
}

static void add_monitor(struct joined_run *m, const struct jvm_monitor *mon)
{
	char name[160];
	struct lock_total *t;

	add_object_waits(m, mon);
	if (!mon->enters)
		return;
	snprintf(name, sizeof(name), "monitor %s", mon->cls);
	for (int i = 0; i < mon->nrows; i++) {
		const struct jvm_monitor_row *jr = &mon->rows[i];
		struct thread_row *r = row_of(m, jr->tid);
		struct lock_use *u;
		uint64_t moved;

		if (!r || r->aside || !jr->v.enters)
			continue;
		if (!(t = join_lock_total(m, name, false, true)))
			return;
		t->kind = LK_MONITOR;
		moved = to_lock_bucket(r, jr->v.enter_ns);
		m->acct_total_ns[ACCT_FUTEX_OTHER] -= moved;
		m->acct_total_ns[ACCT_LOCK_NAMED] += moved;
		m->event_wait_ns -= moved < m->event_wait_ns ? moved : m->event_wait_ns;
		if ((u = join_row_use(r, name, true))) {
			u->kind = LK_MONITOR;
			u->waits += jr->v.enters;
			u->wait_ns += jr->v.enter_ns;
			if (jr->v.enter_max_ns > u->max_ns)
				u->max_ns = jr->v.enter_max_ns;
		}
		t->waits += jr->v.enters;
		t->wait_ns += jr->v.enter_ns;
		if (jr->v.enter_max_ns > t->max_ns)
			t->max_ns = jr->v.enter_max_ns;
		t->threads++;
	}
}

/* LockSupport.park per thread: an event (j.u.c locks and conditions
 * both park), named, inside the futex time it already is. */
static void add_parks(struct joined_run *m, const struct jvm_view *v)
{
	struct lock_total *t = NULL;

	for (int i = 0; i < v->nthreads; i++) {
		const struct jvm_thread_info *th = &v->threads[i];
		struct thread_row *r = row_of(m, th->tid);
		struct lock_use *u;

		if (!r || r->aside || !th->k.parks || join_jvm_sampled_park(v, th->tid))
			continue;	/* the agent's sampled parks: by site */
		if (!t && !(t = join_lock_total(m, "park (java.util.concurrent)", false, false)))
			return;
		t->kind = LK_PARK;
		if ((u = join_row_use(r, t->name, false))) {
			u->kind = LK_PARK;
			u->waits += th->k.parks;
			u->wait_ns += th->k.park_ns;
		}
		t->waits += th->k.parks;
		t->wait_ns += th->k.park_ns;
		if (th->k.park_max_ns > t->max_ns)
			t->max_ns = th->k.park_max_ns;
		t->threads++;
		m->parks += th->k.parks;
		m->park_ns += th->k.park_ns;
		m->event_wait_ns += th->k.park_ns;
	}
}

/*
 * The futex words HotSpot blocks in are its own (each thread's park
 * event); the USDT probes name what the waits were for. Those they
 * cover are dropped from the futex-word names (their time is the
 * monitor's, Object.wait's or park's rows below), sleep is named.
 */
static const struct { const char *site, *as; } hotspot_sites[] = {
	{ "ObjectMonitor::EnterI", NULL }, { "ObjectMonitor::ReenterI", NULL },
	{ "ObjectMonitor::enter", NULL }, { "ObjectMonitor::wait", NULL },
	{ "Parker::park", NULL }, { "JavaThread::sleep", "Thread.sleep" },
};

static void rename_hotspot_waits(struct thread_row *r)
{
	for (int i = 0; i < r->nlocks; i++) {
		struct lock_use *u = &r->locks[i];

		/* the JVMTI agent's own table lock: fctrace's cost, said so */
		if (strstr(u->name, JVM_AGENT_NAME))
			snprintf(u->name, sizeof(u->name), "fctrace's JVM agent (its own lock)");

		for (size_t k = 0; k < sizeof(hotspot_sites) / sizeof(*hotspot_sites); k++) {
			if (!strstr(u->name, hotspot_sites[k].site))
				continue;
			if (hotspot_sites[k].as) {	/* JavaThread::sleep: a timed sleep */
				snprintf(u->name, sizeof(u->name), "%s", hotspot_sites[k].as);
				u->kind = LK_SLEEP;
				u->is_lock = false;
				break;
			}
			*u = r->locks[--r->nlocks];	/* dropped: a row below has it */
			i--;
			break;
		}
	}
}

static void name_threads(struct joined_run *m, const struct jvm_view *v)
{
	for (unsigned i = 0; i < m->nrows; i++) {
		struct thread_row *r = &m->rows[i];
		const struct jvm_thread_info *th = jvm_view_thread(v, (uint32_t)r->tid);
		bool primordial = r->k.tid == r->k.tgid;
		const char *name = th ? th->name : r->k.comm;

		snprintf(r->name, sizeof(r->name), "%s", name);
		r->group = jvm_group_name(th ? th->group : jvm_thread_group(name, primordial));
		r->aside = strcmp(r->group, jvm_group_name(JVM_G_APP)) != 0;
		m->app_threads += !r->aside;
	}
	/* the shares, the locks and the explanation are the application's;
	 * the JVM's own threads are counted apart (aside_rows, aside_cpu_ns) */
	for (unsigned i = 0; i < m->nrows; i++) {
		rename_hotspot_waits(&m->rows[i]);
		join_row_merge_names(&m->rows[i]);
	}
	if (m->app_threads)
		join_retotal(m);
	else
		for (unsigned i = 0; i < m->nrows; i++)
			m->rows[i].aside = false;
	if (!m->app_threads)
		join_retotal(m);
}

/* The class of the monitor at address mon: the agent's (it tells each
 * contended monitor's address), else the monitor probes' (each row keeps
 * the last monitor its thread waited for). */
static const char *class_of_monitor(const struct jvm_view *v, uint64_t mon)
{
	for (int i = 0; i < v->sites.nmons; i++)
		if (v->sites.mons[i].mon == mon)
			return v->sites.mons[i].cls;
	for (int i = 0; i < v->nmonitors; i++)
		for (int j = 0; j < v->monitors[i].nrows; j++)
			if (v->monitors[i].rows[j].v.monitor == mon)
				return v->monitors[i].cls;
	return NULL;
}

/* The lock row of a class's monitors: "monitor CLS" or, by call site,
 * "monitor CLS @ SITE". */
static struct lock_total *monitor_lock(struct joined_run *m, const char *cls)
{
	size_t n = strlen(cls);

	for (int j = 0; j < m->nlocks; j++) {
		const char *name = m->locks[j].name;

		if (m->locks[j].kind == LK_MONITOR && !strncmp(name, "monitor ", 8) &&
		    !strncmp(name + 8, cls, n) && (!name[8 + n] || name[8 + n] == ' '))
			return &m->locks[j];
	}
	return NULL;
}

/* The other locks a monitor's holders waited for: monitors by class,
 * else as any word is named. */
static void name_chain(const struct joined_run *m, const struct jvm_view *v,
		       struct lock_holders *h)
{
	for (int i = 0; i < h->nchain; i++) {
		const char *cls = class_of_monitor(v, h->chain[i].uaddr);

		if (cls) {
			snprintf(h->chain[i].lock, sizeof(h->chain[i].lock), "monitor %.150s", cls);
			h->chain[i].is_lock = true;
		}
	}
	holders_name_chain(h, join_name_word, m);
}

/* What the holders of each watched Java monitor did (jvmhold.bpf.c),
 * into its class's lock row. */
static void add_monitor_holders(struct joined_run *m, const struct jvm_view *v)
{
	for (int i = 0; m->kv && i < m->kv->nholds; i++) {
		const struct fct_hold_lock *k = &m->kv->holds[i];
		const char *cls;
		struct lock_total *t;

		if (k->kind != FCT_HOLD_HOTSPOT || !(cls = class_of_monitor(v, k->uaddr)) ||
		    !(t = monitor_lock(m, cls)))
			continue;
		holders_add(&t->holders, k, (m->groups & PG_MASK(PG_DISK)) != 0);
		name_chain(m, v, &t->holders);
		t->holders.java = true;
	}
	for (int j = 0; j < m->nlocks; j++)
		if (m->locks[j].holders.java) {
			m->locks[j].holders.waiter_ns = (double)m->locks[j].wait_ns;
			holders_whole_ns(&m->locks[j].holders);
		}
}

void join_add_jvm(struct joined_run *m, const struct jvm_view *v, bool monitors_on)
{
	if (!v)
		return;
	m->jvm = true;
	m->jvm_monitors = monitors_on;
	name_threads(m, v);
	/* the agent's view, when it ran, has what the monitor probes would
	 * (and the call sites): the probes' is not counted twice */
	for (int i = 0; i < v->nmonitors && !v->sites.loaded; i++)
		add_monitor(m, &v->monitors[i]);
	join_add_jvm_sites(m, v);
	m->jvm_agent = v->sites.loaded;
	m->jvm_agent_walks = v->sites.walks;
	m->jvm_agent_every = v->sites.every;
	m->jvm_agent_period_ms = v->sites.period_ms;
	m->jvm_agent_park_walks = v->sites.park_walks;
	add_parks(m, v);
	add_monitor_holders(m, v);
	m->gcs = v->global.gcs;
	m->gc_ns = v->global.gc_ns;
	m->gc_max_ns = v->global.gc_max_ns;
	m->safepoints = v->global.safepoints;
	m->safepoint_ns = v->global.safepoint_ns;
}
