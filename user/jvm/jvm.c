/*
 * jvm.c - bpf/jvm.bpf.c's programs: switch them on in the skeleton,
 * attach each to its HotSpot probe, and read their maps into a
 * struct jvm_view (monitors by class with per-thread rows, threads by
 * tid, GC and safepoint totals).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "fctrace.h"	/* before the skeleton: it defines struct fct_lost */
#include "fctrace.skel.h"
#include "jvm/jvm.h"

struct jvm_probe_desc {
	const char *prog;	/* the program in jvm.bpf.c or jvmhold.bpf.c */
	const char *usdt;	/* the probe in libjvm.so */
	bool needs_flag;	/* fires only with DTraceMonitorProbes */
	const char *provider;	/* NULL: "hotspot" */
	const char *func;	/* not a USDT probe: a uprobe at this symbol */
	bool ret;		/* ... at its return */
};

/* ObjectMonitor::EnterI(JavaThread *): the blocking part of a contended
 * enter (jvmhold.bpf.c), in libjvm.so's .symtab */
#define ENTERI_SYM	"_ZN13ObjectMonitor6EnterIEP10JavaThread"
/* ObjectMonitor::ReenterI(JavaThread *, ObjectWaiter *): back from
 * Object.wait, waiting to own the monitor again */
#define REENTERI_SYM	"_ZN13ObjectMonitor8ReenterIEP10JavaThreadP12ObjectWaiter"

static const struct jvm_probe_desc probes[JVM_NPROBES] = {
	[JVM_P_MON_ENTER] = { .prog = "fct_jvm_mon_enter", .usdt = "monitor__contended__enter",
			      .needs_flag = true },
	[JVM_P_MON_ENTERED] = { .prog = "fct_jvm_mon_entered",
				.usdt = "monitor__contended__entered", .needs_flag = true },
	[JVM_P_MON_EXIT] = { .prog = "fct_jvm_mon_exit", .usdt = "monitor__contended__exit",
			     .needs_flag = true },
	[JVM_P_MON_WAIT] = { .prog = "fct_jvm_mon_wait", .usdt = "monitor__wait",
			     .needs_flag = true },
	[JVM_P_MON_WAITED] = { .prog = "fct_jvm_mon_waited", .usdt = "monitor__waited",
			       .needs_flag = true },
	[JVM_P_PARK_BEGIN] = { .prog = "fct_jvm_park_begin", .usdt = "thread__park__begin" },
	[JVM_P_PARK_END] = { .prog = "fct_jvm_park_end", .usdt = "thread__park__end" },
	[JVM_P_THREAD_START] = { .prog = "fct_jvm_thread_start", .usdt = "thread__start" },
	[JVM_P_THREAD_STOP] = { .prog = "fct_jvm_thread_stop", .usdt = "thread__stop" },
	[JVM_P_GC_BEGIN] = { .prog = "fct_jvm_gc_begin", .usdt = "gc__begin" },
	[JVM_P_GC_END] = { .prog = "fct_jvm_gc_end", .usdt = "gc__end" },
	[JVM_P_SAFEPOINT_BEGIN] = { .prog = "fct_jvm_safepoint_begin", .usdt = "safepoint__begin",
				    .provider = "hs_private" },
	[JVM_P_SAFEPOINT_END] = { .prog = "fct_jvm_safepoint_end", .usdt = "safepoint__end",
				  .provider = "hs_private" },
	[JVM_P_ENTERI] = { .prog = "fct_jvm_enteri", .usdt = "ObjectMonitor::EnterI",
			   .func = ENTERI_SYM },
	[JVM_P_ENTERI_RET] = { .prog = "fct_jvm_enteri_ret", .usdt = "ObjectMonitor::EnterI",
			       .func = ENTERI_SYM, .ret = true },
	[JVM_P_REENTERI] = { .prog = "fct_jvm_reenteri", .usdt = "ObjectMonitor::ReenterI",
			     .func = REENTERI_SYM },
};

static const char *provider_of(int i)
{
	return probes[i].provider ? probes[i].provider : "hotspot";
}

const char *jvm_probe_shown(enum jvm_probe p)
{
	static char shown[JVM_NPROBES][48];

	if ((unsigned)p >= JVM_NPROBES)
		return "?";
	if (!shown[p][0] && probes[p].func)
		snprintf(shown[p], sizeof(shown[p]), "uprobe%s/libjvm.so:%s",
			 probes[p].ret ? "+ret" : "", probes[p].usdt);
	else if (!shown[p][0])
		snprintf(shown[p], sizeof(shown[p]), "usdt/%s:%s", provider_of(p), probes[p].usdt);
	return shown[p];
}

bool jvm_probe_needs_flag(enum jvm_probe p)
{
	return (unsigned)p < JVM_NPROBES && probes[p].needs_flag;
}

static struct bpf_program *prog_of(struct fctrace_bpf *skel, int i)
{
	return bpf_object__find_program_by_name(skel->obj, probes[i].prog);
}

void jvm_set_autoload(struct fctrace_bpf *skel, bool on)
{
	for (int i = 0; i < JVM_NPROBES; i++) {
		struct bpf_program *p = prog_of(skel, i);

		if (p)
			bpf_program__set_autoload(p, on);
	}
}

bool jvm_probe_for_holders(enum jvm_probe p)
{
	return (unsigned)p < JVM_NPROBES && probes[p].func;
}

void jvm_set_holders_autoload(struct fctrace_bpf *skel, bool on)
{
	for (int i = 0; i < JVM_NPROBES; i++) {
		struct bpf_program *p = prog_of(skel, i);

		if (p && probes[i].func)
			bpf_program__set_autoload(p, on);
	}
}

void jvm_set_target(struct fctrace_bpf *skel, pid_t tgid)
{
	skel->rodata->jvm_tgid = (__u32)tgid;
}

static struct bpf_link *attach_one(struct bpf_program *p, int i, pid_t pid, const char *libjvm)
{
	LIBBPF_OPTS(bpf_uprobe_opts, uo, .func_name = probes[i].func, .retprobe = probes[i].ret);

	if (probes[i].func)
		return bpf_program__attach_uprobe_opts(p, pid, libjvm, 0, &uo);
	return bpf_program__attach_usdt(p, pid, libjvm, provider_of(i), probes[i].usdt, NULL);
}

int jvm_attach(struct fctrace_bpf *skel, pid_t pid, const char *libjvm,
	       struct jvm_links *l)
{
	bool any = false;

	memset(l, 0, sizeof(*l));
	for (int i = 0; i < JVM_NPROBES; i++) {
		struct bpf_program *p = prog_of(skel, i);

		if (!p || bpf_program__fd(p) < 0) {
			l->err[i] = -ENOENT;
			continue;
		}
		any = true;
		l->link[i] = attach_one(p, i, pid, libjvm);
		if (!l->link[i]) {
			l->err[i] = errno ? -errno : -EINVAL;
			continue;
		}
		l->nattached++;
	}
	return any ? l->nattached : -EINVAL;
}

void jvm_detach(struct jvm_links *l)
{
	for (int i = 0; l && i < JVM_NPROBES; i++) {
		bpf_link__destroy(l->link[i]);
		l->link[i] = NULL;
	}
	if (l)
		l->nattached = 0;
}

/* --- reading -------------------------------------------------------------- */

void jvm_class_name(const struct fct_jvm_mon_key *k, char *out, size_t len)
{
	char cls[FCT_JVM_NAME_LEN + 1];

	memcpy(cls, k->cls, FCT_JVM_NAME_LEN);
	cls[FCT_JVM_NAME_LEN] = '\0';
	for (char *c = cls; *c; c++)
		if (*c == '/')
			*c = '.';
	snprintf(out, len, "%s%s", k->flags & FCT_JVM_F_TRUNCATED ? "..." : "", cls);
}

static int cmp_thread(const void *a, const void *b)
{
	const struct jvm_thread_info *x = a, *y = b;

	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* The account at the start of a map value: the BPF programs keep their
 * private state after it (jvm.bpf.c's slots), so the value is read whole
 * into buf (vsz bytes, the map's value size) and its first n bytes kept. */
static int lookup_account(int fd, const void *key, void *buf, size_t vsz, void *out, size_t n)
{
	if (vsz < n || bpf_map_lookup_elem(fd, key, buf))
		return -1;
	memcpy(out, buf, n);
	return 0;
}

static size_t value_size(int fd)
{
	struct bpf_map_info info = { 0 };
	__u32 len = sizeof(info);

	return bpf_obj_get_info_by_fd(fd, &info, &len) ? 0 : info.value_size;
}

static int read_threads(int fd, pid_t pid, struct jvm_view *v)
{
	size_t vsz = value_size(fd);
	void *buf = vsz ? malloc(vsz) : NULL;

	__u32 key, next, *prev = NULL;
	int cap = 0;

	if (!buf)
		return vsz ? -ENOMEM : -EINVAL;
	while (bpf_map_get_next_key(fd, prev, &next) == 0) {
		struct jvm_thread_info *t;

		key = next;
		prev = &key;
		if (v->nthreads == cap) {
			void *n = realloc(v->threads, (cap = cap * 2 + 64) * sizeof(*v->threads));

			if (!n) {
				free(buf);
				return -ENOMEM;
			}
			v->threads = n;
		}
		t = &v->threads[v->nthreads];
		memset(t, 0, sizeof(*t));
		if (lookup_account(fd, &key, buf, vsz, &t->k, sizeof(t->k)))
			continue;	/* deleted meanwhile */
		t->tid = key;
		t->java_name = t->k.started;
		memcpy(t->name, t->k.name, sizeof(t->name));
		t->name[sizeof(t->name) - 1] = '\0';
		t->group = jvm_thread_group(t->name, pid > 0 && key == (uint32_t)pid);
		v->nthreads++;
	}
	free(buf);
	qsort(v->threads, v->nthreads, sizeof(*v->threads), cmp_thread);
	return 0;
}

static struct jvm_monitor *monitor_for(struct jvm_view *v, const char *cls, int *cap)
{
	struct jvm_monitor *m;

	for (int i = 0; i < v->nmonitors; i++)
		if (!strcmp(v->monitors[i].cls, cls))
			return &v->monitors[i];
	if (v->nmonitors == *cap) {
		void *n = realloc(v->monitors, (*cap = *cap * 2 + 16) * sizeof(*v->monitors));

		if (!n)
			return NULL;
		v->monitors = n;
	}
	m = &v->monitors[v->nmonitors++];
	memset(m, 0, sizeof(*m));
	snprintf(m->cls, sizeof(m->cls), "%s", cls);
	return m;
}

static int add_row(struct jvm_monitor *m, uint32_t tid, const struct fct_jvm_mon_val *val)
{
	void *n = realloc(m->rows, (m->nrows + 1) * sizeof(*m->rows));

	if (!n)
		return -ENOMEM;
	m->rows = n;
	m->rows[m->nrows].tid = tid;
	m->rows[m->nrows++].v = *val;
	m->enters += val->enters;
	m->enter_ns += val->enter_ns;
	if (val->enter_max_ns > m->enter_max_ns)
		m->enter_max_ns = val->enter_max_ns;
	m->exits += val->exits;
	m->waits += val->waits;
	m->wait_ns += val->wait_ns;
	if (val->wait_max_ns > m->wait_max_ns)
		m->wait_max_ns = val->wait_max_ns;
	for (int i = 0; i < FCT_HIST_SLOTS; i++)
		m->hist[i] += val->hist[i];
	return 0;
}

static int cmp_row(const void *a, const void *b)
{
	const struct jvm_monitor_row *x = a, *y = b;

	if (x->v.enter_ns != y->v.enter_ns)
		return x->v.enter_ns < y->v.enter_ns ? 1 : -1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

static int cmp_monitor(const void *a, const void *b)
{
	const struct jvm_monitor *x = a, *y = b;

	if (x->enter_ns != y->enter_ns)
		return x->enter_ns < y->enter_ns ? 1 : -1;
	if (x->wait_ns != y->wait_ns)
		return x->wait_ns < y->wait_ns ? 1 : -1;
	return strcmp(x->cls, y->cls);
}

static int read_monitors(int fd, struct jvm_view *v)
{
	struct fct_jvm_mon_key key, next;
	bool first = true;
	int cap = 0;

	while (bpf_map_get_next_key(fd, first ? NULL : &key, &next) == 0) {
		struct fct_jvm_mon_val val;
		struct jvm_monitor *m;
		char cls[FCT_JVM_NAME_LEN + 4];

		key = next;
		first = false;
		if (bpf_map_lookup_elem(fd, &key, &val))
			continue;
		jvm_class_name(&key, cls, sizeof(cls));
		m = monitor_for(v, cls, &cap);
		if (!m || add_row(m, key.tid, &val))
			return -ENOMEM;
	}
	for (int i = 0; i < v->nmonitors; i++)
		qsort(v->monitors[i].rows, v->monitors[i].nrows, sizeof(*v->monitors[i].rows), cmp_row);
	qsort(v->monitors, v->nmonitors, sizeof(*v->monitors), cmp_monitor);
	return 0;
}

int jvm_read_fds(int threads_fd, int monitors_fd, int global_fd, pid_t pid,
		 struct jvm_view *v)
{
	size_t vsz = value_size(global_fd);
	void *buf = vsz ? malloc(vsz) : NULL;
	__u32 zero = 0;
	int err;

	memset(v, 0, sizeof(*v));
	err = buf ? lookup_account(global_fd, &zero, buf, vsz, &v->global, sizeof(v->global)) : -1;
	free(buf);
	if (err)
		return -EIO;
	err = read_threads(threads_fd, pid, v);
	if (!err)
		err = read_monitors(monitors_fd, v);
	if (err)
		jvm_view_free(v);
	return err;
}

int jvm_read(struct fctrace_bpf *skel, pid_t pid, struct jvm_view *v)
{
	return jvm_read_fds(bpf_map__fd(skel->maps.jvm_threads), bpf_map__fd(skel->maps.jvm_monitors),
			    bpf_map__fd(skel->maps.jvm_global), pid, v);
}

void jvm_view_free(struct jvm_view *v)
{
	if (!v)
		return;
	for (int i = 0; i < v->nmonitors; i++)
		free(v->monitors[i].rows);
	free(v->monitors);
	free(v->threads);
	free(v->sites.rows);
	free(v->sites.mons);
	for (int i = 0; i < v->sites.nstacks; i++)
		free(v->sites.stacks[i].frames);
	free(v->sites.stacks);
	memset(v, 0, sizeof(*v));
}

const struct jvm_thread_info *jvm_view_thread(const struct jvm_view *v, uint32_t tid)
{
	for (int i = 0; v && i < v->nthreads; i++)
		if (v->threads[i].tid == tid)
			return &v->threads[i];
	return NULL;
}

const struct jvm_monitor *jvm_view_monitor(const struct jvm_view *v, const char *cls)
{
	for (int i = 0; v && i < v->nmonitors; i++)
		if (!strcmp(v->monitors[i].cls, cls))
			return &v->monitors[i];
	return NULL;
}

const struct jvm_monitor_row *jvm_monitor_row(const struct jvm_monitor *m, uint32_t tid)
{
	for (int i = 0; m && i < m->nrows; i++)
		if (m->rows[i].tid == tid)
			return &m->rows[i];
	return NULL;
}
